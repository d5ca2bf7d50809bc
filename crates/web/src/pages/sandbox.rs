//! The sandbox gateway's hosted payment page: the order summary with the deadline, the amount
//! and the partner's documents, with buttons to pay or to decline, and the next step after. Pressing one applies the outcome through the
//! same use case a real gateway's notification would.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;
use vp_app::{App, AppError};
use vp_domain::InvoiceStatus;

use super::kit::{Page, escape, not_found, page_lang as lang_of, unavailable};
use super::order;

pub async fn show(req: HttpRequest, app: Data<App>, payment_id: Path<String>) -> HttpResponse {
    let lang = lang_of(&req);
    let p = match app.payment_page(&payment_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "sandbox page failed");
            return unavailable(&req, lang);
        }
    };
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let pay_form = |label: &str| {
        format!(
            "<form method=\"post\"><button class=\"primary\" name=\"action\" value=\"pay\">{label}</button>{decline}</form>",
            decline = if p.invoice.status == InvoiceStatus::Pending {
                format!("<button name=\"action\" value=\"decline\">{}</button>", t("Decline", "Отказаться"))
            } else {
                String::new()
            }
        )
    };
    let state = match p.invoice.status {
        InvoiceStatus::Pending => pay_form(t("Pay", "Оплатить")),
        InvoiceStatus::Succeeded => format!(
            "<p><strong>{}</strong></p>{}",
            t("Paid. Thank you!", "Оплачено. Спасибо!"),
            order::receipt(lang, &p)
        ),
        InvoiceStatus::Failed => format!(
            "<p><strong>{}</strong> {}</p>",
            t("The payment did not go through.", "Платёж не прошёл."),
            t("No money was taken.", "Деньги не списаны.")
        ),
        // A late payment still succeeds (spec: expired -> succeeded), so the button stays.
        InvoiceStatus::Expired => format!(
            "<p>{}</p>{}",
            t("The payment window has passed.", "Срок оплаты истёк."),
            pay_form(t("Pay anyway", "Всё равно оплатить"))
        ),
    };
    let payable = matches!(p.invoice.status, InvoiceStatus::Pending | InvoiceStatus::Expired);
    let documents: String = p
        .documents
        .iter()
        .map(|d| format!("<li><a href=\"{}\">{}</a></li>", escape(&d.url), escape(&d.title)))
        .collect();
    let documents_label = if payable {
        t("By paying you accept", "Оплачивая, вы принимаете")
    } else {
        t("Documents", "Документы")
    };
    let body = format!(
        "<p class=\"muted\">{sandbox}</p><h1>{title}</h1><p class=\"amount\">{amount}</p>{summary}{state}{next}\
         <p>{documents_label}:</p><ul>{documents}</ul>",
        sandbox = t(
            "Sandbox payment page: no real money moves.",
            "Тестовая страница оплаты: реальные деньги не списываются."
        ),
        title = t("Payment", "Оплата"),
        amount = vp_i18n::money(lang, p.invoice.amounts.customer),
        summary = order::summary(lang, &p),
        next = order::next_step(lang, &p).unwrap_or_default(),
    );
    Page::new(&req, lang, &p.brand_name).brand(&p.brand_name).style(&p.style).render(StatusCode::OK, &body)
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
        Err(AppError::NotFound(_)) => not_found(&req, lang_of(&req)),
        Err(e) => {
            tracing::error!(error = %e, "sandbox payment failed");
            unavailable(&req, lang_of(&req))
        }
    }
}
