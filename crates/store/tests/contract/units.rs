//! Units of work themselves: commit, rollback, locks, reads made ahead, asynchronous commits,
//! migrations and the pool (`Store`, `Tx`).

use super::events::{delivery, endpoint, event};
use super::ledger::{balance, ledger_entry};
use super::*;
use vp_domain::AccountId;

contract_tests!(
    migrations_go_up_down_and_up_again,
    commit_persists,
    rollback_leaves_no_trace,
    dropped_unit_of_work_leaves_no_trace,
    concurrent_writers_both_succeed,
    a_client_lock_waits_for_the_same_client_and_the_whole_account_and_not_for_another_client,
    a_unit_begun_with_an_invoice_reads_it_under_its_clients_lock,
    reads_made_ahead_answer_their_next_call_once_then_the_database_does,
    a_store_serves_every_runtime_that_uses_it_even_after_one_on_the_same_thread_ended,
    a_unit_committing_asynchronously_keeps_its_write_only_at_its_commit_and_wakes_the_dispatcher,
    writes_answering_nothing_are_read_back_by_their_unit_and_kept_only_whole_by_its_commit,
    the_daily_limit_guard_lets_one_of_two_racing_writers_take_the_last_place,
    the_pool_reports_its_size_and_use,
);

async fn migrations_go_up_down_and_up_again(ctx: Ctx) {
    assert_eq!(migrate(&ctx.url).await.unwrap(), Vec::<String>::new(), "a second migrate is a no-op");
    revert_all(&ctx.url).await.unwrap();
    {
        let mut tx = begin(&ctx.store).await;
        assert!(tx.accounts().await.is_err(), "tables are gone after revert_all");
        tx.rollback().await.unwrap();
    }
    assert_eq!(
        migrate(&ctx.url).await.unwrap(),
        [
            "20261123000001",
            "20261123000002",
            "20261123000003",
            "20261123000004",
            "20261123000005",
            "20261123000006",
            "20261123000007",
            "20261123000008",
            "20261125000009",
            "20261125000010",
            "20261125000011",
            "20261125000012",
            "20261125000013",
            "20261125000014",
            "20261125000015",
            "20261125000016",
            "20261125000017",
            "20261126000018",
            "20261126000019",
            "20261126000020",
            "20261126000021",
            "20261126000022",
            "20261127000023",
            "20261127000024",
            "20261127000025",
            "20261127000026",
            "20261127000027",
            "20261127000028",
            "20261127000029",
            "20261127000030",
            "20261127000031",
            "20261127000032",
            "20261127000033",
            "20261127000034",
            "20261127000035",
            "20261127000036",
            "20261127000037",
            "20261128000038",
            "20261128000039",
            "20261128000040",
            "20261128000041",
            "20261128000042",
            "20261128000043",
            "20261129000044",
            "20261129000045",
            "20261205000046",
            "20261205000047",
            "20261205000048",
            "20261205000049",
            "20261205000050",
            "20261205000051",
            "20261205000052",
            "20261206000053",
            "20261206000054",
            "20261206000055",
            "20261206000056",
            "20261206000057",
            "20261206000058",
            "20261206000059",
            "20261206000060",
            "20261206000061",
            "20261206000062",
        ]
    );
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.account("acc-1").await.unwrap(), Some(account("acc-1")));
    tx.rollback().await.unwrap();
}

async fn commit_persists(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.account("acc-a").await.unwrap(), Some(account("acc-a")));
    tx.commit().await.unwrap();
}

async fn rollback_leaves_no_trace(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    assert!(tx.account("acc-a").await.unwrap().is_some(), "visible inside the unit of work");
    tx.rollback().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.account("acc-a").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn dropped_unit_of_work_leaves_no_trace(ctx: Ctx) {
    {
        let mut tx = begin(&ctx.store).await;
        tx.insert_account(&account("acc-a")).await.unwrap();
        drop(tx);
    }
    // The abandoned transaction must neither persist nor block the next writer.
    for _ in 0..3 {
        let mut tx = begin(&ctx.store).await;
        assert_eq!(tx.account("acc-a").await.unwrap(), None);
        tx.insert_account(&account("acc-b")).await.unwrap();
        tx.rollback().await.unwrap();
    }
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    tx.commit().await.unwrap();
}

async fn concurrent_writers_both_succeed(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let writer = |store: Arc<dyn Store>, n: u32| async move {
        let mut tx = store.begin().await?;
        tx.lock_account("acc-a").await?;
        tx.insert_client(&client(&format!("w-{n}"), "acc-a", &format!("writer-{n}"), at(i64::from(n)))).await?;
        tokio::time::sleep(StdDuration::from_millis(100)).await;
        tx.commit().await
    };
    let a = tokio::spawn(writer(ctx.store.clone(), 1));
    let b = tokio::spawn(writer(ctx.store.clone(), 2));
    a.await.unwrap().expect("first writer");
    b.await.unwrap().expect("second writer");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 3).await, "both clients and the seed's count");
    tx.commit().await.unwrap();
}

