//! Automatic renewal on a real SQLite store with a moved clock: a consenting customer's saved
//! method is charged once per term, 24 hours before its end, and the term moves only when the
//! payment succeeded; without consent nothing is charged; a declined charge is tried at most
//! twice more and then the term ends as usual; turning renewal off stops the next charge.

use crate::support;
use crate::support::cid;

use std::sync::atomic::Ordering;

use support::{PARTNER_BOT_TOKEN, World};
use time::{Duration, OffsetDateTime};
use vp_app::renewals::ConsentGiven;
use vp_domain::{ClientId, IdempotencyKey, InvoiceStatus, Lang, SubscriptionStatus};
use vp_ports::{BotMessage, RenewalChargeState, RenewalConsent};

const SENTENCE: &str = "Renew automatically: RUB 299.00 for 1 month each time, next charge on 2026-01-31.";

/// Pays a one-month invoice for `client` on the sandbox page, ticking "renew automatically"
/// when `consent`; returns the invoice id.
async fn buy(w: &World, client: &str, consent: bool) -> String {
    buy_through(&w.app, w, client, consent).await
}

/// A month bought by `client` with renewal consented to; the end of its term.
async fn renewing(w: &World, client: &str) -> OffsetDateTime {
    buy(w, client, true).await;
    w.subscription(client).await.subscription.expires_at
}

/// `buy` through these services (the same database under other secrets keys).
async fn buy_through(app: &vp_app::Services, w: &World, client: &str, consent: bool) -> String {
    let request = support::order(client, 1, "card");
    let key = IdempotencyKey::parse(Some(&format!("k-{client}-{}", w.clock.now_for_test()))).unwrap();
    let invoice = app.payments.create_invoice(&w.account, key, request).await.unwrap().invoice;
    let given = consent.then(|| ConsentGiven { text: SENTENCE.into(), lang: Lang::En });
    app.payments.sandbox_pay(&invoice.payment_id, true, given).await.unwrap();
    invoice.payment_id.into()
}

/// The term check and the renewal worker, as the background loop runs them.
async fn check(w: &World) {
    w.app.events.check_terms().await.unwrap();
    w.app.renewals.run_due_charges(100).await.unwrap();
}

/// Moves the clock to `at` and checks.
async fn check_at(w: &World, at: OffsetDateTime) {
    let now = w.clock.now_for_test();
    assert!(at >= now, "the clock only moves on");
    w.clock.advance(at - now);
    check(w).await;
}

fn charges(w: &World) -> usize {
    w.gateway.saved_charges.lock().unwrap().len()
}

async fn consent_of(w: &World, client: &str) -> Option<RenewalConsent> {
    let mut tx = w.store.read().await.unwrap();
    let c = tx.client(&w.account.id, &ClientId::parse(client).unwrap()).await.unwrap().unwrap();
    let consent = tx.current_consent(&c.id).await.unwrap();
    tx.commit().await.unwrap();
    consent
}

async fn invoices_of(w: &World, client: &str) -> Vec<vp_ports::InvoiceRecord> {
    let mut tx = w.store.read().await.unwrap();
    let c = tx.client(&w.account.id, &ClientId::parse(client).unwrap()).await.unwrap().unwrap();
    let list = tx.client_invoices(&c.id, 100).await.unwrap();
    tx.commit().await.unwrap();
    list
}

#[tokio::test]
async fn the_consent_is_kept_with_its_sentence_time_and_invoice_and_the_saved_method_sealed() {
    let w = World::new().await;
    let paid_at = w.clock.now_for_test();
    let payment_id = buy(&w, "alice", true).await;
    let consent = consent_of(&w, "alice").await.expect("a consent");
    assert_eq!((consent.text.as_str(), consent.lang), (SENTENCE, Lang::En));
    assert_eq!((consent.payment_id.as_str(), consent.consented_at), (payment_id.as_str(), paid_at));
    assert_eq!(consent.saved_method_title.as_deref(), Some("Bank card *4444"));
    let sealed = consent.saved_method_sealed.expect("the saved method is kept");
    assert!(!sealed.contains(&format!("pm_gw_{payment_id}")), "sealed, not in the clear: {sealed}");
    assert!(consent.turned_off_at.is_none());
    assert!(w.subscription("alice").await.auto_renew, "on once the method is kept");
}

