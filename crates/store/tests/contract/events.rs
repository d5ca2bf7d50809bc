//! Webhook endpoints, events, deliveries and the term-event candidates (`EventRepo`).

use super::*;
use vp_domain::AccountId;
use vp_domain::EndpointId;

contract_tests!(
    webhook_endpoints_round_trip_every_field,
    events_and_deliveries_are_claimed_once_under_a_lease,
    claims_skip_busy_endpoints_and_give_back_and_batches_load_in_one_go,
    committed_deliveries_wake_a_waiting_dispatcher_and_a_rollback_does_not,
    a_delivery_per_event_and_endpoint_and_its_attempt_log,
    term_event_candidates_are_the_unreminded_and_the_ended,
    the_delivery_backlog_counts_pending_ones_and_dates_the_longest_waiting_due_one,
);

pub(super) fn endpoint(id: &str, account_id: &str) -> WebhookEndpointRecord {
    WebhookEndpointRecord::added(
        EndpointId::issued(id.into()),
        AccountId::issued(account_id.into()),
        "https://hooks.partner.example/vpn".into(),
        vec!["payment.succeeded".into(), "subscription.expired".into()],
        "v1.0a1b2c3d.c2VhbGVkIGN1cnJlbnQ".into(),
        T0,
    )
}

pub(super) fn event(id: &str, account_id: &str, event_type: &str, at_s: i64) -> EventRecord {
    EventRecord {
        id: id.into(),
        account_id: AccountId::issued(account_id.into()),
        event_type: event_type.into(),
        body: format!(r#"{{"type":"{event_type}","timestamp":"2026-11-23T10:00:00.123456Z","data":{{}}}}"#),
        occurred_at: at(at_s),
        created_at: at(at_s),
    }
}

pub(super) fn delivery(id: &str, event_id: &str, endpoint_id: &str, due_s: i64) -> DeliveryRecord {
    DeliveryRecord {
        id: id.into(),
        event_id: event_id.into(),
        endpoint_id: EndpointId::issued(endpoint_id.into()),
        status: DeliveryStatus::Pending,
        attempts: 0,
        next_attempt_at: at(due_s),
        locked_until: None,
        delivered_at: None,
        created_at: at(due_s),
    }
}

async fn webhook_endpoints_round_trip_every_field(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    seed(&ctx.store, "acc-b").await;
    let mut tx = begin(&ctx.store).await;
    let mut first = endpoint("we-1", "acc-a");
    tx.insert_webhook_endpoint(&first).await.unwrap();
    tx.insert_webhook_endpoint(&WebhookEndpointRecord { created_at: at(5), ..endpoint("we-2", "acc-a") })
        .await
        .unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-3", "acc-b")).await.unwrap();
    first.previous_secret_sealed = Some(first.secret_sealed.clone());
    first.secret_sealed = "v1.0a1b2c3d.c2VhbGVkIG5ldw".into();
    first.secret_rotated_at = Some(at(60));
    first.enabled = false;
    first.disabled_reason = Some("gone".into());
    first.failing_since = Some(at(30));
    first.event_types = vec!["webhook.test".into()];
    tx.update_webhook_endpoint(&first).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.webhook_endpoint("we-1").await.unwrap(), Some(first));
    let ids: Vec<EndpointId> = tx.webhook_endpoints("acc-a").await.unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(ids, ["we-1", "we-2"], "only the account's own, oldest first");
    assert_eq!(tx.webhook_endpoint("we-none").await.unwrap(), None);
    let all: Vec<EndpointId> = tx.all_webhook_endpoints().await.unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(all, ["we-1", "we-3", "we-2"], "every account's, oldest first");
    tx.commit().await.unwrap();
}

