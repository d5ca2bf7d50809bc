//! Events end to end on a real SQLite store: recorded with the change that causes them,
//! delivered on the spec's schedule, term events by the 5-minute check, endpoint management.

use crate::support;
use crate::support::cid;

use serde_json::Value;
use support::World;
use time::Duration;
use time::macros::datetime;
use vp_app::audit::Who;
use vp_app::events::TestOutcome;
use vp_app::{AppError, Declined};
use vp_domain::IdempotencyKey;
use vp_ports::{AddressRefused, AttemptFilter, NoticeKind, WebhookEndpointRecord};

const OPERATOR: Who<'static> = Who::Operator;

fn log_of(limit: u32) -> AttemptFilter {
    AttemptFilter { limit, ..AttemptFilter::default() }
}

/// The attempt the test button made.
fn sent(outcome: TestOutcome) -> vp_ports::AttemptRecord {
    match outcome {
        TestOutcome::Sent(attempt) => attempt,
        TestOutcome::TooSoon { retry_after } => panic!("refused, wait {retry_after}"),
    }
}

fn types(list: &[&str]) -> Vec<String> {
    list.iter().map(|t| (*t).to_owned()).collect()
}

fn body(raw: &str) -> Value {
    serde_json::from_str(raw).unwrap()
}

/// An endpoint of the world's account at `url`, taking `event_types`, added by the operator.
async fn endpoint(w: &World, url: &str, event_types: &[&str]) -> WebhookEndpointRecord {
    w.app.events.add_endpoint(&w.account.id, url, &types(event_types), OPERATOR).await.unwrap()
}

/// Creates and pays a one-month invoice for `client`; returns the payment id.
async fn pay(w: &World, client: &str) -> String {
    w.pay(&w.account, client).await.payment_id.into()
}

/// An endpoint for the term events, and a month paid for `u1`.
async fn term_events_of_u1(w: &World) {
    let all = types(&["subscription.expiring", "subscription.expired"]);
    w.app.events.add_endpoint(&w.account.id, "https://a.example/hooks", &all, OPERATOR).await.unwrap();
    pay(w, "u1").await;
}

#[tokio::test]
async fn a_paid_invoice_sends_payment_succeeded_only_to_endpoints_subscribed_to_it() {
    let w = World::new().await;
    let wanted = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    endpoint(&w, "https://b.example/hooks", &["payment.expired"]).await;
    let payment_id = pay(&w, "u1").await;
    assert_eq!(w.app.events.deliver_due_events(10).await.unwrap(), 1);
    let got = w.webhooks.received();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].url, "https://a.example/hooks");
    assert_eq!(got[0].secrets, vec![w.keys.endpoint_secret(&wanted).unwrap()]);
    let b = body(&got[0].body);
    assert_eq!(b["type"], "payment.succeeded");
    assert_eq!(b["timestamp"], "2026-01-01T00:00:00.000000Z");
    assert_eq!(b["data"]["payment_id"], payment_id.as_str());
    assert_eq!(b["data"]["status"], "succeeded");
    assert_eq!(b["data"]["client"], "u1", "the client is filled");
    assert_eq!(w.app.events.deliver_due_events(10).await.unwrap(), 0, "a delivered event is not sent again");
}

#[tokio::test]
async fn failed_attempts_follow_the_schedule_and_resend_the_same_id_and_body() {
    let w = World::new().await;
    let e = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    w.webhooks.answer(Some(500), None);
    w.webhooks.answer(None, None);
    w.webhooks.answer(Some(503), Some(Duration::hours(1)));
    pay(&w, "u1").await;
    let mut sent_at = vec![];
    let attempt_if_due = |w: &World| {
        let app = w.app.clone();
        async move { app.events.deliver_due_events(10).await.unwrap() }
    };
    assert_eq!(attempt_if_due(&w).await, 1, "first attempt at once");
    sent_at.push(w.clock.now_for_test());
    w.clock.advance(Duration::seconds(4));
    assert_eq!(attempt_if_due(&w).await, 0, "5 s - 10 % is 4.5 s");
    w.clock.advance(Duration::seconds(2));
    assert_eq!(attempt_if_due(&w).await, 1, "second attempt after about 5 s");
    w.clock.advance(Duration::minutes(4));
    assert_eq!(attempt_if_due(&w).await, 0);
    w.clock.advance(Duration::minutes(2));
    assert_eq!(attempt_if_due(&w).await, 1, "third attempt after about 5 minutes");
    w.clock.advance(Duration::minutes(34));
    assert_eq!(attempt_if_due(&w).await, 0, "Retry-After: 1 hour delays past the 30-minute step");
    w.clock.advance(Duration::minutes(27));
    assert_eq!(attempt_if_due(&w).await, 1, "fourth attempt after the hour asked for");
    w.clock.advance(Duration::days(3));
    assert_eq!(attempt_if_due(&w).await, 0, "accepted: nothing more");

    let got = w.webhooks.received();
    assert_eq!(got.len(), 4);
    assert!(got.iter().all(|r| r.webhook_id == got[0].webhook_id), "webhook-id stable across attempts");
    assert!(got.iter().all(|r| r.body == got[0].body), "body byte-identical across attempts");
    let log = w.app.events.endpoint_attempts(&e.id, &log_of(10)).await.unwrap();
    let codes: Vec<Option<u16>> = log.iter().map(|l| l.attempt.status_code).collect();
    assert_eq!(codes, [Some(200), Some(503), None, Some(500)], "newest first");
    let numbers: Vec<u32> = log.iter().map(|l| l.attempt.attempt).collect();
    assert_eq!(numbers, [4, 3, 2, 1]);
    assert!(w.app.events.endpoint(&e.id).await.unwrap().failing_since.is_none(), "an accepted event resets the health");
}

