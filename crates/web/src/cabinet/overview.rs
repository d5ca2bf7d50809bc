//! The overview: the account as the platform set it up, the editable brand name, the keys'
//! prefixes and dates, the limits in force and shortcuts to the rest.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Form};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::Actor;
use vp_app::{App, AppError};
use vp_domain::limits::BRAND_NAME_MAX_CHARS;

use super::session;
use super::{Section, Shell, failed, when};
use crate::pages::kit::escape;

pub async fn show(req: HttpRequest, app: Data<App>) -> HttpResponse {
    let actor = match session::actor(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let saved = req.query_string().split('&').any(|p| p == "saved=brand");
    render(&req, &app, &actor, StatusCode::OK, None, saved).await
}

pub async fn rename(req: HttpRequest, app: Data<App>, form: Form<Vec<(String, String)>>) -> HttpResponse {
    let (actor, fields) = match session::posted(&req, &app, form).await {
        Ok(found) => found,
        Err(res) => return res,
    };
    match app.cabinet_rename_brand(&actor, fields.get("brand_name")).await {
        Ok(_) => session::see_other("/cabinet?saved=brand"),
        Err(AppError::Validation(_)) => {
            let problem = match session::lang(&req) {
                vp_app::Lang::En => {
                    format!("The brand name must be 1 to {BRAND_NAME_MAX_CHARS} characters on one line.")
                }
                vp_app::Lang::Ru => format!("Название бренда: от 1 до {BRAND_NAME_MAX_CHARS} символов в одну строку."),
            };
            render(&req, &app, &actor, StatusCode::UNPROCESSABLE_ENTITY, Some(problem), false).await
        }
        Err(e) => failed(&req, &e),
    }
}

async fn render(
    req: &HttpRequest,
    app: &App,
    actor: &Actor,
    status: StatusCode,
    problem: Option<String>,
    saved: bool,
) -> HttpResponse {
    let (overview, limits) = match app.cabinet_overview(actor).await {
        Ok(found) => found,
        Err(e) => return failed(req, &e),
    };
    let shell = Shell::new(req, app, actor, Section::Overview);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let account = &overview.account;
    let on_off = |on: bool| if on { t("on", "включён") } else { t("off", "выключен") };
    let keys: String = overview
        .keys
        .iter()
        .map(|k| {
            format!(
                "<tr><td><code>{prefix}…</code></td><td>{created}</td><td>{state}</td></tr>",
                prefix = escape(&k.prefix),
                created = when(k.created_at),
                state = match k.revoked_at {
                    Some(at) => format!("{} {}", t("revoked", "отозван"), when(at)),
                    None => t("active", "действует").to_owned(),
                },
            )
        })
        .collect();
    let message = match (problem, saved) {
        (Some(p), _) => format!("<p class=\"error\" role=\"alert\">{}</p>", escape(&p)),
        (None, true) => {
            format!("<p class=\"ok\" role=\"status\">{}</p>", t("The brand name is saved.", "Название сохранено."))
        }
        (None, false) => String::new(),
    };
    let title = t("Overview", "Обзор");
    let body = format!(
        "<h1>{title}</h1>{message}\
         <form method=\"post\" action=\"/cabinet/brand\">{csrf}\
         <label for=\"brand_name\">{brand_label}</label>\
         <input id=\"brand_name\" name=\"brand_name\" type=\"text\" required maxlength=\"{max}\" value=\"{brand}\" \
         aria-describedby=\"brand_help\"><p id=\"brand_help\" class=\"muted\">{brand_help}</p>\
         <p><button type=\"submit\">{save}</button></p></form>\
         <h2>{account_heading}</h2><dl>\
         <dt>{id_label}</dt><dd><code>{id}</code></dd>\
         <dt>{markup_label}</dt><dd>{markup} %</dd>\
         <dt>{trial_label}</dt><dd>{trial}</dd>\
         <dt>{api_label}</dt><dd>{api}</dd>\
         <dt>{balance_label}</dt><dd><a href=\"/cabinet/balance\">{balance}</a></dd></dl>\
         <h2>{keys_heading}</h2><p class=\"muted\">{keys_help}</p>\
         <div class=\"scroll\"><table><thead><tr><th>{prefix_h}</th><th>{issued_h}</th><th>{state_h}</th></tr></thead>\
         <tbody>{keys}</tbody></table></div>\
         <h2>{limits_heading}</h2><dl>\
         <dt>{rpm}</dt><dd>{rpm_v}</dd><dt>{ppm}</dt><dd>{ppm_v}</dd>\
         <dt>{ncd}</dt><dd>{ncd_v}</dd><dt>{tpd}</dt><dd>{tpd_v}</dd></dl>\
         <p class=\"muted\">{limits_help}</p>\
         <h2>{more}</h2><ul><li><a href=\"/cabinet/webhooks\">{webhooks}</a></li>\
         <li><a href=\"/cabinet/balance\">{balance_link}</a></li>\
         <li><a href=\"/cabinet/clients\">{clients}</a></li>\
         <li><a href=\"/cabinet/notices\">{notices}</a></li>\
         <li><a href=\"/cabinet/activity\">{activity}</a></li></ul>",
        csrf = shell.csrf_field(),
        brand_label = t("Brand name", "Название бренда"),
        max = BRAND_NAME_MAX_CHARS,
        brand = escape(account.brand_name.as_str()),
        brand_help = t(
            "Shown to your customers on payment pages, documents and in VPN apps.",
            "Его видят ваши покупатели на страницах оплаты, в документах и в VPN-приложениях."
        ),
        save = t("Save the name", "Сохранить название"),
        account_heading = t("Account", "Аккаунт"),
        id_label = t("Account id", "Идентификатор"),
        id = escape(&account.id),
        markup_label = t("Markup", "Наценка"),
        markup = account.markup,
        trial_label = t("Trial", "Пробный период"),
        trial = on_off(account.trial_enabled),
        api_label = t("API access", "Доступ к API"),
        api = if account.api_enabled {
            t("enabled", "включён")
        } else {
            t("disabled by the platform", "отключён платформой")
        },
        balance_label = t("Available balance", "Доступный баланс"),
        balance = vp_i18n::money(shell.lang, overview.balance.available),
        keys_heading = t("API keys", "Ключи API"),
        keys_help = t(
            "Keys are issued by the platform and shown only once; here are their first characters.",
            "Ключи выдаёт платформа и показывает один раз; здесь их первые символы."
        ),
        prefix_h = t("Key", "Ключ"),
        issued_h = t("Issued", "Выдан"),
        state_h = t("State", "Состояние"),
        limits_heading = t("Limits in force", "Действующие лимиты"),
        rpm = t("Requests per minute", "Запросов в минуту"),
        rpm_v = limits.requests_per_minute,
        ppm = t("Invoices per minute", "Счетов в минуту"),
        ppm_v = limits.payments_per_minute,
        ncd = t("New clients per day", "Новых клиентов в сутки"),
        ncd_v = limits.new_clients_per_day,
        tpd = t("Trials per day", "Пробных периодов в сутки"),
        tpd_v = limits.trials_per_day,
        limits_help =
            t("Higher limits are arranged with the platform.", "Более высокие лимиты согласуются с платформой."),
        more = t("More", "Ещё"),
        webhooks =
            t("Webhook addresses, secrets and the delivery log", "Адреса для событий, секреты и журнал доставки"),
        balance_link = t("Balance, ledger and withdrawals", "Баланс, движение средств и вывод"),
        clients = t("Clients: subscriptions, devices and invoices", "Клиенты: подписки, устройства и счета"),
        notices = t("Notices from the platform and Telegram", "Уведомления платформы и Telegram"),
        activity = t("Activity: who did what in the cabinet", "Журнал: кто и что делал в кабинете"),
    );
    shell.render(status, title, &body)
}
