//! The payment gateway port, shaped after YooKassa v3 / T-Bank `Init`: create a payment with an
//! idempotency key and get a redirect URL; later read what became of it (the gateway's word is
//! the only one trusted), refund it. Outcomes reach the core through one use case, whether a
//! notification, the reconciliation job or an operator command brought them.

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::receipt::Receipt;
use vp_domain::{GatewayName, GatewayState, Money};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayPaymentRequest {
    /// Sent as the gateway's idempotency key (our invoice id): a retry after a crash or a
    /// timeout gets the same gateway payment, never a second one.
    pub idempotency_key: String,
    /// The partner account, for the gateway's metadata.
    pub account_id: AccountId,
    pub amount: Money,
    /// Our payment method code.
    pub method: String,
    /// The gateway's own method type this method maps to (YooKassa's `payment_method_data.type`);
    /// `None` lets the customer choose on the gateway's page.
    pub gateway_method: Option<String>,
    /// Shown on the payment page, e.g. "Fast VPN: 3 months".
    pub description: String,
    /// Where the customer returns after paying: the partner's `return_url`, else the platform's
    /// own payment result page.
    pub return_url: String,
    /// The platform's own payment result page of the invoice, for a gateway that sends the
    /// customer somewhere else when the payment fails.
    pub result_url: String,
    /// When the invoice was issued (the platform's clock) and its payment deadline.
    pub issued_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    /// Ask the gateway to save the method the customer pays with, so a renewal the customer
    /// consents to can charge it (YooKassa's `save_payment_method`): a periodic plan's invoice.
    pub save_method: bool,
    /// The fiscal receipt to send the buyer (54-FZ), while the service sends them.
    pub receipt: Option<Receipt>,
}

/// A payment method the gateway saved with a payment, to charge again without the customer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedMethod {
    /// The gateway's id of the method: a secret, sealed at rest.
    pub id: String,
    /// How the gateway names it ("Bank card *4444").
    pub title: String,
}

/// A renewal: a saved method charged without the customer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedMethodCharge {
    /// Our invoice id: a retry after a crash or a timeout gets the same payment.
    pub idempotency_key: String,
    pub account_id: AccountId,
    pub amount: Money,
    pub description: String,
    pub saved_method_id: String,
    pub receipt: Option<Receipt>,
}

/// What a charge of a saved method came to when it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedMethodPayment {
    pub gateway_payment_id: String,
    pub state: GatewayState,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayPayment {
    pub gateway_payment_id: String,
    /// Where the customer pays (`confirmation_url` / `PaymentURL`).
    pub payment_url: String,
}

/// Where a refund got to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundState {
    /// Accepted; the gateway confirms it later (a notification, or the next read).
    Pending,
    Succeeded,
    /// The gateway refused to refund, with its reason.
    Canceled(String),
}

/// What `gateway check` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayInfo {
    pub gateway: GatewayName,
    pub address: String,
    /// The shop (account) the credentials belong to.
    pub account: Option<String>,
    /// A test shop (no real money).
    pub test: Option<bool>,
    /// Whether the gateway accepts payments now.
    pub enabled: Option<bool>,
    /// The gateway's method types enabled for the shop.
    pub methods: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GatewayError {
    /// No answer, a timeout, a 5xx or "still processing": the outcome is unknown; retry with
    /// the same key.
    #[error("payment gateway unavailable: {0}")]
    Unavailable(String),
    /// The payment method is not available (at the gateway, for this shop). Nothing was issued.
    #[error("payment method not available at the gateway: {0}")]
    MethodUnavailable(String),
    /// The gateway created the payment already canceled, so the same key would only give the
    /// same dead payment: the request must be made anew with a new key.
    #[error("payment gateway declined the payment: {0}")]
    Declined(String),
    /// The gateway refused the request as wrong (a 4xx): our bug or a drift. Logged by the
    /// adapter without secrets; nothing was issued.
    #[error("payment gateway refused the request: {0}")]
    Rejected(String),
}

