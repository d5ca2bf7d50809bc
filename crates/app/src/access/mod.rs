//! Access to the partner API: a presented key is looked up by its hash (`auth`), and every
//! request of an account counts against its per-minute windows (`request_limits`), which the
//! partner's bot shares. Failed authentications count per source address in the same limiter.

mod auth;
mod request_limits;

use std::sync::Arc;

use vp_ports::{Clock, Metrics, SharedWindows, Store};

pub use auth::{AUTH_CACHE_TTL, AuthCache, RECENTLY_AUTHENTICATED};
pub(crate) use request_limits::Limiter;

/// Who a partner request is, and whether the account may make it now.
pub struct PartnerAccess {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) metrics: Arc<dyn Metrics>,
    pub(crate) auth_cache: Arc<AuthCache>,
    pub(crate) limiter: Arc<Limiter>,
    /// Failed authentications a source address gets a minute (`VP_FAILED_AUTH_PER_MINUTE`).
    pub(crate) failed_auth_per_minute: u32,
}

impl PartnerAccess {
    /// Counts requests in windows every instance shares (Redis), this process's as the
    /// fallback; the cabinet's sign-in counts there too.
    pub fn share_request_windows(&self, windows: Arc<dyn SharedWindows>) {
        self.limiter.share(windows);
    }
}
