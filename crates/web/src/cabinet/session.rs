//! Cookies of the cabinet (the session, the sign-in form's token, the chosen language), the
//! signed-in check every cabinet page starts with, and the form-token checks.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::web::{Data, Form};
use actix_web::{FromRequest, HttpRequest, HttpResponse, ResponseError};
use maud::html;
use vp_app::Lang;
use vp_app::actor::Actor;
use vp_app::cabinet::CabinetAccess;
use vp_i18n::Texts;
use vp_ports::TrustedProxies;

use super::Fields;
use crate::pages::kit;

/// The session token (the database keeps only its hash).
pub const SESSION_COOKIE: &str = "vp_cabinet";
/// A random token the sign-in and set-password forms repeat (double-submit: a page of another
/// site cannot read it, so it cannot post those forms for the visitor).
pub const FORM_COOKIE: &str = "vp_form";
/// The language chosen with the switch, kept across the cabinet's pages.
pub const LANG_COOKIE: &str = "vp_lang";
/// Where the cabinet's cookies are sent.
const COOKIE_PATH: &str = "/cabinet";
/// The browser keeps the session cookie as long as a session can live (30 days); the server
/// ends it sooner when idle.
const SESSION_MAX_AGE: i64 = vp_domain::cabinet::SESSION_ABSOLUTE.whole_seconds();

/// A cookie of the request.
pub fn cookie<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers()
        .get_all("cookie")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(k, v)| (k == name && !v.is_empty()).then_some(v))
}

/// How the cabinet's cookies are set: `Secure` when the service is public over https.
#[derive(Debug, Clone, Copy)]
pub struct Cookies {
    pub secure: bool,
}

impl Cookies {
    /// The policy the cabinet is served with (`Secure` when it is not registered: never sent
    /// over plain http by mistake).
    pub fn of(req: &HttpRequest) -> Cookies {
        req.app_data::<Data<Cookies>>().map_or(Cookies { secure: true }, |c| *c.get_ref())
    }
}

/// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, and `Secure` when the service is public
/// over https. `max_age` 0 deletes the cookie.
pub fn set_cookie(cookies: Cookies, name: &str, value: &str, max_age: i64) -> (&'static str, String) {
    set_cookie_on(cookies, COOKIE_PATH, name, value, max_age)
}

/// A `Set-Cookie` value as `set_cookie` makes it, sent only under `path`.
pub fn set_cookie_on(cookies: Cookies, path: &str, name: &str, value: &str, max_age: i64) -> (&'static str, String) {
    let secure = if cookies.secure { "; Secure" } else { "" };
    ("set-cookie", format!("{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"))
}

pub fn session_cookie(cookies: Cookies, token: &str) -> (&'static str, String) {
    set_cookie(cookies, SESSION_COOKIE, token, SESSION_MAX_AGE)
}

/// The cabinet's language: `?lang=`, then the switch's cookie, then `Accept-Language`.
pub fn lang(req: &HttpRequest) -> Lang {
    let remembered = cookie(req, LANG_COOKIE).and_then(Lang::from_code);
    kit::query_lang(req).or(remembered).unwrap_or_else(|| kit::page_lang(req))
}

/// The cookie that remembers a language picked with `?lang=` for the cabinet's other pages.
pub fn remember_lang_cookie(cookies: Cookies, req: &HttpRequest) -> Option<(&'static str, String)> {
    kit::query_lang(req).map(|picked| set_cookie(cookies, LANG_COOKIE, picked.code(), SESSION_MAX_AGE))
}

/// `303` to the sign-in page, clearing the session cookie.
pub fn to_sign_in(cookies: Cookies) -> HttpResponse {
    let mut res = see_other("/cabinet/sign-in");
    add_cookie(&mut res, set_cookie(cookies, SESSION_COOKIE, "", 0));
    res
}

/// Adds a `Set-Cookie` to a response.
pub fn add_cookie(res: &mut HttpResponse, (name, value): (&'static str, String)) {
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&value) {
        res.headers_mut().append(actix_web::http::header::HeaderName::from_static(name), value);
    }
}

/// Where a page goes after a form: `303 See Other`, so a reload does not post again.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header(("location", location)).insert_header(("cache-control", "no-store")).finish()
}

/// What the cabinet's extractors give: the value, or the page answered instead (`Instead`).
type Extracted<T> = Pin<Box<dyn Future<Output = Result<T, actix_web::Error>>>>;

/// The signed-in person of a cabinet page, taken from the session cookie before the handler
/// runs. A visitor without a live session is sent to the sign-in page instead, and a failing
/// database shows the error page.
pub struct SignedIn(pub Actor);

impl FromRequest for SignedIn {
    type Error = actix_web::Error;
    type Future = Extracted<SignedIn>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { actor(&req).await.map(SignedIn).map_err(|why| Instead { req, why }.into()) })
    }
}