#[tokio::test]
async fn gone_disables_the_endpoint_at_once_and_a_replay_after_repair_resends() {
    let w = World::new().await;
    let e = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    w.webhooks.answer(Some(410), None);
    pay(&w, "u1").await;
    w.app.events.deliver_due_events(10).await.unwrap();
    let disabled = w.app.events.endpoint(&e.id).await.unwrap();
    assert!(!disabled.enabled);
    assert_eq!(disabled.disabled_reason.as_deref(), Some("gone"));
    let notices = w.app.notices.notices(&w.account.id, None, 10).await.unwrap();
    assert_eq!(
        notices.iter().map(|n| n.kind.clone()).collect::<Vec<_>>(),
        [NoticeKind::EndpointDisabled { endpoint_id: e.id.clone(), url: e.url.clone(), reason: "gone".into() }],
        "the partner is told"
    );
    w.clock.advance(Duration::minutes(1));
    pay(&w, "u2").await;
    w.clock.advance(Duration::hours(1));
    assert_eq!(w.app.events.deliver_due_events(10).await.unwrap(), 0, "a disabled endpoint gets nothing");
    assert!(
        matches!(
            w.app.events.replay_undelivered(&e.id, 1, OPERATOR).await,
            Err(AppError::Declined(Declined::EndpointDisabled))
        ),
        "enable first"
    );

    w.app.events.set_endpoint_enabled(&e.id, true, OPERATOR).await.unwrap();
    assert!(
        matches!(
            w.app.events.replay_undelivered(&e.id, 2, OPERATOR).await,
            Err(AppError::Declined(Declined::ReplayDays))
        ),
        "1, 3, 7 or 30 days"
    );
    assert_eq!(
        w.app.events.replay_undelivered(&e.id, 1, OPERATOR).await.unwrap(),
        1,
        "the undelivered event of the last day"
    );
    assert_eq!(w.app.events.deliver_due_events(10).await.unwrap(), 1);
    let got = w.webhooks.received();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].webhook_id, got[1].webhook_id, "the same event again");
    assert_eq!(w.app.events.replay_undelivered(&e.id, 30, OPERATOR).await.unwrap(), 0, "delivered now");
}

#[tokio::test]
async fn five_days_without_an_accepted_event_disable_the_endpoint() {
    let w = World::new().await;
    let e = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    for _ in 0..20 {
        w.webhooks.answer(Some(500), None);
    }
    pay(&w, "u1").await;
    for _ in 0..5 * 24 {
        w.app.events.deliver_due_events(10).await.unwrap();
        w.clock.advance(Duration::hours(1));
    }
    let log = w.app.events.endpoint_attempts(&e.id, &log_of(50)).await.unwrap();
    assert_eq!(log.len(), 10, "ten attempts in all");
    assert!(w.app.events.endpoint(&e.id).await.unwrap().enabled, "about three days of attempts: not yet five");
    pay(&w, "u2").await;
    w.app.events.deliver_due_events(10).await.unwrap();
    let after = w.app.events.endpoint(&e.id).await.unwrap();
    assert!(!after.enabled, "five days after the first failed attempt");
    assert_eq!(after.disabled_reason.as_deref(), Some("failing"));
}