/// A lock of account `acc-a` a test unit of work takes.
#[derive(Clone, Copy)]
enum Lock {
    Client(&'static str),
    Account,
}

/// A unit of work that takes `lock`, then gives the unit back.
fn take(store: &Arc<dyn Store>, lock: Lock) -> tokio::task::JoinHandle<Result<(), StoreError>> {
    let store = store.clone();
    tokio::spawn(async move {
        let mut tx = store.begin().await?;
        match lock {
            Lock::Client(client_ref) => tx.lock_client("acc-a", client_ref).await?,
            Lock::Account => tx.lock_account("acc-a").await?,
        }
        tx.rollback().await
    })
}

/// Whether `task` is still waiting after `for_`.
async fn still_waiting(task: &mut tokio::task::JoinHandle<Result<(), StoreError>>, for_: StdDuration) -> bool {
    match tokio::time::timeout(for_, &mut *task).await {
        Ok(done) => {
            done.unwrap().expect("the lock");
            false
        }
        Err(_) => true,
    }
}

async fn finishes(task: tokio::task::JoinHandle<Result<(), StoreError>>) {
    tokio::time::timeout(StdDuration::from_secs(10), task)
        .await
        .expect("the lock is taken")
        .unwrap()
        .expect("the lock");
}

async fn a_client_lock_waits_for_the_same_client_and_the_whole_account_and_not_for_another_client(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-a-c2", "acc-a", "bob", T0)).await.unwrap();
    tx.commit().await.unwrap();
    let held = StdDuration::from_millis(400);

    let mut first = begin(&ctx.store).await;
    first.lock_client("acc-a", "acc-a-c1").await.unwrap();
    let mut same = take(&ctx.store, Lock::Client("acc-a-c1"));
    assert!(still_waiting(&mut same, held).await, "one unit of work per client");
    let mut other = take(&ctx.store, Lock::Client("acc-a-c2"));
    let mut waiting = vec![same];
    if ctx.url.starts_with("postgres") {
        assert!(!still_waiting(&mut other, StdDuration::from_secs(10)).await, "another client of the account goes on");
    } else {
        assert!(still_waiting(&mut other, held).await, "SQLite has one writer at all");
        waiting.push(other);
    }
    let mut whole = take(&ctx.store, Lock::Account);
    assert!(still_waiting(&mut whole, held).await, "the whole account waits for its clients");
    waiting.push(whole);
    first.commit().await.unwrap();
    for task in waiting {
        finishes(task).await;
    }

    let mut account = begin(&ctx.store).await;
    account.lock_account("acc-a").await.unwrap();
    let mut client = take(&ctx.store, Lock::Client("acc-a-c2"));
    assert!(still_waiting(&mut client, held).await, "a client waits for the whole account");
    account.commit().await.unwrap();
    finishes(client).await;
}

async fn a_unit_begun_with_an_invoice_reads_it_under_its_clients_lock(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-a-c2", "acc-a", "bob", T0)).await.unwrap();
    let bought = invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 1 });
    tx.insert_invoice(&bought).await.unwrap();
    tx.commit().await.unwrap();
    let held = StdDuration::from_millis(400);

    let (first, read) = ctx.store.begin_with_invoice("pay-1").await.unwrap();
    assert_eq!(read, Some(bought.clone()));
    let mut same = take(&ctx.store, Lock::Client("acc-a-c1"));
    assert!(still_waiting(&mut same, held).await, "the invoice's client is locked");
    let mut whole = take(&ctx.store, Lock::Account);
    assert!(still_waiting(&mut whole, held).await, "the whole account waits for the invoice's client");
    let mut waiting = vec![same, whole];
    let mut other = take(&ctx.store, Lock::Client("acc-a-c2"));
    if ctx.url.starts_with("postgres") {
        assert!(!still_waiting(&mut other, StdDuration::from_secs(10)).await, "another client of the account goes on");
    } else {
        waiting.push(other);
    }
    first.commit().await.unwrap();
    for task in waiting {
        finishes(task).await;
    }

    let (tx, read) = ctx.store.begin_with_invoice("pay-2").await.unwrap();
    assert_eq!(read, None, "no such invoice");
    tx.rollback().await.unwrap();
    let mut other = take(&ctx.store, Lock::Account);
    assert!(!still_waiting(&mut other, StdDuration::from_secs(10)).await, "a missing invoice locked nothing");
}

