//! The event types of the spec (Events), as sent in an event's `type`.

pub const WEBHOOK_TEST: &str = "webhook.test";
pub const PAYMENT_SUCCEEDED: &str = "payment.succeeded";
pub const PAYMENT_EXPIRED: &str = "payment.expired";
pub const SUBSCRIPTION_EXPIRING: &str = "subscription.expiring";
pub const SUBSCRIPTION_EXPIRED: &str = "subscription.expired";
/// What an endpoint can subscribe to; `webhook.test` goes only when the operator asks.
pub const SUBSCRIBABLE: [&str; 4] = [PAYMENT_SUCCEEDED, PAYMENT_EXPIRED, SUBSCRIPTION_EXPIRING, SUBSCRIPTION_EXPIRED];
