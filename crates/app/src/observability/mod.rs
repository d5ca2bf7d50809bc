//! What operators watch: the metrics (what they show beyond what is recorded as it happens),
//! the readiness probe, request ids, and the decorators that time every gateway and panel call
//! (`decorators`).

mod decorators;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use decorators::{GatewayWithMetrics, PanelWithMetrics};

use vp_ports::{Clock, Gauges, IdGenerator, Metrics, Store};

use crate::error::AppResult;

pub struct Observability {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) metrics: Arc<dyn Metrics>,
    /// Set once the instance was asked to stop: it still serves, but tells the proxy not to
    /// send more.
    pub(crate) draining: AtomicBool,
}

/// What `/ready` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readiness {
    Ready,
    /// Stopping: serving what comes while the proxy takes the instance out.
    Draining,
}

impl Observability {
    /// Whether the service can serve: it is not stopping and its database answers (`/ready`).
    pub async fn ready(&self) -> AppResult<Readiness> {
        if self.draining.load(Ordering::SeqCst) {
            return Ok(Readiness::Draining);
        }
        self.store.ping().await?;
        Ok(Readiness::Ready)
    }

    /// From now on `/ready` answers that the instance is stopping.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// A new id for a request that came without one.
    pub fn new_request_id(&self) -> String {
        self.ids.new_id("req")
    }

    /// Counts and times one answered HTTP request.
    pub fn http_request(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.metrics.http_request(route, method, status, seconds);
    }

    /// Every metric in the metrics adapter's format, with the backlog and the pool read now.
    /// A database that does not answer leaves the backlog unknown instead of failing the scrape:
    /// the other metrics matter most then.
    pub async fn metrics_text(&self) -> String {
        let now = self.clock.now();
        let backlog = match self.store.delivery_backlog(now).await {
            Ok(b) => Some(b),
            Err(e) => {
                tracing::warn!(error = %e, "metrics: could not read the delivery backlog");
                None
            }
        };
        let paid_check = async {
            let mut tx = self.store.read().await?;
            let setting = tx.setting(vp_ports::SettingKey::PaidAccessCheck).await?;
            tx.commit().await?;
            Ok::<_, vp_ports::StoreError>(crate::payments::PaidAccessChecked::read(setting.as_ref()))
        };
        let paid_without_access = match paid_check.await {
            Ok(last) => last.map(|l| (l.found, l.repaired)),
            Err(e) => {
                tracing::warn!(error = %e, "metrics: could not read the last paid-access check");
                None
            }
        };
        let mail = match self.store.mail_backlog(now).await {
            Ok(b) => Some(b),
            Err(e) => {
                tracing::warn!(error = %e, "metrics: could not read the mail backlog");
                None
            }
        };
        let waited =
            |b: vp_ports::DeliveryBacklog| b.oldest_due_at.map_or(0.0, |due| (now - due).as_seconds_f64().max(0.0));
        let gauges = Gauges {
            paid_without_access,
            pending_deliveries: backlog.map(|b| b.pending),
            outbox_lag_seconds: backlog.map(waited),
            pool: self.store.pool_state(),
            // The reads above are the check: no extra round trip per scrape.
            database_up: backlog.is_some() && mail.is_some(),
            mail_pending: mail.map(|b| b.pending),
            mail_lag_seconds: mail.map(waited),
        };
        self.metrics.render(&gauges)
    }
}