#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Which gateway this is.
    fn name(&self) -> GatewayName;

    async fn create_payment(&self, request: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError>;

    /// What became of a payment, read from the gateway. A two-stage payment waiting for
    /// capture is captured here (with its own idempotency key) and reported as it then stands.
    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError>;

    /// Refunds `amount` of a payment; `idempotency_key` makes a retry the same refund.
    /// `receipt` is the payment's, sent back as the refund's receipt. A gateway that has no
    /// refunds (`refunds` false, the default) answers `Rejected`.
    async fn refund(
        &self,
        gateway_payment_id: &str,
        _amount: Money,
        _idempotency_key: &str,
        _receipt: Option<&Receipt>,
    ) -> Result<RefundState, GatewayError> {
        Err(GatewayError::Rejected(format!("{} gives no refunds (payment {gateway_payment_id})", self.name())))
    }

    /// The invoice id a payment was made for, as the gateway keeps it beside the payment
    /// (Platega's `payload`, Crypto Pay's): how a payment whose creation's answer was lost is
    /// still matched to its invoice by a gateway that takes no idempotency key. `None`: the
    /// gateway keeps none (a gateway with idempotency keys needs none).
    async fn invoice_of_payment(&self, _gateway_payment_id: &str) -> Result<Option<String>, GatewayError> {
        Ok(None)
    }

    /// Whether the gateway can give a payment back (`refund`); without it a refund is made by
    /// hand.
    fn refunds(&self) -> bool {
        false
    }

    /// Whether the gateway sends the buyer the fiscal receipt a payment carries (54-FZ), so a
    /// payment through it needs the buyer's email while receipts are on.
    fn sends_receipts(&self) -> bool {
        false
    }

    /// Whether outcomes may fail to reach us (a notification lost), so that invoices pending
    /// at the gateway must be re-read by the reconciliation job. The sandbox applies its
    /// outcomes in-process and never loses one.
    fn reconciles(&self) -> bool;

    /// Whether the gateway saves the method a customer pays with, so automatic renewal can be
    /// offered (`saved_method`, `charge_saved_method`; by default it saves none).
    fn saves_methods(&self) -> bool {
        false
    }

    /// The method a succeeded payment saved for charges without the customer; `None` when it
    /// saved none (not asked, or the customer's method cannot be saved).
    async fn saved_method(&self, _gateway_payment_id: &str) -> Result<Option<SavedMethod>, GatewayError> {
        Ok(None)
    }

    /// Charges a saved method. `Declined` (or a `Declined` state) when the method no longer
    /// pays: expired, blocked, not enough money.
    async fn charge_saved_method(&self, charge: &SavedMethodCharge) -> Result<SavedMethodPayment, GatewayError> {
        Err(GatewayError::Rejected(format!("{} keeps no saved methods ({})", self.name(), charge.idempotency_key)))
    }

    /// Reaches the gateway with our credentials and reports the shop.
    async fn check(&self) -> Result<GatewayInfo, GatewayError>;
}

/// The driving side: what a gateway adapter calls when the gateway tells it something (a
/// notification). The app implements it; the adapter never settles anything itself.
#[async_trait]
pub trait GatewayEvents: Send + Sync {
    /// `gateway` says this payment changed; `invoice` is the invoice id the notification names
    /// (a gateway that echoes it), a hint only. The app re-reads the payment through that
    /// gateway and applies what the gateway says. `Ok(false)`: no invoice has this payment of
    /// that gateway.
    async fn payment_changed(
        &self,
        gateway: GatewayName,
        gateway_payment_id: &str,
        invoice: Option<&str>,
    ) -> Result<bool, GatewayEventError>;
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GatewayEventError {
    /// The gateway could not be re-read now; the notification should come again.
    #[error("the payment could not be re-read: {0}")]
    Retry(String),
    /// Our side failed (storage); the notification should come again.
    #[error("the payment could not be settled: {0}")]
    Failed(String),
}
