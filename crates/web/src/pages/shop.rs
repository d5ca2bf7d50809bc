//! The account's web shop, `/shop/{slug}`, under its brand and style in ru or en: the plans
//! with their terms and prices, the device offer, the trial where the account gives one, the
//! partner's bot to buy in, the legal documents and the support address; and the form that
//! buys a plan with an email, which leads to the payment page. A slug no account has gets the
//! not-found page.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::promotions::refusal_text_key;
use vp_app::shop::{Purchase, SHOP_PATH, Shop, ShopOrder, ShopPage};
use vp_app::views::plan_offer;
use vp_app::{AppError, Lang, Refusal};
use vp_domain::promo::PromoRefused;
use vp_i18n::Texts;

use super::kit::{Page, not_found, page_lang, unavailable};

pub async fn show(req: HttpRequest, shop: Data<Shop>, slug: Path<String>) -> HttpResponse {
    let lang = page_lang(&req);
    match shop.page(&slug, lang).await {
        Ok(page) => {
            // A signed-in customer buys with their address filled in.
            let email = match super::shop_account::session_token(&req) {
                Some(token) => shop.customer(&page, token).await.ok().flatten().map(|c| c.email),
                None => None,
            };
            let filled = Filled { email: email.unwrap_or_default(), ..Filled::default() };
            render(&req, lang, &page, &filled, StatusCode::OK)
        }
        Err(AppError::NotFound(_)) => not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "shop page failed");
            unavailable(&req, lang)
        }
    }
}

/// The buying form as posted; missing fields are empty and named by the use case.
#[derive(Deserialize)]
pub struct BuyForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    plan: String,
    method: Option<String>,
    #[serde(default)]
    form: String,
    #[serde(default)]
    promo: String,
    /// The "this is a gift" box: present (`on`) when ticked.
    gift: Option<String>,
    #[serde(default)]
    recipient: String,
}

/// The form sent: on to the payment page, or back with what to fix (and a new form key).
pub async fn buy(req: HttpRequest, shop: Data<Shop>, slug: Path<String>, form: Form<BuyForm>) -> HttpResponse {
    let lang = page_lang(&req);
    let page = match shop.page(&slug, lang).await {
        Ok(page) => page,
        Err(AppError::NotFound(_)) => return not_found(&req, lang),
        Err(e) => {
            tracing::error!(error = %e, "shop page failed");
            return unavailable(&req, lang);
        }
    };
    let form = form.into_inner();
    let order = ShopOrder {
        email: form.email,
        plan: form.plan,
        method: form.method,
        form: form.form,
        promo: form.promo,
        gift: form.gift.is_some(),
        recipient: form.recipient,
    };
    let refused = match shop.buy(&page, &order, lang).await {
        Ok(Purchase::Pay(url) | Purchase::Paid(url)) => {
            return HttpResponse::SeeOther().insert_header(("location", url)).finish();
        }
        Err(e) => e,
    };
    let tx = Texts(lang);
    let brand = [("brand", page.account.brand_name.as_str().into())];
    let (status, problem) = match &refused {
        AppError::Validation(fields) => (StatusCode::BAD_REQUEST, Problem::Fields(fields.keys().cloned().collect())),
        AppError::Refused(r) => match r {
            Refusal::IdempotencyKeyReuse => (StatusCode::CONFLICT, Problem::Said(tx.get("shop-form-stale"))),
            Refusal::OperationInProgress => (StatusCode::CONFLICT, Problem::Said(tx.get("shop-in-progress"))),
            Refusal::ClientBlocked => (StatusCode::FORBIDDEN, Problem::Said(tx.with("shop-blocked", &brand))),
            Refusal::LifetimeSubscription => (StatusCode::CONFLICT, Problem::Said(tx.get("shop-lifetime-owned"))),
            Refusal::NewClientsDailyLimit => {
                (StatusCode::TOO_MANY_REQUESTS, Problem::Said(tx.with("shop-new-clients-limit", &brand)))
            }
            Refusal::RateLimited { retry_after_secs } => (
                StatusCode::TOO_MANY_REQUESTS,
                Problem::Said(tx.with("shop-too-fast", &[("seconds", (*retry_after_secs).into())])),
            ),
            Refusal::PlanNotFound => (StatusCode::BAD_REQUEST, Problem::Fields(vec!["plan".into()])),
            Refusal::UnsupportedPaymentMethod => (StatusCode::BAD_REQUEST, Problem::Fields(vec!["method".into()])),
            Refusal::Promo(reason) => (StatusCode::BAD_REQUEST, Problem::Promo(*reason)),
            _ => (StatusCode::SERVICE_UNAVAILABLE, Problem::Said(tx.with("shop-try-later", &brand))),
        },
        _ => {
            tracing::error!(error = %refused, "shop purchase failed");
            (StatusCode::SERVICE_UNAVAILABLE, Problem::Said(tx.with("shop-try-later", &brand)))
        }
    };
    let filled = Filled {
        email: order.email,
        plan: order.plan,
        method: order.method,
        promo: order.promo,
        gift: order.gift,
        recipient: order.recipient,
        problem: Some(problem),
    };
    render(&req, lang, &page, &filled, status)
}