/// A form posted by the signed-in person, taken only when it carries the session's form
/// token; otherwise the handler does not run and the stale-form page answers (nothing changes).
pub struct SignedForm {
    pub actor: Actor,
    pub fields: Fields,
}

impl FromRequest for SignedForm {
    type Error = actix_web::Error;
    type Future = Extracted<SignedForm>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        posted(req, payload, async |req, fields| {
            let actor = actor(req).await?;
            if !fields.carries_token_of(&actor) {
                return Err(Why::StaleForm);
            }
            Ok(SignedForm { actor, fields })
        })
    }
}

/// A form posted before anyone is signed in (sign-in, set-password), taken only when it repeats
/// this browser's form token (`FORM_COOKIE`); otherwise the stale-form page answers.
pub struct AnonymousForm(pub Fields);

impl FromRequest for AnonymousForm {
    type Error = actix_web::Error;
    type Future = Extracted<AnonymousForm>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        posted(req, payload, async |req, fields| {
            let ours = cookie(req, FORM_COOKIE).is_some_and(|c| same_token(c, fields.get("form_token")));
            if ours { Ok(AnonymousForm(fields)) } else { Err(Why::StaleForm) }
        })
    }
}

/// Reads a posted form and hands it to `take`, which accepts it or says why not.
fn posted<T, F>(req: &HttpRequest, payload: &mut Payload, take: F) -> Extracted<T>
where
    T: 'static,
    F: AsyncFnOnce(&HttpRequest, Fields) -> Result<T, Why> + 'static,
{
    let req = req.clone();
    let form = Form::<Vec<(String, String)>>::from_request(&req, payload);
    Box::pin(async move {
        let fields = Fields::from(form.await?);
        match take(&req, fields).await {
            Ok(taken) => Ok(taken),
            Err(why) => Err(Instead { req, why }.into()),
        }
    })
}

/// Why a cabinet page answers before its handler runs.
#[derive(Debug, Clone, Copy)]
enum Why {
    /// No session cookie.
    NotSignedIn,
    /// A cookie of no live session (ended, expired or made up): it is cleared.
    SessionEnded,
    /// The session could not be looked up (logged).
    Unavailable,
    /// A form without the session's form token.
    StaleForm,
}

/// The answer an extractor gives instead of the handler. Built from the request whenever
/// actix asks for it (it may ask more than once).
#[derive(Debug)]
struct Instead {
    req: HttpRequest,
    why: Why,
}

impl std::fmt::Display for Instead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the cabinet answered before the handler: {:?}", self.why)
    }
}

impl ResponseError for Instead {
    fn status_code(&self) -> StatusCode {
        match self.why {
            Why::NotSignedIn | Why::SessionEnded => StatusCode::SEE_OTHER,
            Why::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Why::StaleForm => StatusCode::FORBIDDEN,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let req = &self.req;
        match self.why {
            Why::NotSignedIn => see_other("/cabinet/sign-in"),
            Why::SessionEnded => to_sign_in(Cookies::of(req)),
            Why::StaleForm => stale_form(req),
            Why::Unavailable => kit::unavailable(req, lang(req)),
        }
    }
}

/// The signed-in person, or why there is none.
async fn actor(req: &HttpRequest) -> Result<Actor, Why> {
    let Some(access) = req.app_data::<Data<CabinetAccess>>() else {
        tracing::error!("the cabinet is served without the application state");
        return Err(Why::Unavailable);
    };
    let Some(token) = cookie(req, SESSION_COOKIE) else {
        return Err(Why::NotSignedIn);
    };
    match access.actor(token).await {
        Ok(Some(actor)) => Ok(actor),
        Ok(None) => Err(Why::SessionEnded),
        Err(e) => {
            tracing::error!(error = %e, "cabinet session lookup failed");
            Err(Why::Unavailable)
        }
    }
}

/// Compares two tokens in time independent of where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The page for a form whose token does not match (a stale page, or another site posting).
pub fn stale_form(req: &HttpRequest) -> HttpResponse {
    let lang = lang(req);
    let tx = Texts(lang);
    let title = tx.get("cabinet-stale-form-title");
    let body = html! {
        h1 { (title) }
        p { (tx.get("cabinet-stale-form-why")) }
        p { a.button href="/cabinet" { (tx.get("cabinet-back")) } }
    };
    kit::Page::new(req, lang, &title).private_with_nav(html! {}).render(StatusCode::FORBIDDEN, body)
}

/// The client's address as the cabinet records it (sign-in failures per address), found behind
/// the proxies the operator trusts (`VP_TRUSTED_PROXIES`); `unknown` without a peer.
pub fn client_address(proxies: &TrustedProxies, req: &HttpRequest) -> String {
    let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
    proxies.client_address(req.peer_addr().map(|p| p.ip()), forwarded)
}
