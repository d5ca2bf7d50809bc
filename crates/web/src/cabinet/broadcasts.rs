//! The Broadcasts page: a message from the partner's bot to an audience of its customers. The
//! form first previews it (through the partner's bot to the chats linked on the Notices page,
//! and on the page itself, with the audience's size); the preview's "Send" button then sends
//! exactly what was previewed. Below, the latest broadcasts with their counts and the buttons
//! that pause, resume or cancel them.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::broadcasts::{BroadcastPreview, BroadcastSummary, Broadcasts, NewBroadcast};
use vp_app::{AppError, Declined, FieldErrors};
use vp_domain::BroadcastId;
use vp_domain::broadcast::{
    Audience, BroadcastAction, BroadcastButton, BroadcastRefused, BroadcastState, BroadcastText, TEXT_MAX_CHARS,
};
use vp_i18n::Texts;

use super::{Fields, Missing, Section, Shell, SignedForm, SignedIn, failed, said_first, when};

/// `?sent=ID` or `?changed=ID` after an action.
#[derive(Deserialize)]
pub struct Shown {
    sent: Option<String>,
    changed: Option<String>,
}

const MISSING: Missing = Missing {
    message: "cabinet-broadcast-missing",
    back: "/cabinet/broadcasts",
    back_label: "cabinet-section-broadcasts",
};

pub async fn show(
    req: HttpRequest,
    broadcasts: Data<Broadcasts>,
    SignedIn(actor): SignedIn,
    shown: Query<Shown>,
) -> HttpResponse {
    let tx = Texts(super::session::lang(&req));
    let top = match (&shown.sent, &shown.changed) {
        (Some(_), _) => Some(("ok", tx.get("cabinet-broadcast-sent"))),
        (_, Some(_)) => Some(("ok", tx.get("cabinet-broadcast-changed"))),
        _ => None,
    };
    let view = View { top, preview: None, form: BroadcastForm::default() };
    render(&req, &broadcasts, &actor, StatusCode::OK, view).await
}

/// The latest broadcasts the page lists.
const BROADCAST_PAGE: u32 = 20;

/// The form as sent: raw text, kept to fill the form (or the preview's hidden fields) again,
/// and read into a broadcast here. Empty optional fields mean "none".
#[derive(Debug, Clone, Default)]
struct BroadcastForm {
    text: String,
    text_ru: String,
    button_text: String,
    button_url: String,
    audience: String,
}

fn given(field: &str) -> Option<String> {
    Some(field.to_owned()).filter(|f| !f.trim().is_empty())
}

impl BroadcastForm {
    fn of(fields: &Fields) -> BroadcastForm {
        BroadcastForm {
            text: fields.get("text").to_owned(),
            text_ru: fields.get("text_ru").to_owned(),
            button_text: fields.get("button_text").to_owned(),
            button_url: fields.get("button_url").to_owned(),
            audience: fields.get("audience").to_owned(),
        }
    }

    /// The broadcast the form asks for; the bot's own checks of its texts and button are the
    /// service's.
    fn read(&self) -> Result<NewBroadcast, AppError> {
        let audience: Audience = self.audience.parse().map_err(|e: vp_domain::broadcast::AudienceUnknown| {
            AppError::Validation(FieldErrors::from([("audience".to_owned(), e.to_string())]))
        })?;
        Ok(NewBroadcast {
            text: self.text.clone(),
            text_ru: given(&self.text_ru),
            button_text: given(&self.button_text),
            button_url: given(&self.button_url),
            audience,
        })
    }
}

/// Previews the form's broadcast: the page shows it with the "Send" button, or why not.
pub async fn preview(req: HttpRequest, broadcasts: Data<Broadcasts>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let sent = BroadcastForm::of(&fields);
    let previewed = match sent.read() {
        Ok(new) => broadcasts.preview((&actor).into(), &new).await,
        Err(e) => Err(e),
    };
    match previewed {
        Ok(preview) => {
            let view = View { top: None, preview: Some(preview), form: sent };
            render(&req, &broadcasts, &actor, StatusCode::OK, view).await
        }
        Err(e) => refused(&req, &broadcasts, &actor, e, sent).await,
    }
}

