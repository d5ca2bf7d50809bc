//! Invoices and idempotency keys (`InvoiceRepo`).

use super::*;

contract_tests!(
    invoices_round_trip_and_stay_within_their_account,
    pending_invoices_due_are_oldest_first,
    invoices_pending_at_the_gateway_are_claimed_once_for_a_re_read,
    idempotency_keys_are_unique_per_account,
    unfinished_idempotency_keys_are_the_expired_locks,
    an_accounts_invoices_of_a_range_come_in_creation_order_a_page_at_a_time,
);

async fn an_accounts_invoices_of_a_range_come_in_creation_order_a_page_at_a_time(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    // Created at 0, 10, 10, 20 and 30 seconds; one of another account's at 10.
    for (id, account, t) in [
        ("pay-1", "acc-a", 0),
        ("pay-3", "acc-a", 10),
        ("pay-2", "acc-a", 10),
        ("pay-4", "acc-a", 20),
        ("pay-5", "acc-a", 30),
        ("pay-b", "acc-b", 10),
    ] {
        let mut i = invoice(id, account, &format!("{account}-c1"), Purpose::Subscription { plan_id: 1 });
        i.created_at = at(t);
        tx.insert_invoice(&i).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let ids = |page: &[InvoiceRecord]| page.iter().map(|i| i.payment_id.to_string()).collect::<Vec<_>>();
    let first = tx.account_invoices("acc-a", at(10), at(30), None, 2).await.unwrap();
    assert_eq!(ids(&first), ["pay-2", "pay-3"], "from the range's start, ties by id");
    let last = first.last().map(|i| Cursor { at: i.created_at, id: i.payment_id.to_string() });
    let second = tx.account_invoices("acc-a", at(10), at(30), last.as_ref(), 2).await.unwrap();
    assert_eq!(ids(&second), ["pay-4"], "the end is not in the range");
    assert!(tx.account_invoices("acc-a", at(31), at(40), None, 2).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

async fn invoices_round_trip_and_stay_within_their_account(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut sub = invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 3 });
    let settings = vp_domain::receipt::ReceiptSettings { tax_system_code: 2, vat_code: 1 };
    sub.receipt = Some(vp_domain::receipt::Receipt::of_purchase(
        settings,
        "buyer@example.com",
        "Fast VPN: 3 months",
        sub.purpose,
        sub.amounts.customer,
    ));
    let mut devices = invoice("pay-2", "acc-a", "acc-a-c1", Purpose::Devices { count: 2 });
    devices.return_url = None;
    let mut tx = begin(s).await;
    tx.insert_invoice(&sub).await.unwrap();
    tx.insert_invoice(&devices).await.unwrap();
    assert!(is_conflict(&tx.insert_invoice(&sub).await), "payment ids are unique");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    tx.insert_invoice(&sub).await.unwrap();
    tx.insert_invoice(&devices).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.invoice("acc-a", "pay-1").await.unwrap(), Some(sub.clone()));
    assert_eq!(tx.invoice("acc-a", "pay-2").await.unwrap(), Some(devices.clone()));
    assert_eq!(tx.invoice("acc-b", "pay-1").await.unwrap(), None, "another account's invoice is invisible");
    assert_eq!(tx.invoice_by_id("pay-2").await.unwrap(), Some(devices));
    assert_eq!(tx.invoice_by_id("pay-9").await.unwrap(), None);

    let mut paid = sub.clone();
    paid.status = InvoiceStatus::Succeeded;
    paid.payment_url = Some("https://pay.example/p/1".into());
    paid.gateway_payment_id = Some("gw-1".into());
    paid.paid_at = Some(at(600));
    tx.update_invoice(&paid).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.invoice("acc-a", "pay-1").await.unwrap(), Some(paid.clone()));
    let mut recalled = paid;
    recalled.status = InvoiceStatus::Failed;
    recalled.paid_at = None;
    recalled.return_url = None;
    tx.update_invoice(&recalled).await.unwrap();
    assert_eq!(tx.invoice_by_id("pay-1").await.unwrap(), Some(recalled), "None fields are written as NULL");
    tx.commit().await.unwrap();
}

