//! Telegram Stars at the use-case level: the pre-checkout answer's rules, a payment applied
//! once per charge even when the process stopped between recording and settling it, a second
//! payment of a paid invoice given back, and a Stars subscription cancelled wherever automatic
//! renewal is turned off.

use crate::support;
use crate::support::cid;
use vp_domain::AccountId;

use support::World;
use vp_app::renewals::TurnedOffBy;
use vp_app::stars::{CheckoutRefusal, StarsPayment};
use vp_domain::stars::StarsRate;
use vp_domain::{ClientId, IdempotencyKey, InvoiceRequest, InvoiceStatus};
use vp_ports::{InvoiceRecord, PreCheckout, StarsCharge, StarsPaid};

const USER: i64 = 777;

fn rate() -> StarsRate {
    StarsRate::parse("1.50").unwrap()
}

/// A Stars invoice of the bot for `client` (plan 1: 238.80 ₽, 160 Stars).
async fn stars_invoice(w: &World, client: &str) -> InvoiceRecord {
    let request = support::order(client, 1, "telegram_stars");
    let key = IdempotencyKey::parse(Some(&format!("stars-{client}"))).unwrap();
    let account = w.account().await;
    w.app.payments.create_bot_invoice(&account, key, request, Some(rate())).await.unwrap().invoice
}

fn query(payment_id: &str, stars: i64) -> PreCheckout {
    PreCheckout {
        id: format!("q-{stars}"),
        user_id: USER,
        language: Some("ru".into()),
        currency: "XTR".into(),
        total_amount: stars,
        payload: payment_id.into(),
    }
}

fn paid(payment_id: &str, charge_id: &str) -> StarsPaid {
    StarsPaid {
        chat_id: USER,
        user_id: USER,
        currency: "XTR".into(),
        total_amount: 160,
        payload: payment_id.into(),
        charge_id: charge_id.into(),
        recurring: true,
        first_recurring: true,
        paid_until: None,
    }
}

async fn status(w: &World, payment_id: &str) -> InvoiceStatus {
    let mut tx = w.store.read().await.unwrap();
    let invoice = tx.invoice_by_id(payment_id).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    invoice.status
}

#[tokio::test]
async fn the_partner_api_offers_no_stars_only_the_bot_at_the_accounts_rate_and_telegram_alone_takes_them() {
    let w = World::with_partner_bot().await;
    let request = support::order("u1", 1, "telegram_stars");
    let key = IdempotencyKey::parse(Some("k1")).unwrap();
    let refused = w.app.payments.create_invoice(&w.account().await, key, request).await;
    assert_eq!(support::refusal(refused), vp_app::Refusal::UnsupportedPaymentMethod);
    let invoice = stars_invoice(&w, "u1").await;
    assert_eq!((invoice.method.as_str(), invoice.amounts.customer.to_string()), ("telegram_stars", "240.00".into()));
    assert_eq!(invoice.payment_url.as_deref(), Some(format!("https://t.me/$stars-{}", invoice.payment_id).as_str()));
    assert_eq!(invoice.gateway_payment_id, None, "a Stars charge is known once paid");
    let on_the_page = w.app.payments.sandbox_pay(&invoice.payment_id, true, None).await;
    assert!(matches!(on_the_page, Err(vp_app::AppError::NotFound(_))), "paid in Telegram only: {on_the_page:?}");
    assert_eq!(status(&w, &invoice.payment_id).await, InvoiceStatus::Pending);
}

#[tokio::test]
async fn pre_checkout_refuses_another_amount_a_passed_deadline_a_blocked_client_and_another_accounts_invoice() {
    let w = World::with_partner_bot().await;
    let invoice = stars_invoice(&w, "u1").await;
    let account = w.account.id.clone();
    let check = |q: PreCheckout| {
        let (stars, account) = (w.app.stars.clone(), account.clone());
        async move { stars.pre_checkout(&account, &q).await.unwrap() }
    };
    assert_eq!(check(query(&invoice.payment_id, 160)).await, None, "payable");
    assert_eq!(check(query(&invoice.payment_id, 159)).await, Some(CheckoutRefusal::AmountChanged));
    assert_eq!(check(query("pay_unknown", 160)).await, Some(CheckoutRefusal::NotPayable));
    assert_eq!(
        w.app
            .stars
            .pre_checkout(&AccountId::issued("acc_other".into()), &query(&invoice.payment_id, 160))
            .await
            .unwrap(),
        Some(CheckoutRefusal::NotPayable),
        "only the bot's own account's invoices"
    );
    w.app.operator.set_client_blocked(&w.account.id, &cid("u1"), true).await.unwrap();
    assert_eq!(check(query(&invoice.payment_id, 160)).await, Some(CheckoutRefusal::Blocked));
    w.app.operator.set_client_blocked(&w.account.id, &cid("u1"), false).await.unwrap();
    w.clock.advance(time::Duration::minutes(31));
    assert_eq!(check(query(&invoice.payment_id, 160)).await, Some(CheckoutRefusal::NotPayable), "past its deadline");
}

