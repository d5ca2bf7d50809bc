//! Signing in and out, and the set-password page behind an invitation or reset link.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use time::OffsetDateTime;
use vp_app::AppError;
use vp_app::cabinet::CabinetAccess;
use vp_app::cabinet::SignInRefusal;
use vp_app::cabinet::SignedIn as Entered;
use vp_domain::cabinet::{CabinetInputError, PASSWORD_MIN_CHARS, check_new_password};
use vp_i18n::Texts;
use vp_ports::{CabinetLinkPurpose, TrustedProxies};

use super::session::{self, AnonymousForm, FORM_COOKIE};
use super::{SignedForm, SignedIn, failed, when};
use crate::pages::kit::Page;

/// The cabinet's cookie policy (`Secure` on https).
fn cookies(access: &CabinetAccess) -> session::Cookies {
    session::Cookies { secure: access.secure_cookies() }
}

/// The form token of this browser: the cookie's, or a new one (then also set as the cookie).
fn form_token(req: &HttpRequest, access: &CabinetAccess) -> (String, Option<(&'static str, String)>) {
    match session::cookie(req, FORM_COOKIE) {
        Some(token) => (token.to_owned(), None),
        None => {
            let token = access.form_token();
            let cookie = session::set_cookie(cookies(access), FORM_COOKIE, &token, 24 * 3600);
            (token, Some(cookie))
        }
    }
}

/// An anonymous page (sign-in, set-password) under the platform's name, never cached.
fn anonymous_page(
    req: &HttpRequest,
    access: &CabinetAccess,
    status: StatusCode,
    title: &str,
    body: Markup,
    cookie: Option<(&'static str, String)>,
) -> HttpResponse {
    let lang = session::lang(req);
    let mut res = Page::new(req, lang, title).private_with_nav(html! {}).render(status, body);
    for cookie in cookie.into_iter().chain(session::remember_lang_cookie(cookies(access), req)) {
        session::add_cookie(&mut res, cookie);
    }
    res
}

/// Into the cabinet with a new session cookie (a new session id at every sign-in).
fn enter(access: &CabinetAccess, signed_in: &Entered) -> HttpResponse {
    let mut res = session::see_other("/cabinet");
    session::add_cookie(&mut res, session::session_cookie(cookies(access), &signed_in.token));
    res
}

/// A problem with what was posted, above the form.
fn alert(message: Option<String>) -> Markup {
    html! { @if let Some(message) = message { p.error role="alert" { (message) } } }
}

fn sign_in_page(
    req: &HttpRequest,
    access: &CabinetAccess,
    status: StatusCode,
    email: &str,
    message: Option<String>,
) -> HttpResponse {
    let tx = Texts(session::lang(req));
    let (token, cookie) = form_token(req, access);
    let title = tx.get("cabinet-sign-in-title");
    let body = html! {
        h1 { (title) }
        (alert(message))
        form method="post" action="/cabinet/sign-in" {
            input type="hidden" name="form_token" value=(token);
            label for="email" { (tx.get("cabinet-sign-in-email")) }
            input #email name="email" type="email" autocomplete="username" required value=(email);
            label for="password" { (tx.get("cabinet-sign-in-password")) }
            input #password name="password" type="password" autocomplete="current-password" required;
            p { button.primary type="submit" { (tx.get("cabinet-sign-in-submit")) } }
        }
        p.muted { (tx.get("cabinet-sign-in-help")) }
    };
    anonymous_page(req, access, status, &title, body, cookie)
}

/// The sign-in form; a visitor signed in already goes on to the cabinet.
pub async fn form(req: HttpRequest, access: Data<CabinetAccess>, signed_in: Option<SignedIn>) -> HttpResponse {
    if signed_in.is_some() {
        return session::see_other("/cabinet");
    }
    sign_in_page(&req, &access, StatusCode::OK, "", None)
}

pub async fn submit(
    req: HttpRequest,
    access: Data<CabinetAccess>,
    proxies: Data<TrustedProxies>,
    AnonymousForm(fields): AnonymousForm,
) -> HttpResponse {
    let tx = Texts(session::lang(&req));
    let email = fields.get("email");
    match access.sign_in(email, fields.get("password"), &session::client_address(&proxies, &req)).await {
        Ok(Ok(signed_in)) => enter(&access, &signed_in),
        Ok(Err(SignInRefusal::Wrong)) => {
            let wrong = tx.get("cabinet-sign-in-wrong");
            sign_in_page(&req, &access, StatusCode::UNAUTHORIZED, email, Some(wrong))
        }
        Ok(Err(SignInRefusal::Locked { until })) => {
            let mut res =
                sign_in_page(&req, &access, StatusCode::TOO_MANY_REQUESTS, email, Some(locked_message(tx, until)));
            let wait = access.seconds_until(until);
            res.headers_mut()
                .insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from(wait));
            res
        }
        Err(e) => failed(&req, &e),
    }
}

/// Before signing in the account is not known: sign-in pages show UTC, named.
fn utc() -> vp_domain::TimeZone {
    vp_domain::TimeZone::parse("UTC").unwrap_or_default()
}

fn locked_message(tx: Texts, until: OffsetDateTime) -> String {
    tx.with("cabinet-sign-in-locked", &[("until", when(&utc(), until).as_str().into())])
}

pub async fn sign_out(req: HttpRequest, access: Data<CabinetAccess>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, .. } = form;
    match access.sign_out(&actor).await {
        Ok(()) => session::to_sign_in(cookies(&access)),
        Err(e) => failed(&req, &e),
    }
}