#[tokio::test]
async fn a_consenting_customer_is_charged_once_per_term_a_day_before_its_end() {
    let w = World::new().await;
    let first = buy(&w, "alice", true).await;
    let end = w.subscription("alice").await.subscription.expires_at;
    let price = invoices_of(&w, "alice").await[0].amounts;

    check_at(&w, end - Duration::hours(24) - Duration::minutes(5)).await;
    assert_eq!(charges(&w), 0, "not before the day before the end");

    check_at(&w, end - Duration::hours(24)).await;
    assert_eq!(charges(&w), 1);
    let renewed = w.subscription("alice").await.subscription;
    assert_eq!(renewed.expires_at, vp_domain::subscription::add_months(end, 1), "the term moved on by the plan");
    let invoices = invoices_of(&w, "alice").await;
    let renewal = invoices.iter().find(|i| i.payment_id != first).expect("a renewal invoice");
    assert_eq!((renewal.status, renewal.amounts), (InvoiceStatus::Succeeded, price));
    assert_eq!(
        w.gateway.saved_charges.lock().unwrap()[0].idempotency_key,
        renewal.payment_id,
        "the invoice is the key"
    );

    // Later checks of the same term charge nothing more.
    check(&w).await;
    check_at(&w, end - Duration::hours(1)).await;
    assert_eq!(charges(&w), 1, "one charge per term");

    // The next term renews the same way.
    check_at(&w, renewed.expires_at - Duration::hours(24)).await;
    assert_eq!(charges(&w), 2);
    assert_eq!(invoices_of(&w, "alice").await.len(), 3);
}

#[tokio::test]
async fn a_customer_who_did_not_tick_is_never_charged_and_the_term_ends() {
    let w = World::new().await;
    buy(&w, "bob", false).await;
    assert!(consent_of(&w, "bob").await.is_none());
    assert!(!w.subscription("bob").await.auto_renew);
    let end = w.subscription("bob").await.subscription.expires_at;
    check_at(&w, end - Duration::hours(24)).await;
    check_at(&w, end + Duration::minutes(5)).await;
    assert_eq!(charges(&w), 0);
    assert_eq!(w.subscription("bob").await.subscription.status, SubscriptionStatus::Expired);
}

#[tokio::test]
async fn a_declined_charge_is_tried_at_most_twice_more_then_the_term_ends_as_usual() {
    let w = World::new().await;
    let end = renewing(&w, "carol").await;
    w.gateway.decline_saved.store(true, Ordering::SeqCst);

    check_at(&w, end - Duration::hours(24)).await;
    assert_eq!(charges(&w), 1);
    assert_eq!(w.subscription("carol").await.subscription.expires_at, end, "a declined charge moves nothing");
    check(&w).await;
    assert_eq!(charges(&w), 1, "the retry waits");
    check_at(&w, end - Duration::hours(16)).await;
    assert_eq!(charges(&w), 2);
    check_at(&w, end - Duration::hours(8)).await;
    assert_eq!(charges(&w), 3);
    check_at(&w, end - Duration::minutes(1)).await;
    check_at(&w, end + Duration::minutes(5)).await;
    assert_eq!(charges(&w), 3, "two retries at most");
    let keys: Vec<String> = w.gateway.saved_charges.lock().unwrap().iter().map(|c| c.idempotency_key.clone()).collect();
    assert_eq!(keys.iter().collect::<std::collections::HashSet<_>>().len(), 3, "each try is a payment of its own");
    assert_eq!(w.subscription("carol").await.subscription.status, SubscriptionStatus::Expired);
    let failed = invoices_of(&w, "carol").await.iter().filter(|i| i.status == InvoiceStatus::Failed).count();
    assert_eq!(failed, 3);
    let charge = charge_of(&w, "carol").await;
    assert_eq!((charge.state, charge.attempt), (RenewalChargeState::Failed, 3));
}

