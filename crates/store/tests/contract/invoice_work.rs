//! The two units of work of `POST /payments`: opening an invoice and recording it, alone and racing
//! (`Store::open_invoice`, `Store::record_invoice`).

use super::*;

contract_tests!(
    opening_an_invoice_records_a_new_key_and_reads_the_client,
    opening_an_invoice_with_a_known_key_writes_nothing,
    recording_an_invoice_writes_the_client_the_invoice_and_the_finished_key_together,
    recording_an_invoice_for_a_client_created_meanwhile_or_twice_writes_nothing,
    recording_a_new_client_past_the_daily_limit_writes_nothing,
    invoices_recorded_at_once_keep_their_own_outcomes,
    openings_of_one_key_at_once_record_it_once,
    new_clients_of_two_accounts_at_once_fill_each_accounts_places_exactly,
    new_clients_far_below_a_raised_limit_are_all_recorded_and_counted,
    racing_new_clients_never_pass_the_daily_limit,
);

fn new_clients(limit: u32) -> DailyLimit {
    DailyLimit { quota: DailyQuota::NewClients, since: at(-3600), limit }
}

async fn opening_an_invoice_records_a_new_key_and_reads_the_client(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await; // alice, created at T0
    let key = idem("acc-a", "k-1", RecoveryPoint::Started, Some(at(60)));
    let opening = InvoiceOpening { key: &key, client_id: &cid("alice"), new_clients: &new_clients(500) };
    let opened = ctx.store.open_invoice(opening).await.unwrap();
    assert_eq!(opened.existing_key, None, "a new key is recorded");
    assert_eq!(opened.client.map(|c| c.id), Some(cref("acc-a-c1")));
    assert_eq!(opened.new_clients_bound, 1, "alice counts in the window");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "k-1").await.unwrap(), Some(key.clone()));
    tx.commit().await.unwrap();

    let key2 = idem("acc-a", "k-2", RecoveryPoint::Started, Some(at(60)));
    let opening = InvoiceOpening { key: &key2, client_id: &cid("bob"), new_clients: &new_clients(500) };
    let opened = ctx.store.open_invoice(opening).await.unwrap();
    assert_eq!((opened.existing_key, opened.client), (None, None), "bob is not a client yet");
}

async fn opening_an_invoice_with_a_known_key_writes_nothing(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let first = idem("acc-a", "k-1", RecoveryPoint::Started, Some(at(60)));
    let mut tx = begin(&ctx.store).await;
    tx.insert_idempotency_key(&first).await.unwrap();
    tx.commit().await.unwrap();
    let other = IdempotencyRecord { request_fingerprint: "other fields".into(), ..first.clone() };
    let opening = InvoiceOpening { key: &other, client_id: &cid("alice"), new_clients: &new_clients(500) };
    let opened = ctx.store.open_invoice(opening).await.unwrap();
    assert_eq!(opened.existing_key, Some(first.clone()), "the key as first recorded");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "k-1").await.unwrap(), Some(first));
    tx.commit().await.unwrap();
}

/// The recording of a new invoice for a new client `client_ref` / `client_id`.
fn recording(key: &str, client_ref: &str, client_id: &str, limit: u32) -> InvoiceWrite {
    recording_of("acc-a", key, client_ref, client_id, limit)
}

fn recording_of(account: &str, key: &str, client_ref: &str, client_id: &str, limit: u32) -> InvoiceWrite {
    let started = idem(account, key, RecoveryPoint::Started, Some(at(60)));
    let mut inv = invoice(&started.payment_id, account, client_ref, Purpose::Subscription { plan_id: 1 });
    inv.client_id = cid(client_id);
    InvoiceWrite {
        invoice: inv,
        new_client: Some((client(client_ref, account, client_id, at(5)), new_clients(limit))),
        key: IdempotencyRecord { recovery_point: RecoveryPoint::Finished, locked_until: None, ..started },
        gateway_check_at: Some(at(600)),
    }
}

async fn open_key(store: &Arc<dyn Store>, key: &str) {
    open_key_of(store, "acc-a", key).await;
}

