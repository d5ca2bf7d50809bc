//! Promo codes, black-box on both backends (docs/decisions.md, "Promo codes"): the discount
//! comes out of the partner's markup and a code that would go below the platform's price is
//! refused at creation; `POST /payments` with `promo_code` issues the discounted invoice or
//! refuses with the code's own error and no invoice; an invoice holds one use while payable,
//! spends it when paid and gives it back when it expires; extra days lengthen the term bought.

use crate::support;

use serde_json::{Value, json};
use support::partner::{jobs_at, pay, post_payment, rand_suffix, term_end};
use support::server::{Backend, Server};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

each_backend!(
    a_discount_comes_out_of_the_partner_share_and_is_refused_below_the_platform_price,
    every_refusal_of_a_code_has_its_own_error_and_issues_no_invoice,
    a_use_is_held_while_payable_given_back_on_expiry_and_spent_when_paid,
);

fn with_code(client: &str, plan: i64, code: &str) -> Value {
    json!({"client_id": client, "purpose": "subscription", "plan_id": plan, "method": "card", "promo_code": code})
}

/// `vp-api promo ...` refused with exit code 2; returns what it printed.
fn promo_refused(s: &Server, args: &[&str]) -> String {
    let mut all = vec!["promo"];
    all.extend_from_slice(args);
    let (code, text) = s.db.cli_raw(&all);
    assert_eq!(code, Some(2), "{all:?}: {text}");
    text
}

fn promo(s: &Server, args: &[&str]) -> Value {
    let mut all = vec!["promo"];
    all.extend_from_slice(args);
    s.cli(&all)
}

fn a_discount_comes_out_of_the_partner_share_and_is_refused_below_the_platform_price(backend: Backend) {
    let Some(s) = Server::start(backend, "promo-discount") else { return };
    let acc = s.account_id.clone();
    // Plan 1: platform 199.00, markup 20 %: the customer pays 238.80, the share is 39.80.
    let refused = promo_refused(&s, &["create", &acc, "GREEDY", "--percent-off", "17"]);
    assert!(refused.contains("plan 1 0.80 RUB below the platform's price"), "{refused}");
    let refused = promo_refused(&s, &["create", &acc, "GREEDY", "--amount-off", "40"]);
    assert!(refused.contains("plan 1 0.20 RUB below the platform's price"), "{refused}");
    assert_eq!(promo(&s, &["list", &acc]), json!([]), "a refused code is not created");

    let created = promo(&s, &["create", &acc, "spring-10", "--percent-off", "10"]);
    assert_eq!((created["code"].as_str(), created["percent_off"].as_u64()), (Some("SPRING-10"), Some(10)), "{created}");
    let taken = promo_refused(&s, &["create", &acc, "Spring-10", "--extra-days", "3"]);
    assert!(taken.contains("already has the code SPRING-10"), "codes are case-insensitive: {taken}");
    assert!(promo_refused(&s, &["create", &acc, "AB", "--percent-off", "5"]).contains("4 to 32"));
    assert!(promo_refused(&s, &["create", &acc, "PLANX", "--percent-off", "5", "--plans", "99"]).contains("plan 99"));

    // 10 % of 238.80 is 23.88, all of it from the share.
    let key = format!("promo-{}", rand_suffix());
    let inv = post_payment(&s, &key, &with_code("buyer", 1, "spring-10"));
    assert_eq!(inv.status, 201, "{}", inv.text());
    let body = inv.json();
    assert_eq!(
        (body["amount"].as_str(), body["platform_amount"].as_str(), body["partner_share"].as_str()),
        (Some("214.92"), Some("199.00"), Some("15.92")),
        "{body}"
    );
    assert_eq!(body["promo"], json!({"code": "SPRING-10", "discount": "23.88", "extra_days": 0}));
    // The idempotency rules hold: the same fields replay, another code is another request.
    let again = post_payment(&s, &key, &with_code("buyer", 1, "SPRING-10"));
    assert_eq!((again.status, again.json()["replayed"].as_bool()), (200, Some(true)), "{}", again.text());
    let other = post_payment(&s, &key, &with_code("buyer", 1, "AUTUMN"));
    assert_eq!((other.status, other.code().as_str()), (409, "IDEMPOTENCY_KEY_REUSE"));
    let without = post_payment(&s, &key, &support::partner::subscription("buyer", 1));
    assert_eq!(without.code(), "IDEMPOTENCY_KEY_REUSE", "dropping the code changes the request");

    let before = s.cli(&["account", "show", &acc])["partner_balance"].as_str().unwrap().to_owned();
    pay(&s, body["payment_id"].as_str().unwrap());
    let after = s.cli(&["account", "show", &acc])["partner_balance"].as_str().unwrap().to_owned();
    let credited = after.parse::<f64>().unwrap() - before.parse::<f64>().unwrap();
    assert!((credited - 15.92).abs() < 0.001, "the ledger credits the discounted share: {before} -> {after}");
    let shown = promo(&s, &["show", &acc, "spring-10"]);
    assert_eq!(
        (shown["uses_spent"].as_u64(), shown["uses_held"].as_u64(), shown["discount_given"].as_str()),
        (Some(1), Some(0), Some("23.88")),
        "{shown}"
    );
    let paid = s.api("GET", &format!("/payments/{}", body["payment_id"].as_str().unwrap()), None, &[]).json();
    assert_eq!(paid["promo"]["discount"], "23.88", "the paid invoice keeps its discount: {paid}");

    // Extra days: the price stays, the term is the plan's and the code's days.
    promo(&s, &["create", &acc, "WEEK-FREE", "--extra-days", "7"]);
    let inv = post_payment(&s, &format!("days-{}", rand_suffix()), &with_code("weekly", 1, "week-free"));
    assert_eq!(inv.status, 201, "{}", inv.text());
    assert_eq!(inv.json()["amount"], "238.80");
    assert_eq!(inv.json()["promo"], json!({"code": "WEEK-FREE", "discount": "0.00", "extra_days": 7}));
    let id = inv.json()["payment_id"].as_str().unwrap().to_owned();
    pay(&s, &id);
    let paid_at = s.api("GET", &format!("/payments/{id}"), None, &[]).json()["paid_at"].as_str().unwrap().to_owned();
    let paid_at = OffsetDateTime::parse(&paid_at, &Rfc3339).unwrap();
    let expected = vp_domain::subscription::add_months(paid_at, 1) + Duration::days(7);
    assert!((term_end(&s, "weekly") - expected).abs() <= Duration::seconds(1), "a month and 7 days");
}