#[tokio::test]
async fn turning_renewal_off_stops_the_next_charge() {
    let w = World::new().await;
    let end = renewing(&w, "dave").await;
    let off = w
        .app
        .renewals
        .turn_off(&w.account.id, &ClientId::parse("dave").unwrap(), vp_app::renewals::TurnedOffBy::Operator)
        .await
        .unwrap();
    assert!(off.was_on && !off.charge_under_way);
    let consent = consent_of(&w, "dave").await.unwrap();
    assert_eq!(consent.turned_off_by, Some(vp_app::renewals::TurnedOffBy::Operator));
    assert!(!w.subscription("dave").await.auto_renew);
    check_at(&w, end - Duration::hours(24)).await;
    check_at(&w, end + Duration::minutes(5)).await;
    assert_eq!(charges(&w), 0);
    assert_eq!(w.subscription("dave").await.subscription.status, SubscriptionStatus::Expired);
    let again = w
        .app
        .renewals
        .turn_off(&w.account.id, &ClientId::parse("dave").unwrap(), vp_app::renewals::TurnedOffBy::Operator)
        .await
        .unwrap();
    assert!(!again.was_on);
}

#[tokio::test]
async fn a_charge_decided_before_renewal_was_turned_off_is_not_started_after_it() {
    let w = World::new().await;
    let end = renewing(&w, "erin").await;
    w.clock.advance(end - Duration::hours(24) - w.clock.now_for_test());
    w.app.events.check_terms().await.unwrap(); // the charge is decided
    w.app
        .renewals
        .turn_off(&w.account.id, &ClientId::parse("erin").unwrap(), vp_app::renewals::TurnedOffBy::Customer)
        .await
        .unwrap();
    let run = w.app.renewals.run_due_charges(100).await.unwrap();
    assert_eq!((run.dropped, run.charged), (1, 0));
    assert_eq!(charges(&w), 0);
}

#[tokio::test]
async fn a_charge_the_gateway_did_not_answer_is_asked_again_with_the_same_key_even_after_its_deadline() {
    let w = World::new().await;
    let end = renewing(&w, "frank").await;
    w.gateway.down.store(true, Ordering::SeqCst);
    check_at(&w, end - Duration::hours(24)).await;
    assert_eq!(w.subscription("frank").await.subscription.expires_at, end, "nothing decided, nothing moved");
    // The renewal invoice's deadline passes while the gateway is away.
    w.clock.advance(Duration::minutes(40));
    w.app.payments.expire_overdue_invoices(10).await.unwrap();
    w.gateway.down.store(false, Ordering::SeqCst);
    check(&w).await;
    let keys: Vec<String> = w.gateway.saved_charges.lock().unwrap().iter().map(|c| c.idempotency_key.clone()).collect();
    assert_eq!(keys.len(), 1, "asked once the gateway answered");
    let renewal = invoices_of(&w, "frank").await.into_iter().find(|i| i.payment_id == keys[0]).unwrap();
    assert_eq!(renewal.status, InvoiceStatus::Succeeded, "the expired invoice took the late payment");
    assert_eq!(invoices_of(&w, "frank").await.len(), 2, "no second renewal invoice, so no second charge");
    assert_eq!(w.subscription("frank").await.subscription.expires_at, vp_domain::subscription::add_months(end, 1));
}

#[tokio::test]
async fn a_key_rotation_seals_saved_methods_again_and_renewals_charge_them_under_the_new_key() {
    let w = World::new().await;
    let (old, new) = (vp_app::secrets::SecretKeys::generate_base64(), vp_app::secrets::SecretKeys::generate_base64());
    let (before, _) = w.with_keys(&old, None);
    let payment_id = buy_through(&before, &w, "grace", true).await;
    let sealed = consent_of(&w, "grace").await.unwrap().saved_method_sealed.unwrap();

    let (wrong, _) = w.with_keys(&new, None);
    let refused = wrong.secrets.prepare_secrets().await.unwrap_err().to_string();
    assert!(refused.contains("VP_SECRETS_KEY"), "a saved method no key opens stops the start: {refused}");
    let (rotating, _) = w.with_keys(&new, Some(&old));
    rotating.secrets.prepare_secrets().await.unwrap();
    assert_eq!(rotating.secrets.reseal_secrets().await.unwrap(), 1, "the saved method");
    assert_eq!(rotating.secrets.reseal_secrets().await.unwrap(), 0, "already under the new key");
    let resealed = consent_of(&w, "grace").await.unwrap().saved_method_sealed.unwrap();
    assert_ne!(resealed, sealed);

    let (after, _) = w.with_keys(&new, None);
    after.secrets.prepare_secrets().await.unwrap();
    let end = w.subscription("grace").await.subscription.expires_at;
    w.clock.advance(end - Duration::hours(24) - w.clock.now_for_test());
    after.events.check_terms().await.unwrap();
    assert_eq!(after.renewals.run_due_charges(10).await.unwrap().charged, 1);
    let charged = w.gateway.saved_charges.lock().unwrap()[0].saved_method_id.clone();
    assert_eq!(charged, format!("pm_gw_{payment_id}"), "the same method, opened under the new key");
}

