//! Error messages (spec: the error `message` follows `Accept-Language`), from the message
//! catalogues (`api-error-*` keys).

use vp_app::Lang;

use crate::error::ErrorCode;

pub fn message(code: ErrorCode, lang: Lang) -> String {
    vp_i18n::text(lang, key(code))
}

/// The catalogue key of a code's message.
const fn key(code: ErrorCode) -> &'static str {
    use ErrorCode::*;
    match code {
        Unauthorized => "api-error-unauthorized",
        ValidationError => "api-error-validation-error",
        RateLimited => "api-error-rate-limited",
        NewClientsDailyLimit => "api-error-new-clients-daily-limit",
        IdempotencyKeyRequired => "api-error-idempotency-key-required",
        IdempotencyKeyTooLong => "api-error-idempotency-key-too-long",
        IdempotencyKeyReuse => "api-error-idempotency-key-reuse",
        OperationInProgress => "api-error-operation-in-progress",
        PaymentUnavailable => "api-error-payment-unavailable",
        UnsupportedPaymentMethod => "api-error-unsupported-payment-method",
        PlanNotFound => "api-error-plan-not-found",
        PaymentNotFound => "api-error-payment-not-found",
        ApiClientNotFound => "api-error-api-client-not-found",
        ApiClientBlocked => "api-error-api-client-blocked",
        NoActiveSubscription => "api-error-no-active-subscription",
        DeviceSlotLimitExceeded => "api-error-device-slot-limit-exceeded",
        DeviceSlotsNotApplicable => "api-error-device-slots-not-applicable",
        DevicesNotForSale => "api-error-devices-not-for-sale",
        DeviceNotFound => "api-error-device-not-found",
        TrialDisabled => "api-error-trial-disabled",
        TrialAlreadyUsed => "api-error-trial-already-used",
        TrialDailyLimit => "api-error-trial-daily-limit",
        LinkRotateTooSoon => "api-error-link-rotate-too-soon",
        ServiceUnavailable => "api-error-service-unavailable",
        InternalError => "api-error-internal-error",
        LifetimeSubscription => "api-error-lifetime-subscription",
        PromoCodeNotFound => "api-error-promo-code-not-found",
        PromoCodeExpired => "api-error-promo-code-expired",
        PromoCodeUsedUp => "api-error-promo-code-used-up",
        PromoCodeNotApplicable => "api-error-promo-code-not-applicable",
        NotFound => "api-error-not-found",
        MethodNotAllowed => "api-error-method-not-allowed",
        UnsupportedMediaType => "api-error-unsupported-media-type",
        PayloadTooLarge => "api-error-payload-too-large",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_message_in_both_languages() {
        for code in ErrorCode::ALL {
            let (en, ru) = (message(code, Lang::En), message(code, Lang::Ru));
            assert!(en != key(code) && ru != key(code), "{code:?}: a catalogue lacks its message");
            assert_ne!(en, ru, "{code:?}");
        }
    }
}
