//! The named value schemas of the document, written from the rules that check the values (the
//! domain's patterns and limits, the app's page rules), so the document says exactly what is
//! accepted: a request the document allows is never refused for its shape, and one it forbids is.
//!
//! Handlers' annotations and the response shapes name these schemas through marker types
//! (`named_schema!`); `components()` supplies their definitions, which `strict` writes into the
//! document.

use serde_json::{Value, json};
use vp_app::clients::{CLIENT_PAGE_DEFAULT, CLIENT_PAGE_MAX, CURSOR_PATTERN};
use vp_domain::identifiers::patterns;
use vp_domain::limits;

/// A type that names a component schema defined in `components()`.
macro_rules! named_schema {
    ($(#[$doc:meta])* $ty:ident => $name:literal) => {
        $(#[$doc])*
        pub struct $ty;
        named_schema!(@impl $ty => $name);
    };
    (@impl $ty:ty => $name:literal) => {
        impl utoipa::PartialSchema for $ty {
            // The definition is `components()[$name]`; this placeholder never reaches the document.
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::RefOr::T(utoipa::openapi::schema::Schema::Object(Default::default()))
            }
        }
        impl utoipa::ToSchema for $ty {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    };
}
pub(crate) use named_schema;

named_schema!(
    /// `client_id` in paths and bodies.
    ClientIdValue => "ClientId"
);
named_schema!(
    /// The `Idempotency-Key` header of `POST /payments`.
    IdempotencyKeyValue => "IdempotencyKey"
);
named_schema!(
    /// `limit` of `GET /clients`.
    PageLimit => "PageLimit"
);
named_schema!(
    /// `cursor` of `GET /clients`.
    PageCursor => "PageCursor"
);
named_schema!(
    /// `status` of `GET /clients`.
    ClientStatusFilter => "ClientStatusFilter"
);
named_schema!(
    /// The body of `POST /payments`.
    PaymentCreate => "PaymentCreate"
);
named_schema!(
    /// The body of `PATCH /account`.
    AccountUpdate => "AccountUpdate"
);

fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// `PaymentCreate` for one purpose: the fields every invoice has, and that purpose's own.
fn payment_create(purpose: &str, field: &str, field_schema: &str, description: &str) -> Value {
    json!({
        "type": "object",
        "description": description,
        "additionalProperties": false,
        "required": ["client_id", "purpose", "method", field],
        "properties": {
            "client_id": reference("ClientId"),
            "purpose": { "type": "string", "enum": [purpose] },
            "method": reference("PaymentMethodCode"),
            field: reference(field_schema),
            "return_url": reference("ReturnUrl"),
            "customer_email": reference("CustomerEmail"),
            "promo_code": reference("PromoCode"),
        },
    })
}

/// Every named value schema, by component name.
pub fn components() -> Vec<(&'static str, Value)> {
    let max_i32 = i64::from(i32::MAX);
    vec![
        (
            "ClientId",
            json!({
                "type": "string",
                "minLength": 1,
                "maxLength": limits::CLIENT_ID_MAX_CHARS,
                "pattern": patterns::CLIENT_ID,
                "description": "The partner's id of a client: Latin letters, digits and `. _ : @ + -`, not `.` or `..`; case-sensitive, unique inside the account.",
                "examples": ["tg:123456789"],
            }),
        ),
        (
            "BrandName",
            json!({
                "type": "string",
                "minLength": 1,
                "maxLength": limits::BRAND_NAME_MAX_CHARS,
                "pattern": patterns::BRAND_NAME,
                "description": "1 to 64 characters as sent, no control characters, not only spaces; kept with surrounding spaces trimmed.",
                "examples": ["Fast VPN"],
            }),
        ),
        (
            "PaymentMethodCode",
            json!({
                "type": "string",
                "minLength": 1,
                "maxLength": limits::METHOD_MAX_CHARS,
                "pattern": patterns::METHOD,
                "description": "A code from `GET /payment-methods`; one not offered now is `400 UNSUPPORTED_PAYMENT_METHOD`.",
                "examples": ["card"],
            }),
        ),
        (
            "ReturnUrl",
            json!({
                "type": "string",
                "minLength": 1,
                "maxLength": limits::RETURN_URL_MAX_CHARS,
                "pattern": patterns::RETURN_URL,
                "description": "https only: where the customer returns after payment.",
                "examples": ["https://shop.example/paid?order=42"],
            }),
        ),
        (
            "IdempotencyKey",
            json!({
                "type": "string",
                "minLength": 1,
                "maxLength": limits::IDEMPOTENCY_KEY_MAX_CHARS,
                "pattern": patterns::IDEMPOTENCY_KEY,
                "description": "1 to 200 printable ASCII characters, unique inside the account; usually the partner's order number. Missing: `400 IDEMPOTENCY_KEY_REQUIRED`; longer: `400 IDEMPOTENCY_KEY_TOO_LONG`.",
                "examples": ["order-20261123-0042"],
            }),
        ),
        ("PlanId", json!({ "type": "integer", "minimum": 1, "maximum": limits::PLAN_ID_MAX })),
        (
            "DeviceCount",
            json!({ "type": "integer", "minimum": 1, "maximum": max_i32, "description": "Devices to add." }),
        ),
        (
            "PageLimit",
            json!({ "type": "integer", "minimum": 1, "maximum": CLIENT_PAGE_MAX, "default": CLIENT_PAGE_DEFAULT }),
        ),
        (
            "PageCursor",
            json!({
                "type": "string",
                "pattern": CURSOR_PATTERN,
                "description": "`next_cursor` of the previous page.",
            }),
        ),
        (
            "ClientStatusFilter",
            json!({
                "type": "string",
                "enum": ["active", "expired", "suspended", "none"],
                "description": "`none`: clients that never had a subscription.",
            }),
        ),
        (
            "CustomerEmail",
            json!({
                "type": "string",
                "format": "email",
                "minLength": 3,
                "maxLength": 254,
                "description": "The buyer's email, where the fiscal receipt (54-FZ) of the payment and of its refund is sent. Required while the service sends receipts (then a request without it gets `422 VALIDATION_ERROR` naming `customer_email`); otherwise optional and unused. Compared without regard to case.",
                "examples": ["buyer@example.com"],
            }),
        ),
        (
            "PromoCode",
            json!({
                "type": "string",
                "pattern": "^[A-Za-z0-9-]{4,32}$",
                "minLength": 4,
                "maxLength": 32,
                "description": "A promo code of the account, compared without regard to case. The invoice's `amount` is the discounted price (the discount comes out of `partner_share`), or the term bought gets the code's extra days. A code that does not exist is `400 PROMO_CODE_NOT_FOUND`; one past its last day or turned off, `PROMO_CODE_EXPIRED`; one whose uses are all held by payable invoices or spent, `PROMO_CODE_USED_UP`; one for other plans, for first purchases only, or for extra devices, `PROMO_CODE_NOT_APPLICABLE`. No invoice is issued then.",
                "examples": ["SPRING-25"],
            }),
        ),
        (
            "PaymentCreateSubscription",
            payment_create("subscription", "plan_id", "PlanId", "A subscription or its renewal."),
        ),
        ("PaymentCreateDevices", payment_create("devices", "devices", "DeviceCount", "Extra devices.")),
        (
            "PaymentCreate",
            json!({
                "oneOf": [reference("PaymentCreateSubscription"), reference("PaymentCreateDevices")],
                "discriminator": {
                    "propertyName": "purpose",
                    "mapping": {
                        "subscription": "#/components/schemas/PaymentCreateSubscription",
                        "devices": "#/components/schemas/PaymentCreateDevices",
                    },
                },
                "description": "Fields are absent or of their type (`null` is refused). `return_url` is optional; `customer_email` is optional unless the service sends fiscal receipts; `promo_code` is optional.",
            }),
        ),
        (
            "AccountUpdate",
            json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["brand_name"],
                "properties": { "brand_name": reference("BrandName") },
            }),
        ),
        (
            "Money",
            json!({
                "type": "string",
                "pattern": r"^(0|[1-9][0-9]*)\.[0-9]{2}$",
                "description": "Rubles with two digits after the point; show as given, never through floating point.",
                "examples": ["238.80"],
            }),
        ),
        (
            "Percent",
            json!({
                "type": "string",
                "pattern": r"^(0|[1-9][0-9]*)\.[0-9]{2}$",
                "description": "Percent with two digits after the point.",
                "examples": ["20.00"],
            }),
        ),
        (
            "Timestamp",
            json!({
                "type": "string",
                "format": "date-time",
                "description": "ISO 8601 in UTC, whole seconds.",
                "examples": ["2026-01-31T12:00:00Z"],
            }),
        ),
    ]
}
