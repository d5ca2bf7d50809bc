use actix_web::web::{Bytes, Data, Path};
use actix_web::{HttpRequest, HttpResponse, get, post};
use vp_app::Refusal;
use vp_app::payments::Payments;
use vp_domain::cabinet::Email;
use vp_domain::limits::PLAN_ID_MAX;
use vp_domain::promo::{PromoCode, PromoCodeMalformed};
use vp_domain::{
    ClientId, IdempotencyKey, IdempotencyKeyError, InvoiceRequest, MethodCode, PaymentId, Purpose, ReturnUrl,
};

use crate::auth::{Partner, PayingPartner};
use crate::body::json_object;
use crate::dto::Payment;
use crate::error::{ApiError, Envelope, ErrorCode};
use crate::openapi::values::{IdempotencyKeyValue, PaymentCreate};

const FIELDS: [&str; 8] =
    ["client_id", "purpose", "method", "plan_id", "devices", "return_url", "customer_email", "promo_code"];

/// A code exactly as the schema's pattern has it: the API does not trim, as pages do.
fn promo_code(text: &str) -> Result<PromoCode, PromoCodeMalformed> {
    if text.trim() != text {
        return Err(PromoCodeMalformed);
    }
    PromoCode::parse(text)
}

/// Reads and checks the body, naming every bad field.
fn invoice_request(req: &HttpRequest, body: Result<Bytes, actix_web::Error>) -> Result<InvoiceRequest, ApiError> {
    let mut body = json_object(req, body, &FIELDS)?;
    let client_id = body.parsed("client_id", true, ClientId::parse);
    let method = body.parsed("method", true, MethodCode::parse);
    let return_url = body.parsed("return_url", false, ReturnUrl::parse);
    let customer_email = body.parsed("customer_email", false, Email::parse);
    let promo_code = body.parsed("promo_code", false, promo_code);
    let plan_id = body.integer("plan_id", 1, PLAN_ID_MAX);
    let devices = body.integer("devices", 1, i64::from(i32::MAX));
    let purpose = match body.string("purpose", true).as_deref() {
        Some("subscription") => {
            if body.has("devices") {
                body.reject("devices", "is allowed only when purpose is devices");
            }
            if !body.has("plan_id") {
                body.reject("plan_id", "is required when purpose is subscription");
            }
            plan_id.and_then(|p| i32::try_from(p).ok()).map(|plan_id| Purpose::Subscription { plan_id })
        }
        Some("devices") => {
            if body.has("plan_id") {
                body.reject("plan_id", "is allowed only when purpose is subscription");
            }
            if !body.has("devices") {
                body.reject("devices", "is required when purpose is devices");
            }
            devices.and_then(|d| u32::try_from(d).ok()).map(|count| Purpose::Devices { count })
        }
        Some(_) => {
            body.reject("purpose", "must be subscription or devices");
            None
        }
        None => None,
    };
    body.finish()?;
    match (client_id, purpose, method) {
        (Some(client_id), Some(purpose), Some(method)) => {
            Ok(InvoiceRequest { client_id, purpose, method, return_url, customer_email, promo_code })
        }
        _ => Err(ApiError::field("body", "is incomplete")),
    }
}

/// Issue an invoice. Idempotent by `Idempotency-Key`: the same key and fields replay the first
/// invoice (`200`, `replayed: true`); after a timeout, a dropped connection or a `5xx`, retry
/// with the same key.
#[utoipa::path(
    tag = "payments",
    security(("PartnerKey" = [])),
    params(("Idempotency-Key" = IdempotencyKeyValue, Header, description = "Unique inside the account; the retry of a request uses the same key")),
    request_body = PaymentCreate,
    responses(
        (status = 201, description = "Invoice issued", body = Payment),
        (status = 200, description = "Replay of the first request with this key", body = Payment),
        (status = 400, description = "IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_TOO_LONG, UNSUPPORTED_PAYMENT_METHOD, NO_ACTIVE_SUBSCRIPTION, DEVICE_SLOT_LIMIT_EXCEEDED, DEVICE_SLOTS_NOT_APPLICABLE, PROMO_CODE_NOT_FOUND, PROMO_CODE_EXPIRED, PROMO_CODE_USED_UP, PROMO_CODE_NOT_APPLICABLE", body = Envelope),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 403, description = "API_CLIENT_BLOCKED", body = Envelope),
        (status = 404, description = "PLAN_NOT_FOUND", body = Envelope),
        (status = 409, description = "IDEMPOTENCY_KEY_REUSE, OPERATION_IN_PROGRESS, DEVICES_NOT_FOR_SALE, LIFETIME_SUBSCRIPTION", body = Envelope),
        (status = 422, description = "VALIDATION_ERROR", body = Envelope),
        (status = 429, description = "RATE_LIMITED (with Retry-After), NEW_CLIENTS_DAILY_LIMIT", body = Envelope),
        (status = 503, description = "PAYMENT_UNAVAILABLE: no invoice issued; retry with the same key", body = Envelope),
    )
)]
#[post("/payments")]
pub async fn create_payment(
    req: HttpRequest,
    partner: PayingPartner,
    payments: Data<Payments>,
    body: Result<Bytes, actix_web::Error>,
) -> Result<HttpResponse, ApiError> {
    let header =
        req.headers().get("idempotency-key").map(|v| v.to_str().map_err(|_| IdempotencyKeyError::NotPrintable));
    let key = match header {
        Some(Err(e)) => Err(e),
        Some(Ok(raw)) => IdempotencyKey::parse(Some(raw)),
        None => IdempotencyKey::parse(None),
    }
    .map_err(|e| match e {
        IdempotencyKeyError::Missing => ApiError::new(ErrorCode::IdempotencyKeyRequired),
        IdempotencyKeyError::TooLong => ApiError::new(ErrorCode::IdempotencyKeyTooLong),
        IdempotencyKeyError::NotPrintable => ApiError::field("Idempotency-Key", e.to_string()),
    })?;
    let request = invoice_request(&req, body)?;
    let view = payments.create_invoice(&partner.0, key, request).await?;
    let mut res = if view.replayed { HttpResponse::Ok() } else { HttpResponse::Created() };
    Ok(res.json(Payment::from(view)))
}

/// Read an invoice. Re-read it before granting anything on the partner side.
#[utoipa::path(
    tag = "payments",
    security(("PartnerKey" = [])),
    params(("payment_id" = String, Path, description = "`payment_id` of an invoice of this account")),
    responses(
        (status = 200, body = Payment),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 404, description = "PAYMENT_NOT_FOUND", body = Envelope),
    )
)]
#[get("/payments/{payment_id}")]
pub async fn get_payment(
    partner: Partner,
    payments: Data<Payments>,
    payment_id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    // Text that is no payment id names no invoice of the account either.
    let payment_id = PaymentId::parse(&payment_id).map_err(|_| ApiError::from(Refusal::PaymentNotFound))?;
    Ok(HttpResponse::Ok().json(Payment::from(payments.invoice_view(&partner.0, &payment_id).await?)))
}