async fn open_key_of(store: &Arc<dyn Store>, account: &str, key: &str) {
    let mut tx = begin(store).await;
    tx.insert_idempotency_key(&idem(account, key, RecoveryPoint::Started, Some(at(60)))).await.unwrap();
    tx.commit().await.unwrap();
}

async fn recording_an_invoice_writes_the_client_the_invoice_and_the_finished_key_together(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    open_key(&ctx.store, "k-1").await;
    let write = recording("k-1", "c-bob", "bob", 500);
    assert_eq!(ctx.store.record_invoice(&write).await.unwrap(), InvoiceRecorded::Recorded);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.client("acc-a", &cid("bob")).await.unwrap().map(|c| c.id), Some(cref("c-bob")));
    assert_eq!(tx.invoice("acc-a", "pay-k-1").await.unwrap(), Some(write.invoice.clone()));
    assert_eq!(tx.idempotency_key("acc-a", "k-1").await.unwrap(), Some(write.key.clone()));
    let nc = DailyQuota::NewClients;
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 2).await, "alice and bob count");
    let due =
        tx.claim_gateway_checks(Claim { now: at(600), lease_until: at(700), limit: 10 }, at(-7200)).await.unwrap();
    assert_eq!(due.iter().map(|c| c.invoice.payment_id.as_str()).collect::<Vec<_>>(), ["pay-k-1"], "check scheduled");
    tx.rollback().await.unwrap();

    // An existing client: the invoice and the key only.
    open_key(&ctx.store, "k-2").await;
    let mut again = recording("k-2", "c-bob", "bob", 500);
    again.new_client = None;
    again.gateway_check_at = None;
    assert_eq!(ctx.store.record_invoice(&again).await.unwrap(), InvoiceRecorded::Recorded);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.invoice("acc-a", "pay-k-2").await.unwrap().map(|i| i.client_ref), Some(cref("c-bob")));
    assert!(below(&mut tx, "acc-a", nc, at(-1), 3).await, "no client was added");
    tx.commit().await.unwrap();
}

async fn recording_an_invoice_for_a_client_created_meanwhile_or_twice_writes_nothing(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    open_key(&ctx.store, "k-1").await;
    // Alice exists (as acc-a-c1): a new client "alice" is refused, and nothing is written.
    let write = recording("k-1", "c-alice-2", "alice", 500);
    assert_eq!(ctx.store.record_invoice(&write).await.unwrap(), InvoiceRecorded::ClientExists);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.invoice_by_id("pay-k-1").await.unwrap(), None);
    assert_eq!(
        tx.idempotency_key("acc-a", "k-1").await.unwrap().map(|k| k.recovery_point),
        Some(RecoveryPoint::Started)
    );
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 2).await, "not counted");
    tx.commit().await.unwrap();

    let fresh = recording("k-1", "c-bob", "bob", 500);
    assert_eq!(ctx.store.record_invoice(&fresh).await.unwrap(), InvoiceRecorded::Recorded);
    let twice = InvoiceWrite { new_client: None, ..recording("k-1", "acc-a-c1", "alice", 500) };
    assert_eq!(ctx.store.record_invoice(&twice).await.unwrap(), InvoiceRecorded::AlreadyRecorded);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.invoice_by_id("pay-k-1").await.unwrap().map(|i| i.client_ref), Some(cref("c-bob")));
    tx.commit().await.unwrap();
}

async fn recording_a_new_client_past_the_daily_limit_writes_nothing(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await; // alice fills a limit of 1
    open_key(&ctx.store, "k-1").await;
    let write = recording("k-1", "c-bob", "bob", 1);
    assert_eq!(ctx.store.record_invoice(&write).await.unwrap(), InvoiceRecorded::DailyLimitReached);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.client("acc-a", &cid("bob")).await.unwrap(), None);
    assert_eq!(tx.invoice_by_id("pay-k-1").await.unwrap(), None);
    tx.commit().await.unwrap();
    assert_eq!(
        ctx.store.record_invoice(&recording("k-1", "c-bob", "bob", 2)).await.unwrap(),
        InvoiceRecorded::Recorded
    );
}

