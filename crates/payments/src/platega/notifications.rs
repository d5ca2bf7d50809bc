//! `POST /gateway/platega/notifications`: Platega's callbacks. They carry the merchant's id and
//! secret in `X-MerchantId` and `X-Secret`; a callback without them is refused and changes
//! nothing. Even then the body is not trusted: only the transaction's id (and the invoice id it
//! names, as a hint) is taken, and the transaction is read back from Platega before anything is
//! applied.

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes, Data};
use actix_web::{HttpRequest, HttpResponse};
use vp_domain::GatewayName;
use vp_ports::GatewayEvents;

use super::PlategaGateway;
use super::wire::Callback;
use crate::notified::{Notified, answered, invoice_hint, post_route, text};

pub const NOTIFICATIONS_PATH: &str = "/gateway/platega/notifications";

/// Callback bodies are a few hundred bytes; anything far larger is not Platega.
const BODY_LIMIT: usize = 16 * 1024;

pub fn routes(gateway: Arc<PlategaGateway>, events: Arc<dyn GatewayEvents>) -> impl FnOnce(&mut web::ServiceConfig) {
    post_route(NOTIFICATIONS_PATH, BODY_LIMIT, Notified { gateway, events }, notify)
}

async fn notify(req: HttpRequest, body: Bytes, state: Data<Notified<PlategaGateway>>) -> HttpResponse {
    let header = |name: &str| req.headers().get(name).map(|v| v.as_bytes().to_vec()).unwrap_or_default();
    if !state.gateway.is_merchant(&header("x-merchantid"), &header("x-secret")) {
        tracing::warn!(peer = ?req.peer_addr(), "a Platega callback without the merchant's credentials");
        return text(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let Ok(callback) = serde_json::from_slice::<Callback>(&body) else {
        tracing::warn!("a malformed Platega callback");
        return text(StatusCode::BAD_REQUEST, "not a Platega callback");
    };
    let hint = invoice_hint(callback.payload.as_deref());
    let applied = state.events.payment_changed(GatewayName::Platega, &callback.id, hint).await;
    answered(GatewayName::Platega, &callback.id, applied)
}
