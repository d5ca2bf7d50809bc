//! The partner use cases end to end on a real SQLite store, with time moved by hand.

use crate::support;
use crate::support::cid;

use std::sync::atomic::Ordering;

use support::{World, method, refusal};
use time::Duration;
use vp_app::{AppError, Refusal};
use vp_domain::{
    IdempotencyKey, InvoiceRequest, InvoiceStatus, Money, PaymentId, PaymentOutcome, Purpose, SubscriptionStatus,
};

fn key(k: &str) -> IdempotencyKey {
    IdempotencyKey::parse(Some(k)).unwrap()
}

fn subscribe(client: &str, plan_id: i32) -> InvoiceRequest {
    support::order(client, plan_id, "card")
}

fn devices(client: &str, count: u32) -> InvoiceRequest {
    InvoiceRequest { purpose: Purpose::Devices { count }, ..subscribe(client, 1) }
}

/// The refusal `POST /payments` answers `request` with, under the idempotency key `k`.
async fn refused(w: &World, k: &str, request: InvoiceRequest) -> Refusal {
    refusal(w.app.payments.create_invoice(&w.account, key(k), request).await)
}

#[tokio::test]
async fn a_paid_invoice_activates_the_subscription_and_credits_the_partner_share_once() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("o1"), subscribe("u1", 1)).await.unwrap();
    assert_eq!(inv.invoice.status, InvoiceStatus::Pending);
    assert_eq!(inv.invoice.amounts.customer, Money::from_kopecks(23_880), "199.00 + 20 %");
    assert!(inv.client.is_none() && !inv.replayed);
    w.clock.advance(Duration::minutes(5));
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    assert_eq!(w.balance().await, Money::from_kopecks(3_980), "credited once although notified twice");
    let paid = w.app.payments.invoice_view(&w.account, &inv.invoice.payment_id).await.unwrap();
    assert_eq!(paid.invoice.status, InvoiceStatus::Succeeded);
    assert!(paid.invoice.payment_url.is_none());
    let client = paid.client.expect("client filled when succeeded");
    let sub = client.subscription.unwrap();
    assert_eq!(sub.status, SubscriptionStatus::Active);
    assert_eq!(sub.expires_at, time::macros::datetime!(2026-02-01 00:05 UTC));
    assert_eq!(sub.devices_limit, Some(3));
    assert!(sub.subscription_url.starts_with("https://sub.example/"));
    let user = w.panel.user(&paid.invoice.client_ref).expect("the panel got the user");
    assert!(user.enabled);
}

#[tokio::test]
async fn renewal_adds_the_term_to_the_current_end_and_keeps_the_link() {
    let w = World::new().await;
    let a = w.app.payments.create_invoice(&w.account, key("a"), subscribe("u1", 1)).await.unwrap();
    w.app.payments.apply_payment_outcome(&a.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    let before = w.app.clients.client_view(&w.account, &cid("u1")).await.unwrap().subscription.unwrap();
    w.clock.advance(Duration::days(10));
    let b = w.app.payments.create_invoice(&w.account, key("b"), subscribe("u1", 2)).await.unwrap();
    w.app.payments.apply_payment_outcome(&b.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    let after = w.app.clients.client_view(&w.account, &cid("u1")).await.unwrap().subscription.unwrap();
    assert_eq!(after.expires_at, time::macros::datetime!(2026-05-01 00:00 UTC), "1 + 3 months from the first start");
    assert_eq!(after.subscription_url, before.subscription_url);
}

#[tokio::test]
async fn an_unpaid_invoice_expires_and_a_late_payment_still_succeeds() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("late"), subscribe("u1", 1)).await.unwrap();
    w.clock.advance(Duration::minutes(29));
    assert_eq!(w.app.payments.expire_overdue_invoices(100).await.unwrap(), 0);
    w.clock.advance(Duration::minutes(1));
    assert_eq!(w.app.payments.expire_overdue_invoices(100).await.unwrap(), 1);
    let expired = w.app.payments.invoice_view(&w.account, &inv.invoice.payment_id).await.unwrap();
    assert_eq!(expired.invoice.status, InvoiceStatus::Expired);
    assert!(expired.client.is_none() && expired.invoice.payment_url.is_none());
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    let paid = w.app.payments.invoice_view(&w.account, &inv.invoice.payment_id).await.unwrap();
    assert_eq!(paid.invoice.status, InvoiceStatus::Succeeded);
    assert!(paid.client.is_some());
}

