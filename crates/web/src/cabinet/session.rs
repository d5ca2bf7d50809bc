//! Cookies of the cabinet and the operator's view (the session, the sign-in form's token, the
//! chosen language), the signed-in check every page of theirs starts with, and the form-token
//! checks. The two doors differ only in where their pages live and who signs in (`Signed`).

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
use vp_app::operator_view::{OperatorAccess, OperatorActor};
use vp_i18n::Texts;
use vp_ports::TrustedProxies;

use super::Fields;
use crate::pages::kit;

/// The cabinet's session token (the database keeps only its hash).
pub const SESSION_COOKIE: &str = "vp_cabinet";
/// A random token the sign-in and set-password forms repeat (double-submit: a page of another
/// site cannot read it, so it cannot post those forms for the visitor).
pub const FORM_COOKIE: &str = "vp_form";
/// The language chosen with the switch, kept across the cabinet's pages.
pub const LANG_COOKIE: &str = "vp_lang";
/// Where a door's pages live, which session cookie it sets, and the words of its anonymous
/// pages that name it.
#[derive(Debug)]
pub struct DoorPages {
    /// The pages' path, also where the door's cookies are sent.
    pub base: &'static str,
    pub session_cookie: &'static str,
    pub sign_in_title: &'static str,
    pub sign_in_help: &'static str,
    pub welcome_title: &'static str,
    pub back: &'static str,
}

/// The partner cabinet's pages.
pub const CABINET: DoorPages = DoorPages {
    base: "/cabinet",
    session_cookie: SESSION_COOKIE,
    sign_in_title: "cabinet-sign-in-title",
    sign_in_help: "cabinet-sign-in-help",
    welcome_title: "cabinet-sign-in-welcome-title",
    back: "cabinet-back",
};

/// The operator's view.
pub const OPERATOR: DoorPages = DoorPages {
    base: "/operator",
    session_cookie: "vp_operator",
    sign_in_title: "operator-sign-in-title",
    sign_in_help: "operator-sign-in-help",
    welcome_title: "operator-sign-in-welcome-title",
    back: "operator-back",
};

impl DoorPages {
    /// A `Set-Cookie` of this door's pages, as `set_cookie_on` makes it.
    pub fn cookie(&self, cookies: Cookies, name: &str, value: &str, max_age: i64) -> (&'static str, String) {
        set_cookie_on(cookies, self.base, name, value, max_age)
    }

    pub fn session_cookie(&self, cookies: Cookies, token: &str) -> (&'static str, String) {
        self.cookie(cookies, self.session_cookie, token, SESSION_MAX_AGE)
    }

    /// The cookie that remembers a language picked with `?lang=` for the door's other pages.
    pub fn remember_lang_cookie(&self, cookies: Cookies, req: &HttpRequest) -> Option<(&'static str, String)> {
        kit::query_lang(req).map(|picked| self.cookie(cookies, LANG_COOKIE, picked.code(), SESSION_MAX_AGE))
    }

    /// `303` to the sign-in page, clearing the session cookie.
    pub fn to_sign_in(&self, cookies: Cookies) -> HttpResponse {
        let mut res = see_other(&self.path("/sign-in"));
        add_cookie(&mut res, self.cookie(cookies, self.session_cookie, "", 0));
        res
    }

    /// A path under the door's pages.
    pub fn path(&self, rest: &str) -> String {
        format!("{}{rest}", self.base)
    }
}

/// Someone signed in at a door, as its pages get them from the session cookie.
pub trait Signed: Sized + 'static {
    const PAGES: &'static DoorPages;
    /// The session's form token, which every state-changing form must carry.
    fn form_token(&self) -> &str;
    /// The person of a live session with this cookie's token, if there is one.
    fn look_up(req: &HttpRequest, token: &str) -> impl Future<Output = Result<Option<Self>, Why>>;
}

impl Signed for Actor {
    const PAGES: &'static DoorPages = &CABINET;
    fn form_token(&self) -> &str {
        &self.csrf_token
    }
    async fn look_up(req: &HttpRequest, token: &str) -> Result<Option<Actor>, Why> {
        let access = req.app_data::<Data<CabinetAccess>>().ok_or(Why::Unavailable)?;
        access.actor(token).await.map_err(|e| {
            tracing::error!(error = %e, "cabinet session lookup failed");
            Why::Unavailable
        })
    }
}

