//! The error envelope `{error: {code, message, fields}}` and the one mapping from the app
//! layer's errors to HTTP statuses and codes.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;
use vp_app::{AppError, Lang, Refusal};

use crate::messages;

/// Every error code the API answers with: the spec's 25, and four for HTTP-level mistakes
/// the spec does not name (docs/decisions.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    Unauthorized,
    ValidationError,
    RateLimited,
    NewClientsDailyLimit,
    IdempotencyKeyRequired,
    IdempotencyKeyTooLong,
    IdempotencyKeyReuse,
    OperationInProgress,
    PaymentUnavailable,
    UnsupportedPaymentMethod,
    PlanNotFound,
    PaymentNotFound,
    ApiClientNotFound,
    ApiClientBlocked,
    NoActiveSubscription,
    DeviceSlotLimitExceeded,
    DeviceSlotsNotApplicable,
    DevicesNotForSale,
    DeviceNotFound,
    TrialDisabled,
    TrialAlreadyUsed,
    TrialDailyLimit,
    LinkRotateTooSoon,
    ServiceUnavailable,
    InternalError,
    LifetimeSubscription,
    NotFound,
    MethodNotAllowed,
    UnsupportedMediaType,
    PayloadTooLarge,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 30] = [
        ErrorCode::Unauthorized,
        ErrorCode::ValidationError,
        ErrorCode::RateLimited,
        ErrorCode::NewClientsDailyLimit,
        ErrorCode::IdempotencyKeyRequired,
        ErrorCode::IdempotencyKeyTooLong,
        ErrorCode::IdempotencyKeyReuse,
        ErrorCode::OperationInProgress,
        ErrorCode::PaymentUnavailable,
        ErrorCode::UnsupportedPaymentMethod,
        ErrorCode::PlanNotFound,
        ErrorCode::PaymentNotFound,
        ErrorCode::ApiClientNotFound,
        ErrorCode::ApiClientBlocked,
        ErrorCode::NoActiveSubscription,
        ErrorCode::DeviceSlotLimitExceeded,
        ErrorCode::DeviceSlotsNotApplicable,
        ErrorCode::DevicesNotForSale,
        ErrorCode::DeviceNotFound,
        ErrorCode::TrialDisabled,
        ErrorCode::TrialAlreadyUsed,
        ErrorCode::TrialDailyLimit,
        ErrorCode::LinkRotateTooSoon,
        ErrorCode::ServiceUnavailable,
        ErrorCode::InternalError,
        ErrorCode::LifetimeSubscription,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::PayloadTooLarge,
    ];

    /// The spec's status for each code.
    pub const fn status(self) -> StatusCode {
        use ErrorCode::*;
        match self {
            Unauthorized => StatusCode::UNAUTHORIZED,
            ValidationError => StatusCode::UNPROCESSABLE_ENTITY,
            RateLimited | NewClientsDailyLimit | TrialDailyLimit | LinkRotateTooSoon => StatusCode::TOO_MANY_REQUESTS,
            IdempotencyKeyRequired
            | IdempotencyKeyTooLong
            | UnsupportedPaymentMethod
            | NoActiveSubscription
            | DeviceSlotLimitExceeded
            | DeviceSlotsNotApplicable => StatusCode::BAD_REQUEST,
            IdempotencyKeyReuse | OperationInProgress | DevicesNotForSale | TrialAlreadyUsed | LifetimeSubscription => {
                StatusCode::CONFLICT
            }
            PaymentUnavailable | ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            PlanNotFound | PaymentNotFound | ApiClientNotFound | DeviceNotFound | NotFound => StatusCode::NOT_FOUND,
            ApiClientBlocked | TrialDisabled => StatusCode::FORBIDDEN,
            InternalError => StatusCode::INTERNAL_SERVER_ERROR,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        }
    }

    pub fn as_str(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }
}

/// An error on its way to the client. The message is chosen by language when rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub code: ErrorCode,
    /// Field to reason, only for `VALIDATION_ERROR`.
    pub fields: Option<BTreeMap<String, String>>,
    /// Seconds, for `RATE_LIMITED` and `LINK_ROTATE_TOO_SOON`.
    pub retry_after: Option<u64>,
    /// Extra allowed methods for `METHOD_NOT_ALLOWED`.
    pub allow: Option<String>,
}

