//! Webhook addresses: the list and the add form, one address's page (event types, disable and
//! re-enable, the secret and its rotation, the test button, replay), each change a form posted
//! with the session's token and answered with `303 See Other` back to the page.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::Actor;
use vp_app::events::{TestOutcome, types::SUBSCRIBABLE};
use vp_app::{App, AppError, Declined, Lang};
use vp_domain::limits::{WEBHOOK_ENDPOINTS_MAX as MAX_ENDPOINTS, WEBHOOK_REPLAY_DAYS as REPLAY_DAYS};
use vp_ports::{AddressRefused, WebhookEndpointRecord};

use super::session;
use super::{Fields, Section, Shell, failed, query_value, when};
use crate::pages::kit::escape;

type Posted = Form<Vec<(String, String)>>;

fn state(e: &WebhookEndpointRecord, lang: Lang) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    if e.enabled {
        return format!("<span class=\"ok\">{}</span>", t("enabled", "включён"));
    }
    let why = match e.disabled_reason.as_deref() {
        Some("gone") => t(
            "disabled automatically: your server answered 410 Gone",
            "отключён автоматически: ваш сервер ответил 410 Gone",
        ),
        Some("failing") => t(
            "disabled automatically: five days without an accepted delivery",
            "отключён автоматически: пять дней без принятой доставки",
        ),
        _ => t("disabled", "отключён"),
    };
    let since = e.disabled_at.map(|at| format!(" {} {}", t("since", "с"), when(at))).unwrap_or_default();
    format!("<span class=\"error\">{why}{since}</span>")
}

fn type_boxes(chosen: &[String]) -> String {
    SUBSCRIBABLE
        .iter()
        .map(|t| {
            let checked = if chosen.iter().any(|c| c == t) { " checked" } else { "" };
            format!("<label class=\"check\"><input type=\"checkbox\" name=\"event_types\" value=\"{t}\"{checked}> <code>{t}</code></label>")
        })
        .collect()
}

/// A refusal of the use case as the form shows it, in the page's language.
fn refusal(e: &AppError, lang: Lang) -> Option<String> {
    match (e, lang) {
        (AppError::Declined(Declined::TooManyEndpoints), Lang::En) => {
            Some(format!("An account has at most {MAX_ENDPOINTS} addresses; remove or reuse one."))
        }
        (AppError::Declined(Declined::TooManyEndpoints), Lang::Ru) => {
            Some(format!("У аккаунта не больше {MAX_ENDPOINTS} адресов; удалите или измените один из них."))
        }
        (AppError::Declined(d), Lang::En) => Some(d.to_string()),
        (AppError::Declined(d), Lang::Ru) => Some(declined_ru(d)),
        (AppError::Conflict(reason), _) => Some(reason.clone()),
        _ => None,
    }
}

fn declined_ru(d: &Declined) -> String {
    match d {
        Declined::EndpointAddress(refused) => match refused {
            AddressRefused::NotAUrl(_) => "Это не адрес URL.".to_owned(),
            AddressRefused::Credentials => "Логин и пароль в адресе не принимаются.".to_owned(),
            AddressRefused::NoHost => "В адресе нет имени сервера.".to_owned(),
            AddressRefused::NotHttps => "Принимаются только адреса https://.".to_owned(),
            AddressRefused::NotPort443 => "Принимается только порт 443.".to_owned(),
            AddressRefused::DoesNotResolve { host, .. } | AddressRefused::NoAddress { host } => {
                format!("Имя {host} не находится в DNS.")
            }
            AddressRefused::NotPublic { host, ip } => {
                format!("{host} указывает на {ip}, а это не общедоступный адрес.")
            }
        },
        Declined::NoEventTypes => "Отметьте хотя бы один тип событий.".to_owned(),
        Declined::UnknownEventType(t) => format!("Неизвестный тип событий {t:?}."),
        Declined::ReplayDays => "Выберите 1, 3, 7 или 30 дней.".to_owned(),
        Declined::EndpointDisabled => "Адрес выключен; сначала включите его.".to_owned(),
        Declined::TooManyEndpoints | Declined::Withdrawal(_) => d.to_string(),
    }
}

pub async fn list(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    render_list(&req, &app, &actor, StatusCode::OK, None, "", &[]).await
}

