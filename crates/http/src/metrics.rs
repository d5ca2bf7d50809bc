//! `GET /metrics` in the Prometheus text format: on the main listener only behind the bearer
//! token `VP_METRICS_TOKEN`, or on a listener of its own (`VP_METRICS_BIND`), where the token is
//! required too when one is set.

use actix_web::{HttpRequest, HttpResponse, web};
use vp_app::observability::Observability;

use crate::auth::bearer;
use crate::error::{ApiError, ErrorCode};

/// Who may read the metrics.
#[derive(Clone)]
pub struct MetricsAccess {
    pub token: Option<String>,
}

pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Registers `GET /metrics`.
pub fn routes(access: MetricsAccess) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(access)).route("/metrics", web::get().to(serve));
    }
}

async fn serve(
    req: HttpRequest,
    observability: web::Data<Observability>,
    access: web::Data<MetricsAccess>,
) -> Result<HttpResponse, ApiError> {
    if let Some(token) = &access.token {
        let given = bearer(&req).unwrap_or_default();
        if !same_secret(given.as_bytes(), token.as_bytes()) {
            return Err(ApiError::new(ErrorCode::Unauthorized));
        }
    }
    Ok(HttpResponse::Ok().content_type(CONTENT_TYPE).body(observability.metrics_text().await))
}

/// Compares without stopping at the first difference, so timing does not reveal the token.
fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len() && given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn only_the_exact_token_passes() {
        assert!(same_secret(b"s3cret-token", b"s3cret-token"));
        assert!(!same_secret(b"s3cret-tokem", b"s3cret-token"));
        assert!(!same_secret(b"s3cret", b"s3cret-token"));
        assert!(!same_secret(b"", b"s3cret-token"));
    }
}
