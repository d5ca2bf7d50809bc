//! Unknown routes and wrong methods of the partner API get the envelope too: `404 NOT_FOUND`,
//! or `405 METHOD_NOT_ALLOWED` with `Allow` when the path exists under another method. Every
//! other unknown path is for a person (a mistyped or stale customer link): the binary sends it
//! to the web surfaces' not-found page (`is_api_path` tells which).

use actix_web::HttpRequest;
use actix_web::dev::ResourceDef;

use crate::API_PREFIX;
use crate::api::ROUTES;
use crate::error::{ApiError, ErrorCode};

pub fn allowed_methods(path: &str) -> Vec<&'static str> {
    let Some(rest) = path.strip_prefix(API_PREFIX) else { return vec![] };
    ROUTES.iter().filter(|(_, template)| ResourceDef::new(*template).is_match(rest)).map(|(m, _)| *m).collect()
}

/// The answer to an `/api/...` path no route took.
pub async fn fallback(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    let allowed = allowed_methods(req.path());
    if allowed.is_empty() {
        return Err(ApiError::new(ErrorCode::NotFound));
    }
    Err(ApiError { allow: Some(allowed.join(", ")), ..ApiError::new(ErrorCode::MethodNotAllowed) })
}

/// `/api/...` paths answer machines; everything else answers people.
pub fn is_api_path(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// The fallback of a listener that serves no partner API (the metrics listener).
pub async fn not_found() -> Result<actix_web::HttpResponse, ApiError> {
    Err(ApiError::new(ErrorCode::NotFound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_paths_name_their_methods_and_unknown_paths_none() {
        assert_eq!(allowed_methods("/api/partner/v1/account"), ["GET", "PATCH"]);
        assert_eq!(allowed_methods("/api/partner/v1/clients/u1/devices/abc"), ["DELETE"]);
        assert_eq!(allowed_methods("/api/partner/v1/clients/u1/trial"), ["POST"]);
        assert!(allowed_methods("/api/partner/v1/nothing").is_empty());
        assert!(allowed_methods("/account").is_empty());
    }

    #[test]
    fn only_paths_under_api_answer_with_the_envelope() {
        assert!(is_api_path("/api/partner/v1/nothing") && is_api_path("/api/other") && is_api_path("/api"));
        assert!(!is_api_path("/connect/abc") && !is_api_path("/apis") && !is_api_path("/"));
    }
}
