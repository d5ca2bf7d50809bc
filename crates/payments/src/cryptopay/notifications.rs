//! `POST /gateway/cryptopay/notifications`: Crypto Pay's updates (webhooks), verified as the API
//! documents: the HMAC-SHA256 of the raw body, keyed with the SHA-256 of the app's token, in
//! `crypto-pay-api-signature`. An update with a bad signature is refused and changes nothing.
//! Even a signed one is not trusted for the outcome: only the invoice's id (and our invoice id
//! it names, as a hint) is taken, and the invoice is read back before anything is applied.

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes, Data};
use actix_web::{HttpRequest, HttpResponse};
use vp_domain::GatewayName;
use vp_ports::GatewayEvents;

use super::CryptoPayGateway;
use super::wire::Update;
use crate::notified::{Notified, answered, invoice_hint, post_route, text};

pub const NOTIFICATIONS_PATH: &str = "/gateway/cryptopay/notifications";

/// An update carries one invoice: a few kilobytes at most.
const BODY_LIMIT: usize = 64 * 1024;

pub fn routes(gateway: Arc<CryptoPayGateway>, events: Arc<dyn GatewayEvents>) -> impl FnOnce(&mut web::ServiceConfig) {
    post_route(NOTIFICATIONS_PATH, BODY_LIMIT, Notified { gateway, events }, notify)
}

async fn notify(req: HttpRequest, body: Bytes, state: Data<Notified<CryptoPayGateway>>) -> HttpResponse {
    let signature = req.headers().get("crypto-pay-api-signature").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !state.gateway.is_signed(&body, signature) {
        tracing::warn!(peer = ?req.peer_addr(), "a Crypto Pay update without the app's signature");
        return text(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let Ok(update) = serde_json::from_slice::<Update>(&body) else {
        tracing::warn!("a malformed Crypto Pay update");
        return text(StatusCode::BAD_REQUEST, "not a Crypto Pay update");
    };
    if update.update_type != "invoice_paid" {
        tracing::info!(update_type = %update.update_type, "a Crypto Pay update of a kind we do not use");
        return text(StatusCode::OK, "ignored");
    }
    let id = update.payload.invoice_id.to_string();
    let hint = invoice_hint(update.payload.payload.as_deref());
    let applied = state.events.payment_changed(GatewayName::CryptoPay, &id, hint).await;
    answered(GatewayName::CryptoPay, &id, applied)
}
