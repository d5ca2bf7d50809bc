//! Clients for the partner's support staff: the list with a status filter and a search by
//! `client_id`, and one client's subscription, devices and invoices. Read-only.

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::cabinet::{CLIENT_INVOICES, ClientDetail};
use vp_app::partner::{CLIENT_PAGE_DEFAULT, ClientListQuery};
use vp_app::views::{ClientView, SubscriptionView};
use vp_app::{App, AppError, Lang};
use vp_domain::{InvoiceStatus, Purpose, SubscriptionStatus};

use super::session;
use super::{Section, Shell, failed, when};
use crate::pages::kit::escape;

/// The list's status filter as its links write it; `none`: clients without a subscription.
const FILTERS: [&str; 5] = ["all", "active", "expired", "suspended", "none"];

fn filter_name(filter: &str, lang: Lang) -> &'static str {
    match filter {
        "active" => lang.pick_str("active", "активные"),
        "expired" => lang.pick_str("expired", "истёкшие"),
        "suspended" => lang.pick_str("suspended", "приостановленные"),
        "none" => lang.pick_str("never subscribed", "без подписки"),
        _ => lang.pick_str("all", "все"),
    }
}

fn status_name(s: Option<&SubscriptionView>, lang: Lang) -> String {
    let Some(s) = s else { return lang.pick_str("no subscription", "нет подписки").to_owned() };
    let status = match s.status {
        SubscriptionStatus::Active => lang.pick_str("active", "активна"),
        SubscriptionStatus::Expired => lang.pick_str("expired", "истекла"),
        SubscriptionStatus::Suspended => lang.pick_str("suspended", "приостановлена"),
    };
    if s.is_trial { format!("{status} ({})", lang.pick_str("trial", "пробная")) } else { status.to_owned() }
}

fn expiry(s: Option<&SubscriptionView>, lang: Lang) -> String {
    match s {
        Some(s) if s.lifetime => lang.pick_str("lifetime", "бессрочно").to_owned(),
        Some(s) => when(s.expires_at),
        None => "—".to_owned(),
    }
}

fn client_href(client_id: &str) -> String {
    format!("/cabinet/clients/{}", escape(client_id))
}

pub async fn list(req: HttpRequest, app: Data<App>, query: Option<Query<Vec<(String, String)>>>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let pairs = query.map(Query::into_inner).unwrap_or_default();
    let value = |name: &str| pairs.iter().find(|(k, v)| k == name && !v.is_empty()).map(|(_, v)| v.trim().to_owned());
    let shell = Shell::new(&req, &app, &actor, Section::Clients);
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let mut message = String::new();
    let search = value("client_id").unwrap_or_default();
    if !search.is_empty() {
        match app.cabinet_client(&actor, &search).await {
            Ok(_) => return session::see_other(&format!("/cabinet/clients/{search}")),
            Err(AppError::NotFound(_)) => {
                message = format!(
                    "<p class=\"error\" role=\"alert\">{} <code>{}</code></p>",
                    t("No client of yours has the id", "У вас нет клиента с идентификатором"),
                    escape(&search)
                );
            }
            Err(e) => return failed(&req, &e),
        }
    }
    let filter = value("status").filter(|f| FILTERS.contains(&f.as_str())).unwrap_or_else(|| "all".to_owned());
    let status = match filter.as_str() {
        "all" => None,
        "none" => Some(None),
        other => other.parse::<SubscriptionStatus>().ok().map(Some),
    };
    let page = match app
        .cabinet_clients(&actor, ClientListQuery { status, limit: Some(CLIENT_PAGE_DEFAULT), cursor: value("cursor") })
        .await
    {
        Ok(page) => page,
        // A cursor that does not read starts the list over.
        Err(AppError::Validation(_)) => return session::see_other(&format!("/cabinet/clients?status={filter}")),
        Err(e) => return failed(&req, &e),
    };
    let filters: String = FILTERS
        .iter()
        .map(|f| {
            let current = if *f == filter { " aria-current=\"page\"" } else { "" };
            format!("<a href=\"/cabinet/clients?status={f}\"{current}>{}</a>", filter_name(f, shell.lang))
        })
        .collect();
    let rows: String = page
        .clients
        .iter()
        .map(|c| {
            format!(
                "<tr><td><a href=\"{href}\"><code>{id}</code></a></td><td>{status}</td><td>{expires}</td>\
                 <td>{created}</td></tr>",
                href = client_href(&c.client_id),
                id = escape(&c.client_id),
                status = escape(&status_name(c.subscription.as_ref(), shell.lang)),
                expires = escape(&expiry(c.subscription.as_ref(), shell.lang)),
                created = when(c.created_at),
            )
        })
        .collect();
    let table = if page.clients.is_empty() {
        format!("<p>{}</p>", t("No clients here.", "Здесь нет клиентов."))
    } else {
        format!(
            "<div class=\"scroll\"><table><thead><tr><th>client_id</th><th>{status}</th><th>{expires}</th>\
             <th>{created}</th></tr></thead><tbody>{rows}</tbody></table></div>",
            status = t("Subscription", "Подписка"),
            expires = t("Until", "До"),
            created = t("Since", "С нами с"),
        )
    };
    let more = match &page.next_cursor {
        Some(c) => format!(
            "<p><a href=\"/cabinet/clients?status={filter}&amp;cursor={}\">{}</a></p>",
            escape(c),
            t("More clients", "Ещё клиенты")
        ),
        None => String::new(),
    };
    let title = t("Clients", "Клиенты");
    let body = format!(
        "<h1>{title}</h1>{message}\
         <form method=\"get\" action=\"/cabinet/clients\" role=\"search\"><label for=\"client_id\">{find}</label>\
         <div class=\"copy\"><input id=\"client_id\" name=\"client_id\" type=\"text\" autocomplete=\"off\" value=\"{search}\">\
         <button type=\"submit\">{go}</button></div></form>\
         <nav class=\"choices\" aria-label=\"{filter_label}\">{filters}</nav>{table}{more}",
        find = t("Find a client by client_id", "Найти клиента по client_id"),
        search = escape(&search),
        go = t("Find", "Найти"),
        filter_label = t("Subscription status", "Статус подписки"),
    );
    shell.render_legacy(if message.is_empty() { StatusCode::OK } else { StatusCode::NOT_FOUND }, title, &body)
}

