//! The Telegram bot page: the partner has the platform's bot create their own bot in one tap
//! ("Create my bot", docs/telegram.md "Managed bots"), or connects a bot with the token BotFather
//! gave it (checked with Telegram, kept sealed, never shown again); sees whether Telegram shows
//! the brand's current profile; replaces a created bot's token; and disconnects it.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::bots::managed::BotCreateLink;
use vp_app::cabinet::Cabinet;
use vp_app::{AppError, Declined};
use vp_i18n::Texts;

use super::session;
use super::{Section, Shell, SignedForm, SignedIn, failed, said_first, when};

/// `?connected=1`, `?disconnected=1`, `?renewal=1` or `?rotated=1` after an action.
#[derive(Deserialize)]
pub struct Shown {
    connected: Option<String>,
    disconnected: Option<String>,
    renewal: Option<String>,
    rotated: Option<String>,
}

pub async fn show(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    shown: Query<Shown>,
) -> HttpResponse {
    let tx = Texts(session::lang(&req));
    let top = if shown.connected.as_deref() == Some("1") {
        Some(("ok", tx.get("cabinet-bot-connected")))
    } else if shown.disconnected.as_deref() == Some("1") {
        Some(("ok", tx.get("cabinet-bot-disconnected")))
    } else if shown.renewal.as_deref() == Some("1") {
        Some(("ok", tx.get("cabinet-bot-renewal-saved")))
    } else if shown.rotated.as_deref() == Some("1") {
        Some(("ok", tx.get("cabinet-bot-rotated")))
    } else {
        None
    };
    render(&req, &cabinet, &actor, StatusCode::OK, top).await
}

/// "Create my bot in Telegram": the page again, with the one-time link to open (shown once, so
/// not put in an address a redirect would log).
pub async fn create_link(req: HttpRequest, cabinet: Data<Cabinet>, form: SignedForm) -> HttpResponse {
    let actor = form.actor;
    let lang = session::lang(&req);
    let tx = Texts(lang);
    let refused = match cabinet.bot_create_link(&actor, lang).await {
        Ok(link) => return render_with(&req, &cabinet, &actor, StatusCode::OK, None, Some(link)).await,
        Err(AppError::Declined(Declined::BotManagementOff(bot))) => {
            tx.with("cabinet-bot-create-off", &[("bot", (&bot).into())])
        }
        Err(AppError::Declined(Declined::BotAlreadyConnected(bot))) => {
            tx.with("cabinet-bot-refused-already", &[("bot", (&bot).into())])
        }
        Err(AppError::Declined(other)) => other.to_string(),
        Err(AppError::External(_)) => tx.get("cabinet-bot-create-unavailable"),
        Err(e) => return failed(&req, &e),
    };
    render(&req, &cabinet, &actor, StatusCode::UNPROCESSABLE_ENTITY, Some(("error", refused))).await
}

/// A created bot's new token, from Telegram.
pub async fn rotate(req: HttpRequest, cabinet: Data<Cabinet>, form: SignedForm) -> HttpResponse {
    let tx = Texts(session::lang(&req));
    let refused = match cabinet.rotate_bot_token(&form.actor).await {
        Ok(_) => return session::see_other("/cabinet/bot?rotated=1"),
        Err(AppError::Declined(d)) => d.to_string(),
        Err(AppError::External(_)) => tx.get("cabinet-bot-rotate-unavailable"),
        Err(e) => return failed(&req, &e),
    };
    render(&req, &cabinet, &form.actor, StatusCode::UNPROCESSABLE_ENTITY, Some(("error", refused))).await
}

pub async fn connect(req: HttpRequest, cabinet: Data<Cabinet>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let tx = Texts(session::lang(&req));
    let refused = match cabinet.connect_bot(&actor, fields.get("token")).await {
        Ok(_) => return session::see_other("/cabinet/bot?connected=1"),
        Err(AppError::Declined(d)) => match d {
            Declined::BotTokenMalformed => tx.get("cabinet-bot-refused-malformed"),
            Declined::BotTokenRejected => tx.get("cabinet-bot-refused-rejected"),
            Declined::BotTaken => tx.get("cabinet-bot-refused-taken"),
            Declined::BotAlreadyConnected(bot) => tx.with("cabinet-bot-refused-already", &[("bot", (&bot).into())]),
            other => other.to_string(),
        },
        // Telegram did not answer: nothing was connected, trying again may work.
        Err(AppError::External(_)) => tx.get("cabinet-bot-refused-unavailable"),
        Err(e) => return failed(&req, &e),
    };
    render(&req, &cabinet, &actor, StatusCode::UNPROCESSABLE_ENTITY, Some(("error", refused))).await
}

pub async fn disconnect(req: HttpRequest, cabinet: Data<Cabinet>, form: SignedForm) -> HttpResponse {
    match cabinet.disconnect_bot(&form.actor).await {
        // Already gone (another tab): the page shows that there is none.
        Ok(_) | Err(AppError::NotFound(_)) => session::see_other("/cabinet/bot?disconnected=1"),
        Err(e) => failed(&req, &e),
    }
}

