//! The panel sync queue and the embedded panel's tables (`ClientRepo`'s sync queue,
//! `LocalPanelRepo`).

use super::*;
use vp_ports::{AdoptedClient, TrafficCount, TrafficLimit, TrafficReset};

contract_tests!(
    panel_sync_queue_follows_revisions,
    a_refused_panel_push_is_counted_and_held_back_until_its_retry_time,
    local_panel_users_and_devices,
    adopted_panel_users_are_written_at_once_found_by_their_panel_id_and_name_and_never_twice,
);

async fn adopted_panel_users_are_written_at_once_found_by_their_panel_id_and_name_and_never_twice(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let adopted = |id: &str, client_id: &str, panel_id: &str, telegram_id: Option<i64>| AdoptedClient {
        client: ClientRecord {
            subscription: Some(SubscriptionRecord {
                panel_name: Some(format!("{client_id}_panel")),
                ..subscription(SubscriptionStatus::Active, &format!("short-{panel_id}"))
            }),
            ..client(id, "acc-a", client_id, T0)
        },
        panel_id: panel_id.to_owned(),
        telegram_id,
    };
    let mut tx = begin(s).await;
    let batch = [adopted("c-10", "dora", "10", Some(7001)), adopted("c-11", "eve", "11", None)];
    tx.adopt_panel_users(&batch, at(60)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let mut found = tx.panel_adoptions(&["10".into(), "11".into(), "12".into()]).await.unwrap();
    found.sort_by(|a, b| a.panel_id.cmp(&b.panel_id));
    let found: Vec<(String, String, String)> =
        found.into_iter().map(|a| (a.panel_id, a.account_id.to_string(), a.client_id.as_str().to_owned())).collect();
    assert_eq!(found, [("10".into(), "acc-a".into(), "dora".into()), ("11".into(), "acc-a".into(), "eve".into())]);
    let dora = tx.client_by_panel_name("dora_panel").await.unwrap().expect("found by its name in the panel");
    assert_eq!((dora.id.as_str(), dora.panel_user_ref()), ("c-10", "dora_panel"));
    assert_eq!(dora.subscription.as_ref().map(|s| s.revision - s.panel_revision), Some(0), "nothing owed to the panel");
    assert_eq!(tx.client_by_panel_name("c-10").await.unwrap(), None);
    let mut tokens = tx.link_tokens_in_use(&["short-10".into(), "short-99".into()]).await.unwrap();
    tokens.sort();
    assert_eq!(tokens, ["short-10"]);
    let taken = tx.existing_client_ids("acc-a", &[cid("dora"), cid("zed")]).await.unwrap();
    assert_eq!(taken, [cid("dora")]);
    assert!(tx.existing_client_ids("acc-b", &[cid("dora")]).await.unwrap().is_empty());
    let customer = tx.bot_customers("acc-a", &[7001]).await.unwrap();
    assert_eq!(
        customer.iter().map(|c| (c.chat_id, c.client_ref.clone())).collect::<Vec<_>>(),
        [(7001, Some(cref("c-10")))]
    );
    assert_eq!(tx.client_chat("c-10").await.unwrap().map(|c| c.chat_id), Some(7001), "reminders go to the chat");
    assert_eq!(tx.client_chat("c-11").await.unwrap(), None);

    // A later save keeps the panel's name; the same panel user cannot be adopted twice.
    let renewed = SubscriptionRecord { revision: 2, ..dora.subscription.clone().unwrap() };
    tx.save_subscription("c-10", &SubscriptionRecord { panel_name: None, ..renewed }).await.unwrap();
    let dora = tx.client_by_ref("c-10").await.unwrap().unwrap();
    assert_eq!(dora.panel_user_ref(), "dora_panel");
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let again = adopted("c-12", "frank", "10", None);
    assert!(is_conflict(&tx.adopt_panel_users(&[again], at(120)).await), "one client per panel user");
    tx.rollback().await.unwrap();
}

async fn panel_sync_queue_follows_revisions(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", T0)).await.unwrap();
    tx.insert_client(&client("c-3", "acc-a", "carol", T0)).await.unwrap();
    let sub = |token: &str, revision: i64, panel_revision: i64| SubscriptionRecord {
        revision,
        panel_revision,
        ..subscription(SubscriptionStatus::Active, token)
    };
    tx.save_subscription("c-3", &sub("t3", 2, 1)).await.unwrap(); // owes, changed first
    tx.save_subscription("acc-a-c1", &sub("t1", 1, 1)).await.unwrap(); // in sync
    tx.save_subscription("c-2", &sub("t2", 4, 0)).await.unwrap(); // owes, changed second
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let ids = |list: Vec<ClientRecord>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    let now = at(0);
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-3", "c-2"]);
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 1).await.unwrap()), ["c-3"]);
    // A new change to c-3 moves it behind c-2.
    tx.save_subscription("c-3", &sub("t3", 3, 1)).await.unwrap();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-2", "c-3"]);
    // A write of the same revision keeps its place.
    tx.save_subscription("c-2", &sub("t2", 4, 0)).await.unwrap();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-2", "c-3"]);
    tx.mark_panel_synced("c-3", 3).await.unwrap();
    tx.mark_panel_synced("c-2", 2).await.unwrap();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-2"]);
    tx.mark_panel_synced("c-3", 1).await.unwrap(); // never lowers
    let c3 = tx.client_by_ref("c-3").await.unwrap().unwrap();
    assert_eq!(c3.subscription.map(|s| (s.revision, s.panel_revision)), Some((3, 3)));
    tx.mark_panel_synced("c-2", 4).await.unwrap();
    assert!(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

async fn a_refused_panel_push_is_counted_and_held_back_until_its_retry_time(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", T0)).await.unwrap();
    let owed = SubscriptionRecord { revision: 2, panel_revision: 1, ..subscription(SubscriptionStatus::Active, "t2") };
    tx.save_subscription("c-2", &owed).await.unwrap();
    let other = SubscriptionRecord { revision: 3, link_token: "t1".into(), ..owed.clone() };
    tx.save_subscription("acc-a-c1", &other).await.unwrap();
    let retry_in = |minutes: i64| move |n: u32| at(minutes * 60 * i64::from(n));
    assert_eq!(tx.defer_panel_sync("c-2", &retry_in(10)).await.unwrap(), 1);
    assert_eq!(tx.defer_panel_sync("c-2", &retry_in(10)).await.unwrap(), 2, "refusals in a row are counted");
    let ids = |list: Vec<ClientRecord>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(at(60), 10).await.unwrap()), ["acc-a-c1"], "held back");
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(at(1200), 10).await.unwrap()), ["c-2", "acc-a-c1"]);
    tx.mark_panel_synced("c-2", 2).await.unwrap();
    assert_eq!(tx.defer_panel_sync("c-2", &retry_in(10)).await.unwrap(), 1, "a confirmed push resets the count");
    tx.commit().await.unwrap();
}

