//! The partner cabinet over real HTTP on the real binary: getting in with an invitation,
//! signing in and out, the lockout, form tokens, session cookies, the security headers, the
//! operator's `cabinet` commands and the overview.

use crate::support;

use support::server::{Backend, Response, Server};
use support::visitor::{PASSWORD, Visitor, field, invite_to};

fn server(name: &str) -> Option<Server> {
    Server::start(Backend::Sqlite, name)
}

// The rules that reach the storage in ways of their own also run on PostgreSQL.
each_backend!(
    an_invited_partner_sets_a_password_and_lands_in_their_cabinet,
    sign_in_refuses_wrong_passwords_alike_and_locks_after_ten,
    the_operator_lists_and_revokes_users_and_a_revoked_users_session_ends,
    a_form_without_the_sessions_token_changes_nothing,
    a_withdrawal_is_held_at_once_and_the_operator_takes_it_to_paid,
);

fn invite(s: &Server, email: &str) -> String {
    invite_to(s, &s.account_id, email)
}

/// A visitor who accepted an invitation and is signed in.
fn member(s: &Server, email: &str) -> Visitor {
    member_of(s, &s.account_id, email)
}

fn member_of(s: &Server, account_id: &str, email: &str) -> Visitor {
    support::visitor::cabinet_member(s, account_id, email)
}

fn set_cookie(res: &Response, name: &str) -> String {
    res.headers
        .iter()
        .find(|(k, v)| k.eq_ignore_ascii_case("set-cookie") && v.starts_with(&format!("{name}=")))
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("no {name} cookie set: {:?}", res.headers))
}

fn brand(s: &Server) -> String {
    s.api("GET", "/account", None, &[]).json()["brand_name"].as_str().unwrap().to_owned()
}

