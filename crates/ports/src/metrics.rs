//! What the service counts and times for its operators (docs/operations.md, "Metrics").
//! Recording never fails and never waits; an adapter turns it into an exposition format.

use vp_domain::{GatewayName, InvoiceStatus};

/// How a `POST /payments` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvoiceCreation {
    /// A new invoice was issued.
    Issued,
    /// The first request's invoice was returned for a retry with the same key.
    Replayed,
    /// A rule of the spec refused it (4xx).
    Refused,
    /// The gateway did not answer or declined (`PAYMENT_UNAVAILABLE`).
    PaymentUnavailable,
    /// Our failure (5xx).
    Failed,
}

impl InvoiceCreation {
    pub const ALL: [InvoiceCreation; 5] = [
        InvoiceCreation::Issued,
        InvoiceCreation::Replayed,
        InvoiceCreation::Refused,
        InvoiceCreation::PaymentUnavailable,
        InvoiceCreation::Failed,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            InvoiceCreation::Issued => "issued",
            InvoiceCreation::Replayed => "replayed",
            InvoiceCreation::Refused => "refused",
            InvoiceCreation::PaymentUnavailable => "payment_unavailable",
            InvoiceCreation::Failed => "failed",
        }
    }
}

/// The external systems the service calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum External {
    /// A payment gateway, by name.
    Gateway(GatewayName),
    Panel,
}

impl External {
    pub const fn as_str(self) -> &'static str {
        match self {
            External::Gateway(_) => "gateway",
            External::Panel => "panel",
        }
    }

    /// The gateway's name; empty for the panel.
    pub const fn gateway(self) -> &'static str {
        match self {
            External::Gateway(name) => name.as_str(),
            External::Panel => "",
        }
    }
}

/// One webhook attempt's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttemptOutcome {
    /// Answered 2xx.
    Delivered,
    /// Answered with another status.
    Refused,
    /// No answer: connection, TLS, timeout, or an address that may not be reached.
    NetworkError,
}

impl AttemptOutcome {
    pub const ALL: [AttemptOutcome; 3] =
        [AttemptOutcome::Delivered, AttemptOutcome::Refused, AttemptOutcome::NetworkError];

    pub const fn as_str(self) -> &'static str {
        match self {
            AttemptOutcome::Delivered => "delivered",
            AttemptOutcome::Refused => "refused",
            AttemptOutcome::NetworkError => "network_error",
        }
    }
}

/// Database connection pool use at one moment: the connections of every pool together (on
/// PostgreSQL one pool for background work and one for each request worker).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PoolState {
    /// The size of a pool; each is as large (`VP_DB_MAX_CONNECTIONS`).
    pub max: u64,
    pub open: u64,
    pub in_use: u64,
    /// Units of work waiting for a connection.
    pub waiting: u64,
}

/// Values read when the metrics are collected rather than recorded as they happen.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Gauges {
    /// Deliveries not yet delivered nor given up (due now or waiting for a retry); `None` when
    /// the database did not answer.
    pub pending_deliveries: Option<u64>,
    /// How long the oldest delivery due now has been waiting (0 when none is due); `None` when
    /// the database did not answer.
    pub outbox_lag_seconds: Option<f64>,
    pub pool: PoolState,
    /// Paid invoices the last check found without the access they bought: (found, of them
    /// repaired); `None` before the first check or when the database did not answer.
    pub paid_without_access: Option<(u64, u64)>,
    /// Whether the database answered when the metrics were read (what `/ready` asks).
    pub database_up: bool,
    /// Mail neither sent nor given up; `None` when the database did not answer.
    pub mail_pending: Option<u64>,
    /// How long the oldest message due now has been waiting (0 when none is due); `None` when
    /// the database did not answer.
    pub mail_lag_seconds: Option<f64>,
}

/// Whose bot Telegram refused the token of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BotRole {
    /// The platform's notice bot (`VP_TELEGRAM_BOT_TOKEN`): the operator's to fix.
    Platform,
    /// A partner's bot, marked disconnected and its partner told.
    Partner,
}

impl BotRole {
    pub const ALL: [BotRole; 2] = [BotRole::Platform, BotRole::Partner];

    pub const fn as_str(self) -> &'static str {
        match self {
            BotRole::Platform => "platform",
            BotRole::Partner => "partner",
        }
    }
}

pub trait Metrics: Send + Sync {
    /// One HTTP request: `route` is the matched route pattern (never the raw path, so ids do
    /// not become labels), or `unmatched`.
    fn http_request(&self, route: &str, method: &str, status: u16, seconds: f64);
    fn invoice_created(&self, outcome: InvoiceCreation);
    /// An invoice left `pending` (or a paid one was refunded).
    fn invoice_settled(&self, status: InvoiceStatus);
    /// One call to an external system; `outcome` is `ok` or the port's error kind.
    fn external_call(&self, system: External, operation: &'static str, outcome: &'static str, seconds: f64);
    fn webhook_attempt(&self, outcome: AttemptOutcome, seconds: f64);
    /// An event reached an endpoint this long after the delivery was created.
    fn event_delivered(&self, lag_seconds: f64);
    /// A request's per-minute limits were decided by this process because the shared windows
    /// did not answer.
    fn limiter_fallback(&self);
    /// An API key was looked up in the database to authenticate a request; `found` when it
    /// named a usable key. Wrong keys answered from memory or refused per source are not.
    fn key_lookup(&self, found: bool);
    /// Telegram refused a bot's token (revoked in BotFather).
    fn bot_token_refused(&self, bot: BotRole);
    /// Everything recorded, with `gauges`, in the adapter's exposition format.
    fn render(&self, gauges: &Gauges) -> String;
}

/// Records nothing: tools and tests that have no one to report to.
pub struct NoMetrics;

impl Metrics for NoMetrics {
    fn http_request(&self, _: &str, _: &str, _: u16, _: f64) {}
    fn invoice_created(&self, _: InvoiceCreation) {}
    fn invoice_settled(&self, _: InvoiceStatus) {}
    fn external_call(&self, _: External, _: &'static str, _: &'static str, _: f64) {}
    fn webhook_attempt(&self, _: AttemptOutcome, _: f64) {}
    fn event_delivered(&self, _: f64) {}
    fn limiter_fallback(&self) {}
    fn key_lookup(&self, _: bool) {}
    fn bot_token_refused(&self, _: BotRole) {}
    fn render(&self, _: &Gauges) -> String {
        String::new()
    }
}