fn link_gone(req: &HttpRequest, access: &CabinetAccess) -> HttpResponse {
    let tx = Texts(session::lang(req));
    let title = tx.get("cabinet-sign-in-link-gone");
    let body = html! {
        h1 { (title) }
        p { (tx.get("cabinet-sign-in-link-gone-why")) }
        p { a.button href="/cabinet/sign-in" { (tx.get("cabinet-sign-in-submit")) } }
    };
    anonymous_page(req, access, StatusCode::NOT_FOUND, &title, body, None)
}

fn password_problem(tx: Texts, e: CabinetInputError) -> String {
    match e {
        CabinetInputError::PasswordTooShort => {
            tx.with("cabinet-sign-in-password-too-short", &[("count", PASSWORD_MIN_CHARS.into())])
        }
        _ => tx.get("cabinet-sign-in-password-too-long"),
    }
}

fn welcome_page(
    req: &HttpRequest,
    access: &CabinetAccess,
    token: &str,
    view: &vp_app::cabinet::LinkView,
    status: StatusCode,
    message: Option<String>,
) -> HttpResponse {
    let tx = Texts(session::lang(req));
    let (form_token, cookie) = form_token(req, access);
    let title = tx.get(match view.purpose {
        CabinetLinkPurpose::Invite => "cabinet-sign-in-welcome-title",
        CabinetLinkPurpose::Reset => "cabinet-sign-in-reset-title",
    });
    let until = when(&utc(), view.expires_at);
    let body = html! {
        h1 { (title) }
        p {
            (tx.get("cabinet-sign-in-for-whom")) " " strong { (view.email) } ". "
            (tx.with("cabinet-sign-in-link-valid", &[("until", until.as_str().into())]))
        }
        (alert(message))
        form method="post" action={ "/cabinet/welcome/" (token) } {
            input type="hidden" name="form_token" value=(form_token);
            input type="email" name="username" value=(view.email) autocomplete="username" hidden;
            label for="password" { (tx.get("cabinet-sign-in-new-password")) }
            input #password name="password" type="password" autocomplete="new-password" minlength=(PASSWORD_MIN_CHARS)
                required aria-describedby="rule";
            p #rule .muted { (tx.with("cabinet-sign-in-password-rule", &[("count", PASSWORD_MIN_CHARS.into())])) }
            label for="confirm" { (tx.get("cabinet-sign-in-confirm")) }
            input #confirm name="confirm" type="password" autocomplete="new-password" required;
            p { button.primary type="submit" { (tx.get("cabinet-sign-in-set-password")) } }
        }
    };
    anonymous_page(req, access, status, &title, body, cookie)
}

pub async fn welcome(req: HttpRequest, access: Data<CabinetAccess>, token: Path<String>) -> HttpResponse {
    match access.link(&token).await {
        Ok(view) => welcome_page(&req, &access, &token, &view, StatusCode::OK, None),
        Err(AppError::NotFound(_)) => link_gone(&req, &access),
        Err(e) => failed(&req, &e),
    }
}

pub async fn set_password(
    req: HttpRequest,
    access: Data<CabinetAccess>,
    token: Path<String>,
    AnonymousForm(fields): AnonymousForm,
) -> HttpResponse {
    let tx = Texts(session::lang(&req));
    let view = match access.link(&token).await {
        Ok(view) => view,
        Err(AppError::NotFound(_)) => return link_gone(&req, &access),
        Err(e) => return failed(&req, &e),
    };
    let password = fields.get("password");
    let problem = match check_new_password(password) {
        Err(e) => Some(password_problem(tx, e)),
        Ok(()) if password != fields.get("confirm") => Some(tx.get("cabinet-sign-in-passwords-differ")),
        Ok(()) => None,
    };
    if let Some(problem) = problem {
        return welcome_page(&req, &access, &token, &view, StatusCode::UNPROCESSABLE_ENTITY, Some(problem));
    }
    match access.set_password(&token, password).await {
        Ok(signed_in) => enter(&access, &signed_in),
        Err(AppError::NotFound(_)) => link_gone(&req, &access),
        Err(e) => failed(&req, &e),
    }
}
