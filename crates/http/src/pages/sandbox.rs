//! The sandbox gateway's hosted payment page: brand, amount, method and the partner's
//! documents, with buttons to pay or to decline. Pressing one applies the outcome through the
//! same use case a real gateway's notification would.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;
use vp_app::{App, AppError};
use vp_domain::InvoiceStatus;

use super::kit::{Page, escape, not_found, page_lang as lang_of, unavailable};

pub async fn show(req: HttpRequest, app: Data<App>, payment_id: Path<String>) -> HttpResponse {
    let lang = lang_of(&req);
    let p = match app.payment_page(&payment_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(&req, lang, None),
        Err(e) => {
            tracing::error!(error = %e, "sandbox page failed");
            return unavailable(&req, lang, None);
        }
    };
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let i = &p.invoice;
    let documents: String = p
        .documents
        .iter()
        .map(|d| format!("<li><a href=\"{}\">{}</a></li>", escape(&d.url), escape(&d.title)))
        .collect();
    let state = match i.status {
        InvoiceStatus::Pending => format!(
            "<form method=\"post\"><button class=\"primary\" name=\"action\" value=\"pay\">{}</button>\
             <button name=\"action\" value=\"decline\">{}</button></form>",
            t("Pay", "Оплатить"),
            t("Decline", "Отказаться")
        ),
        InvoiceStatus::Succeeded => format!("<p><strong>{}</strong></p>", t("Paid. Thank you!", "Оплачено. Спасибо!")),
        InvoiceStatus::Failed => format!("<p>{}</p>", t("The payment did not go through.", "Платёж не прошёл.")),
        // A late payment still succeeds (spec: expired -> succeeded), so the button stays.
        InvoiceStatus::Expired => format!(
            "<p>{}</p><form method=\"post\"><button class=\"primary\" name=\"action\" value=\"pay\">{}</button></form>",
            t("The payment window has passed.", "Срок оплаты истёк."),
            t("Pay anyway", "Всё равно оплатить")
        ),
    };
    let back = match (&i.return_url, i.status) {
        (Some(url), InvoiceStatus::Succeeded | InvoiceStatus::Failed) => {
            format!(
                "<p><a class=\"button\" href=\"{}\">{}</a></p>",
                escape(url),
                t("Back to the shop", "Вернуться в магазин")
            )
        }
        _ => String::new(),
    };
    let body = format!(
        "<p>{sandbox}</p><h1>{brand}</h1><p class=\"amount\">{amount}</p><p>{method_label}: {method}</p>{state}{back}\
         <p>{docs_label}:</p><ul>{documents}</ul>",
        sandbox = t(
            "Sandbox payment page: no real money moves.",
            "Тестовая страница оплаты: реальные деньги не списываются."
        ),
        brand = escape(&p.brand_name),
        amount = lang.amount(i.amounts.customer),
        method_label = t("Payment method", "Способ оплаты"),
        method = escape(&p.method_name),
        docs_label = t("By paying you accept", "Оплачивая, вы принимаете"),
    );
    Page::new(&req, lang, &p.brand_name).brand(&p.brand_name).render(StatusCode::OK, &body)
}

#[derive(Deserialize)]
pub struct Action {
    action: String,
}

pub async fn act(req: HttpRequest, app: Data<App>, payment_id: Path<String>, form: Form<Action>) -> HttpResponse {
    let paid = match form.action.as_str() {
        "pay" => true,
        "decline" => false,
        _ => {
            let lang = lang_of(&req);
            let title = lang.pick_str("Unknown action", "Неизвестное действие");
            return Page::new(&req, lang, title).render(StatusCode::BAD_REQUEST, &format!("<h1>{title}</h1>"));
        }
    };
    match app.sandbox_pay(&payment_id, paid).await {
        // Post/redirect/get: the page shows the new state.
        Ok(_) | Err(AppError::Conflict(_)) => HttpResponse::SeeOther()
            .insert_header(("location", format!("{}?lang={}", req.path(), lang_of(&req).code())))
            .finish(),
        Err(AppError::NotFound(_)) => not_found(&req, lang_of(&req), None),
        Err(e) => {
            tracing::error!(error = %e, "sandbox payment failed");
            unavailable(&req, lang_of(&req), None)
        }
    }
}