/// Sends what was previewed.
pub async fn send(req: HttpRequest, broadcasts: Data<Broadcasts>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let sent = BroadcastForm::of(&fields);
    let done = match sent.read() {
        Ok(new) => broadcasts.send((&actor).into(), new).await,
        Err(e) => Err(e),
    };
    match done {
        Ok(done) => super::session::see_other(&format!("/cabinet/broadcasts?sent={}", done.broadcast.id)),
        Err(e) => refused(&req, &broadcasts, &actor, e, sent).await,
    }
}

/// The form again with the refusal above it (422), or the failure page.
async fn refused(
    req: &HttpRequest,
    broadcasts: &Broadcasts,
    actor: &Actor,
    e: AppError,
    sent: BroadcastForm,
) -> HttpResponse {
    let tx = Texts(super::session::lang(req));
    let said = match e {
        AppError::Validation(_) => tx.get("cabinet-broadcast-refused-audience"),
        AppError::Declined(d) => declined(tx, &d),
        e => return failed(req, &e),
    };
    let view = View { top: Some(("error", said)), preview: None, form: sent };
    render(req, broadcasts, actor, StatusCode::UNPROCESSABLE_ENTITY, view).await
}

fn declined(tx: Texts, d: &Declined) -> String {
    match d {
        Declined::Broadcast(BroadcastRefused::EmptyText) => tx.get("cabinet-broadcast-refused-empty"),
        Declined::Broadcast(BroadcastRefused::TextTooLong { chars }) => tx.with(
            "cabinet-broadcast-refused-long",
            &[("count", (*chars as u64).into()), ("max", (TEXT_MAX_CHARS as u64).into())],
        ),
        Declined::Broadcast(BroadcastRefused::HalfAButton) => tx.get("cabinet-broadcast-refused-half-button"),
        Declined::Broadcast(BroadcastRefused::ButtonTextLength) => tx.get("cabinet-broadcast-refused-button-text"),
        Declined::Broadcast(BroadcastRefused::ButtonUrl) => tx.get("cabinet-broadcast-refused-button-url"),
        Declined::BroadcastNoBot => tx.get("cabinet-broadcast-refused-no-bot"),
        Declined::BroadcastAction(refused) => {
            tx.with("cabinet-broadcast-refused-action", &[("state", state(tx, refused.from).as_str().into())])
        }
        other => other.to_string(),
    }
}

pub async fn pause(req: HttpRequest, broadcasts: Data<Broadcasts>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, broadcasts, id, form, BroadcastAction::Pause).await
}

pub async fn resume(
    req: HttpRequest,
    broadcasts: Data<Broadcasts>,
    id: Path<String>,
    form: SignedForm,
) -> HttpResponse {
    act(req, broadcasts, id, form, BroadcastAction::Resume).await
}

pub async fn cancel(
    req: HttpRequest,
    broadcasts: Data<Broadcasts>,
    id: Path<String>,
    form: SignedForm,
) -> HttpResponse {
    act(req, broadcasts, id, form, BroadcastAction::Cancel).await
}

async fn act(
    req: HttpRequest,
    broadcasts: Data<Broadcasts>,
    id: Path<String>,
    form: SignedForm,
    action: BroadcastAction,
) -> HttpResponse {
    let actor = form.actor;
    let Ok(id) = BroadcastId::parse(&id) else {
        return Shell::new(&req, &actor, Section::Broadcasts).not_found(MISSING);
    };
    match broadcasts.act((&actor).into(), &id, action).await {
        Ok(done) => super::session::see_other(&format!("/cabinet/broadcasts?changed={}", done.broadcast.id)),
        Err(AppError::NotFound(_)) => Shell::new(&req, &actor, Section::Broadcasts).not_found(MISSING),
        Err(e) => refused(&req, &broadcasts, &actor, e, BroadcastForm::default()).await,
    }
}