/// Links `client` to `chat_id` the way a customer does, from its subscription page.
async fn link(w: &World, client: &str, chat_id: i64) {
    let link = w.app.bot_shop.reminders_link(&w.subscription(client).await.link_token).await.unwrap();
    let code = link.rsplit('=').next().unwrap();
    w.write_to_partner_bot(chat_id, &format!("/start {code}"), Some("en")).await;
}

/// Moves the clock to `at`, checks, and sends the reminders; returns what the partner's bot sent.
async fn said_at(w: &World, at: OffsetDateTime) -> Vec<BotMessage> {
    let before = w.bots.sent.lock().unwrap().len();
    check_at(w, at).await;
    w.app.reminders.deliver_reminders_once("test", 100).await.unwrap().expect("the only worker");
    let sent = w.bots.sent.lock().unwrap();
    sent[before..].iter().filter(|(t, _)| t == PARTNER_BOT_TOKEN).map(|(_, m)| m.clone()).collect()
}

fn texts(messages: &[BotMessage]) -> Vec<String> {
    messages.iter().map(|m| m.text.replace('\u{a0}', " ")).collect()
}

#[tokio::test]
async fn a_linked_customer_hears_what_renewal_will_charge_and_of_every_declined_charge() {
    let w = World::with_partner_bot().await;
    buy(&w, "hana", true).await;
    link(&w, "hana", 901).await;
    let end = w.subscription("hana").await.subscription.expires_at;
    let amount = invoices_of(&w, "hana").await[0].amounts.customer;
    let rub = format!("RUB {amount}");

    let at_72 = texts(&said_at(&w, end - Duration::hours(71)).await);
    assert_eq!(at_72.len(), 1, "{at_72:?}");
    assert!(
        at_72[0].ends_with(&format!(
            "Automatic renewal is on: {rub} will be charged on 2026-01-31. To turn it off, open your subscription's page."
        )),
        "{at_72:?}"
    );

    w.gateway.decline_saved.store(true, Ordering::SeqCst);
    let first = texts(&said_at(&w, end - Duration::hours(24)).await);
    assert_eq!(
        first,
        [format!(
            "Demo VPN: the card did not pay {rub} to renew your subscription. We will try again on 2026-01-31, or \
             renew it now."
        )],
        "the declined charge in place of the 24 h reminder"
    );
    let second = texts(&said_at(&w, end - Duration::hours(16)).await);
    assert!(second[0].contains("We will try again on 2026-01-31"), "{second:?}");
    let last = texts(&said_at(&w, end - Duration::hours(8)).await);
    assert_eq!(
        last,
        [format!(
            "Demo VPN: the card did not pay {rub} to renew your subscription, and we will not try again. It \
             ends on 2026-02-01: renew it to keep the VPN on."
        )]
    );
    let ended = texts(&said_at(&w, end + Duration::minutes(6)).await);
    assert!(ended[0].contains("has ended"), "then the term ends as usual: {ended:?}");
}

#[tokio::test]
async fn a_renewal_charges_the_price_the_customer_was_last_told() {
    let w = World::with_partner_bot().await;
    buy(&w, "told", true).await;
    buy(&w, "untold", true).await;
    link(&w, "told", 902).await;
    let consented = invoices_of(&w, "told").await[0].amounts.customer;
    let end = w.subscription("told").await.subscription.expires_at;

    // The partner raises its markup before the 72 h reminder: the linked customer is told.
    w.app.operator.set_markup(&w.account.id, "50").await.unwrap();
    let told = texts(&said_at(&w, end - Duration::hours(71)).await);
    let new_price = consent_of(&w, "told").await.unwrap().price.customer;
    assert!(new_price > consented);
    assert!(told[0].contains(&format!("RUB {new_price} will be charged")), "{told:?}");
    // Raised again after it: not told, so not charged this term.
    w.app.operator.set_markup(&w.account.id, "80").await.unwrap();

    check_at(&w, end - Duration::hours(24)).await;
    let charged: Vec<(vp_domain::AccountId, vp_domain::Money)> =
        w.gateway.saved_charges.lock().unwrap().iter().map(|c| (c.account_id.clone(), c.amount)).collect();
    assert_eq!(charged.len(), 2);
    let amounts: std::collections::HashSet<_> = charged.iter().map(|(_, a)| *a).collect();
    assert_eq!(
        amounts,
        [new_price, consented].into_iter().collect(),
        "the told price for the linked customer, the consented one for the customer never told"
    );
}