async fn render_list(
    req: &HttpRequest,
    app: &App,
    actor: &Actor,
    status: StatusCode,
    problem: Option<String>,
    url: &str,
    chosen: &[String],
) -> HttpResponse {
    let endpoints = match app.cabinet_endpoints(actor).await {
        Ok(all) => all,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, app, actor, Section::Webhooks);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let rows: String = endpoints
        .iter()
        .map(|e| {
            format!(
                "<tr><td><a href=\"/cabinet/webhooks/{id}\">{url}</a></td><td>{types}</td><td>{state}</td></tr>",
                id = escape(&e.id),
                url = escape(&e.url),
                types =
                    e.event_types.iter().map(|t| format!("<code>{}</code>", escape(t))).collect::<Vec<_>>().join(" "),
                state = state(e, shell.lang),
            )
        })
        .collect();
    let table = if endpoints.is_empty() {
        format!("<p>{}</p>", t("No addresses yet.", "Адресов пока нет."))
    } else {
        format!(
            "<div class=\"scroll\"><table><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table></div>",
            t("Address", "Адрес"),
            t("Events", "События"),
            t("State", "Состояние")
        )
    };
    let title = t("Webhook addresses", "Адреса для событий");
    let body = format!(
        "<h1>{title}</h1><p class=\"muted\">{intro}</p>{table}\
         <h2>{add}</h2>{problem}<form method=\"post\" action=\"/cabinet/webhooks\">{csrf}\
         <label for=\"url\">{url_label}</label><input id=\"url\" name=\"url\" type=\"url\" required \
         placeholder=\"https://hooks.example.com/vpn\" value=\"{url}\" aria-describedby=\"url_help\">\
         <p id=\"url_help\" class=\"muted\">{url_help}</p><fieldset><legend>{types_label}</legend>{boxes}</fieldset>\
         <p><button class=\"primary\" type=\"submit\">{add_button}</button></p></form>",
        intro = match shell.lang {
            Lang::En => format!(
                "Up to {MAX_ENDPOINTS} addresses. Each receives the events you tick, signed with its own secret."
            ),
            Lang::Ru =>
                format!("До {MAX_ENDPOINTS} адресов. Каждый получает отмеченные события, подписанные своим секретом."),
        },
        add = t("Add an address", "Добавить адрес"),
        problem = problem.map(|p| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(&p))).unwrap_or_default(),
        csrf = shell.csrf_legacy(),
        url_label = t("Address (https)", "Адрес (https)"),
        url = escape(url),
        url_help = t("https on port 443, reachable from the internet.", "https на порту 443, доступный из интернета."),
        types_label = t("Events", "События"),
        boxes = type_boxes(chosen),
        add_button = t("Add the address", "Добавить адрес"),
    );
    shell.render_legacy(status, title, &body)
}

pub async fn add(req: HttpRequest, app: Data<App>, form: Posted) -> HttpResponse {
    let (actor, fields) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    let (url, chosen) = (fields.get("url"), fields.all("event_types"));
    match app.cabinet_add_endpoint(&actor, url, &chosen).await {
        Ok(e) => session::see_other(&format!("/cabinet/webhooks/{}?added=1", e.id)),
        Err(e) => match refusal(&e, session::lang(&req)) {
            Some(problem) => {
                render_list(&req, &app, &actor, StatusCode::UNPROCESSABLE_ENTITY, Some(problem), url, &chosen).await
            }
            None => failed(&req, &e),
        },
    }
}

/// What the address page says at its top after an action (from the redirect's query).
fn notice(req: &HttpRequest, lang: Lang, endpoint: &WebhookEndpointRecord) -> String {
    let q = req.query_string();
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let ok = |text: String| format!("<p class=\"ok\" role=\"status\">{text}</p>");
    if let Some(code) = query_value(q, "test_code") {
        let ms = query_value(q, "test_ms").unwrap_or_default();
        let shown = if code == "none" { t("no response", "нет ответа").to_owned() } else { code };
        return format!(
            "<p role=\"status\" id=\"test-result\">{} <strong>{}</strong>, {} {} ms</p>",
            t("Test event sent: response", "Тестовое событие отправлено: ответ"),
            escape(&shown),
            t("time", "время"),
            escape(&ms)
        );
    }
    if let Some(wait) = query_value(q, "test_wait") {
        return format!(
            "<p class=\"error\" role=\"alert\">{} {} {}</p>",
            t("At most 5 test events a minute. Try again in", "Не больше 5 тестовых событий в минуту. Повторите через"),
            escape(&wait),
            t("seconds.", "с.")
        );
    }
    if let Some(n) = query_value(q, "replayed") {
        let days = query_value(q, "days").unwrap_or_default();
        return ok(match lang {
            Lang::En => {
                format!("{} undelivered events of the last {} days are queued again.", escape(&n), escape(&days))
            }
            Lang::Ru => format!("Недоставленных событий за {} дн. снова в очереди: {}.", escape(&days), escape(&n)),
        });
    }
    if q.contains("rotated=1") {
        let until = endpoint.previous_secret_valid_until().map(when).unwrap_or_default();
        return ok(match lang {
            Lang::En => format!(
                "A new secret is in use. Until {until} events are signed with both the old and the new one: switch your server over by then."
            ),
            Lang::Ru => format!(
                "Действует новый секрет. До {until} события подписываются и старым, и новым: переключите сервер до этого времени."
            ),
        });
    }
    if q.contains("enabled=1") {
        return ok(t(
            "The address is enabled. Events it missed while disabled can be replayed below.",
            "Адрес включён. Пропущенные за время отключения события можно отправить повторно ниже.",
        )
        .to_owned());
    }
    let simple = [
        ("added=1", t("The address is added.", "Адрес добавлен.")),
        (
            "disabled=1",
            t(
                "The address is disabled; its pending events wait for a replay.",
                "Адрес отключён; ожидающие события ждут повторной отправки.",
            ),
        ),
        ("types=1", t("The event types are saved.", "Типы событий сохранены.")),
    ];
    simple.iter().find(|(k, _)| q.contains(k)).map(|(_, text)| ok((*text).to_owned())).unwrap_or_default()
}