#[tokio::test]
async fn a_bank_recall_fails_the_invoice_and_reverses_the_share() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("r"), subscribe("u1", 1)).await.unwrap();
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::BankRecall).await.unwrap();
    let view = w.app.payments.invoice_view(&w.account, &inv.invoice.payment_id).await.unwrap();
    assert_eq!(view.invoice.status, InvoiceStatus::Failed);
    assert_eq!(w.balance().await, Money::ZERO);
    let refused = w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::DeadlinePassed).await;
    assert!(matches!(refused, Err(AppError::Conflict(_))), "failed -> expired is not in the table");
}

#[tokio::test]
async fn the_same_key_replays_other_fields_are_refused_and_the_gateway_is_called_once() {
    let w = World::new().await;
    let first = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    let again = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    assert!(again.replayed);
    assert_eq!(again.invoice.payment_id, first.invoice.payment_id);
    assert_eq!(refused(&w, "k", subscribe("u1", 2)).await, Refusal::IdempotencyKeyReuse);
    assert_eq!(w.gateway.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_gateway_outage_issues_nothing_and_the_retry_reuses_the_gateway_key() {
    let w = World::new().await;
    w.gateway.down.store(true, Ordering::SeqCst);
    assert_eq!(refused(&w, "k", subscribe("u1", 1)).await, Refusal::PaymentUnavailable);
    assert_eq!(
        refusal(w.app.clients.client_view(&w.account, &cid("u1")).await),
        Refusal::ClientNotFound,
        "no invoice, so no client either"
    );
    w.gateway.down.store(false, Ordering::SeqCst);
    let inv = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    assert!(!inv.replayed);
    let keys = w.gateway.keys.lock().unwrap().clone();
    assert_eq!(keys, vec![inv.invoice.payment_id.clone()], "the gateway saw the invoice id as its key");
}

#[tokio::test]
async fn a_request_cut_off_by_a_crash_is_in_progress_then_completed_with_the_same_gateway_key() {
    use vp_ports::{IdempotencyRecord, RecoveryPoint};
    let w = World::new().await;
    let request = subscribe("u1", 1);
    // What a process leaves behind when it dies after recording the key.
    let now = w.clock.now_for_test();
    let mut tx = w.store.begin().await.unwrap();
    tx.insert_idempotency_key(&IdempotencyRecord {
        account_id: w.account.id.clone(),
        key: "crash".into(),
        request_fingerprint: vp_app::payments::fingerprint(&request),
        payment_id: PaymentId::issued("pay_reserved".into()),
        recovery_point: RecoveryPoint::Started,
        locked_until: Some(now + Duration::seconds(60)),
        created_at: now,
        gateway_request: None,
    })
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(refused(&w, "crash", request.clone()).await, Refusal::OperationInProgress);
    assert_eq!(w.app.payments.complete_unfinished_invoices(10).await.unwrap(), 0, "still locked");
    w.clock.advance(Duration::seconds(61));
    assert_eq!(w.app.payments.complete_unfinished_invoices(10).await.unwrap(), 1);
    let replay = w.app.payments.create_invoice(&w.account, key("crash"), request).await.unwrap();
    assert!(replay.replayed);
    assert_eq!(replay.invoice.payment_id, "pay_reserved");
    assert_eq!(*w.gateway.keys.lock().unwrap(), vec!["pay_reserved".to_owned()]);
}

#[tokio::test]
async fn device_rules_are_checked_in_the_specs_order() {
    let w = World::new().await;
    assert_eq!(refused(&w, "d0", devices("u1", 1)).await, Refusal::NoActiveSubscription);
    let s = w.app.payments.create_invoice(&w.account, key("s"), subscribe("u1", 1)).await.unwrap();
    w.app.payments.apply_payment_outcome(&s.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    assert_eq!(refused(&w, "d1", devices("u1", 8)).await, Refusal::DeviceSlotLimitExceeded);
    let d = w.app.payments.create_invoice(&w.account, key("d2"), devices("u1", 7)).await.unwrap();
    assert_eq!(d.invoice.amounts.customer, Money::from_kopecks(7 * 5_880));
    w.app.payments.apply_payment_outcome(&d.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    let sub = w.app.clients.client_view(&w.account, &cid("u1")).await.unwrap().subscription.unwrap();
    assert_eq!(sub.devices_limit, Some(10));
    assert_eq!(refused(&w, "d3", devices("u1", 1)).await, Refusal::DeviceSlotLimitExceeded);
    w.app.operator.switch_off_device_offer().await.unwrap();
    let l = w.app.payments.create_invoice(&w.account, key("life"), subscribe("u2", 5)).await.unwrap();
    w.app.payments.apply_payment_outcome(&l.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    assert_eq!(refused(&w, "d4", devices("u2", 1)).await, Refusal::DeviceSlotsNotApplicable);
    assert_eq!(refused(&w, "d5", devices("u1", 1)).await, Refusal::DevicesNotForSale);
    assert_eq!(refused(&w, "l2", subscribe("u2", 1)).await, Refusal::LifetimeSubscription);
}

#[tokio::test]
async fn retired_plans_disabled_methods_and_blocked_clients_are_refused_without_binding_the_key() {
    let w = World::new().await;
    w.app.operator.retire_plan(1).await.unwrap();
    assert_eq!(refused(&w, "k", subscribe("u1", 1)).await, Refusal::PlanNotFound);
    assert_eq!(refused(&w, "k", subscribe("u1", 99)).await, Refusal::PlanNotFound);
    w.app.operator.set_payment_method_enabled(&method("card"), false).await.unwrap();
    assert_eq!(refused(&w, "k", subscribe("u1", 2)).await, Refusal::UnsupportedPaymentMethod);
    w.app.operator.set_payment_method_enabled(&method("card"), true).await.unwrap();
    let ok = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 2)).await.unwrap();
    assert!(!ok.replayed, "the refusals did not bind the key");
    w.app.operator.set_client_blocked(&w.account.id, &cid("u1"), true).await.unwrap();
    assert_eq!(refused(&w, "k2", subscribe("u1", 2)).await, Refusal::ClientBlocked);
    assert_eq!(refusal(w.app.clients.client_view(&w.account, &cid("u1")).await), Refusal::ClientBlocked);
    assert_eq!(refusal(w.app.clients.start_trial(&w.account, &cid("u1")).await), Refusal::ClientBlocked);
    assert_eq!(refusal(w.app.clients.rotate_link(&w.account, &cid("u1")).await), Refusal::ClientBlocked);
    assert_eq!(refusal(w.app.clients.client_devices(&w.account, &cid("u1")).await), Refusal::ClientBlocked);
}

#[tokio::test]
async fn new_clients_count_against_the_daily_limit_over_a_sliding_day() {
    let w = World::new().await;
    let changes = vp_app::operator::LimitChanges {
        requests_per_minute: vp_app::operator::LimitChange::Keep,
        payments_per_minute: vp_app::operator::LimitChange::Keep,
        new_clients_per_day: vp_app::operator::LimitChange::Set(2),
        trials_per_day: vp_app::operator::LimitChange::Keep,
    };
    let account = w.app.operator.set_limits(&w.account.id, changes).await.unwrap();
    w.app.payments.create_invoice(&account, key("1"), subscribe("a", 1)).await.unwrap();
    w.clock.advance(Duration::hours(1));
    w.app.clients.start_trial(&account, &cid("b")).await.unwrap();
    assert_eq!(
        refusal(w.app.payments.create_invoice(&account, key("3"), subscribe("c", 1)).await),
        Refusal::NewClientsDailyLimit
    );
    assert_eq!(refusal(w.app.clients.start_trial(&account, &cid("c")).await), Refusal::NewClientsDailyLimit);
    w.app.payments.create_invoice(&account, key("4"), subscribe("a", 2)).await.expect("existing clients are not new");
    w.clock.advance(Duration::hours(23));
    w.app.payments.create_invoice(&account, key("5"), subscribe("c", 1)).await.expect("the first one left the window");
}

#[tokio::test]
async fn trials_are_granted_once_only_when_enabled_and_within_the_daily_limit() {
    let w = World::new().await;
    let c = w.app.clients.start_trial(&w.account, &cid("t1")).await.unwrap();
    let sub = c.subscription.unwrap();
    assert!(sub.is_trial);
    assert_eq!(sub.expires_at, time::macros::datetime!(2026-01-04 00:00 UTC));
    assert!(!c.trial_available);
    assert_eq!(refusal(w.app.clients.start_trial(&w.account, &cid("t1")).await), Refusal::TrialAlreadyUsed);
    let paid = w.app.payments.create_invoice(&w.account, key("p"), subscribe("p1", 1)).await.unwrap();
    w.app.payments.apply_payment_outcome(&paid.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    assert_eq!(refusal(w.app.clients.start_trial(&w.account, &cid("p1")).await), Refusal::TrialAlreadyUsed);
    w.app.operator.set_trial_enabled(&w.account.id, false).await.unwrap();
    assert_eq!(refusal(w.app.clients.start_trial(&w.account, &cid("t2")).await), Refusal::TrialDisabled);
    w.app.operator.set_trial_enabled(&w.account.id, true).await.unwrap();
    let changes = vp_app::operator::LimitChanges {
        requests_per_minute: vp_app::operator::LimitChange::Keep,
        payments_per_minute: vp_app::operator::LimitChange::Keep,
        new_clients_per_day: vp_app::operator::LimitChange::Keep,
        trials_per_day: vp_app::operator::LimitChange::Set(1),
    };
    let account = w.app.operator.set_limits(&w.account.id, changes).await.unwrap();
    assert_eq!(refusal(w.app.clients.start_trial(&account, &cid("t3")).await), Refusal::TrialDailyLimit);
}

#[tokio::test]
async fn a_panel_outage_grants_no_trial_and_leaves_the_link_and_its_pause_untouched() {
    let w = World::new().await;
    w.panel.down.store(true, Ordering::SeqCst);
    assert_eq!(refusal(w.app.clients.start_trial(&w.account, &cid("t1")).await), Refusal::ServiceUnavailable);
    assert_eq!(refusal(w.app.clients.client_view(&w.account, &cid("t1")).await), Refusal::ClientNotFound);
    w.panel.down.store(false, Ordering::SeqCst);
    let before =
        w.app.clients.start_trial(&w.account, &cid("t1")).await.unwrap().subscription.unwrap().subscription_url;
    w.panel.down.store(true, Ordering::SeqCst);
    assert_eq!(refusal(w.app.clients.rotate_link(&w.account, &cid("t1")).await), Refusal::ServiceUnavailable);
    assert_eq!(refusal(w.app.clients.client_devices(&w.account, &cid("t1")).await), Refusal::ServiceUnavailable);
    w.panel.down.store(false, Ordering::SeqCst);
    let unchanged =
        w.app.clients.client_view(&w.account, &cid("t1")).await.unwrap().subscription.unwrap().subscription_url;
    assert_eq!(unchanged, before);
    let rotated = w.app.clients.rotate_link(&w.account, &cid("t1")).await.expect("no pause started by the 503");
    assert_ne!(rotated.subscription.unwrap().subscription_url, before);
}

#[tokio::test]
async fn link_rotation_needs_an_active_subscription_and_waits_an_hour() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    assert_eq!(refusal(w.app.clients.rotate_link(&w.account, &cid("u1")).await), Refusal::NoActiveSubscription);
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    let first = w.app.clients.rotate_link(&w.account, &cid("u1")).await.unwrap();
    let token = first.subscription.unwrap().subscription_url.rsplit('/').next().unwrap().to_owned();
    let client_ref = w.app.payments.invoice_view(&w.account, &inv.invoice.payment_id).await.unwrap().invoice.client_ref;
    assert_eq!(w.panel.user(&client_ref).unwrap().link_token, token, "the panel serves the new link");
    w.clock.advance(Duration::minutes(30));
    assert_eq!(
        refusal(w.app.clients.rotate_link(&w.account, &cid("u1")).await),
        Refusal::LinkRotateTooSoon { retry_after_secs: 1800 }
    );
    w.clock.advance(Duration::minutes(30));
    w.app.clients.rotate_link(&w.account, &cid("u1")).await.unwrap();
}

#[tokio::test]
async fn suspension_and_blocks_reach_the_panel_even_after_an_outage() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    let client_ref = w.app.payments.invoice_view(&w.account, &inv.invoice.payment_id).await.unwrap().invoice.client_ref;
    w.panel.down.store(true, Ordering::SeqCst);
    w.app.operator.set_subscription_suspended(&w.account.id, &cid("u1"), true).await.unwrap();
    assert!(w.panel.user(&client_ref).unwrap().enabled, "the panel has not heard yet");
    w.panel.down.store(false, Ordering::SeqCst);
    assert_eq!(w.app.panel_sync.sync_panel(100).await.unwrap(), 1);
    assert!(!w.panel.user(&client_ref).unwrap().enabled);
    assert_eq!(w.app.panel_sync.sync_panel(100).await.unwrap(), 0, "nothing owed any more");
    w.app.operator.set_subscription_suspended(&w.account.id, &cid("u1"), false).await.unwrap();
    assert!(w.panel.user(&client_ref).unwrap().enabled);
}

#[tokio::test]
async fn a_push_the_panel_refuses_is_retried_with_backoff_and_the_partner_sees_an_internal_error() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    w.panel.refuse.store(true, Ordering::SeqCst);
    let paid = w.app.payments.apply_payment_outcome(&inv.invoice.payment_id, PaymentOutcome::Paid).await.unwrap();
    assert_eq!(paid.status, InvoiceStatus::Succeeded, "a refusing panel never fails a payment");
    assert!(w.panel.user(&paid.client_ref).is_none());
    assert!(matches!(w.app.clients.rotate_link(&w.account, &cid("u1")).await, Err(AppError::External(_))));
    assert!(matches!(w.app.clients.client_devices(&w.account, &cid("u1")).await, Err(AppError::External(_))));

    w.panel.refuse.store(false, Ordering::SeqCst);
    assert_eq!(w.app.panel_sync.sync_panel(100).await.unwrap(), 0, "held back for a minute after the refusal");
    w.clock.advance(Duration::seconds(61));
    assert_eq!(w.app.panel_sync.sync_panel(100).await.unwrap(), 1);
    let user = w.panel.user(&paid.client_ref).expect("the panel has the user now");
    assert!(user.enabled);
    assert_eq!((user.account_id.as_str(), user.client_id.as_str()), (w.account.id.as_str(), "u1"));
}

#[tokio::test]
async fn pushes_after_payments_made_while_the_panel_is_busy_reach_it_in_one_call_and_are_each_marked_synced() {
    let w = World::new().await;
    let mut payments = vec![];
    for n in 1..=5 {
        let client = format!("u{n}");
        let inv = w.app.payments.create_invoice(&w.account, key(&client), subscribe(&client, 1)).await.unwrap();
        payments.push(inv.invoice.payment_id);
    }
    let busy = w.panel.gate.lock().await;
    let paying = async {
        let pay = |n: usize| w.app.payments.apply_payment_outcome(&payments[n], PaymentOutcome::Paid);
        let (a, b, c, d, e) = tokio::join!(pay(0), pay(1), pay(2), pay(3), pay(4));
        [a, b, c, d, e].map(|paid| paid.unwrap().client_ref)
    };
    let release = async {
        // Every payment committed, and its push queued behind the panel's first call.
        loop {
            let mut settled = 0;
            for id in &payments {
                let invoice = w.app.payments.invoice_view(&w.account, id).await.unwrap().invoice;
                settled += usize::from(invoice.status == InvoiceStatus::Succeeded);
            }
            if settled == payments.len() {
                break;
            }
            tokio::task::yield_now().await;
        }
        for _ in 0..100 {
            tokio::task::yield_now().await;
        }
        drop(busy);
    };
    let (clients, ()) = tokio::join!(paying, release);
    let batches = w.panel.batches.lock().unwrap().clone();
    assert_eq!(batches.iter().sum::<usize>(), 5, "each client pushed once: {batches:?}");
    assert!(batches.len() <= 2, "those queued meanwhile went in one call: {batches:?}");
    for client_ref in &clients {
        assert!(w.panel.user(client_ref).expect("the panel has every customer").enabled);
    }
    assert_eq!(w.app.panel_sync.sync_panel(100).await.unwrap(), 0, "every push marked: nothing owed");
}

#[tokio::test]
async fn one_account_never_sees_another_accounts_invoices_or_clients() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("k"), subscribe("u1", 1)).await.unwrap();
    let (other, _) = w.app.operator.create_account(Some("Other"), "0", true).await.unwrap();
    assert_eq!(refusal(w.app.payments.invoice_view(&other, &inv.invoice.payment_id).await), Refusal::PaymentNotFound);
    assert_eq!(refusal(w.app.clients.client_view(&other, &cid("u1")).await), Refusal::ClientNotFound);
    let own = w.app.payments.create_invoice(&other, key("k"), subscribe("u1", 1)).await.unwrap();
    assert_ne!(own.invoice.payment_id, inv.invoice.payment_id, "same key and client id, another account");
}

