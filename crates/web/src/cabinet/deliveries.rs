//! The delivery log of one address: every attempt with its event, response and duration,
//! filtered (failed only, one event type) and paged; and the body of an event as it was sent.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::DELIVERY_LOG_PAGE;
use vp_app::events::types::SUBSCRIBABLE;
use vp_app::{App, AppError};
use vp_ports::AttemptFilter;

use super::session;
use super::{Section, Shell, cursor, cursor_param, failed, query_value, webhooks, when};
use crate::pages::kit::escape;

pub async fn log(req: HttpRequest, app: Data<App>, id: Path<String>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let q = req.query_string();
    let event_type = query_value(q, "type").filter(|t| SUBSCRIBABLE.contains(&t.as_str()) || t == "webhook.test");
    let filter = AttemptFilter {
        failed_only: query_value(q, "failed").is_some_and(|v| v == "1"),
        event_type: event_type.clone(),
        before: cursor(q),
        limit: DELIVERY_LOG_PAGE,
    };
    let endpoint = match app.own_endpoint(&actor, &id).await {
        Ok(e) => e,
        Err(AppError::NotFound(_)) => return webhooks::not_found(&req, &app, &actor),
        Err(e) => return failed(&req, &e),
    };
    let attempts = match app.cabinet_delivery_log(&actor, &id, &filter).await {
        Ok(found) => found,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &app, &actor, Section::Webhooks);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let rows: String = attempts
        .iter()
        .map(|entry| {
            let a = &entry.attempt;
            let outcome = match (a.status_code, &a.error) {
                (Some(code), _) if (200..300).contains(&code) => format!("<span class=\"ok\">{code}</span>"),
                (Some(code), _) => format!("<span class=\"error\">{code}</span>"),
                (None, Some(err)) => format!("<span class=\"error\">{}</span>", escape(err)),
                (None, None) => format!("<span class=\"error\">{}</span>", t("no response", "нет ответа")),
            };
            format!(
                "<tr><td>{at}</td><td><code>{ty}</code></td><td><a href=\"/cabinet/events/{ev}\"><code>{ev}</code></a></td>\
                 <td>{n}</td><td>{outcome}</td><td>{ms} ms</td></tr>",
                at = when(a.attempted_at),
                ty = escape(&entry.event_type),
                ev = escape(&entry.event_id),
                n = a.attempt,
                ms = a.duration_ms,
            )
        })
        .collect();
    let kept = |extra: String| {
        let mut parts = vec![];
        if filter.failed_only {
            parts.push("failed=1".to_owned());
        }
        if let Some(ty) = &event_type {
            parts.push(format!("type={ty}"));
        }
        parts.push(extra);
        parts.join("&")
    };
    let older = match attempts.last() {
        Some(last) if attempts.len() as u32 == DELIVERY_LOG_PAGE => format!(
            "<p><a href=\"/cabinet/webhooks/{id}/deliveries?{q}\">{older}</a></p>",
            id = escape(&endpoint.id),
            q = escape(&kept(cursor_param(last.attempt.attempted_at, &last.attempt.id))),
            older = t("Older attempts", "Более ранние попытки"),
        ),
        _ => String::new(),
    };
    let options: String = std::iter::once("webhook.test")
        .chain(SUBSCRIBABLE)
        .map(|ty| {
            let selected = if event_type.as_deref() == Some(ty) { " selected" } else { "" };
            format!("<option value=\"{ty}\"{selected}>{ty}</option>")
        })
        .collect();
    let title = t("Delivery log", "Журнал доставки");
    let table = if attempts.is_empty() {
        format!("<p>{}</p>", t("No attempts match.", "Подходящих попыток нет."))
    } else {
        format!(
            "<div class=\"scroll\"><table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>\
             <tbody>{rows}</tbody></table></div>",
            t("Time", "Время"),
            t("Event", "Событие"),
            t("Event id", "Id события"),
            t("Attempt", "Попытка"),
            t("Response", "Ответ"),
            t("Duration", "Длительность"),
        )
    };
    let body = format!(
        "<h1>{title}</h1><p><a href=\"/cabinet/webhooks/{id}\"><code>{url}</code></a></p>\
         <form method=\"get\" action=\"/cabinet/webhooks/{id}/deliveries\">\
         <label class=\"check\"><input type=\"checkbox\" name=\"failed\" value=\"1\"{failed_checked}> {failed_l}</label>\
         <label for=\"type\">{type_l}</label><select id=\"type\" name=\"type\"><option value=\"\">{all}</option>{options}</select>\
         <p><button type=\"submit\">{apply}</button></p></form>{table}{older}",
        id = escape(&endpoint.id),
        url = escape(&endpoint.url),
        failed_checked = if filter.failed_only { " checked" } else { "" },
        failed_l = t("Failed attempts only", "Только неудачные попытки"),
        type_l = t("Event type", "Тип события"),
        all = t("All", "Все"),
        apply = t("Show", "Показать"),
    );
    shell.render_legacy(StatusCode::OK, title, &body)
}

pub async fn event(req: HttpRequest, app: Data<App>, id: Path<String>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let event = match app.cabinet_event(&actor, &id).await {
        Ok(e) => e,
        Err(AppError::NotFound(_)) => return webhooks::not_found(&req, &app, &actor),
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &app, &actor, Section::Webhooks);
    let pretty = serde_json::from_str::<serde_json::Value>(&event.body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| event.body.clone());
    let title = shell.t("Event", "Событие");
    let body = format!(
        "<h1>{title} <code>{ty}</code></h1><dl><dt>webhook-id</dt><dd><code>{id}</code></dd><dt>{at_l}</dt><dd>{at}</dd></dl>\
         <p class=\"muted\">{note}</p><pre>{pretty}</pre>",
        ty = escape(&event.event_type),
        id = escape(&event.id),
        at_l = shell.t("Happened", "Произошло"),
        at = when(event.occurred_at),
        note = shell.t(
            "The body exactly as it is sent, formatted for reading.",
            "Тело события в том виде, в каком оно отправляется, отформатировано для чтения."
        ),
        pretty = escape(&pretty),
    );
    shell.render_legacy(StatusCode::OK, title, &body)
}
