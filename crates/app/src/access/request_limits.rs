//! The per-minute limits: exact sliding windows, shared by every instance through
//! `SharedWindows` (Redis) when configured, otherwise held in this process. When the shared
//! store does not answer, this process's windows decide, so the limiter never fails a request
//! (docs/limits.md). Two kinds of window are counted here: an account's requests (the partner
//! API and the partner's bot count against the same windows) and a source address's failed
//! authentications (API keys and cabinet sign-ins).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use time::OffsetDateTime;
use vp_domain::limits::AccountLimits;
use vp_domain::limits::MINUTE_WINDOW;
use vp_domain::rate_window::{RetryAfter, SlidingWindow};
use vp_ports::{AccountRecord, Metrics, RequestWindow, SharedWindows, WindowCheck};

/// The windows of this process.
#[derive(Default)]
struct LocalWindows {
    windows: Mutex<HashMap<(String, RequestWindow), SlidingWindow>>,
}

/// Idle windows are dropped once the map holds this many entries.
const PRUNE_AT: usize = 10_000;

impl LocalWindows {
    /// Counts one request against each check in order; stops at the first full window.
    fn admit(&self, checks: &[WindowCheck<'_>], now: OffsetDateTime) -> Result<(), RetryAfter> {
        // A poisoned lock only means another request panicked mid-update; the windows stay valid.
        let mut windows = self.windows.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if windows.len() >= PRUNE_AT {
            windows.retain(|_, w| !w.is_idle(now, MINUTE_WINDOW));
        }
        for check in checks {
            windows.entry((check.subject.to_owned(), check.window)).or_default().admit(
                now,
                check.limit,
                MINUTE_WINDOW,
            )?;
        }
        Ok(())
    }
}

/// The windows every use case counts in: shared ones first (once `share` was called), this
/// process's when they fail.
pub struct Limiter {
    local: LocalWindows,
    shared: OnceLock<Arc<dyn SharedWindows>>,
    /// Counts the requests decided by this process's windows because the shared ones failed.
    metrics: Arc<dyn Metrics>,
    /// Whether the last shared call failed (logged once per outage, not per request).
    degraded: AtomicBool,
    /// Sources refused for unknown credentials, until their wait ends.
    blocked: Mutex<HashMap<String, OffsetDateTime>>,
}

impl Limiter {
    /// Windows held in this process until `share` (one instance, or no Redis configured).
    pub(crate) fn new(metrics: Arc<dyn Metrics>) -> Limiter {
        Limiter {
            local: LocalWindows::default(),
            shared: OnceLock::new(),
            metrics,
            degraded: AtomicBool::new(false),
            blocked: Mutex::default(),
        }
    }

    /// From now on, windows shared by every instance, with this process's as the fallback
    /// (counted). Set once, at the start; a second call changes nothing.
    pub(crate) fn share(&self, windows: Arc<dyn SharedWindows>) {
        let _ = self.shared.set(windows);
    }

    pub(crate) async fn admit(&self, checks: &[WindowCheck<'_>], now: OffsetDateTime) -> Result<(), RetryAfter> {
        let Some(shared) = self.shared.get() else { return self.local.admit(checks, now) };
        match shared.admit(checks).await {
            Ok(decision) => {
                if self.degraded.swap(false, Ordering::Relaxed) {
                    tracing::info!("request limits: the shared windows answer again; limits hold across instances");
                }
                if decision.is_ok() {
                    // Kept here too, so a fallback starts from this process's recent requests.
                    let unbounded: Vec<WindowCheck<'_>> =
                        checks.iter().map(|c| WindowCheck { limit: u32::MAX, ..*c }).collect();
                    let _ = self.local.admit(&unbounded, now);
                }
                decision
            }
            Err(e) => {
                self.metrics.limiter_fallback();
                if !self.degraded.swap(true, Ordering::Relaxed) {
                    tracing::warn!(error = %e, "request limits: shared windows unavailable; each instance counts its own requests until they answer");
                }
                self.local.admit(checks, now)
            }
        }
    }
}

impl Limiter {
    /// Counts one authentication with unknown credentials from `source` against its minute
    /// (`limit` of them). A refused source is remembered here until its wait
    /// ends (`credentials_blocked`), so a flood from it costs neither the shared windows nor
    /// the database.
    pub(crate) async fn count_unknown_credentials(
        &self,
        source: &str,
        limit: u32,
        now: OffsetDateTime,
    ) -> Result<(), RetryAfter> {
        if let Some(wait) = self.credentials_blocked(source, now) {
            return Err(wait);
        }
        let check = WindowCheck { subject: source, window: RequestWindow::UnknownCredentials, limit };
        let decision = self.admit(&[check], now).await;
        if let Err(wait) = decision {
            let mut blocked = self.blocked.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if blocked.len() >= PRUNE_AT {
                blocked.retain(|_, until| *until > now);
            }
            blocked.insert(source.to_owned(), now + wait.duration());
        }
        decision
    }