#[tokio::test]
async fn a_charge_recorded_before_a_crash_is_settled_once_when_telegram_reports_it_again() {
    let w = World::with_partner_bot().await;
    let invoice = stars_invoice(&w, "u1").await;
    // The first report's unit of work recorded the charge; the process stopped before settling.
    let mut tx = w.store.begin().await.unwrap();
    tx.insert_stars_charge(&StarsCharge {
        charge_id: "stx1".into(),
        account_id: w.account.id.clone(),
        payment_id: invoice.payment_id.to_string(),
        user_id: USER,
        stars: 160,
        renewal: false,
        paid_at: w.clock.now_for_test(),
        refunded_at: None,
    })
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(status(&w, &invoice.payment_id).await, InvoiceStatus::Pending);

    let again = w.app.stars.paid(&w.account.id, &paid(&invoice.payment_id, "stx1")).await.unwrap();
    assert!(matches!(again, StarsPayment::Settled(_)), "{again:?}");
    assert_eq!(status(&w, &invoice.payment_id).await, InvoiceStatus::Succeeded);
    let credited = w.balance().await;
    let third = w.app.stars.paid(&w.account.id, &paid(&invoice.payment_id, "stx1")).await.unwrap();
    assert_eq!(third, StarsPayment::Repeated);
    assert_eq!(w.balance().await, credited, "credited once");
}

#[tokio::test]
async fn a_second_payment_of_a_paid_invoice_is_given_back_and_an_unknown_one_changes_nothing() {
    let w = World::with_partner_bot().await;
    let invoice = stars_invoice(&w, "u1").await;
    let first = w.app.stars.paid(&w.account.id, &paid(&invoice.payment_id, "stx1")).await.unwrap();
    assert!(matches!(first, StarsPayment::Settled(_)));
    let credited = w.balance().await;
    let twice = w.app.stars.paid(&w.account.id, &paid(&invoice.payment_id, "stx2")).await.unwrap();
    assert_eq!(twice, StarsPayment::Refunded);
    assert_eq!(w.bots.stars_calls.lock().unwrap().clone(), vec![format!("refund {USER} stx2")]);
    assert_eq!(w.balance().await, credited, "the second payment credits nothing");

    let unknown = w.app.stars.paid(&w.account.id, &paid("pay_unknown", "stx3")).await.unwrap();
    assert_eq!(unknown, StarsPayment::Ignored);
    let other =
        w.app.stars.paid(&AccountId::issued("acc_other".into()), &paid(&invoice.payment_id, "stx4")).await.unwrap();
    assert_eq!(other, StarsPayment::Ignored, "another account's bot cannot settle it");
}

#[tokio::test]
async fn turning_automatic_renewal_off_anywhere_cancels_the_stars_subscription_in_telegram() {
    let w = World::with_partner_bot().await;
    let invoice = stars_invoice(&w, "u1").await;
    w.app.stars.paid(&w.account.id, &paid(&invoice.payment_id, "stx1")).await.unwrap();
    assert!(w.subscription("u1").await.auto_renew, "Telegram renews it");
    let off = w.app.renewals.turn_off(&w.account.id, &ClientId::parse("u1").unwrap(), TurnedOffBy::Operator).await;
    assert!(off.unwrap().was_on);
    assert_eq!(w.bots.stars_calls.lock().unwrap().clone(), vec![format!("cancel {USER} stx1")]);
    assert!(!w.subscription("u1").await.auto_renew);
    let again = w.app.renewals.turn_off(&w.account.id, &ClientId::parse("u1").unwrap(), TurnedOffBy::Operator).await;
    assert!(!again.unwrap().was_on, "off already: Telegram is not asked again");
    assert_eq!(w.bots.stars_calls.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn an_invoice_with_a_promo_code_paid_in_stars_takes_two_units_of_work_as_a_plain_one_does() {
    let w = World::with_partner_bot().await;
    let promo = vp_app::promotions::NewPromo {
        code: "WEEK-MORE".into(),
        benefit: vp_domain::promo::Benefit::ExtraDays(7),
        max_uses: Some(1),
        per_customer: 1,
        first_purchase_only: false,
        plans: None,
        last_day: None,
    };
    w.app.promotions.create(vp_app::actor::Acting::Operator(&w.account.id), promo).await.unwrap();
    let account = w.account().await;
    let request = |client: &str, method: &str, promo: Option<&str>| InvoiceRequest {
        promo_code: promo.map(|c| vp_domain::promo::PromoCode::parse(c).unwrap()),
        ..support::order(client, 1, method)
    };
    let key = |k: &str| IdempotencyKey::parse(Some(k)).unwrap();
    let units = || w.counted.writing_units();

    let before = units();
    w.app.payments.create_invoice(&account, key("plain"), request("u-plain", "card", None)).await.unwrap();
    assert_eq!(units() - before, 2, "the key reserved, the answer recorded");

    let before = units();
    let held = request("u-stars", "telegram_stars", Some("WEEK-MORE"));
    let issued = w.app.payments.create_bot_invoice(&account, key("stars-promo"), held, Some(rate())).await.unwrap();
    assert_eq!(units() - before, 2, "the code's use and the Stars price are held with the key");
    assert_eq!(issued.invoice.promo.map(|p| p.extra_days), Some(7));
    let mut tx = w.store.read().await.unwrap();
    let stars = tx.stars_invoice(&issued.invoice.payment_id).await.unwrap().expect("the Stars price is kept");
    tx.commit().await.unwrap();
    assert_eq!(stars.stars, 160);

    // The code's last use is held: another request is refused in its first unit of work,
    // which binds no key (the same key then works without the code).
    let before = units();
    let refused = w.app.payments.create_bot_invoice(
        &account,
        key("stars-promo-2"),
        request("u-late", "telegram_stars", Some("WEEK-MORE")),
        Some(rate()),
    );
    assert!(matches!(support::refusal(refused.await), vp_app::Refusal::Promo(_)));
    assert_eq!(units() - before, 1, "one unit, rolled back whole");
    let without = request("u-late", "telegram_stars", None);
    w.app.payments.create_bot_invoice(&account, key("stars-promo-2"), without, Some(rate())).await.unwrap();
}