/// What the page shows besides the list: a status or a refusal, a preview, the form's values.
struct View {
    top: Option<(&'static str, String)>,
    preview: Option<BroadcastPreview>,
    form: BroadcastForm,
}

async fn render(
    req: &HttpRequest,
    broadcasts: &Broadcasts,
    actor: &Actor,
    status: StatusCode,
    view: View,
) -> HttpResponse {
    let list = match broadcasts.list(actor.into(), BROADCAST_PAGE).await {
        Ok(list) => list,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Broadcasts);
    let tx = shell.tx;
    let title = tx.get("cabinet-section-broadcasts");
    let body = html! {
        h1 { (title) }
        (said_first(&view.top))
        p.muted { (tx.get("cabinet-broadcast-intro")) }
        @if let Some(preview) = &view.preview {
            (preview_card(&shell, preview, &view.form))
        }
        // The latest broadcasts come before the form: on a phone, progress is what one
        // comes back for.
        h2 { (tx.get("cabinet-broadcast-list")) }
        @if list.is_empty() {
            p { (tx.get("cabinet-broadcast-none")) }
        }
        @for b in &list {
            (broadcast_card(&shell, b))
        }
        h2 #new { (tx.get("cabinet-broadcast-new")) }
        (new_form(&shell, &view.form))
    };
    shell.render(status, &title, body)
}

fn audience_name(tx: Texts, audience: &str) -> String {
    let key = match audience.parse::<Audience>() {
        Ok(Audience::All) => "cabinet-broadcast-audience-all",
        Ok(Audience::Active) => "cabinet-broadcast-audience-active",
        Ok(Audience::Expired) => "cabinet-broadcast-audience-expired",
        Ok(Audience::Trial) => "cabinet-broadcast-audience-trial",
        Ok(Audience::NeverPaid) => "cabinet-broadcast-audience-never-paid",
        Err(_) => return audience.to_owned(),
    };
    tx.get(key)
}

pub(super) fn state(tx: Texts, state: BroadcastState) -> String {
    tx.get(match state {
        BroadcastState::Sending => "cabinet-broadcast-state-sending",
        BroadcastState::Paused => "cabinet-broadcast-state-paused",
        BroadcastState::Cancelled => "cabinet-broadcast-state-cancelled",
        BroadcastState::Done => "cabinet-broadcast-state-done",
    })
}

/// The message as a chat will show it: its text and its button.
fn bubble(text: &BroadcastText, button: Option<&BroadcastButton>, lang: &str) -> Markup {
    html! {
        div.bubble lang=(lang) {
            p.bubble-text { (text.as_str()) }
            @if let Some(b) = button {
                a.button href=(b.url) rel="noopener noreferrer" target="_blank" { (b.text) }
            }
        }
    }
}

fn preview_card(shell: &Shell<'_>, preview: &BroadcastPreview, form: &BroadcastForm) -> Markup {
    let tx = shell.tx;
    let c = &preview.content;
    let audience = audience_name(tx, form.audience.trim());
    let count = preview.audience as u64;
    html! {
        section.card #preview {
            h2 { (tx.get("cabinet-broadcast-preview")) }
            (bubble(&c.text, c.button.as_ref(), "en"))
            @if let Some(ru) = &c.text_ru {
                p.muted { (tx.get("cabinet-broadcast-preview-ru")) }
                (bubble(ru, c.button.as_ref(), "ru"))
            }
            @if !preview.delivered.is_empty() {
                p.ok role="status" {
                    (tx.with("cabinet-broadcast-preview-delivered", &[("count", (preview.delivered.len() as u64).into())]))
                }
            }
            @for (chat, reason) in &preview.refused {
                p.error role="alert" {
                    (tx.with("cabinet-broadcast-preview-refused", &[
                        ("chat", chat.to_string().as_str().into()),
                        ("bot", preview.bot_username.as_str().into()),
                        ("reason", reason.as_str().into()),
                    ]))
                }
            }
            @if preview.delivered.is_empty() && preview.refused.is_empty() {
                p.muted { (tx.get("cabinet-broadcast-preview-no-chat")) " " a href="/cabinet/notices" { (tx.get("cabinet-section-notices")) } }
            }
            @if count == 0 {
                p #preview-audience { (tx.with("cabinet-broadcast-nobody", &[("audience", audience.as_str().into())])) }
            } @else {
                p #preview-audience { (tx.with("cabinet-broadcast-will-reach", &[("count", count.into()), ("audience", audience.as_str().into())])) }
                form method="post" action="/cabinet/broadcasts" {
                    (shell.csrf_field())
                    input type="hidden" name="text" value=(form.text);
                    input type="hidden" name="text_ru" value=(form.text_ru);
                    input type="hidden" name="button_text" value=(form.button_text);
                    input type="hidden" name="button_url" value=(form.button_url);
                    input type="hidden" name="audience" value=(form.audience);
                    p { button.primary type="submit" { (tx.with("cabinet-broadcast-send", &[("count", count.into())])) } }
                }
            }
        }
    }
}

