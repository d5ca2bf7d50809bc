//! How long the platform waits before asking an external system again after it refused or
//! did not settle something: the panel sync after a refused push, the gateway reconciliation
//! of an invoice still pending there.

use time::Duration;

/// The pause before try `n + 1` after `n` tries in a row (`n >= 1`): `first`, doubling each
/// time, never above `cap`.
pub fn doubling(tries: u32, first: Duration, cap: Duration) -> Duration {
    let doublings = tries.saturating_sub(1).min(30);
    let factor = 1_i64 << doublings;
    first.checked_mul(i32::try_from(factor).unwrap_or(i32::MAX)).map_or(cap, |d| d.min(cap))
}

/// The panel refused a push (a 4xx: our bug or a drift): try again after 1, 2, 4 ... minutes,
/// at most hourly, until an operator fixes the cause.
pub fn panel_retry_delay(refusals: u32) -> Duration {
    doubling(refusals, Duration::minutes(1), Duration::hours(1))
}

/// Reconciliation re-reads an invoice still pending at the gateway from this long after its
/// creation (notifications usually arrive first) ...
pub const GATEWAY_RECHECK_FROM: Duration = Duration::minutes(2);
/// ... until this long after its payment window ends (a late payment may still arrive).
pub const GATEWAY_RECHECK_AFTER_WINDOW: Duration = Duration::hours(2);

/// The pause before the next re-read after `checks` re-reads found the payment still pending:
/// 1, 2, 4, 8 minutes, then every 15.
pub fn gateway_recheck_delay(checks: u32) -> Duration {
    doubling(checks, Duration::minutes(1), Duration::minutes(15))
}

/// A message the mail server could not take is offered again after 1, 2, 4 ... minutes, at
/// most hourly ...
pub fn mail_retry_delay(attempts: u32) -> Duration {
    doubling(attempts, Duration::minutes(1), Duration::hours(1))
}

/// ... and given up this long after it was queued: a sign-in code or a link is stale by then.
pub const MAIL_GIVE_UP_AFTER: Duration = Duration::days(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_doubles_from_the_first_and_stops_at_the_cap() {
        let minutes = |n| panel_retry_delay(n).whole_minutes();
        assert_eq!([minutes(0), minutes(1), minutes(2), minutes(3), minutes(6), minutes(7)], [1, 1, 2, 4, 32, 60]);
        assert_eq!(minutes(u32::MAX), 60, "no overflow for a user refused forever");
    }

    #[test]
    fn a_pending_payment_is_re_read_ever_less_often_and_at_least_every_15_minutes() {
        let minutes: Vec<i64> = (1..=6).map(|n| gateway_recheck_delay(n).whole_minutes()).collect();
        assert_eq!(minutes, [1, 2, 4, 8, 15, 15]);
    }
}