const SOURCE: &str = "203.0.113.9";

#[tokio::test]
async fn authentication_refuses_wrong_revoked_and_disabled_keys_alike() {
    let w = World::new().await;
    let (account, key) = w.app.operator.create_account(Some("K"), "0", false).await.unwrap();
    assert_eq!(w.app.access.authenticate(Some(&key.secret), SOURCE).await.unwrap().id, account.id);
    for bad in [None, Some(""), Some("vpk_wrong")] {
        assert_eq!(refusal(w.app.access.authenticate(bad, SOURCE).await), Refusal::Unauthorized);
    }
    w.app.operator.set_api_access(&account.id, false).await.unwrap();
    assert_eq!(refusal(w.app.access.authenticate(Some(&key.secret), SOURCE).await), Refusal::Unauthorized);
    w.app.operator.set_api_access(&account.id, true).await.unwrap();
    assert_eq!(
        w.app.access.authenticate(Some(&key.secret), SOURCE).await.unwrap().id,
        account.id,
        "works again at once, though it just failed"
    );
    w.app.operator.revoke_key(&key.id).await.unwrap();
    assert_eq!(refusal(w.app.access.authenticate(Some(&key.secret), SOURCE).await), Refusal::Unauthorized);
}

#[tokio::test]
async fn after_20_unknown_keys_in_a_minute_a_source_waits_out_the_minute_and_others_do_not() {
    let w = World::new().await;
    for n in 1..=20 {
        let wrong = format!("vpk_guess_{n}");
        assert_eq!(
            refusal(w.app.access.authenticate(Some(&wrong), SOURCE).await),
            Refusal::Unauthorized,
            "failure {n}"
        );
    }
    let limited = refusal(w.app.access.authenticate(Some("vpk_guess_21"), SOURCE).await);
    assert_eq!(limited, Refusal::TooManyFailedAuthentications { retry_after_secs: 60 }, "the 21st");
    assert_eq!(refusal(w.app.access.authenticate(None, SOURCE).await), limited, "a missing key alike");
    assert_eq!(refusal(w.app.access.authenticate(Some("vpk_guess_1"), "198.51.100.7").await), Refusal::Unauthorized);

    w.clock.advance(Duration::seconds(30));
    assert_eq!(
        refusal(w.app.access.authenticate(Some("vpk_guess_22"), SOURCE).await),
        Refusal::TooManyFailedAuthentications { retry_after_secs: 30 },
        "Retry-After counts down to the end of the minute"
    );
    w.clock.advance(Duration::seconds(31));
    assert_eq!(refusal(w.app.access.authenticate(Some("vpk_guess_23"), SOURCE).await), Refusal::Unauthorized);
}

