//! The API reference page: `GET /api/partner/v1/docs` renders the served OpenAPI document (every
//! operation, its errors, and the events under "Webhooks") with Redoc's standalone bundle. The
//! bundle is built into the binary from `contract/api-reference/vendor/`, pinned there by a lock
//! file, so the page works offline and loads nothing from anywhere else (its
//! `Content-Security-Policy` says so to the browser too).

use actix_web::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY};
use actix_web::{HttpResponse, web};

/// The pinned Redoc's version (`contract/api-reference/package.json`); it names the bundle's
/// address, so a new version is never served from a browser's cache of the old one.
pub const REDOC_VERSION: &str = "2.5.4";
const REDOC: &[u8] = include_bytes!("../../../contract/api-reference/vendor/redoc.standalone.js");

/// Only this origin; Redoc styles with inline styles, shows embedded SVG images and compiles
/// JSON schemas at run time (`new Function`), so those are allowed, and nothing else.
const POLICY: &str = "default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; \
                      img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; \
                      base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The platform's colours and system fonts (the customer pages' palette), so the reference
/// reads as the platform's and not as a partner's brand.
const INIT: &str = r##"Redoc.init("openapi.json", {
  expandResponses: "200,201",
  jsonSampleExpandLevel: 3,
  pathInMiddlePanel: true,
  hideHostname: true,
  theme: {
    colors: { primary: { main: "#0b57d0" }, success: { main: "#1a7f37" }, text: { primary: "#1b1f24", secondary: "#4a5260" } },
    typography: {
      fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
      headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif", fontWeight: "650" },
      code: { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }
    },
    sidebar: { backgroundColor: "#f6f7f9", textColor: "#1b1f24" },
    rightPanel: { backgroundColor: "#1b1f24" }
  }
}, document.getElementById("reference"));
"##;

fn page() -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Partner API reference</title><link rel=\"icon\" href=\"/favicon.ico\">\
         <style>body{{margin:0}}</style></head>\
         <body><noscript>The reference needs JavaScript; the document itself is \
         <a href=\"openapi.json\">openapi.json</a>.</noscript><div id=\"reference\"></div>\
         <script src=\"docs/redoc-{REDOC_VERSION}.js\"></script><script src=\"docs/init.js\"></script></body></html>\n"
    )
}

fn locked_down(mut res: HttpResponse) -> HttpResponse {
    res.headers_mut().insert(CONTENT_SECURITY_POLICY, actix_web::http::header::HeaderValue::from_static(POLICY));
    res
}

async fn reference_page() -> HttpResponse {
    locked_down(
        HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((CACHE_CONTROL, "no-cache"))
            .body(page()),
    )
}

async fn redoc() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((CACHE_CONTROL, "public, max-age=31536000, immutable"))
        .body(REDOC)
}

async fn init() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((CACHE_CONTROL, "no-cache"))
        .body(INIT)
}

/// The page and its two scripts, inside the API's scope (no key needed, like the document).
pub fn routes(scope: &mut web::ServiceConfig) {
    scope
        .route("/docs", web::get().to(reference_page))
        .route(&format!("/docs/redoc-{REDOC_VERSION}.js"), web::get().to(redoc))
        .route("/docs/init.js", web::get().to(init));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_served_bundle_is_the_version_the_lock_file_pins() {
        let package: serde_json::Value =
            serde_json::from_str(include_str!("../../../contract/api-reference/package.json")).unwrap();
        assert_eq!(package["dependencies"]["redoc"], REDOC_VERSION);
        let lock: serde_json::Value =
            serde_json::from_str(include_str!("../../../contract/api-reference/package-lock.json")).unwrap();
        assert_eq!(lock["packages"]["node_modules/redoc"]["version"], REDOC_VERSION);
        assert!(REDOC.len() > 500_000, "the standalone bundle, not a stub");
    }
}