async fn invoices_recorded_at_once_keep_their_own_outcomes(ctx: Ctx) {
    // Recorded together (on SQLite, in one commit of the group writer), a refused one writes
    // nothing and undoes nothing of the others. Of 45 invoices, 15 ask for a new client named
    // like alice, who exists; 15 were recorded before, so their new client (written before the
    // invoice is refused) must be undone; 15 are new.
    seed(&ctx.store, "acc-a").await;
    for i in (1..45).step_by(3) {
        let key = format!("both-{i}");
        open_key(&ctx.store, &key).await;
        let first = recording(&key, &format!("c-first-{i}"), &format!("first-{i}"), 500);
        assert_eq!(ctx.store.record_invoice(&first).await.unwrap(), InvoiceRecorded::Recorded);
    }
    let mut tasks = Vec::new();
    for i in 0..45 {
        let store = ctx.store.clone();
        let key = format!("both-{i}");
        let name = if i % 3 == 0 { "alice".to_owned() } else { format!("fresh-{i}") };
        tasks.push(tokio::spawn(async move {
            if i % 3 != 1 {
                open_key(&store, &key).await;
            }
            (i, store.record_invoice(&recording(&key, &format!("c-both-{i}"), &name, 500)).await.unwrap())
        }));
    }
    let want = |i: usize| match i % 3 {
        0 => InvoiceRecorded::ClientExists,
        1 => InvoiceRecorded::AlreadyRecorded,
        _ => InvoiceRecorded::Recorded,
    };
    for t in tasks {
        let (i, outcome) = t.await.unwrap();
        assert_eq!(outcome, want(i), "invoice {i}");
    }
    let mut tx = begin(&ctx.store).await;
    for i in 0..45 {
        let invoice = tx.invoice_by_id(&format!("pay-both-{i}")).await.unwrap().map(|inv| inv.client_ref);
        let point = tx.idempotency_key("acc-a", &format!("both-{i}")).await.unwrap().map(|k| k.recovery_point);
        let fresh = tx.client("acc-a", &cid(&format!("fresh-{i}"))).await.unwrap().map(|c| c.id);
        match want(i) {
            InvoiceRecorded::ClientExists => {
                assert_eq!((invoice, point), (None, Some(RecoveryPoint::Started)), "invoice {i} refused");
            }
            InvoiceRecorded::AlreadyRecorded => {
                assert_eq!(invoice, Some(cref(&format!("c-first-{i}"))), "invoice {i} as first recorded");
                assert_eq!(fresh, None, "the second new client of invoice {i} was undone");
            }
            _ => {
                assert_eq!((invoice, point), (Some(cref(&format!("c-both-{i}"))), Some(RecoveryPoint::Finished)));
                assert_eq!(fresh, Some(cref(&format!("c-both-{i}"))));
            }
        }
    }
    // alice, 15 first clients and 15 fresh ones are counted; nothing of the refused ones.
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 32).await);
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 31).await);
    tx.commit().await.unwrap();
}

async fn openings_of_one_key_at_once_record_it_once(ctx: Ctx) {
    // Twelve requests with one key, among twelve with keys of their own, all at once (on
    // PostgreSQL several share a group's transaction): the key is recorded once, as the one
    // request that got no existing key sent it, and every other request of it gets that record.
    seed(&ctx.store, "acc-a").await;
    let mut tasks = Vec::new();
    for i in 0..24 {
        let store = ctx.store.clone();
        tasks.push(tokio::spawn(async move {
            let key_name = if i % 2 == 0 { "k-same".to_owned() } else { format!("k-own-{i}") };
            let key = IdempotencyRecord {
                request_fingerprint: format!("request {i}"),
                ..idem("acc-a", &key_name, RecoveryPoint::Started, Some(at(60)))
            };
            let opening = InvoiceOpening { key: &key, client_id: &cid("alice"), new_clients: &new_clients(500) };
            let opened = store.open_invoice(opening).await.unwrap();
            assert_eq!(opened.client.map(|c| c.id), Some(cref("acc-a-c1")), "request {i} reads alice");
            (i, key, opened.existing_key)
        }));
    }
    let mut first = Vec::new();
    let mut others = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            (i, key, None) => first.push((i, key)),
            (i, _, Some(existing)) => others.push((i, existing)),
        }
    }
    let same: Vec<_> = first.iter().filter(|(i, _)| i % 2 == 0).collect();
    assert_eq!(same.len(), 1, "one request recorded the shared key: {first:?}");
    assert_eq!(first.len(), 13, "and each own key was recorded by its request");
    let recorded = &same[0].1;
    assert_eq!(others.len(), 11);
    for (i, existing) in &others {
        assert_eq!(existing, recorded, "request {i} sees the key as first recorded");
    }
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "k-same").await.unwrap().as_ref(), Some(recorded));
    tx.commit().await.unwrap();
}

