//! A gift's page in the web shop, `/shop/{slug}/gift/{code}` (docs/decisions.md, "Gift
//! subscriptions"): what the gift gives and until when it can be redeemed; a signed-in customer
//! redeems it with one button, anyone else signs in first (the page keeps the code in a cookie
//! of the shop's, so the account page leads back to it). A redeemed, refunded or lapsed gift is
//! said to be so. The result page of a paid gift shows its links to pass on (`links`).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use vp_app::gift_links::GiftLinks;
use vp_app::gifts::GiftView;
use vp_app::shop::{Customer, Shop, ShopPage};
use vp_app::views::plan_term;
use vp_app::{AppError, Lang, Refusal};
use vp_domain::gift::{GiftCode, GiftRefused, GiftState};
use vp_i18n::Texts;

use super::kit::{not_found, page_lang};
use super::shop_account::{
    AccountForm, account_page, account_path, cookies, failed, in_lang, shop_page, shop_path, signed_form, signed_in,
};
use crate::cabinet::session::{add_cookie, cookie, see_other, set_cookie_on};

/// The code of a gift page opened before signing in.
const GIFT_COOKIE: &str = "vp_shop_gift";
/// How long the browser keeps it: long enough to fetch the sign-in code.
const GIFT_COOKIE_MAX_AGE: i64 = 60 * 60;

pub(super) fn gift_path(page: &ShopPage, code: &str) -> String {
    format!("{}{}{code}", shop_path(page), vp_ports::pages::GIFT_PATH)
}

/// The code of a gift page this browser opened before signing in, if it is one.
pub(super) fn waiting(req: &HttpRequest) -> Option<&str> {
    cookie(req, GIFT_COOKIE).filter(|c| GiftCode::parse(c).is_some())
}

/// `GET /shop/{slug}/gift/{code}`.
pub async fn show(req: HttpRequest, shop: Data<Shop>, path: Path<(String, String)>) -> HttpResponse {
    let (slug, code) = path.into_inner();
    let page = match shop_page(&req, &shop, &slug).await {
        Ok(page) => page,
        Err(res) => return res,
    };
    let gift = match shop.gift(&page, &code).await {
        Ok(Some(gift)) => gift,
        Ok(None) => return not_found(&req, page_lang(&req)),
        Err(e) => return failed(&req, &e),
    };
    let customer = match signed_in(&req, &shop, &page).await {
        Ok(customer) => customer,
        Err(res) => return res,
    };
    let mut res = render(&req, &page, &gift, &code, customer.as_ref(), None, StatusCode::OK);
    if customer.is_none() && matches!(gift.state, GiftState::Waiting { .. }) {
        let c = set_cookie_on(cookies(&shop), &shop_path(&page), GIFT_COOKIE, &code, GIFT_COOKIE_MAX_AGE);
        add_cookie(&mut res, c);
    }
    res
}

/// `POST /shop/{slug}/gift/{code}`: the signed-in customer redeems it.
pub async fn redeem(
    req: HttpRequest,
    shop: Data<Shop>,
    path: Path<(String, String)>,
    form: Form<AccountForm>,
) -> HttpResponse {
    let (slug, code) = path.into_inner();
    let (page, customer) = match signed_form(&req, &shop, &slug, &form.csrf).await {
        Ok(signed) => signed,
        Err(res) => return res,
    };
    let lang = page_lang(&req);
    let tx = Texts(lang);
    let brand = [("brand", page.account.brand_name.as_str().into())];
    let (status, problem) = match shop.redeem_gift(&page, &customer, &code, lang).await {
        Ok(Ok(())) => {
            let mut res = see_other(&in_lang(&req, &format!("{}?done=gift", account_path(&page))));
            add_cookie(&mut res, set_cookie_on(cookies(&shop), &shop_path(&page), GIFT_COOKIE, "", 0));
            return res;
        }
        Ok(Err(GiftRefused::Unknown | GiftRefused::Unpaid)) => return not_found(&req, lang),
        Ok(Err(refused)) => (StatusCode::CONFLICT, tx.get(refusal_key(refused))),
        Err(AppError::Refused(Refusal::ClientBlocked)) => (StatusCode::FORBIDDEN, tx.with("shop-blocked", &brand)),
        Err(AppError::Refused(Refusal::NewClientsDailyLimit)) => {
            (StatusCode::TOO_MANY_REQUESTS, tx.with("shop-new-clients-limit", &brand))
        }
        Err(AppError::Refused(Refusal::RateLimited { retry_after_secs })) => {
            (StatusCode::TOO_MANY_REQUESTS, tx.with("shop-too-fast", &[("seconds", retry_after_secs.into())]))
        }
        Err(e) => return failed(&req, &e),
    };
    match shop.gift(&page, &code).await {
        Ok(Some(gift)) => render(&req, &page, &gift, &code, Some(&customer), Some(problem), status),
        Ok(None) => not_found(&req, lang),
        Err(e) => failed(&req, &e),
    }
}

