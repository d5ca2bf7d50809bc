//! Per-account request limits: exact sliding windows held in this process (docs/limits.md
//! explains how they hold across several instances).

use std::collections::HashMap;
use std::sync::Mutex;

use time::OffsetDateTime;
use vp_domain::limits::MINUTE_WINDOW;
use vp_domain::rate_window::{RetryAfter, SlidingWindow};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// Every request of an account.
    AllRequests,
    /// `POST /payments`.
    Payments,
}

#[derive(Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<(String, Bucket), SlidingWindow>>,
}

/// Idle windows are dropped once the map holds this many entries.
const PRUNE_AT: usize = 10_000;

impl RateLimiter {
    pub fn admit(&self, account_id: &str, bucket: Bucket, limit: u32, now: OffsetDateTime) -> Result<(), RetryAfter> {
        // A poisoned lock only means another request panicked mid-update; the windows stay valid.
        let mut windows = self.windows.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if windows.len() >= PRUNE_AT {
            windows.retain(|_, w| !w.is_idle(now, MINUTE_WINDOW));
        }
        windows.entry((account_id.to_owned(), bucket)).or_default().admit(now, limit, MINUTE_WINDOW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn accounts_and_buckets_are_counted_apart() {
        let l = RateLimiter::default();
        let now = datetime!(2026-01-01 00:00 UTC);
        assert!(l.admit("a", Bucket::Payments, 1, now).is_ok());
        assert!(l.admit("a", Bucket::Payments, 1, now).is_err());
        assert!(l.admit("b", Bucket::Payments, 1, now).is_ok());
        assert!(l.admit("a", Bucket::AllRequests, 1, now).is_ok());
    }
}
