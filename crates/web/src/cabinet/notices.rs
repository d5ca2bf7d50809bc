//! Notices: what the platform told the partner, newest first, and the Telegram chats that
//! receive them too (linked through a one-time deep link, unlinked with a button).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::AppError;
use vp_app::actor::Actor;
use vp_app::notices::Notices;
use vp_app::notices::{ChatLink, NOTICE_PAGE};
use vp_i18n::notice_text;
use vp_ports::{Cursor, PartnerChat};

use super::session;
use super::{ListQuery, Missing, Section, Shell, SignedForm, SignedIn, failed, when};
use crate::pages::kit::{self, Column};

/// `?unlinked=1` after a chat was unlinked.
#[derive(Deserialize)]
pub struct Shown {
    unlinked: Option<String>,
}

pub async fn list(
    req: HttpRequest,
    notices: Data<Notices>,
    SignedIn(actor): SignedIn,
    list: Query<ListQuery>,
    shown: Query<Shown>,
) -> HttpResponse {
    let unlinked = shown.unlinked.as_deref() == Some("1");
    render(&req, &notices, &actor, list.cursor(), None, unlinked).await
}

/// A new one-time chat link, shown on the page as a button.
pub async fn link_chat(req: HttpRequest, notices: Data<Notices>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, .. } = form;
    match notices.chat_link(&actor, session::lang(&req)).await {
        Ok(link) => render(&req, &notices, &actor, None, link, false).await,
        Err(e) => failed(&req, &e),
    }
}

pub async fn unlink_chat(
    req: HttpRequest,
    notices: Data<Notices>,
    chat_id: Path<String>,
    form: SignedForm,
) -> HttpResponse {
    let SignedForm { actor, .. } = form;
    let shell = Shell::new(&req, &actor, Section::Notices);
    let missing = Missing {
        message: "cabinet-notices-no-such-chat",
        back: "/cabinet/notices",
        back_label: "cabinet-section-notices",
    };
    let gone = || shell.not_found(missing);
    let Ok(chat_id) = chat_id.parse::<i64>() else { return gone() };
    match notices.unlink_chat(&actor, chat_id).await {
        Ok(()) => session::see_other("/cabinet/notices?unlinked=1"),
        Err(AppError::NotFound(_)) => gone(),
        Err(e) => failed(&req, &e),
    }
}

async fn render(
    req: &HttpRequest,
    notices: &Notices,
    actor: &Actor,
    before: Option<Cursor>,
    new_link: Option<ChatLink>,
    unlinked: bool,
) -> HttpResponse {
    let messenger = notices.messenger().is_some();
    let loaded = async {
        Ok::<_, AppError>((
            notices.notices(actor.account_id(), before, NOTICE_PAGE).await?,
            notices.partner_chats(actor.account_id()).await?,
        ))
    };
    let (notices, chats) = match loaded.await {
        Ok(found) => found,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Notices);
    let tx = shell.tx;
    let brand = actor.account.brand_name.as_str();
    let last = notices.last().map(|n| (n.created_at, n.id.as_str()));
    let title = tx.get("cabinet-section-notices");
    let body = html! {
        h1 { (title) }
        p.muted { (tx.get("cabinet-notices-intro")) }
        @if notices.is_empty() {
            p { (tx.get("cabinet-notices-none")) }
        } @else {
            ul.notices {
                @for n in &notices {
                    li { span.muted { (when(shell.zone(), n.created_at)) } br; (notice_text(&n.kind, brand, shell.lang)) }
                }
            }
            (shell.older_link("/cabinet/notices", notices.len(), NOTICE_PAGE, last))
        }
        (telegram_section(&shell, messenger, &chats, new_link.as_ref(), unlinked))
    };
    shell.render(StatusCode::OK, &title, body)
}

fn telegram_section(
    shell: &Shell<'_>,
    messenger: bool,
    chats: &[PartnerChat],
    new_link: Option<&ChatLink>,
    unlinked: bool,
) -> Markup {
    let tx = shell.tx;
    let heading = tx.get("cabinet-notices-telegram");
    if !messenger {
        return html! { h2 { (heading) } p.muted { (tx.get("cabinet-notices-telegram-off")) } };
    }
    html! {
        h2 { (heading) }
        @if unlinked { p.ok role="status" { (tx.get("cabinet-notices-unlinked")) } }
        p { (tx.get("cabinet-notices-telegram-intro")) }
        @if chats.is_empty() {
            p { (tx.get("cabinet-notices-no-chats")) }
        } @else {
            (linked_chats(shell, chats))
        }
        @match new_link {
            Some(link) => {
                p {
                    a.button.primary #telegram_link href=(link.url) rel="noopener" { (tx.get("cabinet-notices-open-telegram")) }
                }
                p.muted {
                    (tx.with("cabinet-notices-link-help", &[("until", when(shell.zone(), link.expires_at).as_str().into())]))
                }
            }
            None => {
                form method="post" action="/cabinet/notices/telegram" {
                    (shell.csrf_field())
                    button type="submit" { (tx.get("cabinet-notices-link-telegram")) }
                }
            }
        }
    }
}

/// The linked chats, each with its unlink button.
fn linked_chats(shell: &Shell<'_>, chats: &[PartnerChat]) -> Markup {
    let tx = shell.tx;
    let columns = ["cabinet-notices-chat", "cabinet-notices-linked-by", "cabinet-notices-since"]
        .map(|key| Column::text(tx.get(key)))
        .into_iter()
        .chain([Column::text(String::new())])
        .collect::<Vec<_>>();
    kit::table(
        &columns,
        chats.iter().map(|c| {
            vec![
                html! { code { (c.chat_id) } },
                html! { (c.linked_by) },
                html! { (when(shell.zone(), c.linked_at)) },
                html! {
                    form.inline method="post" action={ "/cabinet/notices/telegram/" (c.chat_id) "/unlink" } {
                        (shell.csrf_field())
                        button type="submit" { (tx.get("cabinet-notices-unlink")) }
                    }
                },
            ]
        }),
    )
}
