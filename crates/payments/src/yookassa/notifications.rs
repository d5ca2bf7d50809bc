//! `POST /gateway/yookassa/notifications`: YooKassa's notifications. They are unsigned, so the
//! sender's address is checked against YooKassa's published ranges, and the body is never
//! trusted: only the object's id is taken from it, and the payment (or refund) is read back
//! from YooKassa with our credentials before anything is applied.

use std::net::IpAddr;
use std::sync::Arc;

use actix_web::web::{self, Bytes, Data};
use actix_web::{HttpRequest, HttpResponse};
use ipnet::IpNet;
use serde_json::Value;
use vp_domain::GatewayName;
use vp_ports::{GatewayError, GatewayEvents, TrustedProxies};

use super::YooKassaGateway;
use crate::notified::{answered, post_route, text};

pub const NOTIFICATIONS_PATH: &str = "/gateway/yookassa/notifications";

/// YooKassa's published notification addresses (the documentation's list).
pub const DEFAULT_NOTIFY_FROM: &str =
    "185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11,77.75.156.35,77.75.154.128/25,2a02:5180::/32";

/// Notification bodies are a few kilobytes; anything far larger is not YooKassa.
const BODY_LIMIT: usize = 64 * 1024;

/// Who may post notifications, and which reverse proxies may say who the sender was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotifyPolicy {
    pub allowed: Vec<IpNet>,
    pub trusted_proxies: TrustedProxies,
}

impl NotifyPolicy {
    pub fn admits(&self, ip: IpAddr) -> bool {
        self.allowed.iter().any(|n| n.contains(&ip))
    }
}

struct Notifications {
    gateway: Arc<YooKassaGateway>,
    events: Arc<dyn GatewayEvents>,
    policy: NotifyPolicy,
}

pub fn routes(
    gateway: Arc<YooKassaGateway>,
    events: Arc<dyn GatewayEvents>,
    policy: NotifyPolicy,
) -> impl FnOnce(&mut web::ServiceConfig) {
    post_route(NOTIFICATIONS_PATH, BODY_LIMIT, Notifications { gateway, events, policy }, notify)
}

/// What a notification names: the event and its object's id, nothing else.
fn read(body: &[u8]) -> Option<(String, String)> {
    let value: Value = serde_json::from_slice(body).ok()?;
    if value.get("type")?.as_str()? != "notification" {
        return None;
    }
    let event = value.get("event")?.as_str()?.to_owned();
    let id = value.get("object")?.get("id")?.as_str()?.to_owned();
    (!id.is_empty() && id.len() <= 64).then_some((event, id))
}

async fn notify(req: HttpRequest, body: Bytes, state: Data<Notifications>) -> HttpResponse {
    use actix_web::http::StatusCode;
    let Some(peer) = req.peer_addr().map(|a| a.ip()) else {
        return text(StatusCode::FORBIDDEN, "forbidden");
    };
    let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let sender = state.policy.trusted_proxies.client_ip(peer, forwarded);
    if !state.policy.admits(sender) {
        tracing::warn!(%sender, %peer, "a YooKassa notification from an address outside VP_YOOKASSA_NOTIFY_FROM");
        return text(StatusCode::FORBIDDEN, "forbidden");
    }
    let Some((event, object_id)) = read(&body) else {
        tracing::warn!(%sender, "a malformed YooKassa notification");
        return text(StatusCode::BAD_REQUEST, "not a YooKassa notification");
    };
    let payment_id = match event.as_str() {
        "payment.succeeded" | "payment.canceled" | "payment.waiting_for_capture" => object_id,
        "refund.succeeded" => match state.gateway.refund_payment_id(&object_id).await {
            Ok(payment_id) => payment_id,
            Err(GatewayError::Unavailable(e)) => {
                tracing::warn!(refund = %object_id, error = %e, "cannot re-read a refund now; YooKassa will notify again");
                return text(StatusCode::SERVICE_UNAVAILABLE, "try again");
            }
            Err(e) => {
                tracing::warn!(refund = %object_id, error = %e, "a refund notification YooKassa does not confirm");
                return text(StatusCode::OK, "ignored");
            }
        },
        other => {
            tracing::info!(event = other, "a YooKassa notification of an event we do not use");
            return text(StatusCode::OK, "ignored");
        }
    };
    let applied = state.events.payment_changed(GatewayName::YooKassa, &payment_id, None).await;
    answered(GatewayName::YooKassa, &payment_id, applied)
}