async fn pending_invoices_due_are_oldest_first(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let now = at(1000);
    let mut tx = begin(s).await;
    for (id, expires, status) in [
        ("p-late", at(900), InvoiceStatus::Pending),
        ("p-now", now, InvoiceStatus::Pending),
        ("p-early", at(100), InvoiceStatus::Pending),
        ("p-future", at(1001), InvoiceStatus::Pending),
        ("p-paid", at(50), InvoiceStatus::Succeeded),
        ("p-expired", at(60), InvoiceStatus::Expired),
    ] {
        let mut inv = invoice(id, "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 1 });
        inv.expires_at = expires;
        inv.status = status;
        tx.insert_invoice(&inv).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let ids = |list: Vec<InvoiceRecord>| list.into_iter().map(|i| i.payment_id).collect::<Vec<_>>();
    assert_eq!(ids(tx.pending_invoices_due(now, 10).await.unwrap()), ["p-early", "p-late", "p-now"]);
    assert_eq!(ids(tx.pending_invoices_due(now, 2).await.unwrap()), ["p-early", "p-late"]);
    assert!(tx.pending_invoices_due(at(0), 10).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

async fn invoices_pending_at_the_gateway_are_claimed_once_for_a_re_read(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    for (id, check_at, status, expires) in [
        ("g-due", Some(10), InvoiceStatus::Pending, 1800),
        ("g-expired", Some(20), InvoiceStatus::Expired, 1800),
        ("g-later", Some(500), InvoiceStatus::Pending, 1800),
        ("g-paid", Some(0), InvoiceStatus::Succeeded, 1800),
        ("g-never", None, InvoiceStatus::Pending, 1800),
        ("g-old", Some(0), InvoiceStatus::Pending, -8000),
    ] {
        let mut inv = invoice(id, "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 1 });
        inv.status = status;
        inv.expires_at = at(expires);
        inv.gateway_payment_id = Some(format!("yk-{id}"));
        tx.insert_invoice(&inv).await.unwrap();
        tx.schedule_gateway_check(id, check_at.map(at)).await.unwrap();
    }
    assert_eq!(
        tx.invoice_by_gateway_payment_id("yk-g-due").await.unwrap().map(|i| i.payment_id).as_deref(),
        Some("g-due")
    );
    assert_eq!(tx.invoice_by_gateway_payment_id("yk-nothing").await.unwrap(), None);
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>, now: i64| async move {
        let mut tx = store.begin().await.unwrap();
        // The window: payment windows that ended at most 7200 s before `now`.
        let got = tx
            .claim_gateway_checks(Claim { now: at(now), lease_until: at(now + 300), limit: 10 }, at(now - 7200))
            .await
            .unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|c| (c.invoice.payment_id.to_string(), c.checks)).collect::<Vec<_>>()
    };
    let first = claim(ctx.store.clone(), 100).await;
    assert_eq!(first, [("g-due".to_owned(), 1), ("g-expired".to_owned(), 1)], "due, pending or expired, in the window");
    assert!(claim(ctx.store.clone(), 200).await.is_empty(), "claimed ones wait for their lease");
    let (a, b) = tokio::join!(claim(ctx.store.clone(), 600), claim(ctx.store.clone(), 600));
    let mut all: Vec<_> = [a.clone(), b.clone()].concat().into_iter().map(|(id, _)| id).collect();
    all.sort();
    assert_eq!(all, ["g-due", "g-expired", "g-later"], "each claimed by exactly one: {a:?} / {b:?}");
    assert!([a, b].concat().contains(&("g-due".to_owned(), 2)), "the count goes up with each claim");
    let mut tx = begin(&ctx.store).await;
    tx.schedule_gateway_check("g-due", None).await.unwrap();
    tx.commit().await.unwrap();
    let later: Vec<String> = claim(ctx.store.clone(), 2000).await.into_iter().map(|(id, _)| id).collect();
    assert_eq!(later, ["g-expired", "g-later"], "a payment with a final answer is not re-read");
}

async fn idempotency_keys_are_unique_per_account(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let first = idem("acc-a", "key-1", RecoveryPoint::Started, Some(at(30)));
    let mut tx = begin(s).await;
    tx.insert_idempotency_key(&first).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let again = tx.insert_idempotency_key(&idem("acc-a", "key-1", RecoveryPoint::Started, None)).await;
    assert!(is_conflict(&again), "{again:?}");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    tx.insert_idempotency_key(&idem("acc-b", "key-1", RecoveryPoint::Started, None)).await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "key-1").await.unwrap(), Some(first.clone()));
    let mut finished = first.clone();
    finished.recovery_point = RecoveryPoint::Finished;
    finished.locked_until = None;
    tx.update_idempotency_key(&finished).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.idempotency_key("acc-a", "key-1").await.unwrap(), Some(finished));
    assert_eq!(
        tx.idempotency_key("acc-b", "key-1").await.unwrap().map(|k| k.recovery_point),
        Some(RecoveryPoint::Started),
        "the other account's key is untouched"
    );
    tx.delete_idempotency_key("acc-a", "key-1").await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "key-1").await.unwrap(), None);
    assert!(tx.idempotency_key("acc-b", "key-1").await.unwrap().is_some());
    tx.commit().await.unwrap();
}

async fn unfinished_idempotency_keys_are_the_expired_locks(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    for record in [
        idem("acc-a", "expired-late", RecoveryPoint::Started, Some(at(50))),
        idem("acc-a", "expired-early", RecoveryPoint::Started, Some(at(10))),
        idem("acc-a", "still-locked", RecoveryPoint::Started, Some(at(500))),
        idem("acc-a", "at-boundary", RecoveryPoint::Started, Some(at(100))),
        idem("acc-a", "released", RecoveryPoint::Started, None),
        idem("acc-a", "finished", RecoveryPoint::Finished, Some(at(1))),
    ] {
        tx.insert_idempotency_key(&record).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let keys = |list: Vec<IdempotencyRecord>| list.into_iter().map(|k| k.key).collect::<Vec<_>>();
    assert_eq!(keys(tx.unfinished_idempotency_keys(at(100), 10).await.unwrap()), ["expired-early", "expired-late"]);
    assert_eq!(keys(tx.unfinished_idempotency_keys(at(100), 1).await.unwrap()), ["expired-early"]);
    tx.commit().await.unwrap();
}
