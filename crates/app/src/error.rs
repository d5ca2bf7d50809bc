//! The app layer's one error type. Adapters map it once: the CLI to a message and exit code,
//! the HTTP adapter to a status and the error envelope.

use std::collections::BTreeMap;

use thiserror::Error;
use vp_ports::StoreError;

/// Field name to reason, as in the envelope's `fields`.
pub type FieldErrors = BTreeMap<String, String>;

#[derive(Debug, Error)]
pub enum AppError {
    /// Input of the wrong shape; every bad field is named.
    #[error("invalid input: {}", describe(.0))]
    Validation(FieldErrors),
    /// The named thing does not exist (in this account).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// A partner request the spec's rules refuse; each maps to one error code.
    #[error("{0}")]
    Refused(Refusal),
    /// An external system (payment gateway, VPN panel) refused a request it should have taken:
    /// our bug or a drift on its side. Logged where it happens; the partner sees an internal
    /// error and may retry.
    #[error("{0}")]
    External(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Business refusals of the partner API, in the spec's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Refusal {
    #[error("the API key is missing, wrong or revoked, or API access is disabled")]
    Unauthorized,
    #[error("the plan does not exist or is withdrawn")]
    PlanNotFound,
    #[error("no such invoice in the account")]
    PaymentNotFound,
    #[error("no such client in the account")]
    ClientNotFound,
    #[error("the client is blocked by the platform")]
    ClientBlocked,
    #[error("the operation needs an active subscription")]
    NoActiveSubscription,
    #[error("the client's device ceiling would be exceeded")]
    DeviceSlotLimitExceeded,
    #[error("the client's devices are unlimited")]
    DeviceSlotsNotApplicable,
    #[error("extra devices are not sold now")]
    DevicesNotForSale,
    #[error("the client has no such device")]
    DeviceNotFound,
    #[error("the payment method is not available")]
    UnsupportedPaymentMethod,
    #[error("the daily new-client limit is used up")]
    NewClientsDailyLimit,
    #[error("trials are not enabled for the account")]
    TrialDisabled,
    #[error("the client already had a subscription")]
    TrialAlreadyUsed,
    #[error("the daily trial limit is used up")]
    TrialDailyLimit,
    #[error("the link was rotated less than an hour ago")]
    LinkRotateTooSoon { retry_after_secs: u64 },
    #[error("the idempotency key is already bound to an invoice with other fields")]
    IdempotencyKeyReuse,
    #[error("the invoice for this idempotency key is still being issued")]
    OperationInProgress,
    #[error("the payment service did not answer; no invoice was issued")]
    PaymentUnavailable,
    #[error("the VPN service did not answer; nothing was changed")]
    ServiceUnavailable,
    #[error("the client already has a lifetime subscription")]
    LifetimeSubscription,
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> Self {
        AppError::Refused(r)
    }
}

fn describe(fields: &FieldErrors) -> String {
    fields.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ")
}

impl AppError {
    pub fn field(name: &str, reason: impl ToString) -> AppError {
        AppError::Validation(BTreeMap::from([(name.to_owned(), reason.to_string())]))
    }
}

pub type AppResult<T> = Result<T, AppError>;
