//! Automatic renewal on the connect page: while it is on, what it does and a button that turns
//! it off at once. The button posts to `/renewal/{token}/off` (a POST, so no prefetch or
//! crawler turns anything off), which sends the browser back to the page saying it is off.

use actix_web::http::header;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use vp_app::renewals::Renewals;
use vp_app::{AppError, Lang};
use vp_i18n::Texts;
use vp_ports::pages::{connect_page_url, url_encode};

use super::kit::{not_found, page_lang, unavailable};

/// `?renewal=` on the connect page after the button: `off`, or `off-under-way` when a charge
/// that had started completes.
pub const TURNED_OFF: &str = "off";
pub const TURNED_OFF_UNDER_WAY: &str = "off-under-way";

pub async fn turn_off(req: HttpRequest, renewals: Data<Renewals>, token: Path<String>) -> HttpResponse {
    let lang = page_lang(&req);
    match renewals.turn_off_by_link(&token).await {
        Ok(off) => {
            let said = if off.charge_under_way { TURNED_OFF_UNDER_WAY } else { TURNED_OFF };
            let page = connect_page_url("", &token, None);
            let location = format!("{page}?lang={}&renewal={said}", lang.code());
            HttpResponse::SeeOther().insert_header((header::LOCATION, location)).finish()
        }
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "turning automatic renewal off failed");
            unavailable(&req, lang)
        }
    }
}

/// The section: on, with the button; or, just after the button, that it is off.
pub fn section(lang: Lang, on: bool, token: &str, said: Option<&str>) -> Option<Markup> {
    let tx = Texts(lang);
    let done = match said {
        Some(TURNED_OFF) => Some("page-renewal-off-done"),
        Some(TURNED_OFF_UNDER_WAY) => Some("page-renewal-off-under-way"),
        _ => None,
    };
    match (on, done) {
        (true, _) => Some(html! {
            section.renewal {
                h2 { (tx.get("page-renewal-title")) }
                p { (tx.get("page-renewal-on")) }
                form method="post" action={ "/renewal/" (url_encode(token)) "/off?lang=" (lang.code()) } {
                    button.button type="submit" { (tx.get("page-renewal-turn-off")) }
                }
            }
        }),
        (false, Some(key)) => Some(html! { p.ok role="status" { (tx.get(key)) } }),
        (false, None) => None,
    }
}
