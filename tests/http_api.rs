//! The partner API over real HTTP against the real binary, on SQLite and on PostgreSQL: every
//! endpoint and every error code of the spec.

use crate::support;

use serde_json::{Value, json};
use support::partner::{assert_panel_outage_503s, buy, pay, post_payment, subscription};
use support::server::{Backend, Response, Server, request};

/// Each test body runs once per backend; the PostgreSQL run is skipped loudly without a server.
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $name() { if let Some(s) = super::support::server::Server::start(super::Backend::Sqlite, stringify!($name)) { super::$name(&s) } } )*
        }
        mod postgres {
            $( #[test] fn $name() { if let Some(s) = super::support::server::Server::start(super::Backend::Postgres, stringify!($name)) { super::$name(&s) } } )*
        }
    };
}

/// Events need the shifted clock and a loopback receiver: each backend runs them on a server
/// started with the operator-only settings for tests.
mod events_sqlite {
    #[test]
    fn events_reach_the_partner_signed_and_term_events_follow_the_shifted_clock() {
        if let Some(s) = super::Server::start_with(super::Backend::Sqlite, "events", super::EVENT_TEST_ENV) {
            super::events_reach_the_partner_signed_and_term_events_follow_the_shifted_clock(&s)
        }
    }
}
mod events_postgres {
    #[test]
    fn events_reach_the_partner_signed_and_term_events_follow_the_shifted_clock() {
        if let Some(s) = super::Server::start_with(super::Backend::Postgres, "events", super::EVENT_TEST_ENV) {
            super::events_reach_the_partner_signed_and_term_events_follow_the_shifted_clock(&s)
        }
    }
}

mod crash_sqlite {
    #[test]
    fn an_attempt_cut_off_by_a_killed_process_is_made_again_after_restart() {
        if let Some(mut s) = super::Server::start_with(super::Backend::Sqlite, "crash", super::EVENT_TEST_ENV) {
            super::an_attempt_cut_off_by_a_killed_process_is_made_again_after_restart(&mut s)
        }
    }
}
mod crash_postgres {
    #[test]
    fn an_attempt_cut_off_by_a_killed_process_is_made_again_after_restart() {
        if let Some(mut s) = super::Server::start_with(super::Backend::Postgres, "crash", super::EVENT_TEST_ENV) {
            super::an_attempt_cut_off_by_a_killed_process_is_made_again_after_restart(&mut s)
        }
    }
}

const EVENT_TEST_ENV: &[(&str, &str)] =
    &[("VP_SHIFTED_CLOCK", "on"), ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"), ("VP_TERM_CHECK_SECONDS", "1")];

both!(
    account_is_read_and_renamed,
    every_authentication_failure_is_the_same_401,
    unknown_routes_wrong_methods_and_bad_bodies_get_the_envelope,
    plans_carry_the_partner_markup,
    payment_methods_follow_the_language,
    an_invoice_is_issued_replayed_and_paid_on_the_sandbox_page,
    idempotency_key_errors,
    concurrent_requests_with_one_key_issue_one_invoice,
    a_retry_waits_briefly_for_a_slow_first_request_then_gets_its_invoice_or_operation_in_progress,
    gateway_outage_gives_503_and_the_same_key_works_after,
    purpose_rules_give_their_codes,
    new_clients_daily_limit,
    invoices_and_clients_of_other_accounts_do_not_exist,
    clients_are_listed_filtered_and_paged,
    blocked_clients_answer_403_everywhere,
    trial_rules,
    link_rotation_rules_and_the_old_link_dies,
    devices_register_through_the_link_and_can_be_deleted,
    panel_outage_gives_503_on_devices_trial_and_rotation,
    apps_and_documents,
    rate_limits_answer_429_with_retry_after,
    openapi_is_served,
    input_is_accepted_exactly_as_the_document_describes_it,
);

fn account_is_read_and_renamed(s: &Server) {
    let a = s.api("GET", "/account", None, &[]);
    assert_eq!(a.status, 200);
    assert_eq!(
        a.json(),
        json!({"brand_name": "Demo VPN", "markup_percent": "20.00", "trial_enabled": true, "currency": "RUB"})
    );
    let r = s.api("PATCH", "/account", Some(&json!({"brand_name": "  Fast VPN  "})), &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["brand_name"], "Fast VPN");
    let r = s.api("PATCH", "/account", Some(&json!({"brand_name": "   "})), &[]);
    assert_eq!((r.status, r.code().as_str()), (422, "VALIDATION_ERROR"));
    assert!(r.json()["error"]["fields"]["brand_name"].is_string());
    let r = s.api("PATCH", "/account", Some(&json!({"brand_name": "X", "markup_percent": "99"})), &[]);
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["fields"]["markup_percent"], "unknown field");
    let r = s.api("PATCH", "/account", Some(&json!({"brand_name": "x".repeat(65)})), &[]);
    assert_eq!(r.status, 422);
    assert_eq!(s.api("GET", "/account", None, &[]).json()["brand_name"], "Fast VPN", "refusals changed nothing");
}