fn refusal_key(refused: GiftRefused) -> &'static str {
    match refused {
        GiftRefused::Unknown | GiftRefused::Unpaid => "shop-gift-unknown",
        GiftRefused::Redeemed => "shop-gift-used",
        GiftRefused::Refunded => "shop-gift-refunded",
        GiftRefused::Lapsed => "shop-gift-lapsed",
    }
}

fn render(
    req: &HttpRequest,
    page: &ShopPage,
    gift: &GiftView,
    code: &str,
    customer: Option<&Customer>,
    problem: Option<String>,
    status: StatusCode,
) -> HttpResponse {
    let lang = page_lang(req);
    let tx = Texts(lang);
    let brand = page.account.brand_name.as_str();
    let title = tx.with("shop-gift-title", &[("brand", brand.into())]);
    let what = gift.plan.as_ref().map(|p| plan_term(lang, p)).unwrap_or_default();
    let body = html! {
        h1 { (title) }
        p.amount { (what) }
        @if let Some(problem) = &problem { p.error role="alert" { (problem) } }
        @match gift.state {
            GiftState::Waiting { lapses_at } => {
                p { (tx.with("shop-gift-redeem-until", &[("until", tx.moment(&page.account.time_zone, lapses_at).as_str().into())])) }
                @match customer {
                    Some(customer) => {
                        form method="post" action=(in_lang(req, &gift_path(page, code))) {
                            input type="hidden" name="csrf" value=(customer.csrf_token);
                            p { button.primary type="submit" { (tx.with("shop-gift-redeem", &[("email", customer.email.as_str().into())])) } }
                        }
                        p.muted { (tx.get("shop-gift-redeem-hint")) }
                    }
                    None => {
                        p { (tx.get("shop-gift-sign-in")) }
                        p { a.button.primary href=(in_lang(req, &account_path(page))) { (tx.get("shop-gift-sign-in-button")) } }
                    }
                }
            }
            GiftState::Redeemed { .. } => { @if problem.is_none() { p { (tx.get("shop-gift-used")) } } }
            GiftState::Refunded { .. } => { @if problem.is_none() { p { (tx.get("shop-gift-refunded")) } } }
            GiftState::Lapsed { .. } => { @if problem.is_none() { p { (tx.get("shop-gift-lapsed")) } } }
            GiftState::Unpaid => { p { (tx.get("shop-gift-unknown")) } }
        }
        p { a href=(in_lang(req, &shop_path(page))) { (tx.get("shop-account-to-shop")) } }
    };
    account_page(req, page, status, &title, body)
}

/// A paid gift's links on its result page, to pass on.
pub(crate) fn links(lang: Lang, links: &GiftLinks) -> Markup {
    let tx = Texts(lang);
    html! {
        section #gift {
            h2 { (tx.get("page-result-gift")) }
            p { (tx.get("page-result-gift-pass-on")) }
            p { a href=(links.web) { (links.web) } }
            @if let Some(bot) = &links.bot {
                p { (tx.get("page-result-gift-in-telegram")) " " a href=(bot) { (bot) } }
            }
        }
    }
}
