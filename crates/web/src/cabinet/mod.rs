//! The partner cabinet under `/cabinet`: server-rendered pages in Russian and English that work
//! without JavaScript. Every page but sign-in and set-password needs a live session; every form
//! that changes something carries the session's form token, checked here before the use case
//! runs; the use cases take the signed-in `Actor`, so another account's objects are out of reach.

mod activity;
mod balance;
mod clients;
mod deliveries;
mod notices;
mod overview;
pub mod session;
mod sign_in;
mod webhooks;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use time::OffsetDateTime;
use vp_app::cabinet::Actor;
use vp_app::{App, Lang};

use crate::pages::kit::{self, Page, escape};
pub use session::ClientAddress;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/cabinet")
            .route("", web::get().to(overview::show))
            .route("/", web::get().to(overview::show))
            .route("/brand", web::post().to(overview::rename))
            .route("/sign-in", web::get().to(sign_in::form))
            .route("/sign-in", web::post().to(sign_in::submit))
            .route("/sign-out", web::post().to(sign_in::sign_out))
            .route("/welcome/{token}", web::get().to(sign_in::welcome))
            .route("/welcome/{token}", web::post().to(sign_in::set_password))
            .route("/activity", web::get().to(activity::show))
            .route("/webhooks", web::get().to(webhooks::list))
            .route("/webhooks", web::post().to(webhooks::add))
            .route("/webhooks/{id}", web::get().to(webhooks::show))
            .route("/webhooks/{id}/deliveries", web::get().to(deliveries::log))
            .route("/webhooks/{id}/types", web::post().to(webhooks::set_types))
            .route("/webhooks/{id}/enable", web::post().to(webhooks::enable))
            .route("/webhooks/{id}/disable", web::post().to(webhooks::disable))
            .route("/webhooks/{id}/secret", web::post().to(webhooks::secret))
            .route("/webhooks/{id}/rotate", web::post().to(webhooks::rotate))
            .route("/webhooks/{id}/test", web::post().to(webhooks::test))
            .route("/webhooks/{id}/replay", web::post().to(webhooks::replay))
            .route("/events/{id}", web::get().to(deliveries::event))
            .route("/balance", web::get().to(balance::show))
            .route("/balance/ledger.csv", web::get().to(balance::ledger_csv))
            .route("/withdrawals", web::get().to(balance::list))
            .route("/withdrawals", web::post().to(balance::request))
            .route("/withdrawals/{id}", web::get().to(balance::withdrawal))
            .route("/clients", web::get().to(clients::list))
            .route("/clients/{client_id}", web::get().to(clients::show))
            .route("/notices", web::get().to(notices::list))
            .route("/notices/telegram", web::post().to(notices::link_chat))
            .route("/notices/telegram/{chat_id}/unlink", web::post().to(notices::unlink_chat)),
    );
}

/// The cabinet's sections, in the order of the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Overview,
    Webhooks,
    Balance,
    Clients,
    Notices,
    Activity,
}

impl Section {
    const ALL: [Section; 6] =
        [Section::Overview, Section::Webhooks, Section::Balance, Section::Clients, Section::Notices, Section::Activity];

    fn path(self) -> &'static str {
        match self {
            Section::Overview => "/cabinet",
            Section::Webhooks => "/cabinet/webhooks",
            Section::Balance => "/cabinet/balance",
            Section::Clients => "/cabinet/clients",
            Section::Notices => "/cabinet/notices",
            Section::Activity => "/cabinet/activity",
        }
    }

    fn name(self, lang: Lang) -> &'static str {
        match self {
            Section::Overview => lang.pick_str("Overview", "Обзор"),
            Section::Webhooks => lang.pick_str("Webhooks", "Вебхуки"),
            Section::Balance => lang.pick_str("Balance", "Баланс"),
            Section::Clients => lang.pick_str("Clients", "Клиенты"),
            Section::Notices => lang.pick_str("Notices", "Уведомления"),
            Section::Activity => lang.pick_str("Activity", "Журнал действий"),
        }
    }
}

/// A signed-in page: the partner's brand, the menu with the current section marked, the
/// sign-out button, no caching.
struct Shell<'a> {
    req: &'a HttpRequest,
    app: &'a App,
    actor: &'a Actor,
    lang: Lang,
    section: Section,
}

impl<'a> Shell<'a> {
    fn new(req: &'a HttpRequest, app: &'a App, actor: &'a Actor, section: Section) -> Shell<'a> {
        Shell { req, app, actor, lang: session::lang(req), section }
    }

    fn t(&self, en: &'static str, ru: &'static str) -> &'static str {
        self.lang.pick_str(en, ru)
    }

