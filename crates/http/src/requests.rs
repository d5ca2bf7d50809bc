//! Every request: an `X-Request-Id` (the caller's, when usable, else a new one) returned on the
//! response and carried by every log line written while the request is handled; its latency
//! and status recorded by matched route; one debug line when it is answered. Routes are
//! patterns (`/sub/{token}`), so neither ids nor link tokens become metric labels or log text.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;
use tracing::Instrument;
use vp_app::observability::Observability;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// Longest caller-chosen request id kept; a longer or odd one is replaced.
pub const REQUEST_ID_MAX_CHARS: usize = 128;

/// The caller's request id when it is 1 to 128 characters of `[A-Za-z0-9._:-]` (UUIDs, trace
/// ids, ours), so it is safe in a header, a log line and a log query.
pub fn usable_request_id(value: &str) -> bool {
    (1..=REQUEST_ID_MAX_CHARS).contains(&value.len())
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

pub async fn track_requests(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let observability = req.app_data::<web::Data<Observability>>().cloned();
    let given = req.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).filter(|v| usable_request_id(v));
    let request_id = match (given, &observability) {
        (Some(id), _) => id.to_owned(),
        (None, Some(observability)) => observability.new_request_id(),
        (None, None) => "req_unknown".to_owned(),
    };
    let method = req.method().as_str().to_owned();
    let span = tracing::info_span!("request", request_id = %request_id);
    let mut res = next.call(req).instrument(span.clone()).await?;
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        res.headers_mut().insert(REQUEST_ID, value);
    }
    // Matched on the path as routed (`%61` decoded), which `HttpRequest::match_pattern`'s raw
    // path is not.
    let routed = res.request();
    let route =
        routed.resource_map().match_pattern(routed.match_info().as_str()).unwrap_or_else(|| "unmatched".to_owned());
    let status = res.status().as_u16();
    let elapsed = started.elapsed();
    if let Some(observability) = &observability {
        observability.http_request(&route, &method, status, elapsed.as_secs_f64());
    }
    span.in_scope(|| {
        let elapsed_ms = (elapsed.as_secs_f64() * 1_000_000.0).round() / 1000.0;
        tracing::debug!(%method, %route, status, elapsed_ms, "request answered");
    });
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_request_ids_are_kept_only_when_safe_to_log_and_echo() {
        for ok in ["7f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b", "req_abc", "trace:1.2", "a"] {
            assert!(usable_request_id(ok), "{ok}");
        }
        let long = "a".repeat(129);
        for bad in ["", "has space", "line\nbreak", "quote\"", "ключ", long.as_str()] {
            assert!(!usable_request_id(bad), "{bad:?}");
        }
    }
}
