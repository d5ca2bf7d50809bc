//! The files pages use, compiled into the binary: the favicon and the copy buttons' script.

use actix_web::HttpResponse;

/// A 32x32 PNG inside an ICO container: what browsers ask `/favicon.ico` for.
const FAVICON: &[u8] = include_bytes!("../../assets/favicon.ico");
/// Progressive: pages work without it (the link stays selectable).
const COPY_JS: &str = include_str!("../../assets/copy.js");

pub async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/x-icon")
        .insert_header(("cache-control", "public, max-age=604800"))
        .body(FAVICON)
}

pub async fn copy_js() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .insert_header(("x-content-type-options", "nosniff"))
        .body(COPY_JS)
}