fn new_form(shell: &Shell<'_>, form: &BroadcastForm) -> Markup {
    let tx = shell.tx;
    let chosen = if form.audience.trim().is_empty() { "all" } else { form.audience.trim() };
    html! {
        form method="post" action="/cabinet/broadcasts/preview" {
            (shell.csrf_field())
            label for="text" { (tx.get("cabinet-broadcast-field-text")) }
            textarea #text name="text" rows="6" required maxlength=(TEXT_MAX_CHARS) aria-describedby="text_help" { (form.text) }
            p #text_help .muted { (tx.with("cabinet-broadcast-text-help", &[("max", (TEXT_MAX_CHARS as u64).into())])) }
            label for="text_ru" { (tx.get("cabinet-broadcast-field-text-ru")) }
            textarea #text_ru name="text_ru" rows="6" maxlength=(TEXT_MAX_CHARS) lang="ru" aria-describedby="text_ru_help" { (form.text_ru) }
            p #text_ru_help .muted { (tx.get("cabinet-broadcast-text-ru-help")) }
            label for="button_text" { (tx.get("cabinet-broadcast-field-button-text")) }
            input #button_text name="button_text" type="text" maxlength="64" value=(form.button_text);
            label for="button_url" { (tx.get("cabinet-broadcast-field-button-url")) }
            input #button_url name="button_url" type="url" inputmode="url" placeholder="https://" value=(form.button_url)
                aria-describedby="button_help";
            p #button_help .muted { (tx.get("cabinet-broadcast-button-help")) }
            fieldset.plain {
                legend { (tx.get("cabinet-broadcast-field-audience")) }
                @for a in Audience::ALL {
                    label.check {
                        input type="radio" name="audience" value=(a.as_str()) checked[chosen == a.as_str()];
                        " " (audience_name(tx, a.as_str()))
                    }
                }
            }
            p { button.primary type="submit" { (tx.get("cabinet-broadcast-preview-button")) } }
        }
    }
}

fn broadcast_card(shell: &Shell<'_>, s: &BroadcastSummary) -> Markup {
    let tx = shell.tx;
    let b = &s.broadcast;
    let c = &s.counts;
    let excerpt: String = b.text.as_str().chars().take(160).collect();
    let cut = b.text.as_str().chars().count() > 160;
    html! {
        section.card.broadcast #(b.id) {
            h3 { (when(shell.zone(), b.created_at)) " · " (audience_name(tx, b.audience.as_str())) " · " span.state { (state(tx, b.state)) } }
            p.muted.bubble-text { (excerpt) @if cut { "…" } }
            p.counts {
                (tx.with("cabinet-broadcast-counts", &[
                    ("count", c.sent.into()),
                    ("blocked_count", c.blocked.into()),
                    ("failed_count", c.failed.into()),
                    ("left_count", c.left.into()),
                ]))
            }
            @let actions: &[(&str, &str)] = match b.state {
                BroadcastState::Sending => &[("pause", "cabinet-broadcast-pause"), ("cancel", "cabinet-broadcast-cancel")],
                BroadcastState::Paused => &[("resume", "cabinet-broadcast-resume"), ("cancel", "cabinet-broadcast-cancel")],
                BroadcastState::Cancelled | BroadcastState::Done => &[],
            };
            @for (path, key) in actions {
                form.inline method="post" action={ "/cabinet/broadcasts/" (b.id) "/" (path) } {
                    (shell.csrf_field())
                    button type="submit" { (tx.get(key)) }
                }
                " "
            }
        }
    }
}
