//! An exact sliding-window counter: at most `limit` events in any window of `window` length.
//! Used for the per-minute request limits, where the spec's "600 per minute" must not let
//! 1,200 requests through across a window boundary (as fixed windows or token buckets with a
//! full burst would).

use std::collections::VecDeque;

use time::{Duration, OffsetDateTime};

use crate::subscription::ceil_secs;

#[derive(Debug, Clone, Default)]
pub struct SlidingWindow {
    /// Moments of the admitted events still inside the window, oldest first.
    admitted: VecDeque<OffsetDateTime>,
}

/// Refused: retry after this many whole seconds (at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

impl RetryAfter {
    /// The wait as a duration, to add to a moment.
    pub fn duration(self) -> Duration {
        Duration::seconds(i64::try_from(self.0).unwrap_or(i64::MAX))
    }
}

impl SlidingWindow {
    /// Admits one event at `now` if fewer than `limit` were admitted in the last `window`.
    pub fn admit(&mut self, now: OffsetDateTime, limit: u32, window: Duration) -> Result<(), RetryAfter> {
        while self.admitted.front().is_some_and(|t| *t + window <= now) {
            self.admitted.pop_front();
        }
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        if self.admitted.len() >= limit {
            // The slot frees when the `len - limit + 1`-th oldest event leaves the window.
            let freeing = self.admitted.len() - limit;
            let at = self.admitted.get(freeing).copied().unwrap_or(now) + window;
            return Err(RetryAfter(ceil_secs(at - now)));
        }
        self.admitted.push_back(now);
        Ok(())
    }

    /// Whether the window holds nothing at `now` (so the entry can be dropped).
    pub fn is_idle(&self, now: OffsetDateTime, window: Duration) -> bool {
        self.admitted.back().is_none_or(|t| *t + window <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-01-01 00:00 UTC);
    const MINUTE: Duration = Duration::minutes(1);

    #[test]
    fn admits_up_to_the_limit_then_refuses_with_the_seconds_until_a_slot_frees() {
        let mut w = SlidingWindow::default();
        for i in 0..60 {
            assert_eq!(w.admit(T0 + Duration::milliseconds(i * 100), 60, MINUTE), Ok(()));
        }
        assert_eq!(w.admit(T0 + Duration::seconds(10), 60, MINUTE), Err(RetryAfter(50)));
        assert_eq!(w.admit(T0 + Duration::milliseconds(59_999), 60, MINUTE), Err(RetryAfter(1)));
        assert_eq!(w.admit(T0 + Duration::seconds(60), 60, MINUTE), Ok(()), "the first slot freed");
    }

    #[test]
    fn a_window_boundary_does_not_double_the_limit() {
        let mut w = SlidingWindow::default();
        let late = T0 + Duration::seconds(59);
        for _ in 0..600 {
            w.admit(late, 600, MINUTE).unwrap();
        }
        assert!(w.admit(T0 + Duration::seconds(61), 600, MINUTE).is_err());
        assert!(w.admit(T0 + Duration::seconds(119), 600, MINUTE).is_ok());
    }

    proptest! {
        /// In any window, never more than `limit` admitted; and every refusal's Retry-After
        /// is at least 1 second and at most the window.
        #[test]
        fn never_more_than_limit_in_any_window(gaps in prop::collection::vec(0i64..3_000, 1..300), limit in 1u32..20) {
            let mut w = SlidingWindow::default();
            let mut now = T0;
            let mut admitted = vec![];
            for g in gaps {
                now += Duration::milliseconds(g);
                match w.admit(now, limit, MINUTE) {
                    Ok(()) => admitted.push(now),
                    Err(RetryAfter(s)) => prop_assert!((1..=60).contains(&s)),
                }
                let in_window = admitted.iter().filter(|t| **t + MINUTE > now).count();
                prop_assert!(in_window <= limit as usize);
            }
        }
    }
}