async fn reads_made_ahead_answer_their_next_call_once_then_the_database_does(ctx: Ctx) {
    use vp_ports::{ReadAhead, ShopCustomer};
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &subscription(SubscriptionStatus::Active, "t1")).await.unwrap();
    let plan = tx
        .insert_plan(&NewPlan {
            months: 3,
            lifetime: false,
            device_limited: true,
            platform_price: Money::from_kopecks(79_900),
            created_at: T0,
            traffic: None,
        })
        .await
        .unwrap();
    tx.set_device_settings(&DeviceSettings::new(2, 5, Some(Money::from_kopecks(9_900))).unwrap()).await.unwrap();
    tx.insert_invoice(&invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: plan.plan_id }))
        .await
        .unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    let chat = ClientChat {
        client_ref: cref("acc-a-c1"),
        account_id: AccountId::issued("acc-a".into()),
        chat_id: 77,
        linked_at: T0,
    };
    tx.link_client_chat(&chat).await.unwrap();
    let customer = ShopCustomer {
        account_id: AccountId::issued("acc-a".into()),
        email: "anna@example.com".into(),
        client_ref: cref("acc-a-c1"),
        lang: vp_domain::Lang::Ru,
        first_payment_id: Some("pay-1".into()),
        created_at: T0,
    };
    assert!(tx.add_shop_customer(&customer).await.unwrap());
    tx.commit().await.unwrap();

    let ahead = ReadAhead {
        client: Some("acc-a-c1"),
        plan: Some(plan.plan_id),
        device_settings: true,
        consent_of_invoice: Some("pay-1"),
        webhook_endpoints: Some("acc-a"),
    };
    let mut tx = begin(s).await;
    // What each read returns from the database, then the same read answered from ahead.
    let client = tx.client_by_ref("acc-a-c1").await.unwrap();
    let credits = tx.referral_credits("acc-a-c1").await.unwrap();
    let bot_customer = tx.bot_customer_of_client("acc-a-c1").await.unwrap();
    let settings = tx.device_settings().await.unwrap();
    let consent = tx.consent_of_invoice("pay-1").await.unwrap();
    let endpoints = tx.webhook_endpoints("acc-a").await.unwrap();
    assert!(client.as_ref().is_some_and(|c| c.subscription.is_some()) && settings.is_some());
    assert_eq!(endpoints.len(), 1);
    tx.read_ahead(ahead).await.unwrap();
    assert_eq!(tx.client_by_ref("acc-a-c1").await.unwrap(), client);
    assert_eq!(tx.referral_credits("acc-a-c1").await.unwrap(), credits);
    assert_eq!(tx.bot_customer_of_client("acc-a-c1").await.unwrap(), bot_customer);
    assert_eq!(tx.client_chat("acc-a-c1").await.unwrap(), Some(chat.clone()));
    assert_eq!(tx.shop_customer_of_client("acc-a-c1").await.unwrap(), Some(customer.clone()));
    assert_eq!(tx.plan(plan.plan_id).await.unwrap(), Some(plan.clone()));
    assert_eq!(tx.device_settings().await.unwrap(), settings);
    assert_eq!(tx.consent_of_invoice("pay-1").await.unwrap(), consent);
    assert_eq!(tx.webhook_endpoints("acc-a").await.unwrap(), endpoints);

    // Once: after the unit writes, the next call reads what it wrote.
    tx.read_ahead(ahead).await.unwrap();
    assert!(tx.client_by_ref("acc-a-c1").await.unwrap().is_some(), "answered from ahead");
    let mut renewed = client.and_then(|c| c.subscription).unwrap();
    renewed.revision += 1;
    tx.save_subscription("acc-a-c1", &renewed).await.unwrap();
    let read = tx.client_by_ref("acc-a-c1").await.unwrap().and_then(|c| c.subscription);
    assert_eq!(read.map(|r| r.revision), Some(renewed.revision), "the second call reads the database");
    assert_eq!(tx.device_settings().await.unwrap(), settings);
    tx.set_device_settings(&DeviceSettings::new(1, 10, None).unwrap()).await.unwrap();
    assert_eq!(tx.device_settings().await.unwrap(), Some(DeviceSettings::new(1, 10, None).unwrap()));
    // A read for another argument is not answered from ahead.
    assert_eq!(tx.plan(plan.plan_id + 1).await.unwrap(), None);
    assert_eq!(tx.webhook_endpoints("acc-b").await.unwrap(), []);
    tx.rollback().await.unwrap();
}