fn every_authentication_failure_is_the_same_401(s: &Server) {
    let other = s.cli(&["key", "issue", &s.account_id]);
    let revoked_key = other["api_key"].as_str().unwrap().to_owned();
    s.cli_settled(&["key", "revoke", other["key_id"].as_str().unwrap()]);
    let path = "/api/partner/v1/account";
    let missing = s.request("GET", path, &[], None);
    let wrong = s.request("GET", path, &[("authorization", "Bearer vpk_nope")], None);
    let revoked = s.request("GET", path, &[("authorization", &format!("Bearer {revoked_key}"))], None);
    let not_bearer = s.request("GET", path, &[("authorization", &format!("Basic {}", s.key))], None);
    s.cli_settled(&["account", "api-access", &s.account_id, "off"]);
    let disabled = s.request("GET", path, &[("authorization", &format!("Bearer {}", s.key))], None);
    s.cli_settled(&["account", "api-access", &s.account_id, "on"]);
    for r in [&missing, &wrong, &revoked, &not_bearer, &disabled] {
        assert_eq!(r.status, 401);
        assert_eq!(r.body, missing.body, "byte-identical bodies");
        assert_eq!(r.code(), "UNAUTHORIZED");
        assert_eq!(r.json()["error"]["fields"], Value::Null);
    }
    let ru = s.request("GET", path, &[("accept-language", "ru")], None);
    assert!(ru.json()["error"]["message"].as_str().unwrap().contains("Ключ"));
    assert_eq!(s.api("GET", "/account", None, &[]).status, 200);
}

fn unknown_routes_wrong_methods_and_bad_bodies_get_the_envelope(s: &Server) {
    let r = s.api("GET", "/nothing-here", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (404, "NOT_FOUND"));
    let r = s.api("PUT", "/account", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (405, "METHOD_NOT_ALLOWED"));
    assert_eq!(r.header("allow"), Some("GET, PATCH"));
    let auth = format!("Bearer {}", s.key);
    let path = "/api/partner/v1/account";
    let r =
        s.request("PATCH", path, &[("authorization", &auth), ("content-type", "application/json")], Some("{not json"));
    assert_eq!((r.status, r.code().as_str()), (422, "VALIDATION_ERROR"));
    assert!(r.json()["error"]["fields"]["body"].is_string());
    let r = s.request("PATCH", path, &[("authorization", &auth), ("content-type", "application/json")], Some("[1]"));
    assert_eq!(r.status, 422);
    let r = s.request("PATCH", path, &[("authorization", &auth), ("content-type", "text/plain")], Some("{}"));
    assert_eq!((r.status, r.code().as_str()), (415, "UNSUPPORTED_MEDIA_TYPE"));
    let big = format!("{{\"brand_name\": \"{}\"}}", "a".repeat(20_000));
    let r = s.request("PATCH", path, &[("authorization", &auth), ("content-type", "application/json")], Some(&big));
    assert_eq!((r.status, r.code().as_str()), (413, "PAYLOAD_TOO_LARGE"));
    let r = s.request("GET", "/api/partner/v1/nothing", &[("accept-language", "ru")], None);
    assert_eq!(r.json()["error"]["message"], "Такого адреса нет.");
}

fn plans_carry_the_partner_markup(s: &Server) {
    let p = s.api("GET", "/plans", None, &[]).json();
    assert_eq!(p["currency"], "RUB");
    assert_eq!(
        p["plans"][0],
        json!({"plan_id": 1, "months": 1, "lifetime": false, "price": "238.80", "platform_price": "199.00", "partner_share": "39.80", "traffic_limit": null})
    );
    assert_eq!(p["plans"].as_array().unwrap().len(), 5);
    assert_eq!(p["plans"][4]["lifetime"], true);
    assert_eq!(
        p["devices"],
        json!({"included": 3, "max": 10, "price": "58.80", "platform_price": "49.00", "partner_share": "9.80"})
    );
    s.cli_settled(&["account", "set-markup", &s.account_id, "12.5"]);
    s.cli(&["devices", "off"]);
    s.cli(&["plan", "withdraw", "2"]);
    let p = s.api("GET", "/plans", None, &[]).json();
    assert_eq!(p["plans"][0]["price"], "223.88", "199.00 + 24.875 rounded half-up");
    assert_eq!(p["devices"], Value::Null);
    assert!(p["plans"].as_array().unwrap().iter().all(|x| x["plan_id"] != 2));
}

fn payment_methods_follow_the_language(s: &Server) {
    let en = s.api("GET", "/payment-methods", None, &[]).json();
    assert_eq!(
        en,
        json!({"payment_methods": [{"code": "card", "name": "Bank card"}, {"code": "sbp", "name": "SBP (Faster Payments)"}]})
    );
    let ru = s.api("GET", "/payment-methods", None, &[("accept-language", "ru-RU,ru;q=0.9")]).json();
    assert_eq!(ru["payment_methods"][0]["name"], "Банковская карта");
    s.cli(&["method", "disable", "sbp"]);
    let en = s.api("GET", "/payment-methods", None, &[("accept-language", "de")]).json();
    assert_eq!(en["payment_methods"].as_array().unwrap().len(), 1);
    assert_eq!(en["payment_methods"][0]["name"], "Bank card");
}

