//! A partner's sales figures per day (`SalesRepo`): a range replaced whole, read back by day,
//! channel and method; the trials and ended subscriptions of a range; the facts beside a page
//! of invoices; which clients the web shop serves.

use super::*;
use time::macros::date;
use vp_domain::sales::{Channel, Figures, Renewal};
use vp_ports::DailySales;

contract_tests!(
    a_range_of_daily_sales_is_replaced_whole_and_read_back_by_day_and_method,
    the_trials_of_a_range_are_found_by_when_they_were_granted,
    a_pages_sale_facts_name_first_purchases_past_gifts_trials_invitations_and_automatic_charges,
    paid_subscriptions_whose_term_ran_out_in_a_range_are_found_and_trials_and_lifetimes_are_not,
    the_web_shop_serves_an_addresss_first_client_and_its_further_subscriptions,
);

fn sales(day: time::Date, method: &str, paid: u32, kopecks: i64) -> DailySales {
    let figures = Figures {
        issued: paid + 1,
        paid,
        gross: Money::from_kopecks(kopecks),
        partner_share: Money::from_kopecks(kopecks / 6),
        ..Figures::default()
    };
    DailySales { day, channel: Channel::Api, method: method.into(), figures }
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
    let clients = DailySales {
        day: d2,
        channel: Channel::Bot,
        method: String::new(),
        figures: Figures { new_clients: 3, ended: 1, ..Figures::default() },
    };
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
    assert_eq!(
        tx.trials_granted_between("acc-1", at(10), at(20)).await.unwrap(),
        [(cid("alice"), at(10))],
        "[from, to)"
    );
    assert_eq!(tx.trials_granted_between("acc-1", at(0), at(30)).await.unwrap().len(), 2);
    assert!(tx.trials_granted_between("acc-2", at(0), at(30)).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

/// A paid invoice of `client_ref` for a subscription, paid at `t`.
fn paid(payment_id: &str, client_ref: &str, t: i64) -> InvoiceRecord {
    InvoiceRecord {
        status: InvoiceStatus::Succeeded,
        created_at: at(t),
        paid_at: Some(at(t + 1)),
        ..invoice(payment_id, "acc-1", client_ref, Purpose::Subscription { plan_id: 1 })
    }
}

async fn a_pages_sale_facts_name_first_purchases_past_gifts_trials_invitations_and_automatic_charges(ctx: Ctx) {
    use vp_domain::referral::RewardState;
    use vp_ports::{GiftRecord, ReferralRecord, ReferralReward, StarsCharge};
    seed(&ctx.store, "acc-1").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-1-c2", "acc-1", "bob", T0)).await.unwrap();
    // Alice bought a gift first, then for herself twice (the second by Stars' monthly charge).
    for (id, t) in [("pay_gift", 10), ("pay_a1", 20), ("pay_a2", 30)] {
        tx.insert_invoice(&paid(id, "acc-1-c1", t)).await.unwrap();
    }
    tx.insert_invoice(&invoice("pay_a0", "acc-1", "acc-1-c1", Purpose::Subscription { plan_id: 1 })).await.unwrap();
    tx.insert_gift(&GiftRecord {
        payment_id: PaymentId::issued("pay_gift".into()),
        account_id: AccountId::issued("acc-1".into()),
        code_hash: "ab".repeat(32),
        recipient_email: None,
        lang: vp_domain::Lang::Ru,
        created_at: at(11),
        redeemed_at: None,
        redeemed_by: None,
        refunded_at: None,
    })
    .await
    .unwrap();
    tx.insert_stars_charge(&StarsCharge {
        charge_id: "stx2".into(),
        account_id: AccountId::issued("acc-1".into()),
        payment_id: "pay_a2".into(),
        user_id: 42,
        stars: 150,
        renewal: true,
        paid_at: at(31),
        refunded_at: None,
    })
    .await
    .unwrap();
    // Bob had a trial, came through Alice's link and rewarded her with his first payment.
    tx.insert_trial_grant("acc-1", "acc-1-c2", at(5)).await.unwrap();
    tx.touch_bot_customer("acc-1", 77, 77, at(1)).await.unwrap();
    tx.link_bot_customer("acc-1", 77, "acc-1-c2").await.unwrap();
    tx.insert_invoice(&paid("pay_b1", "acc-1-c2", 40)).await.unwrap();
    tx.insert_referral(&ReferralRecord {
        account_id: AccountId::issued("acc-1".into()),
        invited_user_id: 77,
        inviter_ref: cref("acc-1-c1"),
        invited_at: at(1),
        reward: Some(ReferralReward {
            payment_id: "pay_b1".into(),
            days: 7,
            state: RewardState::Days,
            rewarded_at: at(41),
            spent_payment_id: None,
            reversed_at: None,
        }),
    })
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    let page: Vec<(PaymentId, ClientRef)> = [
        ("pay_gift", "acc-1-c1"),
        ("pay_a1", "acc-1-c1"),
        ("pay_a2", "acc-1-c1"),
        ("pay_a0", "acc-1-c1"),
        ("pay_b1", "acc-1-c2"),
    ]
    .into_iter()
    .map(|(p, c)| (PaymentId::issued(p.into()), cref(c)))
    .collect();
    let facts = tx.sale_facts("acc-1", &page).await.unwrap();
    let ids = |set: &std::collections::HashSet<PaymentId>| {
        let mut v: Vec<String> = set.iter().map(|p| p.to_string()).collect();
        v.sort();
        v
    };
    let firsts = tx.first_purchases(&[cref("acc-1-c1"), cref("acc-1-c2"), cref("acc-1-c3")]).await.unwrap();
    let mut firsts: Vec<(String, String)> = firsts.iter().map(|(c, p)| (c.to_string(), p.to_string())).collect();
    firsts.sort();
    assert_eq!(
        firsts,
        [("acc-1-c1".to_owned(), "pay_a1".to_owned()), ("acc-1-c2".to_owned(), "pay_b1".to_owned())],
        "each client's first paid purchase for itself, past the gift; a client who bought none is not there"
    );
    assert_eq!(ids(&facts.gifts), ["pay_gift"]);
    assert_eq!(facts.had_trial, [cref("acc-1-c2")].into_iter().collect());
    assert_eq!(facts.invited, [cref("acc-1-c2")].into_iter().collect());
    assert_eq!(ids(&facts.rewarding), ["pay_b1"]);
    assert_eq!(facts.automatic, [(PaymentId::issued("pay_a2".into()), Renewal::Stars)].into_iter().collect());
    let none = tx.sale_facts("acc-1", &[]).await.unwrap();
    assert_eq!(none, vp_ports::SaleFacts::default(), "an empty page has no facts");
    tx.commit().await.unwrap();
}

async fn paid_subscriptions_whose_term_ran_out_in_a_range_are_found_and_trials_and_lifetimes_are_not(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    let ending = |token: &str, t: i64, is_trial: bool, lifetime: bool| {
        let mut s = subscription(SubscriptionStatus::Active, token);
        s.subscription.expires_at = at(t);
        s.subscription.is_trial = is_trial;
        s.subscription.lifetime = lifetime;
        s
    };
    for (id, client_id) in [("acc-1-c2", "bob"), ("acc-1-c3", "vera"), ("acc-1-c4", "gleb")] {
        tx.insert_client(&client(id, "acc-1", client_id, T0)).await.unwrap();
    }
    tx.save_subscription("acc-1-c1", &ending("t1", 100, false, false)).await.unwrap();
    tx.save_subscription("acc-1-c2", &ending("t2", 200, false, false)).await.unwrap();
    tx.save_subscription("acc-1-c3", &ending("t3", 150, true, false)).await.unwrap();
    tx.save_subscription("acc-1-c4", &ending("t4", 150, false, true)).await.unwrap();
    tx.save_subscription("acc-2-c1", &ending("t5", 150, false, false)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let ended = tx.subscriptions_ended_between("acc-1", at(100), at(200)).await.unwrap();
    assert_eq!(
        ended,
        [vp_ports::EndedSubscription { client_id: cid("alice"), ended_at: at(100) }],
        "[from, to), paid terms of this account only"
    );
    assert_eq!(tx.subscriptions_ended_between("acc-1", at(0), at(300)).await.unwrap().len(), 2);
    tx.commit().await.unwrap();
}

async fn the_web_shop_serves_an_addresss_first_client_and_its_further_subscriptions(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-1-c2", "acc-1", "email:abc", T0)).await.unwrap();
    tx.add_shop_customer(&vp_ports::ShopCustomer {
        account_id: AccountId::issued("acc-1".into()),
        email: "anna@example.com".into(),
        client_ref: cref("acc-1-c2"),
        lang: vp_domain::Lang::Ru,
        first_payment_id: Some("pay_1".into()),
        created_at: at(1),
    })
    .await
    .unwrap();
    tx.put_shop_subscription(&vp_ports::ShopSubscription {
        account_id: AccountId::issued("acc-1".into()),
        email: "anna@example.com".into(),
        position: 2,
        client_id: cid("email:abc:2"),
        name: "Router".into(),
        created_at: at(2),
    })
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let asked: Vec<String> = ["alice", "email:abc", "email:abc:2", "email:zzz"].map(str::to_owned).into();
    let mut served = tx.shop_customers_among("acc-1", &asked).await.unwrap();
    served.sort();
    assert_eq!(served, ["email:abc", "email:abc:2"]);
    assert!(tx.shop_customers_among("acc-2", &asked).await.unwrap().is_empty(), "another account's shop");
    tx.commit().await.unwrap();
}
