//! How every gateway's notification route answers once the app has applied (or not) what the
//! gateway said: `200` when applied or for a payment none of ours has, `503` when the gateway
//! could not be asked again now and `500` when our side failed; for the last two the gateway
//! sends the notification again (and the reconciliation job runs meanwhile).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use vp_domain::GatewayName;
use vp_ports::GatewayEventError;

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
