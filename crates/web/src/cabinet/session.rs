//! Cookies of the cabinet (the session, the sign-in form's token, the chosen language), the
//! signed-in check every cabinet page starts with, and the form-token checks.

use std::net::IpAddr;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::Actor;
use vp_app::{App, Lang};

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

/// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, and `Secure` when the service is public
/// over https. `max_age` 0 deletes the cookie.
pub fn set_cookie(app: &App, name: &str, value: &str, max_age: i64) -> (&'static str, String) {
    let secure = if app.settings.public_base_url.starts_with("https://") { "; Secure" } else { "" };
    ("set-cookie", format!("{name}={value}; Path={COOKIE_PATH}; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"))
}

pub fn session_cookie(app: &App, token: &str) -> (&'static str, String) {
    set_cookie(app, SESSION_COOKIE, token, SESSION_MAX_AGE)
}

/// The cabinet's language: `?lang=`, then the switch's cookie, then `Accept-Language`.
pub fn lang(req: &HttpRequest) -> Lang {
    let remembered = cookie(req, LANG_COOKIE).and_then(Lang::from_code);
    kit::query_lang(req).or(remembered).unwrap_or_else(|| kit::page_lang(req))
}

/// The cookie that remembers a language picked with `?lang=` for the cabinet's other pages.
pub fn remember_lang_cookie(app: &App, req: &HttpRequest) -> Option<(&'static str, String)> {
    kit::query_lang(req).map(|picked| set_cookie(app, LANG_COOKIE, picked.code(), SESSION_MAX_AGE))
}

/// `303` to the sign-in page, clearing the session cookie.
pub fn to_sign_in(app: &App) -> HttpResponse {
    let mut res = see_other("/cabinet/sign-in");
    add_cookie(&mut res, set_cookie(app, SESSION_COOKIE, "", 0));
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

/// The signed-in person, or the response to send instead: the sign-in page for a visitor
/// without a live session, the error page when the database fails.
pub async fn actor(req: &HttpRequest, app: &App) -> Result<Actor, HttpResponse> {
    let Some(token) = cookie(req, SESSION_COOKIE) else {
        return Err(see_other("/cabinet/sign-in"));
    };
    match app.cabinet_actor(token).await {
        Ok(Some(actor)) => Ok(actor),
        Ok(None) => Err(to_sign_in(app)),
        Err(e) => {
            tracing::error!(error = %e, "cabinet session lookup failed");
            Err(kit::unavailable(req, lang(req)))
        }
    }
}

/// The signed-in actor and a posted form, once the form is checked to carry the session's
/// token; otherwise the response to send instead.
pub async fn posted(
    req: &HttpRequest,
    app: &App,
    form: actix_web::web::Form<Vec<(String, String)>>,
) -> Result<(Actor, super::Fields), HttpResponse> {
    let actor = actor(req, app).await?;
    let fields = super::Fields::from(form);
    if !fields.carries_token_of(&actor) {
        return Err(stale_form(req));
    }
    Ok((actor, fields))
}

/// Compares two tokens in time independent of where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The page for a form whose token does not match (a stale page, or another site posting).
pub fn stale_form(req: &HttpRequest) -> HttpResponse {
    let lang = lang(req);
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let title = t("The form has expired", "Форма устарела");
    let body = format!(
        "<h1>{title}</h1><p>{why}</p><p><a class=\"button\" href=\"/cabinet\">{back}</a></p>",
        why = t(
            "Nothing was changed. Open the page again and repeat the action.",
            "Ничего не изменено. Откройте страницу заново и повторите действие."
        ),
        back = t("Back to the cabinet", "Вернуться в кабинет"),
    );
    kit::Page::new(req, lang, title).private_with_nav(maud::html! {}).render(StatusCode::FORBIDDEN, &body)
}

/// How the service finds the client's address behind proxies it trusts (`VP_TRUSTED_PROXIES`).
/// The peer's address and `X-Forwarded-For` to the client's address.
type Resolve = dyn Fn(IpAddr, Option<&str>) -> IpAddr + Send + Sync;

pub struct ClientAddress(Box<Resolve>);

impl ClientAddress {
    /// No proxy is trusted: the address is the peer's.
    pub fn peer() -> ClientAddress {
        ClientAddress(Box::new(|peer, _| peer))
    }

    pub fn new(resolve: impl Fn(IpAddr, Option<&str>) -> IpAddr + Send + Sync + 'static) -> ClientAddress {
        ClientAddress(Box::new(resolve))
    }

    pub fn of(&self, req: &HttpRequest) -> String {
        let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
        match req.peer_addr() {
            Some(peer) => (self.0)(peer.ip(), forwarded).to_string(),
            None => "unknown".to_owned(),
        }
    }
}
