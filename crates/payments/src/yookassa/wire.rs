//! YooKassa API v3's shapes, as its API reference and official SDK models (PyPI `yookassa`)
//! define them: only the fields we send and read (docs/yookassa.md lists them), and the
//! mapping between a YooKassa payment and the platform's view of it.

use serde::Deserialize;
use serde_json::{Value, json};
use vp_domain::receipt::Receipt;
use vp_domain::{CURRENCY, GatewayState, Money};
use vp_ports::{GatewayPaymentRequest, SavedMethod, SavedMethodCharge};

/// `payment_method_data.type` values a payment may be created with (the API reference's
/// `PaymentMethodData` enum). A payment method mapped to none of these is refused at setup.
pub const METHOD_TYPES: [&str; 11] = [
    "bank_card",
    "sbp",
    "yoo_money",
    "sberbank",
    "tinkoff_bank",
    "mobile_balance",
    "b2b_sberbank",
    "cash",
    "sber_loan",
    "sber_bnpl",
    "electronic_certificate",
];

/// YooKassa takes at most 128 characters of description.
pub const DESCRIPTION_MAX_CHARS: usize = 128;

#[derive(Debug, Clone, Deserialize)]
pub struct Amount {
    pub value: String,
    pub currency: String,
}

impl Amount {
    /// The amount as exact money; `None` for another currency or a malformed value.
    pub fn money(&self) -> Option<Money> {
        (self.currency == CURRENCY).then(|| self.value.parse().ok()).flatten()
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Confirmation {
    pub confirmation_url: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CancellationDetails {
    pub reason: String,
}

/// The payment method a payment was made with (the SDK's `PaymentMethod`).
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentMethod {
    pub id: String,
    /// Whether it can be charged again without the customer (`payment_method_id`).
    #[serde(default)]
    pub saved: bool,
    pub title: Option<String>,
}

/// The payment object.
#[derive(Debug, Clone, Deserialize)]
pub struct Payment {
    pub id: String,
    /// `pending`, `waiting_for_capture`, `succeeded` or `canceled`.
    pub status: String,
    pub amount: Amount,
    pub confirmation: Option<Confirmation>,
    pub refunded_amount: Option<Amount>,
    pub cancellation_details: Option<CancellationDetails>,
    pub payment_method: Option<PaymentMethod>,
}

impl Payment {
    /// The method this payment saved, once it succeeded.
    pub fn saved_method(&self) -> Option<SavedMethod> {
        let method = self.payment_method.as_ref().filter(|m| m.saved && self.status == "succeeded")?;
        Some(SavedMethod { id: method.id.clone(), title: method.title.clone().unwrap_or_default() })
    }
}

/// The refund object.
#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    pub payment_id: String,
    /// `pending`, `succeeded` or `canceled`.
    pub status: String,
    pub cancellation_details: Option<CancellationDetails>,
}

/// `GET /me`: the shop the credentials belong to.
#[derive(Debug, Clone, Deserialize)]
pub struct Me {
    pub account_id: String,
    pub test: bool,
    /// `enabled` or `disabled`.
    pub status: Option<String>,
    #[serde(default)]
    pub payment_methods: Vec<String>,
}

/// The error object.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ApiError {
    pub code: Option<String>,
    pub description: Option<String>,
    pub parameter: Option<String>,
}

impl ApiError {
    /// A refusal that names the payment method: the type is not available in the shop.
    pub fn is_about_the_method(&self) -> bool {
        matches!(self.code.as_deref(), Some("invalid_request" | "forbidden"))
            && self.parameter.as_deref().is_some_and(|p| p.starts_with("payment_method"))
    }
}

fn amount(money: Money) -> Value {
    json!({ "value": money.to_string(), "currency": CURRENCY })
}

/// At most `DESCRIPTION_MAX_CHARS` characters, cut on a character boundary.
fn description(text: &str) -> String {
    text.chars().take(DESCRIPTION_MAX_CHARS).collect()
}

/// `POST /payments`: the same bytes for the same request, every time. `save_methods`: the
/// shop may save methods, so a periodic plan's payment asks to.
pub fn create_body(r: &GatewayPaymentRequest, save_methods: bool) -> Value {
    let mut body = json!({
        "amount": amount(r.amount),
        "capture": true,
        "confirmation": { "type": "redirect", "return_url": r.return_url },
        "description": description(&r.description),
        "metadata": { "payment_id": r.idempotency_key, "account_id": r.account_id },
    });
    if let Some(kind) = &r.gateway_method {
        body["payment_method_data"] = json!({ "type": kind });
    }
    if r.save_method && save_methods {
        body["save_payment_method"] = json!(true);
    }
    if let Some(r) = &r.receipt {
        body["receipt"] = receipt(r);
    }
    body
}

/// The SDK's `Receipt`: the buyer's email, the lines (`ReceiptItem`: a service paid in full)
/// and the shop's tax system.
pub fn receipt(r: &Receipt) -> Value {
    let items: Vec<Value> = r
        .lines
        .iter()
        .map(|line| {
            json!({
                "description": description(&line.description),
                "quantity": format!("{}.00", line.quantity),
                "amount": amount(Money::from_kopecks(line.price)),
                "vat_code": line.vat_code,
                "payment_subject": "service",
                "payment_mode": "full_payment",
            })
        })
        .collect();
    json!({ "customer": { "email": r.email }, "items": items, "tax_system_code": r.tax_system_code })
}

/// `POST /payments` charging a saved method: no confirmation, the customer is not there.
pub fn saved_method_body(c: &SavedMethodCharge) -> Value {
    let mut body = json!({
        "amount": amount(c.amount),
        "capture": true,
        "payment_method_id": c.saved_method_id,
        "description": description(&c.description),
        "metadata": { "payment_id": c.idempotency_key, "account_id": c.account_id },
    });
    if let Some(r) = &c.receipt {
        body["receipt"] = receipt(r);
    }
    body
}

/// `POST /payments/{id}/capture`: the whole amount.
pub fn capture_body(payment: &Payment) -> Value {
    json!({ "amount": { "value": payment.amount.value, "currency": payment.amount.currency } })
}

/// `POST /refunds`, with the payment's receipt lines as the refund's receipt.
pub fn refund_body(payment_id: &str, money: Money, paid_receipt: Option<&Receipt>) -> Value {
    let mut body =
        json!({ "payment_id": payment_id, "amount": amount(money), "description": "Refund by the platform operator" });
    if let Some(r) = paid_receipt {
        body["receipt"] = receipt(r);
    }
    body
}

/// What a payment means for the platform (`waiting_for_capture` is pending: the adapter
/// captures such a payment before it asks).
pub fn state(payment: &Payment) -> Option<GatewayState> {
    match payment.status.as_str() {
        "pending" | "waiting_for_capture" => Some(GatewayState::Pending),
        "succeeded" => {
            let paid = payment.amount.money();
            let refunded = payment.refunded_amount.as_ref().and_then(Amount::money);
            let full_refund = matches!((paid, refunded), (Some(p), Some(r)) if r >= p && p.is_positive());
            Some(if full_refund { GatewayState::Refunded } else { GatewayState::Succeeded })
        }
        "canceled" => {
            let reason = payment.cancellation_details.as_ref().map(|d| d.reason.as_str());
            Some(if reason == Some("expired_on_confirmation") { GatewayState::Expired } else { GatewayState::Declined })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(gateway_method: Option<&str>) -> GatewayPaymentRequest {
        GatewayPaymentRequest {
            gateway_method: gateway_method.map(str::to_owned),
            ..vp_testkit::fixtures::payment_request()
        }
    }

    #[test]
    fn a_payment_is_created_with_the_fields_the_issue_names() {
        assert_eq!(
            create_body(&request(Some("sbp")), false),
            json!({
                "amount": {"value": "238.80", "currency": "RUB"},
                "capture": true,
                "confirmation": {"type": "redirect", "return_url": "https://shop.example/back"},
                "description": "Fast VPN: 3 months",
                "metadata": {"payment_id": "pay_AbCdEfGhIjKlMnOpQrStUv", "account_id": "acc_1"},
                "payment_method_data": {"type": "sbp"}
            })
        );
        assert!(create_body(&request(None), false).get("payment_method_data").is_none(), "the customer chooses");
        let long = GatewayPaymentRequest { description: "Я".repeat(200), ..request(None) };
        assert_eq!(create_body(&long, false)["description"].as_str().unwrap().chars().count(), 128);
        let periodic = GatewayPaymentRequest { save_method: true, ..request(None) };
        assert_eq!(create_body(&periodic, true)["save_payment_method"], json!(true));
        assert!(create_body(&periodic, false).get("save_payment_method").is_none(), "not before the shop may");
        assert!(create_body(&request(None), true).get("save_payment_method").is_none(), "only periodic plans");
    }

    fn payment(status: &str, refunded: Option<&str>, reason: Option<&str>) -> Payment {
        Payment {
            id: "2f3b588d-000f-5000-8000-1d6e87c7fbde".into(),
            status: status.into(),
            amount: Amount { value: "238.80".into(), currency: "RUB".into() },
            confirmation: None,
            refunded_amount: refunded.map(|v| Amount { value: v.into(), currency: "RUB".into() }),
            cancellation_details: reason.map(|r| CancellationDetails { reason: r.into() }),
            payment_method: None,
        }
    }

    #[test]
    fn a_saved_method_is_charged_without_confirmation_and_read_only_when_saved() {
        let charge = SavedMethodCharge {
            idempotency_key: "pay_renewal".into(),
            account_id: vp_domain::AccountId::issued("acc_1".into()),
            amount: Money::from_kopecks(29_900),
            description: "Fast VPN: 1 month".into(),
            saved_method_id: "2f3b588d-000f-5000-8000-1d6e87c7fbde".into(),
            receipt: None,
        };
        assert_eq!(
            saved_method_body(&charge),
            json!({
                "amount": {"value": "299.00", "currency": "RUB"},
                "capture": true,
                "payment_method_id": "2f3b588d-000f-5000-8000-1d6e87c7fbde",
                "description": "Fast VPN: 1 month",
                "metadata": {"payment_id": "pay_renewal", "account_id": "acc_1"}
            })
        );
        let method = |saved| PaymentMethod { id: "pm_1".into(), saved, title: Some("Bank card *4444".into()) };
        let paid = Payment { payment_method: Some(method(true)), ..payment("succeeded", None, None) };
        assert_eq!(paid.saved_method(), Some(SavedMethod { id: "pm_1".into(), title: "Bank card *4444".into() }));
        let unsaved = Payment { payment_method: Some(method(false)), ..payment("succeeded", None, None) };
        assert_eq!(unsaved.saved_method(), None);
        let pending = Payment { payment_method: Some(method(true)), ..payment("pending", None, None) };
        assert_eq!(pending.saved_method(), None, "nothing is saved before the payment succeeds");
    }

    #[test]
    fn statuses_map_as_the_issue_says() {
        assert_eq!(state(&payment("pending", None, None)), Some(GatewayState::Pending));
        assert_eq!(state(&payment("succeeded", None, None)), Some(GatewayState::Succeeded));
        assert_eq!(state(&payment("succeeded", Some("100.00"), None)), Some(GatewayState::Succeeded), "partial");
        assert_eq!(state(&payment("succeeded", Some("238.80"), None)), Some(GatewayState::Refunded), "full refund");
        let expired = payment("canceled", None, Some("expired_on_confirmation"));
        assert_eq!(state(&expired), Some(GatewayState::Expired));
        let declined = payment("canceled", None, Some("insufficient_funds"));
        assert_eq!(state(&declined), Some(GatewayState::Declined));
        assert_eq!(state(&payment("refunded_somehow", None, None)), None, "an unknown status is not guessed");
    }

    #[test]
    fn only_a_refusal_naming_the_method_means_the_method_is_unavailable() {
        let about = |code: &str, parameter: Option<&str>| ApiError {
            code: Some(code.into()),
            description: None,
            parameter: parameter.map(str::to_owned),
        };
        assert!(about("forbidden", Some("payment_method_data.type")).is_about_the_method());
        assert!(about("invalid_request", Some("payment_method_data")).is_about_the_method());
        assert!(!about("invalid_request", Some("amount.value")).is_about_the_method());
        assert!(!about("invalid_credentials", Some("payment_method_data")).is_about_the_method());
    }
}
