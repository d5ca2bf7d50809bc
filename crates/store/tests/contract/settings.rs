//! Platform settings and leases (`SettingsRepo`).

use super::*;
use vp_ports::Lease;

contract_tests!(a_lease_is_held_by_one_holder_until_it_runs_out_or_is_given_up, settings_are_put_and_read,);

async fn a_lease_is_held_by_one_holder_until_it_runs_out_or_is_given_up(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    assert!(tx.take_lease(Lease::BotUpdates, "a", at(0), at(15)).await.unwrap());
    assert!(!tx.take_lease(Lease::BotUpdates, "b", at(5), at(20)).await.unwrap());
    assert!(tx.take_lease(Lease::BotUpdates, "a", at(10), at(25)).await.unwrap(), "renewed by its holder");
    assert!(!tx.take_lease(Lease::BotUpdates, "b", at(24), at(39)).await.unwrap());
    assert!(tx.take_lease(Lease::Reminders, "b", at(24), at(39)).await.unwrap(), "leases are by name");
    assert!(tx.take_lease(Lease::BotUpdates, "b", at(25), at(40)).await.unwrap(), "run out: taken over");
    assert!(!tx.take_lease(Lease::BotUpdates, "a", at(26), at(41)).await.unwrap());
    tx.release_lease(Lease::BotUpdates, "a").await.unwrap();
    assert!(!tx.take_lease(Lease::BotUpdates, "a", at(27), at(42)).await.unwrap(), "only the holder gives it up");
    tx.release_lease(Lease::BotUpdates, "b").await.unwrap();
    assert!(tx.take_lease(Lease::BotUpdates, "a", at(28), at(43)).await.unwrap());
    tx.commit().await.unwrap();
}

async fn settings_are_put_and_read(ctx: Ctx) {
    let apps = vp_ports::SettingKey::AppList;
    let setting = |value: &str, t: i64| SettingRecord { key: apps, value: value.into(), updated_at: at(t) };
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.setting(apps).await.unwrap(), None);
    tx.put_setting(&setting(r#"{"apps":[]}"#, 1)).await.unwrap();
    assert_eq!(tx.setting(apps).await.unwrap(), Some(setting(r#"{"apps":[]}"#, 1)));
    tx.put_setting(&setting(r#"{"apps":["x"]}"#, 2)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.setting(apps).await.unwrap(), Some(setting(r#"{"apps":["x"]}"#, 2)));
    assert_eq!(tx.setting(vp_ports::SettingKey::Documents).await.unwrap(), None);
    let offset = vp_ports::SettingKey::UpdateOffset { bot_id: 7 };
    tx.put_setting(&SettingRecord { key: offset, value: "42".into(), updated_at: at(3) }).await.unwrap();
    assert_eq!(tx.setting(offset).await.unwrap().map(|s| s.value).as_deref(), Some("42"));
    assert_eq!(tx.setting(vp_ports::SettingKey::UpdateOffset { bot_id: 8 }).await.unwrap(), None, "one per bot");
    tx.commit().await.unwrap();
}
