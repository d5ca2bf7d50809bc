//! The Crypto Pay API's parameters and answers as its most used typed SDK models them (PyPI
//! `aiocryptopay`: `create_invoice`, `get_invoices`, `Invoice`, `Update`), the status
//! mapping, and the updates' signature. docs/cryptopay.md lists the fields we rely on.

use ring::{digest, hmac};
use serde::Deserialize;
use vp_domain::GatewayState;
use vp_ports::GatewayPaymentRequest;

/// The longest `expires_in` the API takes, in seconds (31 days).
const EXPIRES_IN_MAX: i64 = 2_678_400;
/// The longest `description` the API takes, in characters.
const DESCRIPTION_CHARS: usize = 1024;

/// `createInvoice`'s parameters: priced in rubles (`currency_type=fiat`, `fiat=RUB`), paid in
/// `assets`, our invoice id as the `payload`, the invoice's time to pay as `expires_in`.
pub(crate) fn create_params(request: &GatewayPaymentRequest, assets: &str) -> Vec<(&'static str, String)> {
    let expires_in = (request.expires_at - request.issued_at).whole_seconds().clamp(1, EXPIRES_IN_MAX);
    vec![
        ("currency_type", "fiat".into()),
        ("fiat", "RUB".into()),
        ("amount", request.amount.to_string()),
        ("accepted_assets", assets.to_owned()),
        ("description", request.description.chars().take(DESCRIPTION_CHARS).collect()),
        ("payload", request.idempotency_key.clone()),
        ("expires_in", expires_in.to_string()),
        // After paying, the bot shows a button back to where the customer came from.
        ("paid_btn_name", "callback".into()),
        ("paid_btn_url", request.return_url.clone()),
        ("allow_comments", "false".into()),
    ]
}

/// The `{ok, result}` / `{ok: false, error}` envelope.
#[derive(Debug, Deserialize)]
pub(crate) struct Envelope<T> {
    pub ok: bool,
    pub result: Option<T>,
    pub error: Option<ApiError>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ApiError {
    pub code: Option<i64>,
    pub name: Option<String>,
}

/// `Invoice`: what we read of it.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Invoice {
    pub invoice_id: i64,
    pub status: String,
    /// The payment page in the Crypto Bot.
    pub bot_invoice_url: String,
    /// Our invoice id, as we gave it.
    pub payload: Option<String>,
}

/// `getInvoices`' page.
#[derive(Debug, Deserialize)]
pub(crate) struct Page {
    pub items: Vec<Invoice>,
}

/// `Update`: what a webhook names. Only the invoice's id and payload are taken; the invoice
/// is read back before anything is applied.
#[derive(Debug, Deserialize)]
pub(crate) struct Update {
    pub update_type: String,
    pub payload: Invoice,
}

/// Crypto Pay's invoice statuses in the platform's terms.
pub(crate) fn state(status: &str) -> Option<GatewayState> {
    match status {
        "active" => Some(GatewayState::Pending),
        "paid" => Some(GatewayState::Succeeded),
        "expired" => Some(GatewayState::Expired),
        _ => None,
    }
}

/// The key updates are signed with: HMAC-SHA256 keyed with the SHA-256 of the app's token.
pub(crate) fn signing_key(token: &str) -> hmac::Key {
    hmac::Key::new(hmac::HMAC_SHA256, digest::digest(&digest::SHA256, token.as_bytes()).as_ref())
}

/// Whether `signature` (hex, from `crypto-pay-api-signature`) signs `body` under `key`.
pub(crate) fn signed(key: &hmac::Key, body: &[u8], signature: &str) -> bool {
    vp_outbound::signature::hex_hmac_verifies(key, body, signature)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn request() -> GatewayPaymentRequest {
        vp_testkit::fixtures::payment_request()
    }

    #[test]
    fn an_invoice_is_priced_in_rubles_exactly_and_lasts_until_the_deadline() {
        let params = create_params(&request(), "USDT,TON");
        let get = |k: &str| params.iter().find(|(name, _)| *name == k).map(|(_, v)| v.as_str());
        assert_eq!((get("currency_type"), get("fiat")), (Some("fiat"), Some("RUB")));
        assert_eq!(get("amount"), Some("238.80"), "decimal text from the kopecks");
        assert_eq!(get("accepted_assets"), Some("USDT,TON"));
        assert_eq!(get("payload"), Some("pay_AbCdEfGhIjKlMnOpQrStUv"));
        assert_eq!(get("expires_in"), Some("1800"));
        let past = GatewayPaymentRequest { issued_at: datetime!(2026-11-23 13:00 UTC), ..request() };
        let late = create_params(&past, "USDT");
        assert!(late.contains(&("expires_in", "1".into())), "never below the API's minimum");
    }

    #[test]
    fn an_update_is_genuine_only_with_the_tokens_signature() {
        let key = signing_key("1234:AAtoken");
        let body = br#"{"update_id":1,"update_type":"invoice_paid"}"#;
        let tag = vp_outbound::signature::hex_hmac(&key, body);
        assert!(signed(&key, body, &tag));
        assert!(!signed(&key, b"{}", &tag), "another body");
        assert!(!signed(&signing_key("1234:other"), body, &tag), "another token");
        assert!(!signed(&key, body, "zz"), "not hex");
        assert!(!signed(&key, body, &tag[..62]), "cut short");
    }

    #[test]
    fn statuses_map_to_ours() {
        assert_eq!(state("paid"), Some(GatewayState::Succeeded));
        assert_eq!(state("active"), Some(GatewayState::Pending));
        assert_eq!(state("expired"), Some(GatewayState::Expired));
        assert_eq!(state("refunded"), None);
    }
}
