//! Webhook addresses: the list and the add form, one address's page (event types, disable and
//! re-enable, the secret and its rotation, the test button, replay), each change a form posted
//! with the session's token and answered with `303 See Other` back to the page.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::{Markup, html};
use serde::Deserialize;
use vp_app::actor::Actor;
use vp_app::cabinet::Cabinet;
use vp_app::events::{TestOutcome, types::SUBSCRIBABLE};
use vp_app::{AppError, Declined};
use vp_domain::EndpointId;
use vp_domain::TimeZone;
use vp_domain::limits::{WEBHOOK_ENDPOINTS_MAX as MAX_ENDPOINTS, WEBHOOK_REPLAY_DAYS as REPLAY_DAYS};
use vp_i18n::{Arg, Texts};
use vp_ports::{AddressRefused, WebhookEndpointRecord};

use super::session;
use super::{Fields, Missing, Section, Shell, SignedForm, SignedIn, failed, when};
use crate::pages::kit::{self, Column};

fn state(e: &WebhookEndpointRecord, tx: Texts, zone: &TimeZone) -> Markup {
    if e.enabled {
        return html! { span.ok { (tx.get("cabinet-webhooks-enabled")) } };
    }
    let why = match e.disabled_reason.as_deref() {
        Some("gone") => "cabinet-webhooks-disabled-gone",
        Some("failing") => "cabinet-webhooks-disabled-failing",
        _ => "cabinet-webhooks-disabled",
    };
    html! {
        span.error {
            (tx.get(why))
            @if let Some(at) = e.disabled_at { " " (tx.with("cabinet-webhooks-since", &[("at", when(zone, at).as_str().into())])) }
        }
    }
}

fn type_boxes(chosen: &[String]) -> Markup {
    html! {
        @for t in SUBSCRIBABLE {
            label.check {
                input type="checkbox" name="event_types" value=(t) checked[chosen.iter().any(|c| c == t)];
                " " code { (t) }
            }
        }
    }
}

/// A refusal of the use case as the form shows it, in the page's language.
fn refusal(e: &AppError, tx: Texts) -> Option<String> {
    match e {
        AppError::Declined(d) => Some(declined(d, tx)),
        AppError::Conflict(reason) => Some(reason.clone()),
        _ => None,
    }
}

fn declined(d: &Declined, tx: Texts) -> String {
    match d {
        Declined::TooManyEndpoints => tx.with("cabinet-webhooks-refused-too-many", &[("max", MAX_ENDPOINTS.into())]),
        Declined::EndpointAddress(refused) => match refused {
            AddressRefused::NotAUrl(reason) => {
                tx.with("cabinet-webhooks-refused-not-a-url", &[("reason", reason.into())])
            }
            AddressRefused::Credentials => tx.get("cabinet-webhooks-refused-credentials"),
            AddressRefused::NoHost => tx.get("cabinet-webhooks-refused-no-host"),
            AddressRefused::NotHttps => tx.get("cabinet-webhooks-refused-not-https"),
            AddressRefused::NotPort443 => tx.get("cabinet-webhooks-refused-not-port-443"),
            AddressRefused::DoesNotResolve { host, reason } => tx
                .with("cabinet-webhooks-refused-does-not-resolve", &[("host", host.into()), ("reason", reason.into())]),
            AddressRefused::NoAddress { host } => {
                tx.with("cabinet-webhooks-refused-no-address", &[("host", host.into())])
            }
            AddressRefused::NotPublic { host, ip } => tx.with(
                "cabinet-webhooks-refused-not-public",
                &[("host", host.into()), ("ip", ip.to_string().as_str().into())],
            ),
        },
        Declined::NoEventTypes => tx.get("cabinet-webhooks-refused-no-event-types"),
        Declined::UnknownEventType(name) => tx.with(
            "cabinet-webhooks-refused-unknown-type",
            &[("name", format!("{name:?}").as_str().into()), ("types", SUBSCRIBABLE.join(", ").as_str().into())],
        ),
        Declined::ReplayDays => {
            let (days, rest) = REPLAY_DAYS.split_last().map_or((0, &[][..]), |(last, rest)| (*last, rest));
            let listed = rest.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            tx.with(
                "cabinet-webhooks-refused-replay-days",
                &[("listed", listed.as_str().into()), ("days", days.into())],
            )
        }
        Declined::EndpointDisabled => tx.get("cabinet-webhooks-refused-disabled"),
        // Not refusals of these pages: as the app words them.
        Declined::Withdrawal(_)
        | Declined::BotTokenMalformed
        | Declined::BotTokenRejected
        | Declined::BotTaken
        | Declined::BotAlreadyConnected(_)
        | Declined::PromoCodeMalformed
        | Declined::PromoCodeTaken(_)
        | Declined::PromoPlanUnknown(_)
        | Declined::PromoBelowPlatformPrice { .. }
        | Declined::PromoExpiresInThePast
        | Declined::PromoUsesZero
        | Declined::Broadcast(_)
        | Declined::BroadcastAction(_)
        | Declined::BroadcastNoBot
        | Declined::NoPlatformBot
        | Declined::BotManagementOff(_)
        | Declined::BotNotManaged
        | Declined::PanelCannotList => d.to_string(),
    }
}

