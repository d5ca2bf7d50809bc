//! Customers' reminders (`ReminderRepo`).

use super::*;
use vp_domain::AccountId;

contract_tests!(
    a_reminder_is_queued_once_per_kind_and_term_and_claimed_once,
    traffic_is_read_for_active_limited_subscriptions_and_each_threshold_told_once_per_count,
);

async fn a_reminder_is_queued_once_per_kind_and_term_and_claimed_once(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_client(&client("c-1", "acc-1", "one", at(0))).await.unwrap();
    let reminder = ReminderSend {
        id: "rmd-1".into(),
        account_id: AccountId::issued("acc-1".into()),
        client_ref: cref("c-1"),
        chat_id: 77,
        kind: ReminderKind::Expiring(vp_domain::term_events::Threshold::Hours72),
        term_ends_at: at(1000),
        payment_id: None,
        created_at: at(10),
        attempts: 0,
        next_attempt_at: Some(at(10)),
        sent_at: None,
        last_error: None,
    };
    assert!(tx.insert_reminder(&reminder).await.unwrap());
    assert!(
        !tx.insert_reminder(&ReminderSend { id: "rmd-2".into(), ..reminder.clone() }).await.unwrap(),
        "once per term"
    );
    let renewed =
        ReminderSend { id: "rmd-3".into(), term_ends_at: at(2000), next_attempt_at: Some(at(20)), ..reminder.clone() };
    assert!(tx.insert_reminder(&renewed).await.unwrap(), "a new term counts again");
    let template = reminder.clone();
    let paid = move |id: &str, payment: &str| ReminderSend {
        id: id.into(),
        kind: ReminderKind::Paid,
        payment_id: Some(payment.into()),
        next_attempt_at: None,
        ..template.clone()
    };
    assert!(tx.insert_reminder(&paid("rmd-p1", "pay_1")).await.unwrap());
    assert!(tx.insert_reminder(&paid("rmd-p2", "pay_2")).await.unwrap(), "once per invoice, not per term");
    assert!(!tx.insert_reminder(&paid("rmd-p3", "pay_1")).await.unwrap());
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let got = tx.claim_reminders("acc-1", Claim { now: at(30), lease_until: at(150), limit: 10 }).await.unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|r| r.id).collect::<Vec<_>>()
    };
    let (a, b) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    let mut all = [a.clone(), b.clone()].concat();
    all.sort();
    assert_eq!(all, ["rmd-1", "rmd-3"], "each claimed by exactly one: {a:?} / {b:?}");
    let mut tx = begin(&ctx.store).await;
    assert!(
        tx.claim_reminders("acc-1", Claim { now: at(149), lease_until: at(300), limit: 10 }).await.unwrap().is_empty(),
        "held until the lease ends"
    );
    assert!(tx.accounts_with_due_reminders(at(149), 10).await.unwrap().is_empty());
    assert_eq!(tx.accounts_with_due_reminders(at(150), 10).await.unwrap(), ["acc-1"]);
    assert!(
        tx.claim_reminders("acc-2", Claim { now: at(150), lease_until: at(300), limit: 10 }).await.unwrap().is_empty(),
        "by account"
    );
    let mut sent = ReminderSend { attempts: 1, next_attempt_at: None, sent_at: Some(at(40)), ..reminder };
    tx.update_reminder(&sent).await.unwrap();
    assert!(
        tx.claim_reminders("acc-1", Claim { now: at(150), lease_until: at(300), limit: 10 })
            .await
            .unwrap()
            .iter()
            .all(|r| r.id == "rmd-3")
    );
    sent.last_error = Some("x".into());
    tx.update_reminder(&sent).await.unwrap();
    let of_client = tx.reminders_of_client("c-1").await.unwrap();
    assert_eq!(of_client[0], sent);
    assert!(of_client.contains(&paid("rmd-p2", "pay_2")), "a paid message keeps its invoice");

    let unlinked = tx.reminder_recipient(&sent).await.unwrap().unwrap();
    assert_eq!((unlinked.client.id.as_str(), unlinked.linked_chat, unlinked.language), ("c-1", None, None));
    let chat = ClientChat {
        client_ref: cref("c-1"),
        account_id: AccountId::issued("acc-1".into()),
        chat_id: 78,
        linked_at: at(1),
    };
    tx.link_client_chat(&chat).await.unwrap();
    tx.set_chat_language("acc-1", 77, vp_domain::Lang::Ru).await.unwrap();
    let moved = tx.reminder_recipient(&sent).await.unwrap().unwrap();
    assert_eq!(
        (moved.linked_chat, moved.language),
        (Some(78), Some(vp_domain::Lang::Ru)),
        "the chat now, the reminder's chat's language"
    );
    let gone = ReminderSend { client_ref: cref("c-gone"), ..sent.clone() };
    assert_eq!(tx.reminder_recipient(&gone).await.unwrap(), None);

    assert_eq!(tx.renewal_url("acc-1").await.unwrap(), None);
    tx.set_renewal_url("acc-1", Some("https://renew.example")).await.unwrap();
    assert_eq!(tx.renewal_url("acc-1").await.unwrap().as_deref(), Some("https://renew.example"));
    assert_eq!(tx.account("acc-1").await.unwrap(), Some(account("acc-1")), "the account itself is unchanged");
    tx.commit().await.unwrap();
}

