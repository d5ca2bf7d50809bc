//! `/`: a small page naming the service and pointing at its health check and API document.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};

use super::kit::{Page, page_lang};
use vp_app::partner::API_PREFIX;

pub async fn show(req: HttpRequest) -> HttpResponse {
    let lang = page_lang(&req);
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let title = t("VPN partner platform", "Партнёрская VPN-платформа");
    let body = format!(
        "<h1>{title}</h1><p>{what}</p><ul>\
         <li><a href=\"{API_PREFIX}/openapi.json\">{api}</a></li>\
         <li><a href=\"/health\">{health}</a></li></ul><p class=\"muted\">{customers}</p>",
        what = t(
            "Partners sell VPN subscriptions under their own brand through this service's API: plans and prices, \
             invoices, clients, trials, devices and app links.",
            "Партнёры продают VPN-подписки под своим брендом через API этого сервиса: тарифы и цены, счета, \
             клиенты, пробный период, устройства и ссылки на приложения."
        ),
        api = t("Partner API document (OpenAPI)", "Описание партнёрского API (OpenAPI)"),
        health = t("Service health", "Состояние сервиса"),
        customers = t(
            "Looking for your subscription? Open the link your shop or bot sent you.",
            "Ищете свою подписку? Откройте ссылку, которую прислал магазин или бот."
        ),
    );
    Page::new(&req, lang, title).render(StatusCode::OK, &body)
}