pub async fn list(req: HttpRequest, cabinet: Data<Cabinet>, SignedIn(actor): SignedIn) -> HttpResponse {
    render_list(&req, &cabinet, &actor, StatusCode::OK, None, "", &[]).await
}

async fn render_list(
    req: &HttpRequest,
    cabinet: &Cabinet,
    actor: &Actor,
    status: StatusCode,
    problem: Option<String>,
    url: &str,
    chosen: &[String],
) -> HttpResponse {
    let endpoints = match cabinet.endpoints(actor).await {
        Ok(all) => all,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, actor, Section::Webhooks);
    let tx = shell.tx;
    let title = tx.get("cabinet-webhooks-title");
    let body = html! {
        h1 { (title) }
        p.muted { (tx.with("cabinet-webhooks-intro", &[("max", MAX_ENDPOINTS.into())])) }
        p { a href={ (vp_app::API_PREFIX) "/docs" } { (tx.get("cabinet-api-reference")) } }
        @if endpoints.is_empty() {
            p { (tx.get("cabinet-webhooks-none")) }
        } @else {
            (kit::table(
                &["cabinet-webhooks-address", "cabinet-webhooks-events", "cabinet-webhooks-state"]
                    .map(|key| Column::text(tx.get(key))),
                endpoints.iter().map(|e| {
                    vec![
                        html! { a href={ "/cabinet/webhooks/" (e.id) } { code { (e.url) } } },
                        html! { span { @for (i, t) in e.event_types.iter().enumerate() { @if i > 0 { " " } code { (t) } } } },
                        state(e, tx, shell.zone()),
                    ]
                }),
            ))
        }
        h2 { (tx.get("cabinet-webhooks-add-heading")) }
        @if let Some(problem) = problem { p.error role="alert" { (problem) } }
        form method="post" action="/cabinet/webhooks" {
            (shell.csrf_field())
            label for="url" { (tx.get("cabinet-webhooks-url")) }
            input id="url" name="url" type="url" required placeholder="https://hooks.example.com/vpn" value=(url)
                aria-describedby="url_help";
            p id="url_help" class="muted" { (tx.get("cabinet-webhooks-url-help")) }
            fieldset { legend { (tx.get("cabinet-webhooks-events")) } (type_boxes(chosen)) }
            p { button.primary type="submit" { (tx.get("cabinet-webhooks-add")) } }
        }
    };
    shell.render(status, &title, body)
}

pub async fn add(req: HttpRequest, cabinet: Data<Cabinet>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let (url, chosen) = (fields.get("url"), fields.all("event_types"));
    match cabinet.add_endpoint(&actor, url, &chosen).await {
        Ok(e) => session::see_other(&format!("/cabinet/webhooks/{}?added=1", e.id)),
        Err(e) => match refusal(&e, Texts(session::lang(&req))) {
            Some(problem) => {
                render_list(&req, &cabinet, &actor, StatusCode::UNPROCESSABLE_ENTITY, Some(problem), url, &chosen).await
            }
            None => failed(&req, &e),
        },
    }
}

/// What the redirect after an action tells the address page (`?added=1`, `?test_code=200&test_ms=41`, ...).
#[derive(Debug, Deserialize)]
pub struct Shown {
    test_code: Option<String>,
    test_ms: Option<String>,
    test_wait: Option<String>,
    replayed: Option<String>,
    days: Option<String>,
    rotated: Option<String>,
    enabled: Option<String>,
    added: Option<String>,
    disabled: Option<String>,
    types: Option<String>,
}

/// A number of the query as a count (its plural form), or as the text it is when it is none.
fn count(text: &str) -> Arg<'_> {
    text.parse::<i64>().map_or(Arg::Text(text), Arg::Count)
}