fn an_invoice_is_issued_replayed_and_paid_on_the_sandbox_page(s: &Server) {
    let body = json!({"client_id": "tg:1", "purpose": "subscription", "plan_id": 1, "method": "card", "return_url": "https://shop.example/back"});
    let r = post_payment(s, "order-1", &body);
    assert_eq!(r.status, 201, "{}", r.text());
    let inv = r.json();
    assert_eq!(inv["status"], "pending");
    assert_eq!(inv["replayed"], false);
    assert_eq!(
        (inv["amount"].as_str(), inv["platform_amount"].as_str(), inv["partner_share"].as_str()),
        (Some("238.80"), Some("199.00"), Some("39.80"))
    );
    assert_eq!(
        (inv["plan_id"].clone(), inv["devices"].clone(), inv["client"].clone()),
        (json!(1), Value::Null, Value::Null)
    );
    let url = inv["payment_url"].as_str().unwrap();
    let id = inv["payment_id"].as_str().unwrap();
    assert!(url.ends_with(&format!("/sandbox/pay/{id}")));
    // Same fields in another key order: a replay.
    let reordered = json!({"method": "card", "return_url": "https://shop.example/back", "plan_id": 1, "purpose": "subscription", "client_id": "tg:1"});
    let again = post_payment(s, "order-1", &reordered);
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["replayed"], true);
    assert_eq!(again.json()["payment_id"], inv["payment_id"]);
    // The hosted page shows brand, amount, method and documents.
    let page = s.get_raw(&format!("/sandbox/pay/{id}"), &[]);
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(
        html.contains("Demo VPN")
            && html.contains("238.80")
            && html.contains("Bank card")
            && html.contains("Terms of service")
    );
    pay(s, id);
    let paid = s.api("GET", &format!("/payments/{id}"), None, &[]).json();
    assert_eq!(paid["status"], "succeeded");
    assert_eq!(paid["payment_url"], Value::Null);
    assert!(paid["paid_at"].is_string());
    let sub = &paid["client"]["subscription"];
    assert_eq!(sub["status"], "active");
    assert_eq!(sub["is_trial"], false);
    assert_eq!(sub["devices_limit"], 3);
    assert!(sub["subscription_url"].as_str().unwrap().contains("/sub/"));
    assert_eq!(sub["connect"].as_array().unwrap().len(), 4);
    assert!(sub["connect"][0]["connect_url"].as_str().unwrap().contains("/connect/"));
    let client = s.api("GET", "/clients/tg:1", None, &[]).json();
    assert_eq!(client["subscription"]["subscription_url"], sub["subscription_url"]);
    assert_eq!(client["trial_available"], false);
    // Renewal: the term grows, the link stays.
    let renewed = buy(s, "tg:1", 1);
    assert_eq!(renewed["client"]["subscription"]["subscription_url"], sub["subscription_url"]);
    assert!(renewed["client"]["subscription"]["days_left"].as_i64().unwrap() > sub["days_left"].as_i64().unwrap() + 27);
    assert_eq!(s.api("GET", "/payments/pay_unknown", None, &[]).code(), "PAYMENT_NOT_FOUND");
    let not_an_id = s.api("GET", "/payments/acc_demo", None, &[]);
    assert_eq!(not_an_id.status, 404, "text that is no payment id names no invoice");
    assert_eq!(not_an_id.code(), "PAYMENT_NOT_FOUND");
    // The connect page opens the app with the link.
    let connect = s.get_raw(sub["connect"][0]["connect_url"].as_str().unwrap().trim_start_matches(&s.base), &[]);
    assert_eq!(connect.status, 200);
    assert!(connect.text().contains("happ://add/http"));
}

fn idempotency_key_errors(s: &Server) {
    let body = subscription("k1", 1);
    let r = s.api("POST", "/payments", Some(&body), &[]);
    assert_eq!((r.status, r.code().as_str()), (400, "IDEMPOTENCY_KEY_REQUIRED"));
    let r = post_payment(s, "", &body);
    assert_eq!(r.code(), "IDEMPOTENCY_KEY_REQUIRED");
    let r = post_payment(s, &"k".repeat(201), &body);
    assert_eq!((r.status, r.code().as_str()), (400, "IDEMPOTENCY_KEY_TOO_LONG"));
    assert_eq!(post_payment(s, &"k".repeat(200), &body).status, 201);
    let r = post_payment(s, &"k".repeat(200), &subscription("k1", 2));
    assert_eq!((r.status, r.code().as_str()), (409, "IDEMPOTENCY_KEY_REUSE"));
    let r = post_payment(
        s,
        "v",
        &json!({"purpose": "subscription", "plan_id": 0, "devices": 1, "method": "", "extra": 1, "return_url": "http://x"}),
    );
    assert_eq!(r.status, 422);
    let fields = r.json()["error"]["fields"].clone();
    for f in ["client_id", "plan_id", "devices", "method", "extra", "return_url"] {
        assert!(fields[f].is_string(), "{f} named in {fields}");
    }
    let r = post_payment(s, "v2", &json!({"client_id": "..", "purpose": "devices", "plan_id": 1, "method": "card"}));
    let fields = r.json()["error"]["fields"].clone();
    assert!(fields["client_id"].is_string() && fields["plan_id"].is_string() && fields["devices"].is_string());
    let r = post_payment(s, "v3", &json!({"client_id": "a", "purpose": "gift", "method": "card"}));
    assert!(r.json()["error"]["fields"]["purpose"].is_string());
}

