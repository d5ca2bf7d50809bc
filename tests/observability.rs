//! What operators see of the real binary: `GET /metrics` (behind its token on the main listener,
//! or alone on its own), `X-Request-Id` on every response and on every log line of the request,
//! JSON logs, and no secret, key or card number in any log line.

use crate::support;

use serde_json::{Value, json};
use support::partner::{pay, post_payment, subscription};
use support::server::{Backend, METRICS_TOKEN, Server, request, sample};

each_backend!(metrics_count_requests_invoices_and_calls_and_read_the_backlog_behind_the_token);

fn metrics_count_requests_invoices_and_calls_and_read_the_backlog_behind_the_token(backend: Backend) {
    let env = [("VP_METRICS_TOKEN", METRICS_TOKEN), ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(backend, "metrics", &env) else { return };
    for auth in [None, Some("Bearer wrong-token-of-the-same-len-0123456"), Some("Basic abc")] {
        let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("authorization", *a)).collect();
        let r = s.get_raw("/metrics", &headers);
        assert_eq!((r.status, r.code().as_str()), (401, "UNAUTHORIZED"), "{auth:?}");
    }
    assert_eq!(s.api("GET", "/account", None, &[]).status, 200);
    assert_eq!(s.api("GET", "/%61ccount", None, &[]).status, 200, "routed as /account");
    let issued = post_payment(&s, "m-1", &subscription("metrics-client", 1));
    assert_eq!(issued.status, 201);
    assert_eq!(post_payment(&s, "m-1", &subscription("metrics-client", 1)).status, 200, "a replay");
    assert_eq!(post_payment(&s, "m-2", &subscription("metrics-client", 999)).status, 404, "PLAN_NOT_FOUND");
    // An endpoint nobody answers: its delivery stays pending, due again later.
    s.cli(&["endpoint", "add", &s.account_id, "http://127.0.0.1:9/hook", "--type", "payment.succeeded"]);
    pay(&s, issued.json()["payment_id"].as_str().unwrap());

    let text = s.metrics();
    let route = |method: &str, route: &str, status: u16| {
        format!(r#"vp_http_request_duration_seconds_count{{method="{method}",route="{route}",status="{status}"}}"#)
    };
    assert_eq!(sample(&text, &route("GET", "/api/partner/v1/account", 200)), Some(2.0), "{text}");
    assert_eq!(sample(&text, &route("POST", "/api/partner/v1/payments", 201)), Some(1.0));
    assert_eq!(sample(&text, &route("POST", "/api/partner/v1/payments", 404)), Some(1.0));
    assert_eq!(sample(&text, &route("GET", "unmatched", 401)), None, "/metrics is a route");
    assert_eq!(sample(&text, &route("GET", "/metrics", 401)), Some(3.0));
    assert_eq!(sample(&text, r#"vp_invoices_created_total{outcome="issued"}"#), Some(1.0));
    assert_eq!(sample(&text, r#"vp_invoices_created_total{outcome="replayed"}"#), Some(1.0));
    assert_eq!(sample(&text, r#"vp_invoices_created_total{outcome="refused"}"#), Some(1.0));
    assert_eq!(sample(&text, r#"vp_invoices_settled_total{status="succeeded"}"#), Some(1.0));
    let create = r#"vp_external_call_duration_seconds_count{gateway="sandbox",operation="create_payment",outcome="ok",system="gateway"}"#;
    assert_eq!(sample(&text, create), Some(1.0));
    assert!(text.contains(r#"system="panel""#), "the local panel's pushes are timed too");
    assert!(sample(&text, "vp_deliveries_pending").is_some_and(|n| n >= 1.0), "{text}");
    assert!(sample(&text, "vp_outbox_lag_seconds").is_some_and(|s| s >= 0.0));
    assert_eq!(sample(&text, "vp_db_pool_max_connections"), Some(8.0));
    assert_eq!(sample(&text, "vp_limiter_fallbacks_total"), Some(0.0));
}

#[test]
fn without_a_token_metrics_are_only_on_their_own_listener() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let bind = format!("127.0.0.1:{port}");
    let Some(s) = Server::start_with(Backend::Sqlite, "metrics_bind", &[("VP_METRICS_BIND", &bind)]) else { return };
    assert_eq!(s.get_raw("/metrics", &[]).status, 404, "not on the main listener without VP_METRICS_TOKEN");
    let r = request(port, "GET", "/metrics", &[], None);
    assert_eq!(r.status, 200);
    assert!(r.text().contains("# TYPE vp_http_request_duration_seconds histogram"));
    let other =
        request(port, "GET", "/api/partner/v1/account", &[("authorization", &format!("Bearer {}", s.key))], None);
    assert_eq!((other.status, other.code().as_str()), (404, "NOT_FOUND"), "the metrics listener serves nothing else");
}

/// The JSON log lines the server wrote.
fn json_lines(log: &str) -> Vec<Value> {
    log.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

#[test]
fn every_response_and_every_log_line_of_a_request_carry_its_request_id() {
    let env = [("VP_LOG_FORMAT", "json"), ("VP_LOG", "debug")];
    let Some(s) = Server::start_with(Backend::Sqlite, "request_id", &env) else { return };
    let given = s.api("GET", "/account", None, &[("x-request-id", "partner-trace-0001")]);
    assert_eq!(given.header("x-request-id"), Some("partner-trace-0001"), "the caller's id comes back");
    let made = s.api("GET", "/account", None, &[]);
    let made_id = made.header("x-request-id").expect("an id is made when none is given").to_owned();
    assert!(made_id.starts_with("req_") && made_id.len() > 10, "{made_id}");
    let odd = s.api("GET", "/account", None, &[("x-request-id", "has spaces in it")]);
    assert_ne!(odd.header("x-request-id"), Some("has spaces in it"), "an unusable id is replaced");
    let error = s.api("GET", "/clients/nobody", None, &[("x-request-id", "partner-trace-0002")]);
    assert_eq!((error.status, error.header("x-request-id")), (404, Some("partner-trace-0002")), "errors too");
    // A warning written inside a request: the sandbox gateway refusing to issue.
    s.cli_settled(&["sandbox", "gateway", "down"]);
    let r = s.api(
        "POST",
        "/payments",
        Some(&subscription("rid-client", 1)),
        &[("idempotency-key", "rid-1"), ("x-request-id", "partner-trace-0003")],
    );
    assert_eq!(r.status, 503);

    let lines = json_lines(&s.log());
    assert!(!lines.is_empty(), "VP_LOG_FORMAT=json writes one JSON object per line:\n{}", s.log());
    let of =
        |id: &str| -> Vec<Value> { lines.iter().filter(|l| l["span"]["request_id"] == json!(id)).cloned().collect() };
    let answered = of("partner-trace-0001");
    assert!(answered.iter().any(|l| l["fields"]["message"] == "request answered" && l["fields"]["status"] == 200));
    assert!(answered.iter().any(|l| l["fields"]["route"] == "/api/partner/v1/account"));
    assert!(!of(&made_id).is_empty(), "the made id {made_id} is logged as returned");
    let refused = of("partner-trace-0003");
    assert!(
        refused.iter().any(|l| l["level"] == "WARN" && l["fields"]["message"] == "gateway did not issue the payment"),
        "{refused:?}"
    );
}

#[test]
fn no_secret_key_or_card_number_reaches_any_log_line() {
    use base64::Engine;
    use vp_testkit::remnawave::{Mode as PanelMode, Remnawave};
    use vp_testkit::yookassa::{Mode as GatewayMode, YooKassa};

    const SHOP: &str = "100500";
    const GATEWAY_SECRET: &str = "test_Gw8hUAVVBGUGbjmlzba6TB0iyUbos_secretKEY";
    const PANEL_TOKEN: &str = "rw-panel-token-that-must-stay-secret";
    const REDIS_PASSWORD: &str = "redis-password-never-logged";
    const CARD: &str = "4111111111111111";
    let yk = YooKassa::start(SHOP, GATEWAY_SECRET);
    let rw = Remnawave::start(PANEL_TOKEN);
    let (api_url, panel_url, sub_url) = (yk.api_url(), rw.url(), rw.sub_url());
    // Our Redis has no password: the AUTH fails and is logged, with the URL's password at hand.
    let redis = format!("redis://:{REDIS_PASSWORD}@127.0.0.1:6379/0");
    let env = [
        ("VP_LOG", "debug"),
        ("VP_GATEWAY", "yookassa"),
        ("VP_YOOKASSA_SHOP_ID", SHOP),
        ("VP_YOOKASSA_SECRET_KEY", GATEWAY_SECRET),
        ("VP_YOOKASSA_API_URL", api_url.as_str()),
        ("VP_PANEL", "remnawave"),
        ("VP_REMNAWAVE_URL", panel_url.as_str()),
        ("VP_REMNAWAVE_TOKEN", PANEL_TOKEN),
        ("VP_REMNAWAVE_SUB_URL", sub_url.as_str()),
        ("VP_METRICS_TOKEN", METRICS_TOKEN),
        ("VP_REDIS_URL", redis.as_str()),
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
    ];
    let Some(s) = Server::start_with(Backend::Sqlite, "no_secrets", &env) else { return };
    let endpoint = s.cli(&["endpoint", "add", &s.account_id, "http://127.0.0.1:9/hook", "--type", "payment.succeeded"]);
    let webhook_secret = endpoint["secret"].as_str().expect("a signing secret").to_owned();

    // A card number where a careless partner might put one, and keys where they do not belong.
    let wrong_key = "vpk_NotARealKeyButShapedLikeOne0123456789abcd";
    assert_eq!(
        s.request("GET", "/api/partner/v1/account", &[("authorization", &format!("Bearer {wrong_key}"))], None).status,
        401
    );
    let mut body = subscription(CARD, 1);
    body["return_url"] = json!(format!("https://partner.example.com/paid?card={CARD}"));
    let issued = post_payment(&s, "card-1", &body);
    assert_eq!(issued.status, 201, "{}", issued.text());
    let paid = yk.payment_for(issued.json()["payment_id"].as_str().unwrap()).expect("a YooKassa payment");
    yk.pay(paid["id"].as_str().unwrap());
    rw.set_mode(PanelMode::Refusing);
    // A trial's panel push, refused: logged with the request (whose description names the client).
    s.api("POST", &format!("/clients/{CARD}-trial/trial"), None, &[]);
    yk.set_mode(GatewayMode::Down);
    assert_eq!(post_payment(&s, "card-2", &subscription(&format!("{CARD}-2"), 1)).status, 503);
    assert_eq!(s.get_raw("/metrics", &[("authorization", &format!("Bearer {METRICS_TOKEN}"))]).status, 200);
    assert_eq!(s.get_raw("/metrics", &[("authorization", "Bearer guessing-the-metrics-token")]).status, 401);
    s.cli(&["jobs"]);
    std::thread::sleep(std::time::Duration::from_millis(300));

    let log = s.log();
    // The run logged what it should: the refusal with its request, the outage, each request.
    assert!(log.contains("an external system refused a request"), "{log}");
    assert!(log.contains("gateway did not issue the payment"), "{log}");
    assert!(log.contains("shared windows unavailable"), "{log}");
    assert!(log.contains("request answered"), "{log}");
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{SHOP}:{GATEWAY_SECRET}"));
    let leaks = [
        ("the YooKassa secret key", GATEWAY_SECRET.to_owned()),
        ("YooKassa's Basic credentials", basic),
        ("the Remnawave token", PANEL_TOKEN.to_owned()),
        ("the metrics token", METRICS_TOKEN.to_owned()),
        ("the Redis password", REDIS_PASSWORD.to_owned()),
        ("the partner's API key", s.key.clone()),
        ("a key-shaped value", wrong_key.to_owned()),
        ("the webhook signing secret", webhook_secret.clone()),
        ("the signing secret's body", webhook_secret.trim_start_matches("whsec_").to_owned()),
        ("a card number", CARD.to_owned()),
    ];
    for (what, value) in leaks {
        let line = log.lines().find(|l| l.contains(&value));
        assert!(line.is_none(), "{what} reached the log: {}", line.unwrap_or_default());
    }
    assert!(log.contains("************1111"), "the card number is logged masked where it was logged");
}
