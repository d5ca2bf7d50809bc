//! The partner cabinet under `/cabinet`: server-rendered pages in Russian and English that work
//! without JavaScript. Every page but sign-in and set-password needs a live session; every form
//! that changes something carries the session's form token, checked here before the use case
//! runs; the use cases take the signed-in `Actor`, so another account's objects are out of reach.

mod activity;
mod balance;
mod bot;
mod broadcasts;
mod clients;
mod deliveries;
mod exports;
mod gifts;
mod notices;
mod overview;
mod promotions;
mod referrals;
pub(crate) mod sales;
pub mod session;
pub(crate) mod sign_in;
mod webhooks;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use time::OffsetDateTime;
use vp_app::Lang;
use vp_app::actor::Actor;
use vp_i18n::Texts;
use vp_ports::Cursor;

use crate::pages::kit::Page;
use session::{SignedForm, SignedIn};

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
            .route("/exports/{file}", web::get().to(exports::download))
            .route("/withdrawals", web::get().to(balance::list))
            .route("/withdrawals", web::post().to(balance::request))
            .route("/withdrawals/{id}", web::get().to(balance::withdrawal))
            .route("/clients", web::get().to(clients::list))
            .route("/clients/{client_id}", web::get().to(clients::show))
            .route("/clients/{client_id}/renewal-off", web::post().to(clients::turn_off_renewal))
            .route("/notices", web::get().to(notices::list))
            .route("/notices/telegram", web::post().to(notices::link_chat))
            .route("/notices/telegram/{chat_id}/unlink", web::post().to(notices::unlink_chat))
            .route("/bot", web::get().to(bot::show))
            .route("/bot", web::post().to(bot::connect))
            .route("/bot/renewal", web::post().to(bot::set_renewal))
            .route("/bot/disconnect", web::post().to(bot::disconnect))
            .route("/bot/create", web::post().to(bot::create_link))
            .route("/bot/rotate", web::post().to(bot::rotate))
            .route("/promotions", web::get().to(promotions::show))
            .route("/promotions", web::post().to(promotions::create))
            .route("/promotions/disable", web::post().to(promotions::disable))
            .route("/promotions/referrals", web::post().to(referrals::save))
            .route("/broadcasts", web::get().to(broadcasts::show))
            .route("/broadcasts", web::post().to(broadcasts::send))
            .route("/broadcasts/preview", web::post().to(broadcasts::preview))
            .route("/broadcasts/{id}/pause", web::post().to(broadcasts::pause))
            .route("/broadcasts/{id}/resume", web::post().to(broadcasts::resume))
            .route("/broadcasts/{id}/cancel", web::post().to(broadcasts::cancel))
            .route("/gifts", web::get().to(gifts::show))
            .route("/gifts/refund", web::post().to(gifts::refund)),
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
    Bot,
    Promotions,
    Broadcasts,
    Gifts,
    Activity,
}

impl Section {
    const ALL: [Section; 10] = [
        Section::Overview,
        Section::Webhooks,
        Section::Balance,
        Section::Clients,
        Section::Notices,
        Section::Bot,
        Section::Promotions,
        Section::Broadcasts,
        Section::Gifts,
        Section::Activity,
    ];

    fn path(self) -> &'static str {
        match self {
            Section::Overview => "/cabinet",
            Section::Webhooks => "/cabinet/webhooks",
            Section::Balance => "/cabinet/balance",
            Section::Clients => "/cabinet/clients",
            Section::Notices => "/cabinet/notices",
            Section::Bot => "/cabinet/bot",
            Section::Promotions => "/cabinet/promotions",
            Section::Broadcasts => "/cabinet/broadcasts",
            Section::Gifts => "/cabinet/gifts",
            Section::Activity => "/cabinet/activity",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Section::Overview => "cabinet-section-overview",
            Section::Webhooks => "cabinet-section-webhooks",
            Section::Balance => "cabinet-section-balance",
            Section::Clients => "cabinet-section-clients",
            Section::Notices => "cabinet-section-notices",
            Section::Bot => "cabinet-section-bot",
            Section::Promotions => "cabinet-section-promotions",
            Section::Broadcasts => "cabinet-section-broadcasts",
            Section::Gifts => "cabinet-section-gifts",
            Section::Activity => "cabinet-section-activity",
        }
    }
}

/// A signed-in page: the partner's brand, the menu with the current section marked, the
/// sign-out button, no caching.
struct Shell<'a> {
    req: &'a HttpRequest,
    cookies: session::Cookies,
    actor: &'a Actor,
    lang: Lang,
    tx: Texts,
    section: Section,
}

