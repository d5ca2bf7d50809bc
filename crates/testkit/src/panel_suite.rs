//! The `VpnPanel` port's shared test suite: the behaviour every panel adapter must show, run
//! against the embedded local panel and against the Remnawave adapter over its emulator. The
//! caller provides the adapter and a way to fetch a subscription link as a VPN app does.

use std::sync::atomic::{AtomicU32, Ordering};

use time::{Duration, OffsetDateTime};
use vp_domain::AccountId;
use vp_ports::{PanelUser, VpnPanel};

/// Fetches a subscription link the way a VPN app does (with `x-hwid` and the device headers);
/// true when the link served the app.
pub trait LinkClient {
    fn fetch(&self, link_token: &str, hwid: &str) -> impl std::future::Future<Output = bool>;
}

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A fresh user: active for 30 days, two devices, a 32-character link token.
pub fn new_user(tag: &str) -> PanelUser {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let stamp = OffsetDateTime::now_utc().unix_timestamp_nanos() % 1_000_000_000;
    PanelUser {
        user_ref: format!("cli_{tag}{n}x{stamp}"),
        account_id: AccountId::issued("acc_suite".into()),
        client_id: format!("suite:{tag}@{n}"),
        link_token: token(),
        expires_at: OffsetDateTime::now_utc() + Duration::days(30),
        device_limit: Some(2),
        enabled: true,
        traffic: None,
        traffic_counted_from: None,
    }
}

/// A new link token shaped like ours (32 URL-safe characters).
pub fn token() -> String {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos().unsigned_abs();
    format!("tok{:013}{:016x}", n, nanos as u64)
}

/// Runs every case; panics on the first broken rule.
pub async fn run(panel: &dyn VpnPanel, links: &impl LinkClient) {
    a_user_is_created_once_and_then_matches(panel).await;
    every_change_reaches_the_panel_and_access_follows_enabled(panel, links).await;
    a_new_link_token_kills_the_old_link_at_once(panel, links).await;
    devices_register_through_the_link_within_the_limit_and_can_be_deleted(panel, links).await;
    a_user_the_panel_does_not_have_has_no_devices(panel).await;
    drift_names_every_field_that_differs(panel).await;
    the_panel_answers_the_check(panel).await;
}

async fn a_user_is_created_once_and_then_matches(panel: &dyn VpnPanel) {
    let user = new_user("create");
    let drift = panel.drift(&user).await.expect("drift of a new user");
    assert_eq!(drift.iter().map(|d| d.field).collect::<Vec<_>>(), ["user"], "a user not yet put is missing");
    panel.put_user(&user).await.expect("create");
    assert_eq!(panel.drift(&user).await.expect("drift"), vec![], "the panel holds what was put");
    panel.put_user(&user).await.expect("putting the same user again is a no-op");
    assert_eq!(panel.drift(&user).await.expect("drift"), vec![]);
}

async fn every_change_reaches_the_panel_and_access_follows_enabled(panel: &dyn VpnPanel, links: &impl LinkClient) {
    let mut user = new_user("change");
    panel.put_user(&user).await.expect("create");
    assert!(links.fetch(&user.link_token, "hwid-change-0001").await, "an active user's link works");
    user.expires_at += Duration::days(31);
    user.device_limit = None;
    user.enabled = false;
    panel.put_user(&user).await.expect("update");
    assert_eq!(panel.drift(&user).await.expect("drift"), vec![], "expiry, limit and access all changed");
    assert!(!links.fetch(&user.link_token, "hwid-change-0001").await, "a disabled user's link serves nothing");
    user.enabled = true;
    user.device_limit = Some(5);
    panel.put_user(&user).await.expect("enable again");
    assert_eq!(panel.drift(&user).await.expect("drift"), vec![]);
    assert!(links.fetch(&user.link_token, "hwid-change-0001").await, "access is back");
}