pub async fn show(req: HttpRequest, app: Data<App>, id: Path<String>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    match app.own_endpoint(&actor, &id).await {
        Ok(endpoint) => render_endpoint(&req, &app, &actor, &endpoint, StatusCode::OK, None, None),
        Err(AppError::NotFound(_)) => not_found(&req, &app, &actor),
        Err(e) => failed(&req, &e),
    }
}

pub(super) fn not_found(req: &HttpRequest, app: &App, actor: &Actor) -> HttpResponse {
    let shell = Shell::new(req, app, actor, Section::Webhooks);
    shell.not_found(
        shell.t("There is no such address in your account.", "В вашем аккаунте нет такого адреса."),
        "/cabinet/webhooks",
        shell.t("All addresses", "Все адреса"),
    )
}

fn render_endpoint(
    req: &HttpRequest,
    app: &App,
    actor: &Actor,
    e: &WebhookEndpointRecord,
    status: StatusCode,
    problem: Option<String>,
    secret: Option<&str>,
) -> HttpResponse {
    let shell = Shell::new(req, app, actor, Section::Webhooks);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let id = escape(&e.id);
    let csrf = shell.csrf_legacy();
    let action = |path: &str, label: &str, class: &str| {
        format!(
            "<form class=\"inline\" method=\"post\" action=\"/cabinet/webhooks/{id}/{path}\">{csrf}\
             <button class=\"{class}\" type=\"submit\">{label}</button></form>"
        )
    };
    let switch = if e.enabled {
        action("disable", t("Disable", "Отключить"), "")
    } else {
        action("enable", t("Enable again", "Включить снова"), "primary")
    };
    let secret_block = match secret {
        Some(s) => format!(
            "<p><code id=\"secret\">{}</code></p><p class=\"muted\">{}</p>",
            escape(s),
            t("Keep it on your server only.", "Храните его только на своём сервере.")
        ),
        None => action("secret", t("Show the secret", "Показать секрет"), ""),
    };
    let days: String = REPLAY_DAYS.iter().map(|d| format!("<option value=\"{d}\">{d}</option>")).collect();
    let title = t("Webhook address", "Адрес для событий");
    let body = format!(
        "<h1>{title}</h1>{notice}{problem}<p><code>{url}</code></p><dl>\
         <dt>{state_l}</dt><dd>{state}</dd><dt>{added_l}</dt><dd>{added}</dd></dl>\
         <p>{switch} <a class=\"button\" href=\"/cabinet/webhooks/{id}/deliveries\">{log}</a></p>\
         <h2>{test_h}</h2><p class=\"muted\">{test_help}</p>{test}\
         <h2>{types_h}</h2><form method=\"post\" action=\"/cabinet/webhooks/{id}/types\">{csrf}\
         <fieldset><legend>{types_h}</legend>{boxes}</fieldset><p><button type=\"submit\">{save}</button></p></form>\
         <h2>{secret_h}</h2><p class=\"muted\">{secret_help}</p>{secret_block}\
         <p>{rotate}</p>\
         <h2>{replay_h}</h2><p class=\"muted\">{replay_help}</p>\
         <form method=\"post\" action=\"/cabinet/webhooks/{id}/replay\">{csrf}\
         <label for=\"days\">{days_l}</label><select id=\"days\" name=\"days\">{days}</select>\
         <p><button type=\"submit\">{replay}</button></p></form>",
        notice = notice(req, shell.lang, e),
        problem = problem.map(|p| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(&p))).unwrap_or_default(),
        url = escape(&e.url),
        state_l = t("State", "Состояние"),
        state = state(e, shell.lang),
        added_l = t("Added", "Добавлен"),
        added = when(e.created_at),
        log = t("Delivery log", "Журнал доставки"),
        test_h = t("Test", "Проверка"),
        test_help = t(
            "Sends a webhook.test event now and shows your server's response code and time.",
            "Отправляет событие webhook.test и показывает код ответа вашего сервера и время."
        ),
        test = action("test", t("Send a test event", "Отправить тестовое событие"), "primary"),
        types_h = t("Events", "События"),
        boxes = type_boxes(&e.event_types),
        save = t("Save the events", "Сохранить события"),
        secret_h = t("Signing secret", "Секрет подписи"),
        secret_help = t(
            "Check the webhook-signature header of every event with it.",
            "Проверяйте им заголовок webhook-signature каждого события."
        ),
        rotate = action("rotate", t("Rotate the secret", "Заменить секрет"), ""),
        replay_h = t("Replay", "Повторная отправка"),
        replay_help = t(
            "Sends again the events this address did not accept, with a fresh schedule of attempts.",
            "Снова отправляет события, которые адрес не принял, с новым расписанием попыток."
        ),
        days_l = t("Undelivered events of the last ... days", "Недоставленные события за последние ... дней"),
        replay = t("Replay", "Отправить повторно"),
    );
    shell.render_legacy(status, title, &body)
}

