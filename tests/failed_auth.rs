//! Failed authentication is cheap and bounded, black-box: the real binary behind a trusted
//! proxy (`VP_TRUSTED_PROXIES`), each test's source an address of its own in
//! `X-Forwarded-For`, so tests sharing one Redis never share a count (docs/limits.md).

use crate::support;

use std::time::{Duration, Instant};

use support::server::{Backend, METRICS_TOKEN, Response, Server, request, sample};
use vp_testkit::services::redis_url;

each_backend!(past_20_failed_authentications_a_source_gets_429_until_the_minute_passes_while_keys_in_use_keep_working,);

/// An address of this test's own (documentation ranges), so no two tests count together.
fn source(n: u8) -> String {
    format!("198.51.{}.{n}", std::process::id() % 250)
}

fn with_key(port: u16, key: &str, from: &str) -> Response {
    let auth = format!("Bearer {key}");
    request(port, "GET", "/api/partner/v1/account", &[("authorization", &auth), ("x-forwarded-for", from)], None)
}

fn start(backend: Backend, name: &str, extra: &[(&str, &str)]) -> Option<Server> {
    let mut env = vec![("VP_TRUSTED_PROXIES", "127.0.0.1/32"), ("VP_METRICS_TOKEN", METRICS_TOKEN)];
    env.extend_from_slice(extra);
    Server::start_with(backend, name, &env)
}

/// How many wrong keys the server looked up in its database so far.
fn wrong_key_lookups(s: &Server) -> u64 {
    sample(&s.metrics(), r#"vp_api_key_lookups_total{found="false"}"#).map_or(0, |n| n as u64)
}

fn assert_limited(r: &Response) -> u64 {
    assert_eq!((r.status, r.code()), (429, "RATE_LIMITED".to_owned()), "{}", r.text());
    r.header("retry-after").expect("Retry-After").parse().expect("whole seconds")
}

fn past_20_failed_authentications_a_source_gets_429_until_the_minute_passes_while_keys_in_use_keep_working(
    backend: Backend,
) {
    let Some(s) = start(backend, "failed_auth", &[]) else { return };
    let (flooding, elsewhere, quiet) = (source(1), source(2), source(3));
    let spare = s.cli(&["key", "issue", &s.account_id])["api_key"].as_str().unwrap().to_owned();
    // Both keys in use before the flood (from the partner's other server).
    assert_eq!(with_key(s.port, &s.key, &elsewhere).status, 200);
    assert_eq!(with_key(s.port, &spare, &elsewhere).status, 200);

    for n in 1..=20 {
        let r = with_key(s.port, &format!("vpk_guess_{n}"), &flooding);
        assert_eq!((r.status, r.code()), (401, "UNAUTHORIZED".to_owned()), "failure {n} is the spec's 401");
    }
    let asked = Instant::now();
    let wait = assert_limited(&with_key(s.port, "vpk_guess_21", &flooding));
    assert!((57..=59).contains(&wait), "until the minute passes: Retry-After {wait}");
    assert!(asked.elapsed() >= Duration::from_secs(1), "a refusal is held back a second, slowing a flood down");
    assert_limited(&request(s.port, "GET", "/api/partner/v1/account", &[("x-forwarded-for", &flooding)], None));
    for n in 0..3 {
        assert_limited(&with_key(s.port, &format!("vpk_flood_{n}"), &flooding));
    }
    assert_eq!(wrong_key_lookups(&s), 21, "the 21st failure was looked up; the flood after it costs nothing");
    assert_eq!(with_key(s.port, "vpk_guess_1", &quiet).status, 401, "other sources keep the spec's 401");

    assert_eq!(with_key(s.port, &s.key, &flooding).status, 200, "a key in use works from the flooding source");
    assert_eq!(with_key(s.port, &spare, &flooding).status, 200);
    s.cli_settled(&["key", "revoke", &key_id(&s, &spare)]);
    for _ in 0..30 {
        let r = with_key(s.port, &spare, &flooding);
        assert_eq!(r.status, 401, "revoked within a second, and still the plain 401: {}", r.text());
    }
    assert_eq!(with_key(s.port, &s.key, &flooding).status, 200, "its servers sending the old key lock nothing out");

    // A source below the limit: failures, then a new key works at once.
    for n in 0..10 {
        assert_eq!(with_key(s.port, &format!("vpk_typo_{n}"), &quiet).status, 401);
    }
    let fresh = s.cli(&["key", "issue", &s.account_id])["api_key"].as_str().unwrap().to_owned();
    assert_eq!(with_key(s.port, &fresh, &quiet).status, 200, "a new key works at once");
}

/// The id of the key whose secret is `secret` (the CLI shows keys by prefix).
fn key_id(s: &Server, secret: &str) -> String {
    let shown = s.cli(&["account", "show", &s.account_id]);
    let keys = shown["api_keys"].as_array().unwrap();
    let key = keys.iter().find(|k| secret.starts_with(k["prefix"].as_str().unwrap())).expect("the key is listed");
    key["key_id"].as_str().unwrap().to_owned()
}

#[test]
fn two_instances_share_a_sources_count_through_redis() {
    let Some(redis) = redis_url() else { return };
    let Some(first) = start(Backend::Postgres, "failed_auth_shared", &[("VP_REDIS_URL", &redis)]) else { return };
    let second = first.another_instance();
    let flooding = source(4);
    // The partner's servers reach both instances behind the load balancer.
    assert_eq!(with_key(first.port, &first.key, &source(5)).status, 200);
    assert_eq!(with_key(second.port, &first.key, &source(5)).status, 200);
    for n in 0..20 {
        let port = if n % 2 == 0 { first.port } else { second.port };
        assert_eq!(with_key(port, &format!("vpk_guess_{n}"), &flooding).status, 401, "failure {n}");
    }
    assert_limited(&with_key(first.port, "vpk_guess_20", &flooding));
    assert_limited(&with_key(second.port, "vpk_guess_21", &flooding));
    for port in [first.port, second.port] {
        assert_eq!(with_key(port, &first.key, &flooding).status, 200, "the key in use, on either instance");
    }
}