async fn events_and_deliveries_are_claimed_once_under_a_lease(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    for (n, due) in [(1, 10), (2, 0), (3, 500)] {
        tx.insert_event(&event(&format!("evt-{n}"), "acc-a", "payment.succeeded", 0)).await.unwrap();
        tx.insert_delivery(&delivery(&format!("dl-{n}"), &format!("evt-{n}"), "we-1", due)).await.unwrap();
    }
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>, now: i64| async move {
        let mut tx = store.begin().await.unwrap();
        let got =
            tx.claim_due_deliveries(Claim { now: at(now), lease_until: at(now + 60), limit: 10 }, &[]).await.unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|d| d.id).collect::<Vec<_>>()
    };
    assert_eq!(claim(ctx.store.clone(), 20).await, ["dl-2", "dl-1"], "due ones, oldest due first");
    assert!(claim(ctx.store.clone(), 30).await.is_empty(), "leased ones are not claimed again");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.delivery("dl-1").await.unwrap().unwrap().locked_until, Some(at(80)));
    tx.commit().await.unwrap();
    assert_eq!(claim(ctx.store.clone(), 81).await, ["dl-2", "dl-1"], "an expired lease (a dead worker) frees them");

    // Two claimers at once never get the same delivery.
    let (a, b) = tokio::join!(claim(ctx.store.clone(), 600), claim(ctx.store.clone(), 600));
    let mut all = [a.clone(), b.clone()].concat();
    all.sort();
    assert_eq!(all, ["dl-1", "dl-2", "dl-3"], "each claimed by exactly one: {a:?} / {b:?}");

    let mut tx = begin(&ctx.store).await;
    let mut d = tx.delivery("dl-3").await.unwrap().unwrap();
    d.status = DeliveryStatus::Delivered;
    d.attempts = 1;
    d.delivered_at = Some(at(601));
    d.locked_until = None;
    tx.update_delivery(&d).await.unwrap();
    tx.commit().await.unwrap();
    assert!(claim(ctx.store.clone(), 10_000).await.iter().all(|id| id != "dl-3"), "delivered ones are done");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.delivery("dl-3").await.unwrap(), Some(d));
    assert_eq!(tx.event("evt-3").await.unwrap(), Some(event("evt-3", "acc-a", "payment.succeeded", 0)));
    tx.commit().await.unwrap();
}

async fn claims_skip_busy_endpoints_and_give_back_and_batches_load_in_one_go(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-slow", "acc-a")).await.unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-fast", "acc-a")).await.unwrap();
    for (n, endpoint_id) in [(1, "we-slow"), (2, "we-fast"), (3, "we-slow"), (4, "we-fast")] {
        tx.insert_event(&event(&format!("evt-{n}"), "acc-a", "payment.succeeded", n)).await.unwrap();
        tx.insert_delivery(&delivery(&format!("dl-{n}"), &format!("evt-{n}"), endpoint_id, n)).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let claimed = tx
        .claim_due_deliveries(
            Claim { now: at(100), lease_until: at(160), limit: 10 },
            &[EndpointId::issued("we-slow".to_owned())],
        )
        .await
        .unwrap();
    assert_eq!(claimed.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["dl-2", "dl-4"], "the busy endpoint waits");
    tx.release_deliveries(&["dl-4".to_owned()]).await.unwrap();
    let again = tx.claim_due_deliveries(Claim { now: at(100), lease_until: at(160), limit: 10 }, &[]).await.unwrap();
    assert_eq!(again.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["dl-1", "dl-3", "dl-4"], "given back");
    let mut events = tx.events_by_ids(&["evt-3".to_owned(), "evt-1".to_owned(), "evt-9".to_owned()]).await.unwrap();
    events.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(
        events,
        [event("evt-1", "acc-a", "payment.succeeded", 1), event("evt-3", "acc-a", "payment.succeeded", 3)]
    );
    let endpoints = tx.webhook_endpoints_by_ids(&[EndpointId::issued("we-fast".to_owned())]).await.unwrap();
    assert_eq!(endpoints, [endpoint("we-fast", "acc-a")]);
    assert!(tx.events_by_ids(&[]).await.unwrap().is_empty());

    // Outcomes are saved in one go: every changing column of every row.
    let mut delivered = claimed[0].clone();
    delivered.status = DeliveryStatus::Delivered;
    delivered.attempts = 1;
    delivered.delivered_at = Some(at(101));
    delivered.locked_until = None;
    let mut retried = again[0].clone();
    retried.attempts = 3;
    retried.next_attempt_at = at(400);
    retried.locked_until = None;
    tx.update_deliveries(&[delivered.clone(), retried.clone()]).await.unwrap();
    tx.update_deliveries(&[]).await.unwrap();
    assert_eq!(tx.delivery("dl-2").await.unwrap(), Some(delivered));
    assert_eq!(tx.delivery("dl-1").await.unwrap(), Some(retried));
    tx.commit().await.unwrap();
}