/// What went wrong with a sent form: the fields to fix, or a sentence.
enum Problem {
    Fields(Vec<String>),
    Said(String),
    /// The promo code typed cannot be used, and why.
    Promo(PromoRefused),
}

/// The form as it was sent, shown again with what went wrong.
#[derive(Default)]
struct Filled {
    email: String,
    plan: String,
    method: Option<String>,
    promo: String,
    gift: bool,
    recipient: String,
    problem: Option<Problem>,
}

impl Filled {
    fn bad(&self, field: &str) -> bool {
        match &self.problem {
            Some(Problem::Fields(fields)) => fields.iter().any(|f| f == field),
            Some(Problem::Promo(_)) => field == "promo",
            _ => false,
        }
    }
}

fn render(req: &HttpRequest, lang: Lang, page: &ShopPage, filled: &Filled, status: StatusCode) -> HttpResponse {
    let tx = Texts(lang);
    let brand = page.account.brand_name.as_str();
    let title = tx.with("shop-page-title", &[("brand", brand.into())]);
    let trial_hours = vp_domain::limits::TRIAL_LENGTH.whole_hours();
    let body = html! {
        h1 { (title) }
        // Started on the account page once the address is proven, or in the partner's bot.
        @if page.account.trial_enabled {
            p #trial {
                (tx.with("shop-page-trial", &[("hours", trial_hours.into())])) " "
                a href={ (SHOP_PATH) (page.slug) "/account?lang=" (lang.code()) } { (tx.get("shop-page-trial-by-email")) }
                @if let Some(bot) = &page.bot_url {
                    " " (tx.get("shop-page-trial-or")) " " a href=(bot) { (tx.get("shop-page-trial-in-bot-too")) }
                }
            }
        }
        (buying_form(lang, page, filled))
        (device_offer(lang, page))
        @if let Some(bot) = &page.bot_url {
            p { a.button href=(bot) { (tx.get("shop-page-buy-in-bot")) } }
        }
        p { a href={ (SHOP_PATH) (page.slug) "/account" } { (tx.get("shop-page-account")) } }
        @if !page.documents.is_empty() {
            h2 { (tx.get("shop-page-documents")) }
            ul { @for d in &page.documents { li { a href=(d.url) { (d.title) } } } }
        }
    };
    Page::new(req, lang, &title).brand(brand).style(&page.account.style).buying_form().render(status, body)
}

/// Extra devices, for those who have a subscription.
fn device_offer(lang: Lang, page: &ShopPage) -> Markup {
    let tx = Texts(lang);
    html! {
        @if let Some(d) = &page.plans.devices {
            p {
                (tx.with("shop-device-offer", &[
                    ("price", d.price.customer.into()),
                    ("included", d.included.into()),
                    ("max", d.max.into()),
                ]))
            }
        }
    }
}

