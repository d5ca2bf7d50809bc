//! The customer's account in a web shop, `/shop/{slug}/account` (docs/decisions.md, "Customer
//! accounts"): signing in with the code or the link mailed to the address, then the
//! subscription, the devices (remove one), a new link, the free trial where it can be started,
//! and the receipts. The cookies are the
//! shop's own (`Path=/shop/{slug}`), HttpOnly and SameSite=Lax; every form carries a token: the
//! session's once signed in, a double-submit cookie's before.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::shop::{CodeRefused, Customer, CustomerAccount, Entered, SHOP_PATH, Shop, ShopPage};
use vp_app::views::PanelUse;
use vp_app::{AppError, Lang, Refusal};
use vp_i18n::Texts;
use vp_ports::TrustedProxies;

use super::kit::{Page, not_found, page_lang, unavailable};
use crate::cabinet::session::{Cookies, add_cookie, client_address, cookie, same_token, see_other, set_cookie_on};

/// The session token (the database keeps only its hash).
const SESSION_COOKIE: &str = "vp_shop";
/// The sign-in forms' double-submit token.
const FORM_COOKIE: &str = "vp_shop_form";
/// The browser keeps the session cookie as long as a session can live.
const SESSION_MAX_AGE: i64 = vp_domain::cabinet::SESSION_ABSOLUTE.whole_seconds();

pub(super) fn shop_path(page: &ShopPage) -> String {
    format!("{SHOP_PATH}{}", page.slug)
}

pub(super) fn account_path(page: &ShopPage) -> String {
    format!("{}/account", shop_path(page))
}

/// `path` in the page's language, for a redirect (the next page reads it from `?lang=`).
pub(super) fn in_lang(req: &HttpRequest, path: &str) -> String {
    super::order::with_lang(path, page_lang(req))
}

pub(super) fn cookies(shop: &Shop) -> Cookies {
    Cookies { secure: shop.secure_cookies() }
}

/// The shop of the path, or the page that answers instead.
pub(super) async fn shop_page(req: &HttpRequest, shop: &Shop, slug: &str) -> Result<ShopPage, HttpResponse> {
    let lang = page_lang(req);
    match shop.page(slug, lang).await {
        Ok(page) => Ok(page),
        Err(AppError::NotFound(_)) => Err(not_found(req, lang)),
        Err(e) => Err(failed(req, &e)),
    }
}

pub(super) fn failed(req: &HttpRequest, e: &AppError) -> HttpResponse {
    tracing::error!(error = %e, "shop account page failed");
    unavailable(req, page_lang(req))
}

/// The shop session cookie's token, if the browser sent one.
pub(super) fn session_token(req: &HttpRequest) -> Option<&str> {
    cookie(req, SESSION_COOKIE)
}

/// The signed-in customer of this shop, if the session cookie names one.
pub(super) async fn signed_in(
    req: &HttpRequest,
    shop: &Shop,
    page: &ShopPage,
) -> Result<Option<Customer>, HttpResponse> {
    let Some(token) = session_token(req) else { return Ok(None) };
    shop.customer(page, token).await.map_err(|e| failed(req, &e))
}

/// A page of the account under the shop's brand, never stored.
pub(super) fn account_page(
    req: &HttpRequest,
    page: &ShopPage,
    status: StatusCode,
    title: &str,
    body: Markup,
) -> HttpResponse {
    let lang = page_lang(req);
    let brand = page.account.brand_name.as_str();
    Page::new(req, lang, title).brand(brand).style(&page.account.style).private_with_nav(html! {}).render(status, body)
}

