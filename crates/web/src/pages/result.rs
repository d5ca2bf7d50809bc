//! The platform's payment result page under the partner's brand, where a customer returns from
//! the gateway when the partner gave no `return_url`. The customer being back is a good moment
//! to ask the gateway (its notification may still be on the way); while the payment is still
//! pending the page refreshes itself.

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use vp_app::AppError;
use vp_app::gifts::Gifts;
use vp_app::payments::Payments;
use vp_domain::{InvoiceStatus, PaymentId};
use vp_i18n::Texts;

use super::kit::{Page, not_found, page_lang, unavailable};
use super::{order, reminders};

/// Seconds between the page's own refreshes while the payment is pending.
const REFRESH_SECONDS: &str = "5";

pub async fn show(
    req: HttpRequest,
    payments: Data<Payments>,
    gifts: Data<Gifts>,
    payment_id: Path<String>,
) -> HttpResponse {
    let lang = page_lang(&req);
    let Ok(payment_id) = PaymentId::parse(&payment_id) else { return not_found(&req, lang) };
    let mut p = match payments.payment_page(&payment_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "payment result page failed");
            return unavailable(&req, lang);
        }
    };
    if p.invoice.status == InvoiceStatus::Pending && payments.gateway_reconciles(&p.invoice) {
        match payments.reconcile_invoice(&payment_id).await {
            Ok((invoice, _)) => p.invoice = invoice,
            Err(e) => tracing::info!(error = %e, "the result page could not re-read the payment"),
        }
    }
    // A paid gift's links, to pass on.
    let gift = match p.gift && p.invoice.status == InvoiceStatus::Succeeded {
        true => match gifts.links_of_paid(&p.invoice.account_id, &payment_id).await {
            Ok(links) => links,
            Err(e) => {
                tracing::error!(error = %e, "the result page could not read the gift");
                return unavailable(&req, lang);
            }
        },
        false => None,
    };
    let tx = Texts(lang);
    let (headline, detail) = match p.invoice.status {
        InvoiceStatus::Pending => ("page-result-waiting", "page-result-waiting-detail"),
        InvoiceStatus::Succeeded if p.gift => ("page-result-paid", "page-result-gift-detail"),
        InvoiceStatus::Succeeded => ("page-result-paid", "page-result-paid-detail"),
        InvoiceStatus::Failed => ("page-result-failed", "page-result-failed-detail"),
        InvoiceStatus::Expired => ("page-result-expired", "page-result-expired-detail"),
    };
    // While the invoice is open, the customer may go back and try again with it.
    let retry = p.invoice.payment_url.as_deref().filter(|_| p.invoice.status == InvoiceStatus::Pending);
    let body = html! {
        h1 { (tx.get(headline)) }
        p.amount { (tx.money(p.invoice.amounts.customer)) }
        p { (tx.get(detail)) }
        @if let Some(url) = retry { p { a.button.primary href=(url) { (tx.get("page-result-back-to-payment")) } } }
        @if let Some(links) = &gift { (super::shop_gift::links(lang, links)) }
        @if let Some(next) = order::next_step(lang, &p) { (next) }
        @if let Some(offer) = p.renewal_offer.as_ref().filter(|_| p.invoice.status == InvoiceStatus::Succeeded) {
            form method="post" {
                p { (order::renewal_after_sentence(lang, offer)) }
                button.button type="submit" name="renew" value="on" { (tx.get("page-renew-turn-on")) }
            }
        }
        @if p.renews { p.ok role="status" { (tx.get("page-renew-on")) } }
        @if let Some(token) = p.reminders_token.as_deref().filter(|_| p.invoice.status == InvoiceStatus::Succeeded) {
            (reminders::offer(lang, &p.brand_name, token))
        }
        (order::receipt(lang, &p))
        (order::summary(lang, &p))
    };
    let mut response =
        Page::new(&req, lang, &p.brand_name).brand(&p.brand_name).style(&p.style).render(StatusCode::OK, body);
    if p.invoice.status == InvoiceStatus::Pending {
        response.headers_mut().insert(HeaderName::from_static("refresh"), HeaderValue::from_static(REFRESH_SECONDS));
    }
    response
}

/// "Renew automatically" pressed on the result page after paying on the gateway's page: the
/// consent with the sentence the page showed; back to the page, which says it is on.
pub async fn consent(req: HttpRequest, payments: Data<Payments>, payment_id: Path<String>) -> HttpResponse {
    let lang = page_lang(&req);
    let Ok(payment_id) = PaymentId::parse(&payment_id) else { return not_found(&req, lang) };
    let word = |offer: &vp_app::renewals::RenewalOffer| order::renewal_after_sentence(lang, offer);
    match payments.consent_after_payment(&payment_id, word, lang).await {
        // Not offered (any more): the page shows where things stand.
        Ok(_) => HttpResponse::SeeOther()
            .insert_header(("location", format!("{}?lang={}", req.path(), lang.code())))
            .finish(),
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "the renewal consent failed");
            unavailable(&req, lang)
        }
    }
}
