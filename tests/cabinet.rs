//! The partner cabinet over real HTTP on the real binary: getting in with an invitation,
//! signing in and out, the lockout, form tokens, session cookies, the security headers, the
//! operator's `cabinet` commands and the overview.

#[macro_use]
mod support;

use support::server::{Backend, Response, Server};
use support::visitor::{Visitor, field};

const PASSWORD: &str = "a long enough phrase";

fn server(name: &str) -> Option<Server> {
    Server::start(Backend::Sqlite, name)
}

// The rules that reach the storage in ways of their own also run on PostgreSQL.
each_backend!(
    an_invited_partner_sets_a_password_and_lands_in_their_cabinet,
    sign_in_refuses_wrong_passwords_alike_and_locks_after_ten,
    the_operator_lists_and_revokes_users_and_a_revoked_users_session_ends,
    a_form_without_the_sessions_token_changes_nothing,
);

fn invite(s: &Server, email: &str) -> String {
    let out = s.cli(&["cabinet", "invite", &s.account_id, "--email", email]);
    let link = out["link"].as_str().expect("a link").to_owned();
    // The operator's command runs with its own settings; the path is what the server serves.
    link[link.find("/cabinet/welcome/").expect("a welcome link")..].to_owned()
}

/// A visitor who accepted an invitation and is signed in.
fn member(s: &Server, email: &str) -> Visitor {
    let path = invite(s, email);
    let mut v = Visitor::new(s.port);
    let res = v.submit(&path, &path, &[("password", PASSWORD), ("confirm", PASSWORD)]);
    assert_eq!(res.status, 303, "{}", res.text());
    v
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
    for shown in ["Demo VPN", "vpk_", "Requests per minute", "600", "partner@example.com", "Sign out"] {
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
