//! Error messages for logs, in English and Russian (spec: the error `message` follows
//! `Accept-Language`).

use vp_app::Lang;

use crate::error::ErrorCode;

pub fn message(code: ErrorCode, lang: Lang) -> &'static str {
    let (en, ru) = texts(code);
    lang.pick_str(en, ru)
}

const fn texts(code: ErrorCode) -> (&'static str, &'static str) {
    use ErrorCode::*;
    match code {
        Unauthorized => (
            "The API key is missing, wrong or revoked, or API access is disabled.",
            "Ключ API отсутствует, неверен или отозван, либо доступ к API отключён.",
        ),
        ValidationError => {
            ("The request has fields of the wrong shape; see fields.", "Поля запроса неверного вида; см. fields.")
        }
        RateLimited => (
            "Too many requests; retry after Retry-After seconds.",
            "Слишком много запросов; повторите через Retry-After секунд.",
        ),
        NewClientsDailyLimit => {
            ("The daily limit of new clients is used up.", "Дневной лимит новых клиентов исчерпан.")
        }
        IdempotencyKeyRequired => ("The Idempotency-Key header is required.", "Нужен заголовок Idempotency-Key."),
        IdempotencyKeyTooLong => (
            "The Idempotency-Key header must be at most 200 characters.",
            "Заголовок Idempotency-Key должен быть не длиннее 200 символов.",
        ),
        IdempotencyKeyReuse => (
            "The Idempotency-Key is already bound to an invoice with other fields.",
            "Idempotency-Key уже привязан к счёту с другими полями.",
        ),
        OperationInProgress => (
            "The invoice for this Idempotency-Key is still being issued; retry in a couple of seconds.",
            "Счёт по этому Idempotency-Key ещё выставляется; повторите через пару секунд.",
        ),
        PaymentUnavailable => (
            "The payment service did not answer; no invoice was issued. Retry with the same key.",
            "Платёжный сервис не ответил; счёт не выставлен. Повторите с тем же ключом.",
        ),
        UnsupportedPaymentMethod => ("The payment method is not available.", "Способ оплаты недоступен."),
        PlanNotFound => ("The plan does not exist or is retired.", "Тариф не существует или снят с продажи."),
        PaymentNotFound => ("No such invoice in the account.", "В аккаунте нет такого счёта."),
        ApiClientNotFound => ("No such client in the account.", "В аккаунте нет такого клиента."),
        ApiClientBlocked => ("The client is blocked by the platform.", "Клиент заблокирован платформой."),
        NoActiveSubscription => {
            ("The operation needs an active subscription.", "Для операции нужна активная подписка.")
        }
        DeviceSlotLimitExceeded => {
            ("The client's device ceiling would be exceeded.", "Будет превышен предел устройств клиента.")
        }
        DeviceSlotsNotApplicable => {
            ("The client's devices are unlimited.", "У клиента неограниченное число устройств.")
        }
        DevicesNotForSale => ("Extra devices are not sold now.", "Дополнительные устройства сейчас не продаются."),
        DeviceNotFound => ("The client has no such device.", "У клиента нет такого устройства."),
        TrialDisabled => ("Trials are not enabled for the account.", "Пробный период для аккаунта не включён."),
        TrialAlreadyUsed => ("The client already had a subscription.", "У клиента уже была подписка."),
        TrialDailyLimit => ("The daily trial limit is used up.", "Дневной лимит пробных периодов исчерпан."),
        LinkRotateTooSoon => (
            "The link was rotated less than an hour ago; retry after Retry-After seconds.",
            "Ссылка обновлялась меньше часа назад; повторите через Retry-After секунд.",
        ),
        ServiceUnavailable => (
            "The VPN service did not answer; nothing was changed. Retry later.",
            "VPN-сервис не ответил; ничего не изменено. Повторите позже.",
        ),
        InternalError => ("Internal error; retry the request.", "Внутренняя ошибка; повторите запрос."),
        LifetimeSubscription => {
            ("The client already has a lifetime subscription.", "У клиента уже есть бессрочная подписка.")
        }
        NotFound => ("No such endpoint.", "Такого адреса нет."),
        MethodNotAllowed => ("The endpoint does not support this method.", "Адрес не поддерживает этот метод."),
        UnsupportedMediaType => {
            ("The body must be sent as application/json.", "Тело запроса должно быть application/json.")
        }
        PayloadTooLarge => ("The request body is too large.", "Тело запроса слишком большое."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_message_in_both_languages() {
        for code in ErrorCode::ALL {
            let (en, ru) = texts(code);
            assert!(!en.is_empty() && !ru.is_empty(), "{code:?}");
            assert_ne!(en, ru, "{code:?}");
        }
    }
}
