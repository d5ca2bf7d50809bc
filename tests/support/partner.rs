//! Partner-side steps the black-box tests share: issuing invoices and paying them on the
//! sandbox page.

use serde_json::{Value, json};

use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use super::server::{Response, Server};

pub fn post_payment(s: &Server, key: &str, body: &Value) -> Response {
    s.api("POST", "/payments", Some(body), &[("idempotency-key", key)])
}

pub fn subscription(client: &str, plan: i64) -> Value {
    json!({"client_id": client, "purpose": "subscription", "plan_id": plan, "method": "card"})
}

/// Issues and pays a subscription invoice; returns the paid invoice.
pub fn buy(s: &Server, client: &str, plan: i64) -> Value {
    let key = format!("buy-{client}-{plan}-{}", rand_suffix());
    let inv = post_payment(s, &key, &subscription(client, plan));
    assert_eq!(inv.status, 201, "{}", inv.text());
    pay(s, inv.json()["payment_id"].as_str().unwrap());
    s.api("GET", &format!("/payments/{}", inv.json()["payment_id"].as_str().unwrap()), None, &[]).json()
}

/// The link token of a client view's subscription: the last segment of its `subscription_url`.
pub fn link_token(client: &Value) -> String {
    let url = client["subscription"]["subscription_url"].as_str().expect("a subscription");
    url.rsplit('/').next().unwrap_or_default().to_owned()
}

pub fn pay(s: &Server, payment_id: &str) {
    let r = s.request(
        "POST",
        &format!("/sandbox/pay/{payment_id}"),
        &[("content-type", "application/x-www-form-urlencoded")],
        Some("action=pay"),
    );
    assert_eq!(r.status, 303, "{}", r.text());
}

pub fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

/// With the VPN panel down, the three endpoints that need it answer the spec's 503 (and the
/// device delete too) for `client`, a client with a subscription.
pub fn assert_panel_outage_503s(s: &Server, client: &str) {
    for (method, path) in [
        ("GET", format!("/clients/{client}/devices")),
        ("POST", format!("/clients/{client}/rotate-link")),
        ("POST", "/clients/new-trial/trial".to_owned()),
        ("DELETE", format!("/clients/{client}/devices/x")),
    ] {
        let r = s.api(method, &path, None, &[]);
        assert_eq!((r.status, r.code().as_str()), (503, "SERVICE_UNAVAILABLE"), "{method} {path}");
    }
    assert_eq!(s.api("GET", "/clients/new-trial", None, &[]).code(), "API_CLIENT_NOT_FOUND", "no trial granted");
}

/// When the client's term ends now.
pub fn term_end(s: &Server, client: &str) -> OffsetDateTime {
    let shown = s.cli(&["client", "show", &s.account_id, client]);
    OffsetDateTime::parse(shown["subscription"]["expires_at"].as_str().unwrap(), &Rfc3339).unwrap()
}

/// Moves the service's clock to `at` and runs the jobs (the term check and the renewals).
pub fn jobs_at(s: &Server, at: OffsetDateTime) {
    let now =
        OffsetDateTime::now_utc() + Duration::seconds(s.cli(&["clock", "show"])["offset_seconds"].as_i64().unwrap());
    let by = at - now;
    if by.is_positive() {
        s.cli(&["clock", "advance", &format!("{}s", by.whole_seconds() + 1)]);
    }
    s.cli(&["jobs"]);
}

/// A plan the CLI created, once the server offers it (another process learns of a change of the
/// offer within a second); returns it as `GET /plans` shows it.
pub fn offered_plan(s: &Server, args: &[&str]) -> Value {
    let plan_id = s.cli(args)["plan_id"].as_i64().expect("a plan id");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let plans = s.api("GET", "/plans", None, &[]).json();
        if let Some(plan) = plans["plans"].as_array().unwrap().iter().find(|p| p["plan_id"] == plan_id) {
            // The payments keep their own copy of the offer for up to a second as well.
            std::thread::sleep(vp_app::catalog::OFFER_TTL + std::time::Duration::from_millis(200));
            return plan.clone();
        }
        assert!(std::time::Instant::now() < deadline, "plan {plan_id} never offered: {plans}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
