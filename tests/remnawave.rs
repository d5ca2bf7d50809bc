//! The real binary with `VP_PANEL=remnawave` against the Remnawave emulator, on SQLite and on
//! PostgreSQL: paid invoices, renewals, extra devices, trials, suspensions and blocks, link
//! rotation and devices reach the panel; a panel outage gives the spec's 503s while payments
//! still succeed and the sync catches up; reconcile finds and fixes drift made behind our back.
//! Every exchange with the panel is checked against `@remnawave/backend-contract`.

use crate::support;

use serde_json::{Value, json};
use support::partner::{assert_panel_outage_503s, buy, offered_plan, pay, post_payment};
use support::server::{Backend, Server};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use vp_testkit::http::send;
use vp_testkit::remnawave::{ExistingUser, Mode, Remnawave, User, grants_access};

const TOKEN: &str = "rw-api-token-for-tests";

each_backend!(
    paid_access_renewals_devices_trials_pauses_and_rotation_reach_the_panel,
    a_panel_outage_gives_503s_payments_still_succeed_and_the_sync_catches_up,
    reconcile_finds_and_fixes_drift_made_behind_our_back,
    the_panels_webhooks_are_verified_each_has_its_user_read_back_at_once_and_access_taken_by_hand_shows_as_suspended,
    a_panels_users_are_adopted_with_their_links_devices_and_limits_and_a_second_import_changes_nothing,
    a_traffic_limited_plan_reaches_the_panel_is_held_back_when_used_up_and_counted_anew_on_renewal,
    a_bot_customer_and_the_partner_are_told_at_80_and_at_100_percent_of_the_traffic_once_per_period,
);

/// The panel's `WEBHOOK_SECRET_HEADER`, given to us as `VP_REMNAWAVE_WEBHOOK_SECRET`.
const WEBHOOK_SECRET: &str = "PanelWebhookSecret0123456789abcdefXYZ";

/// A panel and a server wired to it; `None` when the backend is skipped.
fn start(backend: Backend, name: &str) -> Option<(Remnawave, String, Server)> {
    start_with(backend, name, &[])
}

fn start_with(backend: Backend, name: &str, extra: &[(&str, &str)]) -> Option<(Remnawave, String, Server)> {
    let (rw, squad) = panel();
    let env = panel_env(&rw, &squad);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).chain(extra.iter().copied()).collect();
    let server = Server::start_with(backend, name, &env)?;
    Some((rw, squad, server))
}

/// The emulator with one internal squad; returns it and the squad's UUID.
pub(crate) fn panel() -> (Remnawave, String) {
    let rw = Remnawave::start(TOKEN);
    let squad = rw.add_squad("Netherlands");
    (rw, squad)
}

/// The settings of a server wired to `rw`.
pub(crate) fn panel_env(rw: &Remnawave, squad: &str) -> Vec<(&'static str, String)> {
    vec![
        ("VP_PANEL", "remnawave".to_owned()),
        ("VP_REMNAWAVE_URL", rw.url()),
        ("VP_REMNAWAVE_TOKEN", TOKEN.to_owned()),
        ("VP_REMNAWAVE_SUB_URL", rw.sub_url()),
        ("VP_REMNAWAVE_SQUADS", squad.to_owned()),
    ]
}

fn seconds(text: &str) -> i64 {
    OffsetDateTime::parse(text, &Rfc3339).expect("an RFC 3339 time").unix_timestamp()
}

/// The panel user behind a client, found through the `shortUuid` at the end of its link.
fn panel_user(s: &Server, rw: &Remnawave, client_id: &str) -> User {
    let client = s.api("GET", &format!("/clients/{client_id}"), None, &[]).json();
    let url = client["subscription"]["subscription_url"].as_str().expect("a subscription link");
    let short_uuid = url.rsplit('/').next().unwrap();
    rw.user_by_short_uuid(short_uuid).unwrap_or_else(|| panic!("no panel user for {url}"))
}

fn subscription_of(s: &Server, client_id: &str) -> Value {
    s.api("GET", &format!("/clients/{client_id}"), None, &[]).json()["subscription"].clone()
}

/// A VPN app fetching a link with its device headers: whether it got configs to connect with.
pub(crate) fn connects(url: &str, hwid: &str) -> bool {
    let headers = [("x-hwid", hwid), ("x-device-os", "iOS"), ("x-ver-os", "17.2"), ("x-device-model", "iPhone 15")];
    send("GET", url, &headers, b"").is_ok_and(|a| grants_access(&a))
}