#[tokio::test]
async fn an_unpaid_invoice_expires_with_payment_expired_and_no_client() {
    let w = World::new().await;
    endpoint(&w, "https://a.example/hooks", &["payment.expired"]).await;
    let request = support::order("u1", 1, "card");
    let inv =
        w.app.payments.create_invoice(&w.account, IdempotencyKey::parse(Some("k")).unwrap(), request).await.unwrap();
    w.clock.advance(Duration::minutes(31));
    assert_eq!(w.app.payments.expire_overdue_invoices(10).await.unwrap(), 1);
    w.app.events.deliver_due_events(10).await.unwrap();
    let b = body(&w.webhooks.received()[0].body);
    assert_eq!(b["type"], "payment.expired");
    assert_eq!(b["data"]["payment_id"], inv.invoice.payment_id.as_str());
    assert_eq!(b["data"]["status"], "expired");
    assert_eq!(b["data"]["client"], Value::Null);
}

#[tokio::test]
async fn term_events_come_72_and_24_hours_before_the_end_then_expired_at_the_end() {
    let w = World::new().await;
    term_events_of_u1(&w).await; // term ends 2026-02-01 00:00
    let end = datetime!(2026-02-01 00:00 UTC);
    let check = |w: &World| {
        let app = w.app.clone();
        async move { app.events.check_terms().await.unwrap() }
    };
    assert_eq!(check(&w).await.expiring_events, 0);
    w.clock.advance(end - Duration::hours(71) - w.clock.now_for_test());
    assert_eq!(check(&w).await.expiring_events, 1, "the 72");
    assert_eq!(check(&w).await.expiring_events, 0, "once per term");
    w.clock.advance(Duration::hours(48));
    assert_eq!(check(&w).await.expiring_events, 1, "the 24");
    w.clock.advance(Duration::hours(23) + Duration::minutes(5));
    let done = check(&w).await;
    assert_eq!((done.expired_subscriptions, done.expired_events), (1, 1));
    assert_eq!(check(&w).await, vp_app::events::TermCheck::default(), "sent once");

    w.app.events.deliver_due_events(10).await.unwrap();
    let bodies: Vec<Value> = w.webhooks.received().iter().map(|r| body(&r.body)).collect();
    let kinds: Vec<(&str, &Value)> =
        bodies.iter().map(|b| (b["type"].as_str().unwrap(), &b["data"]["threshold_hours"])).collect();
    assert_eq!(
        kinds,
        [
            ("subscription.expiring", &Value::from(72)),
            ("subscription.expiring", &Value::from(24)),
            ("subscription.expired", &Value::Null)
        ]
    );
    assert_eq!(bodies[2]["timestamp"], "2026-02-01T00:00:00.000000Z", "the moment the term ended");
    assert_eq!(bodies[2]["data"]["client"]["status"], "expired");
    assert_eq!(bodies[0]["data"]["client"]["client_id"], "u1");
}

#[tokio::test]
async fn blocked_clients_get_no_term_events_but_their_term_still_ends() {
    let w = World::new().await;
    term_events_of_u1(&w).await;
    w.app.operator.set_client_blocked(&w.account.id, &cid("u1"), true).await.unwrap();
    w.clock.advance(datetime!(2026-01-31 01:00 UTC) - w.clock.now_for_test());
    assert_eq!(w.app.events.check_terms().await.unwrap().expiring_events, 0);
    w.clock.advance(Duration::days(1));
    let done = w.app.events.check_terms().await.unwrap();
    assert_eq!((done.expired_subscriptions, done.expired_events), (1, 0));
    assert_eq!(w.app.events.deliver_due_events(10).await.unwrap(), 0);
}

#[tokio::test]
async fn the_test_button_sends_webhook_test_at_most_five_times_a_minute() {
    let w = World::new().await;
    let e = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    for _ in 0..5 {
        let attempt = sent(w.app.events.send_test_event(&e.id, OPERATOR).await.unwrap());
        assert_eq!(attempt.status_code, Some(200));
        w.clock.advance(Duration::seconds(5));
    }
    assert_eq!(
        w.app.events.send_test_event(&e.id, OPERATOR).await.unwrap(),
        TestOutcome::TooSoon { retry_after: Duration::seconds(35) },
        "a sixth within the minute waits until the first test is a minute old"
    );
    w.clock.advance(Duration::seconds(36));
    w.webhooks.answer(Some(500), None);
    let attempt = sent(w.app.events.send_test_event(&e.id, OPERATOR).await.unwrap());
    assert_eq!(attempt.status_code, Some(500), "the response code is shown");
    let b = body(&w.webhooks.received()[0].body);
    assert_eq!((b["type"].as_str(), b["data"].clone()), (Some("webhook.test"), serde_json::json!({})));
    w.clock.advance(Duration::hours(1));
    assert_eq!(w.app.events.deliver_due_events(10).await.unwrap(), 0, "a test is one attempt, never retried");
    assert!(w.app.events.endpoint(&e.id).await.unwrap().enabled);
}

