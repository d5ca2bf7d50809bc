//! What the gateway says, applied through the one settlement path: failures of the create
//! call, the charge pinned with the key, notifications, the reconciliation job and refunds.

use crate::support;

use std::sync::atomic::Ordering;

use support::{World, method, refusal};
use time::Duration;
use vp_app::{AppError, Refusal};
use vp_domain::{GatewayName, GatewayState, IdempotencyKey, InvoiceRequest, InvoiceStatus, Money, PaymentId};
use vp_ports::{GatewayError, GatewayEvents, RefundState};

fn key(k: &str) -> IdempotencyKey {
    IdempotencyKey::parse(Some(k)).unwrap()
}

fn subscribe(client: &str) -> InvoiceRequest {
    support::order(client, 2, "sbp")
}

async fn status(w: &World, payment_id: &str) -> InvoiceStatus {
    w.app.payments.invoice_view(&w.account, &PaymentId::parse(payment_id).unwrap()).await.unwrap().invoice.status
}

#[tokio::test]
async fn a_retry_after_an_unknown_outcome_asks_the_gateway_for_exactly_the_same_charge() {
    let w = World::new().await;
    w.gateway.down.store(true, Ordering::SeqCst);
    let first = w.app.payments.create_invoice(&w.account, key("k1"), subscribe("u1")).await;
    assert_eq!(refusal(first), Refusal::PaymentUnavailable);
    // The price and the method mapping change before the partner retries.
    let account = w.app.operator.set_markup(&w.account.id, "50").await.unwrap();
    w.app.operator.set_payment_method_gateway(&method("sbp"), None, None).await.unwrap();
    w.gateway.down.store(false, Ordering::SeqCst);
    let issued = w.app.payments.create_invoice(&account, key("k1"), subscribe("u1")).await.unwrap();
    let requests = w.gateway.requests.lock().unwrap().clone();
    let [sent] = requests.as_slice() else { panic!("one request reached the gateway: {requests:?}") };
    assert_eq!(sent.idempotency_key, issued.invoice.payment_id);
    assert_eq!(sent.gateway_method.as_deref(), Some("sbp"), "the mapping of the first attempt");
    assert_eq!(issued.invoice.amounts.customer, sent.amount, "the invoice shows what the gateway charges");
    assert_eq!(sent.amount, Money::from_kopecks(65_880), "3 months at 549.00 with the first attempt's 20 %, not 50 %");
    assert_eq!(sent.description, "Demo VPN: 3 months");
    assert_eq!(
        sent.return_url,
        w.app.payments.payment_result_url(&issued.invoice.payment_id),
        "the platform's result page"
    );
}

#[tokio::test]
async fn a_definite_no_from_the_gateway_frees_the_key_and_says_why() {
    let w = World::new().await;
    let cases = [
        (GatewayError::MethodUnavailable("not in the shop".into()), Some(Refusal::UnsupportedPaymentMethod)),
        (GatewayError::Declined("internal_timeout".into()), Some(Refusal::PaymentUnavailable)),
        (GatewayError::Rejected("400 invalid_request".into()), None),
    ];
    for (n, (error, expected)) in cases.into_iter().enumerate() {
        *w.gateway.fail_next.lock().unwrap() = Some(error);
        let k = format!("refused-{n}");
        let result = w.app.payments.create_invoice(&w.account, key(&k), subscribe(&format!("u{n}"))).await;
        match (expected, result) {
            (Some(r), result) => assert_eq!(refusal(result), r),
            (None, Err(AppError::External(_))) => {}
            (None, other) => panic!("a rejection is an internal error, got {other:?}"),
        }
        let again = w.app.payments.create_invoice(&w.account, key(&k), subscribe(&format!("u{n}"))).await.unwrap();
        assert!(!again.replayed, "the key was free: a new request");
        let requests = w.gateway.requests.lock().unwrap().clone();
        let last_two = &requests[requests.len() - 2..];
        assert_ne!(last_two[0].idempotency_key, last_two[1].idempotency_key, "a new gateway key after a definite no");
    }
}

