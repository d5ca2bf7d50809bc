//! `/`: a small page naming the service and pointing at its health check, the API reference
//! and the API document.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use vp_app::API_PREFIX;
use vp_i18n::Texts;

use super::kit::{Page, page_lang};

pub async fn show(req: HttpRequest) -> HttpResponse {
    let lang = page_lang(&req);
    let tx = Texts(lang);
    let title = tx.get("page-platform-name");
    let body = html! {
        h1 { (title) }
        p { (tx.get("page-home-what")) }
        ul {
            li { a href={ (API_PREFIX) "/docs" } { (tx.get("page-home-api-reference")) } }
            li { a href={ (API_PREFIX) "/openapi.json" } { (tx.get("page-home-api")) } }
            li { a href="/health" { (tx.get("page-home-health")) } }
        }
        p.muted { (tx.get("page-home-customers")) }
    };
    Page::new(&req, lang, &title).render(StatusCode::OK, body)
}
