//! Webhook retry schedule and automatic disabling (spec: Events, Response and retries).

use time::{Duration, OffsetDateTime};

/// Attempts in total, the first included.
pub const MAX_ATTEMPTS: u32 = 10;

/// Pause after attempt n (index n-1) before attempt n+1.
pub const RETRY_DELAYS: [Duration; 9] = [
    Duration::seconds(5),
    Duration::minutes(5),
    Duration::minutes(30),
    Duration::hours(2),
    Duration::hours(5),
    Duration::hours(10),
    Duration::hours(14),
    Duration::hours(20),
    Duration::hours(24),
];

/// Spread of each delay: plus or minus this many per mille.
pub const JITTER_PERMILLE: i32 = 100;

/// A `Retry-After` above this counts as this.
pub const RETRY_AFTER_CAP: Duration = Duration::hours(24);

/// An endpoint that accepted nothing for this long is disabled.
pub const DISABLE_AFTER_FAILING_FOR: Duration = Duration::days(5);

/// The pause before the next attempt after `attempts_made` failed attempts, or `None` when all
/// ten are spent. `jitter_permille` (clamped to +-100) is drawn by the caller; `retry_after` is
/// the receiver's header, honoured but never earlier than the schedule.
pub fn next_attempt_delay(attempts_made: u32, jitter_permille: i32, retry_after: Option<Duration>) -> Option<Duration> {
    if attempts_made == 0 || attempts_made >= MAX_ATTEMPTS {
        return None;
    }
    let base = RETRY_DELAYS[usize::try_from(attempts_made - 1).ok()?];
    let jitter = jitter_permille.clamp(-JITTER_PERMILLE, JITTER_PERMILLE);
    let scheduled: Duration = base + (base * jitter) / 1000;
    let requested = retry_after.map(|r| r.clamp(Duration::ZERO, RETRY_AFTER_CAP)).unwrap_or(Duration::ZERO);
    Some(scheduled.max(requested))
}

/// What one delivery attempt told about the endpoint's health.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptResult {
    Accepted,
    Gone,
    Failed,
}

/// Health of an endpoint: since when it has accepted nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EndpointHealth {
    pub failing_since: Option<OffsetDateTime>,
}

impl EndpointHealth {
    /// Records an attempt; returns `true` when the endpoint must now be disabled: at once on
    /// `410 Gone`, or after five days in a row without an accepted event.
    pub fn record(&mut self, result: AttemptResult, at: OffsetDateTime) -> bool {
        match result {
            AttemptResult::Accepted => {
                self.failing_since = None;
                false
            }
            AttemptResult::Gone => true,
            AttemptResult::Failed => {
                let since = *self.failing_since.get_or_insert(at);
                at - since >= DISABLE_AFTER_FAILING_FOR
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn ten_attempts_on_the_specs_schedule_without_jitter() {
        // The spec's table, written as it reads there.
        let (sec, min, h) = (Duration::seconds, Duration::minutes, Duration::hours);
        let expected = [sec(5), min(5), min(30), h(2), h(5), h(10), h(14), h(20), h(24)];
        for (i, d) in expected.iter().enumerate() {
            assert_eq!(next_attempt_delay(u32::try_from(i).unwrap() + 1, 0, None), Some(*d));
        }
        assert_eq!(next_attempt_delay(10, 0, None), None, "the tenth attempt is the last");
        let total: Duration = expected.iter().copied().sum();
        assert!(
            total > Duration::days(3) && total < Duration::days(4),
            "last attempt about three days after the first"
        );
    }

    #[test]
    fn jitter_spreads_each_delay_by_at_most_ten_percent() {
        assert_eq!(next_attempt_delay(4, 100, None), Some(Duration::minutes(132)));
        assert_eq!(next_attempt_delay(4, -100, None), Some(Duration::minutes(108)));
        assert_eq!(next_attempt_delay(4, 5000, None), Some(Duration::minutes(132)), "clamped");
    }

    #[test]
    fn retry_after_delays_but_never_brings_forward_and_is_capped_at_24_hours() {
        assert_eq!(next_attempt_delay(1, 0, Some(Duration::minutes(10))), Some(Duration::minutes(10)));
        assert_eq!(next_attempt_delay(3, 0, Some(Duration::seconds(1))), Some(Duration::minutes(30)));
        assert_eq!(next_attempt_delay(1, 0, Some(Duration::days(3))), Some(Duration::hours(24)));
    }

    #[test]
    fn an_endpoint_is_disabled_after_five_days_without_an_accepted_event() {
        let t0 = datetime!(2026-01-01 00:00 UTC);
        let mut h = EndpointHealth::default();
        assert!(!h.record(AttemptResult::Failed, t0));
        assert!(!h.record(AttemptResult::Failed, t0 + Duration::days(4)));
        assert!(!h.record(AttemptResult::Accepted, t0 + Duration::days(4)));
        assert!(!h.record(AttemptResult::Failed, t0 + Duration::days(6)), "an accepted event restarts the count");
        assert!(h.record(AttemptResult::Failed, t0 + Duration::days(11)));
    }

    #[test]
    fn an_endpoint_is_disabled_at_once_on_410_gone() {
        let mut h = EndpointHealth::default();
        assert!(h.record(AttemptResult::Gone, datetime!(2026-01-01 00:00 UTC)));
    }
}