#[tokio::test]
async fn support_sees_the_consent_as_given_and_turns_renewal_off_in_the_cabinet() {
    let w = World::new().await;
    let payment_id = buy(&w, "ivan", true).await;
    let actor = w.actor(&w.account.id, "support@example.com").await;
    let detail = w.app.cabinet.client(&actor, &cid("ivan")).await.unwrap();
    let consent = detail.renewal.expect("the consent is on the client's page");
    assert_eq!((consent.text.as_str(), consent.payment_id.as_str()), (SENTENCE, payment_id.as_str()));
    assert_eq!(consent.saved_method_title.as_deref(), Some("Bank card *4444"));
    assert!(detail.client.subscription.unwrap().auto_renew);

    let off = w.app.cabinet.turn_off_auto_renew(&actor, &cid("ivan")).await.unwrap();
    assert!(off.was_on);
    let after = w.app.cabinet.client(&actor, &cid("ivan")).await.unwrap();
    assert_eq!(
        after.renewal.unwrap().turned_off_by,
        Some(vp_app::renewals::TurnedOffBy::Support { email: "support@example.com".into() })
    );
    assert!(!after.client.subscription.unwrap().auto_renew);
    let activity = w.app.cabinet.activity(&actor, None).await.unwrap();
    assert!(
        activity.iter().any(|e| e.action.as_str() == "client.auto_renew_off" && e.detail == "ivan"),
        "in the activity log"
    );
    let unknown = w.app.cabinet.turn_off_auto_renew(&actor, &cid("nobody")).await;
    assert!(matches!(unknown, Err(vp_app::AppError::NotFound("client"))), "{unknown:?}");
}

#[tokio::test]
async fn a_charge_that_keeps_failing_on_our_side_is_tried_again_then_given_up_a_day_after_the_end() {
    let w = World::new().await;
    let (old, new) = (vp_app::secrets::SecretKeys::generate_base64(), vp_app::secrets::SecretKeys::generate_base64());
    let (before, _) = w.with_keys(&old, None);
    buy_through(&before, &w, "jane", true).await;
    // Run on another key without the old one: the saved method cannot be opened.
    let (lost, _) = w.with_keys(&new, None);
    let end = w.subscription("jane").await.subscription.expires_at;
    w.clock.advance(end - Duration::hours(24) - w.clock.now_for_test());
    lost.events.check_terms().await.unwrap();
    assert_eq!(lost.renewals.run_due_charges(10).await.unwrap(), vp_app::renewals::RenewalRun::default());
    assert_eq!(charge_of(&w, "jane").await.state, RenewalChargeState::Charging, "held, tried again after the lease");
    w.clock.advance(Duration::hours(24) + Duration::days(1));
    let run = lost.renewals.run_due_charges(10).await.unwrap();
    assert_eq!(run.declined, 1);
    let given_up = charge_of(&w, "jane").await;
    assert_eq!((given_up.state, given_up.next_try_at), (RenewalChargeState::Failed, None));
    assert!(given_up.last_error.unwrap().contains("saved method"), "the reason is kept");
    assert_eq!(charges(&w), 0, "nothing reached the gateway");
}

/// The client's newest renewal charge.
async fn charge_of(w: &World, client: &str) -> vp_ports::RenewalCharge {
    let mut tx = w.store.read().await.unwrap();
    let c = tx.client(&w.account.id, &ClientId::parse(client).unwrap()).await.unwrap().unwrap();
    let charge = tx.renewal_charges_of_client(&c.id).await.unwrap().remove(0);
    tx.commit().await.unwrap();
    charge
}
