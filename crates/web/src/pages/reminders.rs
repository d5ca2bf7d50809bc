//! "Get reminders in Telegram": offered on the connect page, the subscription page in a browser
//! and the payment result page when the partner's bot is connected. The button posts to
//! `/reminders/{token}`, which makes a one-time code for the client and sends the browser on to
//! the bot's deep link (a POST, so no prefetch or crawler makes codes).

use actix_web::http::header;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use vp_app::bot_shop::BotShop;
use vp_app::{AppError, Lang};
use vp_i18n::Texts;

use super::kit::{not_found, page_lang, unavailable};
use vp_ports::pages::url_encode;

pub async fn link(req: HttpRequest, shop: Data<BotShop>, token: Path<String>) -> HttpResponse {
    let lang = page_lang(&req);
    match shop.reminders_link(&token).await {
        Ok(deep_link) => HttpResponse::SeeOther().insert_header((header::LOCATION, deep_link)).finish(),
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "a reminders link failed");
            unavailable(&req, lang)
        }
    }
}

/// The offer: what the bot does, and the button.
pub fn offer(lang: Lang, brand: &str, token: &str) -> Markup {
    let tx = Texts(lang);
    html! {
        section.reminders {
            h2 { (tx.get("page-reminders-telegram")) }
            p { (tx.with("page-reminders-telegram-hint", &[("brand", brand.into())])) }
            form method="post" action={ "/reminders/" (url_encode(token)) "?lang=" (lang.code()) } {
                button.button type="submit" { (tx.get("page-reminders-telegram-open")) }
            }
        }
    }
}
