//! How every gateway's notification route answers once the app has applied (or not) what the
//! gateway said: `200` when applied or for a payment none of ours has, `503` when the gateway
//! could not be asked again now and `500` when our side failed; for the last two the gateway
//! sends the notification again (and the reconciliation job runs meanwhile).

use std::sync::Arc;

use actix_web::http::StatusCode;
use actix_web::web::{self, Data};
use actix_web::{FromRequest, Handler, HttpResponse, Responder};
use vp_domain::GatewayName;
use vp_ports::{GatewayEventError, GatewayEvents};

/// What a notification route is given: its gateway (to check and read back what it was told) and
/// the app, which applies it.
pub(crate) struct Notified<G> {
    pub(crate) gateway: Arc<G>,
    pub(crate) events: Arc<dyn GatewayEvents>,
}

/// `POST path` answered by `notify` with `state`, bodies over `body_limit` bytes refused unread.
pub(crate) fn post_route<S, F, Args>(
    path: &'static str,
    body_limit: usize,
    state: S,
    notify: F,
) -> impl FnOnce(&mut web::ServiceConfig)
where
    S: 'static,
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    move |cfg| {
        cfg.service(
            web::resource(path)
                .app_data(Data::new(state))
                .app_data(web::PayloadConfig::new(body_limit))
                .route(web::post().to(notify)),
        );
    }
}

/// Our invoice id as a notification names it: a hint for finding the invoice, never trusted
/// beyond that (an empty or oversized one is no hint).
pub(crate) fn invoice_hint(payload: Option<&str>) -> Option<&str> {
    payload.filter(|p| !p.is_empty() && p.len() <= 64)
}

pub(crate) fn text(status: StatusCode, text: &str) -> HttpResponse {
    HttpResponse::build(status).content_type("text/plain; charset=utf-8").body(text.to_owned())
}

/// The answer to `gateway`'s notification about `payment`, given what applying it came to.
pub(crate) fn answered(gateway: GatewayName, payment: &str, applied: Result<bool, GatewayEventError>) -> HttpResponse {
    match applied {
        Ok(true) => text(StatusCode::OK, "ok"),
        Ok(false) => {
            tracing::warn!(%gateway, payment, "a notification for a payment no invoice of ours has");
            text(StatusCode::OK, "unknown payment")
        }
        Err(e @ GatewayEventError::Retry(_)) => {
            tracing::warn!(%gateway, payment, error = %e, "cannot settle a notified payment now");
            text(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
        Err(e @ GatewayEventError::Failed(_)) => {
            tracing::error!(%gateway, payment, error = %e, "settling a notified payment failed");
            text(StatusCode::INTERNAL_SERVER_ERROR, "try again")
        }
    }
}