/// What the address page says at its top after an action.
fn outcome(tx: Texts, zone: &TimeZone, shown: &Shown, endpoint: &WebhookEndpointRecord) -> Markup {
    let given = |v: &Option<String>| v.as_deref().filter(|v| !v.is_empty()).map(str::to_owned);
    let done = |v: &Option<String>| v.as_deref() == Some("1");
    if let Some(code) = given(&shown.test_code) {
        let ms = given(&shown.test_ms).unwrap_or_default();
        let code = if code == "none" { tx.get("cabinet-webhooks-test-no-response") } else { code };
        return html! {
            p role="status" id="test-result" {
                (tx.get("cabinet-webhooks-test-sent")) " " strong { (code) } ", "
                (tx.with("cabinet-webhooks-test-time", &[("ms", ms.as_str().into())]))
            }
        };
    }
    if let Some(wait) = given(&shown.test_wait) {
        return html! { p.error role="alert" { (tx.with("cabinet-webhooks-test-wait", &[("seconds", count(&wait))])) } };
    }
    if let Some(n) = given(&shown.replayed) {
        let days = given(&shown.days).unwrap_or_default();
        let args = [("count", count(&n)), ("days", count(&days))];
        return html! { p.ok role="status" { (tx.with("cabinet-webhooks-replayed", &args)) } };
    }
    if done(&shown.rotated) {
        let until = endpoint.previous_secret_valid_until().map(|at| when(zone, at)).unwrap_or_default();
        return html! { p.ok role="status" { (tx.with("cabinet-webhooks-rotated", &[("until", until.as_str().into())])) } };
    }
    let simple = [
        (&shown.enabled, "cabinet-webhooks-enabled-again"),
        (&shown.added, "cabinet-webhooks-added"),
        (&shown.disabled, "cabinet-webhooks-disabled-now"),
        (&shown.types, "cabinet-webhooks-types-saved"),
    ];
    html! {
        @if let Some((_, key)) = simple.iter().find(|(v, _)| done(v)) { p.ok role="status" { (tx.get(key)) } }
    }
}

pub async fn show(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    id: Path<String>,
    shown: Query<Shown>,
) -> HttpResponse {
    let Ok(id) = EndpointId::parse(&id) else { return not_found(&req, &actor) };
    match cabinet.own_endpoint(&actor, &id).await {
        Ok(endpoint) => {
            let top = outcome(Texts(session::lang(&req)), &actor.account.time_zone, &shown, &endpoint);
            render_endpoint(&req, &actor, &endpoint, StatusCode::OK, top, None)
        }
        Err(AppError::NotFound(_)) => not_found(&req, &actor),
        Err(e) => failed(&req, &e),
    }
}

pub(super) fn not_found(req: &HttpRequest, actor: &Actor) -> HttpResponse {
    let shell = Shell::new(req, actor, Section::Webhooks);
    shell.not_found(Missing {
        message: "cabinet-webhooks-not-found",
        back: "/cabinet/webhooks",
        back_label: "cabinet-webhooks-all",
    })
}

/// One address's page; `top` is what it says above the address (what an action did, or why it
/// was refused).
fn render_endpoint(
    req: &HttpRequest,
    actor: &Actor,
    e: &WebhookEndpointRecord,
    status: StatusCode,
    top: Markup,
    secret: Option<&str>,
) -> HttpResponse {
    let shell = Shell::new(req, actor, Section::Webhooks);
    let tx = shell.tx;
    let action = |path: &str, label: &str, class: &str| {
        html! {
            form.inline method="post" action={ "/cabinet/webhooks/" (e.id) "/" (path) } {
                (shell.csrf_field())
                button class=(class) type="submit" { (tx.get(label)) }
            }
        }
    };
    let title = tx.get("cabinet-webhooks-address-title");
    let body = html! {
        h1 { (title) }
        (top)
        p { code { (e.url) } }
        dl {
            dt { (tx.get("cabinet-webhooks-state")) } dd { (state(e, tx, shell.zone())) }
            dt { (tx.get("cabinet-webhooks-added-at")) } dd { (when(shell.zone(), e.created_at)) }
        }
        p {
            @if e.enabled {
                (action("disable", "cabinet-webhooks-disable", ""))
            } @else {
                (action("enable", "cabinet-webhooks-enable", "primary"))
            }
            " "
            a.button href={ "/cabinet/webhooks/" (e.id) "/deliveries" } { (tx.get("cabinet-webhooks-delivery-log")) }
        }
        h2 { (tx.get("cabinet-webhooks-test")) }
        p.muted { (tx.get("cabinet-webhooks-test-help")) }
        (action("test", "cabinet-webhooks-test-send", "primary"))
        h2 { (tx.get("cabinet-webhooks-events")) }
        form method="post" action={ "/cabinet/webhooks/" (e.id) "/types" } {
            (shell.csrf_field())
            fieldset { legend { (tx.get("cabinet-webhooks-events")) } (type_boxes(&e.event_types)) }
            p { button type="submit" { (tx.get("cabinet-webhooks-save-types")) } }
        }
        h2 { (tx.get("cabinet-webhooks-secret")) }
        p.muted { (tx.get("cabinet-webhooks-secret-help")) }
        @if let Some(secret) = secret {
            p { code id="secret" { (secret) } }
            p.muted { (tx.get("cabinet-webhooks-secret-keep")) }
        } @else {
            (action("secret", "cabinet-webhooks-secret-show", ""))
        }
        p { (action("rotate", "cabinet-webhooks-rotate", "")) }
        h2 { (tx.get("cabinet-webhooks-replay")) }
        p.muted { (tx.get("cabinet-webhooks-replay-help")) }
        form method="post" action={ "/cabinet/webhooks/" (e.id) "/replay" } {
            (shell.csrf_field())
            label for="days" { (tx.get("cabinet-webhooks-replay-days")) }
            select id="days" name="days" { @for d in REPLAY_DAYS { option value=(d) { (d) } } }
            p { button type="submit" { (tx.get("cabinet-webhooks-replay-button")) } }
        }
    };
    shell.render(status, &title, body)
}