fn paid_access_renewals_devices_trials_pauses_and_rotation_reach_the_panel(backend: Backend) {
    let Some((rw, squad, s)) = start(backend, "rw_access") else { return };
    let first = buy(&s, "tg:1001", 1);
    let sub = first["client"]["subscription"].clone();
    assert!(sub["subscription_url"].as_str().unwrap().starts_with(&rw.sub_url()), "the link is the panel's: {sub}");
    let user = panel_user(&s, &rw, "tg:1001");
    assert_eq!(user.status, "ACTIVE");
    assert_eq!(user.expire_at.unix_timestamp(), seconds(sub["expires_at"].as_str().unwrap()), "the paid term");
    assert_eq!(user.hwid_device_limit, Some(3), "the demo's 3 included devices");
    assert_eq!(user.squads, [squad]);
    assert_eq!(user.description.as_deref(), Some(format!("partner {} client tg:1001", s.account_id).as_str()));
    assert!(!user.username.contains(':'), "the username is derived, never the raw client_id: {}", user.username);

    let renewed = buy(&s, "tg:1001", 1)["client"]["subscription"].clone();
    assert_eq!(renewed["subscription_url"], sub["subscription_url"], "renewal keeps the link");
    let user = panel_user(&s, &rw, "tg:1001");
    assert_eq!(user.expire_at.unix_timestamp(), seconds(renewed["expires_at"].as_str().unwrap()), "expireAt moved");

    let devices = post_payment(
        &s,
        "rw-dev",
        &json!({"client_id": "tg:1001", "purpose": "devices", "devices": 2, "method": "card"}),
    );
    assert_eq!(devices.status, 201, "{}", devices.text());
    pay(&s, devices.json()["payment_id"].as_str().unwrap());
    assert_eq!(panel_user(&s, &rw, "tg:1001").hwid_device_limit, Some(5), "extra devices raise the limit");

    for (command, status) in [("suspend", "DISABLED"), ("resume", "ACTIVE")] {
        s.cli(&["subscription", command, &s.account_id, "tg:1001"]);
        assert_eq!(panel_user(&s, &rw, "tg:1001").status, status, "after {command}");
    }
    s.cli(&["client", "block", &s.account_id, "tg:1001"]);
    s.cli(&["client", "unblock", &s.account_id, "tg:1001"]);
    assert_eq!(panel_user(&s, &rw, "tg:1001").status, "ACTIVE", "unblocked");
    let blocked = buy(&s, "tg:3003", 1);
    s.cli(&["client", "block", &s.account_id, "tg:3003"]);
    let short_uuid =
        blocked["client"]["subscription"]["subscription_url"].as_str().unwrap().rsplit('/').next().unwrap();
    assert_eq!(rw.user_by_short_uuid(short_uuid).unwrap().status, "DISABLED", "a block disables the user");

    let old_link = subscription_of(&s, "tg:1001")["subscription_url"].as_str().unwrap().to_owned();
    assert!(connects(&old_link, "hwid-before-rotation"));
    let rotated = s.api("POST", "/clients/tg:1001/rotate-link", None, &[]);
    assert_eq!(rotated.status, 200, "{}", rotated.text());
    let new_link = rotated.json()["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    assert_ne!(new_link, old_link);
    assert_eq!(rw.count("POST", "/api/users/"), 1, "the rotation is one revoke");
    assert!(!connects(&old_link, "hwid-before-rotation"), "the old link stops working at once");
    assert!(connects(&new_link, "hwid-phone-0001"), "the new link works");
    assert_eq!(panel_user(&s, &rw, "tg:1001").short_uuid, new_link.rsplit('/').next().unwrap());

    let list = s.api("GET", "/clients/tg:1001/devices", None, &[]).json();
    assert_eq!((list["devices_count"].clone(), list["devices_limit"].clone()), (json!(2), json!(5)));
    let phone = list["devices"].as_array().unwrap().iter().find(|d| d["device_id"] == "hwid-phone-0001").cloned();
    let phone = phone.expect("the device the app registered through the panel");
    assert_eq!(
        (phone["platform"].clone(), phone["model"].clone(), phone["os_version"].clone()),
        (json!("iOS"), json!("iPhone 15"), json!("17.2"))
    );
    let deleted = s.api("DELETE", "/clients/tg:1001/devices/hwid-phone-0001", None, &[]);
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    assert_eq!(rw.devices(&panel_user(&s, &rw, "tg:1001").username).len(), 1, "deleted in the panel");
    let again = s.api("DELETE", "/clients/tg:1001/devices/hwid-phone-0001", None, &[]);
    assert_eq!((again.status, again.code().as_str()), (404, "DEVICE_NOT_FOUND"));

    let trial = s.api("POST", "/clients/tg:2002/trial", None, &[]);
    assert_eq!(trial.status, 201, "{}", trial.text());
    let user = panel_user(&s, &rw, "tg:2002");
    assert_eq!(user.status, "ACTIVE");
    let hours = (user.expire_at - OffsetDateTime::now_utc()).whole_hours();
    assert!((71..=72).contains(&hours), "a 72-hour trial, got {hours} h");

    assert_eq!(rw.dropped(), 0, "every plain-http request carried the reverse-proxy headers");
    rw.assert_contract();
}

fn a_panel_outage_gives_503s_payments_still_succeed_and_the_sync_catches_up(backend: Backend) {
    let Some((rw, _, s)) = start(backend, "rw_outage") else { return };
    buy(&s, "po", 1);
    let link = subscription_of(&s, "po")["subscription_url"].clone();
    rw.set_mode(Mode::Down);
    assert_panel_outage_503s(&s, "po");
    assert_eq!(subscription_of(&s, "po")["subscription_url"], link, "the link did not change");

    let paid = buy(&s, "paid-while-down", 1);
    assert_eq!(paid["status"], "succeeded", "a payment never fails because the panel is down");
    let renewed = buy(&s, "po", 1);
    assert_eq!(renewed["status"], "succeeded");
    assert_eq!(rw.users().len(), 1, "the panel has not heard of the new client yet");

    rw.set_mode(Mode::Up);
    s.cli(&["jobs"]);
    let late = panel_user(&s, &rw, "paid-while-down");
    assert_eq!(late.status, "ACTIVE", "access granted once the panel answers");
    let po = panel_user(&s, &rw, "po");
    let expires = seconds(renewed["client"]["subscription"]["expires_at"].as_str().unwrap());
    assert_eq!(po.expire_at.unix_timestamp(), expires, "the renewal reached the panel too");
    assert_eq!(s.api("POST", "/clients/po/rotate-link", None, &[]).status, 200, "the rotation works again");
    rw.assert_contract();
}

fn reconcile_finds_and_fixes_drift_made_behind_our_back(backend: Backend) {
    let Some((rw, _, s)) = start(backend, "rw_reconcile") else { return };
    buy(&s, "kept", 1);
    buy(&s, "edited", 1);
    buy(&s, "deleted", 1);
    let check = s.cli(&["panel", "check"]);
    assert_eq!(check, json!({"panel": "remnawave", "address": rw.url(), "version": "2.3.2"}));
    assert_eq!(s.cli(&["panel", "reconcile"])["drifted"], 0, "in step after the payments");

    let edited = panel_user(&s, &rw, "edited");
    rw.edit_user(&edited.username, |u| {
        u.hwid_device_limit = Some(9);
        u.status = "DISABLED".into();
    });
    rw.delete_user(&panel_user(&s, &rw, "deleted").username);
    let report = s.cli(&["panel", "reconcile"]);
    assert_eq!((report["checked"].clone(), report["drifted"].clone()), (json!(3), json!(2)), "{report}");
    let by_client = |id: &str| report["clients"].as_array().unwrap().iter().find(|c| c["client_id"] == id).cloned();
    let fields: Vec<Value> =
        by_client("edited").unwrap()["drift"].as_array().unwrap().iter().map(|d| d["field"].clone()).collect();
    assert_eq!(fields, [json!("enabled"), json!("device_limit")]);
    assert_eq!(
        by_client("deleted").unwrap()["drift"],
        json!([{"field": "user", "expected": "exists", "actual": "missing"}])
    );
    assert_eq!(rw.user(&edited.username).unwrap().status, "DISABLED", "without --fix nothing changes");

    let fixed = s.cli(&["panel", "reconcile", "--fix"]);
    assert!(fixed["clients"].as_array().unwrap().iter().all(|c| c["fixed"] == true), "{fixed}");
    let edited = rw.user(&edited.username).unwrap();
    assert_eq!((edited.status.as_str(), edited.hwid_device_limit), ("ACTIVE", Some(3)));
    assert_eq!(panel_user(&s, &rw, "deleted").status, "ACTIVE", "the missing user is back");
    assert_eq!(s.cli(&["panel", "reconcile"])["drifted"], 0);

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_vp-api"))
        .args(["panel", "check"])
        .env("DATABASE_URL", &s.db.url)
        .env("VP_LOG", "warn")
        .envs(s.db.env.iter().map(|(k, v)| (k, v)))
        .env("VP_REMNAWAVE_TOKEN", "a-wrong-token")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("VP_REMNAWAVE_TOKEN") && !stderr.contains("a-wrong-token"), "{stderr}");
    rw.assert_contract();
}