pub async fn set_renewal(req: HttpRequest, cabinet: Data<Cabinet>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let tx = Texts(session::lang(&req));
    match cabinet.set_renewal_url(&actor, fields.get("renewal_url")).await {
        Ok(_) => session::see_other("/cabinet/bot?renewal=1"),
        Err(AppError::Validation(_)) => {
            let refused = Some(("error", tx.get("cabinet-bot-renewal-refused")));
            render(&req, &cabinet, &actor, StatusCode::UNPROCESSABLE_ENTITY, refused).await
        }
        Err(e) => failed(&req, &e),
    }
}

/// The page; `top` is what it says first (`ok` or `error`, and the text).
async fn render(
    req: &HttpRequest,
    cabinet: &Cabinet,
    actor: &Actor,
    status: StatusCode,
    top: Option<(&'static str, String)>,
) -> HttpResponse {
    render_with(req, cabinet, actor, status, top, None).await
}

/// `render`, with a "Create my bot" link just made.
async fn render_with(
    req: &HttpRequest,
    cabinet: &Cabinet,
    actor: &Actor,
    status: StatusCode,
    top: Option<(&'static str, String)>,
    link: Option<BotCreateLink>,
) -> HttpResponse {
    let (bot, renewal) = match (cabinet.bot(actor).await, cabinet.renewal_url(actor).await) {
        (Ok(bot), Ok(renewal)) => (bot, renewal),
        (Err(e), _) | (_, Err(e)) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Bot);
    let tx = shell.tx;
    let title = tx.get("cabinet-section-bot");
    let body = html! {
        h1 { (title) }
        (said_first(&top))
        p.muted { (tx.get("cabinet-bot-intro")) }
        @if let Some(bot) = &bot {
            dl {
                dt { (tx.get("cabinet-bot-bot")) }
                dd { a href={ "https://t.me/" (bot.username) } { "@" (bot.username) } }
                dt { (tx.get("cabinet-bot-status")) }
                dd {
                    @match bot.disconnected_at {
                        Some(at) => span.error { (tx.with("cabinet-bot-status-revoked", &[("at", when(shell.zone(), at).as_str().into())])) },
                        None => { (tx.with("cabinet-bot-status-connected", &[("at", when(shell.zone(), bot.connected_at).as_str().into())])) },
                    }
                }
                dt { (tx.get("cabinet-bot-profile")) }
                dd { (profile_state(tx, bot)) }
            }
            @if bot.managed && bot.disconnected_at.is_none() {
                form method="post" action="/cabinet/bot/rotate" {
                    (shell.csrf_field())
                    p.muted { (tx.get("cabinet-bot-rotate-help")) }
                    p { button type="submit" { (tx.get("cabinet-bot-rotate")) } }
                }
            }
            form method="post" action="/cabinet/bot/disconnect" {
                (shell.csrf_field())
                button type="submit" { (tx.get("cabinet-bot-disconnect")) }
            }
            h2 { (tx.get("cabinet-bot-reminders")) }
            p.muted { (tx.get("cabinet-bot-reminders-intro")) }
            form method="post" action="/cabinet/bot/renewal" {
                (shell.csrf_field())
                label for="renewal_url" { (tx.get("cabinet-bot-renewal")) }
                input #renewal_url name="renewal_url" type="url" inputmode="url" value=[renewal.as_deref()]
                    placeholder="https://" aria-describedby="renewal_help";
                p #renewal_help .muted { (tx.get("cabinet-bot-renewal-help")) }
                p { button type="submit" { (tx.get("cabinet-bot-renewal-save")) } }
            }
            h2 { (tx.get("cabinet-bot-new-token")) }
        }
        @if bot.is_none() && cabinet.creates_bots() {
            h2 { (tx.get("cabinet-bot-create")) }
            @if let Some(link) = &link {
                p { (tx.get("cabinet-bot-create-open-help")) }
                p { a.button.primary #create_link href=(link.url) target="_blank" rel="noopener" { (tx.get("cabinet-bot-create-open")) } }
                p.muted { (tx.with("cabinet-bot-create-valid", &[("at", when(shell.zone(), link.expires_at).as_str().into())])) }
            } @else {
                form method="post" action="/cabinet/bot/create" {
                    (shell.csrf_field())
                    p.muted { (tx.get("cabinet-bot-create-help")) }
                    p { button.primary type="submit" { (tx.get("cabinet-bot-create-button")) } }
                }
            }
            h2 { (tx.get("cabinet-bot-or-token")) }
        }
        form method="post" action="/cabinet/bot" {
            (shell.csrf_field())
            label for="token" { (tx.get("cabinet-bot-token")) }
            // A password field: the token is not shown on the screen while it is typed.
            input #token name="token" type="password" required autocomplete="off" spellcheck="false"
                aria-describedby="token_help";
            p #token_help .muted { (tx.get("cabinet-bot-token-help")) }
            p { button.primary[bot.is_some() || !cabinet.creates_bots()] type="submit" { (tx.get("cabinet-bot-connect")) } }
        }
    };
    shell.render(status, &title, body)
}

fn profile_state(tx: Texts, bot: &vp_ports::PartnerBotRecord) -> Markup {
    html! {
        @if bot.profile_in_sync() {
            (tx.get("cabinet-bot-profile-in-sync"))
        } @else {
            (tx.get("cabinet-bot-profile-updating"))
            @if let Some(error) = &bot.profile_error { " " span.muted { "(" (error) ")" } }
        }
    }
}