#[tokio::test]
async fn endpoints_get_only_later_events_and_an_account_has_at_most_ten() {
    let w = World::new().await;
    pay(&w, "u1").await;
    let e = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    assert_eq!(
        w.app.events.deliver_due_events(10).await.unwrap(),
        0,
        "an event before the endpoint existed is not sent"
    );
    assert!(matches!(
        w.app
            .events
            .add_endpoint(&w.account.id, "http://a.example/hooks", &types(&["payment.succeeded"]), OPERATOR)
            .await,
        Err(AppError::Declined(Declined::EndpointAddress(AddressRefused::NotHttps)))
    ));
    assert!(matches!(
        w.app.events.add_endpoint(&w.account.id, "https://a.example/", &types(&["payment.refunded"]), OPERATOR).await,
        Err(AppError::Declined(Declined::UnknownEventType(t))) if t == "payment.refunded"
    ));
    assert!(matches!(
        w.app.events.add_endpoint(&w.account.id, "https://a.example/", &[], OPERATOR).await,
        Err(AppError::Declined(Declined::NoEventTypes))
    ));
    for n in 1..10 {
        w.app
            .events
            .add_endpoint(&w.account.id, &format!("https://{n}.example/"), &types(&["payment.expired"]), OPERATOR)
            .await
            .unwrap();
    }
    assert!(matches!(
        w.app.events.add_endpoint(&w.account.id, "https://11.example/", &types(&["payment.expired"]), OPERATOR).await,
        Err(AppError::Declined(Declined::TooManyEndpoints))
    ));
    assert_eq!(w.app.events.endpoints(&w.account.id).await.unwrap().len(), 10);
    let changed = w
        .app
        .events
        .set_endpoint_types(&e.id, &types(&["payment.expired", "payment.expired"]), OPERATOR)
        .await
        .unwrap();
    assert_eq!(changed.event_types, ["payment.expired"], "types are kept once each");
    assert!(matches!(
        w.app.events.set_endpoint_types(&e.id, &[], OPERATOR).await,
        Err(AppError::Declined(Declined::NoEventTypes))
    ));
    let secret = w.keys.endpoint_secret(&e).unwrap();
    assert!(secret.starts_with("whsec_") && secret.len() == "whsec_".len() + 44, "32 random bytes");
    assert!(!e.secret_sealed.contains(&secret), "stored sealed");
}

#[tokio::test]
async fn after_a_secret_rotation_both_secrets_sign_for_24_hours() {
    let w = World::new().await;
    let e = endpoint(&w, "https://a.example/hooks", &["payment.succeeded"]).await;
    let rotated = w.app.events.rotate_endpoint_secret(&e.id, OPERATOR).await.unwrap();
    let (old, new) = (w.keys.endpoint_secret(&e).unwrap(), w.keys.endpoint_secret(&rotated).unwrap());
    assert_ne!(new, old);
    pay(&w, "u1").await;
    w.app.events.deliver_due_events(10).await.unwrap();
    assert_eq!(w.webhooks.received()[0].secrets, [new.clone(), old], "new first, then previous");
    w.clock.advance(Duration::hours(24));
    pay(&w, "u2").await;
    w.app.events.deliver_due_events(10).await.unwrap();
    assert_eq!(w.webhooks.received()[1].secrets, vec![new], "only the new one after 24 hours");
}

#[tokio::test]
async fn a_suspended_term_still_ends_with_subscription_expired_but_gets_no_reminders() {
    let w = World::new().await;
    term_events_of_u1(&w).await;
    w.app.operator.set_subscription_suspended(&w.account.id, &cid("u1"), true).await.unwrap();
    w.clock.advance(datetime!(2026-01-31 01:00 UTC) - w.clock.now_for_test());
    assert_eq!(w.app.events.check_terms().await.unwrap().expiring_events, 0, "access is paused: no reminders");
    w.clock.advance(Duration::days(1));
    let done = w.app.events.check_terms().await.unwrap();
    assert_eq!((done.expired_subscriptions, done.expired_events), (1, 1));
    w.app.events.deliver_due_events(10).await.unwrap();
    let b = body(&w.webhooks.received()[0].body);
    assert_eq!(b["type"], "subscription.expired");
    assert_eq!(b["data"]["client"]["status"], "expired");
}
