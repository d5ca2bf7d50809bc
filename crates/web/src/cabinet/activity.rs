//! The Activity page: the account's audit log, newest first, fifty a page.

use actix_web::http::StatusCode;
use actix_web::web::Data;
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::audit;
use vp_app::{App, Lang};

use super::session;
use super::{Section, Shell, cursor, failed, when};
use crate::pages::kit::escape;

/// What an action is called on the page.
fn action_name(action: &str, lang: Lang) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru).to_owned();
    match action {
        audit::USER_INVITED => t("user invited", "приглашён пользователь"),
        audit::USER_RESET_LINK => t("password reset link issued", "выдана ссылка для нового пароля"),
        audit::USER_REVOKED => t("user access ended", "доступ пользователя закрыт"),
        audit::PASSWORD_SET => t("password set", "задан пароль"),
        audit::SIGNED_IN => t("signed in", "вход"),
        audit::SIGNED_OUT => t("signed out", "выход"),
        audit::BRAND_RENAMED => t("brand name changed", "изменено название бренда"),
        audit::ENDPOINT_ADDED => t("webhook address added", "добавлен адрес для событий"),
        audit::ENDPOINT_TYPES_CHANGED => t("webhook events changed", "изменены события адреса"),
        audit::ENDPOINT_ENABLED => t("webhook address enabled", "адрес для событий включён"),
        audit::ENDPOINT_DISABLED => t("webhook address disabled", "адрес для событий отключён"),
        audit::ENDPOINT_SECRET_REVEALED => t("signing secret shown", "показан секрет подписи"),
        audit::ENDPOINT_SECRET_ROTATED => t("signing secret rotated", "заменён секрет подписи"),
        audit::ENDPOINT_TESTED => t("test event sent", "отправлено тестовое событие"),
        audit::ENDPOINT_REPLAYED => t("undelivered events replayed", "повторно отправлены события"),
        audit::WITHDRAWAL_REQUESTED => t("withdrawal requested", "запрошен вывод средств"),
        audit::WITHDRAWAL_APPROVED => t("withdrawal approved", "вывод одобрен"),
        audit::WITHDRAWAL_REJECTED => t("withdrawal rejected", "вывод отклонён"),
        audit::WITHDRAWAL_PAID => t("withdrawal paid out", "вывод выплачен"),
        audit::CHAT_LINKED => t("Telegram chat linked", "подключён чат Telegram"),
        audit::CHAT_UNLINKED => t("Telegram chat unlinked", "отключён чат Telegram"),
        other => other.to_owned(),
    }
}

pub async fn show(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let entries = match app.activity(&actor, cursor(req.query_string())).await {
        Ok(entries) => entries,
        Err(e) => return failed(&req, &e),
    };
    let shell = Shell::new(&req, &app, &actor, Section::Activity);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let rows: String = entries
        .iter()
        .map(|e| {
            format!(
                "<tr><td>{at}</td><td>{who}</td><td>{what}</td><td>{detail}</td></tr>",
                at = when(e.at),
                who = escape(&e.actor),
                what = escape(&action_name(&e.action, shell.lang)),
                detail = escape(&e.detail),
            )
        })
        .collect();
    let last = entries.last().map(|e| (e.at, e.id.as_str()));
    let older = shell.older_link("/cabinet/activity", entries.len(), audit::ACTIVITY_PAGE, last);
    let title = t("Activity", "Журнал действий");
    let body = if entries.is_empty() {
        format!("<h1>{title}</h1><p>{}</p>", t("Nothing has happened yet.", "Пока ничего не происходило."))
    } else {
        format!(
            "<h1>{title}</h1><div class=\"scroll\"><table><thead><tr><th>{when_h}</th><th>{who_h}</th><th>{what_h}</th>\
             <th>{detail_h}</th></tr></thead><tbody>{rows}</tbody></table></div>{older}",
            when_h = t("When", "Когда"),
            who_h = t("Who", "Кто"),
            what_h = t("What", "Что"),
            detail_h = t("Details", "Подробности"),
        )
    };
    shell.render(StatusCode::OK, title, &body)
}