#[tokio::test]
async fn a_key_in_use_keeps_working_from_a_flooding_source_and_is_still_checked() {
    let w = World::new().await;
    let (account, key) = w.app.operator.create_account(Some("K"), "0", false).await.unwrap();
    let spare = w.app.operator.issue_key(&account.id).await.unwrap();
    assert_eq!(w.app.access.authenticate(Some(&key.secret), SOURCE).await.unwrap().id, account.id);
    assert_eq!(w.app.access.authenticate(Some(&spare.secret), SOURCE).await.unwrap().id, account.id);
    for n in 0..25 {
        let _ = w.app.access.authenticate(Some(&format!("vpk_flood_{n}")), SOURCE).await;
    }
    assert!(matches!(
        refusal(w.app.access.authenticate(Some("vpk_flood_x"), SOURCE).await),
        Refusal::TooManyFailedAuthentications { .. }
    ));
    assert_eq!(w.app.access.authenticate(Some(&key.secret), SOURCE).await.unwrap().id, account.id, "the key in use");

    // The partner rotates: the old key, revoked meanwhile, is refused as any wrong key is, and
    // its servers still sending it do not lock out the new one.
    w.app.operator.revoke_key(&spare.id).await.unwrap();
    for _ in 0..30 {
        assert_eq!(refusal(w.app.access.authenticate(Some(&spare.secret), SOURCE).await), Refusal::Unauthorized);
    }
    assert_eq!(w.app.access.authenticate(Some(&key.secret), SOURCE).await.unwrap().id, account.id);
}

#[tokio::test]
async fn concurrent_requests_with_one_key_make_one_gateway_call_and_one_invoice() {
    let w = World::new().await;
    let app = w.app.clone();
    let account = w.account.clone();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (app, account) = (app.clone(), account.clone());
            tokio::spawn(async move { app.payments.create_invoice(&account, key("same"), subscribe("u1", 1)).await })
        })
        .collect();
    let mut ids = std::collections::BTreeSet::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(view) => {
                ids.insert(view.invoice.payment_id);
            }
            Err(AppError::Refused(Refusal::OperationInProgress)) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(ids.len(), 1, "every success is the same invoice");
    assert_eq!(w.gateway.calls.load(Ordering::SeqCst), 1, "one gateway call");
}
