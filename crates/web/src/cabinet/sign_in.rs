//! Signing in and out, and the set-password page behind an invitation or reset link.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use time::OffsetDateTime;
use vp_app::cabinet::{SignInRefusal, SignedIn};
use vp_app::{App, AppError, Lang};
use vp_domain::cabinet::{CabinetInputError, PASSWORD_MIN_CHARS, check_new_password};
use vp_ports::CabinetLinkPurpose;

use super::session::{self, ClientAddress, FORM_COOKIE};
use super::{Fields, failed, when};
use crate::pages::kit::{Page, escape};

/// The form token of this browser: the cookie's, or a new one (then also set as the cookie).
fn form_token(req: &HttpRequest, app: &App) -> (String, Option<(&'static str, String)>) {
    match session::cookie(req, FORM_COOKIE) {
        Some(token) => (token.to_owned(), None),
        None => {
            let token = app.random_token();
            let cookie = session::set_cookie(app, FORM_COOKIE, &token, 24 * 3600);
            (token, Some(cookie))
        }
    }
}

/// Whether a posted anonymous form repeats this browser's form token.
fn form_is_ours(req: &HttpRequest, fields: &Fields) -> bool {
    session::cookie(req, FORM_COOKIE).is_some_and(|cookie| session::same_token(cookie, fields.get("form_token")))
}

/// An anonymous page (sign-in, set-password) under the platform's name, never cached.
fn anonymous_page(
    req: &HttpRequest,
    app: &App,
    lang: Lang,
    status: StatusCode,
    title: &str,
    body: &str,
    cookie: Option<(&'static str, String)>,
) -> HttpResponse {
    let mut res = Page::new(req, lang, title).private_with_nav(maud::html! {}).render(status, body);
    for cookie in cookie.into_iter().chain(session::remember_lang_cookie(app, req)) {
        session::add_cookie(&mut res, cookie);
    }
    res
}

/// Into the cabinet with a new session cookie (a new session id at every sign-in).
fn enter(app: &App, signed_in: &SignedIn) -> HttpResponse {
    let mut res = session::see_other("/cabinet");
    session::add_cookie(&mut res, session::session_cookie(app, &signed_in.token));
    res
}

fn sign_in_page(
    req: &HttpRequest,
    app: &App,
    status: StatusCode,
    email: &str,
    message: Option<String>,
) -> HttpResponse {
    let lang = session::lang(req);
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let (token, cookie) = form_token(req, app);
    let title = t("Sign in to the partner cabinet", "Вход в кабинет партнёра");
    let body = format!(
        "<h1>{title}</h1>{message}\
         <form method=\"post\" action=\"/cabinet/sign-in\">\
         <input type=\"hidden\" name=\"form_token\" value=\"{token}\">\
         <label for=\"email\">{email_label}</label>\
         <input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"username\" required value=\"{email}\">\
         <label for=\"password\">{password_label}</label>\
         <input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required>\
         <p><button class=\"primary\" type=\"submit\">{submit}</button></p></form>\
         <p class=\"muted\">{help}</p>",
        message = message.map(|m| format!("<p class=\"error\" role=\"alert\">{m}</p>")).unwrap_or_default(),
        token = escape(&token),
        email_label = t("Email", "Электронная почта"),
        email = escape(email),
        password_label = t("Password", "Пароль"),
        submit = t("Sign in", "Войти"),
        help = t(
            "Access is given by the platform: ask your contact there for an invitation or a new password link.",
            "Доступ выдаёт платформа: попросите у вашего контакта приглашение или ссылку для нового пароля."
        ),
    );
    anonymous_page(req, app, lang, status, title, &body, cookie)
}

pub async fn form(req: HttpRequest, app: Data<App>) -> HttpResponse {
    if session::actor_legacy(&req, &app).await.is_ok() {
        return session::see_other("/cabinet");
    }
    sign_in_page(&req, &app, StatusCode::OK, "", None)
}

pub async fn submit(
    req: HttpRequest,
    app: Data<App>,
    address: Data<ClientAddress>,
    form: Form<Vec<(String, String)>>,
) -> HttpResponse {
    let fields = Fields::from(form);
    if !form_is_ours(&req, &fields) {
        return session::stale_form(&req);
    }
    let lang = session::lang(&req);
    let email = fields.get("email");
    match app.sign_in(email, fields.get("password"), &address.of(&req)).await {
        Ok(Ok(signed_in)) => enter(&app, &signed_in),
        Ok(Err(SignInRefusal::Wrong)) => sign_in_page(
            &req,
            &app,
            StatusCode::UNAUTHORIZED,
            email,
            Some(lang.pick_str("Wrong email or password.", "Неверная почта или пароль.").to_owned()),
        ),
        Ok(Err(SignInRefusal::Locked { until })) => {
            let mut res =
                sign_in_page(&req, &app, StatusCode::TOO_MANY_REQUESTS, email, Some(locked_message(lang, until)));
            let wait = (until - app.clock.now()).whole_seconds().max(1);
            res.headers_mut()
                .insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from(wait));
            res
        }
        Err(e) => failed(&req, &e),
    }
}

fn locked_message(lang: Lang, until: OffsetDateTime) -> String {
    match lang {
        Lang::En => format!("Too many failed attempts. Sign-in is locked until {}; try again then.", when(until)),
        Lang::Ru => format!("Слишком много неудачных попыток. Вход закрыт до {}; попробуйте позже.", when(until)),
    }
}

pub async fn sign_out(req: HttpRequest, app: Data<App>, form: Form<Vec<(String, String)>>) -> HttpResponse {
    let actor = match session::posted(&req, &app, form).await {
        Ok((actor, _)) => actor,
        Err(res) => return res,
    };
    match app.sign_out(&actor).await {
        Ok(()) => session::to_sign_in(&app),
        Err(e) => failed(&req, &e),
    }
}

fn link_gone(req: &HttpRequest, app: &App) -> HttpResponse {
    let lang = session::lang(req);
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let title = t("This link no longer works", "Ссылка больше не действует");
    let body = format!(
        "<h1>{title}</h1><p>{why}</p><p><a class=\"button\" href=\"/cabinet/sign-in\">{sign_in}</a></p>",
        why = t(
            "Links to set a password work once and for 72 hours. Ask the platform for a new one.",
            "Ссылка для пароля действует один раз и 72 часа. Попросите у платформы новую."
        ),
        sign_in = t("Sign in", "Войти"),
    );
    anonymous_page(req, app, lang, StatusCode::NOT_FOUND, title, &body, None)
}

fn password_problem(lang: Lang, e: CabinetInputError) -> String {
    match (e, lang) {
        (CabinetInputError::PasswordTooShort, Lang::En) => format!("Use at least {PASSWORD_MIN_CHARS} characters."),
        (CabinetInputError::PasswordTooShort, Lang::Ru) => format!("Нужно не меньше {PASSWORD_MIN_CHARS} символов."),
        (_, Lang::En) => "This password is too long.".to_owned(),
        (_, Lang::Ru) => "Слишком длинный пароль.".to_owned(),
    }
}

fn welcome_page(
    req: &HttpRequest,
    app: &App,
    token: &str,
    view: &vp_app::cabinet::LinkView,
    status: StatusCode,
    message: Option<String>,
) -> HttpResponse {
    let lang = session::lang(req);
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let (form_token, cookie) = form_token(req, app);
    let title = match view.purpose {
        CabinetLinkPurpose::Invite => t("Welcome to the partner cabinet", "Добро пожаловать в кабинет партнёра"),
        CabinetLinkPurpose::Reset => t("Choose a new password", "Новый пароль"),
    };
    let body = format!(
        "<h1>{title}</h1><p>{for_whom} <strong>{email}</strong>. {valid} {expires}.</p>{message}\
         <form method=\"post\" action=\"/cabinet/welcome/{token}\">\
         <input type=\"hidden\" name=\"form_token\" value=\"{form_token}\">\
         <input type=\"email\" name=\"username\" value=\"{email}\" autocomplete=\"username\" hidden>\
         <label for=\"password\">{password}</label>\
         <input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" minlength=\"{min}\" \
         required aria-describedby=\"rule\"><p id=\"rule\" class=\"muted\">{rule}</p>\
         <label for=\"confirm\">{confirm}</label>\
         <input id=\"confirm\" name=\"confirm\" type=\"password\" autocomplete=\"new-password\" required>\
         <p><button class=\"primary\" type=\"submit\">{submit}</button></p></form>",
        for_whom = t("Set the password for", "Задайте пароль для"),
        email = escape(&view.email),
        valid = t("The link works once, until", "Ссылка действует один раз, до"),
        expires = when(view.expires_at),
        message = message.map(|m| format!("<p class=\"error\" role=\"alert\">{m}</p>")).unwrap_or_default(),
        token = escape(token),
        form_token = escape(&form_token),
        password = t("New password", "Новый пароль"),
        min = PASSWORD_MIN_CHARS,
        rule = match lang {
            Lang::En =>
                format!("At least {PASSWORD_MIN_CHARS} characters; a phrase of several words is easy to remember."),
            Lang::Ru => format!("Не меньше {PASSWORD_MIN_CHARS} символов; фразу из нескольких слов легко запомнить."),
        },
        confirm = t("The password again", "Пароль ещё раз"),
        submit = t("Set the password and sign in", "Сохранить пароль и войти"),
    );
    anonymous_page(req, app, lang, status, title, &body, cookie)
}

pub async fn welcome(req: HttpRequest, app: Data<App>, token: Path<String>) -> HttpResponse {
    match app.cabinet_link(&token).await {
        Ok(view) => welcome_page(&req, &app, &token, &view, StatusCode::OK, None),
        Err(AppError::NotFound(_)) => link_gone(&req, &app),
        Err(e) => failed(&req, &e),
    }
}

pub async fn set_password(
    req: HttpRequest,
    app: Data<App>,
    token: Path<String>,
    form: Form<Vec<(String, String)>>,
) -> HttpResponse {
    let fields = Fields::from(form);
    if !form_is_ours(&req, &fields) {
        return session::stale_form(&req);
    }
    let lang = session::lang(&req);
    let view = match app.cabinet_link(&token).await {
        Ok(view) => view,
        Err(AppError::NotFound(_)) => return link_gone(&req, &app),
        Err(e) => return failed(&req, &e),
    };
    let password = fields.get("password");
    let problem = match check_new_password(password) {
        Err(e) => Some(password_problem(lang, e)),
        Ok(()) if password != fields.get("confirm") => {
            Some(lang.pick_str("The two passwords differ.", "Пароли не совпадают.").to_owned())
        }
        Ok(()) => None,
    };
    if let Some(problem) = problem {
        return welcome_page(&req, &app, &token, &view, StatusCode::UNPROCESSABLE_ENTITY, Some(problem));
    }
    match app.set_cabinet_password(&token, password).await {
        Ok(signed_in) => enter(&app, &signed_in),
        Err(AppError::NotFound(_)) => link_gone(&req, &app),
        Err(e) => failed(&req, &e),
    }
}
