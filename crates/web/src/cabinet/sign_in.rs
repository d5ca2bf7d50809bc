//! Signing in and out, and the set-password page behind an invitation or reset link, at either
//! door: the cabinet's handlers are here, the operator's view calls the same pages with its own
//! `DoorPages` and entrance.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use time::OffsetDateTime;
use vp_app::AppError;
use vp_app::cabinet::CabinetAccess;
use vp_app::cabinet::SignInRefusal;
use vp_app::cabinet::SignedIn as Entered;
use vp_app::entrance::{Door, Entrance};
use vp_domain::cabinet::{CabinetInputError, PASSWORD_MIN_CHARS, check_new_password};
use vp_i18n::Texts;
use vp_ports::{CabinetLinkPurpose, TrustedProxies};

use super::session::{self, AnonymousForm, CABINET, Cookies, DoorPages, FORM_COOKIE};
use super::{SignedForm, SignedIn, failed, when};
use crate::pages::kit::Page;

/// A door as its anonymous pages need it: where its pages live, the way in, its cookie policy.
pub(crate) struct At<'a, D: Door> {
    pub pages: &'static DoorPages,
    pub entrance: &'a Entrance<D>,
    pub cookies: Cookies,
}

impl<D: Door> At<'_, D> {
    /// The form token of this browser: the cookie's, or a new one (then also set as the cookie).
    fn form_token(&self, req: &HttpRequest) -> (String, Option<(&'static str, String)>) {
        match session::cookie(req, FORM_COOKIE) {
            Some(token) => (token.to_owned(), None),
            None => {
                let token = self.entrance.form_token();
                let cookie = self.pages.cookie(self.cookies, FORM_COOKIE, &token, 24 * 3600);
                (token, Some(cookie))
            }
        }
    }

    /// An anonymous page (sign-in, set-password) under the platform's name, never cached.
    fn page(
        &self,
        req: &HttpRequest,
        status: StatusCode,
        title: &str,
        body: Markup,
        cookie: Option<(&'static str, String)>,
    ) -> HttpResponse {
        let lang = session::lang(req);
        let mut res = Page::new(req, lang, title).private_with_nav(html! {}).render(status, body);
        for cookie in cookie.into_iter().chain(self.pages.remember_lang_cookie(self.cookies, req)) {
            session::add_cookie(&mut res, cookie);
        }
        res
    }

    /// In through the door with a new session cookie (a new session id at every sign-in).
    fn enter(&self, signed_in: &Entered) -> HttpResponse {
        let mut res = session::see_other(self.pages.base);
        session::add_cookie(&mut res, self.pages.session_cookie(self.cookies, &signed_in.token));
        res
    }

    fn sign_in_page(
        &self,
        req: &HttpRequest,
        status: StatusCode,
        email: &str,
        message: Option<String>,
    ) -> HttpResponse {
        let tx = Texts(session::lang(req));
        let (token, cookie) = self.form_token(req);
        let title = tx.get(self.pages.sign_in_title);
        let body = html! {
            h1 { (title) }
            (alert(message))
            form method="post" action=(self.pages.path("/sign-in")) {
                input type="hidden" name="form_token" value=(token);
                label for="email" { (tx.get("cabinet-sign-in-email")) }
                input #email name="email" type="email" autocomplete="username" required value=(email);
                label for="password" { (tx.get("cabinet-sign-in-password")) }
                input #password name="password" type="password" autocomplete="current-password" required;
                p { button.primary type="submit" { (tx.get("cabinet-sign-in-submit")) } }
            }
            p.muted { (tx.get(self.pages.sign_in_help)) }
        };
        self.page(req, status, &title, body, cookie)
    }

    /// The sign-in form.
    pub(crate) fn form(&self, req: &HttpRequest) -> HttpResponse {
        self.sign_in_page(req, StatusCode::OK, "", None)
    }

    pub(crate) async fn submit(
        &self,
        req: &HttpRequest,
        proxies: &TrustedProxies,
        fields: &super::Fields,
    ) -> HttpResponse {
        let tx = Texts(session::lang(req));
        let email = fields.get("email");
        let address = session::client_address(proxies, req);
        match self.entrance.sign_in(email, fields.get("password"), &address).await {
            Ok(Ok(signed_in)) => self.enter(&signed_in),
            Ok(Err(SignInRefusal::Wrong)) => {
                let wrong = tx.get("cabinet-sign-in-wrong");
                self.sign_in_page(req, StatusCode::UNAUTHORIZED, email, Some(wrong))
            }
            Ok(Err(SignInRefusal::Locked { until })) => {
                let message = Some(locked_message(tx, until));
                let mut res = self.sign_in_page(req, StatusCode::TOO_MANY_REQUESTS, email, message);
                let wait = self.entrance.seconds_until(until);
                res.headers_mut()
                    .insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from(wait));
                res
            }
            Err(e) => failed(req, &e),
        }
    }

    fn link_gone(&self, req: &HttpRequest) -> HttpResponse {
        let tx = Texts(session::lang(req));
        let title = tx.get("cabinet-sign-in-link-gone");
        let body = html! {
            h1 { (title) }
            p { (tx.get("cabinet-sign-in-link-gone-why")) }
            p { a.button href=(self.pages.path("/sign-in")) { (tx.get("cabinet-sign-in-submit")) } }
        };
        self.page(req, StatusCode::NOT_FOUND, &title, body, None)
    }

    fn welcome_page(
        &self,
        req: &HttpRequest,
        token: &str,
        view: &vp_app::cabinet::LinkView,
        status: StatusCode,
        message: Option<String>,
    ) -> HttpResponse {
        let tx = Texts(session::lang(req));
        let (form_token, cookie) = self.form_token(req);
        let title = tx.get(match view.purpose {
            CabinetLinkPurpose::Invite => self.pages.welcome_title,
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
            form method="post" action={ (self.pages.path("/welcome/")) (token) } {
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
        self.page(req, status, &title, body, cookie)
    }

    /// The set-password page of a link.
    pub(crate) async fn welcome(&self, req: &HttpRequest, token: &str) -> HttpResponse {
        match self.entrance.link(token).await {
            Ok(view) => self.welcome_page(req, token, &view, StatusCode::OK, None),
            Err(AppError::NotFound(_)) => self.link_gone(req),
            Err(e) => failed(req, &e),
        }
    }

    pub(crate) async fn set_password(&self, req: &HttpRequest, token: &str, fields: &super::Fields) -> HttpResponse {
        let tx = Texts(session::lang(req));
        let view = match self.entrance.link(token).await {
            Ok(view) => view,
            Err(AppError::NotFound(_)) => return self.link_gone(req),
            Err(e) => return failed(req, &e),
        };
        let password = fields.get("password");
        let problem = match check_new_password(password) {
            Err(e) => Some(password_problem(tx, e)),
            Ok(()) if password != fields.get("confirm") => Some(tx.get("cabinet-sign-in-passwords-differ")),
            Ok(()) => None,
        };
        if let Some(problem) = problem {
            return self.welcome_page(req, token, &view, StatusCode::UNPROCESSABLE_ENTITY, Some(problem));
        }
        match self.entrance.set_password(token, password).await {
            Ok(signed_in) => self.enter(&signed_in),
            Err(AppError::NotFound(_)) => self.link_gone(req),
            Err(e) => failed(req, &e),
        }
    }
}

/// A problem with what was posted, above the form.
fn alert(message: Option<String>) -> Markup {
    html! { @if let Some(message) = message { p.error role="alert" { (message) } } }
}

/// Before signing in the account is not known: sign-in pages show UTC, named (as does the
/// operator's view, which spans accounts of every zone).
pub(crate) fn utc() -> vp_domain::TimeZone {
    vp_domain::TimeZone::parse("UTC").unwrap_or_default()
}

fn locked_message(tx: Texts, until: OffsetDateTime) -> String {
    tx.with("cabinet-sign-in-locked", &[("until", when(&utc(), until).as_str().into())])
}

fn password_problem(tx: Texts, e: CabinetInputError) -> String {
    match e {
        CabinetInputError::PasswordTooShort => {
            tx.with("cabinet-sign-in-password-too-short", &[("count", PASSWORD_MIN_CHARS.into())])
        }
        _ => tx.get("cabinet-sign-in-password-too-long"),
    }
}

/// The cabinet's door.
fn cabinet(access: &CabinetAccess) -> At<'_, vp_app::cabinet::CabinetDoor> {
    At { pages: &CABINET, entrance: access, cookies: Cookies { secure: access.secure_cookies() } }
}

/// The sign-in form; a visitor signed in already goes on to the cabinet.
pub async fn form(req: HttpRequest, access: Data<CabinetAccess>, signed_in: Option<SignedIn>) -> HttpResponse {
    if signed_in.is_some() {
        return session::see_other(CABINET.base);
    }
    cabinet(&access).form(&req)
}

pub async fn submit(
    req: HttpRequest,
    access: Data<CabinetAccess>,
    proxies: Data<TrustedProxies>,
    AnonymousForm(fields): AnonymousForm,
) -> HttpResponse {
    cabinet(&access).submit(&req, &proxies, &fields).await
}

pub async fn sign_out(req: HttpRequest, access: Data<CabinetAccess>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, .. } = form;
    match access.sign_out(&actor).await {
        Ok(()) => CABINET.to_sign_in(cabinet(&access).cookies),
        Err(e) => failed(&req, &e),
    }
}

pub async fn welcome(req: HttpRequest, access: Data<CabinetAccess>, token: Path<String>) -> HttpResponse {
    cabinet(&access).welcome(&req, &token).await
}

pub async fn set_password(
    req: HttpRequest,
    access: Data<CabinetAccess>,
    token: Path<String>,
    AnonymousForm(fields): AnonymousForm,
) -> HttpResponse {
    cabinet(&access).set_password(&req, &token, &fields).await
}
