//! Clients, subscriptions, trials and the daily counts (`ClientRepo`).

use super::*;

contract_tests!(
    client_ids_are_unique_per_account_and_case_sensitive,
    subscriptions_round_trip_every_field,
    clients_filter_by_subscription_and_page_in_order,
    clients_created_since_are_counted,
    daily_counts_leave_the_window_and_are_pruned,
    trials_are_counted_and_one_per_client,
);

async fn client_ids_are_unique_per_account_and_case_sensitive(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await; // acc-b also has "alice"

    let mut tx = begin(s).await;
    let dup = tx.insert_client(&client("c-dup", "acc-a", "alice", at(1))).await;
    assert!(is_conflict(&dup), "{dup:?}");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    tx.insert_client(&client("c-upper", "acc-a", "Alice", at(2))).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let lower = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap();
    let upper = tx.client("acc-a", &cid("Alice")).await.unwrap().unwrap();
    let other = tx.client("acc-b", &cid("alice")).await.unwrap().unwrap();
    assert_eq!((lower.id.as_str(), upper.id.as_str(), other.id.as_str()), ("acc-a-c1", "c-upper", "acc-b-c1"));
    assert_eq!(lower, client("acc-a-c1", "acc-a", "alice", T0));
    assert_eq!(tx.client("acc-b", &cid("Alice")).await.unwrap(), None);
    assert_eq!(tx.client_by_ref("c-upper").await.unwrap(), Some(upper));
    tx.set_client_blocked("c-upper", true).await.unwrap();
    assert!(tx.client_by_ref("c-upper").await.unwrap().unwrap().blocked);
    tx.commit().await.unwrap();
}

async fn subscriptions_round_trip_every_field(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let full = SubscriptionRecord {
        subscription: Subscription {
            status: SubscriptionStatus::Suspended,
            is_trial: true,
            lifetime: false,
            expires_at: datetime!(2027-01-31 23:59:59.999999 UTC),
            term_started_at: datetime!(2026-12-31 00:00:00.000001 UTC),
            devices: DeviceLimit::Limited { included: 3, purchased: 4 },
            reminders: TermReminders { sent_72: true, sent_24: false },
            link_rotated_at: Some(at(77)),
            traffic: vp_domain::traffic::TrafficLimit::of_gb(50, vp_domain::traffic::TrafficReset::Week),
        },
        link_token: "tok-1".into(),
        revision: 7,
        panel_revision: 5,
        auto_renew: true,
        panel_name: None,
    };
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &full).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let loaded = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap();
    assert_eq!(loaded.subscription, Some(full.clone()));
    assert_eq!(tx.client_by_link_token("tok-1").await.unwrap(), Some(loaded));
    // Saving the term leaves automatic renewal as stored; only its own write changes it.
    tx.save_subscription("acc-a-c1", &SubscriptionRecord { auto_renew: false, revision: 8, ..full.clone() })
        .await
        .unwrap();
    let kept = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap().subscription.unwrap();
    assert!(kept.auto_renew);
    tx.set_auto_renew("acc-a-c1", false).await.unwrap();
    let off = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap().subscription.unwrap();
    assert_eq!(off, SubscriptionRecord { auto_renew: false, revision: 8, ..full.clone() });

    let lifetime = SubscriptionRecord {
        subscription: Subscription {
            status: SubscriptionStatus::Active,
            is_trial: false,
            lifetime: true,
            expires_at: vp_domain::subscription::LIFETIME_END,
            term_started_at: at(5),
            devices: DeviceLimit::Unlimited,
            reminders: TermReminders { sent_72: false, sent_24: true },
            link_rotated_at: None,
            traffic: None,
        },
        link_token: "tok-2".into(),
        revision: 8,
        panel_revision: 8,
        auto_renew: false,
        panel_name: None,
    };
    tx.save_subscription("acc-a-c1", &lifetime).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let loaded = tx.client_by_ref("acc-a-c1").await.unwrap().unwrap();
    assert_eq!(loaded.subscription, Some(lifetime));
    assert_eq!(tx.client_by_link_token("tok-1").await.unwrap(), None, "the old link is gone");
    assert_eq!(tx.client_by_link_token("tok-2").await.unwrap().map(|c| c.id), Some(cref("acc-a-c1")));

    tx.insert_client(&client("c-2", "acc-a", "bob", at(1))).await.unwrap();
    let clash = tx.save_subscription("c-2", &subscription(SubscriptionStatus::Active, "tok-2")).await;
    let clash = written_and_committed(tx, clash).await;
    assert!(is_conflict(&clash), "link tokens are unique: {clash:?}");
}