/// `GET /shop/{slug}/account`: the account, or the sign-in form.
pub async fn show(req: HttpRequest, shop: Data<Shop>, slug: Path<String>) -> HttpResponse {
    let page = match shop_page(&req, &shop, &slug).await {
        Ok(page) => page,
        Err(res) => return res,
    };
    match signed_in(&req, &shop, &page).await {
        // `?sub=<n>` names one of the customer's subscriptions; a number not theirs is no page.
        Ok(Some(customer)) => match customer.at(shown_subscription(&req)) {
            Some(customer) => account(&req, &shop, &page, &customer, None, StatusCode::OK).await,
            None => not_found(&req, page_lang(&req)),
        },
        Ok(None) => sign_in_form(&req, &shop, &page, "", None, StatusCode::OK),
        Err(res) => res,
    }
}

/// The subscription the account page's address names (`?sub=<n>`); the first without one.
fn shown_subscription(req: &HttpRequest) -> u32 {
    req.query_string().split('&').find_map(|p| p.strip_prefix("sub=")).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The first step: the address to send a code to.
fn sign_in_form(
    req: &HttpRequest,
    shop: &Shop,
    page: &ShopPage,
    email: &str,
    problem: Option<String>,
    status: StatusCode,
) -> HttpResponse {
    let tx = Texts(page_lang(req));
    let (token, new_cookie) = form_token(req, shop, page);
    let title = tx.get("shop-sign-in-title");
    let body = html! {
        h1 { (title) }
        p { (tx.get("shop-sign-in-lead")) }
        form method="post" action=(in_lang(req, &account_path(page))) {
            input type="hidden" name="form_token" value=(token);
            @if let Some(problem) = &problem { p.error #email_problem role="alert" { (problem) } }
            label for="email" { (tx.get("shop-form-email")) }
            input #email name="email" type="email" required autocomplete="email" inputmode="email" maxlength="254"
                value=(email) aria-invalid=[problem.as_ref().map(|_| "true")]
                aria-describedby=[problem.as_ref().map(|_| "email_problem")];
            p { button.primary type="submit" { (tx.get("shop-sign-in-send")) } }
        }
        p { a href=(in_lang(req, &shop_path(page))) { (tx.get("shop-account-to-shop")) } }
    };
    let mut res = account_page(req, page, status, &title, body);
    if let Some(c) = new_cookie {
        add_cookie(&mut res, c);
    }
    res
}

/// The second step: the code from the message.
fn code_form(
    req: &HttpRequest,
    page: &ShopPage,
    email: &str,
    problem: Option<String>,
    status: StatusCode,
) -> HttpResponse {
    let tx = Texts(page_lang(req));
    let token = cookie(req, FORM_COOKIE).unwrap_or_default();
    let title = tx.get("shop-sign-in-code-title");
    let body = html! {
        h1 { (title) }
        p { (tx.with("shop-sign-in-code-sent", &[("email", email.into())])) }
        form method="post" action=(in_lang(req, &account_path(page))) {
            input type="hidden" name="form_token" value=(token);
            input type="hidden" name="email" value=(email);
            @if let Some(problem) = &problem { p.error #code_problem role="alert" { (problem) } }
            label for="code" { (tx.get("shop-sign-in-code")) }
            input #code name="code" type="text" required autocomplete="one-time-code" inputmode="numeric"
                maxlength="16" aria-invalid=[problem.as_ref().map(|_| "true")]
                aria-describedby=[problem.as_ref().map(|_| "code_problem")];
            p { button.primary type="submit" { (tx.get("shop-sign-in-enter")) } }
        }
        p.muted { (tx.get("shop-sign-in-code-help")) }
        p { a href=(in_lang(req, &account_path(page))) { (tx.get("shop-sign-in-again")) } }
    };
    account_page(req, page, status, &title, body)
}

/// This browser's form token: the cookie's, or a new one set as the cookie.
fn form_token(req: &HttpRequest, shop: &Shop, page: &ShopPage) -> (String, Option<(&'static str, String)>) {
    match cookie(req, FORM_COOKIE) {
        Some(token) => (token.to_owned(), None),
        None => {
            let token = shop.form_token();
            (token.clone(), Some(set_cookie_on(cookies(shop), &shop_path(page), FORM_COOKIE, &token, 24 * 3600)))
        }
    }
}

/// Whether a sign-in form repeats this browser's form token (a page of another site cannot).
fn ours(req: &HttpRequest, posted: &str) -> bool {
    cookie(req, FORM_COOKIE).is_some_and(|c| same_token(c, posted))
}

/// A form whose token does not match: nothing is done.
fn stale_form(req: &HttpRequest, page: &ShopPage) -> HttpResponse {
    let tx = Texts(page_lang(req));
    let title = tx.get("shop-form-expired");
    let body = html! {
        h1 { (title) }
        p { a.button href=(account_path(page)) { (tx.get("shop-sign-in-again")) } }
    };
    account_page(req, page, StatusCode::FORBIDDEN, &title, body)
}

#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    email: String,
    /// Present on the second step.
    code: Option<String>,
    #[serde(default)]
    form_token: String,
}

/// `POST /shop/{slug}/account`: a code to the address, or (with `code`) in with it.
pub async fn sign_in(
    req: HttpRequest,
    shop: Data<Shop>,
    proxies: Data<TrustedProxies>,
    slug: Path<String>,
    form: Form<SignInForm>,
) -> HttpResponse {
    let page = match shop_page(&req, &shop, &slug).await {
        Ok(page) => page,
        Err(res) => return res,
    };
    if !ours(&req, &form.form_token) {
        return stale_form(&req, &page);
    }
    let source = client_address(&proxies, &req);
    match &form.code {
        Some(code) => enter_code(&req, &shop, &page, &form.email, code, &source).await,
        None => send_code(&req, &shop, &page, &form.email, &source).await,
    }
}

async fn send_code(req: &HttpRequest, shop: &Shop, page: &ShopPage, email: &str, source: &str) -> HttpResponse {
    let lang = page_lang(req);
    let tx = Texts(lang);
    match shop.send_code(page, email, source, lang).await {
        Ok(Ok(email)) => code_form(req, page, email.as_str(), None, StatusCode::OK),
        Ok(Err(refused)) => {
            sign_in_form(req, shop, page, email, Some(refusal(tx, refused)), StatusCode::TOO_MANY_REQUESTS)
        }
        Err(AppError::Validation(_)) => {
            let problem = tx.get("shop-form-email-invalid");
            sign_in_form(req, shop, page, email, Some(problem), StatusCode::BAD_REQUEST)
        }
        Err(e) => failed(req, &e),
    }
}

fn refusal(tx: Texts, refused: CodeRefused) -> String {
    match refused {
        CodeRefused::TooMany { retry_after_secs } => {
            let minutes = ((retry_after_secs + 59) / 60).max(1);
            tx.with("shop-sign-in-too-many", &[("minutes", minutes.into())])
        }
        CodeRefused::Wrong { tries_left } => tx.with("shop-sign-in-wrong", &[("tries", tries_left.into())]),
        CodeRefused::Spent => tx.get("shop-sign-in-spent"),
    }
}

async fn enter_code(
    req: &HttpRequest,
    shop: &Shop,
    page: &ShopPage,
    email: &str,
    code: &str,
    source: &str,
) -> HttpResponse {
    let tx = Texts(page_lang(req));
    match shop.enter_code(page, email, code, source).await {
        Ok(Ok(entered)) => enter(req, shop, page, &entered),
        Ok(Err(CodeRefused::Spent)) => {
            sign_in_form(req, shop, page, email, Some(refusal(tx, CodeRefused::Spent)), StatusCode::BAD_REQUEST)
        }
        Ok(Err(refused @ CodeRefused::Wrong { .. })) => {
            code_form(req, page, email, Some(refusal(tx, refused)), StatusCode::BAD_REQUEST)
        }
        Ok(Err(refused)) => code_form(req, page, email, Some(refusal(tx, refused)), StatusCode::TOO_MANY_REQUESTS),
        Err(e) => failed(req, &e),
    }
}

/// `GET /shop/{slug}/sign-in/{token}`: in with the link of the message.
pub async fn enter_link(req: HttpRequest, shop: Data<Shop>, path: Path<(String, String)>) -> HttpResponse {
    let (slug, token) = path.into_inner();
    let page = match shop_page(&req, &shop, &slug).await {
        Ok(page) => page,
        Err(res) => return res,
    };
    match shop.enter_link(&page, &token).await {
        Ok(Ok(entered)) => enter(&req, &shop, &page, &entered),
        Ok(Err(refused)) => {
            let problem = refusal(Texts(page_lang(&req)), refused);
            sign_in_form(&req, &shop, &page, "", Some(problem), StatusCode::BAD_REQUEST)
        }
        Err(e) => failed(&req, &e),
    }
}

/// Into the account with a new session cookie.
fn enter(req: &HttpRequest, shop: &Shop, page: &ShopPage, entered: &Entered) -> HttpResponse {
    let mut res = see_other(&in_lang(req, &account_path(page)));
    add_cookie(
        &mut res,
        set_cookie_on(cookies(shop), &shop_path(page), SESSION_COOKIE, &entered.token, SESSION_MAX_AGE),
    );
    res
}

#[derive(Deserialize)]
pub struct AccountForm {
    #[serde(default)]
    pub(super) csrf: String,
    #[serde(default)]
    device: String,
    /// The subscription the form acts on: 0 (or none) for the first.
    #[serde(default)]
    sub: u32,
}

/// A form of the account page, taken only from the signed-in customer whose session's token it
/// repeats; otherwise the answer instead.
pub(super) async fn signed_form(
    req: &HttpRequest,
    shop: &Shop,
    slug: &str,
    csrf_token: &str,
) -> Result<(ShopPage, Customer), HttpResponse> {
    let page = shop_page(req, shop, slug).await?;
    match signed_in(req, shop, &page).await? {
        Some(customer) if same_token(&customer.csrf_token, csrf_token) => Ok((page, customer)),
        Some(_) => Err(stale_form(req, &page)),
        None => Err(see_other(&in_lang(req, &account_path(&page)))),
    }
}

/// `POST /shop/{slug}/sign-out`.
pub async fn sign_out(req: HttpRequest, shop: Data<Shop>, slug: Path<String>, form: Form<AccountForm>) -> HttpResponse {
    let (page, customer) = match signed_form(&req, &shop, &slug, &form.csrf).await {
        Ok(signed) => signed,
        Err(res) => return res,
    };
    if let Err(e) = shop.sign_out(&customer).await {
        return failed(&req, &e);
    }
    let mut res = see_other(&in_lang(&req, &shop_path(&page)));
    add_cookie(&mut res, set_cookie_on(cookies(&shop), &shop_path(&page), SESSION_COOKIE, "", 0));
    res
}

/// `POST /shop/{slug}/account/remove-device`.
pub async fn remove_device(
    req: HttpRequest,
    shop: Data<Shop>,
    slug: Path<String>,
    form: Form<AccountForm>,
) -> HttpResponse {
    let (page, customer) = match signed_form(&req, &shop, &slug, &form.csrf).await {
        Ok(signed) => signed,
        Err(res) => return res,
    };
    let Some(customer) = customer.at(form.sub) else { return not_found(&req, page_lang(&req)) };
    let tx = Texts(page_lang(&req));
    match shop.remove_device(&page, &customer, &form.device).await {
        Err(AppError::Refused(Refusal::DeviceNotFound)) => {
            account(&req, &shop, &page, &customer, Some(tx.get("shop-account-no-such-device")), StatusCode::NOT_FOUND)
                .await
        }
        done => after(&req, &shop, &page, &customer, done, "device").await,
    }
}

/// `POST /shop/{slug}/account/new-link`.
pub async fn new_link(req: HttpRequest, shop: Data<Shop>, slug: Path<String>, form: Form<AccountForm>) -> HttpResponse {
    let (page, customer) = match signed_form(&req, &shop, &slug, &form.csrf).await {
        Ok(signed) => signed,
        Err(res) => return res,
    };
    let Some(customer) = customer.at(form.sub) else { return not_found(&req, page_lang(&req)) };
    let done = shop.new_link(&page, &customer).await;
    after(&req, &shop, &page, &customer, done, "link").await
}

/// `POST /shop/{slug}/account/trial`: the free trial for the signed-in address.
pub async fn start_trial(
    req: HttpRequest,
    shop: Data<Shop>,
    slug: Path<String>,
    form: Form<AccountForm>,
) -> HttpResponse {
    let (page, customer) = match signed_form(&req, &shop, &slug, &form.csrf).await {
        Ok(signed) => signed,
        Err(res) => return res,
    };
    let done = shop.start_trial(&page, &customer, page_lang(&req)).await;
    after(&req, &shop, &page, &customer, done, "trial").await
}

/// Back to the account page saying what was `done`, or the page again saying why not.
async fn after(
    req: &HttpRequest,
    shop: &Shop,
    page: &ShopPage,
    customer: &Customer,
    result: vp_app::AppResult<()>,
    done: &str,
) -> HttpResponse {
    match result {
        Ok(()) => see_other(&in_lang(req, &format!("{}?done={done}{}", account_path(page), sub_query(customer)))),
        Err(e) => account_refused(req, shop, page, customer, e).await,
    }
}

/// `&sub=<n>` for a further subscription, so the page after an action shows the one acted on.
pub(super) fn sub_query(customer: &Customer) -> String {
    match customer.target {
        0 => String::new(),
        n => format!("&sub={n}"),
    }
}

/// The account page again, saying why an action was refused.
pub(super) async fn account_refused(
    req: &HttpRequest,
    shop: &Shop,
    page: &ShopPage,
    customer: &Customer,
    e: AppError,
) -> HttpResponse {
    let tx = Texts(page_lang(req));
    let brand = [("brand", page.account.brand_name.as_str().into())];
    let (status, said) = match &e {
        AppError::Refused(Refusal::LinkRotateTooSoon { retry_after_secs }) => {
            let minutes = retry_after_secs.div_ceil(60).max(1);
            (StatusCode::CONFLICT, tx.with("shop-new-link-too-soon", &[("minutes", minutes.into())]))
        }
        AppError::Refused(Refusal::NoActiveSubscription | Refusal::ClientNotFound) => {
            (StatusCode::CONFLICT, tx.get("shop-needs-subscription"))
        }
        AppError::Refused(Refusal::ClientBlocked) => (StatusCode::FORBIDDEN, tx.with("shop-blocked", &brand)),
        AppError::Refused(Refusal::TrialAlreadyUsed) => (StatusCode::CONFLICT, tx.get("shop-trial-used")),
        AppError::Refused(Refusal::TrialDisabled) => (StatusCode::FORBIDDEN, tx.with("shop-trial-off", &brand)),
        AppError::Refused(Refusal::TrialDailyLimit) => {
            (StatusCode::TOO_MANY_REQUESTS, tx.get("shop-trial-daily-limit"))
        }
        AppError::Refused(Refusal::RateLimited { retry_after_secs }) => {
            (StatusCode::TOO_MANY_REQUESTS, tx.with("shop-too-fast", &[("seconds", (*retry_after_secs).into())]))
        }
        AppError::Validation(fields) => (StatusCode::BAD_REQUEST, super::shop_several::field_problem(tx, fields)),
        AppError::Refused(Refusal::IdempotencyKeyReuse) => (StatusCode::CONFLICT, tx.get("shop-form-stale")),
        AppError::Refused(Refusal::Promo(reason)) => {
            (StatusCode::BAD_REQUEST, tx.get(vp_app::promotions::refusal_text_key(*reason)))
        }
        AppError::Refused(Refusal::LifetimeSubscription) => (StatusCode::CONFLICT, tx.get("shop-lifetime-owned")),
        AppError::Refused(Refusal::NewClientsDailyLimit) => {
            (StatusCode::TOO_MANY_REQUESTS, tx.with("shop-new-clients-limit", &brand))
        }
        AppError::NotFound(_) => (StatusCode::NOT_FOUND, tx.get("shop-account-no-such-subscription")),
        _ => {
            tracing::warn!(error = %e, "a shop account action failed");
            (StatusCode::SERVICE_UNAVAILABLE, tx.with("shop-try-later", &brand))
        }
    };
    account(req, shop, page, customer, Some(said), status).await
}

/// The account page: the subscription, the devices, a new link, the personal invite link, the
/// receipts.
async fn account(
    req: &HttpRequest,
    shop: &Shop,
    page: &ShopPage,
    customer: &Customer,
    problem: Option<String>,
    status: StatusCode,
) -> HttpResponse {
    let lang = page_lang(req);
    let acc = match shop.account(page, customer).await {
        Ok(acc) => acc,
        Err(e) => return failed(req, &e),
    };
    let tx = Texts(lang);
    let done = req.query_string().split('&').find_map(|p| p.strip_prefix("done="));
    let done = match done {
        Some("device") => Some(tx.get("shop-account-device-removed")),
        Some("link") => Some(tx.get("shop-new-link-done")),
        Some("trial") => Some(tx.get("shop-trial-started")),
        Some("gift") => Some(tx.with("shop-gift-redeemed", &[("brand", page.account.brand_name.as_str().into())])),
        _ => None,
    };
    // A gift page opened before signing in waits for this customer.
    let gift_waiting = super::shop_gift::waiting(req).filter(|_| done.is_none());
    let title = tx.get("shop-account-title");
    let body = html! {
        h1 { (title) }
        p.muted { (customer.email) }
        @if let Some(problem) = &problem { p.error role="alert" { (problem) } }
        @if let Some(done) = &done { p.ok role="status" { (done) } }
        @if let Some(code) = gift_waiting {
            p.ok role="status" {
                (tx.get("shop-gift-waiting")) " "
                a.button href=(in_lang(req, &super::shop_gift::gift_path(page, code))) { (tx.get("shop-gift-open")) }
            }
        }
        (super::shop_several::list(req, page, customer))
        (subscription(lang, page, customer, &acc))
        (super::shop_several::buy_form(req, page, customer))
        (invite(lang, &acc))
        (receipts(lang, page, &acc))
        form method="post" action=(super::order::with_lang(&format!("{}/sign-out", shop_path(page)), lang)) {
            input type="hidden" name="csrf" value=(customer.csrf_token);
            button type="submit" { (tx.get("shop-account-sign-out")) }
        }
    };
    account_page(req, page, status, &title, body)
}

fn subscription(lang: Lang, page: &ShopPage, customer: &Customer, acc: &CustomerAccount) -> Markup {
    let tx = Texts(lang);
    let Some(sub) = &acc.subscription else {
        let hours = vp_domain::limits::TRIAL_LENGTH.whole_hours();
        return html! {
            p { (tx.get("shop-subscription-none")) }
            @if acc.trial_offered {
                form #trial method="post" action=(super::order::with_lang(&format!("{}/trial", account_path(page)), lang)) {
                    input type="hidden" name="csrf" value=(customer.csrf_token);
                    p { (tx.with("shop-account-trial", &[("hours", hours.into())])) }
                    button.primary type="submit" { (tx.get("shop-account-trial-start")) }
                }
            }
            // The trial's button is the one to press first, where it is offered.
            p { a.button.primary[!acc.trial_offered] href=(shop_path(page)) { (tx.get("shop-account-buy")) } }
        };
    };
    let used = PanelUse { devices: acc.devices.as_ref().map(|d| d.devices_count), traffic_used: acc.traffic_used };
    let state = sub.state(lang, used);
    html! {
        h2 { (super::shop_several::heading(tx, customer)) }
        dl {
            dt { (tx.get("page-subscription-status")) } dd { (state.status) }
            dt { (tx.get("page-subscription-valid-until")) } dd { (state.until) }
            dt { (tx.get("page-subscription-devices")) } dd { (state.devices) }
            @if let Some(traffic) = &state.traffic { dt { (tx.get("page-subscription-traffic")) } dd { (traffic) } }
        }
        @if sub.auto_renew {
            p {
                (tx.get("shop-account-auto-renew-on"))
                @if let Some(url) = &acc.connect_url {
                    " " a href=(super::order::with_lang(url, lang)) { (tx.get("shop-account-auto-renew-manage")) }
                }
            }
        }
        p {
            @if let Some(url) = &acc.connect_url {
                a.button.primary href=(super::order::with_lang(url, lang)) { (tx.get("page-order-connect")) }
            }
            // The first renews in the shop by its address; a further one in the form below.
            @if !sub.lifetime {
                @let renew = if customer.target == 0 { shop_path(page) } else { "#buy".to_owned() };
                a.button href=(renew) { (tx.get("shop-renew")) }
            }
        }
        form method="post" action=(super::order::with_lang(&format!("{}/new-link", account_path(page)), lang)) {
            input type="hidden" name="csrf" value=(customer.csrf_token);
            input type="hidden" name="sub" value=(customer.target);
            p.muted { (tx.get("shop-account-new-link-help")) }
            button type="submit" { (tx.get("shop-new-link")) }
        }
        @if let Some(devices) = &acc.devices {
            h2 { (tx.get("shop-menu-devices")) }
            @if devices.devices.is_empty() { p { (tx.get("shop-devices-none")) } }
            ul {
                @for d in &devices.devices {
                    @let name = d.model.clone().or(d.platform.clone()).unwrap_or_else(|| tx.get("shop-device-unknown"));
                    li {
                        (tx.with("shop-device", &[("name", name.as_str().into()), ("day", sub.time_zone.day(d.created_at).into())]))
                        form.inline method="post" action=(super::order::with_lang(&format!("{}/remove-device", account_path(page)), lang)) {
                            input type="hidden" name="csrf" value=(customer.csrf_token);
                            input type="hidden" name="sub" value=(customer.target);
                            input type="hidden" name="device" value=(d.hwid);
                            " " button type="submit" { (tx.with("shop-device-remove", &[("name", name.as_str().into())])) }
                        }
                    }
                }
            }
        }
    }
}

/// The customer's personal link, while the account has a referral program.
fn invite(lang: Lang, acc: &CustomerAccount) -> Markup {
    let tx = Texts(lang);
    html! {
        @if let Some(link) = &acc.invite {
            section #invite {
                h2 { (tx.get("shop-menu-invite")) }
                p { (tx.with("shop-account-invite", &[("days", link.days.days().into())])) }
                p { a #invite-link href=(link.url) { (link.url) } }
            }
        }
    }
}

fn receipts(lang: Lang, page: &ShopPage, acc: &CustomerAccount) -> Markup {
    let tx = Texts(lang);
    let zone = &page.account.time_zone;
    html! {
        @if !acc.receipts.is_empty() {
            h2 { (tx.get("shop-account-receipts")) }
            ul {
                @for invoice in &acc.receipts {
                    @let paid = invoice.paid_at.unwrap_or(invoice.created_at);
                    li {
                        a href={ (vp_app::payments::PAYMENT_RESULT_PREFIX) (invoice.payment_id) "?lang=" (lang.code()) } {
                            (tx.date(zone.day(paid))) ": " (tx.money(invoice.amounts.customer))
                        }
                        " " code { (invoice.payment_id) }
                    }
                }
            }
        }
    }
}
