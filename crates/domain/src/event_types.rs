//! The event types of the spec (Events), as sent in an event's `type`.

pub const WEBHOOK_TEST: &str = "webhook.test";
pub const PAYMENT_SUCCEEDED: &str = "payment.succeeded";
pub const PAYMENT_EXPIRED: &str = "payment.expired";
pub const SUBSCRIPTION_EXPIRING: &str = "subscription.expiring";
pub const SUBSCRIPTION_EXPIRED: &str = "subscription.expired";
/// Added within v1 (Versioning rule 2): 80 % or all of a subscription's traffic limit used.
pub const SUBSCRIPTION_TRAFFIC_USED: &str = "subscription.traffic_used";
/// What an endpoint can subscribe to; `webhook.test` goes only when the operator asks.
pub const SUBSCRIBABLE: [&str; 5] =
    [PAYMENT_SUCCEEDED, PAYMENT_EXPIRED, SUBSCRIPTION_EXPIRING, SUBSCRIPTION_EXPIRED, SUBSCRIPTION_TRAFFIC_USED];