fn an_invited_partner_sets_a_password_and_lands_in_their_cabinet(backend: Backend) {
    let Some(s) = Server::start(backend, "cab_invite") else { return };
    let path = invite(&s, "Partner@Example.com");
    let mut v = Visitor::new(s.port);
    let page = v.get(&path);
    assert_eq!(page.status, 200);
    assert!(page.text().contains("partner@example.com"), "{}", page.text());

    let short = v.submit(&path, &path, &[("password", "too short"), ("confirm", "too short")]);
    assert_eq!(short.status, 422);
    assert!(short.text().contains("at least 10 characters"), "{}", short.text());
    let differ = v.submit(&path, &path, &[("password", PASSWORD), ("confirm", "another long phrase")]);
    assert_eq!(differ.status, 422);
    assert!(differ.text().contains("The two passwords differ."));

    let done = v.submit(&path, &path, &[("password", PASSWORD), ("confirm", PASSWORD)]);
    assert_eq!(done.status, 303);
    assert_eq!(done.header("location"), Some("/cabinet"));
    let cookie = set_cookie(&done, "vp_cabinet");
    for part in ["Path=/cabinet", "HttpOnly", "SameSite=Lax", "Max-Age=2592000"] {
        assert!(cookie.contains(part), "{part} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "not Secure while the public base URL is plain http");

    let overview = v.get("/cabinet");
    assert_eq!(overview.status, 200);
    let html = overview.text();
    for shown in
        ["Demo VPN", "vpk_", "Requests per minute", "600", "partner@example.com", "Sign out", "/shop/demo-vpn\">"]
    {
        assert!(html.contains(shown), "{shown} on the overview: {html}");
    }
    assert_eq!(overview.header("cache-control"), Some("no-store"));
    assert_eq!(overview.header("x-frame-options"), Some("DENY"));
    assert_eq!(overview.header("referrer-policy"), Some("no-referrer"));
    assert!(overview.header("content-security-policy").unwrap().contains("frame-ancestors 'none'"));

    let again = Visitor::new(s.port).get(&path);
    assert_eq!(again.status, 404, "the link worked once");
    assert!(again.text().contains("This link no longer works"));
}

#[test]
fn cabinet_pages_send_visitors_without_a_live_session_to_sign_in() {
    let Some(s) = server("cab_session") else { return };
    let mut v = Visitor::new(s.port);
    for path in ["/cabinet", "/cabinet/activity"] {
        let res = v.get(path);
        assert_eq!(res.status, 303, "{path}");
        assert_eq!(res.header("location"), Some("/cabinet/sign-in"));
    }
    v.set_cookie("vp_cabinet", "made-up-token");
    let res = v.get("/cabinet");
    assert_eq!(res.status, 303);
    assert!(set_cookie(&res, "vp_cabinet").contains("Max-Age=0"), "an unknown session cookie is cleared");
}

fn a_form_without_the_sessions_token_changes_nothing(backend: Backend) {
    let Some(s) = Server::start(backend, "cab_csrf") else { return };
    let mut v = member(&s, "p@example.com");
    let forged = v.post("/cabinet/brand", &[("brand_name", "Forged"), ("csrf", "not-the-token")]);
    assert_eq!(forged.status, 403);
    let missing = v.post("/cabinet/brand", &[("brand_name", "Forged")]);
    assert_eq!(missing.status, 403);
    assert_eq!(brand(&s), "Demo VPN", "nothing changed");

    let bad = v.submit("/cabinet", "/cabinet/brand", &[("brand_name", "")]);
    assert_eq!(bad.status, 422);
    assert!(bad.text().contains("1 to 64 characters"));
    let renamed = v.submit("/cabinet", "/cabinet/brand", &[("brand_name", "Fast Lane")]);
    assert_eq!(renamed.status, 303);
    assert_eq!(brand(&s), "Fast Lane", "the same rename as PATCH /account");
    let activity = v.get("/cabinet/activity").text();
    assert!(activity.contains("brand name changed") && activity.contains("Demo VPN -&gt; Fast Lane"), "{activity}");
}

fn sign_in_refuses_wrong_passwords_alike_and_locks_after_ten(backend: Backend) {
    let Some(s) = Server::start(backend, "cab_sign_in") else { return };
    member(&s, "p@example.com");
    let mut v = Visitor::new(s.port);
    let wrong =
        v.submit("/cabinet/sign-in", "/cabinet/sign-in", &[("email", "p@example.com"), ("password", "wrong one!")]);
    assert_eq!(wrong.status, 401);
    let unknown =
        v.submit("/cabinet/sign-in", "/cabinet/sign-in", &[("email", "who@example.com"), ("password", PASSWORD)]);
    assert_eq!(unknown.status, 401);
    let message =
        |r: &Response| r.text().split("role=\"alert\">").nth(1).unwrap().split('<').next().unwrap().to_owned();
    assert_eq!(message(&wrong), message(&unknown), "the same words for an unknown email and a wrong password");
    assert_eq!(message(&wrong), "Wrong email or password.");

    for _ in 0..9 {
        v.submit("/cabinet/sign-in", "/cabinet/sign-in", &[("email", "p@example.com"), ("password", "wrong one!")]);
    }
    let locked =
        v.submit("/cabinet/sign-in", "/cabinet/sign-in", &[("email", "p@example.com"), ("password", PASSWORD)]);
    assert_eq!(locked.status, 429, "locked even with the right password");
    assert!(message(&locked).starts_with("Too many failed attempts. Sign-in is locked until"), "{}", locked.text());
    let wait: i64 = locked.header("retry-after").unwrap().parse().unwrap();
    assert!((840..=900).contains(&wait), "about 15 minutes: {wait}");
}

#[test]
fn a_sign_in_posted_without_this_browsers_form_token_is_refused() {
    let Some(s) = server("cab_form_token") else { return };
    member(&s, "p@example.com");
    let mut v = Visitor::new(s.port);
    let res = v.post("/cabinet/sign-in", &[("email", "p@example.com"), ("password", PASSWORD)]);
    assert_eq!(res.status, 403, "another site's form has no form token cookie");
    assert!(v.cookie("vp_cabinet").is_none());
}

#[test]
fn signing_in_again_gives_a_new_session_and_signing_out_ends_it() {
    let Some(s) = server("cab_sign_out") else { return };
    let first = member(&s, "p@example.com");
    let mut v = Visitor::new(s.port);
    let res = v.submit("/cabinet/sign-in", "/cabinet/sign-in", &[("email", "P@example.com"), ("password", PASSWORD)]);
    assert_eq!(res.status, 303);
    assert_ne!(v.cookie("vp_cabinet"), first.cookie("vp_cabinet"), "a new session id at sign-in");
    assert_eq!(v.get("/cabinet/sign-in").header("location"), Some("/cabinet"), "signed in already");
    let token = v.cookie("vp_cabinet").unwrap().to_owned();
    let out = v.submit("/cabinet", "/cabinet/sign-out", &[]);
    assert_eq!(out.status, 303);
    assert_eq!(out.header("location"), Some("/cabinet/sign-in"));
    let mut replay = Visitor::new(s.port);
    replay.set_cookie("vp_cabinet", &token);
    assert_eq!(replay.get("/cabinet").status, 303, "the ended session does not come back");
}

fn the_operator_lists_and_revokes_users_and_a_revoked_users_session_ends(backend: Backend) {
    let Some(s) = Server::start(backend, "cab_revoke") else { return };
    let mut v = member(&s, "p@example.com");
    let users = s.cli(&["cabinet", "users", &s.account_id]);
    let user = &users.as_array().unwrap()[0];
    assert_eq!(user["email"], "p@example.com");
    assert_eq!(user["password_set"], true);
    let revoked = s.cli(&["cabinet", "revoke", user["user_id"].as_str().unwrap()]);
    assert_eq!(revoked["sessions_ended"], 1);
    assert_eq!(v.get("/cabinet").status, 303);
    let (code, out) = s.db.cli_raw(&["cabinet", "invite", &s.account_id, "--email", "not an email"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("email"), "{out}");
    let (code, _) = s.db.cli_raw(&["cabinet", "invite", "acc_missing", "--email", "x@example.com"]);
    assert_eq!(code, Some(2));
}

#[test]
fn the_language_switch_holds_across_the_cabinets_pages() {
    let Some(s) = server("cab_lang") else { return };
    let mut v = member(&s, "p@example.com");
    let ru = v.get("/cabinet?lang=ru");
    assert!(ru.text().contains("Обзор") && ru.text().contains("Выйти"));
    assert!(set_cookie(&ru, "vp_lang").starts_with("vp_lang=ru"));
    let next = v.get("/cabinet/activity").text();
    assert!(next.contains("Журнал действий") && next.contains("<html lang=\"ru\""), "{next}");
    assert!(next.contains("задан пароль"), "actions are named in the page's language");
    let _ = field(&next, "csrf");
}

const LOOPBACK: [(&str, &str); 1] = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];

/// The page a form post led to (its `Location`), opened.
fn follow(v: &mut Visitor, res: &Response) -> String {
    assert_eq!(res.status, 303, "{}", res.text());
    v.get(res.header("location").unwrap()).text()
}

trait Act {
    /// Posts a page's form and opens the page it leads to.
    fn act(&mut self, page: &str, action: &str, fields: &[(&str, &str)]) -> String;
}

impl Act for Visitor {
    fn act(&mut self, page: &str, action: &str, fields: &[(&str, &str)]) -> String {
        let res = self.submit(page, action, fields);
        follow(self, &res)
    }
}

fn wait_for(mut check: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while !check() {
        assert!(std::time::Instant::now() < deadline, "not within 15 s");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_partner_adds_an_address_tests_it_and_rotates_its_secret() {
    let Some(s) = Server::start_with(Backend::Sqlite, "cab_hooks", &LOOPBACK) else { return };
    let receiver = support::receiver::Receiver::start();
    let mut v = member(&s, "p@example.com");

    let refused = v.submit(
        "/cabinet/webhooks",
        "/cabinet/webhooks",
        &[("url", "http://203.0.113.9/hooks"), ("event_types", "payment.succeeded")],
    );
    assert_eq!(refused.status, 422, "the same vetting as the operator's: https only");
    assert!(refused.text().contains("https"), "the reason is shown: {}", refused.text());
    let none = v.submit("/cabinet/webhooks", "/cabinet/webhooks", &[("url", &receiver.url)]);
    assert_eq!(none.status, 422, "at least one event type");

    let added = v.submit(
        "/cabinet/webhooks",
        "/cabinet/webhooks",
        &[("url", &receiver.url), ("event_types", "payment.succeeded"), ("event_types", "payment.expired")],
    );
    let page_path = added.header("location").unwrap().split('?').next().unwrap().to_owned();
    let page = follow(&mut v, &added);
    assert!(page.contains("The address is added.") && page.contains("enabled"), "{page}");
    assert!(v.get("/cabinet/webhooks").text().contains(&receiver.url));

    let tested = v.submit(&page_path, &format!("{page_path}/test"), &[]);
    let result = follow(&mut v, &tested);
    assert!(result.contains("Test event sent: response <strong>200</strong>"), "{result}");
    assert!(result.contains(" ms</p>"), "the time is shown");
    let got = receiver.next_of("webhook.test", std::time::Duration::from_secs(5));
    let before = got.header("webhook-signature").to_owned();

    let shown = v.submit(&page_path, &format!("{page_path}/secret"), &[]);
    assert_eq!(shown.status, 200);
    let secret = shown.text().split("<code id=\"secret\">").nth(1).unwrap().split('<').next().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(shown.header("cache-control"), Some("no-store"));

    let rotated = v.act(&page_path, &format!("{page_path}/rotate"), &[]);
    assert!(rotated.contains("signed with both the old and the new one"), "{rotated}");
    let again = v.submit(&page_path, &format!("{page_path}/secret"), &[]).text();
    assert!(!again.contains(&secret), "a new secret after rotation");
    v.act(&page_path, &format!("{page_path}/test"), &[]);
    let signed = receiver.next_of("webhook.test", std::time::Duration::from_secs(5));
    assert_eq!(signed.header("webhook-signature").split(' ').count(), 2, "both secrets sign for 24 hours");
    assert_eq!(before.split(' ').count(), 1);

    for _ in 0..3 {
        v.act(&page_path, &format!("{page_path}/test"), &[]);
    }
    let sixth = v.act(&page_path, &format!("{page_path}/test"), &[]);
    assert!(sixth.contains("At most 5 test events a minute. Try again in"), "the wait is shown: {sixth}");

    let activity = v.get("/cabinet/activity").text();
    for action in ["webhook address added", "test event sent", "signing secret shown", "signing secret rotated"] {
        assert!(activity.contains(action), "{action} in the activity log");
    }
    assert!(!activity.contains(&secret), "never a secret in the activity log");
}

#[test]
fn a_failed_delivery_shows_in_the_log_and_is_replayed_after_re_enabling() {
    let Some(s) = Server::start_with(Backend::Sqlite, "cab_replay", &LOOPBACK) else { return };
    // An address where nothing listens: every attempt fails.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{dead}/hooks");
    let mut v = member(&s, "p@example.com");
    let added =
        v.submit("/cabinet/webhooks", "/cabinet/webhooks", &[("url", &url), ("event_types", "payment.succeeded")]);
    let page = added.header("location").unwrap().split('?').next().unwrap().to_owned();
    support::partner::buy(&s, "tg:replay", 1);

    let log_path = format!("{page}/deliveries?failed=1&type=payment.succeeded");
    wait_for(|| v.get(&log_path).text().contains("<code>payment.succeeded</code>"));
    let log = v.get(&log_path).text();
    assert!(log.contains("class=\"error\""), "the network error is shown: {log}");
    let event_id = log.split("/cabinet/events/").nth(1).unwrap().split('"').next().unwrap().to_owned();
    let event = v.get(&format!("/cabinet/events/{event_id}"));
    assert_eq!(event.status, 200);
    assert!(event.text().contains("tg:replay"), "the event's body is shown");
    assert!(v.get(&format!("{page}/deliveries?type=webhook.test")).text().contains("No attempts match."));

    let disabled = v.act(&page, &format!("{page}/disable"), &[]);
    assert!(disabled.contains("The address is disabled"), "{disabled}");
    let enabled = v.act(&page, &format!("{page}/enable"), &[]);
    assert!(enabled.contains("can be replayed below"), "{enabled}");
    let replayed = v.act(&page, &format!("{page}/replay"), &[("days", "1")]);
    assert!(replayed.contains("1 undelivered event of the last 1 day is queued again."), "{replayed}");
}

#[test]
fn another_accounts_addresses_and_events_are_not_found() {
    let Some(s) = Server::start_with(Backend::Sqlite, "cab_tenants", &LOOPBACK) else { return };
    let receiver = support::receiver::Receiver::start();
    let other = s.cli(&["account", "create", "--brand", "Other", "--markup", "10"]);
    let other_id = other["account"]["account_id"].as_str().unwrap();
    let theirs = s.cli(&["endpoint", "add", other_id, &receiver.url, "--type", "payment.succeeded"]);
    let their_id = theirs["endpoint_id"].as_str().unwrap();
    s.cli(&["endpoint", "test", their_id]);
    let log = s.cli(&["endpoint", "deliveries", their_id]);
    let their_event = log["attempts"][0]["event_id"].as_str().unwrap();

    let mut v = member(&s, "p@example.com");
    let own_page = "/cabinet/webhooks";
    for path in [
        format!("/cabinet/webhooks/{their_id}"),
        format!("/cabinet/webhooks/{their_id}/deliveries"),
        format!("/cabinet/events/{their_event}"),
    ] {
        assert_eq!(v.get(&path).status, 404, "{path}");
    }
    for action in ["rotate", "disable", "secret", "test", "replay", "types"] {
        let res = v.submit(own_page, &format!("/cabinet/webhooks/{their_id}/{action}"), &[("days", "1")]);
        assert_eq!(res.status, 404, "{action}");
        assert!(!res.text().contains("whsec_"));
    }
    let after = s.cli(&["endpoint", "list", other_id]);
    assert_eq!(after["endpoints"][0]["enabled"], true, "nothing changed on their address");
    assert!(after["endpoints"][0]["secret_rotated_at"].is_null());
}

/// The text of the element with this id on a page.
fn element(html: &str, id: &str) -> String {
    let start = html.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in {html}"));
    let rest = &html[start..];
    let inner = &rest[rest.find('>').unwrap() + 1..];
    let text: String = inner[..inner.find("</dd>").unwrap()].replace("<strong>", "").replace("</strong>", "");
    text
}

fn a_withdrawal_is_held_at_once_and_the_operator_takes_it_to_paid(backend: Backend) {
    let Some(s) = Server::start(backend, "cab_withdraw") else { return };
    let share = support::partner::buy(&s, "money-1", 1)["partner_share"].as_str().unwrap().to_owned();
    let mut v = member(&s, "money@example.com");
    let page = v.get("/cabinet/balance").text();
    assert_eq!(element(&page, "available"), format!("RUB\u{a0}{share}"), "the paid invoice's markup is available");
    assert!(page.contains("markup of a paid invoice"), "{page}");

    let share_kopecks: i64 = share.replace('.', "").parse().unwrap();
    let too_much = format!("{}.{:02}", (share_kopecks + 1) / 100, (share_kopecks + 1) % 100);
    let refused =
        v.submit("/cabinet/balance", "/cabinet/withdrawals", &[("amount", &too_much), ("payout_details", "IBAN")]);
    assert_eq!(refused.status, 422);
    assert!(refused.text().contains("more than the available balance"), "{}", refused.text());
    assert!(refused.text().contains(&format!("value=\"{too_much}\"")), "the form keeps what was typed");
    let no_details =
        v.submit("/cabinet/balance", "/cabinet/withdrawals", &[("amount", "1.00"), ("payout_details", " ")]);
    assert_eq!(no_details.status, 422);
    assert!(no_details.text().contains("Payout details: payout details are required."), "{}", no_details.text());

    let requested =
        v.submit("/cabinet/balance", "/cabinet/withdrawals", &[("amount", "1.50"), ("payout_details", "card 4000")]);
    let location = requested.header("location").expect("to the request's page").to_owned();
    let id = location.trim_start_matches("/cabinet/withdrawals/").split('?').next().unwrap().to_owned();
    let shown = follow(&mut v, &requested);
    assert!(shown.contains("The request is made and its amount is held."), "{shown}");
    assert_eq!(element(&shown, "status"), "requested, amount held");
    let balance = v.get("/cabinet/balance").text();
    assert_eq!(element(&balance, "held"), "RUB\u{a0}1.50");

    let listed = s.cli(&["withdrawal", "list", "--status", "requested"]);
    assert_eq!(listed[0]["withdrawal_id"], id.as_str());
    assert_eq!((listed[0]["amount"].as_str(), listed[0]["payout_details"].as_str()), (Some("1.50"), Some("card 4000")));
    let (code, out) = s.db.cli_raw(&["withdrawal", "paid", &id]);
    assert_eq!(code, Some(2), "paid before approval is refused: {out}");
    s.cli(&["withdrawal", "approve", &id]);
    let paid = s.cli(&["withdrawal", "paid", &id, "--note", "transfer 77"]);
    assert_eq!((paid["status"].as_str(), paid["balance"]["held"].as_str()), (Some("paid"), Some("0.00")));
    let (code, _) = s.db.cli_raw(&["withdrawal", "reject", &id]);
    assert_eq!(code, Some(2), "a paid request cannot be rejected");

    let shown = v.get(&format!("/cabinet/withdrawals/{id}")).text();
    assert_eq!(element(&shown, "status"), "paid");
    assert!(shown.contains("transfer 77") && shown.contains("withdrawal paid out"), "{shown}");
    let notices = v.get("/cabinet/notices").text();
    assert!(notices.contains(&format!("withdrawal {id} of RUB\u{a0}1.50 was paid out")), "{notices}");

    let csv = v.get("/cabinet/balance/ledger.csv");
    assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8"));
    assert_eq!(csv.header("cache-control"), Some("no-store"));
    let text = csv.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "entry_id,created_at,kind,invoice_id,withdrawal_id,amount,held");
    let kinds: Vec<&str> = lines[1..].iter().map(|l| l.split(',').nth(2).unwrap()).collect();
    assert_eq!(kinds, ["withdrawal_payout", "withdrawal_approval", "withdrawal_hold", "partner_share_credit"]);
    let kopecks = |column: usize| -> i64 {
        lines[1..].iter().map(|l| l.split(',').nth(column).unwrap().replace('.', "").parse::<i64>().unwrap()).sum()
    };
    assert_eq!((kopecks(5), kopecks(6)), (share_kopecks - 150, 0), "the ledger sums to the balance to the kopeck");
}

#[test]
fn another_accounts_withdrawals_and_clients_are_not_found() {
    let Some(s) = server("cab_tenant_money") else { return };
    support::partner::buy(&s, "ours-1", 1);
    let mut ours = member(&s, "ours@example.com");
    let requested =
        ours.submit("/cabinet/balance", "/cabinet/withdrawals", &[("amount", "1.00"), ("payout_details", "x")]);
    let withdrawal = requested.header("location").unwrap().split('?').next().unwrap().to_owned();
    assert_eq!(ours.get(&withdrawal).status, 200);
    assert_eq!(ours.get("/cabinet/clients/ours-1").status, 200);

    let other = s.cli(&["account", "create", "--brand", "Other", "--markup", "10"]);
    let mut theirs = member_of(&s, other["account"]["account_id"].as_str().unwrap(), "them@example.com");
    assert_eq!(theirs.get(&withdrawal).status, 404);
    assert_eq!(theirs.get("/cabinet/clients/ours-1").status, 404);
    let search = theirs.get("/cabinet/clients?client_id=ours-1");
    assert_eq!(search.status, 404);
    assert!(!theirs.get("/cabinet/clients").text().contains("ours-1"));
    assert!(!theirs.get("/cabinet/balance").text().contains("/cabinet/withdrawals/wd_"));
    assert!(theirs.get("/cabinet/balance/ledger.csv").text().lines().count() == 1, "their ledger is empty");
}

#[test]
fn support_staff_find_a_client_and_see_its_subscription_devices_traffic_and_invoices() {
    let Some(s) = server("cab_clients") else { return };
    let paid = support::partner::buy(&s, "tg:42@example", 1);
    support::partner::post_payment(&s, "pending-1", &support::partner::subscription("tg:42@example", 1));
    s.api("POST", "/clients/never-paid/trial", None, &[]);
    let mut v = member(&s, "support@example.com");

    let all = v.get("/cabinet/clients").text();
    assert!(all.contains("tg:42@example") && all.contains("never-paid"), "{all}");
    let expired = v.get("/cabinet/clients?status=expired").text();
    assert!(!expired.contains("tg:42@example"), "the filter applies: {expired}");
    let active = v.get("/cabinet/clients?status=active").text();
    assert!(active.contains("tg:42@example"));

    let found = v.get("/cabinet/clients?client_id=tg%3A42%40example");
    assert_eq!(found.status, 303, "an exact client_id opens the client");
    let page = follow(&mut v, &found);
    assert!(page.contains("active"), "{page}");
    assert!(page.contains(paid["payment_id"].as_str().unwrap()), "the paid invoice is listed");
    assert!(page.contains("awaiting payment") && page.contains("paid"), "both invoices with their status: {page}");
    assert!(page.contains("No devices connected."), "{page}");
    assert!(!page.contains("id=\"traffic\""), "no traffic row without a limit: {page}");
    // Times in the account's zone (Europe/Moscow unless set), with its name.
    let since = element(&page, "client-since");
    assert!(since.ends_with("\u{a0}MSK") && !page.contains("UTC"), "{since}");

    // A limited plan's client shows the limit and what the panel counted of it.
    let args =
        ["plan", "create", "--months", "1", "--price", "149.00", "--traffic-gb", "2", "--traffic-reset", "month"];
    let plan_id = support::partner::offered_plan(&s, &args)["plan_id"].as_i64().unwrap();
    support::partner::buy(&s, "limited-1", plan_id);
    s.cli(&["sandbox", "traffic", &s.account_id, "limited-1", "--mb", "512"]);
    let page = v.get("/cabinet/clients/limited-1").text();
    assert_eq!(element(&page, "traffic"), "0.5 of 2 GB a month", "{page}");

    let missing = v.get("/cabinet/clients?client_id=nobody");
    assert_eq!(missing.status, 404);
    assert!(missing.text().contains("No client of yours has the id"));
}

const BOT_TOKEN: &str = "123456789:AAHcabinet_0123456789abcdefghijklmn";

#[test]
fn a_partner_links_telegram_and_the_chat_receives_the_withdrawal_notice() {
    let bot = vp_testkit::telegram::TelegramEmulator::start(BOT_TOKEN, "platform_bot");
    let api_url = bot.url();
    let env = [("VP_TELEGRAM_BOT_TOKEN", BOT_TOKEN), ("VP_TELEGRAM_API_URL", api_url.as_str())];
    let Some(s) = Server::start_with(Backend::Sqlite, "cab_telegram", &env) else { return };
    support::partner::buy(&s, "tg-notice", 1);
    let mut v = member(&s, "p@example.com");
    let notices = v.get("/cabinet/notices").text();
    assert!(notices.contains("No chat is linked yet."), "{notices}");

    let linked = v.submit("/cabinet/notices", "/cabinet/notices/telegram", &[]);
    assert_eq!(linked.status, 200);
    let page = linked.text();
    let link =
        page.split("href=\"https://t.me/platform_bot?start=").nth(1).expect("the deep link").split('"').next().unwrap();
    bot.press_start(424_242, link);
    let answers = bot.wait_for_sent(1, std::time::Duration::from_secs(15));
    assert_eq!(answers.first().map(|a| a.0), Some(424_242), "the chat is answered: {answers:?}");
    assert!(answers[0].1.contains("This chat now receives the notices of Demo VPN."), "{answers:?}");
    wait_for(|| v.get("/cabinet/notices").text().contains("<code>424242</code>"));

    let requested =
        v.submit("/cabinet/balance", "/cabinet/withdrawals", &[("amount", "1.00"), ("payout_details", "card")]);
    let id = requested
        .header("location")
        .unwrap()
        .trim_start_matches("/cabinet/withdrawals/")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    s.cli(&["withdrawal", "approve", &id]);
    s.cli(&["withdrawal", "paid", &id]);
    let sent = bot.wait_for_sent(2, std::time::Duration::from_secs(15));
    assert_eq!(sent.len(), 2, "the notice reaches the chat: {sent:?}");
    assert_eq!(sent[1], (424_242, format!("Demo VPN: withdrawal {id} of RUB\u{a0}1.00 was paid out.")));

    let unlinked = v.act("/cabinet/notices", "/cabinet/notices/telegram/424242/unlink", &[]);
    assert!(unlinked.contains("The chat is unlinked.") && unlinked.contains("No chat is linked yet."), "{unlinked}");
    assert_eq!(v.submit("/cabinet/notices", "/cabinet/notices/telegram/424242/unlink", &[]).status, 404);
    bot.assert_contract();
}

const PARTNER_BOT_TOKEN: &str = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";

#[test]
fn a_partner_connects_its_own_bot_in_the_cabinet_and_never_sees_the_token_again() {
    let telegram = vp_testkit::telegram::TelegramEmulator::start(BOT_TOKEN, "platform_bot");
    telegram.add_bot(PARTNER_BOT_TOKEN, 5550001, "demo_vpn_bot");
    let api_url = telegram.url();
    let Some(s) = Server::start_with(Backend::Sqlite, "cab_bot", &[("VP_TELEGRAM_API_URL", api_url.as_str())]) else {
        return;
    };
    let mut v = member(&s, "bot@example.com");
    let empty = v.get("/cabinet/bot");
    assert_eq!(empty.status, 200);
    assert!(empty.text().contains("Token from BotFather") && !empty.text().contains("Disconnect the bot"));

    let refused = v.submit("/cabinet/bot", "/cabinet/bot", &[("token", "not a token")]);
    assert_eq!(refused.status, 422);
    assert!(refused.text().contains("This is not a bot token"), "{}", refused.text());
    let revoked = v.submit("/cabinet/bot", "/cabinet/bot", &[("token", "5550001:AAErevokedRevokedRevokedRevoked_0")]);
    assert_eq!(revoked.status, 422);
    assert!(revoked.text().contains("Telegram does not accept this token"), "{}", revoked.text());

    let connected = v.submit("/cabinet/bot", "/cabinet/bot", &[("token", PARTNER_BOT_TOKEN)]);
    assert_eq!((connected.status, connected.header("location")), (303, Some("/cabinet/bot?connected=1")));
    let page = v.get("/cabinet/bot?connected=1").text();
    assert!(
        page.contains("The bot is connected.") && page.contains("href=\"https://t.me/demo_vpn_bot\">@demo_vpn_bot</a>")
    );
    let secret = PARTNER_BOT_TOKEN.split_once(':').unwrap().1;
    assert!(!page.contains(secret), "the token is never shown again");
    s.cli(&["jobs"]);
    assert_eq!(telegram.profile(PARTNER_BOT_TOKEN).unwrap().name, "Demo VPN");
    assert!(v.get("/cabinet/bot").text().contains("up to date with your brand"));
    assert!(v.get("/cabinet/activity").text().contains("Telegram bot connected"));

    // Where reminders send customers to renew: https only.
    let bad = v.submit("/cabinet/bot", "/cabinet/bot/renewal", &[("renewal_url", "http://demo.example/renew")]);
    assert_eq!(bad.status, 422);
    assert!(bad.text().contains("must be an https:// address"), "{}", bad.text());
    let saved = v.submit("/cabinet/bot", "/cabinet/bot/renewal", &[("renewal_url", "https://demo.example/renew")]);
    assert_eq!(saved.header("location"), Some("/cabinet/bot?renewal=1"));
    let page = v.get("/cabinet/bot?renewal=1").text();
    assert!(page.contains("The renewal link is saved.") && page.contains("value=\"https://demo.example/renew\""));
    assert!(v.get("/cabinet/activity").text().contains("Renewal link changed"));

    let unrelated =
        v.submit("/cabinet/bot", "/cabinet/bot", &[("token", "7770002:AAEanotherBotNotConnectedAnywhere_1")]);
    assert_eq!(unrelated.status, 422, "a second bot is refused before Telegram is even asked about it");

    let gone = v.submit("/cabinet/bot", "/cabinet/bot/disconnect", &[]);
    assert_eq!(gone.header("location"), Some("/cabinet/bot?disconnected=1"));
    assert!(v.get("/cabinet/bot?disconnected=1").text().contains("The bot is disconnected"));
    assert_eq!(s.cli(&["bot", "show", &s.account_id]), serde_json::Value::Null);
    telegram.assert_contract();
}