/// Runs one action on the actor's address and goes back to its page with what happened.
async fn act(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    id: Path<String>,
    form: SignedForm,
    run: impl AsyncFnOnce(&Cabinet, &Actor, &EndpointId, &Fields) -> Result<String, AppError>,
) -> HttpResponse {
    let SignedForm { actor, fields } = form;
    let Ok(id) = EndpointId::parse(&id) else { return not_found(&req, &actor) };
    match run(&cabinet, &actor, &id, &fields).await {
        Ok(query) => session::see_other(&format!("/cabinet/webhooks/{id}?{query}")),
        Err(AppError::NotFound(_)) => not_found(&req, &actor),
        Err(e) => match (refusal(&e, Texts(session::lang(&req))), cabinet.own_endpoint(&actor, &id).await) {
            (Some(problem), Ok(endpoint)) => {
                let top = html! { p.error role="alert" { (problem) } };
                render_endpoint(&req, &actor, &endpoint, StatusCode::UNPROCESSABLE_ENTITY, top, None)
            }
            _ => failed(&req, &e),
        },
    }
}

pub async fn set_types(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, cabinet, id, form, async |cabinet, actor, id, fields| {
        cabinet.set_endpoint_types(actor, id, &fields.all("event_types")).await.map(|_| "types=1".to_owned())
    })
    .await
}

pub async fn enable(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, cabinet, id, form, async |cabinet, actor, id, _| {
        cabinet.set_endpoint_enabled(actor, id, true).await.map(|_| "enabled=1".to_owned())
    })
    .await
}

pub async fn disable(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, cabinet, id, form, async |cabinet, actor, id, _| {
        cabinet.set_endpoint_enabled(actor, id, false).await.map(|_| "disabled=1".to_owned())
    })
    .await
}

pub async fn rotate(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, cabinet, id, form, async |cabinet, actor, id, _| {
        cabinet.rotate_secret(actor, id).await.map(|_| "rotated=1".to_owned())
    })
    .await
}

pub async fn test(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, cabinet, id, form, async |cabinet, actor, id, _| {
        Ok(match cabinet.test_endpoint(actor, id).await? {
            TestOutcome::Sent(a) => format!(
                "test_code={}&test_ms={}",
                a.status_code.map_or("none".to_owned(), |c| c.to_string()),
                a.duration_ms
            ),
            TestOutcome::TooSoon { retry_after } => format!("test_wait={}", retry_after.whole_seconds()),
        })
    })
    .await
}

pub async fn replay(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    act(req, cabinet, id, form, async |cabinet, actor, id, fields| {
        let days: i64 = fields.get("days").parse().unwrap_or(0);
        cabinet.replay(actor, id, days).await.map(|n| format!("replayed={n}&days={days}"))
    })
    .await
}

/// The secret is shown in the answer to the post, never in an address.
pub async fn secret(req: HttpRequest, cabinet: Data<Cabinet>, id: Path<String>, form: SignedForm) -> HttpResponse {
    let SignedForm { actor, .. } = form;
    let Ok(id) = EndpointId::parse(&id) else { return not_found(&req, &actor) };
    match cabinet.endpoint_secret(&actor, &id).await {
        Ok((e, secret)) => render_endpoint(&req, &actor, &e, StatusCode::OK, html! {}, Some(&secret)),
        Err(AppError::NotFound(_)) => not_found(&req, &actor),
        Err(e) => failed(&req, &e),
    }
}