async fn a_new_link_token_kills_the_old_link_at_once(panel: &dyn VpnPanel, links: &impl LinkClient) {
    let mut user = new_user("rotate");
    panel.put_user(&user).await.expect("create");
    let old = user.link_token.clone();
    assert!(links.fetch(&old, "hwid-rotate-0001").await);
    user.link_token = token();
    panel.put_user(&user).await.expect("rotate");
    assert!(!links.fetch(&old, "hwid-rotate-0001").await, "the old link stops working at once");
    assert!(links.fetch(&user.link_token, "hwid-rotate-0001").await, "the new link works");
    assert_eq!(panel.drift(&user).await.expect("drift"), vec![]);
}

async fn devices_register_through_the_link_within_the_limit_and_can_be_deleted(
    panel: &dyn VpnPanel,
    links: &impl LinkClient,
) {
    let user = new_user("devices");
    panel.put_user(&user).await.expect("create");
    assert!(panel.devices(&user.user_ref).await.expect("devices").is_empty());
    assert!(links.fetch(&user.link_token, "hwid-devices-aaaa").await);
    assert!(links.fetch(&user.link_token, "hwid-devices-bbbb").await);
    assert!(links.fetch(&user.link_token, "hwid-devices-aaaa").await, "a known device comes back");
    assert!(!links.fetch(&user.link_token, "hwid-devices-cccc").await, "a third device is over the limit of 2");
    let devices = panel.devices(&user.user_ref).await.expect("devices");
    let mut hwids: Vec<&str> = devices.iter().map(|d| d.hwid.as_str()).collect();
    hwids.sort_unstable();
    assert_eq!(hwids, ["hwid-devices-aaaa", "hwid-devices-bbbb"]);
    let d = &devices[0];
    assert_eq!((d.platform.as_deref(), d.os_version.as_deref()), (Some("Android"), Some("14")));
    assert_eq!((d.model.as_deref(), d.user_agent.as_deref()), (Some("Pixel 8"), Some("Happ/3.5.0")));
    assert!(panel.delete_device(&user.user_ref, "hwid-devices-aaaa").await.expect("delete"));
    assert!(!panel.delete_device(&user.user_ref, "hwid-devices-aaaa").await.expect("delete again"), "gone");
    assert!(!panel.delete_device(&user.user_ref, "hwid-never-seen").await.expect("delete unknown"));
    assert!(links.fetch(&user.link_token, "hwid-devices-cccc").await, "the freed slot takes a new device");
    assert_eq!(panel.devices(&user.user_ref).await.expect("devices").len(), 2);
}

async fn a_user_the_panel_does_not_have_has_no_devices(panel: &dyn VpnPanel) {
    let user = new_user("absent");
    assert!(panel.devices(&user.user_ref).await.expect("devices").is_empty());
    assert!(!panel.delete_device(&user.user_ref, "hwid-absent-0001").await.expect("delete"));
}

async fn drift_names_every_field_that_differs(panel: &dyn VpnPanel) {
    let user = new_user("drift");
    panel.put_user(&user).await.expect("create");
    let other = PanelUser {
        link_token: token(),
        expires_at: user.expires_at + Duration::days(3),
        device_limit: Some(7),
        enabled: false,
        ..user.clone()
    };
    let mut fields: Vec<&str> = panel.drift(&other).await.expect("drift").iter().map(|d| d.field).collect();
    fields.sort_unstable();
    assert_eq!(fields, ["device_limit", "enabled", "expires_at", "link_token"]);
}

async fn the_panel_answers_the_check(panel: &dyn VpnPanel) {
    let info = panel.check().await.expect("check");
    assert!(!info.kind.is_empty() && !info.address.is_empty(), "{info:?}");
}

/// The device headers the suite's apps send.
pub const APP_HEADERS: [(&str, &str); 4] =
    [("x-device-os", "Android"), ("x-ver-os", "14"), ("x-device-model", "Pixel 8"), ("user-agent", "Happ/3.5.0")];