/// Waits for the receiver's answer to the panel's `event` webhook (a behavioural bound, wide
/// for a loaded machine: it returns once the answer came).
fn answer_to(rw: &Remnawave, event: &str, nth: usize) -> u16 {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let answers: Vec<u16> = rw.webhook_answers().into_iter().filter(|(e, _)| e == event).map(|(_, s)| s).collect();
        if let Some(status) = answers.get(nth) {
            return *status;
        }
        assert!(std::time::Instant::now() < deadline, "no answer to {event} #{nth}: {:?}", rw.webhook_answers());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn the_panels_webhooks_are_verified_each_has_its_user_read_back_at_once_and_access_taken_by_hand_shows_as_suspended(
    backend: Backend,
) {
    let secret = ("VP_REMNAWAVE_WEBHOOK_SECRET", WEBHOOK_SECRET);
    let Some((rw, _, s)) = start_with(backend, "rw_webhooks", &[secret]) else { return };
    buy(&s, "hooked", 1);
    let user = panel_user(&s, &rw, "hooked");
    let receiver = format!("{}/panel/remnawave/webhook", s.base);
    let lookups = || rw.count("GET", "/api/users/by-username/");
    let drift_told = |s: &Server| s.log().matches("the panel differs from the subscription").count();

    // Signed with another secret: refused before anything is read or looked up.
    rw.send_webhooks_to(&receiver, "NotThePanelsSecretNotThePanelsSecret00");
    let before = lookups();
    rw.edit_user(&user.username, |u| u.status = "DISABLED".into());
    assert_eq!(answer_to(&rw, "user.disabled", 0), 401, "a forged signature is refused");
    let body = rw.webhooks().last().unwrap().to_string();
    for headers in [vec![], vec![("x-remnawave-signature", "00ff")]] {
        let answer = send("POST", &receiver, &headers, body.as_bytes()).unwrap();
        assert_eq!(answer.status, 401, "{headers:?}: {}", answer.text());
    }
    assert_eq!((lookups(), drift_told(&s)), (before, 0), "a refused webhook changes and reads nothing");

    assert_eq!(subscription_of(&s, "hooked")["status"], "active", "nothing changed");

    // Genuine: the user named is read back at once, and what was done by hand is drift. The
    // panel holds the user disabled by hand: the partner's client shows it paused, as it is.
    rw.send_webhooks_to(&receiver, WEBHOOK_SECRET);
    rw.edit_user(&user.username, |u| u.hwid_device_limit = Some(9));
    assert_eq!(answer_to(&rw, "user.modified", 0), 200);
    assert_eq!(lookups(), before + 1, "the webhook's user is read back from the panel, not taken from the body");
    assert_eq!(drift_told(&s), 1, "the operator is told: {}", s.log());
    assert_eq!(subscription_of(&s, "hooked")["status"], "suspended", "the client shows the panel's truth");
    let malformed = br#"{"scope":"user","event":"user.modified","timestamp":"2026-12-05T10:00:00.000Z","data":{}}"#;
    let signature = vp_panel::remnawave::webhook::sign(WEBHOOK_SECRET, malformed);
    let answer = send("POST", &receiver, &[("x-remnawave-signature", &signature)], malformed).unwrap();
    assert_eq!(answer.status, 400, "a signed body naming no user: {}", answer.text());

    // Put right by the operator: the device limit pushed back (the pause is what the panel has),
    // found in step by the panel's own `user.modified`; then access given back.
    s.cli(&["panel", "reconcile", "--fix"]);
    assert_eq!(answer_to(&rw, "user.modified", 1), 200);
    assert_eq!(drift_told(&s), 1, "in step again: nothing more to tell");
    assert_eq!(rw.user(&user.username).unwrap().hwid_device_limit, user.hwid_device_limit);
    s.cli(&["subscription", "resume", &s.account_id, "hooked"]);
    assert_eq!(answer_to(&rw, "user.modified", 2), 200, "our push, found in step");
    assert_eq!((subscription_of(&s, "hooked")["status"].clone(), drift_told(&s)), (json!("active"), 1));

    // A user deleted by hand: the client shows its access paused, and nothing is re-created
    // until the operator says so.
    buy(&s, "deleted-by-hand", 1);
    let gone = panel_user(&s, &rw, "deleted-by-hand");
    rw.delete_user(&gone.username);
    assert_eq!(answer_to(&rw, "user.deleted", 0), 200);
    assert_eq!(subscription_of(&s, "deleted-by-hand")["status"], "suspended");
    assert_eq!(drift_told(&s), 2, "{}", s.log());
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert!(rw.user(&gone.username).is_none(), "the suspension is what the panel holds: nothing pushed");

    // A device an app registers through the link is known as the panel says so.
    let link = subscription_of(&s, "hooked")["subscription_url"].as_str().unwrap().to_owned();
    assert!(connects(&link, "hwid-hooked-tablet"));
    assert_eq!(answer_to(&rw, "user_hwid_devices.added", 0), 200);
    let devices = s.api("GET", "/clients/hooked/devices", None, &[]).json();
    assert_eq!(devices["devices"][0]["device_id"], "hwid-hooked-tablet", "{devices}");
    rw.assert_contract();
}

/// Seeds the panel as a shop bot left it: users with Telegram ids, devices already registered,
/// device and traffic limits, one disabled by hand, one expired, one that never ends.
fn seed_shop_bot_users(rw: &Remnawave, squad: &str) -> Vec<User> {
    let days = |n: i64| OffsetDateTime::now_utc() + time::Duration::days(n);
    let alice = rw.seed_user(ExistingUser {
        username: "alice_shop".into(),
        expire_at: days(20),
        hwid_device_limit: Some(2),
        traffic_limit_bytes: 50 * 1024 * 1024 * 1024,
        traffic_limit_strategy: "MONTH".into(),
        telegram_id: Some(7001),
        squads: vec![squad.to_owned()],
        ..ExistingUser::default()
    });
    rw.seed_device("alice_shop", "hwid-alice-phone", "iOS");
    rw.seed_device("alice_shop", "hwid-alice-laptop", "Windows");
    let bob = rw.seed_user(ExistingUser {
        username: "bob-77".into(),
        status: "EXPIRED".into(),
        expire_at: days(-3),
        tag: Some("VIP".into()),
        ..ExistingUser::default()
    });
    let carol = rw.seed_user(ExistingUser {
        username: "carol".into(),
        status: "DISABLED".into(),
        hwid_device_limit: None,
        telegram_id: Some(7002),
        ..ExistingUser::default()
    });
    // The same person as alice, with a second subscription: imported, but the bot keeps alice.
    let dave = rw.seed_user(ExistingUser {
        username: "alice_router".into(),
        expire_at: time::macros::datetime!(2099-12-31 23:59:59 UTC),
        telegram_id: Some(7001),
        ..ExistingUser::default()
    });
    vec![alice, bob, carol, dave]
}

fn a_panels_users_are_adopted_with_their_links_devices_and_limits_and_a_second_import_changes_nothing(
    backend: Backend,
) {
    let (rw, squad) = panel();
    let env = panel_env(&rw, &squad);
    let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.push(("VP_REMNAWAVE_WEBHOOK_SECRET", WEBHOOK_SECRET));
    let Some((telegram, s)) = support::chat::shop_with(backend, "rw_import", &env) else { return };
    let seeded = seed_shop_bot_users(&rw, &squad);
    let ours = buy(&s, "made-by-us", 1);
    let writes = || rw.count("POST", "/api/users") + rw.count("PATCH", "/api/users");
    let writes_before = writes();

    // A dry run says what would happen and changes nothing.
    let dry = s.cli(&["import", "remnawave", &s.account_id, "--dry-run"]);
    assert_eq!(
        (dry["dry_run"].clone(), dry["read"].clone(), dry["imported"].clone(), dry["platform_users"].clone()),
        (json!(true), json!(5), json!(4), json!(1)),
        "{dry}"
    );
    assert_eq!(s.api("GET", "/clients/alice_shop", None, &[]).status, 404, "a dry run writes nothing");

    // Filters: only the tagged user, only the squad's.
    let vip = s.cli(&["import", "remnawave", &s.account_id, "--tag", "VIP", "--dry-run"]);
    assert_eq!((vip["read"].clone(), vip["imported"].clone()), (json!(1), json!(1)), "{vip}");
    let in_squad = s.cli(&["import", "remnawave", &s.account_id, "--squad", &squad, "--dry-run"]);
    assert_eq!((in_squad["imported"].clone(), in_squad["outside_squad"].clone()), (json!(1), json!(3)), "{in_squad}");
    let (code, out) = s.cli_raw(&["import", "remnawave", &s.account_id, "--tag", "lower-case"]);
    assert_eq!(code, Some(2), "a tag the panel cannot have is bad input: {out}");

    let report = s.cli(&["import", "remnawave", &s.account_id]);
    assert_eq!(
        (report["imported"].clone(), report["bot_customers"].clone(), report["refused"].clone()),
        (json!(4), json!(2), json!(0)),
        "{report}"
    );
    assert_eq!(report["telegram_not_linked_users"], json!([{"username": "alice_router", "telegram_id": 7001}]));
    assert_eq!(ours["status"], "succeeded");
    assert_eq!(writes(), writes_before, "the import never writes to the panel");

    // Each client keeps its panel user: the same link, still serving the apps already installed.
    let alice = s.api("GET", "/clients/alice_shop", None, &[]).json();
    let link = alice["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    assert_eq!(link, format!("{}/{}", rw.sub_url(), seeded[0].short_uuid), "{alice}");
    assert_eq!(alice["subscription"]["status"], "active");
    assert_eq!(seconds(alice["subscription"]["expires_at"].as_str().unwrap()), seeded[0].expire_at.unix_timestamp());
    assert!(connects(&link, "hwid-alice-phone"), "an installed app keeps working");
    assert_eq!(alice["subscription"]["traffic_limit"], json!({"bytes": 53_687_091_200_i64, "reset": "month"}));
    let devices = s.api("GET", "/clients/alice_shop/devices", None, &[]).json();
    assert_eq!((devices["devices_count"].clone(), devices["devices_limit"].clone()), (json!(2), json!(2)), "{devices}");
    let status = |id: &str| subscription_of(&s, id)["status"].as_str().unwrap().to_owned();
    assert_eq!((status("bob-77"), status("carol")), ("expired".to_owned(), "suspended".to_owned()));
    let never = subscription_of(&s, "alice_router")["expires_at"].as_str().unwrap().to_owned();
    assert!(never.starts_with("9999-12-31"), "the panel's 2099 is a lifetime term: {never}");
    assert_eq!(s.cli(&["panel", "reconcile"])["drifted"], 1, "in step but for carol's panel-default limit");

    // Again: nothing changes.
    let again = s.cli(&["import", "remnawave", &s.account_id]);
    assert_eq!((again["imported"].clone(), again["already_imported"].clone()), (json!(0), json!(4)), "{again}");
    assert_eq!(s.api("GET", "/clients?limit=100", None, &[]).json()["clients"].as_array().unwrap().len(), 5);
    assert_eq!(writes(), writes_before);

    // Another account may not take them.
    let other = s.cli(&["account", "create", "--brand", "Other", "--markup", "10"]);
    let other_id = other["account"]["account_id"].as_str().unwrap();
    let refused = s.cli(&["import", "remnawave", other_id]);
    assert_eq!((refused["imported"].clone(), refused["refused"].clone()), (json!(0), json!(4)), "{refused}");
    assert_eq!(refused["refused_users"][0]["reason"], "adopted_by_another_account");

    // The bot knows alice from the first day: her subscription, with the devices her apps hold.
    let person = support::chat::Person::new(&telegram, 7001);
    let menu = person.write("/start", "Добро пожаловать в Demo VPN!");
    let mine = person.press(&menu, "Моя подписка", "Статус: Активна");
    assert!(mine.text.contains("Устройства: 2 из 2"), "{}", mine.text);
    assert!(mine.text.contains("Трафик: 0 из 50 ГБ в месяц"), "the panel's limit and its count: {}", mine.text);

    // The panel's webhooks name an adopted user by its own name: it is read back at once.
    rw.send_webhooks_to(&format!("{}/panel/remnawave/webhook", s.base), WEBHOOK_SECRET);
    let lookups = rw.count("GET", "/api/users/by-username/alice_shop");
    assert!(!connects(&link, "hwid-alice-tablet"), "a third device is refused: the limit of 2 carried over");
    rw.edit_user("alice_shop", |u| u.hwid_device_limit = Some(3));
    assert_eq!(answer_to(&rw, "user.modified", 0), 200);
    assert_eq!(rw.count("GET", "/api/users/by-username/alice_shop"), lookups + 1, "read back, not unknown");
    assert_eq!(s.log().matches("the panel differs from the subscription").count(), 1, "the raised limit is drift");

    // A renewal through the partner API extends the same panel user.
    let renewed = buy(&s, "alice_shop", 1)["client"]["subscription"].clone();
    assert_eq!(renewed["subscription_url"], json!(link));
    let user = rw.user("alice_shop").expect("the same panel user");
    assert_eq!((user.id, user.short_uuid.as_str()), (seeded[0].id, seeded[0].short_uuid.as_str()));
    assert_eq!(user.expire_at.unix_timestamp(), seconds(renewed["expires_at"].as_str().unwrap()), "expireAt moved");
    assert_eq!(user.hwid_device_limit, Some(2), "ours again");
    assert_eq!(user.traffic_limit_bytes, 0, "plan 1 has no traffic limit: the plan bought sets it");
    rw.assert_contract();
}

fn a_traffic_limited_plan_reaches_the_panel_is_held_back_when_used_up_and_counted_anew_on_renewal(backend: Backend) {
    let Some((rw, _, s)) = start(backend, "rw_traffic") else { return };
    let (code, out) = s.cli_raw(&["plan", "create", "--months", "1", "--price", "99.00", "--traffic-gb", "0"]);
    assert_eq!(code, Some(2), "no plan of 0 GB: {out}");
    let (code, out) = s.cli_raw(&["plan", "create", "--months", "1", "--price", "99.00", "--traffic-reset", "week"]);
    assert_eq!(code, Some(2), "a reset without a limit: {out}");
    let args = ["plan", "create", "--months", "1", "--price", "99.00", "--traffic-gb", "50", "--traffic-reset", "week"];
    let plan = offered_plan(&s, &args);
    let plan_id = plan["plan_id"].as_i64().unwrap();
    let limit = json!({"bytes": 53_687_091_200_i64, "reset": "week"});
    assert_eq!(plan["traffic_limit"], limit);
    let plans = s.api("GET", "/plans", None, &[]).json();
    assert_eq!(plans["plans"][0]["traffic_limit"], Value::Null, "the demo's plans have none");

    let bought = buy(&s, "heavy", plan_id)["client"]["subscription"].clone();
    assert_eq!(bought["traffic_limit"], limit);
    let user = panel_user(&s, &rw, "heavy");
    assert_eq!((user.traffic_limit_bytes, user.traffic_limit_strategy.as_str()), (53_687_091_200, "WEEK"));
    assert_eq!(s.cli(&["panel", "reconcile"])["drifted"], 0);

    let renewed = buy(&s, "heavy", 1)["client"]["subscription"].clone();
    assert_eq!(renewed["traffic_limit"], Value::Null, "the plan bought last sets the limit");
    let user = panel_user(&s, &rw, "heavy");
    assert_eq!((user.traffic_limit_bytes, user.traffic_limit_strategy.as_str()), (0, "NO_RESET"));

    // A limit that never resets by itself: used up, the panel holds the user back (still "on"
    // for us); a renewal counts its traffic from zero, once.
    let args =
        ["plan", "create", "--months", "1", "--price", "99.00", "--traffic-gb", "1", "--traffic-reset", "no_reset"];
    let once = offered_plan(&s, &args);
    let once_id = once["plan_id"].as_i64().unwrap();
    let link = buy(&s, "light", once_id)["client"]["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    let name = panel_user(&s, &rw, "light").username;
    assert!(connects(&link, "hwid-light"));
    rw.use_traffic(&name, 1 << 30);
    assert_eq!(rw.user(&name).unwrap().status, "LIMITED");
    assert!(!connects(&link, "hwid-light"), "the panel holds back a user whose traffic is used up");
    assert_eq!(s.cli(&["panel", "reconcile"])["drifted"], 0, "LIMITED is the panel doing its part");
    let resets = || rw.count("POST", "/api/users/") - rw.count("POST", "/api/users/by");
    let before = resets();
    buy(&s, "light", once_id);
    let user = rw.user(&name).unwrap();
    assert_eq!((user.status.as_str(), user.used_traffic_bytes), ("ACTIVE", 0), "the new term counts from zero");
    assert!(connects(&link, "hwid-light"));
    assert_eq!(resets(), before + 1, "one reset");
    s.cli(&["panel", "reconcile", "--fix"]);
    assert_eq!(resets(), before + 1, "and only one");
    rw.assert_contract();
}

fn a_bot_customer_and_the_partner_are_told_at_80_and_at_100_percent_of_the_traffic_once_per_period(backend: Backend) {
    let (rw, squad) = panel();
    let env = panel_env(&rw, &squad);
    let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.push(("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"));
    // The traffic check runs with the term check, every second here.
    let Some((telegram, s)) = support::chat::shop_with(backend, "rw_traffic_notices", &env) else { return };
    let gb: i64 = 1 << 30;
    rw.seed_user(ExistingUser {
        username: "erin_shop".into(),
        traffic_limit_bytes: 10 * gb,
        traffic_limit_strategy: "MONTH".into(),
        telegram_id: Some(7301),
        squads: vec![squad.clone()],
        ..ExistingUser::default()
    });
    let report = s.cli(&["import", "remnawave", &s.account_id]);
    assert_eq!((report["imported"].clone(), report["bot_customers"].clone()), (json!(1), json!(1)), "{report}");
    let person = support::chat::Person::new(&telegram, 7301);
    person.write("/start", "Добро пожаловать в Demo VPN!");
    let told = |text: &str| person.messages().iter().filter(|m| m.text.contains(text)).count();
    let a_few_checks = || std::thread::sleep(std::time::Duration::from_secs(3));
    // The partner hears the same thresholds as `subscription.traffic_used`.
    let receiver = support::receiver::Receiver::start();
    s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", "subscription.traffic_used"]);
    let partner_told = |percent: u64, used: i64| {
        let event = receiver.next_of("subscription.traffic_used", std::time::Duration::from_secs(15)).json();
        let data = &event["data"];
        assert_eq!((data["threshold_percent"].as_u64(), data["used_bytes"].as_i64()), (Some(percent), Some(used)));
        assert_eq!(data["client"]["subscription"]["traffic_limit"], json!({"bytes": 10 * gb, "reset": "month"}));
        data["counted_since"].as_str().unwrap().to_owned()
    };
    let partner_told_more = || {
        let more = receiver.drain().into_iter().filter(|d| d.json()["type"] == "subscription.traffic_used").count();
        assert_eq!(more, 0, "each threshold once per count");
    };

    rw.use_traffic("erin_shop", 8 * gb - 1);
    a_few_checks();
    assert_eq!(told("трафик"), 0, "under 80 % nothing is said");

    let seen = person.messages().len();
    person.did("uses 80 % of the traffic");
    rw.use_traffic("erin_shop", 1);
    let most = person.next_with(seen, "80 %");
    assert!(
        most.text.starts_with("Demo VPN: вы израсходовали уже 80 % трафика подписки (10 ГБ в месяц)."),
        "{}",
        most.text
    );
    assert!(most.text.contains("Счёт начнётся заново 01."), "the calendar month turns on the 1st: {}", most.text);
    assert!(most.buttons().is_empty(), "renewing does not start a monthly count again: {most:#?}");
    let month = partner_told(80, 8 * gb);
    rw.use_traffic("erin_shop", gb);
    a_few_checks();
    assert_eq!(told("80 %"), 1, "once per period");
    partner_told_more();

    let seen = person.messages().len();
    person.did("uses all of the traffic");
    rw.use_traffic("erin_shop", gb);
    let used_up = person.next_with(seen, "израсходован");
    assert!(
        used_up.text.starts_with("Demo VPN: трафик вашей подписки израсходован (10 ГБ в месяц), VPN приостановлен."),
        "{}",
        used_up.text
    );
    assert_eq!(partner_told(100, 10 * gb), month, "the same count's second threshold");
    a_few_checks();
    assert_eq!((told("80 %"), told("трафик вашей подписки израсходован")), (1, 1), "each once");
    partner_told_more();

    // The panel's month turns: the count starts again, and so do the notices.
    let seen = person.messages().len();
    person.did("a new month of traffic, 80 % of it used");
    rw.turn_traffic_period("erin_shop");
    rw.use_traffic("erin_shop", 9 * gb);
    person.next_with(seen, "80 %");
    assert!(partner_told(80, 9 * gb) > month, "a new count, told again");
    a_few_checks();
    assert_eq!(told("80 %"), 2, "told again in the new period, once");
    partner_told_more();
    person.save_transcript(&format!("traffic_notices_{backend:?}").to_lowercase());
    rw.assert_contract();
}
