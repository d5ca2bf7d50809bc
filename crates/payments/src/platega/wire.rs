//! Platega's request and response types as its SDK models them (PyPI `aioplatega`:
//! `CreateTransaction`, `CreateTransactionResponse`, `TransactionStatusResponse`,
//! `CallbackPayload`), and the mapping of its statuses. docs/platega.md lists the fields we
//! rely on.

use serde::Deserialize;
use vp_domain::GatewayState;
use vp_ports::GatewayPaymentRequest;

/// Our method names for Platega's `paymentMethod` codes (`PaymentMethodInt`).
pub const METHODS: [&str; 2] = ["sbp", "card"];

/// `PaymentMethodInt`: `SBP_QR` = 2, `CARDS_RUB` = 10.
pub(crate) fn method_code(method: Option<&str>) -> Result<u8, String> {
    match method {
        Some("sbp") => Ok(2),
        Some("card") => Ok(10),
        Some(other) => Err(format!("Platega has no method {other:?} (sbp or card)")),
        None => Err("a Platega method names its way to pay: platega:sbp or platega:card".into()),
    }
}

/// A JSON string (quoted and escaped).
fn text(value: &str) -> String {
    serde_json::Value::String(value.to_owned()).to_string()
}

/// `POST /transaction/process`'s body. Platega's `amount` is a JSON number: it is written from
/// the kopecks as decimal text (`199.00` is a JSON number), never through a float.
pub(crate) fn create_body(request: &GatewayPaymentRequest, payment_method: u8) -> String {
    format!(
        r#"{{"paymentMethod":{payment_method},"paymentDetails":{{"amount":{},"currency":"RUB"}},"description":{},"return":{},"failedUrl":{},"payload":{}}}"#,
        request.amount,
        text(&request.description),
        text(&request.return_url),
        text(&request.result_url),
        text(&request.idempotency_key),
    )
}

/// `CreateTransactionResponse`: what we read of it.
#[derive(Debug, Deserialize)]
pub(crate) struct Created {
    #[serde(rename = "transactionId")]
    pub transaction_id: String,
    /// The payment page.
    pub redirect: Option<String>,
    pub status: String,
}

/// `TransactionStatusResponse`: what we read of it.
#[derive(Debug, Deserialize)]
pub(crate) struct Transaction {
    pub id: Option<String>,
    pub status: Option<String>,
    /// Our invoice id, as we gave it.
    pub payload: Option<String>,
}

/// `CallbackPayload`: what a notification names. Only the id and the payload are taken; the
/// transaction is read back before anything is applied.
#[derive(Debug, Deserialize)]
pub(crate) struct Callback {
    pub id: String,
    pub payload: Option<String>,
}

/// Platega's `PaymentStatus` in the platform's terms. `CANCELED` covers a customer who gave
/// up and a transaction that timed out: the payment did not go through. `CHARGEBACKED` is a
/// bank's recall of a confirmed payment.
pub(crate) fn state(status: &str) -> Option<GatewayState> {
    match status {
        "PENDING" => Some(GatewayState::Pending),
        "CONFIRMED" => Some(GatewayState::Succeeded),
        "CANCELED" => Some(GatewayState::Declined),
        "CHARGEBACKED" => Some(GatewayState::Refunded),
        _ => None,
    }
}

/// An error answer's `message`.
pub(crate) fn message(body: &[u8]) -> String {
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vp_domain::Money;

    fn request(kopecks: i64) -> GatewayPaymentRequest {
        GatewayPaymentRequest {
            amount: Money::from_kopecks(kopecks),
            gateway_method: Some("sbp".into()),
            description: "Fast \"VPN\": 1 month".into(),
            ..vp_testkit::fixtures::payment_request()
        }
    }

    #[test]
    fn the_body_carries_the_amount_exactly_and_every_text_escaped() {
        let body: serde_json::Value = serde_json::from_str(&create_body(&request(19_999), 2)).unwrap();
        assert_eq!(body["paymentMethod"], 2);
        assert_eq!(body["paymentDetails"]["currency"], "RUB");
        assert_eq!(body["description"], "Fast \"VPN\": 1 month");
        assert_eq!(body["return"], "https://shop.example/back");
        assert_eq!(body["failedUrl"], "https://vpn.example.com/payment-result/pay_AbCdEfGhIjKlMnOpQrStUv");
        assert_eq!(body["payload"], "pay_AbCdEfGhIjKlMnOpQrStUv");
        let raw = create_body(&request(19_999), 2);
        assert!(raw.contains(r#""amount":199.99,"#), "decimal text, two places: {raw}");
        assert!(create_body(&request(100), 10).contains(r#""amount":1.00,"#));
        assert!(create_body(&request(5), 10).contains(r#""amount":0.05,"#));
    }

    #[test]
    fn methods_map_to_platega_codes_and_statuses_to_ours() {
        assert_eq!(method_code(Some("sbp")), Ok(2));
        assert_eq!(method_code(Some("card")), Ok(10));
        assert!(method_code(Some("crypto")).is_err() && method_code(None).is_err());
        assert_eq!(state("CONFIRMED"), Some(GatewayState::Succeeded));
        assert_eq!(state("CHARGEBACKED"), Some(GatewayState::Refunded));
        assert_eq!(state("CANCELED"), Some(GatewayState::Declined));
        assert_eq!(state("PENDING"), Some(GatewayState::Pending));
        assert_eq!(state("confirmed"), None, "statuses are upper case");
    }
}