    fn menu(&self) -> String {
        let links: String = Section::ALL
            .iter()
            .map(|s| {
                let current = if *s == self.section { " aria-current=\"page\"" } else { "" };
                format!("<a href=\"{}\"{current}>{}</a>", s.path(), s.name(self.lang))
            })
            .collect();
        format!(
            "<nav class=\"sections\" aria-label=\"{label}\">{links}<span class=\"muted\">{email}</span>\
             <form class=\"inline\" method=\"post\" action=\"/cabinet/sign-out\">{csrf}\
             <button type=\"submit\">{out}</button></form></nav>",
            label = self.t("Cabinet", "Кабинет"),
            email = escape(&self.actor.user.email),
            csrf = self.csrf_field(),
            out = self.t("Sign out", "Выйти"),
        )
    }

    /// The hidden field every state-changing form of the session carries.
    fn csrf_field(&self) -> String {
        format!("<input type=\"hidden\" name=\"csrf\" value=\"{}\">", escape(&self.actor.csrf_token))
    }

    /// 404 for an id that is not the account's (whether it exists elsewhere or not at all).
    fn not_found(&self, message: &str, back: &str, back_label: &str) -> HttpResponse {
        let title = self.t("Not found", "Не найдено");
        let body = format!(
            "<h1>{title}</h1><p>{}</p><p><a class=\"button\" href=\"{}\">{}</a></p>",
            escape(message),
            escape(back),
            escape(back_label)
        );
        self.render(StatusCode::NOT_FOUND, title, &body)
    }

    /// The link to a list's next (older) page when this one is full.
    fn older_link(&self, path: &str, shown: usize, page: u32, last: Option<(OffsetDateTime, &str)>) -> String {
        match last {
            Some((at, id)) if shown == page as usize => {
                format!("<p><a href=\"{path}?{}\">{}</a></p>", escape(&cursor_param(at, id)), self.t("Older", "Раньше"))
            }
            _ => String::new(),
        }
    }

    fn render(&self, status: StatusCode, title: &str, body: &str) -> HttpResponse {
        let account = &self.actor.account;
        let mut res = Page::new(self.req, self.lang, title)
            .brand(account.brand_name.as_str())
            .style(&account.style)
            .private_with_nav(kit::prebuilt(self.menu()))
            .render(status, body);
        if let Some(cookie) = session::remember_lang_cookie(self.app, self.req) {
            session::add_cookie(&mut res, cookie);
        }
        res
    }
}

/// The fields of a posted form, in order (checkboxes repeat a name).
pub struct Fields(Vec<(String, String)>);

impl Fields {
    fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
    }

    fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.clone()).collect()
    }

    /// Whether the form carries the session's token.
    fn carries_token_of(&self, actor: &Actor) -> bool {
        session::same_token(self.get("csrf"), &actor.csrf_token)
    }
}

impl From<web::Form<Vec<(String, String)>>> for Fields {
    fn from(form: web::Form<Vec<(String, String)>>) -> Fields {
        Fields(form.into_inner())
    }
}

/// A value of the query string (the cabinet's own links and forms write plain values).
fn query_value(query: &str, name: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(k, v)| *k == name && !v.is_empty())
        .map(|(_, v)| v.replace('+', " "))
}

/// The `before` cursor of a list's next page: `<unix microseconds>.<id>` of its last row.
fn cursor_param(at: OffsetDateTime, id: &str) -> String {
    format!("before={}.{id}", at.unix_timestamp_nanos() / 1_000)
}

/// The cursor a list page was asked for (`cursor_param`); `None` on the first page or for a
/// cursor that does not read.
fn cursor(query: &str) -> Option<(OffsetDateTime, String)> {
    let raw = query_value(query, "before")?;
    let (micros, id) = raw.split_once('.')?;
    let at = OffsetDateTime::from_unix_timestamp_nanos(micros.parse::<i128>().ok()?.checked_mul(1_000)?).ok()?;
    Some((at, id.to_owned()))
}

/// A moment as the cabinet shows it: `2026-11-23 10:05 UTC`.
fn when(t: OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    format!("{} {:02}:{:02} UTC", t.date(), t.hour(), t.minute())
}

/// The page for a failure on our side, logged.
fn failed(req: &HttpRequest, e: &vp_app::AppError) -> HttpResponse {
    tracing::error!(error = %e, "cabinet request failed");
    crate::pages::kit::unavailable(req, session::lang(req))
}
