//! Redis adapter of `SharedWindows`: the per-minute request windows of every api instance in
//! one place, so "600 per minute" holds across instances (docs/limits.md).
//!
//! One request is one round trip: an atomic script checks and counts all of its windows with
//! Redis's clock. Each window is a sorted set of admitted moments that expires by itself a
//! minute after its last request. Redis answering slowly or not at all is reported at once as
//! `WindowsUnavailable` (the HTTP adapter then counts per process), and the adapter rests for a
//! second before trying Redis again, so an outage adds no latency to the requests it spans.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, Script};
use vp_domain::limits::MINUTE_WINDOW;
use vp_domain::rate_window::RetryAfter;
use vp_ports::{SharedWindows, WindowCheck, WindowsUnavailable};

/// Longest a request waits on Redis (connecting or answering) before counting per process.
pub const ANSWER_TIMEOUT: Duration = Duration::from_millis(250);
/// After a failure, requests count per process this long before Redis is tried again.
pub const REST_AFTER_FAILURE: Duration = Duration::from_secs(1);
/// Prefix of every key this adapter writes.
pub const KEY_PREFIX: &str = "vp:window:";

const SCRIPT: &str = include_str!("window.lua");

pub struct RedisWindows {
    connection: ConnectionManager,
    script: Script,
    /// Makes each admitted moment a distinct member, even at the same microsecond on two instances.
    instance: String,
    next: AtomicU64,
    resting_until: Mutex<Option<Instant>>,
}

/// Checks a `VP_REDIS_URL` value without connecting; the message never repeats the URL (it may
/// hold a password).
pub fn check_url(url: &str) -> Result<(), String> {
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("rediss://") || lower.starts_with("valkeys://") {
        return Err("TLS (rediss://) is not supported: reach Redis over a private network (docs/limits.md)".into());
    }
    if !(lower.starts_with("redis://") || lower.starts_with("redis+unix://") || lower.starts_with("unix://")) {
        return Err("is not a Redis URL like redis://HOST:6379 or redis://:PASSWORD@HOST:6379/0".into());
    }
    Client::open(url).map(|_| ()).map_err(|e| format!("is not a usable Redis URL ({})", e.category()))
}

impl RedisWindows {
    /// Prepares the connection without opening it: the service starts, and serves, whether or not
    /// Redis answers yet. Call inside a Tokio runtime.
    pub fn new(url: &str) -> Result<RedisWindows, String> {
        check_url(url)?;
        let client = Client::open(url).map_err(|e| format!("Redis URL: {}", e.category()))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(ANSWER_TIMEOUT))
            .set_response_timeout(Some(ANSWER_TIMEOUT))
            // Reconnecting is retried by the next request after the rest, not inside this one.
            .set_number_of_retries(0);
        let connection = ConnectionManager::new_lazy_with_config(client, config)
            .map_err(|e| format!("Redis connection: {}", e.category()))?;
        Ok(RedisWindows {
            connection,
            script: Script::new(SCRIPT),
            instance: instance_tag(),
            next: AtomicU64::new(0),
            resting_until: Mutex::new(None),
        })
    }

    fn resting(&self) -> bool {
        let mut until = self.resting_until.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match *until {
            Some(t) if Instant::now() < t => true,
            Some(_) => {
                *until = None;
                false
            }
            None => false,
        }
    }

    fn rest(&self) {
        *self.resting_until.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(Instant::now() + REST_AFTER_FAILURE);
    }

    async fn run(&self, checks: &[WindowCheck<'_>]) -> Result<(i64, i64), String> {
        let mut invocation = self.script.prepare_invoke();
        invocation.arg(MINUTE_WINDOW.whole_microseconds() as i64);
        invocation.arg(format!("{}:{}", self.instance, self.next.fetch_add(1, Ordering::Relaxed)));
        for check in checks {
            invocation.key(window_key(check));
        }
        for check in checks {
            invocation.arg(check.limit);
        }
        let mut connection = self.connection.clone();
        match tokio::time::timeout(ANSWER_TIMEOUT, invocation.invoke_async::<(i64, i64)>(&mut connection)).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} ms", ANSWER_TIMEOUT.as_millis())),
        }
    }
}

/// `vp:window:{ACCOUNT}:requests`: the braces keep an account's windows in one Redis Cluster
/// slot, as a script's keys must be.
pub fn window_key(check: &WindowCheck<'_>) -> String {
    format!("{KEY_PREFIX}{{{}}}:{}", check.subject, check.window.as_str())
}

fn instance_tag() -> String {
    let mut bytes = [0u8; 8];
    // A failed draw only weakens uniqueness to the process id and the counter.
    let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes);
    let random: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}-{random}", std::process::id())
}

/// Whole seconds until a slot frees, at least 1 (the `Retry-After` of a refusal).
fn retry_after(wait_micros: i64) -> RetryAfter {
    let micros = u64::try_from(wait_micros).unwrap_or(0);
    RetryAfter(micros.div_ceil(1_000_000).max(1))
}

#[async_trait]
impl SharedWindows for RedisWindows {
    async fn admit(&self, checks: &[WindowCheck<'_>]) -> Result<Result<(), RetryAfter>, WindowsUnavailable> {
        if checks.is_empty() {
            return Ok(Ok(()));
        }
        if self.resting() {
            return Err(WindowsUnavailable("resting after a failure".into()));
        }
        match self.run(checks).await {
            Ok((0, _)) => Ok(Ok(())),
            Ok((_, wait)) => Ok(Err(retry_after(wait))),
            Err(reason) => {
                self.rest();
                Err(WindowsUnavailable(reason))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vp_ports::RequestWindow;

    #[test]
    fn an_accounts_windows_share_one_cluster_slot() {
        let check = WindowCheck { subject: "acc_1", window: RequestWindow::Payments, limit: 60 };
        assert_eq!(window_key(&check), "vp:window:{acc_1}:payments");
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds_and_is_at_least_one() {
        assert_eq!(retry_after(1), RetryAfter(1));
        assert_eq!(retry_after(0), RetryAfter(1));
        assert_eq!(retry_after(1_000_000), RetryAfter(1));
        assert_eq!(retry_after(1_000_001), RetryAfter(2));
        assert_eq!(retry_after(59_999_999), RetryAfter(60));
    }

    #[test]
    fn urls_are_checked_without_repeating_them() {
        assert_eq!(check_url("redis://127.0.0.1:6379"), Ok(()));
        assert_eq!(check_url("redis://:s3cret@10.0.0.5:6379/2"), Ok(()));
        for bad in ["http://127.0.0.1:6379", "127.0.0.1:6379", "rediss://:s3cret@host", "redis://"] {
            let message = check_url(bad).unwrap_err();
            assert!(!message.contains("s3cret") && !message.contains("127.0.0.1"), "{bad}: {message}");
        }
    }
}
