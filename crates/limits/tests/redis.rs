//! The Redis windows against a real Redis (`VP_TEST_REDIS_URL`, default 127.0.0.1:6379;
//! `VP_TEST_REDIS=require` in CI makes a missing server a failure).

use std::sync::Arc;
use std::time::{Duration, Instant};

use vp_domain::rate_window::RetryAfter;
use vp_limits::{REST_AFTER_FAILURE, RedisWindows};
use vp_ports::{RequestWindow, SharedWindows, WindowCheck};
use vp_testkit::services::redis_url;

/// An account id no other run has used (keys outlive a test by a minute).
fn fresh_account(tag: &str) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("acc_test_{tag}_{}_{nanos}", std::process::id())
}

fn check(account_id: &str, window: RequestWindow, limit: u32) -> WindowCheck<'_> {
    WindowCheck { subject: account_id, window, limit }
}

#[tokio::test]
async fn admits_up_to_the_limit_then_refuses_with_the_seconds_until_a_slot_frees() {
    let Some(url) = redis_url() else { return };
    let windows = RedisWindows::new(&url).unwrap();
    let account = fresh_account("limit");
    for i in 0..3 {
        let answer = windows.admit(&[check(&account, RequestWindow::AllRequests, 3)]).await;
        assert_eq!(answer, Ok(Ok(())), "request {i}");
    }
    let Ok(Err(RetryAfter(secs))) = windows.admit(&[check(&account, RequestWindow::AllRequests, 3)]).await else {
        panic!("the fourth request of the minute is refused");
    };
    assert!((59..=60).contains(&secs), "the oldest request leaves the window in about a minute: {secs}");
    let answer = windows.admit(&[check(&account, RequestWindow::AllRequests, 4)]).await;
    assert_eq!(answer, Ok(Ok(())), "a raised limit admits at once");
}

#[tokio::test]
async fn a_full_payment_window_refuses_after_the_account_window_counted_the_request() {
    let Some(url) = redis_url() else { return };
    let windows = RedisWindows::new(&url).unwrap();
    let account = fresh_account("payments");
    let both =
        |all: u32| [check(&account, RequestWindow::AllRequests, all), check(&account, RequestWindow::Payments, 1)];
    assert_eq!(windows.admit(&both(3)).await, Ok(Ok(())));
    assert!(matches!(windows.admit(&both(3)).await, Ok(Err(_))), "the second payment of the minute");
    // Two requests counted in the account window, so the third request of the minute is the last.
    let all = [check(&account, RequestWindow::AllRequests, 3)];
    assert_eq!(windows.admit(&all).await, Ok(Ok(())));
    assert!(matches!(windows.admit(&all).await, Ok(Err(_))));
}

#[tokio::test]
async fn a_full_account_window_does_not_count_the_payment() {
    let Some(url) = redis_url() else { return };
    let windows = RedisWindows::new(&url).unwrap();
    let account = fresh_account("order");
    let all = [check(&account, RequestWindow::AllRequests, 1)];
    assert_eq!(windows.admit(&all).await, Ok(Ok(())));
    let both = [check(&account, RequestWindow::AllRequests, 1), check(&account, RequestWindow::Payments, 1)];
    assert!(matches!(windows.admit(&both).await, Ok(Err(_))));
    let payment_only = [check(&account, RequestWindow::Payments, 1)];
    assert_eq!(windows.admit(&payment_only).await, Ok(Ok(())), "the refused request took no payment slot");
}

#[tokio::test]
async fn two_instances_hammering_at_once_admit_exactly_the_limit() {
    let Some(url) = redis_url() else { return };
    let first = Arc::new(RedisWindows::new(&url).unwrap());
    let second = Arc::new(RedisWindows::new(&url).unwrap());
    let account: &'static str = Box::leak(fresh_account("race").into_boxed_str());
    let mut tasks = Vec::new();
    for i in 0..400 {
        let windows = if i % 2 == 0 { first.clone() } else { second.clone() };
        tasks.push(tokio::spawn(async move {
            windows.admit(&[check(account, RequestWindow::AllRequests, 150)]).await.unwrap().is_ok()
        }));
    }
    let mut admitted = 0;
    for t in tasks {
        admitted += usize::from(t.await.unwrap());
    }
    assert_eq!(admitted, 150);
}

#[tokio::test]
async fn windows_expire_by_themselves() {
    let Some(url) = redis_url() else { return };
    let windows = RedisWindows::new(&url).unwrap();
    let account = fresh_account("expiry");
    windows.admit(&[check(&account, RequestWindow::Payments, 5)]).await.unwrap().unwrap();
    let client = redis::Client::open(url.as_str()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let key = vp_limits::window_key(&check(&account, RequestWindow::Payments, 5));
    let ttl: i64 = redis::cmd("PTTL").arg(&key).query_async(&mut connection).await.unwrap();
    assert!((59_000..=60_000).contains(&ttl), "{key} expires a minute after its last request: {ttl} ms");
}

#[tokio::test]
async fn an_unreachable_redis_is_reported_at_once_and_rested_from() {
    // Port 1 on loopback refuses connections.
    let windows = RedisWindows::new("redis://127.0.0.1:1").unwrap();
    let account = fresh_account("down");
    let started = Instant::now();
    assert!(windows.admit(&[check(&account, RequestWindow::AllRequests, 10)]).await.is_err());
    assert!(started.elapsed() < Duration::from_millis(500), "{:?}", started.elapsed());
    let started = Instant::now();
    assert!(windows.admit(&[check(&account, RequestWindow::AllRequests, 10)]).await.is_err());
    assert!(started.elapsed() < Duration::from_millis(5), "resting: no new attempt for {REST_AFTER_FAILURE:?}");
}