fn concurrent_requests_with_one_key_issue_one_invoice(s: &Server) {
    let port = s.port;
    let auth = format!("Bearer {}", s.key);
    let body = subscription("race", 1).to_string();
    let results: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (auth, body) = (auth.clone(), body.clone());
                scope.spawn(move || {
                    let r = request(
                        port,
                        "POST",
                        "/api/partner/v1/payments",
                        &[("authorization", &auth), ("content-type", "application/json"), ("idempotency-key", "same")],
                        Some(body.as_bytes()),
                    );
                    (r.status, r.json())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let created: Vec<_> = results.iter().filter(|(st, _)| *st == 201).collect();
    assert_eq!(created.len(), 1, "{results:?}");
    let id = &created[0].1["payment_id"];
    for (status, body) in &results {
        match status {
            201 | 200 => assert_eq!(&body["payment_id"], id),
            409 => assert_eq!(body["error"]["code"], "OPERATION_IN_PROGRESS"),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    let page = s.cli(&["client", "show", &s.account_id, "race"]);
    assert_eq!(page["client_id"], "race");
}

/// `POST /payments` with `key` from another thread; its answer when it comes.
fn post_in_background(s: &Server, key: &'static str) -> std::thread::JoinHandle<Response> {
    let (port, auth, body) = (s.port, format!("Bearer {}", s.key), subscription("slow", 1).to_string());
    std::thread::spawn(move || {
        let headers =
            [("authorization", auth.as_str()), ("content-type", "application/json"), ("idempotency-key", key)];
        request(port, "POST", "/api/partner/v1/payments", &headers, Some(body.as_bytes()))
    })
}

fn a_retry_waits_briefly_for_a_slow_first_request_then_gets_its_invoice_or_operation_in_progress(s: &Server) {
    // Far slower than a retry waits (2 s): the retry answers 409, while the first request
    // renews its key's lease (3 s) and issues the invoice.
    s.cli_settled(&["sandbox", "gateway", "slow:6000"]);
    let first = post_in_background(s, "slow-key");
    std::thread::sleep(std::time::Duration::from_millis(1_000));
    let second = post_payment(s, "slow-key", &subscription("slow", 1));
    assert_eq!((second.status, second.code().as_str()), (409, "OPERATION_IN_PROGRESS"));
    assert_eq!(first.join().unwrap().status, 201);

    // About to finish: the retry waits for it and gets its invoice, replayed.
    s.cli_settled(&["sandbox", "gateway", "slow:2500"]);
    let first = post_in_background(s, "slow-key-2");
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let second = post_payment(s, "slow-key-2", &subscription("slow", 1));
    assert_eq!((second.status, second.json()["replayed"].clone()), (200, json!(true)), "{}", second.text());
    let first = first.join().unwrap();
    assert_eq!(first.status, 201);
    assert_eq!(second.json()["payment_id"], first.json()["payment_id"], "one invoice");

    s.cli_settled(&["sandbox", "gateway", "up"]);
    let third = post_payment(s, "slow-key", &subscription("slow", 1));
    assert_eq!((third.status, third.json()["replayed"].clone()), (200, json!(true)));
}

fn gateway_outage_gives_503_and_the_same_key_works_after(s: &Server) {
    s.cli_settled(&["sandbox", "gateway", "down"]);
    let r = post_payment(s, "retry-me", &subscription("g1", 1));
    assert_eq!((r.status, r.code().as_str()), (503, "PAYMENT_UNAVAILABLE"));
    assert_eq!(s.api("GET", "/clients/g1", None, &[]).code(), "API_CLIENT_NOT_FOUND", "no invoice issued, no client");
    s.cli_settled(&["sandbox", "gateway", "up"]);
    let r = post_payment(s, "retry-me", &subscription("g1", 1));
    assert_eq!(r.status, 201);
    assert_eq!(r.json()["replayed"], false);
}

fn purpose_rules_give_their_codes(s: &Server) {
    let devices =
        |client: &str, n: i64| json!({"client_id": client, "purpose": "devices", "devices": n, "method": "card"});
    let r = post_payment(s, "d0", &devices("p1", 1));
    assert_eq!((r.status, r.code().as_str()), (400, "NO_ACTIVE_SUBSCRIPTION"));
    buy(s, "p1", 1);
    let r = post_payment(s, "d1", &devices("p1", 8));
    assert_eq!((r.status, r.code().as_str()), (400, "DEVICE_SLOT_LIMIT_EXCEEDED"));
    let r = post_payment(s, "d2", &devices("p1", 2));
    assert_eq!(r.status, 201);
    assert_eq!((r.json()["amount"].as_str(), r.json()["devices"].clone()), (Some("117.60"), json!(2)));
    buy(s, "life", 5);
    let r = post_payment(s, "d3", &devices("life", 1));
    assert_eq!((r.status, r.code().as_str()), (400, "DEVICE_SLOTS_NOT_APPLICABLE"));
    let r = post_payment(s, "d3b", &subscription("life", 1));
    assert_eq!((r.status, r.code().as_str()), (409, "LIFETIME_SUBSCRIPTION"));
    s.cli_settled(&["devices", "off"]);
    let r = post_payment(s, "d4", &devices("p1", 1));
    assert_eq!((r.status, r.code().as_str()), (409, "DEVICES_NOT_FOR_SALE"));
    s.cli_settled(&["method", "disable", "card"]);
    let r = post_payment(s, "m1", &subscription("p1", 1));
    assert_eq!((r.status, r.code().as_str()), (400, "UNSUPPORTED_PAYMENT_METHOD"));
    let r = post_payment(
        s,
        "m2",
        &json!({"client_id": "p1", "purpose": "subscription", "plan_id": 1, "method": "bitcoin"}),
    );
    assert_eq!(r.code(), "UNSUPPORTED_PAYMENT_METHOD");
    s.cli(&["method", "enable", "card"]);
    s.cli_settled(&["plan", "withdraw", "3"]);
    for plan in [3, 999] {
        let r = post_payment(s, &format!("pl{plan}"), &subscription("p1", plan));
        assert_eq!((r.status, r.code().as_str()), (404, "PLAN_NOT_FOUND"));
    }
    let r = post_payment(
        s,
        "url",
        &json!({"client_id": "p1", "purpose": "subscription", "plan_id": 1, "method": "card", "return_url": "http://shop.example"}),
    );
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["fields"]["return_url"], "must be an https URL");
}

fn new_clients_daily_limit(s: &Server) {
    s.cli_settled(&["account", "limits", &s.account_id, "--new-clients-per-day", "2"]);
    assert_eq!(post_payment(s, "n1", &subscription("n1", 1)).status, 201);
    assert_eq!(s.api("POST", "/clients/n2/trial", None, &[]).status, 201);
    let r = post_payment(s, "n3", &subscription("n3", 1));
    assert_eq!((r.status, r.code().as_str()), (429, "NEW_CLIENTS_DAILY_LIMIT"));
    assert_eq!(r.header("retry-after"), None);
    assert_eq!(post_payment(s, "n4", &subscription("n1", 2)).status, 201, "existing clients are not new");
}

fn invoices_and_clients_of_other_accounts_do_not_exist(s: &Server) {
    let inv = post_payment(s, "mine", &subscription("shared-id", 1)).json();
    let other = s.cli(&["account", "create", "--brand", "Other"]);
    let other_key = format!("Bearer {}", other["api_key"]["api_key"].as_str().unwrap());
    let get = |path: &str| s.request("GET", &format!("/api/partner/v1{path}"), &[("authorization", &other_key)], None);
    assert_eq!(get(&format!("/payments/{}", inv["payment_id"].as_str().unwrap())).code(), "PAYMENT_NOT_FOUND");
    assert_eq!(get("/clients/shared-id").code(), "API_CLIENT_NOT_FOUND");
    assert_eq!(get("/clients/shared-id/devices").code(), "API_CLIENT_NOT_FOUND");
    assert_eq!(get("/clients").json()["clients"], json!([]));
}

fn clients_are_listed_filtered_and_paged(s: &Server) {
    buy(s, "c-active", 1);
    post_payment(s, "c2", &subscription("c-pending", 1));
    s.api("POST", "/clients/c-trial/trial", None, &[]);
    let all = s.api("GET", "/clients?limit=2", None, &[]).json();
    assert_eq!(all["clients"].as_array().unwrap().len(), 2);
    assert_eq!(all["has_more"], true);
    let next = all["next_cursor"].as_str().unwrap();
    let rest = s.api("GET", &format!("/clients?limit=2&cursor={next}"), None, &[]).json();
    assert_eq!(rest["clients"].as_array().unwrap().len(), 1);
    assert_eq!((rest["has_more"].clone(), rest["next_cursor"].clone()), (json!(false), Value::Null));
    let ids = |v: &Value| {
        v["clients"].as_array().unwrap().iter().map(|c| c["client_id"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    let mut seen = ids(&all);
    seen.extend(ids(&rest));
    assert_eq!(seen, ["c-active", "c-pending", "c-trial"]);
    assert_eq!(ids(&s.api("GET", "/clients?status=active", None, &[]).json()), ["c-active", "c-trial"]);
    assert_eq!(ids(&s.api("GET", "/clients?status=none", None, &[]).json()), ["c-pending"]);
    assert_eq!(ids(&s.api("GET", "/clients?status=expired", None, &[]).json()), Vec::<String>::new());
    for bad in
        ["/clients?status=gone", "/clients?limit=0", "/clients?limit=101", "/clients?cursor=zzz", "/clients?page=2"]
    {
        let r = s.api("GET", bad, None, &[]);
        assert_eq!((r.status, r.code().as_str()), (422, "VALIDATION_ERROR"), "{bad}");
    }
    assert_eq!(s.api("GET", "/clients/nobody", None, &[]).code(), "API_CLIENT_NOT_FOUND");
    assert_eq!(s.api("GET", "/clients/..", None, &[]).status, 422);
}

/// The edges of the document's rules (docs/openapi.json), each on both sides.
fn input_is_accepted_exactly_as_the_document_describes_it(s: &Server) {
    let rename = |name: &str| s.api("PATCH", "/account", Some(&json!({ "brand_name": name })), &[]);
    assert_eq!(rename(&format!("  {}  ", "n".repeat(60))).status, 200, "64 characters as sent");
    let r = rename(&format!("  {}  ", "n".repeat(61)));
    assert_eq!((r.status, r.json()["error"]["fields"]["brand_name"].is_string()), (422, true), "65 as sent");
    assert_eq!(rename("\tTabbed").status, 422, "a control character, even where trimming would drop it");
    assert_eq!(s.api("GET", "/account", None, &[]).json()["brand_name"], "n".repeat(60));

    let mut body = subscription("doc-edges", 1);
    body["return_url"] = Value::Null;
    let r = post_payment(s, "edge-null", &body);
    assert_eq!((r.status, r.json()["error"]["fields"]["return_url"].is_string()), (422, true), "null is refused");
    let r = s.api("POST", "/payments", Some(&subscription("doc-edges", 1)), &[("idempotency-key", "tab\there")]);
    assert_eq!((r.status, r.json()["error"]["fields"]["Idempotency-Key"].is_string()), (422, true));
    let mut whole = subscription("doc-edges", 1);
    whole["plan_id"] = json!(1.0);
    assert_eq!(post_payment(s, "edge-whole", &whole).status, 201, "1.0 is the integer 1, as JSON Schema says");
    let mut fraction = subscription("doc-edges", 1);
    fraction["plan_id"] = json!(1.5);
    assert_eq!(post_payment(s, "edge-fraction", &fraction).status, 422);

    // Any cursor of the documented shape is a position; other shapes are refused.
    let page = s.api("GET", "/clients?cursor=0.anything_of-the-shape", None, &[]);
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(s.api("GET", &format!("/clients?cursor={}.x", "9".repeat(19)), None, &[]).json()["clients"], json!([]));
    assert_eq!(s.api("GET", "/clients?cursor=12.a%20b", None, &[]).status, 422);
}

fn blocked_clients_answer_403_everywhere(s: &Server) {
    buy(s, "bad", 1);
    s.cli(&["client", "block", &s.account_id, "bad"]);
    for (method, path) in [
        ("GET", "/clients/bad"),
        ("GET", "/clients/bad/devices"),
        ("DELETE", "/clients/bad/devices/x"),
        ("POST", "/clients/bad/trial"),
        ("POST", "/clients/bad/rotate-link"),
    ] {
        let r = s.api(method, path, None, &[]);
        assert_eq!((r.status, r.code().as_str()), (403, "API_CLIENT_BLOCKED"), "{method} {path}");
    }
    let r = post_payment(s, "blocked", &subscription("bad", 1));
    assert_eq!(r.code(), "API_CLIENT_BLOCKED");
    s.cli(&["client", "unblock", &s.account_id, "bad"]);
    assert_eq!(s.api("GET", "/clients/bad", None, &[]).status, 200);
}

fn trial_rules(s: &Server) {
    let r = s.api("POST", "/clients/t1/trial", None, &[]);
    assert_eq!(r.status, 201, "{}", r.text());
    let c = r.json();
    assert_eq!(c["subscription"]["is_trial"], true);
    assert_eq!(c["subscription"]["days_left"], 3);
    assert_eq!(c["trial_available"], false);
    let r = s.api("POST", "/clients/t1/trial", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (409, "TRIAL_ALREADY_USED"));
    assert_eq!(s.api("GET", "/clients/t1", None, &[]).json()["subscription"]["is_trial"], true);
    s.cli_settled(&["account", "limits", &s.account_id, "--trials-per-day", "1"]);
    let r = s.api("POST", "/clients/t2/trial", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (429, "TRIAL_DAILY_LIMIT"));
    assert_eq!(r.header("retry-after"), None);
    s.cli_settled(&["account", "trial", &s.account_id, "off"]);
    let r = s.api("POST", "/clients/t3/trial", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (403, "TRIAL_DISABLED"));
    post_payment(s, "tp", &subscription("t4", 1));
    assert_eq!(
        s.api("GET", "/clients/t4", None, &[]).json()["trial_available"],
        false,
        "trials are off for the account"
    );
}

fn link_rotation_rules_and_the_old_link_dies(s: &Server) {
    post_payment(s, "r0", &subscription("r1", 1));
    let r = s.api("POST", "/clients/r1/rotate-link", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (400, "NO_ACTIVE_SUBSCRIPTION"));
    let paid = buy(s, "r1", 1);
    let old = paid["client"]["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    let old_path = old.trim_start_matches(&s.base).to_owned();
    assert_eq!(s.get_raw(&old_path, &[("x-hwid", "h1")]).status, 200);
    let r = s.api("POST", "/clients/r1/rotate-link", None, &[]);
    assert_eq!(r.status, 200);
    let new = r.json()["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    assert_ne!(new, old);
    assert_eq!(r.json()["subscription"]["status"], "active", "rotation keeps the status");
    assert_eq!(s.get_raw(&old_path, &[("x-hwid", "h1")]).status, 404, "the old link stops at once");
    assert_eq!(s.get_raw(new.trim_start_matches(&s.base), &[("x-hwid", "h1")]).status, 200);
    let r = s.api("POST", "/clients/r1/rotate-link", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (429, "LINK_ROTATE_TOO_SOON"));
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((3500..=3600).contains(&wait), "{wait}");
}

fn devices_register_through_the_link_and_can_be_deleted(s: &Server) {
    let r = s.api("GET", "/clients/nosub/devices", None, &[]);
    assert_eq!(r.code(), "API_CLIENT_NOT_FOUND");
    post_payment(s, "dv0", &subscription("dv", 1));
    assert_eq!(
        s.api("GET", "/clients/dv/devices", None, &[]).json(),
        json!({"devices_count": 0, "devices_limit": null, "devices": []})
    );
    let paid = buy(s, "dv", 1);
    let link =
        paid["client"]["subscription"]["subscription_url"].as_str().unwrap().trim_start_matches(&s.base).to_owned();
    assert_eq!(s.get_raw(&link, &[]).status, 400, "a limited subscription needs x-hwid");
    for (i, hwid) in ["hw/1 a", "hw-2", "hw-3"].iter().enumerate() {
        let r = s.get_raw(
            &link,
            &[
                ("x-hwid", hwid),
                ("x-device-os", "iOS"),
                ("x-ver-os", "17.2"),
                ("x-device-model", &format!("iPhone {i}")),
            ],
        );
        assert_eq!(r.status, 200, "{}", r.text());
        assert!(r.header("subscription-userinfo").unwrap().contains("expire="));
    }
    assert_eq!(s.get_raw(&link, &[("x-hwid", "hw-4")]).status, 403, "the fourth device is over the limit");
    assert_eq!(s.get_raw(&link, &[("x-hwid", "hw-2")]).status, 200, "a known device keeps working");
    let list = s.api("GET", "/clients/dv/devices", None, &[]).json();
    assert_eq!((list["devices_count"].clone(), list["devices_limit"].clone()), (json!(3), json!(3)));
    assert_eq!(list["devices"][0]["device_id"], "hw/1 a");
    assert_eq!(
        (list["devices"][0]["platform"].as_str(), list["devices"][0]["model"].as_str()),
        (Some("iOS"), Some("iPhone 0"))
    );
    let r = s.api("DELETE", "/clients/dv/devices/hw%2F1%20a", None, &[]);
    assert_eq!(r.status, 204, "{}", r.text());
    let r = s.api("DELETE", "/clients/dv/devices/hw%2F1%20a", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (404, "DEVICE_NOT_FOUND"));
    assert_eq!(s.get_raw(&link, &[("x-hwid", "hw-4")]).status, 200, "the freed slot is taken");
}

fn panel_outage_gives_503_on_devices_trial_and_rotation(s: &Server) {
    let paid = buy(s, "po", 1);
    let url = paid["client"]["subscription"]["subscription_url"].clone();
    s.cli_settled(&["sandbox", "panel", "down"]);
    assert_panel_outage_503s(s, "po");
    s.cli_settled(&["sandbox", "panel", "up"]);
    assert_eq!(
        s.api("GET", "/clients/po", None, &[]).json()["subscription"]["subscription_url"],
        url,
        "link unchanged"
    );
    assert_eq!(s.api("POST", "/clients/po/rotate-link", None, &[]).status, 200, "the pause did not start");
    assert_eq!(s.api("POST", "/clients/new-trial/trial", None, &[]).status, 201);
}

fn apps_and_documents(s: &Server) {
    let apps = s.api("GET", "/apps", None, &[("accept-language", "ru")]).json();
    assert_eq!(apps["recommended_app_id"], "happ");
    assert_eq!(apps["downloads"]["ios"]["app_id"], "happ");
    assert_eq!(apps["downloads"]["ios"]["label"], "Скачать Happ для iOS");
    assert_eq!(apps["platforms"].as_array().unwrap().len(), 5);
    let docs = s.api("GET", "/documents", None, &[]).json();
    let list = docs["documents"].as_array().unwrap();
    assert_eq!(
        list.iter().map(|d| d["type"].as_str().unwrap()).collect::<Vec<_>>(),
        ["terms_of_service", "privacy_policy"]
    );
    assert_eq!(list[0]["title"], "Terms of service");
    let ru = s.api("GET", "/documents", None, &[("accept-language", "ru")]).json();
    assert_eq!(ru["documents"][1]["title"], "Политика конфиденциальности");
    let page = s.get_raw(ru["documents"][0]["url"].as_str().unwrap().trim_start_matches(&s.base), &[]);
    assert_eq!(page.status, 200, "served without a key");
    assert!(page.text().contains("Demo VPN") && page.text().contains("Пользовательское соглашение"));
}

fn rate_limits_answer_429_with_retry_after(s: &Server) {
    s.cli_settled(&["account", "limits", &s.account_id, "--requests-per-minute", "4", "--payments-per-minute", "1"]);
    // A fresh server process would start with empty windows; this one counts from now.
    assert_eq!(post_payment(s, "rl1", &subscription("rl", 1)).status, 201);
    let r = post_payment(s, "rl2", &subscription("rl", 1));
    assert_eq!((r.status, r.code().as_str()), (429, "RATE_LIMITED"));
    let secs: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&secs));
    // The router decodes `%70` to `p`: the same operation, so the same payment window.
    let r = s.api("POST", "/%70ayments", Some(&subscription("rl", 1)), &[("idempotency-key", "rl3")]);
    assert_eq!((r.status, r.code().as_str()), (429, "RATE_LIMITED"), "a percent-encoded path is a payment too");
    assert_eq!(s.api("GET", "/account", None, &[]).status, 200, "the fourth request of the minute");
    let r = s.api("GET", "/account", None, &[]);
    assert_eq!((r.status, r.code().as_str()), (429, "RATE_LIMITED"), "the fifth is over 4");
    assert!(r.header("retry-after").is_some());
}

fn openapi_is_served(s: &Server) {
    let r = s.get_raw("/api/partner/v1/openapi.json", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.text().trim(), include_str!("../docs/openapi.json").trim());
    assert_eq!(s.get_raw("/ready", &[]).status, 200);
}

fn events_reach_the_partner_signed_and_term_events_follow_the_shifted_clock(s: &Server) {
    use std::time::Duration;

    let receiver = support::receiver::Receiver::start();
    let types = "payment.succeeded,subscription.expiring,subscription.expired";
    let endpoint = s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", types]);
    let (id, secret) = (endpoint["endpoint_id"].as_str().unwrap(), endpoint["secret"].as_str().unwrap().to_owned());
    assert!(secret.starts_with("whsec_"));

    let test = s.cli(&["endpoint", "test", id]);
    assert_eq!(test["status_code"], 200, "the response code is shown: {test}");
    let delivered = receiver.next_of("webhook.test", Duration::from_secs(5));
    assert_eq!(delivered.json()["data"], json!({}));

    let paid = buy(s, "ev1", 1);
    let event = receiver.next_of("payment.succeeded", Duration::from_secs(15));
    assert!(event.header("webhook-id").starts_with("msg_"));
    assert!(event.signed_by(&secret), "signed: {:?}", event.headers);
    let data = &event.json()["data"];
    let mut expected = paid.clone();
    expected["replayed"] = json!(false);
    assert_eq!(data, &expected, "the payment exactly as GET /payments/{{id}} returns it");

    // The term is one month; the shifted clock moves the service to each threshold.
    let ends = time::OffsetDateTime::parse(
        paid["client"]["subscription"]["expires_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let left = ends - time::OffsetDateTime::now_utc();
    let advance = |to_left: time::Duration| {
        let offset = s.cli(&["clock", "show"])["offset_seconds"].as_i64().unwrap();
        let by = left - to_left - time::Duration::seconds(offset);
        s.cli(&["clock", "advance", &format!("{}s", by.whole_seconds())]);
    };
    advance(time::Duration::hours(60));
    let expiring = receiver.next_of("subscription.expiring", Duration::from_secs(20)).json();
    assert_eq!(expiring["data"]["threshold_hours"], 72);
    assert_eq!(expiring["data"]["client"]["client_id"], "ev1");
    advance(time::Duration::hours(20));
    assert_eq!(
        receiver.next_of("subscription.expiring", Duration::from_secs(20)).json()["data"]["threshold_hours"],
        24
    );
    advance(time::Duration::minutes(-10));
    let expired = receiver.next_of("subscription.expired", Duration::from_secs(20)).json();
    assert_eq!(expired["data"]["client"]["subscription"]["status"], "expired");
    let log = s.cli(&["endpoint", "deliveries", id]);
    assert!(log["attempts"].as_array().unwrap().len() >= 5, "{log}");
}

fn an_attempt_cut_off_by_a_killed_process_is_made_again_after_restart(s: &mut Server) {
    use std::time::Duration;

    let receiver = support::receiver::Receiver::start_hanging(1);
    s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", "payment.succeeded"]);
    buy(s, "crash1", 1);
    let first = receiver.next_of("payment.succeeded", Duration::from_secs(15));
    // The partner's server has the request but has not answered: the process dies now.
    s.kill_and_restart();
    // The dead worker's lease (60 s) runs out; the new process makes the attempt again.
    s.cli(&["clock", "advance", "2m"]);
    let again = receiver.next_of("payment.succeeded", Duration::from_secs(20));
    assert_eq!(again.header("webhook-id"), first.header("webhook-id"), "the same event");
    assert_eq!(again.body, first.body, "byte-identical");
}
