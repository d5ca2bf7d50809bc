//! The error envelope `{error: {code, message, fields}}` and the one mapping from the app
//! layer's errors to HTTP statuses and codes.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;
use vp_app::{AppError, Lang, Refusal};
use vp_domain::promo::PromoRefused;

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
    PromoCodeNotFound,
    PromoCodeExpired,
    PromoCodeUsedUp,
    PromoCodeNotApplicable,
    NotFound,
    MethodNotAllowed,
    UnsupportedMediaType,
    PayloadTooLarge,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 34] = [
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
        ErrorCode::PromoCodeNotFound,
        ErrorCode::PromoCodeExpired,
        ErrorCode::PromoCodeUsedUp,
        ErrorCode::PromoCodeNotApplicable,
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
            | DeviceSlotsNotApplicable
            | PromoCodeNotFound
            | PromoCodeExpired
            | PromoCodeUsedUp
            | PromoCodeNotApplicable => StatusCode::BAD_REQUEST,
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
                message: messages::message(self.code, lang),
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
            Refusal::TooManyFailedAuthentications { retry_after_secs } | Refusal::RateLimited { retry_after_secs } => {
                return ApiError::retry_after(C::RateLimited, retry_after_secs);
            }
            Refusal::IdempotencyKeyReuse => C::IdempotencyKeyReuse,
            Refusal::OperationInProgress => C::OperationInProgress,
            Refusal::PaymentUnavailable => C::PaymentUnavailable,
            Refusal::ServiceUnavailable => C::ServiceUnavailable,
            Refusal::LifetimeSubscription => C::LifetimeSubscription,
            Refusal::Promo(refused) => match refused {
                PromoRefused::Unknown => C::PromoCodeNotFound,
                PromoRefused::Expired => C::PromoCodeExpired,
                PromoRefused::UsedUp => C::PromoCodeUsedUp,
                PromoRefused::NotApplicable => C::PromoCodeNotApplicable,
            },
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
            AppError::Declined(reason) => {
                tracing::error!(%reason, "a cabinet refusal in a partner request");
                ApiError::new(ErrorCode::InternalError)
            }
            AppError::Conflict(msg) => {
                tracing::error!(%msg, "unexpected conflict in a partner request");
                ApiError::new(ErrorCode::InternalError)
            }
            AppError::External(reason) => {
                tracing::error!(%reason, "an external system refused a partner request");
                ApiError::new(ErrorCode::InternalError)
            }
            AppError::Internal(reason) => {
                tracing::error!(%reason, "internal error in a partner request");
                ApiError::new(ErrorCode::InternalError)
            }
            // A unit of work the database kept aborting for lock contention changed nothing:
            // retryable, unlike a failure (docs/decisions.md, "Lock order").
            AppError::Store(vp_ports::StoreError::Busy(reason)) => {
                tracing::warn!(%reason, "storage busy");
                ApiError::new(ErrorCode::ServiceUnavailable)
            }
            AppError::Store(err) => {
                tracing::error!(error = %err, "storage failed");
                ApiError::new(ErrorCode::InternalError)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;
    use vp_ports::StoreError;

    fn body(e: &ApiError, lang: Lang) -> serde_json::Value {
        let bytes = e.render(lang).into_body().try_into_bytes().unwrap_or_default();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[test]
    fn storage_kept_busy_by_lock_contention_is_a_retryable_503() {
        let e = ApiError::from(AppError::Store(StoreError::Busy("deadlock detected".into())));
        assert_eq!(e.code.status(), StatusCode::SERVICE_UNAVAILABLE);
        let b = body(&e, Lang::En);
        assert_eq!(b["error"]["code"], "SERVICE_UNAVAILABLE");
        assert!(!b.to_string().contains("deadlock"), "internals stay in the log");
    }

    #[test]
    fn a_storage_failure_is_an_internal_error_in_the_envelope() {
        let e = ApiError::from(AppError::Store(StoreError::Unavailable("db down".into())));
        assert_eq!(e.code.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let b = body(&e, Lang::En);
        assert_eq!(b["error"]["code"], "INTERNAL_ERROR");
        assert_eq!(b["error"]["fields"], serde_json::Value::Null);
        assert!(!b.to_string().contains("db down"), "internals stay in the log");
    }

    #[test]
    fn a_broken_rule_of_our_own_is_an_internal_error_that_keeps_its_reason_in_the_log() {
        let e = ApiError::from(AppError::Internal("plan 3: the price overflows".into()));
        assert_eq!(e.code.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let b = body(&e, Lang::En);
        assert_eq!(b["error"]["code"], "INTERNAL_ERROR");
        assert!(!b.to_string().contains("overflows"), "internals stay in the log");
    }

    #[test]
    fn statuses_follow_the_specs_table() {
        let expect = [
            ("UNAUTHORIZED", 401),
            ("VALIDATION_ERROR", 422),
            ("RATE_LIMITED", 429),
            ("NEW_CLIENTS_DAILY_LIMIT", 429),
            ("IDEMPOTENCY_KEY_REQUIRED", 400),
            ("IDEMPOTENCY_KEY_TOO_LONG", 400),
            ("IDEMPOTENCY_KEY_REUSE", 409),
            ("OPERATION_IN_PROGRESS", 409),
            ("PAYMENT_UNAVAILABLE", 503),
            ("UNSUPPORTED_PAYMENT_METHOD", 400),
            ("PLAN_NOT_FOUND", 404),
            ("PAYMENT_NOT_FOUND", 404),
            ("API_CLIENT_NOT_FOUND", 404),
            ("API_CLIENT_BLOCKED", 403),
            ("NO_ACTIVE_SUBSCRIPTION", 400),
            ("DEVICE_SLOT_LIMIT_EXCEEDED", 400),
            ("DEVICE_SLOTS_NOT_APPLICABLE", 400),
            ("DEVICES_NOT_FOR_SALE", 409),
            ("DEVICE_NOT_FOUND", 404),
            ("TRIAL_DISABLED", 403),
            ("TRIAL_ALREADY_USED", 409),
            ("TRIAL_DAILY_LIMIT", 429),
            ("LINK_ROTATE_TOO_SOON", 429),
            ("SERVICE_UNAVAILABLE", 503),
            ("INTERNAL_ERROR", 500),
        ];
        for (code, status) in expect {
            let c = ErrorCode::ALL.into_iter().find(|c| c.as_str() == code).unwrap_or_else(|| panic!("{code} missing"));
            assert_eq!(c.status().as_u16(), status, "{code}");
        }
    }

    #[test]
    fn retry_after_is_at_least_one_second_and_only_where_given() {
        let e = ApiError::retry_after(ErrorCode::RateLimited, 0);
        assert_eq!(e.render(Lang::En).headers().get("retry-after").unwrap(), "1");
        assert!(ApiError::new(ErrorCode::TrialDailyLimit).render(Lang::En).headers().get("retry-after").is_none());
    }
}