/// The plans to choose from, the email, the way to pay where there are several, and the
/// one-time key that makes a double submit one invoice.
fn buying_form(lang: Lang, page: &ShopPage, filled: &Filled) -> Markup {
    let tx = Texts(lang);
    if page.plans.plans.is_empty() || page.methods.is_empty() {
        return html! { h2 { (tx.get("shop-page-plans")) } p { (tx.get("shop-plans-none")) } };
    }
    let chosen_plan = filled.plan.trim().parse::<i32>().ok().or(page.plans.plans.first().map(|p| p.plan.plan_id));
    let chosen_method = filled.method.as_deref().or(page.methods.first().map(|m| m.code.as_str()));
    let field_problem = |field: &str, key: &str| filled.bad(field).then(|| tx.get(key));
    let email_problem = field_problem("email", "shop-form-email-invalid");
    let plan_problem = field_problem("plan", "shop-form-plan-invalid");
    let method_problem = field_problem("method", "shop-form-method-invalid");
    let recipient_problem = field_problem("recipient", "shop-form-recipient-invalid");
    let promo_problem = match &filled.problem {
        Some(Problem::Promo(reason)) => Some(tx.get(refusal_text_key(*reason))),
        _ => field_problem("promo", "shop-form-promo-invalid"),
    };
    html! {
        form method="post" {
            @match &filled.problem {
                Some(Problem::Said(text)) => { p.error role="alert" { (text) } }
                Some(Problem::Fields(_) | Problem::Promo(_)) => { p.error role="alert" { (tx.get("shop-form-fix")) } }
                None => {}
            }
            input type="hidden" name="form" value=(page.form);
            fieldset.plain {
                legend { h2 { (tx.get("shop-page-plans")) } }
                @if let Some(p) = &plan_problem { p.error #plan_problem { (p) } }
                @for (p, saving) in page.plans.plans.iter().zip(page.plans.savings()) {
                    label.check {
                        input type="radio" name="plan" value=(p.plan.plan_id) required
                            checked[chosen_plan == Some(p.plan.plan_id)];
                        " " (plan_offer(lang, p, saving))
                    }
                }
            }
            @if page.methods.len() > 1 {
                fieldset.plain {
                    legend { (tx.get("shop-form-method")) }
                    @if let Some(p) = &method_problem { p.error #method_problem { (p) } }
                    @for m in &page.methods {
                        label.check {
                            input type="radio" name="method" value=(m.code) required
                                checked[chosen_method == Some(m.code.as_str())];
                            " " (lang.pick_str(&m.name_en, &m.name_ru))
                        }
                    }
                }
            } @else if let Some(p) = &method_problem {
                p.error #method_problem { (p) }
            }
            label for="email" { (tx.get("shop-form-email")) }
            @if let Some(p) = &email_problem { p.error #email_problem role="alert" { (p) } }
            input #email name="email" type="email" required autocomplete="email" inputmode="email"
                maxlength="254" value=(filled.email)
                aria-invalid=[email_problem.as_ref().map(|_| "true")]
                aria-describedby=[email_problem.as_ref().map(|_| "email_problem")];
            p.muted { (tx.get("shop-form-email-hint")) }
            label for="promo" { (tx.get("shop-form-promo")) }
            @if let Some(p) = &promo_problem { p.error #promo_problem role="alert" { (p) } }
            input #promo name="promo" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false"
                maxlength="40" value=(filled.promo)
                aria-invalid=[promo_problem.as_ref().map(|_| "true")]
                aria-describedby=[promo_problem.as_ref().map(|_| "promo_problem")];
            // A gift: the buyer pays and gets a link to pass on; the recipient's address, if
            // given, gets it by mail too.
            fieldset.plain {
                legend { (tx.get("shop-form-gift-legend")) }
                label.check {
                    input #gift type="checkbox" name="gift" value="on" checked[filled.gift];
                    " " (tx.get("shop-form-gift"))
                }
                label for="recipient" { (tx.get("shop-form-recipient")) }
                @if let Some(p) = &recipient_problem { p.error #recipient_problem role="alert" { (p) } }
                input #recipient name="recipient" type="email" autocomplete="off" inputmode="email"
                    maxlength="254" value=(filled.recipient)
                    aria-invalid=[recipient_problem.as_ref().map(|_| "true")]
                    aria-describedby=[recipient_problem.as_ref().map(|_| "recipient_problem")];
                p.muted { (tx.get("shop-form-recipient-hint")) }
            }
            p { button.primary type="submit" { (tx.get("shop-form-buy")) } }
        }
    }
}