fn every_refusal_of_a_code_has_its_own_error_and_issues_no_invoice(backend: Backend) {
    let Some(s) = Server::start_with(backend, "promo-refusals", &[("VP_SHIFTED_CLOCK", "on")]) else { return };
    let acc = s.account_id.clone();
    let refused = |client: &str, plan: i64, code: &str, expect: &str| {
        let r = post_payment(&s, &format!("r-{}", rand_suffix()), &with_code(client, plan, code));
        assert_eq!((r.status, r.code().as_str()), (400, expect), "{code} for {client}: {}", r.text());
    };
    let no_client = |client: &str| {
        let r = s.api("GET", &format!("/clients/{client}"), None, &[]);
        assert_eq!(r.code(), "API_CLIENT_NOT_FOUND", "no invoice made {client}");
    };

    refused("nobody", 1, "NO-SUCH-CODE", "PROMO_CODE_NOT_FOUND");
    no_client("nobody");
    let malformed = post_payment(&s, "malformed", &with_code("nobody", 1, " ab "));
    assert_eq!((malformed.status, malformed.code().as_str()), (422, "VALIDATION_ERROR"));
    assert!(malformed.json()["error"]["fields"]["promo_code"].is_string(), "{}", malformed.text());

    promo(&s, &["create", &acc, "PLAN-TWO", "--amount-off", "5", "--plans", "2"]);
    refused("plan-one", 1, "plan-two", "PROMO_CODE_NOT_APPLICABLE");
    no_client("plan-one");
    let ok = post_payment(&s, &format!("p2-{}", rand_suffix()), &with_code("plan-two", 2, "plan-two"));
    assert_eq!(ok.status, 201, "{}", ok.text());

    promo(&s, &["create", &acc, "WELCOME", "--percent-off", "5", "--first-purchase-only", "--per-customer", "3"]);
    support::partner::buy(&s, "regular", 1);
    refused("regular", 1, "WELCOME", "PROMO_CODE_NOT_APPLICABLE");
    let first = post_payment(&s, &format!("w-{}", rand_suffix()), &with_code("newcomer", 1, "welcome"));
    assert_eq!(first.status, 201, "{}", first.text());
    // A code never discounts extra devices.
    let devices =
        json!({"client_id": "regular", "purpose": "devices", "devices": 1, "method": "card", "promo_code": "PLAN-TWO"});
    let r = post_payment(&s, "devices-with-code", &devices);
    assert_eq!((r.status, r.code().as_str()), (400, "PROMO_CODE_NOT_APPLICABLE"), "{}", r.text());

    // One use per customer by default: a second invoice of the same customer is refused
    // while the first one holds it.
    promo(&s, &["create", &acc, "ONE-EACH", "--amount-off", "10"]);
    let held = post_payment(&s, &format!("e-{}", rand_suffix()), &with_code("single", 1, "one-each"));
    assert_eq!(held.status, 201, "{}", held.text());
    refused("single", 1, "one-each", "PROMO_CODE_USED_UP");

    // Turned off, or past its last day: expired.
    promo(&s, &["disable", &acc, "one-each"]);
    refused("fresh", 1, "ONE-EACH", "PROMO_CODE_EXPIRED");
    no_client("fresh");
    let today = OffsetDateTime::now_utc().date();
    let last_day = today.next_day().unwrap().to_string();
    let created = promo(&s, &["create", &acc, "TWO-DAYS", "--amount-off", "1", "--expires", &last_day]);
    assert!(created["expires_at"].as_str().unwrap().starts_with(&today.next_day().unwrap().to_string()), "{created}");
    let yesterday = today.previous_day().unwrap().to_string();
    assert!(
        promo_refused(&s, &["create", &acc, "TOO-LATE", "--amount-off", "1", "--expires", &yesterday])
            .contains("last day has passed")
    );
    s.cli_settled(&["clock", "advance", "3d"]);
    refused("fresh", 1, "TWO-DAYS", "PROMO_CODE_EXPIRED");
    no_client("fresh");
}