async fn local_panel_users_and_devices(ctx: Ctx) {
    let user = LocalPanelUser {
        user_ref: "u-1".into(),
        link_token: "lt-1".into(),
        expires_at: at(86_400),
        device_limit: Some(3),
        enabled: true,
        traffic: TrafficLimit::of_gb(5, TrafficReset::Day),
        traffic_counted_from: Some(at(60)),
    };
    let device = |hwid: &str, created: i64, model: Option<&str>| LocalPanelDevice {
        user_ref: "u-1".into(),
        device: PanelDevice {
            hwid: hwid.into(),
            platform: Some("android".into()),
            os_version: None,
            model: model.map(Into::into),
            user_agent: Some("app/1.0".into()),
            created_at: at(created),
        },
        last_seen_at: at(created),
    };
    let mut tx = ctx.local_panel.begin_local().await.unwrap();
    tx.local_panel_put_user(&user).await.unwrap();
    assert_eq!(tx.local_panel_user("u-1").await.unwrap(), Some(user.clone()));
    let mut changed = user.clone();
    changed.device_limit = None;
    changed.enabled = false;
    changed.link_token = "lt-2".into();
    changed.traffic = None;
    changed.traffic_counted_from = None;
    tx.local_panel_put_user(&changed).await.unwrap();
    assert_eq!(tx.local_panel_user_by_token("lt-2").await.unwrap(), Some(changed));
    assert_eq!(tx.local_panel_user_by_token("lt-1").await.unwrap(), None);
    assert_eq!(tx.local_panel_user("u-9").await.unwrap(), None);

    tx.local_panel_upsert_device(&device("hw-b", 20, Some("Pixel"))).await.unwrap();
    tx.local_panel_upsert_device(&device("hw-a", 10, None)).await.unwrap();
    let mut seen_again = device("hw-b", 99, Some("Pixel 9"));
    seen_again.device.created_at = at(500); // ignored: the first registration time stays
    tx.local_panel_upsert_device(&seen_again).await.unwrap();
    let devices = tx.local_panel_devices("u-1").await.unwrap();
    let mut expected_b = device("hw-b", 20, Some("Pixel 9"));
    expected_b.last_seen_at = at(99);
    assert_eq!(devices, vec![device("hw-a", 10, None), expected_b]);
    assert!(tx.local_panel_delete_device("u-1", "hw-a").await.unwrap());
    assert!(!tx.local_panel_delete_device("u-1", "hw-a").await.unwrap());
    assert_eq!(tx.local_panel_devices("u-1").await.unwrap().len(), 1);

    assert_eq!(tx.local_panel_traffic("u-1").await.unwrap(), None, "nothing served yet");
    let served = TrafficCount { used: 1_234, since: at(60) };
    tx.local_panel_save_traffic("u-1", &served).await.unwrap();
    tx.local_panel_save_traffic("u-1", &TrafficCount { used: 2_468, ..served }).await.unwrap();
    assert_eq!(tx.local_panel_traffic("u-1").await.unwrap(), Some(TrafficCount { used: 2_468, ..served }));
    tx.commit().await.unwrap();
}
