//! The payment gateway port, shaped after YooKassa v3 / T-Bank `Init`: create a payment with an
//! idempotency key and get a redirect URL. Outcomes come back later through one use case.

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;
use vp_domain::Money;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayPaymentRequest {
    /// Sent as the gateway's idempotency key (our invoice id): a retry after a crash or a
    /// timeout gets the same gateway payment, never a second one.
    pub idempotency_key: String,
    pub amount: Money,
    pub method: String,
    /// Shown on the payment page, e.g. "Fast VPN: 3 months".
    pub description: String,
    pub return_url: Option<String>,
    pub expires_at: OffsetDateTime,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayPayment {
    pub gateway_payment_id: String,
    /// Where the customer pays (`confirmation_url` / `PaymentURL`).
    pub payment_url: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GatewayError {
    /// No answer, a timeout or a 5xx: nothing is known to be issued; retry with the same key.
    #[error("payment gateway unavailable: {0}")]
    Unavailable(String),
    /// The gateway refused the payment (e.g. the method is off on its side).
    #[error("payment gateway refused: {0}")]
    Refused(String),
}

#[async_trait]
pub trait PaymentGateway: Send + Sync {
    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError>;
}
