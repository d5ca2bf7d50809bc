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
use vp_ports::{GatewayError, GatewayEventError, GatewayEvents, TrustedProxies};

use super::YooKassaGateway;

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
    move |cfg| {
        cfg.service(
            web::resource(NOTIFICATIONS_PATH)
                .app_data(Data::new(Notifications { gateway, events, policy }))
                .app_data(web::PayloadConfig::new(BODY_LIMIT))
                .route(web::post().to(notify)),
        );
    }
}

fn answer(status: actix_web::http::StatusCode, text: &str) -> HttpResponse {
    HttpResponse::build(status).content_type("text/plain; charset=utf-8").body(text.to_owned())
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
        return answer(StatusCode::FORBIDDEN, "forbidden");
    };
    let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let sender = state.policy.trusted_proxies.client_ip(peer, forwarded);
    if !state.policy.admits(sender) {
        tracing::warn!(%sender, %peer, "a YooKassa notification from an address outside VP_YOOKASSA_NOTIFY_FROM");
        return answer(StatusCode::FORBIDDEN, "forbidden");
    }
    let Some((event, object_id)) = read(&body) else {
        tracing::warn!(%sender, "a malformed YooKassa notification");
        return answer(StatusCode::BAD_REQUEST, "not a YooKassa notification");
    };
    let payment_id = match event.as_str() {
        "payment.succeeded" | "payment.canceled" | "payment.waiting_for_capture" => object_id,
        "refund.succeeded" => match state.gateway.refund_payment_id(&object_id).await {
            Ok(payment_id) => payment_id,
            Err(GatewayError::Unavailable(e)) => {
                tracing::warn!(refund = %object_id, error = %e, "cannot re-read a refund now; YooKassa will notify again");
                return answer(StatusCode::SERVICE_UNAVAILABLE, "try again");
            }
            Err(e) => {
                tracing::warn!(refund = %object_id, error = %e, "a refund notification YooKassa does not confirm");
                return answer(StatusCode::OK, "ignored");
            }
        },
        other => {
            tracing::info!(event = other, "a YooKassa notification of an event we do not use");
            return answer(StatusCode::OK, "ignored");
        }
    };
    match state.events.payment_changed(GatewayName::YooKassa, &payment_id, None).await {
        Ok(true) => answer(StatusCode::OK, "ok"),
        Ok(false) => {
            tracing::warn!(payment = %payment_id, %event, "a YooKassa notification for a payment no invoice has");
            answer(StatusCode::OK, "unknown payment")
        }
        // Not 200: YooKassa delivers the notification again later (and reconciliation runs).
        Err(e @ GatewayEventError::Retry(_)) => {
            tracing::warn!(payment = %payment_id, error = %e, "cannot settle a notified payment now");
            answer(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
        Err(e @ GatewayEventError::Failed(_)) => {
            tracing::error!(payment = %payment_id, error = %e, "settling a notified payment failed");
            answer(StatusCode::INTERNAL_SERVER_ERROR, "try again")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &str, proxies: &str) -> NotifyPolicy {
        NotifyPolicy {
            allowed: vp_ports::client_address::parse_ip_list(allowed).unwrap(),
            trusted_proxies: TrustedProxies(vp_ports::client_address::parse_ip_list(proxies).unwrap()),
        }
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_default_list_is_yookassas_published_ranges() {
        let p = policy(DEFAULT_NOTIFY_FROM, "");
        for yes in [
            "185.71.76.0",
            "185.71.76.31",
            "185.71.77.5",
            "77.75.153.127",
            "77.75.156.11",
            "77.75.154.200",
            "2a02:5180:0:1509::1",
        ] {
            assert!(p.admits(ip(yes)), "{yes}");
        }
        for no in ["185.71.76.32", "77.75.156.12", "77.75.153.128", "127.0.0.1", "2a02:5181::1"] {
            assert!(!p.admits(ip(no)), "{no}");
        }
    }

    #[test]
    fn forwarded_for_counts_only_behind_a_trusted_proxy() {
        let p = policy(DEFAULT_NOTIFY_FROM, "10.0.0.0/8");
        let yk = Some("185.71.76.5");
        assert_eq!(
            p.trusted_proxies.client_ip(ip("203.0.113.7"), yk),
            ip("203.0.113.7"),
            "an untrusted peer cannot claim an address"
        );
        assert_eq!(p.trusted_proxies.client_ip(ip("10.1.2.3"), yk), ip("185.71.76.5"));
        assert_eq!(
            p.trusted_proxies.client_ip(ip("10.1.2.3"), Some("185.71.76.5, 10.9.9.9")),
            ip("185.71.76.5"),
            "proxies are skipped"
        );
        assert_eq!(
            p.trusted_proxies.client_ip(ip("10.1.2.3"), Some("185.71.76.5, 203.0.113.7")),
            ip("203.0.113.7"),
            "a spoofed entry left of the real sender is ignored"
        );
        assert_eq!(p.trusted_proxies.client_ip(ip("10.1.2.3"), Some("garbage")), ip("10.1.2.3"));
        assert_eq!(p.trusted_proxies.client_ip(ip("10.1.2.3"), None), ip("10.1.2.3"));
    }

    #[test]
    fn bad_lists_are_refused_with_the_entry_named() {
        let e = vp_ports::client_address::parse_ip_list("185.71.76.0/27, yookassa.ru").unwrap_err();
        assert!(e.contains("yookassa.ru"), "{e}");
        assert!(vp_ports::client_address::parse_ip_list("10.0.0.0/33").is_err());
    }

    #[test]
    fn only_the_event_and_the_objects_id_are_read() {
        let body = br#"{"type":"notification","event":"payment.succeeded","object":{"id":"2f3b588d-000f-5000-8000-1d6e87c7fbde","status":"succeeded"}}"#;
        assert_eq!(read(body), Some(("payment.succeeded".into(), "2f3b588d-000f-5000-8000-1d6e87c7fbde".into())));
        assert_eq!(read(br#"{"type":"other","event":"payment.succeeded","object":{"id":"x"}}"#), None);
        assert_eq!(read(br#"{"type":"notification","event":"payment.succeeded","object":{}}"#), None);
        assert_eq!(read(b"not json"), None);
    }
}
