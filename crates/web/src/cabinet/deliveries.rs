//! The delivery log of one address: every attempt with its event, response and duration,
//! filtered (failed only, one event type) and paged; and the body of an event as it was sent.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use maud::html;
use serde::Deserialize;
use vp_app::AppError;
use vp_app::cabinet::Cabinet;
use vp_app::cabinet::DELIVERY_LOG_PAGE;
use vp_app::events::types::SUBSCRIBABLE;
use vp_domain::{EndpointId, EventId};
use vp_ports::AttemptFilter;

use super::{ListQuery, Section, Shell, SignedIn, cursor_value, failed, webhooks, when};
use crate::pages::kit::{self, Column};

/// The log's filter: `?failed=1` for failed attempts only, `?type=` for one event type (one
/// the log does not know shows every type).
#[derive(Debug, Deserialize)]
pub struct LogFilter {
    failed: Option<String>,
    #[serde(rename = "type")]
    event_type: Option<String>,
}

pub async fn log(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    id: Path<String>,
    list: Query<ListQuery>,
    shown: Query<LogFilter>,
) -> HttpResponse {
    let event_type = shown.event_type.clone().filter(|t| SUBSCRIBABLE.contains(&t.as_str()) || t == "webhook.test");
    let filter = AttemptFilter {
        failed_only: shown.failed.as_deref() == Some("1"),
        event_type: event_type.clone(),
        before: list.cursor(),
        limit: DELIVERY_LOG_PAGE,
    };
    let Ok(id) = EndpointId::parse(&id) else { return webhooks::not_found(&req, &actor) };
    let endpoint = match cabinet.own_endpoint(&actor, &id).await {
        Ok(e) => e,
        Err(AppError::NotFound(_)) => return webhooks::not_found(&req, &actor),
        Err(e) => return failed(&req, &e),
    };
    let attempts = match cabinet.delivery_log(&actor, &id, &filter).await {
        Ok(found) => found,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Webhooks);
    let tx = shell.tx;
    // The next page keeps the filter.
    let older = attempts.last().filter(|_| attempts.len() as u32 == DELIVERY_LOG_PAGE).map(|last| {
        let mut parts = vec![];
        if filter.failed_only {
            parts.push("failed=1".to_owned());
        }
        if let Some(ty) = &event_type {
            parts.push(format!("type={ty}"));
        }
        parts.push(format!("before={}", cursor_value(last.attempt.attempted_at, &last.attempt.id)));
        parts.join("&")
    });
    let columns = [
        "cabinet-deliveries-time",
        "cabinet-deliveries-event",
        "cabinet-deliveries-event-id",
        "cabinet-deliveries-attempt",
        "cabinet-deliveries-response",
        "cabinet-deliveries-duration",
    ]
    .map(|key| Column::text(tx.get(key)));
    let title = tx.get("cabinet-deliveries-title");
    let body = html! {
        h1 { (title) }
        p { a href={ "/cabinet/webhooks/" (endpoint.id) } { code { (endpoint.url) } } }
        form method="get" action={ "/cabinet/webhooks/" (endpoint.id) "/deliveries" } {
            label.check {
                input type="checkbox" name="failed" value="1" checked[filter.failed_only];
                " " (tx.get("cabinet-deliveries-failed-only"))
            }
            label for="type" { (tx.get("cabinet-deliveries-event-type")) }
            select id="type" name="type" {
                option value="" { (tx.get("cabinet-deliveries-all")) }
                @for ty in std::iter::once("webhook.test").chain(SUBSCRIBABLE) {
                    option value=(ty) selected[event_type.as_deref() == Some(ty)] { (ty) }
                }
            }
            p { button type="submit" { (tx.get("cabinet-deliveries-show")) } }
        }
        @if attempts.is_empty() {
            p { (tx.get("cabinet-deliveries-none")) }
        } @else {
            (kit::table(&columns, attempts.iter().map(|entry| {
                let a = &entry.attempt;
                let outcome = match (a.status_code, &a.error) {
                    (Some(code), _) if (200..300).contains(&code) => html! { span.ok { (code) } },
                    (Some(code), _) => html! { span.error { (code) } },
                    (None, Some(err)) => html! { span.error { code { (err) } } },
                    (None, None) => html! { span.error { (tx.get("cabinet-deliveries-no-response")) } },
                };
                vec![
                    html! { (when(shell.zone(), a.attempted_at)) },
                    html! { code { (entry.event_type) } },
                    html! { a href={ "/cabinet/events/" (entry.event_id) } { code { (entry.event_id) } } },
                    html! { (a.attempt) },
                    outcome,
                    html! { (tx.with("cabinet-deliveries-ms", &[("ms", a.duration_ms.into())])) },
                ]
            })))
        }
        @if let Some(query) = older {
            p { a href={ "/cabinet/webhooks/" (endpoint.id) "/deliveries?" (query) } { (tx.get("cabinet-deliveries-older")) } }
        }
    };
    shell.render(StatusCode::OK, &title, body)
}

pub async fn event(
    req: HttpRequest,
    cabinet: Data<Cabinet>,
    SignedIn(actor): SignedIn,
    id: Path<String>,
) -> HttpResponse {
    let Ok(id) = EventId::parse(&id) else { return webhooks::not_found(&req, &actor) };
    let event = match cabinet.event(&actor, &id).await {
        Ok(e) => e,
        Err(AppError::NotFound(_)) => return webhooks::not_found(&req, &actor),
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &actor, Section::Webhooks);
    let tx = shell.tx;
    let pretty = serde_json::from_str::<serde_json::Value>(&event.body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| event.body.clone());
    let title = tx.get("cabinet-deliveries-event-title");
    let body = html! {
        h1 { (title) " " code { (event.event_type) } }
        dl {
            dt { "webhook-id" } dd { code { (event.id) } }
            dt { (tx.get("cabinet-deliveries-happened")) } dd { (when(shell.zone(), event.occurred_at)) }
        }
        p.muted { (tx.get("cabinet-deliveries-body-note")) }
        pre { (pretty) }
    };
    shell.render(StatusCode::OK, &title, body)
}
