//! A partner's sales figures per day (`SalesRepo`): a range replaced whole, read back by day
//! and method; the trials of a range.

use super::*;
use time::macros::date;
use vp_domain::sales::Figures;
use vp_ports::DailySales;

contract_tests!(
    a_range_of_daily_sales_is_replaced_whole_and_read_back_by_day_and_method,
    the_trials_of_a_range_are_found_by_when_they_were_granted,
);

fn sales(day: time::Date, method: &str, paid: u32, kopecks: i64) -> DailySales {
    let figures = Figures {
        issued: paid + 1,
        paid,
        gross: Money::from_kopecks(kopecks),
        partner_share: Money::from_kopecks(kopecks / 6),
        ..Figures::default()
    };
    DailySales { day, method: method.into(), figures }
}

async fn a_range_of_daily_sales_is_replaced_whole_and_read_back_by_day_and_method(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let (d1, d2, d3) = (date!(2026 - 11 - 30), date!(2026 - 12 - 01), date!(2026 - 12 - 02));
    let mut tx = begin(&ctx.store).await;
    let first = [sales(d1, "card", 2, 47_760), sales(d1, "sbp", 1, 23_880), sales(d2, "card", 1, 23_880)];
    tx.replace_daily_sales("acc-1", d1, d3, &first).await.unwrap();
    tx.replace_daily_sales("acc-2", d1, d3, &[sales(d2, "card", 9, 1)]).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.daily_sales("acc-1", d1, d3).await.unwrap(), first);
    assert_eq!(tx.daily_sales("acc-1", d2, d2).await.unwrap(), [first[2].clone()], "both ends included");
    // Rebuilding the second day replaces its rows only.
    let clients =
        DailySales { day: d2, method: String::new(), figures: Figures { new_clients: 3, ..Figures::default() } };
    tx.replace_daily_sales("acc-1", d2, d3, std::slice::from_ref(&clients)).await.unwrap();
    assert_eq!(tx.daily_sales("acc-1", d1, d3).await.unwrap(), [first[0].clone(), first[1].clone(), clients]);
    assert_eq!(tx.daily_sales("acc-2", d1, d3).await.unwrap().len(), 1, "another account's stand");
    tx.commit().await.unwrap();
}

async fn the_trials_of_a_range_are_found_by_when_they_were_granted(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-1-c2", "acc-1", "bob", T0)).await.unwrap();
    tx.insert_trial_grant("acc-1", "acc-1-c1", at(10)).await.unwrap();
    tx.insert_trial_grant("acc-1", "acc-1-c2", at(20)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.trials_granted_between("acc-1", at(10), at(20)).await.unwrap(), [at(10)], "[from, to)");
    assert_eq!(tx.trials_granted_between("acc-1", at(0), at(30)).await.unwrap().len(), 2);
    assert!(tx.trials_granted_between("acc-2", at(0), at(30)).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}