fn a_use_is_held_while_payable_given_back_on_expiry_and_spent_when_paid(backend: Backend) {
    let Some(s) = Server::start_with(backend, "promo-uses", &[("VP_SHIFTED_CLOCK", "on")]) else { return };
    let acc = s.account_id.clone();
    promo(&s, &["create", &acc, "ONLY-ONE", "--amount-off", "20", "--max-uses", "1"]);
    let first = post_payment(&s, &format!("u1-{}", rand_suffix()), &with_code("first", 1, "ONLY-ONE"));
    assert_eq!(first.status, 201, "{}", first.text());
    assert_eq!(first.json()["amount"], "218.80");
    let r = post_payment(&s, &format!("u2-{}", rand_suffix()), &with_code("second", 1, "ONLY-ONE"));
    assert_eq!(r.code(), "PROMO_CODE_USED_UP", "the payable invoice holds the only use");
    assert_eq!(promo(&s, &["show", &acc, "ONLY-ONE"])["uses_held"], 1);

    // The first invoice expires unpaid: its use is given back.
    let now = OffsetDateTime::now_utc();
    jobs_at(&s, now + Duration::hours(2));
    let expired = s.api("GET", &format!("/payments/{}", first.json()["payment_id"].as_str().unwrap()), None, &[]);
    assert_eq!(expired.json()["status"], "expired", "{}", expired.text());
    assert_eq!(promo(&s, &["show", &acc, "ONLY-ONE"])["uses_held"], 0);
    let second = post_payment(&s, &format!("u3-{}", rand_suffix()), &with_code("second", 1, "only-one"));
    assert_eq!(second.status, 201, "the use came back: {}", second.text());
    pay(&s, second.json()["payment_id"].as_str().unwrap());
    let shown = promo(&s, &["show", &acc, "ONLY-ONE"]);
    assert_eq!((shown["uses_spent"].as_u64(), shown["uses_held"].as_u64()), (Some(1), Some(0)), "{shown}");
    let r = post_payment(&s, &format!("u4-{}", rand_suffix()), &with_code("third", 1, "ONLY-ONE"));
    assert_eq!(r.code(), "PROMO_CODE_USED_UP", "spent for good");

    // Two customers racing for the last use: exactly one invoice gets it.
    promo(&s, &["create", &acc, "RACE", "--amount-off", "1", "--max-uses", "1"]);
    let port_key = (s.port, s.key.clone());
    let racers: Vec<_> = (0..6)
        .map(|i| {
            let (port, key) = port_key.clone();
            std::thread::spawn(move || {
                let body = with_code(&format!("racer-{i}"), 1, "RACE");
                support::server::partner_request(
                    port,
                    &key,
                    "POST",
                    "/payments",
                    Some(&body),
                    &[("idempotency-key", &format!("race-{i}"))],
                )
            })
        })
        .collect();
    let outcomes: Vec<(u16, String)> =
        racers.into_iter().map(|t| t.join().unwrap()).map(|r| (r.status, r.code())).collect();
    let issued = outcomes.iter().filter(|(status, _)| *status == 201).count();
    assert_eq!(issued, 1, "{outcomes:?}");
    assert!(outcomes.iter().all(|(st, code)| *st == 201 || code == "PROMO_CODE_USED_UP"), "{outcomes:?}");
}