async fn new_clients_of_two_accounts_at_once_fill_each_accounts_places_exactly(ctx: Ctx) {
    // acc-a has 20 places a day and acc-b 30 (alice takes one of each); 60 new clients of
    // each race, in groups that mix the two accounts.
    seed(&ctx.store, "acc-a").await;
    seed(&ctx.store, "acc-b").await;
    let mut tasks = Vec::new();
    for i in 0..120 {
        let store = ctx.store.clone();
        let (account, limit) = if i % 2 == 0 { ("acc-a", 20) } else { ("acc-b", 30) };
        tasks.push(tokio::spawn(async move {
            let key = format!("{account}-race-{i}");
            open_key_of(&store, account, &key).await;
            let write = recording_of(account, &key, &format!("c-{key}"), &format!("racer-{i}"), limit);
            (account, store.record_invoice(&write).await.unwrap())
        }));
    }
    let mut recorded = std::collections::BTreeMap::<&str, u32>::new();
    for t in tasks {
        match t.await.unwrap() {
            (account, InvoiceRecorded::Recorded) => *recorded.entry(account).or_default() += 1,
            (_, InvoiceRecorded::DailyLimitReached) => {}
            (_, other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(recorded.get("acc-a"), Some(&19), "acc-a's places that were left");
    assert_eq!(recorded.get("acc-b"), Some(&29), "acc-b's places that were left");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 20).await);
    assert!(!below(&mut tx, "acc-b", DailyQuota::NewClients, at(-3600), 30).await);
    tx.commit().await.unwrap();
}

async fn new_clients_far_below_a_raised_limit_are_all_recorded_and_counted(ctx: Ctx) {
    // A raised limit (on PostgreSQL far above the margin, so groups take the shared lock):
    // 150 new clients at once are all recorded, and each is counted once.
    seed(&ctx.store, "acc-a").await;
    let mut tasks = Vec::new();
    for i in 0..150 {
        let store = ctx.store.clone();
        tasks.push(tokio::spawn(async move {
            let key = format!("raised-{i}");
            open_key(&store, &key).await;
            store.record_invoice(&recording(&key, &format!("c-raised-{i}"), &format!("raised-{i}"), 1_000_000)).await
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap(), InvoiceRecorded::Recorded);
    }
    let mut tx = begin(&ctx.store).await;
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 152).await, "alice and 150");
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 151).await, "alice and 150");
    tx.commit().await.unwrap();
}

async fn racing_new_clients_never_pass_the_daily_limit(ctx: Ctx) {
    // 150 places left (alice and 49 more of 200); 200 new clients race for them. On PostgreSQL
    // a limit of 200 is within the margin (max_connections x a group's most clients), so every
    // group takes the exclusive lock and counts exactly; the shared path is raced by
    // new_clients_far_below_a_raised_limit_are_all_recorded_and_counted.
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    for i in 0..49 {
        tx.insert_client(&client(&format!("pre-{i}"), "acc-a", &format!("pre-{i}"), at(1))).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..200 {
        let store = ctx.store.clone();
        tasks.push(tokio::spawn(async move {
            open_key(&store, &format!("race-{i}")).await;
            store
                .record_invoice(&recording(&format!("race-{i}"), &format!("c-race-{i}"), &format!("racer-{i}"), 200))
                .await
        }));
    }
    let mut recorded = 0;
    for t in tasks {
        match t.await.unwrap().unwrap() {
            InvoiceRecorded::Recorded => recorded += 1,
            InvoiceRecorded::DailyLimitReached => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(recorded, 150, "exactly the places that were left");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 200).await);
    tx.commit().await.unwrap();
}
