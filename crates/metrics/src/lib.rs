//! The Prometheus adapter of `Metrics`: one registry per process, rendered in the text
//! exposition format for `GET /metrics`. The names and what to alert on: docs/operations.md.

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
    TextEncoder,
};
use vp_domain::InvoiceStatus;
use vp_ports::{AttemptOutcome, BotRole, External, Gauges, InvoiceCreation, Metrics};

/// Latency buckets of requests we answer, in seconds.
const REQUEST_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Latency buckets of calls we make (gateway, panel, partners' endpoints), in seconds.
const CALL_BUCKETS: &[f64] = &[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0, 30.0];
/// From a delivery's creation to its success, in seconds: up to the retry schedule's days.
const LAG_BUCKETS: &[f64] =
    &[0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 1800.0, 7200.0, 21600.0, 86400.0, 259_200.0];

pub struct PrometheusMetrics {
    registry: Registry,
    http_requests: HistogramVec,
    invoices_created: IntCounterVec,
    invoices_settled: IntCounterVec,
    external_calls: HistogramVec,
    webhook_attempts: HistogramVec,
    delivery_lag: Histogram,
    limiter_fallbacks: IntCounter,
    key_lookups: prometheus::IntCounterVec,
    pending_deliveries: prometheus::Gauge,
    outbox_lag: prometheus::Gauge,
    paid_without_access: prometheus::GaugeVec,
    pool_connections: IntGaugeVec,
    pool_max: IntGauge,
    pool_waiting: IntGauge,
    database_up: IntGauge,
    mail_pending: prometheus::Gauge,
    mail_lag: prometheus::Gauge,
    bot_tokens_refused: IntCounterVec,
}

fn histogram(name: &str, help: &str, buckets: &[f64], labels: &[&str]) -> HistogramVec {
    let opts = HistogramOpts::new(name, help).buckets(buckets.to_vec());
    HistogramVec::new(opts, labels).unwrap_or_else(|e| unreachable!("metric {name} is well-formed: {e}"))
}

fn counter(name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    IntCounterVec::new(Opts::new(name, help), labels).unwrap_or_else(|e| unreachable!("metric {name}: {e}"))
}

fn gauge(name: &str, help: &str) -> IntGauge {
    IntGauge::new(name, help).unwrap_or_else(|e| unreachable!("metric {name}: {e}"))
}

fn float_gauge(name: &str, help: &str) -> prometheus::Gauge {
    prometheus::Gauge::new(name, help).unwrap_or_else(|e| unreachable!("metric {name}: {e}"))
}

impl PrometheusMetrics {
    pub fn new() -> PrometheusMetrics {
        let m = PrometheusMetrics {
            registry: Registry::new(),
            http_requests: histogram(
                "vp_http_request_duration_seconds",
                "HTTP requests answered, by matched route, method and status (the _count is the request count).",
                REQUEST_BUCKETS,
                &["route", "method", "status"],
            ),
            invoices_created: counter(
                "vp_invoices_created_total",
                "POST /payments by outcome: issued, replayed, refused, payment_unavailable, failed.",
                &["outcome"],
            ),
            invoices_settled: counter(
                "vp_invoices_settled_total",
                "Invoices leaving pending (succeeded, failed, expired), and refunds (failed after succeeded).",
                &["status"],
            ),
            external_calls: histogram(
                "vp_external_call_duration_seconds",
                "Calls to the payment gateways (by name) and the VPN panel, by operation and outcome (ok or the error kind).",
                CALL_BUCKETS,
                &["system", "gateway", "operation", "outcome"],
            ),
            webhook_attempts: histogram(
                "vp_webhook_attempt_duration_seconds",
                "Webhook delivery attempts by outcome: delivered, refused (non-2xx), network_error.",
                CALL_BUCKETS,
                &["outcome"],
            ),
            delivery_lag: Histogram::with_opts(
                HistogramOpts::new(
                    "vp_event_delivery_lag_seconds",
                    "From an event's delivery being created to the endpoint accepting it.",
                )
                .buckets(LAG_BUCKETS.to_vec()),
            )
            .unwrap_or_else(|e| unreachable!("metric vp_event_delivery_lag_seconds: {e}")),
            limiter_fallbacks: IntCounter::new(
                "vp_limiter_fallbacks_total",
                "Requests whose per-minute limits this process decided because Redis did not answer.",
            )
            .unwrap_or_else(|e| unreachable!("metric vp_limiter_fallbacks_total: {e}")),
            key_lookups: prometheus::IntCounterVec::new(
                prometheus::Opts::new(
                    "vp_api_key_lookups_total",
                    "API keys looked up in the database to authenticate a request, by whether a usable key was found.",
                ),
                &["found"],
            )
            .unwrap_or_else(|e| unreachable!("metric vp_api_key_lookups_total: {e}")),
            pending_deliveries: prometheus::Gauge::new(
                "vp_deliveries_pending",
                "Webhook deliveries neither delivered nor given up (due now or waiting for a retry); NaN when the database did not answer.",
            )
            .unwrap_or_else(|e| unreachable!("metric vp_deliveries_pending: {e}")),
            outbox_lag: prometheus::Gauge::new(
                "vp_outbox_lag_seconds",
                "How long the oldest delivery that is due now has been waiting (0 when none is due; NaN when the database did not answer).",
            )
            .unwrap_or_else(|e| unreachable!("metric vp_outbox_lag_seconds: {e}")),
            paid_without_access: prometheus::GaugeVec::new(
                Opts::new(
                    "vp_paid_without_access",
                    "Invoices paid in the last two days that the last hourly check found without the access they bought, by whether it repaired them (NaN before the first check).",
                ),
                &["repaired"],
            )
            .unwrap_or_else(|e| unreachable!("metric vp_paid_without_access: {e}")),
            pool_connections: IntGaugeVec::new(
                Opts::new("vp_db_pool_connections", "Open database connections of this process, by state."),
                &["state"],
            )
            .unwrap_or_else(|e| unreachable!("metric vp_db_pool_connections: {e}")),
            pool_max: gauge("vp_db_pool_max_connections", "The connection pool's size (VP_DB_MAX_CONNECTIONS)."),
            pool_waiting: gauge("vp_db_pool_waiting", "Units of work waiting for a database connection."),
            database_up: gauge("vp_database_up", "1 when the database answered as the metrics were read (what /ready asks), else 0."),
            mail_pending: float_gauge(
                "vp_mail_outbox_pending",
                "Mail neither sent nor given up; NaN when the database did not answer.",
            ),
            mail_lag: float_gauge(
                "vp_mail_outbox_lag_seconds",
                "How long the oldest message due now has been waiting (0 when none is due; NaN when the database did not answer).",
            ),
            bot_tokens_refused: counter(
                "vp_bot_tokens_refused_total",
                "Telegram refused a bot's token (revoked in BotFather): the platform's notice bot, or a partner's (disconnected, its partner told).",
                &["bot"],
            ),
        };
        let collectors: [Box<dyn prometheus::core::Collector>; 18] = [
            Box::new(m.http_requests.clone()),
            Box::new(m.invoices_created.clone()),
            Box::new(m.invoices_settled.clone()),
            Box::new(m.external_calls.clone()),
            Box::new(m.webhook_attempts.clone()),
            Box::new(m.delivery_lag.clone()),
            Box::new(m.limiter_fallbacks.clone()),
            Box::new(m.key_lookups.clone()),
            Box::new(m.pending_deliveries.clone()),
            Box::new(m.outbox_lag.clone()),
            Box::new(m.paid_without_access.clone()),
            Box::new(m.pool_connections.clone()),
            Box::new(m.pool_max.clone()),
            Box::new(m.pool_waiting.clone()),
            Box::new(m.database_up.clone()),
            Box::new(m.mail_pending.clone()),
            Box::new(m.mail_lag.clone()),
            Box::new(m.bot_tokens_refused.clone()),
        ];
        for c in collectors {
            m.registry.register(c).unwrap_or_else(|e| unreachable!("metric names are distinct: {e}"));
        }
        // Every outcome is shown from the start, so rates and alerts work before the first one.
        for outcome in InvoiceCreation::ALL {
            m.invoices_created.with_label_values(&[outcome.as_str()]);
        }
        for status in [InvoiceStatus::Succeeded, InvoiceStatus::Failed, InvoiceStatus::Expired] {
            m.invoices_settled.with_label_values(&[status.as_str()]);
        }
        for outcome in [AttemptOutcome::Delivered, AttemptOutcome::Refused, AttemptOutcome::NetworkError] {
            m.webhook_attempts.with_label_values(&[outcome.as_str()]);
        }
        for bot in BotRole::ALL {
            m.bot_tokens_refused.with_label_values(&[bot.as_str()]);
        }
        m
    }
}

impl Default for PrometheusMetrics {
    fn default() -> Self {
        PrometheusMetrics::new()
    }
}

impl Metrics for PrometheusMetrics {
    fn http_request(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.http_requests.with_label_values(&[route, method, &status.to_string()]).observe(seconds);
    }

    fn invoice_created(&self, outcome: InvoiceCreation) {
        self.invoices_created.with_label_values(&[outcome.as_str()]).inc();
    }

    fn invoice_settled(&self, status: InvoiceStatus) {
        self.invoices_settled.with_label_values(&[status.as_str()]).inc();
    }

    fn external_call(&self, system: External, operation: &'static str, outcome: &'static str, seconds: f64) {
        self.external_calls
            .with_label_values(&[system.as_str(), system.gateway(), operation, outcome])
            .observe(seconds);
    }

    fn webhook_attempt(&self, outcome: AttemptOutcome, seconds: f64) {
        self.webhook_attempts.with_label_values(&[outcome.as_str()]).observe(seconds);
    }

    fn event_delivered(&self, lag_seconds: f64) {
        self.delivery_lag.observe(lag_seconds.max(0.0));
    }

    fn limiter_fallback(&self) {
        self.limiter_fallbacks.inc();
    }

    fn key_lookup(&self, found: bool) {
        self.key_lookups.with_label_values(&[if found { "true" } else { "false" }]).inc();
    }

    fn bot_token_refused(&self, bot: BotRole) {
        self.bot_tokens_refused.with_label_values(&[bot.as_str()]).inc();
    }

    fn render(&self, gauges: &Gauges) -> String {
        // Unknown is NaN, not 0: a dashboard must not read a database outage as an empty backlog.
        self.pending_deliveries.set(gauges.pending_deliveries.map_or(f64::NAN, |n| n as f64));
        self.outbox_lag.set(gauges.outbox_lag_seconds.map_or(f64::NAN, |s| s.max(0.0)));
        let (repaired, not_repaired) = match gauges.paid_without_access {
            Some((found, repaired)) => (repaired as f64, found.saturating_sub(repaired) as f64),
            None => (f64::NAN, f64::NAN),
        };
        self.paid_without_access.with_label_values(&["true"]).set(repaired);
        self.paid_without_access.with_label_values(&["false"]).set(not_repaired);
        let pool = gauges.pool;
        let idle = pool.open.saturating_sub(pool.in_use);
        self.pool_connections.with_label_values(&["in_use"]).set(i64::try_from(pool.in_use).unwrap_or(i64::MAX));
        self.pool_connections.with_label_values(&["idle"]).set(i64::try_from(idle).unwrap_or(i64::MAX));
        self.pool_max.set(i64::try_from(pool.max).unwrap_or(i64::MAX));
        self.pool_waiting.set(i64::try_from(pool.waiting).unwrap_or(i64::MAX));
        self.database_up.set(i64::from(gauges.database_up));
        self.mail_pending.set(gauges.mail_pending.map_or(f64::NAN, |n| n as f64));
        self.mail_lag.set(gauges.mail_lag_seconds.map_or(f64::NAN, |s| s.max(0.0)));
        let mut out = Vec::new();
        // Encoding into memory fails only on a malformed family, which registration rules out.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vp_domain::GatewayName;

    fn line<'a>(text: &'a str, starts: &str) -> Option<&'a str> {
        text.lines().find(|l| l.starts_with(starts))
    }

    #[test]
    fn recorded_values_appear_in_the_text_format_with_their_labels() {
        let m = PrometheusMetrics::new();
        m.http_request("/api/partner/v1/payments", "POST", 201, 0.004);
        m.http_request("/api/partner/v1/payments", "POST", 201, 0.2);
        m.invoice_created(InvoiceCreation::Issued);
        m.invoice_settled(InvoiceStatus::Succeeded);
        m.external_call(External::Gateway(GatewayName::YooKassa), "create_payment", "unavailable", 10.0);
        m.webhook_attempt(AttemptOutcome::NetworkError, 0.3);
        m.event_delivered(1.5);
        m.limiter_fallback();
        m.key_lookup(false);
        m.bot_token_refused(BotRole::Partner);
        let gauges = Gauges {
            pending_deliveries: Some(7),
            outbox_lag_seconds: Some(2.5),
            pool: vp_ports::PoolState { max: 8, open: 3, in_use: 2, waiting: 1 },
            paid_without_access: Some((3, 2)),
            database_up: true,
            mail_pending: Some(4),
            mail_lag_seconds: Some(12.0),
        };
        let text = m.render(&gauges);
        let count =
            r#"vp_http_request_duration_seconds_count{method="POST",route="/api/partner/v1/payments",status="201"} 2"#;
        assert!(text.contains(count), "{text}");
        let fast = r#"vp_http_request_duration_seconds_bucket{method="POST",route="/api/partner/v1/payments",status="201",le="0.005"} 1"#;
        assert!(text.contains(fast), "{text}");
        assert_eq!(
            line(&text, r#"vp_invoices_created_total{outcome="issued"}"#),
            Some(r#"vp_invoices_created_total{outcome="issued"} 1"#)
        );
        assert_eq!(
            line(&text, r#"vp_invoices_created_total{outcome="refused"}"#),
            Some(r#"vp_invoices_created_total{outcome="refused"} 0"#),
            "shown before the first"
        );
        assert!(text.contains(r#"vp_invoices_settled_total{status="succeeded"} 1"#));
        assert!(text.contains(r#"vp_external_call_duration_seconds_count{gateway="yookassa",operation="create_payment",outcome="unavailable",system="gateway"} 1"#));
        assert!(text.contains(r#"vp_webhook_attempt_duration_seconds_count{outcome="network_error"} 1"#));
        assert!(text.contains("vp_event_delivery_lag_seconds_sum 1.5"));
        assert!(text.contains("vp_limiter_fallbacks_total 1"));
        assert!(text.contains(r#"vp_api_key_lookups_total{found="false"} 1"#));
        assert!(text.contains("vp_deliveries_pending 7"));
        assert!(text.contains("vp_outbox_lag_seconds 2.5"));
        assert!(text.contains(r#"vp_paid_without_access{repaired="true"} 2"#), "{text}");
        assert!(text.contains(r#"vp_paid_without_access{repaired="false"} 1"#), "{text}");
        assert!(text.contains(r#"vp_db_pool_connections{state="in_use"} 2"#));
        assert!(text.contains(r#"vp_db_pool_connections{state="idle"} 1"#));
        assert!(text.contains("vp_db_pool_max_connections 8"));
        assert!(text.contains("vp_db_pool_waiting 1"));
        assert!(text.contains("# TYPE vp_http_request_duration_seconds histogram"));
        assert!(text.contains("vp_database_up 1"));
        assert!(text.contains("vp_mail_outbox_pending 4") && text.contains("vp_mail_outbox_lag_seconds 12"));
        assert!(text.contains(r#"vp_bot_tokens_refused_total{bot="partner"} 1"#));
        assert!(text.contains(r#"vp_bot_tokens_refused_total{bot="platform"} 0"#), "shown before the first");
        let unknown = m.render(&Gauges::default());
        assert!(unknown.contains("vp_deliveries_pending NaN") && unknown.contains("vp_outbox_lag_seconds NaN"));
        assert!(unknown.contains("vp_database_up 0") && unknown.contains("vp_mail_outbox_pending NaN"));
    }
}