async fn committed_deliveries_wake_a_waiting_dispatcher_and_a_rollback_does_not(ctx: Ctx) {
    use std::time::Duration;
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.commit().await.unwrap();
    // A second store on the same database stands for another process.
    let other = connect(&ctx.url, &StoreOptions::default()).await.unwrap();
    // Waiting starts listening where the backend can; both do before anything is recorded.
    ctx.store.wait_for_deliveries(Duration::from_millis(50)).await;
    other.wait_for_deliveries(Duration::from_millis(50)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let here = waiting(ctx.store.clone(), Duration::from_secs(5));
    let there = waiting(other.clone(), Duration::from_secs(2));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_event(&event("evt-w", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.insert_delivery(&delivery("dl-w", "evt-w", "we-1", 0)).await.unwrap();
    tx.commit().await.unwrap();
    assert!(here.await.unwrap() < Duration::from_secs(2), "this process wakes at the commit");
    let there = there.await.unwrap();
    if ctx.url.starts_with("postgres") {
        assert!(there < Duration::from_secs(2), "another process on PostgreSQL wakes too (LISTEN/NOTIFY): {there:?}");
    }

    let quiet = waiting(ctx.store.clone(), Duration::from_millis(1500));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_event(&event("evt-r", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.insert_delivery(&delivery("dl-r", "evt-r", "we-1", 0)).await.unwrap();
    tx.rollback().await.unwrap();
    assert!(quiet.await.unwrap() >= Duration::from_millis(1400), "nothing was recorded: no wake-up");
}

async fn a_delivery_per_event_and_endpoint_and_its_attempt_log(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.insert_event(&event("evt-1", "acc-a", "webhook.test", 0)).await.unwrap();
    tx.insert_event(&event("evt-2", "acc-a", "payment.expired", 100)).await.unwrap();
    tx.insert_delivery(&delivery("dl-1", "evt-1", "we-1", 0)).await.unwrap();
    tx.insert_delivery(&delivery("dl-2", "evt-2", "we-1", 100)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert!(
        is_conflict(&tx.insert_delivery(&delivery("dl-9", "evt-1", "we-1", 0)).await),
        "one per event and endpoint"
    );
    drop(tx);

    let mut tx = begin(&ctx.store).await;
    let attempt = |n: u32, s: i64, code: Option<u16>| AttemptRecord {
        id: format!("att-{n}"),
        delivery_id: "dl-2".into(),
        attempt: n,
        attempted_at: at(s),
        status_code: code,
        duration_ms: 15_000,
        error: code.is_none().then(|| "timed out".to_owned()),
    };
    tx.insert_attempts(&[attempt(1, 100, None), attempt(2, 105, Some(503))]).await.unwrap();
    let mut failed = tx.delivery("dl-2").await.unwrap().unwrap();
    failed.status = DeliveryStatus::Failed;
    tx.update_delivery(&failed).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    let accepted = AttemptRecord { id: "att-9".into(), delivery_id: "dl-1".into(), ..attempt(1, 101, Some(200)) };
    tx.insert_attempts(std::slice::from_ref(&accepted)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = ctx.store.read().await.unwrap();
    let filter = |failed_only: bool, event_type: Option<&str>, before: Option<&AttemptRecord>| AttemptFilter {
        failed_only,
        event_type: event_type.map(str::to_owned),
        before: before.map(|a| Cursor { at: a.attempted_at, id: a.id.clone() }),
        limit: 10,
    };
    let log = tx.endpoint_attempts("we-1", &filter(false, None, None)).await.unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(
        (log[0].attempt.clone(), log[0].event_type.as_str(), log[0].event_id.as_str()),
        (attempt(2, 105, Some(503)), "payment.expired", "evt-2"),
        "newest first"
    );
    assert_eq!((log[1].attempt.clone(), log[2].attempt.clone()), (accepted.clone(), attempt(1, 100, None)));
    let one = AttemptFilter { limit: 1, ..filter(false, None, None) };
    assert_eq!(tx.endpoint_attempts("we-1", &one).await.unwrap().len(), 1);
    let attempts = |log: Vec<AttemptLogEntry>| log.into_iter().map(|e| e.attempt.id).collect::<Vec<_>>();
    let failed_only = tx.endpoint_attempts("we-1", &filter(true, None, None)).await.unwrap();
    assert_eq!(attempts(failed_only), ["att-2", "att-1"], "no 2xx: error statuses and no response");
    let tests = tx.endpoint_attempts("we-1", &filter(false, Some("webhook.test"), None)).await.unwrap();
    assert_eq!(attempts(tests), ["att-9"]);
    let older = tx.endpoint_attempts("we-1", &filter(false, None, Some(&accepted))).await.unwrap();
    assert_eq!(attempts(older), ["att-1"], "strictly older than the cursor");
    let ids = |v: Vec<DeliveryRecord>| v.into_iter().map(|d| d.id).collect::<Vec<_>>();
    assert_eq!(ids(tx.endpoint_deliveries_since("we-1", DeliveryStatus::Failed, at(0)).await.unwrap()), ["dl-2"]);
    assert!(
        tx.endpoint_deliveries_since("we-1", DeliveryStatus::Failed, at(100)).await.unwrap().is_empty(),
        "strictly after"
    );
    assert_eq!(ids(tx.endpoint_deliveries_since("we-1", DeliveryStatus::Pending, at(-1)).await.unwrap()), ["dl-1"]);
    assert_eq!(tx.endpoint_event_times_since("we-1", "webhook.test", at(-1)).await.unwrap(), [at(0)]);
    assert!(tx.endpoint_event_times_since("we-1", "webhook.test", at(0)).await.unwrap().is_empty(), "strictly after");
    assert_eq!(tx.endpoint_event_times_since("we-1", "payment.expired", at(-1)).await.unwrap(), [at(100)]);
    tx.commit().await.unwrap();
}

async fn term_event_candidates_are_the_unreminded_and_the_ended(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    let day = 86_400;
    struct Row {
        name: &'static str,
        ends: i64,
        sent: (bool, bool), // (72 h, 24 h)
        status: SubscriptionStatus,
        lifetime: bool,
        trial: bool,
        blocked: bool,
    }
    let row =
        |name, ends, sent, status| Row { name, ends, sent, status, lifetime: false, trial: false, blocked: false };
    use SubscriptionStatus::{Active, Expired, Suspended};
    let rows = [
        row("far", 10 * day, (false, false), Active),
        row("soon", 2 * day, (false, false), Active),
        row("reminded", 10 * 3600, (true, true), Active),
        row("reminded-72", 2 * day, (true, false), Active),
        row("ended", -60, (true, true), Active),
        row("ended-2", -60, (false, false), Active),
        row("already-expired", -day, (false, false), Expired),
        row("suspended", 3600, (false, false), Suspended),
        row("suspended-ended", -30, (false, false), Suspended),
        Row { lifetime: true, ..row("lifetime", 3600, (false, false), Active) },
        Row { trial: true, ..row("trial-2d", 2 * day, (false, false), Active) },
        Row { trial: true, ..row("trial-10h", 10 * 3600, (false, false), Active) },
        Row { blocked: true, ..row("blocked", 3600, (false, false), Active) },
        Row { blocked: true, ..row("blocked-ended", -10, (true, true), Active) },
    ];
    for r in rows {
        let id = format!("c-{}", r.name);
        let mut c = client(&id, "acc-a", r.name, T0);
        c.blocked = r.blocked;
        tx.insert_client(&c).await.unwrap();
        let mut sub = subscription(r.status, &format!("tok-{}", r.name));
        sub.subscription.expires_at = at(r.ends);
        (sub.subscription.reminders.sent_72, sub.subscription.reminders.sent_24) = r.sent;
        sub.subscription.lifetime = r.lifetime;
        sub.subscription.is_trial = r.trial;
        tx.save_subscription(&id, &sub).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut tx = ctx.store.read().await.unwrap();
    let names =
        |v: Vec<TermCandidate>| v.into_iter().map(|c| c.client.client_id.as_str().to_owned()).collect::<Vec<_>>();
    let all = tx.term_event_candidates(T0, None, 20).await.unwrap();
    assert_eq!(
        names(all.clone()),
        ["ended-2", "soon", "trial-10h", "ended", "suspended-ended", "blocked-ended"],
        "ordered by the moment something may be due (the next window, else the end); a term \
         reminded for its window, a suspended or blocked one still running, a trial before its \
         24 and a lifetime are not read"
    );
    assert_eq!(all[1].check_at, at(2 * day - 3 * day), "the 72-hour window of a term ending in 2 days");
    assert_eq!(all[3].check_at, at(-60), "a reminded term is read again at its end");
    let page = tx.term_event_candidates(T0, None, 1).await.unwrap();
    let cursor = Cursor { at: page[0].check_at, id: page[0].client.id.to_string() };
    assert_eq!(
        names(tx.term_event_candidates(T0, Some(cursor), 20).await.unwrap()),
        ["soon", "trial-10h", "ended", "suspended-ended", "blocked-ended"]
    );
    tx.commit().await.unwrap();

    // Saving a change moves the moment: the 72 sent, the term is read again in its last day.
    let mut tx = begin(&ctx.store).await;
    let mut some = tx.clients_by_refs(&[cref("c-soon"), cref("c-far"), cref("c-nobody")]).await.unwrap();
    some.sort_by(|a, b| a.id.cmp(&b.id));
    let ids: Vec<&str> = some.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c-far", "c-soon"], "several clients at once, those that exist");
    assert!(some.iter().all(|c| c.subscription.is_some()), "with their subscriptions");
    let mut soon = tx.client_by_ref("c-soon").await.unwrap().unwrap().subscription.unwrap();
    soon.subscription.reminders.sent_72 = true;
    tx.save_subscription("c-soon", &soon).await.unwrap();
    assert!(!names(tx.term_event_candidates(T0, None, 20).await.unwrap()).contains(&"soon".to_owned()));
    assert!(names(tx.term_event_candidates(at(day), None, 20).await.unwrap()).contains(&"soon".to_owned()));
    tx.commit().await.unwrap();
}

async fn the_delivery_backlog_counts_pending_ones_and_dates_the_longest_waiting_due_one(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    assert_eq!(ctx.store.delivery_backlog(at(0)).await.unwrap(), DeliveryBacklog::default(), "nothing to deliver");
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    for (n, due) in [(1, 10), (2, 5), (3, 500), (4, 1)] {
        tx.insert_event(&event(&format!("evt-{n}"), "acc-a", "payment.succeeded", 0)).await.unwrap();
        tx.insert_delivery(&delivery(&format!("dl-{n}"), &format!("evt-{n}"), "we-1", due)).await.unwrap();
    }
    let mut done = delivery("dl-4", "evt-4", "we-1", 1);
    done.status = DeliveryStatus::Delivered;
    done.delivered_at = Some(at(2));
    tx.update_delivery(&done).await.unwrap();
    tx.commit().await.unwrap();
    let backlog = ctx.store.delivery_backlog(at(20)).await.unwrap();
    assert_eq!(
        backlog,
        DeliveryBacklog { pending: 3, oldest_due_at: Some(at(5)) },
        "a retry due later counts as pending"
    );
    let early = ctx.store.delivery_backlog(at(3)).await.unwrap();
    assert_eq!(early, DeliveryBacklog { pending: 3, oldest_due_at: None }, "none is due yet");
}
