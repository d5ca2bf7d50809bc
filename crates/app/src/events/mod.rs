//! Events (spec: Events): recorded in the unit of work of the change that causes them, then
//! delivered by the dispatcher on the spec's retry schedule. The operator manages endpoints.

mod dispatch;
pub(crate) mod endpoints;
mod outbox;
mod schedule;

use serde_json::Value;

use crate::views::{ClientView, InvoiceView};

pub use dispatch::DELIVERY_LEASE;
pub use endpoints::TestOutcome;
pub use outbox::event_body;
pub use schedule::TermCheck;

/// Event types of the spec, as sent in `type`.
pub mod types {
    pub const WEBHOOK_TEST: &str = "webhook.test";
    pub const PAYMENT_SUCCEEDED: &str = "payment.succeeded";
    pub const PAYMENT_EXPIRED: &str = "payment.expired";
    pub const SUBSCRIPTION_EXPIRING: &str = "subscription.expiring";
    pub const SUBSCRIPTION_EXPIRED: &str = "subscription.expired";
    /// What an endpoint can subscribe to; `webhook.test` goes only when the operator asks.
    pub const SUBSCRIBABLE: [&str; 4] =
        [PAYMENT_SUCCEEDED, PAYMENT_EXPIRED, SUBSCRIPTION_EXPIRING, SUBSCRIPTION_EXPIRED];
}

/// Renders event data in exactly the shapes the partner API returns (the HTTP adapter owns
/// those shapes), so `payment.succeeded` carries what `GET /payments/{id}` would.
pub trait EventRenderer: Send + Sync {
    fn payment(&self, view: InvoiceView) -> Value;
    fn client(&self, view: ClientView) -> Value;
}
