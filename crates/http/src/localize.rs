//! Renders every error in the language of the request: handlers and extractors raise an
//! `ApiError`, which renders English; this middleware re-renders it when Russian was asked for,
//! and turns any other framework error into the envelope.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use vp_app::Lang;

use crate::error::{ApiError, ErrorCode};

pub fn request_lang(req: &actix_web::HttpRequest) -> Lang {
    Lang::from_accept_language(req.headers().get("accept-language").and_then(|v| v.to_str().ok()))
}

pub async fn localize(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let lang = request_lang(req.request());
    let res = next.call(req).await?.map_into_boxed_body();
    let api_error = res.response().error().and_then(|e| e.as_error::<ApiError>()).cloned();
    let replacement = match api_error {
        Some(e) if lang != Lang::En => Some(e),
        Some(_) => None,
        // An error raised by the framework itself (never by our code): keep its status, give it
        // the envelope. The web layer's extractors answer with a page or a redirect of their
        // own (the cabinet's sign-in), which stays as it is.
        None if res.response().error().is_some() && !is_page(res.response()) => {
            Some(ApiError::new(framework_code(res.status())))
        }
        None => None,
    };
    Ok(match replacement {
        Some(e) => res.into_response(e.render(lang)),
        None => res,
    })
}

/// A redirect or an HTML page: an answer made for people, never one of actix's plain-text
/// defaults.
fn is_page(res: &actix_web::HttpResponse) -> bool {
    let html =
        res.headers().get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|t| t.starts_with("text/html"));
    res.status().is_redirection() || html
}

fn framework_code(status: StatusCode) -> ErrorCode {
    match status {
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::PayloadTooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        s if s.is_client_error() => ErrorCode::ValidationError,
        _ => ErrorCode::InternalError,
    }
}
