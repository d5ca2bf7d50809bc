//! The account's web shop, `/shop/{slug}`, under its brand and style in ru or en: the plans
//! with their terms and prices, the device offer, the trial where the account gives one, the
//! partner's bot to buy in, the legal documents and the support address. A slug no account
//! has gets the not-found page.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use vp_app::shop::{Shop, ShopPage};
use vp_app::{AppError, Lang};
use vp_i18n::Texts;

use super::kit::{Page, not_found, page_lang, unavailable};

pub async fn show(req: HttpRequest, shop: Data<Shop>, slug: Path<String>) -> HttpResponse {
    let lang = page_lang(&req);
    match shop.page(&slug, lang).await {
        Ok(page) => {
            let brand = page.account.brand_name.as_str();
            let title = Texts(lang).with("shop-page-title", &[("brand", brand.into())]);
            Page::new(&req, lang, &title)
                .brand(brand)
                .style(&page.account.style)
                .render(StatusCode::OK, render(lang, &title, &page))
        }
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "shop page failed");
            unavailable(&req, lang)
        }
    }
}

fn render(lang: Lang, title: &str, page: &ShopPage) -> Markup {
    let tx = Texts(lang);
    let trial_hours = vp_domain::limits::TRIAL_LENGTH.whole_hours();
    html! {
        h1 { (title) }
        h2 { (tx.get("shop-page-plans")) }
        @if page.plans.plans.is_empty() {
            p { (tx.get("shop-plans-none")) }
        } @else {
            ul.plans {
                @for p in &page.plans.plans {
                    @let term = if p.plan.lifetime {
                        tx.get("shop-term-lifetime")
                    } else {
                        tx.with("shop-term-months", &[("count", p.plan.months.into())])
                    };
                    li { (tx.with("shop-plan", &[("term", term.as_str().into()), ("price", p.price.customer.into())])) }
                }
            }
        }
        @if let Some(d) = &page.plans.devices {
            p {
                (tx.with("shop-device-offer", &[
                    ("price", d.price.customer.into()),
                    ("included", d.included.into()),
                    ("max", d.max.into()),
                ]))
            }
        }
        @if page.account.trial_enabled {
            p { (tx.with("shop-page-trial", &[("hours", trial_hours.into())])) }
        }
        @if let Some(bot) = &page.bot_url {
            p { a.button.primary href=(bot) { (tx.get("shop-page-buy-in-bot")) } }
        }
        @if !page.documents.is_empty() {
            h2 { (tx.get("shop-page-documents")) }
            ul { @for d in &page.documents { li { a href=(d.url) { (d.title) } } } }
        }
    }
}