#[tokio::test]
async fn a_notification_settles_once_whatever_it_claims() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("n"), subscribe("u1")).await.unwrap().invoice;
    let gateway_id = inv.gateway_payment_id.clone().unwrap();
    assert!(w.app.payments.payment_changed(GatewayName::Sandbox, &gateway_id, None).await.unwrap(), "a known payment");
    assert_eq!(
        w.app.payments.invoice_view(&w.account, &inv.payment_id).await.unwrap().invoice.status,
        InvoiceStatus::Pending
    );
    w.gateway.set_state(&inv.payment_id, GatewayState::Succeeded);
    w.app.payments.payment_changed(GatewayName::Sandbox, &gateway_id, None).await.unwrap();
    w.app.payments.payment_changed(GatewayName::Sandbox, &gateway_id, None).await.unwrap();
    assert_eq!(
        w.app.payments.invoice_view(&w.account, &inv.payment_id).await.unwrap().invoice.status,
        InvoiceStatus::Succeeded
    );
    assert_eq!(w.balance().await, inv.amounts.partner_share, "credited once");
    assert!(
        !w.app.payments.payment_changed(GatewayName::Sandbox, "gw_unknown", None).await.unwrap(),
        "no invoice has it"
    );
    w.gateway.down.store(true, Ordering::SeqCst);
    assert!(
        w.app.payments.payment_changed(GatewayName::Sandbox, &gateway_id, None).await.is_err(),
        "a re-read that fails asks for the notification again"
    );
}

#[tokio::test]
async fn reconciliation_re_reads_pending_payments_from_two_minutes_on_ever_less_often() {
    let w = World::new().await;
    w.gateway.reconciling.store(true, Ordering::SeqCst);
    let lost = w.app.payments.create_invoice(&w.account, key("lost"), subscribe("u1")).await.unwrap().invoice;
    let unpaid = w.app.payments.create_invoice(&w.account, key("unpaid"), subscribe("u2")).await.unwrap().invoice;
    w.gateway.set_state(&lost.payment_id, GatewayState::Succeeded);
    assert_eq!(w.app.payments.reconcile_pending_payments(100).await.unwrap(), 0, "not before 2 minutes");
    w.clock.advance(Duration::seconds(121));
    assert_eq!(w.app.payments.reconcile_pending_payments(100).await.unwrap(), 2);
    assert_eq!(status(&w, &lost.payment_id).await, InvoiceStatus::Succeeded, "the lost notification's payment");
    assert_eq!(status(&w, &unpaid.payment_id).await, InvoiceStatus::Pending);
    assert_eq!(
        w.app.payments.reconcile_pending_payments(100).await.unwrap(),
        0,
        "a settled one is done; the other waits"
    );
    w.clock.advance(Duration::seconds(61));
    assert_eq!(w.app.payments.reconcile_pending_payments(100).await.unwrap(), 1, "one minute after the first re-read");
    w.clock.advance(Duration::seconds(61));
    assert_eq!(w.app.payments.reconcile_pending_payments(100).await.unwrap(), 0, "then two minutes");
    w.clock.advance(Duration::seconds(60));
    assert_eq!(w.app.payments.reconcile_pending_payments(100).await.unwrap(), 1);

    // The sweeper expires it at 30 minutes; a late payment seen by a re-read still succeeds.
    w.clock.advance(Duration::minutes(40));
    w.app.payments.expire_overdue_invoices(100).await.unwrap();
    assert_eq!(status(&w, &unpaid.payment_id).await, InvoiceStatus::Expired);
    w.gateway.set_state(&unpaid.payment_id, GatewayState::Succeeded);
    w.app.payments.reconcile_pending_payments(100).await.unwrap();
    assert_eq!(status(&w, &unpaid.payment_id).await, InvoiceStatus::Succeeded, "late payment");

    let forgotten = w.app.payments.create_invoice(&w.account, key("forgotten"), subscribe("u3")).await.unwrap().invoice;
    w.clock.advance(Duration::minutes(30) + Duration::hours(2) + Duration::minutes(1));
    w.gateway.set_state(&forgotten.payment_id, GatewayState::Succeeded);
    assert_eq!(
        w.app.payments.reconcile_pending_payments(100).await.unwrap(),
        0,
        "two hours after its window it is let go"
    );
}

