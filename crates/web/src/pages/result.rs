//! The platform's payment result page under the partner's brand, where a customer returns from
//! the gateway when the partner gave no `return_url`. The customer being back is a good moment
//! to ask the gateway (its notification may still be on the way); while the payment is still
//! pending the page refreshes itself.

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::{App, AppError};
use vp_domain::InvoiceStatus;

use super::kit::{Page, escape, not_found, page_lang, unavailable};
use super::order;

/// Seconds between the page's own refreshes while the payment is pending.
const REFRESH_SECONDS: &str = "5";

pub async fn show(req: HttpRequest, app: Data<App>, payment_id: Path<String>) -> HttpResponse {
    let lang = page_lang(&req);
    let mut p = match app.payment_page(&payment_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "payment result page failed");
            return unavailable(&req, lang);
        }
    };
    if p.invoice.status == InvoiceStatus::Pending && app.gateway.reconciles() {
        match app.reconcile_invoice(&payment_id).await {
            Ok((invoice, _)) => p.invoice = invoice,
            Err(e) => tracing::info!(error = %e, "the result page could not re-read the payment"),
        }
    }
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let (headline, detail) = match p.invoice.status {
        InvoiceStatus::Pending => (
            t("Waiting for the payment", "Ждём подтверждения оплаты"),
            t(
                "As soon as the payment service confirms the payment, this page will say so. It updates by itself.",
                "Как только платёжный сервис подтвердит оплату, эта страница сообщит об этом. Она обновляется сама.",
            ),
        ),
        InvoiceStatus::Succeeded => (
            t("Paid. Thank you!", "Оплачено. Спасибо!"),
            t(
                "Your access is ready: connect an app with the button below.",
                "Доступ готов: подключите приложение кнопкой ниже.",
            ),
        ),
        InvoiceStatus::Failed => (
            t("The payment did not go through", "Платёж не прошёл"),
            t(
                "No money was taken. Ask the shop or the bot for a new invoice to try again.",
                "Деньги не списаны. Запросите в магазине или боте новый счёт, чтобы попробовать снова.",
            ),
        ),
        InvoiceStatus::Expired => (
            t("The payment window has passed", "Срок оплаты истёк"),
            t("Ask the shop or the bot for a new invoice to pay.", "Запросите в магазине или боте новый счёт."),
        ),
    };
    // While the invoice is open, the customer may go back and try again with it.
    let retry = match (&p.invoice.payment_url, p.invoice.status) {
        (Some(url), InvoiceStatus::Pending) => format!(
            "<p><a class=\"button primary\" href=\"{}\">{}</a></p>",
            escape(url),
            t("Back to the payment", "Вернуться к оплате")
        ),
        _ => String::new(),
    };
    let body = format!(
        "<h1>{headline}</h1><p class=\"amount\">{amount}</p><p>{detail}</p>{retry}{next}{receipt}{summary}",
        amount = vp_i18n::money(lang, p.invoice.amounts.customer),
        next = order::next_step(lang, &p).unwrap_or_default(),
        receipt = order::receipt(lang, &p),
        summary = order::summary(lang, &p),
    );
    let mut response =
        Page::new(&req, lang, &p.brand_name).brand(&p.brand_name).style(&p.style).render(StatusCode::OK, &body);
    if p.invoice.status == InvoiceStatus::Pending {
        response.headers_mut().insert(HeaderName::from_static("refresh"), HeaderValue::from_static(REFRESH_SECONDS));
    }
    response
}
