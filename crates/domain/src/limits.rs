//! The spec's numbers, named once (spec: Limits, Other constants, Events).

use time::Duration;

pub const BRAND_NAME_MAX_CHARS: usize = 64;
pub const CLIENT_ID_MAX_CHARS: usize = 128;
pub const IDEMPOTENCY_KEY_MAX_CHARS: usize = 200;
pub const METHOD_MAX_CHARS: usize = 32;
pub const RETURN_URL_MAX_CHARS: usize = 500;
/// Largest `plan_id` a request may carry.
pub const PLAN_ID_MAX: i64 = 2_147_483_647;

/// Invoice payment window.
pub const INVOICE_PAYMENT_WINDOW: Duration = Duration::minutes(30);
/// A trial's term: 72 hours, so a trial has no 72-hour reminder (spec: term events rule 3,
/// "the whole trial is that long").
pub const TRIAL_LENGTH: Duration = Duration::hours(72);
/// Link rotation: at most once per hour per client.
pub const LINK_ROTATION_PAUSE: Duration = Duration::hours(1);
/// "A day is a sliding 24 hours."
pub const DAILY_WINDOW: Duration = Duration::hours(24);
/// Rate-limit window of the per-minute limits.
pub const MINUTE_WINDOW: Duration = Duration::minutes(1);
/// Authentications with credentials that did not work recently, per source address and
/// minute (API keys and cabinet passwords); past it the source waits for the window.
pub const UNKNOWN_CREDENTIALS_PER_MINUTE: u32 = 20;

/// Default per-account limits; the operator may override each per account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountLimits {
    pub requests_per_minute: u32,
    pub payments_per_minute: u32,
    pub new_clients_per_day: u32,
    pub trials_per_day: u32,
}

impl AccountLimits {
    pub const DEFAULT: AccountLimits = AccountLimits {
        requests_per_minute: 600,
        payments_per_minute: 60,
        new_clients_per_day: 500,
        trials_per_day: 50,
    };

    /// The defaults with any operator overrides applied.
    pub fn with_overrides(overrides: &LimitOverrides) -> AccountLimits {
        let d = AccountLimits::DEFAULT;
        AccountLimits {
            requests_per_minute: overrides.requests_per_minute.unwrap_or(d.requests_per_minute),
            payments_per_minute: overrides.payments_per_minute.unwrap_or(d.payments_per_minute),
            new_clients_per_day: overrides.new_clients_per_day.unwrap_or(d.new_clients_per_day),
            trials_per_day: overrides.trials_per_day.unwrap_or(d.trials_per_day),
        }
    }
}

/// Per-account overrides set by the operator ("higher limits are arranged with the platform").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LimitOverrides {
    pub requests_per_minute: Option<u32>,
    pub payments_per_minute: Option<u32>,
    pub new_clients_per_day: Option<u32>,
    pub trials_per_day: Option<u32>,
}

/// Webhook endpoints (spec: Events): up to ten addresses per account.
pub const WEBHOOK_ENDPOINTS_MAX: usize = 10;
/// The test button: at most this many `webhook.test` events per endpoint per minute.
pub const WEBHOOK_TESTS_PER_MINUTE: usize = 5;
/// Replay windows of undelivered events, in days.
pub const WEBHOOK_REPLAY_DAYS: [i64; 4] = [1, 3, 7, 30];
/// "2xx within 15 seconds": a slower answer is a failed attempt.
pub const WEBHOOK_RESPONSE_TIMEOUT: Duration = Duration::seconds(15);
/// After a rotation the previous secret keeps signing (a second signature) this long.
pub const WEBHOOK_SECRET_OVERLAP: Duration = Duration::hours(24);
/// Term events are checked this often.
pub const TERM_EVENT_CHECK_INTERVAL: Duration = Duration::minutes(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_limits_are_the_specs() {
        let d = AccountLimits::DEFAULT;
        assert_eq!((d.requests_per_minute, d.payments_per_minute), (600, 60));
        assert_eq!((d.new_clients_per_day, d.trials_per_day), (500, 50));
        assert_eq!(INVOICE_PAYMENT_WINDOW, Duration::minutes(30));
    }

    #[test]
    fn overrides_replace_only_what_they_set() {
        let o = LimitOverrides { trials_per_day: Some(200), ..LimitOverrides::default() };
        let l = AccountLimits::with_overrides(&o);
        assert_eq!(l.trials_per_day, 200);
        assert_eq!(l.requests_per_minute, 600);
    }
}