/// A runtime of one thread (an actix worker, this test's) opens connections of its own, driven
/// there; one that ended leaves them dead, and the next on that thread opens new ones.
async fn a_store_serves_every_runtime_that_uses_it_even_after_one_on_the_same_thread_ended(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let store = ctx.store.clone();
    let found = std::thread::spawn(move || {
        let read_in_a_new_runtime = || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                let mut tx = store.begin().await.unwrap();
                let found = tx.account("acc-a").await.unwrap().is_some();
                tx.commit().await.unwrap();
                found
            })
        };
        [read_in_a_new_runtime(), read_in_a_new_runtime()]
    })
    .join()
    .unwrap();
    assert_eq!(found, [true, true]);
    let mut tx = begin(&ctx.store).await;
    assert!(tx.account("acc-a").await.unwrap().is_some(), "and still on this test's runtime");
    tx.commit().await.unwrap();
}

async fn a_unit_committing_asynchronously_keeps_its_write_only_at_its_commit_and_wakes_the_dispatcher(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.save_subscription(
        "acc-a-c1",
        &SubscriptionRecord { revision: 2, ..subscription(SubscriptionStatus::Active, "t1") },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let panel_revision = |s: Arc<dyn Store>| async move {
        let mut tx = s.read().await.unwrap();
        let synced = tx.client_by_ref("acc-a-c1").await.unwrap().and_then(|c| c.subscription);
        tx.commit().await.unwrap();
        synced.map(|r| r.panel_revision)
    };

    // A rolled back or dropped unit keeps nothing; a committed one keeps its write.
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.mark_panel_synced("acc-a-c1", 2).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(panel_revision(s.clone()).await, Some(1));
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.mark_panel_synced("acc-a-c1", 2).await.unwrap();
    drop(tx);
    assert_eq!(panel_revision(s.clone()).await, Some(1));
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.mark_panel_synced("acc-a-c1", 2).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(panel_revision(s.clone()).await, Some(2));

    let mut tx = begin(s).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.insert_event(&event("evt-1", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.commit().await.unwrap();
    // A second store on the same database stands for another process; both listen first.
    let other = connect(&ctx.url, &StoreOptions::default()).await.unwrap();
    s.wait_for_deliveries(StdDuration::from_millis(50)).await;
    other.wait_for_deliveries(StdDuration::from_millis(50)).await;
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    let here = waiting(s.clone(), StdDuration::from_secs(5));
    let there = waiting(other.clone(), StdDuration::from_secs(2));
    tokio::time::sleep(StdDuration::from_millis(100)).await;
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.insert_delivery(&delivery("dl-1", "evt-1", "we-1", 0)).await.unwrap();
    tx.commit().await.unwrap();
    assert!(here.await.unwrap() < StdDuration::from_secs(2), "this process wakes at the commit");
    let there = there.await.unwrap();
    if ctx.url.starts_with("postgres") {
        assert!(there < StdDuration::from_millis(1500), "another process wakes too (NOTIFY at the commit): {there:?}");
    }
}

async fn writes_answering_nothing_are_read_back_by_their_unit_and_kept_only_whole_by_its_commit(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let pending = invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Devices { count: 1 });
    let mut tx = begin(s).await;
    tx.insert_invoice(&pending).await.unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.insert_event(&event("evt-1", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.commit().await.unwrap();
    let paid = InvoiceRecord { status: InvoiceStatus::Succeeded, paid_at: Some(at(5)), ..pending.clone() };
    let sub = subscription(SubscriptionStatus::Active, "t1");
    let credit =
        ledger_entry("l1", LedgerSubject::Invoice("pay-1".into()), LedgerKind::PartnerShareCredit, 12_500, 0, 5);
    let kept = |s: Arc<dyn Store>| async move {
        let mut tx = s.begin().await.unwrap();
        let client = tx.client_by_ref("acc-a-c1").await.unwrap().unwrap();
        let invoice = tx.invoice("acc-a", "pay-1").await.unwrap().unwrap();
        let balance = tx.partner_balance("acc-a").await.unwrap();
        tx.rollback().await.unwrap();
        (client.subscription, invoice.status, balance)
    };
    let nothing = (None, InvoiceStatus::Pending, balance(0, 0));

    // The unit's own reads see its writes; a rollback or a drop keeps none of them.
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    let client = tx.client_by_ref("acc-a-c1").await.unwrap().unwrap();
    assert_eq!(client.subscription.as_ref(), Some(&sub));
    assert_eq!(tx.invoice("acc-a", "pay-1").await.unwrap(), Some(paid.clone()));
    tx.insert_ledger_entry(&credit).await.unwrap();
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(12_500, 0));
    tx.rollback().await.unwrap();
    assert_eq!(kept(s.clone()).await, nothing);
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    drop(tx);
    tokio::time::sleep(StdDuration::from_millis(100)).await;
    assert_eq!(kept(s.clone()).await, nothing);

    // One failing write fails the commit, and the writes beside it are not kept either.
    let mut tx = begin(s).await;
    tx.insert_ledger_entry(&credit).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    let twice = tx.insert_ledger_entry(&ledger_entry("l2", credit.subject.clone(), credit.kind, 1, 0, 6)).await;
    let twice = written_and_committed(tx, twice).await;
    assert!(is_conflict(&twice), "the second credit of one invoice: {twice:?}");
    assert_eq!(kept(s.clone()).await, (None, InvoiceStatus::Pending, balance(12_500, 0)));

    // A commit keeps them all and wakes the dispatchers, of other processes too, for the
    // deliveries recorded beside them.
    let other = connect(&ctx.url, &StoreOptions::default()).await.unwrap();
    other.wait_for_deliveries(StdDuration::from_millis(50)).await;
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    let there = waiting(other.clone(), StdDuration::from_secs(2));
    tokio::time::sleep(StdDuration::from_millis(100)).await;
    let mut tx = begin(s).await;
    tx.insert_delivery(&delivery("dl-1", "evt-1", "we-1", 0)).await.unwrap();
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(kept(s.clone()).await, (Some(sub), InvoiceStatus::Succeeded, balance(12_500, 0)));
    let there = there.await.unwrap();
    if ctx.url.starts_with("postgres") {
        assert!(there < StdDuration::from_millis(1500), "another process wakes at the commit: {there:?}");
    }
}

async fn the_daily_limit_guard_lets_one_of_two_racing_writers_take_the_last_place(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await; // one client already: one place left under a limit of 2
    let writer = |store: Arc<dyn Store>, n: u32| async move {
        let mut tx = store.begin().await?;
        let limit = DailyLimit { quota: DailyQuota::NewClients, since: at(-1), limit: 2 };
        if !tx.below_daily_limit("acc-a", &limit).await? {
            tx.rollback().await?;
            return Ok::<bool, StoreError>(false);
        }
        tokio::time::sleep(StdDuration::from_millis(100)).await;
        tx.insert_client(&client(&format!("w-{n}"), "acc-a", &format!("writer-{n}"), at(i64::from(n)))).await?;
        tx.commit().await?;
        Ok(true)
    };
    let a = tokio::spawn(writer(ctx.store.clone(), 1));
    let b = tokio::spawn(writer(ctx.store.clone(), 2));
    let (a, b) = (a.await.unwrap().expect("first writer"), b.await.unwrap().expect("second writer"));
    assert!(a ^ b, "exactly one took the last place: {a} {b}");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 2).await);
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 3).await, "and no more than that");
    tx.commit().await.unwrap();
}

async fn the_pool_reports_its_size_and_use(ctx: Ctx) {
    let idle = ctx.store.pool_state();
    assert_eq!((idle.in_use, idle.waiting), (0, 0));
    assert!(idle.max >= 1 && idle.open <= idle.max, "{idle:?}");
    let tx = ctx.store.read().await.unwrap();
    let busy = ctx.store.pool_state();
    assert_eq!(busy.in_use, 1, "{busy:?}");
    tx.commit().await.unwrap();
    assert_eq!(ctx.store.pool_state().in_use, 0);
}
