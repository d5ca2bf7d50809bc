//! A web shop customer's several subscriptions on their account page (docs/decisions.md,
//! "Several subscriptions per person"): the list of them once there is more than one (each a
//! link to its own view, `?sub=<n>`), the heading of the one shown, and the form that buys a
//! plan for any of them or for a new one the customer names (`POST /shop/{slug}/account/buy`).

use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::FieldErrors;
use vp_app::shop::{BuyFor, Customer, Purchase, Shop, ShopOrder, ShopPage};
use vp_app::views::plan_offer;
use vp_domain::several::{NAME_MAX_CHARS, SUBSCRIPTIONS_PER_PERSON};
use vp_i18n::Texts;

use super::kit::{not_found, page_lang};
use super::shop_account::{account_path, account_refused, in_lang, signed_form};
use crate::cabinet::session::see_other;

/// How the customer calls subscription `target` of theirs: "Subscription 1" for the first,
/// the name they gave («Router») for a further one.
fn label(tx: Texts, customer: &Customer, target: u32) -> String {
    match customer.further.iter().find(|s| s.position == target) {
        Some(s) => tx.with("shop-account-subscription-named", &[("name", s.name.as_str().into())]),
        None => tx.with("shop-account-subscription-numbered", &[("number", 1u32.into())]),
    }
}

/// The heading of the subscription shown: "Subscription" while there is one.
pub(super) fn heading(tx: Texts, customer: &Customer) -> String {
    match customer.further.is_empty() {
        true => tx.get("shop-account-subscription"),
        false => label(tx, customer, customer.target),
    }
}

/// The customer's subscriptions, the one shown marked; nothing while there is one.
pub(super) fn list(req: &HttpRequest, page: &ShopPage, customer: &Customer) -> Markup {
    let tx = Texts(page_lang(req));
    let targets = std::iter::once(0).chain(customer.further.iter().map(|s| s.position));
    html! {
        @if !customer.further.is_empty() {
            nav #subscriptions aria-label=(tx.get("shop-account-subscriptions")) {
                p { (tx.get("shop-account-subscriptions")) }
                ul {
                    @for target in targets {
                        @let href = in_lang(req, &format!("{}?sub={target}", account_path(page)));
                        li { a href=(href) aria-current=[(target == customer.target).then_some("page")] { (label(tx, customer, target)) } }
                    }
                }
            }
        }
    }
}

/// Buying on the account page: for which subscription (the one shown chosen), or a new one
/// with its name; the plan; the way to pay where there are several.
pub(super) fn buy_form(req: &HttpRequest, page: &ShopPage, customer: &Customer) -> Markup {
    let lang = page_lang(req);
    let tx = Texts(lang);
    if page.plans.plans.is_empty() || page.methods.is_empty() {
        return html! {};
    }
    let targets = std::iter::once(0).chain(customer.further.iter().map(|s| s.position));
    let first_plan = page.plans.plans.first().map(|p| p.plan.plan_id);
    html! {
        section #buy {
            h2 { (tx.get("shop-account-buy-title")) }
            form method="post" action=(in_lang(req, &format!("{}/buy", account_path(page)))) {
                input type="hidden" name="csrf" value=(customer.csrf_token);
                input type="hidden" name="form" value=(page.form);
                fieldset.plain {
                    legend { (tx.get("shop-account-buy-for")) }
                    @for target in targets {
                        label.check {
                            input type="radio" name="for" value=(target) checked[target == customer.target];
                            " " (label(tx, customer, target))
                        }
                    }
                    label.check {
                        input #for_new type="radio" name="for" value="new";
                        " " (tx.get("shop-account-buy-new"))
                    }
                    label for="name" { (tx.with("shop-account-new-name", &[("max", NAME_MAX_CHARS.into())])) }
                    input #name name="name" type="text" maxlength=(NAME_MAX_CHARS) autocomplete="off";
                }
                fieldset.plain {
                    legend { (tx.get("shop-page-plans")) }
                    @for (p, saving) in page.plans.plans.iter().zip(page.plans.savings()) {
                        label.check {
                            input type="radio" name="plan" value=(p.plan.plan_id) required checked[first_plan == Some(p.plan.plan_id)];
                            " " (plan_offer(lang, p, saving))
                        }
                    }
                }
                @if page.methods.len() > 1 {
                    fieldset.plain {
                        legend { (tx.get("shop-form-method")) }
                        @for (i, m) in page.methods.iter().enumerate() {
                            label.check {
                                input type="radio" name="method" value=(m.code) required checked[i == 0];
                                " " (lang.pick_str(&m.name_en, &m.name_ru))
                            }
                        }
                    }
                }
                p { button.primary type="submit" { (tx.get("shop-form-buy")) } }
            }
        }
    }
}

/// The sentence for a purchase's bad field.
pub(super) fn field_problem(tx: Texts, fields: &FieldErrors) -> String {
    let key = match fields.keys().next().map(String::as_str) {
        Some("name") => {
            let args = [("max", NAME_MAX_CHARS.into()), ("count", SUBSCRIPTIONS_PER_PERSON.into())];
            return tx.with("shop-account-name-refused", &args);
        }
        Some("plan") => "shop-form-plan-invalid",
        Some("method") => "shop-form-method-invalid",
        Some("form") => "shop-form-stale",
        _ => "shop-form-fix",
    };
    tx.get(key)
}

#[derive(Deserialize)]
pub struct BuyForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    form: String,
    /// A subscription's number, or `new`.
    #[serde(default, rename = "for")]
    target: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    plan: String,
    method: Option<String>,
}

/// `POST /shop/{slug}/account/buy`: on to the payment page, or the account page saying why not.
pub async fn buy(req: HttpRequest, shop: Data<Shop>, slug: Path<String>, form: Form<BuyForm>) -> HttpResponse {
    let (page, customer) = match signed_form(&req, &shop, &slug, &form.csrf).await {
        Ok(signed) => signed,
        Err(res) => return res,
    };
    let form = form.into_inner();
    let target = match form.target.as_str() {
        "new" => BuyFor::New(form.name),
        n => match n.parse() {
            Ok(n) => BuyFor::Existing(n),
            Err(_) => return not_found(&req, page_lang(&req)),
        },
    };
    let shown = match &target {
        BuyFor::Existing(n) => customer.at(*n),
        BuyFor::New(_) => None,
    };
    let order = ShopOrder { plan: form.plan, method: form.method, form: form.form, ..ShopOrder::default() };
    match shop.buy_for(&page, &customer, &order, target, page_lang(&req)).await {
        Ok(Purchase::Pay(url) | Purchase::Paid(url)) => see_other(&url),
        Err(e) => account_refused(&req, &shop, &page, shown.as_ref().unwrap_or(&customer), e).await,
    }
}
