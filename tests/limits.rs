//! Per-minute limits across instances: two `serve` processes on one PostgreSQL and one Redis
//! let exactly the limit through; an unreachable Redis leaves each instance counting its own
//! requests (docs/limits.md).

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};

use support::server::{Backend, Server};
use vp_testkit::services::redis_url;

#[test]
fn two_instances_on_one_database_and_one_redis_let_exactly_600_requests_a_minute_through() {
    let Some(redis) = redis_url() else { return };
    let Some(first) = Server::start_with(Backend::Postgres, "limits", &[("VP_REDIS_URL", &redis)]) else { return };
    let second = first.another_instance();
    let (admitted, refused) = (AtomicUsize::new(0), AtomicUsize::new(0));
    // 700 requests within a few seconds, from 4 callers at once, alternating between instances.
    std::thread::scope(|scope| {
        for caller in 0..4 {
            let (first, second, admitted, refused) = (&first, &second, &admitted, &refused);
            scope.spawn(move || {
                for i in 0..175 {
                    let r = if (caller + i) % 2 == 0 {
                        first.api("GET", "/account", None, &[])
                    } else {
                        second.api("GET", "/account", None, &[])
                    };
                    match r.status {
                        200 => admitted.fetch_add(1, Ordering::Relaxed),
                        429 => {
                            assert_eq!(r.code(), "RATE_LIMITED");
                            let wait: u64 = r.header("retry-after").expect("Retry-After").parse().unwrap();
                            assert!((1..=60).contains(&wait), "Retry-After {wait}");
                            refused.fetch_add(1, Ordering::Relaxed)
                        }
                        other => panic!("unexpected {other}: {}", r.text()),
                    };
                }
            });
        }
    });
    assert_eq!(admitted.into_inner(), 600, "the spec's 600 per minute, across both instances");
    assert_eq!(refused.into_inner(), 100);
}

#[test]
fn the_payment_window_is_shared_too() {
    let Some(redis) = redis_url() else { return };
    let Some(first) = Server::start_with(Backend::Postgres, "limits_pay", &[("VP_REDIS_URL", &redis)]) else {
        return;
    };
    first.cli_settled(&["account", "limits", &first.account_id, "--payments-per-minute", "3"]);
    let second = first.another_instance();
    // Invalid bodies still count against the window: the limit is checked before the body.
    let statuses: Vec<u16> = (0..6)
        .map(|i| {
            let key = format!("k{i}");
            let headers = [("idempotency-key", key.as_str())];
            let body = serde_json::json!({});
            if i % 2 == 0 {
                first.api("POST", "/payments", Some(&body), &headers).status
            } else {
                second.api("POST", "/payments", Some(&body), &headers).status
            }
        })
        .collect();
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 3, "{statuses:?}");
    assert!(statuses[..3].iter().all(|s| *s != 429), "the first three are within the limit: {statuses:?}");
    assert_eq!(first.api("GET", "/account", None, &[]).status, 200, "other routes are not payment requests");
}

#[test]
fn without_redis_answering_each_instance_keeps_serving_with_its_own_windows() {
    // Nothing listens on port 1: every call to Redis fails at once.
    let Some(s) = Server::start_with(Backend::Sqlite, "limits_down", &[("VP_REDIS_URL", "redis://127.0.0.1:1")]) else {
        return;
    };
    s.cli_settled(&["account", "limits", &s.account_id, "--requests-per-minute", "3"]);
    let statuses: Vec<u16> = (0..4).map(|_| s.api("GET", "/account", None, &[]).status).collect();
    assert_eq!(statuses, [200, 200, 200, 429], "served, and still limited per process");
    let log = s.log();
    assert_eq!(log.matches("shared windows unavailable").count(), 1, "said once per outage, not per request: {log}");
}