impl Signed for OperatorActor {
    const PAGES: &'static DoorPages = &OPERATOR;
    fn form_token(&self) -> &str {
        &self.csrf_token
    }
    async fn look_up(req: &HttpRequest, token: &str) -> Result<Option<OperatorActor>, Why> {
        let access = req.app_data::<Data<OperatorAccess>>().ok_or(Why::Unavailable)?;
        access.actor(token).await.map_err(|e| {
            tracing::error!(error = %e, "operator session lookup failed");
            Why::Unavailable
        })
    }
}

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

/// A `Set-Cookie` value sent only under `path`: `HttpOnly`, `SameSite=Lax`, and `Secure` when
/// the service is public over https. `max_age` 0 deletes the cookie.
pub fn set_cookie_on(cookies: Cookies, path: &str, name: &str, value: &str, max_age: i64) -> (&'static str, String) {
    let secure = if cookies.secure { "; Secure" } else { "" };
    ("set-cookie", format!("{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"))
}

/// A door's language: `?lang=`, then the switch's cookie, then `Accept-Language`.
pub fn lang(req: &HttpRequest) -> Lang {
    let remembered = cookie(req, LANG_COOKIE).and_then(Lang::from_code);
    kit::query_lang(req).or(remembered).unwrap_or_else(|| kit::page_lang(req))
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

/// What the doors' extractors give: the value, or the page answered instead (`Instead`).
type Extracted<T> = Pin<Box<dyn Future<Output = Result<T, actix_web::Error>>>>;

/// The signed-in person of a page behind a door (a cabinet user by default), taken from the
/// session cookie before the handler runs. A visitor without a live session is sent to the
/// door's sign-in page instead, and a failing database shows the error page.
pub struct SignedIn<A: Signed = Actor>(pub A);

impl<A: Signed> FromRequest for SignedIn<A> {
    type Error = actix_web::Error;
    type Future = Extracted<SignedIn<A>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { signed::<A>(&req).await.map(SignedIn).map_err(|why| Instead { req, why }.into()) })
    }
}

/// A form posted by the signed-in person, taken only when it carries the session's form
/// token; otherwise the handler does not run and the stale-form page answers (nothing changes).
pub struct SignedForm<A: Signed = Actor> {
    pub actor: A,
    pub fields: Fields,
}

impl<A: Signed> FromRequest for SignedForm<A> {
    type Error = actix_web::Error;
    type Future = Extracted<SignedForm<A>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        posted(req, payload, async |req, fields| {
            let actor = signed::<A>(req).await?;
            if !fields.carries_token(actor.form_token()) {
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

/// Why a page behind a door answers before its handler runs.
#[derive(Debug, Clone, Copy)]
pub enum Why {
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
        let pages = pages_of(req);
        match self.why {
            Why::NotSignedIn => see_other(&pages.path("/sign-in")),
            Why::SessionEnded => pages.to_sign_in(Cookies::of(req)),
            Why::StaleForm => stale_form(req),
            Why::Unavailable => kit::unavailable(req, lang(req)),
        }
    }
}

/// The door whose pages the request is for.
pub fn pages_of(req: &HttpRequest) -> &'static DoorPages {
    if req.path().starts_with(OPERATOR.base) { &OPERATOR } else { &CABINET }
}

/// The person signed in at `A`'s door, or why there is none.
async fn signed<A: Signed>(req: &HttpRequest) -> Result<A, Why> {
    let Some(token) = cookie(req, A::PAGES.session_cookie) else {
        return Err(Why::NotSignedIn);
    };
    A::look_up(req, token).await?.ok_or(Why::SessionEnded)
}

/// Compares two tokens in time independent of where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The page for a form whose token does not match (a stale page, or another site posting).
pub fn stale_form(req: &HttpRequest) -> HttpResponse {
    let pages = pages_of(req);
    let lang = lang(req);
    let tx = Texts(lang);
    let title = tx.get("cabinet-stale-form-title");
    let body = html! {
        h1 { (title) }
        p { (tx.get("cabinet-stale-form-why")) }
        p { a.button href=(pages.base) { (tx.get(pages.back)) } }
    };
    kit::Page::new(req, lang, &title).private_with_nav(html! {}).render(StatusCode::FORBIDDEN, body)
}

/// The client's address as the cabinet records it (sign-in failures per address), found behind
/// the proxies the operator trusts (`VP_TRUSTED_PROXIES`); `unknown` without a peer.
pub fn client_address(proxies: &TrustedProxies, req: &HttpRequest) -> String {
    let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
    proxies.client_address(req.peer_addr().map(|p| p.ip()), forwarded)
}