impl<'a> Shell<'a> {
    fn new(req: &'a HttpRequest, actor: &'a Actor, section: Section) -> Shell<'a> {
        let lang = session::lang(req);
        Shell { req, cookies: session::Cookies::of(req), actor, lang, tx: Texts(lang), section }
    }

    /// The account's time zone, the one the cabinet shows moments in.
    fn zone(&self) -> &vp_domain::TimeZone {
        &self.actor.account.time_zone
    }

    fn menu(&self) -> Markup {
        let tx = self.tx;
        html! {
            nav.sections aria-label=(tx.get("cabinet-menu")) {
                @for s in Section::ALL {
                    a href=(s.path()) aria-current=[(s == self.section).then_some("page")] { (tx.get(s.key())) }
                }
                span.muted { (self.actor.user.email) }
                form.inline method="post" action="/cabinet/sign-out" {
                    (self.csrf_field())
                    button type="submit" { (tx.get("cabinet-sign-out")) }
                }
            }
        }
    }

    /// The hidden field every state-changing form of the session carries.
    fn csrf_field(&self) -> Markup {
        html! { input type="hidden" name="csrf" value=(self.actor.csrf_token); }
    }

    /// 404 for an id that is not the account's (whether it exists elsewhere or not at all).
    fn not_found(&self, missing: Missing) -> HttpResponse {
        let tx = self.tx;
        let title = tx.get("cabinet-not-found");
        let body = html! {
            h1 { (title) }
            p { (tx.get(missing.message)) }
            p { a.button href=(missing.back) { (tx.get(missing.back_label)) } }
        };
        self.render(StatusCode::NOT_FOUND, &title, body)
    }

    /// What a use case found, or the page to answer instead: 404 for what is not the
    /// account's, the error page for a failure.
    fn found<T>(&self, result: vp_app::AppResult<T>, missing: Missing) -> Result<T, HttpResponse> {
        match result {
            Ok(found) => Ok(found),
            Err(vp_app::AppError::NotFound(_)) => Err(self.not_found(missing)),
            Err(e) => Err(failed(self.req, &e)),
        }
    }

    /// The link to a list's next (older) page when this one is full.
    fn older_link(&self, path: &str, shown: usize, page: u32, last: Option<(OffsetDateTime, &str)>) -> Markup {
        html! {
            @if let Some((at, id)) = last.filter(|_| shown == page as usize) {
                p { a href={ (path) "?before=" (cursor_value(at, id)) } { (self.tx.get("cabinet-older")) } }
            }
        }
    }

    fn render(&self, status: StatusCode, title: &str, body: Markup) -> HttpResponse {
        let account = &self.actor.account;
        let mut res = Page::new(self.req, self.lang, title)
            .brand(account.brand_name.as_str())
            .style(&account.style)
            .private_with_nav(self.menu())
            .render(status, body);
        if let Some(cookie) = session::CABINET.remember_lang_cookie(self.cookies, self.req) {
            session::add_cookie(&mut res, cookie);
        }
        res
    }
}

/// What a 404 page says (catalogue keys) and where it leads back to.
#[derive(Clone, Copy)]
struct Missing {
    message: &'static str,
    back: &'static str,
    back_label: &'static str,
}

/// The fields of a posted form, in order (checkboxes repeat a name).
pub struct Fields(Vec<(String, String)>);

impl Fields {
    pub(crate) fn get(&self, name: &str) -> &str {
        self.0.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
    }

    fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.clone()).collect()
    }

    /// Whether the form carries the session's token.
    fn carries_token(&self, form_token: &str) -> bool {
        session::same_token(self.get("csrf"), form_token)
    }
}

impl From<web::Form<Vec<(String, String)>>> for Fields {
    fn from(form: web::Form<Vec<(String, String)>>) -> Fields {
        Fields(form.into_inner())
    }
}

/// The query of a list page: `?before=` names the last row of the page before (its
/// `cursor_value`). A cursor that does not read shows the first page.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListQuery {
    before: Option<String>,
}

impl ListQuery {
    pub(crate) fn cursor(&self) -> Option<Cursor> {
        let (micros, id) = self.before.as_deref()?.split_once('.')?;
        let at = OffsetDateTime::from_unix_timestamp_nanos(micros.parse::<i128>().ok()?.checked_mul(1_000)?).ok()?;
        Some(Cursor { at, id: id.to_owned() })
    }
}

/// The `before` cursor of a list's next page: `<unix microseconds>.<id>` of its last row.
pub(crate) fn cursor_value(at: OffsetDateTime, id: &str) -> String {
    format!("{}.{id}", at.unix_timestamp_nanos() / 1_000)
}

/// What a page says first after an action: `("ok", text)` as a status, `("error", text)` as an
/// alert.
fn said_first(top: &Option<(&'static str, String)>) -> Markup {
    html! {
        @if let Some((class, text)) = top {
            p class=(class) role=(if *class == "error" { "alert" } else { "status" }) { (text) }
        }
    }
}

/// A moment as the cabinet shows it, in the account's zone with the zone named:
/// `2026-11-23 13:05 MSK` (ISO day, 24-hour clock, alike in both languages).
pub(crate) fn when(zone: &vp_domain::TimeZone, t: OffsetDateTime) -> String {
    format!("{} {}", vp_i18n::date(Lang::En, zone.day(t)), vp_i18n::clock(zone, t))
}

/// The page for a failure on our side, logged.
pub(crate) fn failed(req: &HttpRequest, e: &vp_app::AppError) -> HttpResponse {
    tracing::error!(error = %e, "cabinet request failed");
    crate::pages::kit::unavailable(req, session::lang(req))
}
