//! Notices: what the platform told the partner, newest first, and the Telegram chats that
//! receive them too (linked through a one-time deep link, unlinked with a button).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::Actor;
use vp_app::notices::{NOTICE_PAGE, notice_text};
use vp_app::{App, AppError};

use super::session;
use super::{Section, Shell, cursor, failed, when};
use crate::pages::kit::escape;

pub async fn list(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let unlinked = req.query_string().split('&').any(|p| p == "unlinked=1");
    render(&req, &app, &actor, None, unlinked).await
}

/// A new one-time chat link, shown on the page as a button.
pub async fn link_chat(req: HttpRequest, app: Data<App>, form: Form<Vec<(String, String)>>) -> HttpResponse {
    let (actor, _) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    match app.chat_link(&actor, session::lang(&req)).await {
        Ok(link) => render(&req, &app, &actor, link, false).await,
        Err(e) => failed(&req, &e),
    }
}

pub async fn unlink_chat(
    req: HttpRequest,
    app: Data<App>,
    chat_id: Path<String>,
    form: Form<Vec<(String, String)>>,
) -> HttpResponse {
    let (actor, _) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let shell = Shell::new(&req, &app, &actor, Section::Notices);
    let gone = || {
        shell.not_found(
            shell.t("No such chat is linked to your account.", "К вашему аккаунту не подключён такой чат."),
            "/cabinet/notices",
            shell.t("Notices", "Уведомления"),
        )
    };
    let Ok(chat_id) = chat_id.parse::<i64>() else { return gone() };
    match app.unlink_chat(&actor, chat_id).await {
        Ok(()) => session::see_other("/cabinet/notices?unlinked=1"),
        Err(AppError::NotFound(_)) => gone(),
        Err(e) => failed(&req, &e),
    }
}

async fn render(
    req: &HttpRequest,
    app: &App,
    actor: &Actor,
    new_link: Option<vp_app::notices::ChatLink>,
    unlinked: bool,
) -> HttpResponse {
    let loaded = async {
        Ok::<_, AppError>((
            app.notices(actor.account_id(), cursor(req.query_string()), NOTICE_PAGE).await?,
            app.partner_chats(actor.account_id()).await?,
        ))
    };
    let (notices, chats) = match loaded.await {
        Ok(found) => found,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, app, actor, Section::Notices);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let brand = actor.account.brand_name.as_str();
    let items: String = notices
        .iter()
        .map(|n| {
            format!(
                "<li><span class=\"muted\">{at}</span><br>{text}</li>",
                at = when(n.created_at),
                text = escape(&notice_text(&n.kind, brand, shell.lang))
            )
        })
        .collect();
    let last = notices.last().map(|n| (n.created_at, n.id.as_str()));
    let older = shell.older_legacy("/cabinet/notices", notices.len(), NOTICE_PAGE, last);
    let list = if notices.is_empty() {
        format!("<p>{}</p>", t("The platform has not told you anything yet.", "Платформа пока ничего вам не сообщала."))
    } else {
        format!("<ul class=\"notices\">{items}</ul>{older}")
    };
    let title = t("Notices", "Уведомления");
    let body = format!(
        "<h1>{title}</h1><p class=\"muted\">{intro}</p>{list}{telegram}",
        intro = t(
            "For example: a webhook address the platform disabled, or a withdrawal paid out.",
            "Например: адрес вебхуков, отключённый платформой, или выплаченный вывод средств."
        ),
        telegram = telegram_section(&shell, &chats, new_link.as_ref(), unlinked),
    );
    shell.render_legacy(StatusCode::OK, title, &body)
}

fn telegram_section(
    shell: &Shell<'_>,
    chats: &[vp_ports::PartnerChat],
    new_link: Option<&vp_app::notices::ChatLink>,
    unlinked: bool,
) -> String {
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let heading = t("Telegram", "Telegram");
    if shell.app.messenger().is_none() {
        return format!(
            "<h2>{heading}</h2><p class=\"muted\">{}</p>",
            t(
                "This platform does not send notices to Telegram; they appear here only.",
                "Эта платформа не отправляет уведомления в Telegram; они видны только здесь."
            )
        );
    }
    let csrf = shell.csrf_legacy();
    let rows: String = chats
        .iter()
        .map(|c| {
            format!(
                "<tr><td><code>{id}</code></td><td>{by}</td><td>{at}</td><td><form class=\"inline\" method=\"post\" \
                 action=\"/cabinet/notices/telegram/{id}/unlink\">{csrf}<button type=\"submit\">{unlink}</button>\
                 </form></td></tr>",
                id = c.chat_id,
                by = escape(&c.linked_by),
                at = when(c.linked_at),
                unlink = t("Unlink", "Отключить"),
            )
        })
        .collect();
    let linked = if chats.is_empty() {
        format!("<p>{}</p>", t("No chat is linked yet.", "Пока не подключён ни один чат."))
    } else {
        format!(
            "<div class=\"scroll\"><table><thead><tr><th>{chat}</th><th>{by}</th><th>{since}</th><th></th></tr></thead>\
             <tbody>{rows}</tbody></table></div>",
            chat = t("Chat", "Чат"),
            by = t("Linked by", "Кто подключил"),
            since = t("Since", "С"),
        )
    };
    let status = if unlinked {
        format!("<p class=\"ok\" role=\"status\">{}</p>", t("The chat is unlinked.", "Чат отключён."))
    } else {
        String::new()
    };
    let action = match new_link {
        Some(link) => format!(
            "<p><a class=\"button primary\" id=\"telegram_link\" href=\"{url}\" rel=\"noopener\">{open}</a></p>\
             <p class=\"muted\">{help} {until}.</p>",
            url = escape(&link.url),
            open = t("Open Telegram and press Start", "Открыть Telegram и нажать «Start»"),
            help = t(
                "The link works once, in the chat where you open it, until",
                "Ссылка сработает один раз, в том чате, где вы её откроете, до"
            ),
            until = when(link.expires_at),
        ),
        None => format!(
            "<form method=\"post\" action=\"/cabinet/notices/telegram\">{csrf}<button type=\"submit\">{link}</button></form>",
            link = t("Link Telegram", "Подключить Telegram"),
        ),
    };
    format!(
        "<h2>{heading}</h2>{status}<p>{intro}</p>{linked}{action}",
        intro = t(
            "Linked chats receive every notice as a message from the platform's bot.",
            "Подключённые чаты получают каждое уведомление сообщением от бота платформы."
        ),
    )
}
