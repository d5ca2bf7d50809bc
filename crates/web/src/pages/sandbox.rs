//! The sandbox gateway's hosted payment page: the order summary with the deadline, the amount
//! and the partner's documents, with buttons to pay or to decline, and the next step after. Pressing one applies the outcome through the
//! same use case a real gateway's notification would.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::payments::{PaymentPage, Payments};
use vp_app::renewals::ConsentGiven;
use vp_app::{AppError, Lang};
use vp_domain::{GatewayName, InvoiceStatus, PaymentId};
use vp_i18n::Texts;

use super::kit::{Page, not_found, page_lang as lang_of, unavailable};
use super::order;

pub async fn show(req: HttpRequest, payments: Data<Payments>, payment_id: Path<String>) -> HttpResponse {
    let lang = lang_of(&req);
    let Ok(payment_id) = PaymentId::parse(&payment_id) else { return not_found(&req, lang) };
    let p = match payments.payment_page(&payment_id, lang).await {
        // The sandbox's page pays only the sandbox's own payments.
        Ok(p) if p.invoice.rail.gateway() == Some(GatewayName::Sandbox) => p,
        Ok(_) => return not_found(&req, lang),
        Err(AppError::NotFound(_)) => return not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "sandbox page failed");
            return unavailable(&req, lang);
        }
    };
    let tx = Texts(lang);
    let payable = p.invoice.status.may_be_paid();
    let documents_label = if payable { "page-sandbox-you-accept" } else { "page-sandbox-documents" };
    let body = html! {
        p.muted { (tx.get("page-sandbox-note")) }
        h1 { (tx.get("page-sandbox-title")) }
        p.amount { (tx.money(p.invoice.amounts.customer)) }
        (order::summary(lang, &p))
        (state(lang, &p))
        @if let Some(next) = order::next_step(lang, &p) { (next) }
        p { (tx.get(documents_label)) }
        ul { @for d in &p.documents { li { a href=(d.url) { (d.title) } } } }
    };
    Page::new(&req, lang, &p.brand_name).brand(&p.brand_name).style(&p.style).render(StatusCode::OK, body)
}

/// Where the payment stands, with the buttons that still apply.
fn state(lang: Lang, p: &PaymentPage) -> Markup {
    let tx = Texts(lang);
    match p.invoice.status {
        InvoiceStatus::Pending => pay_form(lang, p, &tx.get("page-sandbox-pay"), true),
        InvoiceStatus::Succeeded => html! {
            p { strong { (tx.get("page-sandbox-paid")) } }
            (order::receipt(lang, p))
            @if p.renews { p.renews { (tx.get("page-renew-on")) } }
        },
        InvoiceStatus::Failed => html! {
            p { strong { (tx.get("page-sandbox-failed")) } " " (tx.get("page-sandbox-nothing-taken")) }
        },
        // A late payment still succeeds (spec: expired -> succeeded), so the button stays.
        InvoiceStatus::Expired => html! {
            p { (tx.get("page-sandbox-expired")) }
            (pay_form(lang, p, &tx.get("page-sandbox-pay-anyway"), false))
        },
    }
}

/// The pay button, the "renew automatically" tick where it applies (never ticked for the
/// customer), and the decline button while the payment is open.
fn pay_form(lang: Lang, p: &PaymentPage, label: &str, declinable: bool) -> Markup {
    let tx = Texts(lang);
    html! {
        form method="post" {
            @if let Some(offer) = &p.renewal_offer {
                p { label.check { input type="checkbox" name="renew" value="on"; " " (order::renewal_sentence(lang, offer)) } }
            }
            button.primary name="action" value="pay" { (label) }
            @if declinable { button name="action" value="decline" { (tx.get("page-sandbox-decline")) } }
        }
    }
}

#[derive(Deserialize)]
pub struct Action {
    action: String,
    /// `on` when the "renew automatically" box was ticked.
    renew: Option<String>,
}

pub async fn act(
    req: HttpRequest,
    payments: Data<Payments>,
    payment_id: Path<String>,
    form: Form<Action>,
) -> HttpResponse {
    let Ok(payment_id) = PaymentId::parse(&payment_id) else { return not_found(&req, lang_of(&req)) };
    let paid = match form.action.as_str() {
        "pay" => true,
        "decline" => false,
        _ => {
            let lang = lang_of(&req);
            let title = Texts(lang).get("page-sandbox-unknown-action");
            return Page::new(&req, lang, &title).render(StatusCode::BAD_REQUEST, html! { h1 { (title) } });
        }
    };
    let lang = lang_of(&req);
    let consent = match form.renew.as_deref() {
        Some("on") if paid => match payments.payment_page(&payment_id, lang).await {
            // The sentence the page showed, as the customer read it.
            Ok(PaymentPage { renewal_offer: Some(offer), .. }) => {
                Some(ConsentGiven { text: order::renewal_sentence(lang, &offer), lang })
            }
            Ok(_) => None,
            Err(AppError::NotFound(_)) => return not_found(&req, lang),
            Err(e) => {
                tracing::error!(error = %e, "sandbox payment failed");
                return unavailable(&req, lang);
            }
        },
        _ => None,
    };
    match payments.sandbox_pay(&payment_id, paid, consent).await {
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