async fn clients_filter_by_subscription_and_page_in_order(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    // Two clients share a created_at: the id breaks the tie.
    let rows = [
        ("c-e", at(3), Some(SubscriptionStatus::Active)),
        ("c-a", at(1), Some(SubscriptionStatus::Active)),
        ("c-c", at(2), None),
        ("c-b", at(2), Some(SubscriptionStatus::Expired)),
        ("c-d", at(4), Some(SubscriptionStatus::Suspended)),
    ];
    for (id, created, status) in rows {
        tx.insert_client(&client(id, "acc-a", &format!("p-{id}"), created)).await.unwrap();
        if let Some(status) = status {
            tx.save_subscription(id, &subscription(status, &format!("tok-{id}"))).await.unwrap();
        }
    }
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let ids = |list: Vec<ClientRecord>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    let all = ClientFilter { limit: 100, ..ClientFilter::default() };
    assert_eq!(ids(tx.clients("acc-a", &all).await.unwrap()), ["c-a", "c-b", "c-c", "c-e", "c-d"]);
    let active = ClientFilter { subscription_status: Some(Some(SubscriptionStatus::Active)), ..all.clone() };
    assert_eq!(ids(tx.clients("acc-a", &active).await.unwrap()), ["c-a", "c-e"]);
    let expired = ClientFilter { subscription_status: Some(Some(SubscriptionStatus::Expired)), ..all.clone() };
    assert_eq!(ids(tx.clients("acc-a", &expired).await.unwrap()), ["c-b"]);
    let none = ClientFilter { subscription_status: Some(None), ..all.clone() };
    let without = tx.clients("acc-a", &none).await.unwrap();
    assert_eq!(without.iter().map(|c| (c.id.as_str(), c.subscription.is_none())).collect::<Vec<_>>(), [("c-c", true)]);

    // Page through two at a time with the (created_at, id) cursor.
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page =
            tx.clients("acc-a", &ClientFilter { after: after.clone(), limit: 2, ..ClientFilter::default() }).await;
        let page = page.unwrap();
        assert!(page.len() <= 2);
        let Some(last) = page.last() else { break };
        after = Some(Cursor { at: last.created_at, id: last.id.to_string() });
        seen.extend(ids(page));
    }
    assert_eq!(seen, ["c-a", "c-b", "c-c", "c-e", "c-d"]);
    let after_b =
        ClientFilter { after: Some(Cursor { at: at(2), id: "c-b".into() }), limit: 100, ..ClientFilter::default() };
    assert_eq!(ids(tx.clients("acc-a", &after_b).await.unwrap()), ["c-c", "c-e", "c-d"]);
    let zero = ClientFilter { limit: 0, ..ClientFilter::default() };
    assert!(tx.clients("acc-a", &zero).await.unwrap().is_empty());
    assert_eq!(ids(tx.clients("acc-b", &all).await.unwrap()), ["acc-b-c1"], "other accounts stay apart");
    tx.rollback().await.unwrap();
}

async fn clients_created_since_are_counted(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await; // created at T0
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", at(60))).await.unwrap();
    tx.insert_client(&client("c-3", "acc-a", "carol", at(120))).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let nc = DailyQuota::NewClients;
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 3).await && below(&mut tx, "acc-a", nc, at(-1), 4).await);
    assert!(!below(&mut tx, "acc-a", nc, at(59), 2).await && below(&mut tx, "acc-a", nc, at(59), 3).await);
    // All three share an hour, so the buckets say 3: the records themselves decide.
    assert!(below(&mut tx, "acc-a", nc, at(60), 2).await, "since itself is outside the window");
    assert!(!below(&mut tx, "acc-a", nc, at(60), 1).await);
    assert!(!below(&mut tx, "acc-b", nc, at(-1), 1).await && below(&mut tx, "acc-b", nc, at(-1), 2).await);
    assert!(below(&mut tx, "nobody", nc, at(-1), 1).await);
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 0).await, "a limit of 0 admits nothing");
    tx.commit().await.unwrap();
}

async fn daily_counts_leave_the_window_and_are_pruned(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await; // created at T0
    let mut tx = begin(s).await;
    for i in 0..5 {
        tx.insert_client(&client(&format!("old-{i}"), "acc-a", &format!("old-{i}"), at(-30 * 3600))).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let nc = DailyQuota::NewClients;
    assert!(below(&mut tx, "acc-a", nc, at(-24 * 3600), 2).await, "clients of 30 hours ago are outside the day");
    assert!(!below(&mut tx, "acc-a", nc, at(-31 * 3600), 6).await, "and inside a longer window");
    assert!(tx.prune_daily_counts(at(-25 * 3600)).await.unwrap() >= 1, "their bucket is pruned");
    assert!(below(&mut tx, "acc-a", nc, at(-24 * 3600), 2).await);
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 1).await, "the client of T0 still counts");
    tx.commit().await.unwrap();
}

async fn trials_are_counted_and_one_per_client(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", T0)).await.unwrap();
    tx.insert_trial_grant("acc-a", "acc-a-c1", at(10)).await.unwrap();
    tx.insert_trial_grant("acc-a", "c-2", at(20)).await.unwrap();
    tx.insert_trial_grant("acc-b", "acc-b-c1", at(20)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let tr = DailyQuota::Trials;
    assert!(!below(&mut tx, "acc-a", tr, at(0), 2).await && below(&mut tx, "acc-a", tr, at(0), 3).await);
    assert!(!below(&mut tx, "acc-a", tr, at(19), 1).await && below(&mut tx, "acc-a", tr, at(19), 2).await);
    assert!(below(&mut tx, "acc-a", tr, at(20), 1).await, "since itself is outside the window");
    assert!(!below(&mut tx, "acc-b", tr, at(0), 1).await && below(&mut tx, "acc-b", tr, at(0), 2).await);
    let second = tx.insert_trial_grant("acc-a", "acc-a-c1", at(100_000)).await;
    assert!(is_conflict(&second), "a client gets one trial ever: {second:?}");
    tx.rollback().await.unwrap();
}
