//! Remnawave's webhooks (`WEBHOOK_ENABLED`, `WEBHOOK_URL`, `WEBHOOK_SECRET_HEADER` in the
//! panel's `.env`): `POST /panel/remnawave/webhook`. The panel signs each body with
//! `X-Remnawave-Signature`, the hex HMAC-SHA256 of the body under the shared secret, and sends
//! `{scope, event, timestamp, data}` (`RemnawaveWebhookEventSchema` of the contract). We act on
//! the user events (`user.*`, `data` a user) and the device events (`user_hwid_devices.*`,
//! `data.user`): the user named is handed to the app, which reads it back from the panel. A body
//! whose signature does not verify is refused before it is read; nothing else in it is trusted.

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes, Data};
use actix_web::{HttpRequest, HttpResponse};
use ring::hmac;
use serde::Deserialize;
use serde_json::Value;
use vp_outbound::signature::{hex_hmac, hex_hmac_verifies};
use vp_ports::{PanelEvents, PanelUserChange, PanelUserChecked};

/// Where the panel's `WEBHOOK_URL` points, on our public address.
pub const WEBHOOK_PATH: &str = "/panel/remnawave/webhook";

/// The header carrying the body's signature.
pub const SIGNATURE_HEADER: &str = "x-remnawave-signature";

/// A user object with its devices and squads stays far below this.
const BODY_LIMIT: usize = 256 * 1024;

fn key(secret: &str) -> hmac::Key {
    hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes())
}

/// The hex HMAC-SHA256 of `body` under `secret`, as the panel signs it.
pub fn sign(secret: &str, body: &[u8]) -> String {
    hex_hmac(&key(secret), body)
}

/// Whether `signature` (hex, either case) is the panel's signature of `body` under `secret`,
/// compared in constant time.
pub fn verify(secret: &str, body: &[u8], signature: &str) -> bool {
    hex_hmac_verifies(&key(secret), body, signature.trim())
}

/// The envelope, the fields we read.
#[derive(Deserialize)]
struct Envelope {
    scope: String,
    event: String,
    data: Value,
}

/// What a verified body asks of us: a user to look at again, or nothing (other scopes).
#[derive(Debug, PartialEq, Eq)]
pub enum Told {
    User(PanelUserChange),
    Ignored { event: String },
}

/// Reads a verified body; `Err` says what is malformed.
pub fn read(body: &[u8]) -> Result<Told, String> {
    let envelope: Envelope = serde_json::from_slice(body).map_err(|e| format!("not a webhook body: {e}"))?;
    let user = match envelope.scope.as_str() {
        "user" => &envelope.data,
        "user_hwid_devices" => &envelope.data["user"],
        _ => return Ok(Told::Ignored { event: envelope.event }),
    };
    let username = user["username"].as_str().filter(|u| !u.is_empty()).ok_or("the user has no username")?;
    Ok(Told::User(PanelUserChange { username: username.to_owned(), event: envelope.event }))
}

struct Receiver {
    secret: String,
    events: Arc<dyn PanelEvents>,
}

/// The webhook route, verifying with `secret` and handing users to `events`.
pub fn webhook_routes(secret: String, events: Arc<dyn PanelEvents>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.service(
            web::resource(WEBHOOK_PATH)
                .app_data(Data::new(Receiver { secret, events }))
                .app_data(web::PayloadConfig::new(BODY_LIMIT))
                .route(web::post().to(receive)),
        );
    }
}

fn text(status: StatusCode, text: &str) -> HttpResponse {
    HttpResponse::build(status).content_type("text/plain; charset=utf-8").body(text.to_owned())
}

async fn receive(req: HttpRequest, body: Bytes, receiver: Data<Receiver>) -> HttpResponse {
    let signature = req.headers().get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !verify(&receiver.secret, &body, signature) {
        tracing::warn!("a Remnawave webhook whose signature does not verify: refused");
        return text(StatusCode::UNAUTHORIZED, "invalid signature");
    }
    let change = match read(&body) {
        Ok(Told::User(change)) => change,
        Ok(Told::Ignored { event }) => {
            tracing::debug!(event, "a Remnawave webhook about no user: nothing to do");
            return text(StatusCode::OK, "ignored");
        }
        Err(reason) => return text(StatusCode::BAD_REQUEST, &reason),
    };
    match receiver.events.panel_user_changed(&change).await {
        Ok(PanelUserChecked::Unknown) => text(StatusCode::OK, "unknown user"),
        Ok(PanelUserChecked::InStep) => text(StatusCode::OK, "ok"),
        Ok(PanelUserChecked::Drifted(_)) => text(StatusCode::OK, "drift reported"),
        Err(e) => {
            tracing::warn!(event = %change.event, error = %e, "a Remnawave webhook could not be applied now");
            text(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_only_for_its_body_and_secret() {
        let body = br#"{"scope":"user","event":"user.disabled","timestamp":"2026-12-05T10:00:00.000Z","data":{}}"#;
        let signature = sign("s3cret", body);
        assert_eq!(signature.len(), 64);
        assert!(verify("s3cret", body, &signature));
        assert!(verify("s3cret", body, &signature.to_ascii_uppercase()), "hex in either case");
        assert!(!verify("other", body, &signature));
        assert!(!verify("s3cret", b"{}", &signature));
        for bad in ["", "zz", &signature[..63], &format!("{signature}00")] {
            assert!(!verify("s3cret", body, bad), "{bad:?}");
        }
    }

    #[test]
    fn user_and_device_events_name_their_user_and_other_scopes_are_ignored() {
        let user =
            br#"{"scope":"user","event":"user.disabled","timestamp":"t","data":{"username":"cli_a"},"meta":null}"#;
        let device = br#"{"scope":"user_hwid_devices","event":"user_hwid_devices.added","timestamp":"t",
            "data":{"user":{"username":"cli_b"},"hwidUserDevice":{"hwid":"h"}}}"#;
        let node = br#"{"scope":"node","event":"node.modified","timestamp":"t","data":{"name":"n"}}"#;
        let told = |body: &[u8]| read(body).unwrap();
        let change = |u: &str, e: &str| Told::User(PanelUserChange { username: u.into(), event: e.into() });
        assert_eq!(told(user), change("cli_a", "user.disabled"));
        assert_eq!(told(device), change("cli_b", "user_hwid_devices.added"));
        assert_eq!(told(node), Told::Ignored { event: "node.modified".into() });
        assert!(read(b"[]").is_err());
        assert!(read(br#"{"scope":"user","event":"user.created","timestamp":"t","data":{}}"#).is_err());
    }
}
