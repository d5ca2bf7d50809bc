//! The per-minute request windows kept where every api instance sees them (docs/limits.md).
//! Without such a store each process keeps its own windows; the HTTP adapter falls back to those
//! whenever the shared store does not answer.

use async_trait::async_trait;
use vp_domain::rate_window::RetryAfter;

/// Which per-minute limit a request counts against (spec: Limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestWindow {
    /// Every request of an account.
    AllRequests,
    /// `POST /payments`, on top of the account-wide window.
    Payments,
    /// Authentications of a source address with a key (or a cabinet password) that did not
    /// authenticate recently: the guessing a source may do in a minute.
    UnknownCredentials,
}

impl RequestWindow {
    pub fn as_str(self) -> &'static str {
        match self {
            RequestWindow::AllRequests => "requests",
            RequestWindow::Payments => "payments",
            RequestWindow::UnknownCredentials => "unknown-credentials",
        }
    }
}

/// One window a request counts against, with its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowCheck<'a> {
    /// Whose window: the account's id, or the source address for `UnknownCredentials`.
    pub subject: &'a str,
    pub window: RequestWindow,
    pub limit: u32,
}

/// The shared store did not answer (or answered nonsense); nothing was decided.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("shared request windows unavailable: {0}")]
pub struct WindowsUnavailable(pub String);

#[async_trait]
pub trait SharedWindows: Send + Sync {
    /// Counts one request against each check in order, atomically with respect to every other
    /// instance. Stops at the first full window: that one and the later ones do not count the
    /// request, the earlier ones do (as separate per-process windows would).
    async fn admit(&self, checks: &[WindowCheck<'_>]) -> Result<Result<(), RetryAfter>, WindowsUnavailable>;
}