    /// How long `source` still waits, when a count of this process refused it (no I/O).
    pub(crate) fn credentials_blocked(&self, source: &str, now: OffsetDateTime) -> Option<RetryAfter> {
        let blocked = self.blocked.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let until = *blocked.get(source)?;
        let left = (until - now).whole_seconds();
        (until > now).then(|| RetryAfter(u64::try_from(left).unwrap_or(0).max(1)))
    }
}

impl super::PartnerAccess {
    /// Counts one request of the account against its per-minute limits (with its overrides):
    /// every request against the account window, a payment creation then against the payment
    /// window. `Err` carries how long to wait.
    pub async fn admit_request(&self, account: &AccountRecord, is_payment: bool) -> Result<(), RetryAfter> {
        let limits = AccountLimits::with_overrides(&account.limits);
        let all =
            WindowCheck { subject: &account.id, window: RequestWindow::AllRequests, limit: limits.requests_per_minute };
        let payments =
            WindowCheck { subject: &account.id, window: RequestWindow::Payments, limit: limits.payments_per_minute };
        let checks = if is_payment { &[all, payments][..] } else { &[all][..] };
        self.limiter.admit(checks, self.clock.now()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;
    use vp_ports::WindowsUnavailable;

    const NOW: OffsetDateTime = datetime!(2026-01-01 00:00 UTC);

    fn check(account_id: &str, window: RequestWindow, limit: u32) -> WindowCheck<'_> {
        WindowCheck { subject: account_id, window, limit }
    }

    #[test]
    fn accounts_and_windows_are_counted_apart() {
        let l = LocalWindows::default();
        assert!(l.admit(&[check("a", RequestWindow::Payments, 1)], NOW).is_ok());
        assert!(l.admit(&[check("a", RequestWindow::Payments, 1)], NOW).is_err());
        assert!(l.admit(&[check("b", RequestWindow::Payments, 1)], NOW).is_ok());
        assert!(l.admit(&[check("a", RequestWindow::AllRequests, 1)], NOW).is_ok());
    }

    struct Down;

    #[async_trait::async_trait]
    impl SharedWindows for Down {
        async fn admit(&self, _: &[WindowCheck<'_>]) -> Result<Result<(), RetryAfter>, WindowsUnavailable> {
            Err(WindowsUnavailable("connection refused".into()))
        }
    }

    #[tokio::test]
    async fn when_the_shared_windows_fail_this_process_counts_and_the_fallback_is_counted() {
        let metrics = Arc::new(vp_metrics::PrometheusMetrics::new());
        let limiter = Limiter::new(metrics.clone());
        limiter.share(Arc::new(Down));
        let all = [check("a", RequestWindow::AllRequests, 2)];
        assert_eq!(limiter.admit(&all, NOW).await, Ok(()));
        assert_eq!(limiter.admit(&all, NOW).await, Ok(()));
        assert!(limiter.admit(&all, NOW).await.is_err(), "the per-process window still limits");
        let text = metrics.render(&vp_ports::Gauges::default());
        assert!(text.contains("vp_limiter_fallbacks_total 3"), "{text}");
    }
}
