//! Telegram Stars: rates, invoices, charges and subscriptions (`StarsRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(stars_rates_invoices_charges_and_subscriptions_round_trip,);

async fn stars_rates_invoices_charges_and_subscriptions_round_trip(ctx: Ctx) {
    use vp_domain::stars::StarsRate;
    use vp_ports::{StarsCharge, StarsInvoice, StarsSubscription};
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_client(&client("c-1", "acc-1", "one", at(0))).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), None, "no rate, no Stars");
    let rate = StarsRate::parse("1.79").unwrap();
    tx.set_stars_rate("acc-1", Some(rate), at(1)).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), Some(rate));
    let changed = StarsRate::parse("2").unwrap();
    tx.set_stars_rate("acc-1", Some(changed), at(2)).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), Some(changed), "set again, replaced");
    tx.set_stars_rate("acc-1", None, at(3)).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), None, "off");

    let stars_invoice = StarsInvoice {
        payment_id: "pay_1".into(),
        account_id: AccountId::issued("acc-1".into()),
        stars: 150,
        subscription: true,
        created_at: at(4),
    };
    tx.insert_stars_invoice(&stars_invoice).await.unwrap();
    tx.insert_stars_invoice(&StarsInvoice { stars: 999, ..stars_invoice.clone() }).await.unwrap();
    assert_eq!(tx.stars_invoice("pay_1").await.unwrap(), Some(stars_invoice), "the first record stays");
    tx.insert_invoice(&invoice("pay_1", "acc-1", "c-1", Purpose::Subscription { plan_id: 1 })).await.unwrap();

    let charge = StarsCharge {
        charge_id: "stx1".into(),
        account_id: AccountId::issued("acc-1".into()),
        payment_id: "pay_1".into(),
        user_id: 42,
        stars: 150,
        renewal: false,
        paid_at: at(5),
        refunded_at: None,
    };
    tx.insert_stars_charge(&charge).await.unwrap();
    assert_eq!(tx.stars_charge("stx1").await.unwrap(), Some(charge.clone()));
    assert_eq!(tx.stars_charge_of_invoice("pay_1").await.unwrap(), Some(charge.clone()));
    let refunded = StarsCharge { refunded_at: Some(at(6)), ..charge };
    tx.update_stars_charge(&refunded).await.unwrap();
    assert_eq!(tx.stars_charge("stx1").await.unwrap(), Some(refunded));

    let subscription = StarsSubscription {
        charge_id: "stx1".into(),
        account_id: AccountId::issued("acc-1".into()),
        client_ref: cref("c-1"),
        payment_id: "pay_1".into(),
        user_id: 42,
        stars: 150,
        paid_until: at(30),
        canceled_at: None,
    };
    tx.insert_stars_subscription(&subscription).await.unwrap();
    assert_eq!(tx.stars_subscription_of_client("c-1").await.unwrap(), Some(subscription.clone()));
    let canceled = StarsSubscription { paid_until: at(60), canceled_at: Some(at(40)), ..subscription };
    tx.update_stars_subscription(&canceled).await.unwrap();
    assert_eq!(tx.stars_subscription("stx1").await.unwrap(), Some(canceled));
    assert_eq!(tx.stars_subscription_of_client("c-2").await.unwrap(), None);
    tx.commit().await.unwrap();
}