pub async fn show(req: HttpRequest, app: Data<App>, client_id: Path<String>) -> HttpResponse {
    let actor = match session::actor_legacy(&req, &app).await {
        Ok(actor) => actor,
        Err(res) => return res,
    };
    let shell = Shell::new(&req, &app, &actor, Section::Clients);
    let detail = match app.cabinet_client(&actor, &client_id).await {
        Ok(detail) => detail,
        Err(AppError::NotFound(_)) => {
            return shell.not_found(
                shell.t("There is no such client in your account.", "В вашем аккаунте нет такого клиента."),
                "/cabinet/clients",
                shell.t("All clients", "Все клиенты"),
            );
        }
        Err(e) => return failed(&req, &e),
    };
    let title = shell.t("Client", "Клиент");
    let body = format!(
        "<h1>{title} <code>{id}</code></h1>{client}{devices}{invoices}<p><a href=\"/cabinet/clients\">{back}</a></p>",
        id = escape(&detail.client.client_id),
        client = client_section(&shell, &detail),
        devices = devices_section(&shell, &detail),
        invoices = invoices_section(&shell, &detail),
        back = shell.t("All clients", "Все клиенты"),
    );
    shell.render_legacy(StatusCode::OK, title, &body)
}

fn client_section(shell: &Shell<'_>, d: &ClientDetail) -> String {
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let c: &ClientView = &d.client;
    let s = c.subscription.as_ref();
    let blocked = if d.blocked {
        format!("<p class=\"error\">{}</p>", t("Blocked by the platform.", "Заблокирован платформой."))
    } else {
        String::new()
    };
    let devices_limit = match s.map(|s| s.devices_limit) {
        Some(Some(n)) => n.to_string(),
        Some(None) => t("unlimited", "без ограничений").to_owned(),
        None => "—".to_owned(),
    };
    let link = match s {
        Some(s) => format!("<a href=\"{url}\">{url}</a>", url = escape(&s.subscription_url)),
        None => "—".to_owned(),
    };
    format!(
        "{blocked}<dl><dt>{sub_l}</dt><dd id=\"subscription\">{status}</dd><dt>{until_l}</dt><dd>{until}</dd>\
         <dt>{limit_l}</dt><dd>{devices_limit}</dd><dt>{link_l}</dt><dd class=\"prewrap\">{link}</dd>\
         <dt>{trial_l}</dt><dd>{trial}</dd><dt>{since_l}</dt><dd>{since}</dd></dl>",
        sub_l = t("Subscription", "Подписка"),
        status = escape(&status_name(s, shell.lang)),
        until_l = t("Until", "До"),
        until = escape(&expiry(s, shell.lang)),
        limit_l = t("Devices allowed", "Устройств можно"),
        link_l = t("Subscription link", "Ссылка подписки"),
        trial_l = t("Trial available", "Пробный период доступен"),
        trial = if c.trial_available { t("yes", "да") } else { t("no", "нет") },
        since_l = t("Client since", "Клиент с"),
        since = when(c.created_at),
    )
}