#[tokio::test]
async fn the_deadline_asks_the_gateway_first_so_a_paid_invoice_never_expires() {
    let w = World::new().await;
    w.gateway.reconciling.store(true, Ordering::SeqCst);
    let paid = w.app.payments.create_invoice(&w.account, key("paid"), subscribe("u1")).await.unwrap().invoice;
    w.clock.advance(Duration::seconds(1));
    let unpaid = w.app.payments.create_invoice(&w.account, key("unpaid"), subscribe("u2")).await.unwrap().invoice;
    let down = w.app.payments.create_invoice(&w.account, key("down"), subscribe("u3")).await.unwrap().invoice;
    w.gateway.set_state(&paid.payment_id, GatewayState::Succeeded); // its notification is lost
    w.clock.advance(Duration::minutes(31));
    w.gateway.down.store(true, Ordering::SeqCst);
    w.app.payments.expire_overdue_invoices(1).await.unwrap(); // the oldest first: `paid`, but the gateway is down
    w.gateway.down.store(false, Ordering::SeqCst);
    w.app.payments.expire_overdue_invoices(100).await.unwrap();
    assert_eq!(status(&w, &paid.payment_id).await, InvoiceStatus::Expired, "without the gateway's word it expired");
    assert_eq!(status(&w, &unpaid.payment_id).await, InvoiceStatus::Expired);
    assert_eq!(status(&w, &down.payment_id).await, InvoiceStatus::Expired);

    let late = w.app.payments.create_invoice(&w.account, key("late"), subscribe("u4")).await.unwrap().invoice;
    w.gateway.set_state(&late.payment_id, GatewayState::Succeeded);
    w.clock.advance(Duration::minutes(31));
    assert_eq!(w.app.payments.expire_overdue_invoices(100).await.unwrap(), 0);
    assert_eq!(status(&w, &late.payment_id).await, InvoiceStatus::Succeeded, "paid, not expired");
}

#[tokio::test]
async fn the_sandbox_kind_of_gateway_is_not_reconciled() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("s"), subscribe("u1")).await.unwrap().invoice;
    w.gateway.set_state(&inv.payment_id, GatewayState::Succeeded);
    w.clock.advance(Duration::minutes(5));
    assert_eq!(w.app.payments.reconcile_pending_payments(100).await.unwrap(), 0);
}

#[tokio::test]
async fn a_refund_is_the_bank_recall_applied_once() {
    let w = World::new().await;
    let inv = w.app.payments.create_invoice(&w.account, key("r"), subscribe("u1")).await.unwrap().invoice;
    assert!(
        matches!(w.app.payments.refund_invoice(&inv.payment_id, false).await, Err(AppError::Conflict(_))),
        "not paid yet"
    );
    w.gateway.set_state(&inv.payment_id, GatewayState::Succeeded);
    w.app.payments.reconcile_invoice(&inv.payment_id).await.unwrap();
    let (refunded, state) = w.app.payments.refund_invoice(&inv.payment_id, false).await.unwrap();
    assert_eq!((refunded.status, state), (InvoiceStatus::Failed, RefundState::Succeeded));
    assert_eq!(w.balance().await, Money::ZERO, "the share is reversed");
    w.app.payments.payment_changed(GatewayName::Sandbox, &inv.gateway_payment_id.unwrap(), None).await.unwrap();
    assert_eq!(w.balance().await, Money::ZERO, "the refund's notification changes nothing more");
}

#[tokio::test]
async fn a_method_whose_gateway_is_off_is_not_offered_and_issues_nothing() {
    let w = World::new().await;
    w.app.operator.set_payment_method_gateway(&method("sbp"), Some(GatewayName::Platega), Some("sbp")).await.unwrap();
    let offered: Vec<String> =
        w.app.catalog.available_payment_methods().await.unwrap().into_iter().map(|m| m.code).collect();
    assert!(!offered.contains(&"sbp".to_owned()), "Platega is off: {offered:?}");
    let refused = w.app.payments.create_invoice(&w.account, key("off-1"), subscribe("u1")).await;
    assert_eq!(refusal(refused), Refusal::UnsupportedPaymentMethod);
    assert!(w.gateway.requests.lock().unwrap().is_empty(), "no gateway was asked");

    // Back on the default gateway: offered, and the invoice keeps the rail it was issued on.
    w.app.operator.set_payment_method_gateway(&method("sbp"), None, Some("sbp")).await.unwrap();
    let issued = w.app.payments.create_invoice(&w.account, key("off-1"), subscribe("u1")).await.unwrap();
    assert_eq!(issued.invoice.rail.to_string(), "sandbox:sbp", "the key was freed by the refusal");
}