impl ApiError {
    pub fn new(code: ErrorCode) -> ApiError {
        ApiError { code, fields: None, retry_after: None, allow: None }
    }

    pub fn validation(fields: BTreeMap<String, String>) -> ApiError {
        ApiError { fields: Some(fields), ..ApiError::new(ErrorCode::ValidationError) }
    }

    pub fn field(name: &str, reason: impl Into<String>) -> ApiError {
        ApiError::validation(BTreeMap::from([(name.to_owned(), reason.into())]))
    }

    pub fn retry_after(code: ErrorCode, secs: u64) -> ApiError {
        ApiError { retry_after: Some(secs.max(1)), ..ApiError::new(code) }
    }

    /// The response in a language.
    pub fn render(&self, lang: Lang) -> HttpResponse {
        let mut res = HttpResponse::build(self.code.status());
        if let Some(secs) = self.retry_after {
            res.insert_header((RETRY_AFTER, HeaderValue::from(secs)));
        }
        if let Some(allow) = &self.allow {
            res.insert_header(("allow", allow.as_str()));
        }
        res.json(Envelope {
            error: ErrorBody {
                code: self.code,
                message: messages::message(self.code, lang).to_owned(),
                fields: self.fields.clone(),
            },
        })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.code.as_str())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    /// English; `localize` re-renders it when the request asked for Russian.
    fn error_response(&self) -> HttpResponse {
        self.render(Lang::En)
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope {
    pub error: ErrorBody,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub code: ErrorCode,
    /// For logs, in the language of `Accept-Language`; not for customers.
    pub message: String,
    /// Field to reason for `VALIDATION_ERROR`; `null` for every other code.
    pub fields: Option<BTreeMap<String, String>>,
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        use ErrorCode as C;
        let code = match r {
            Refusal::Unauthorized => C::Unauthorized,
            Refusal::PlanNotFound => C::PlanNotFound,
            Refusal::PaymentNotFound => C::PaymentNotFound,
            Refusal::ClientNotFound => C::ApiClientNotFound,
            Refusal::ClientBlocked => C::ApiClientBlocked,
            Refusal::NoActiveSubscription => C::NoActiveSubscription,
            Refusal::DeviceSlotLimitExceeded => C::DeviceSlotLimitExceeded,
            Refusal::DeviceSlotsNotApplicable => C::DeviceSlotsNotApplicable,
            Refusal::DevicesNotForSale => C::DevicesNotForSale,
            Refusal::DeviceNotFound => C::DeviceNotFound,
            Refusal::UnsupportedPaymentMethod => C::UnsupportedPaymentMethod,
            Refusal::NewClientsDailyLimit => C::NewClientsDailyLimit,
            Refusal::TrialDisabled => C::TrialDisabled,
            Refusal::TrialAlreadyUsed => C::TrialAlreadyUsed,
            Refusal::TrialDailyLimit => C::TrialDailyLimit,
            Refusal::LinkRotateTooSoon { retry_after_secs } => {
                return ApiError::retry_after(C::LinkRotateTooSoon, retry_after_secs);
            }
            Refusal::IdempotencyKeyReuse => C::IdempotencyKeyReuse,
            Refusal::OperationInProgress => C::OperationInProgress,
            Refusal::PaymentUnavailable => C::PaymentUnavailable,
            Refusal::ServiceUnavailable => C::ServiceUnavailable,
            Refusal::LifetimeSubscription => C::LifetimeSubscription,
        };
        ApiError::new(code)
    }
}

/// The single mapping from the app layer to the API.
impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        match e {
            AppError::Refused(r) => r.into(),
            AppError::Validation(fields) => ApiError::validation(fields),
            AppError::NotFound(what) => {
                tracing::error!(what, "unexpected not-found in a partner request");
                ApiError::new(ErrorCode::InternalError)
            }
            AppError::Conflict(msg) => {
                tracing::error!(%msg, "unexpected conflict in a partner request");
                ApiError::new(ErrorCode::InternalError)
            }
            AppError::Store(err) => {
                tracing::error!(error = %err, "storage failed");
                ApiError::new(ErrorCode::InternalError)
            }
        }
    }
}
