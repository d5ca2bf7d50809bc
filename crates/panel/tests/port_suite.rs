//! The `VpnPanel` port's shared suite against both adapters: the embedded local panel on a
//! real SQLite store, and the Remnawave adapter over real HTTP against the emulator, whose
//! every exchange is then checked against `@remnawave/backend-contract`.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use vp_panel::remnawave::{LIFETIME_EXPIRE_AT, username};
use vp_panel::{DeviceHeaders, LocalPanel, RemnawavePanel, RemnawaveSettings};
use vp_ports::{Clock, PanelError, VpnPanel};
use vp_testkit::http::send;
use vp_testkit::panel_suite::{self, APP_HEADERS, LinkClient, new_user};
use vp_testkit::remnawave::{Mode, Remnawave, check_exchanges, grants_access};

struct WallClock;

impl Clock for WallClock {
    fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}

struct LocalLinks<'a>(&'a LocalPanel);

impl LinkClient for LocalLinks<'_> {
    async fn fetch(&self, link_token: &str, hwid: &str) -> bool {
        let header = |name: &str| APP_HEADERS.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned());
        let headers = DeviceHeaders {
            hwid: Some(hwid.to_owned()),
            platform: header("x-device-os"),
            os_version: header("x-ver-os"),
            model: header("x-device-model"),
            user_agent: header("user-agent"),
        };
        self.0.fetch(link_token, headers).await.is_ok()
    }
}

/// A VPN app fetching a Remnawave subscription link over HTTP.
struct HttpLinks<'a>(&'a dyn VpnPanel);

impl LinkClient for HttpLinks<'_> {
    async fn fetch(&self, link_token: &str, hwid: &str) -> bool {
        let mut headers: Vec<(&str, &str)> = APP_HEADERS.to_vec();
        headers.push(("x-hwid", hwid));
        send("GET", &self.0.subscription_url(link_token), &headers, b"").is_ok_and(|a| grants_access(&a))
    }
}