async fn traffic_is_read_for_active_limited_subscriptions_and_each_threshold_told_once_per_count(ctx: Ctx) {
    use vp_domain::traffic::{TrafficLimit, TrafficNotice, TrafficReset};
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    let limit = TrafficLimit::of_gb(10, TrafficReset::Month);
    // c-1, c-4 and c-5 limited and active (c-5 in no chat: its partner still hears); c-2
    // without a limit; c-3 suspended.
    for (id, traffic, status, linked) in [
        ("c-1", limit, SubscriptionStatus::Active, true),
        ("c-2", None, SubscriptionStatus::Active, true),
        ("c-3", limit, SubscriptionStatus::Suspended, true),
        ("c-4", limit, SubscriptionStatus::Active, true),
        ("c-5", limit, SubscriptionStatus::Active, false),
    ] {
        tx.insert_client(&client(id, "acc-1", id, at(0))).await.unwrap();
        let mut record = subscription(status, &format!("tok-{id}"));
        record.subscription.traffic = traffic;
        tx.save_subscription(id, &record).await.unwrap();
        if linked {
            let chat = ClientChat {
                client_ref: cref(id),
                account_id: AccountId::issued("acc-1".into()),
                chat_id: 90,
                linked_at: at(1),
            };
            tx.link_client_chat(&chat).await.unwrap();
        }
    }
    let refs = |clients: Vec<ClientRef>| clients.into_iter().map(|c| c.to_string()).collect::<Vec<_>>();
    assert_eq!(refs(tx.traffic_limited_clients(None, 10).await.unwrap()), ["c-1", "c-4", "c-5"]);
    assert_eq!(refs(tx.traffic_limited_clients(None, 1).await.unwrap()), ["c-1"], "paged");
    assert_eq!(
        refs(tx.traffic_limited_clients(Some(&cref("c-1")), 10).await.unwrap()),
        ["c-4", "c-5"],
        "after the last seen"
    );

    // Each threshold of one count is recorded once; a count started anew is another.
    let mark = |since: i64, percent: u8| (cref("c-5"), at(since), percent);
    for ((client, since, percent), first) in [
        (mark(100, 80), true),
        (mark(100, 80), false),
        (mark(100, 100), true),
        (mark(200, 80), true),
        (mark(200, 100), true),
        (mark(200, 100), false),
    ] {
        let marked = tx.mark_traffic_threshold(&client, since, percent, at(300)).await.unwrap();
        assert_eq!(marked, first, "{percent} % of the count since {since}");
    }

    let notice = |id: &str, kind: TrafficNotice, since: i64| ReminderSend {
        id: id.into(),
        account_id: AccountId::issued("acc-1".into()),
        client_ref: cref("c-1"),
        chat_id: 90,
        kind: ReminderKind::Traffic(kind),
        term_ends_at: at(30 * 86_400),
        payment_id: Some(ReminderKind::traffic_period(at(since))),
        created_at: at(10),
        attempts: 0,
        next_attempt_at: Some(at(10)),
        sent_at: None,
        last_error: None,
    };
    assert!(tx.insert_reminder(&notice("t-1", TrafficNotice::MostUsed, 100)).await.unwrap());
    assert!(!tx.insert_reminder(&notice("t-2", TrafficNotice::MostUsed, 100)).await.unwrap(), "once per period");
    assert!(tx.insert_reminder(&notice("t-3", TrafficNotice::UsedUp, 100)).await.unwrap(), "used up, once more");
    assert!(tx.insert_reminder(&notice("t-4", TrafficNotice::MostUsed, 200)).await.unwrap(), "a new period");
    let kept = tx.reminders_of_client("c-1").await.unwrap();
    assert!(kept.contains(&notice("t-3", TrafficNotice::UsedUp, 100)), "read back as written: {kept:?}");
    let whole_seconds = OffsetDateTime::from_unix_timestamp(at(200).unix_timestamp()).unwrap();
    assert_eq!(ReminderKind::traffic_period_start(&ReminderKind::traffic_period(at(200))), Some(whole_seconds));
    tx.commit().await.unwrap();
}
