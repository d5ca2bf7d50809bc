//! What operators watch: the metrics (what they show beyond what is recorded as it happens),
//! the readiness probe, request ids, and the decorators that time every gateway and panel call
//! (`decorators`).

mod decorators;

use std::sync::Arc;

pub use decorators::{GatewayWithMetrics, PanelWithMetrics};

use vp_ports::{Clock, Gauges, IdGenerator, Metrics, Store};

use crate::error::AppResult;

pub struct Observability {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) metrics: Arc<dyn Metrics>,
}

impl Observability {
    /// Whether the service can serve: its database answers (`/ready`).
    pub async fn ready(&self) -> AppResult<()> {
        Ok(self.store.ping().await?)
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
        let gauges = Gauges {
            pending_deliveries: backlog.map(|b| b.pending),
            outbox_lag_seconds: backlog
                .map(|b| b.oldest_due_at.map_or(0.0, |due| (now - due).as_seconds_f64().max(0.0))),
            pool: self.store.pool_state(),
        };
        self.metrics.render(&gauges)
    }
}