/// Runs one action on the actor's address and goes back to its page with what happened.
async fn act(
    req: HttpRequest,
    app: Data<App>,
    id: Path<String>,
    form: Posted,
    run: impl AsyncFnOnce(&App, &Actor, &str, &Fields) -> Result<String, AppError>,
) -> HttpResponse {
    let (actor, fields) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    match run(&app, &actor, &id, &fields).await {
        Ok(query) => session::see_other(&format!("/cabinet/webhooks/{id}?{query}")),
        Err(AppError::NotFound(_)) => not_found(&req, &app, &actor),
        Err(e) => match (refusal(&e, session::lang(&req)), app.own_endpoint(&actor, &id).await) {
            (Some(problem), Ok(endpoint)) => {
                render_endpoint(&req, &app, &actor, &endpoint, StatusCode::UNPROCESSABLE_ENTITY, Some(problem), None)
            }
            _ => failed(&req, &e),
        },
    }
}

pub async fn set_types(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    act(req, app, id, form, async |app, actor, id, fields| {
        app.cabinet_set_endpoint_types(actor, id, &fields.all("event_types")).await.map(|_| "types=1".to_owned())
    })
    .await
}

pub async fn enable(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    act(req, app, id, form, async |app, actor, id, _| {
        app.cabinet_set_endpoint_enabled(actor, id, true).await.map(|_| "enabled=1".to_owned())
    })
    .await
}

pub async fn disable(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    act(req, app, id, form, async |app, actor, id, _| {
        app.cabinet_set_endpoint_enabled(actor, id, false).await.map(|_| "disabled=1".to_owned())
    })
    .await
}

pub async fn rotate(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    act(req, app, id, form, async |app, actor, id, _| {
        app.cabinet_rotate_secret(actor, id).await.map(|_| "rotated=1".to_owned())
    })
    .await
}

pub async fn test(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    act(req, app, id, form, async |app, actor, id, _| {
        Ok(match app.cabinet_test_endpoint(actor, id).await? {
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

pub async fn replay(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    act(req, app, id, form, async |app, actor, id, fields| {
        let days: i64 = fields.get("days").parse().unwrap_or(0);
        app.cabinet_replay(actor, id, days).await.map(|n| format!("replayed={n}&days={days}"))
    })
    .await
}

/// The secret is shown in the answer to the post, never in an address.
pub async fn secret(req: HttpRequest, app: Data<App>, id: Path<String>, form: Posted) -> HttpResponse {
    let (actor, _) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    match app.cabinet_endpoint_secret(&actor, &id).await {
        Ok(e) => render_endpoint(&req, &app, &actor, &e, StatusCode::OK, None, Some(&e.secret)),
        Err(AppError::NotFound(_)) => not_found(&req, &app, &actor),
        Err(e) => failed(&req, &e),
    }
}
