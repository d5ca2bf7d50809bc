//! Metrics for operators: what they show beyond what is recorded as it happens (here), and the
//! decorators that time every gateway and panel call (`decorators`).

mod decorators;

pub use decorators::{GatewayWithMetrics, PanelWithMetrics};

use vp_ports::Gauges;

use crate::App;

impl App {
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