#[tokio::test]
async fn the_local_panel_passes_the_port_suite() {
    let dir = std::env::temp_dir().join(format!("vp-panel-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("db.sqlite").display());
    vp_store::migrate(&url).await.unwrap();
    let store = vp_store::connect(&url, &vp_store::StoreOptions::default()).await.unwrap();
    let panel = LocalPanel::new(store, Arc::new(WallClock), "http://127.0.0.1:8080");
    panel_suite::run(&panel, &LocalLinks(&panel)).await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn settings(rw: &Remnawave, token: &str) -> RemnawaveSettings {
    RemnawaveSettings {
        url: rw.url(),
        token: token.to_owned(),
        sub_url: rw.sub_url(),
        squads: vec![],
        timeout: Duration::from_secs(10),
        webhook_secret: None,
    }
}

#[tokio::test]
async fn the_remnawave_adapter_passes_the_port_suite_and_keeps_to_the_official_contract() {
    let rw = Remnawave::start("rw-token");
    let squad = rw.add_squad("Germany");
    let panel =
        RemnawavePanel::new(&RemnawaveSettings { squads: vec![squad.clone()], ..settings(&rw, "rw-token") }).unwrap();
    panel_suite::run(&panel, &HttpLinks(&panel)).await;
    assert_eq!(rw.dropped(), 0, "plain-http requests carry the reverse-proxy headers");
    let user = rw.users().into_iter().next().expect("the suite created users");
    assert_eq!(user.squads, [squad], "every new user joins the configured squads");
    assert_eq!((user.traffic_limit_bytes, user.traffic_limit_strategy.as_str()), (0, "NO_RESET"));
    assert!(user.description.as_deref().is_some_and(|d| d.starts_with("partner acc_suite client suite:create@")));
    rw.assert_contract();
}

#[tokio::test]
async fn the_contract_check_catches_a_field_the_contract_does_not_know() {
    let rw = Remnawave::start("t");
    let panel = RemnawavePanel::new(&settings(&rw, "t")).unwrap();
    panel.put_user(&new_user("contract")).await.unwrap();
    let mut exchanges = rw.exchanges();
    let create = exchanges.iter_mut().find(|e| e.method == "POST").expect("a create");
    create.request.as_mut().unwrap()["hwidLimit"] = serde_json::json!(3);
    let findings = check_exchanges(&exchanges).expect_err("a misspelt field must fail the check");
    assert!(findings.contains("hwidLimit"), "{findings}");
}

#[tokio::test]
async fn a_retry_after_a_lost_answer_updates_the_user_instead_of_creating_a_second() {
    let rw = Remnawave::start("t");
    let panel = RemnawavePanel::new(&settings(&rw, "t")).unwrap();
    let mut user = new_user("retry");
    rw.lose_next_answer("POST");
    assert!(matches!(panel.put_user(&user).await, Err(PanelError::Unavailable(_))), "no answer: outcome unknown");
    assert_eq!(rw.users().len(), 1, "the panel did create the user");
    user.device_limit = Some(4);
    panel.put_user(&user).await.unwrap();
    assert_eq!(rw.users().len(), 1, "the retry found it and did not create a second");
    assert_eq!(rw.user(&username(&user.user_ref)).unwrap().hwid_device_limit, Some(4));

    // Another writer creates the user between our lookup and our create: the panel says the
    // username exists, and the adapter updates that user.
    let racing = new_user("race");
    panel.put_user(&racing).await.unwrap();
    rw.hide_next_lookup();
    panel.put_user(&vp_ports::PanelUser { enabled: false, ..racing.clone() }).await.unwrap();
    assert_eq!(rw.user(&username(&racing.user_ref)).unwrap().status, "DISABLED");
    assert_eq!(rw.users().len(), 2);
    assert_eq!(rw.count("POST", "/api/users"), 2, "the race user: its create, then the refused second one");
    rw.assert_contract();
}

#[tokio::test]
async fn outages_and_refusals_are_told_apart() {
    let rw = Remnawave::start("t");
    let user = new_user("faults");
    let panel = RemnawavePanel::new(&settings(&rw, "t")).unwrap();
    rw.set_mode(Mode::Down);
    assert!(matches!(panel.put_user(&user).await, Err(PanelError::Unavailable(_))), "a 5xx is an outage");
    rw.set_mode(Mode::Refusing);
    assert!(matches!(panel.put_user(&user).await, Err(PanelError::Rejected(_))), "a 4xx is a refusal");
    rw.set_mode(Mode::Up);
    let wrong_token = RemnawavePanel::new(&settings(&rw, "wrong")).unwrap();
    match wrong_token.check().await {
        Err(PanelError::Rejected(why)) => assert!(why.contains("VP_REMNAWAVE_TOKEN"), "{why}"),
        other => panic!("a wrong token must be a refusal naming the setting, got {other:?}"),
    }
    let info = panel.check().await.unwrap();
    assert_eq!((info.kind, info.version.as_deref()), ("remnawave", Some("2.3.2")));

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let nowhere =
        RemnawavePanel::new(&RemnawaveSettings { url: format!("http://127.0.0.1:{port}"), ..settings(&rw, "t") })
            .unwrap();
    assert!(matches!(nowhere.devices(&user.user_ref).await, Err(PanelError::Unavailable(_))), "connection refused");
    rw.assert_contract();
}

#[tokio::test]
async fn a_panel_that_does_not_answer_in_time_is_an_outage() {
    let rw = Remnawave::start("t");
    rw.set_mode(Mode::Slow(Duration::from_millis(1500)));
    let panel =
        RemnawavePanel::new(&RemnawaveSettings { timeout: Duration::from_millis(300), ..settings(&rw, "t") }).unwrap();
    let started = std::time::Instant::now();
    assert!(matches!(panel.check().await, Err(PanelError::Unavailable(_))));
    assert!(started.elapsed() < Duration::from_millis(1400), "gave up at the timeout");
}

#[tokio::test]
async fn a_lifetime_subscription_gets_the_panels_never_expiring_date() {
    let rw = Remnawave::start("t");
    let panel = RemnawavePanel::new(&settings(&rw, "t")).unwrap();
    let user = vp_ports::PanelUser {
        expires_at: time::macros::datetime!(9999-12-31 23:59:59 UTC),
        device_limit: None,
        ..new_user("lifetime")
    };
    panel.put_user(&user).await.unwrap();
    let held = rw.user(&username(&user.user_ref)).unwrap();
    assert_eq!((held.expire_at, held.hwid_device_limit), (LIFETIME_EXPIRE_AT, Some(0)));
    assert_eq!(panel.drift(&user).await.unwrap(), vec![], "a lifetime user matches the capped date");
    rw.assert_contract();
}