fn devices_section(shell: &Shell<'_>, d: &ClientDetail) -> String {
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let heading = t("Devices", "Устройства");
    let devices = match &d.devices {
        Err(_) => {
            return format!(
                "<h2>{heading}</h2><p class=\"muted\">{}</p>",
                t(
                    "The VPN panel cannot be asked right now; try again later.",
                    "VPN-панель сейчас недоступна; попробуйте позже."
                )
            );
        }
        Ok(v) if v.devices.is_empty() => {
            return format!("<h2>{heading}</h2><p>{}</p>", t("No devices connected.", "Устройства не подключены."));
        }
        Ok(v) => v,
    };
    let rows: String = devices
        .devices
        .iter()
        .map(|dev| {
            let model = [dev.platform.as_deref(), dev.os_version.as_deref(), dev.model.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" · ");
            format!(
                "<tr><td><code>{hwid}</code></td><td>{model}</td><td>{since}</td></tr>",
                hwid = escape(&dev.hwid),
                model = escape(&model),
                since = when(dev.created_at),
            )
        })
        .collect();
    format!(
        "<h2>{heading} ({count})</h2><div class=\"scroll\"><table><thead><tr><th>HWID</th><th>{what}</th>\
         <th>{since}</th></tr></thead><tbody>{rows}</tbody></table></div>",
        count = devices.devices_count,
        what = t("Device", "Устройство"),
        since = t("Connected", "Подключено"),
    )
}

fn invoice_status(s: InvoiceStatus, lang: Lang) -> &'static str {
    match s {
        InvoiceStatus::Pending => lang.pick_str("awaiting payment", "ожидает оплаты"),
        InvoiceStatus::Succeeded => lang.pick_str("paid", "оплачен"),
        InvoiceStatus::Failed => lang.pick_str("failed", "не оплачен"),
        InvoiceStatus::Expired => lang.pick_str("expired", "истёк"),
    }
}

fn invoices_section(shell: &Shell<'_>, d: &ClientDetail) -> String {
    let t = |en: &'static str, ru: &'static str| shell.t(en, ru);
    let lang = shell.lang;
    let heading = t("Invoices", "Счета");
    if d.invoices.is_empty() {
        return format!("<h2>{heading}</h2><p>{}</p>", t("No invoices yet.", "Счетов пока нет."));
    }
    let rows: String = d
        .invoices
        .iter()
        .map(|i| {
            let what = match i.purpose {
                Purpose::Subscription { plan_id } => format!("{} {plan_id}", t("plan", "тариф")),
                Purpose::Devices { count } => format!("{} +{count}", t("devices", "устройства")),
            };
            format!(
                "<tr><td><code>{id}</code></td><td>{created}</td><td>{what}</td><td class=\"num\">{total}</td>\
                 <td class=\"num\">{share}</td><td>{status}</td></tr>",
                id = escape(&i.payment_id),
                created = when(i.created_at),
                total = escape(&vp_i18n::money(lang, i.amounts.customer)),
                share = escape(&vp_i18n::money(lang, i.amounts.partner_share)),
                status = invoice_status(i.status, lang),
            )
        })
        .collect();
    let newest = if d.invoices.len() == CLIENT_INVOICES as usize {
        format!("<p class=\"muted\">{}</p>", t("The newest invoices are shown.", "Показаны последние счета."))
    } else {
        String::new()
    };
    format!(
        "<h2>{heading}</h2><div class=\"scroll\"><table><thead><tr><th>payment_id</th><th>{created}</th><th>{what}</th>\
         <th>{total}</th><th>{share}</th><th>{status}</th></tr></thead><tbody>{rows}</tbody></table></div>{newest}",
        created = t("Created", "Создан"),
        what = t("For", "За что"),
        total = t("Customer paid", "Сумма"),
        share = t("Your markup", "Ваша наценка"),
        status = t("Status", "Статус"),
    )
}
