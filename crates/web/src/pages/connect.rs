//! The pages behind a subscription's links: `/connect/{token}` lists the catalogue's
//! applications with the visitor's platform first, and `/connect/{token}/{app_id}` (the
//! `connect_url` messengers open) puts that application first. Both show the subscription's
//! state, the link with a copy button, and a QR code of `qr_payload` for another device.
//! "Open in the app" is a plain link to the app's scheme: without the app the browser stays on
//! this page (no automatic redirect that ends on an error page).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use vp_app::partner::{ConnectApp, ConnectPage};
use vp_app::{App, AppError, Lang};
use vp_domain::SubscriptionStatus;

use super::kit::{Page, escape, not_found, page_lang, unavailable};
use super::qr;

pub async fn list(req: HttpRequest, app: Data<App>, token: Path<String>) -> HttpResponse {
    show(&req, &app, &token, None).await
}

pub async fn for_app(req: HttpRequest, app: Data<App>, path: Path<(String, String)>) -> HttpResponse {
    let (token, app_id) = path.into_inner();
    show(&req, &app, &token, Some(&app_id)).await
}

async fn show(req: &HttpRequest, app: &App, token: &str, app_id: Option<&str>) -> HttpResponse {
    let lang = page_lang(req);
    let p = match app.connect_page(token, app_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(req, lang),
        Err(e) => {
            tracing::error!(error = %e, "connect page failed");
            return unavailable(req, lang);
        }
    };
    let platform = chosen_platform(req, &p);
    let body = render(lang, &p, platform.as_deref(), app_id, req.path());
    Page::new(req, lang, &p.brand_name)
        .brand(&p.brand_name)
        .style(&p.style)
        .with_script("/assets/copy.js")
        .render(StatusCode::OK, &body)
}

/// `?platform=` when it names one of the catalogue's, else the one the User-Agent shows.
fn chosen_platform(req: &HttpRequest, p: &ConnectPage) -> Option<String> {
    let known = |id: &str| p.platforms.iter().any(|pl| pl.platform_id == id);
    let asked = req.query_string().split('&').find_map(|q| q.strip_prefix("platform=")).filter(|id| known(id));
    let agent = req.headers().get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or_default();
    asked.or_else(|| platform_of(agent).filter(|id| known(id))).map(str::to_owned)
}

/// The platform a User-Agent names (phones first: their agents also mention desktop systems).
pub fn platform_of(agent: &str) -> Option<&'static str> {
    let has = |s: &str| agent.contains(s);
    if has("iPhone") || has("iPad") || has("iPod") {
        Some("ios")
    } else if has("Android") {
        Some("android")
    } else if has("Windows") {
        Some("windows")
    } else if has("Macintosh") || has("Mac OS X") {
        Some("macos")
    } else if has("Linux") || has("X11") || has("CrOS") {
        Some("linux")
    } else {
        None
    }
}

fn render(lang: Lang, p: &ConnectPage, platform: Option<&str>, app_id: Option<&str>, path: &str) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let installs_on = |a: &ConnectApp| platform.is_none_or(|pl| a.install_links.iter().any(|l| l.platform_id == pl));
    // The application of the link first, then those for the visitor's platform, then the rest.
    let mut apps: Vec<&ConnectApp> = p.apps.iter().collect();
    apps.sort_by_key(|a| (Some(a.app_id.as_str()) != app_id, !installs_on(a)));
    let (main, other): (Vec<&ConnectApp>, Vec<&ConnectApp>) =
        apps.iter().partition(|a| Some(a.app_id.as_str()) == app_id || installs_on(a));
    let cards = |list: &[&ConnectApp]| list.iter().map(|a| app_card(lang, a, platform)).collect::<String>();
    let first = main.first().or(other.first()).copied();
    let other = if other.is_empty() {
        String::new()
    } else {
        format!("<details><summary>{}</summary>{}</details>", t("Other apps", "Другие приложения"), cards(&other))
    };
    let platform_name =
        platform.and_then(|id| p.platforms.iter().find(|pl| pl.platform_id == id)).map(|pl| pl.name.as_str());
    let heading = match platform_name {
        Some(name) => format!("{} {}", t("Apps for", "Приложения для"), escape(name)),
        None => t("Apps", "Приложения").to_owned(),
    };
    let picker: String = p
        .platforms
        .iter()
        .map(|pl| {
            let current = if Some(pl.platform_id.as_str()) == platform { " aria-current=\"true\"" } else { "" };
            format!(
                "<a href=\"{}?platform={}&amp;lang={}\"{current}>{}</a>",
                escape(path),
                escape(&pl.platform_id),
                lang.code(),
                escape(&pl.name)
            )
        })
        .collect();
    let qr = first
        .and_then(|a| qr::svg(&a.qr_payload, t("QR code of the connect page", "QR-код страницы подключения")))
        .map(|svg| {
            format!(
                "<h2>{}</h2><figure class=\"qr-box\">{svg}<figcaption class=\"muted\">{}</figcaption></figure>",
                t("On another device", "На другом устройстве"),
                t(
                    "Scan with the phone's camera to open this page there.",
                    "Наведите камеру телефона, чтобы открыть эту страницу на нём."
                ),
            )
        })
        .unwrap_or_default();
    format!(
        "<h1>{title}</h1>{state}<h2>{heading}</h2><nav class=\"choices\" aria-label=\"{platforms}\">{picker}</nav>\
         {main}{other}<p class=\"muted\">{nothing}</p>\
         <h2>{link_title}</h2><p>{link_hint}</p><p class=\"copy\"><input id=\"subscription-link\" readonly value=\"{url}\" \
         aria-label=\"{link_title}\"><button type=\"button\" data-copy=\"subscription-link\" data-done=\"{copied}\" hidden>{copy}</button></p>{qr}",
        title = t("Your subscription", "Ваша подписка"),
        state = state(lang, p),
        platforms = t("Platform", "Платформа"),
        main = cards(&main),
        nothing = t(
            "Nothing happened after pressing Open? Install the app first, then press Open again.",
            "Ничего не произошло после нажатия «Открыть»? Сначала установите приложение, затем нажмите ещё раз."
        ),
        link_title = t("Subscription link", "Ссылка на подписку"),
        link_hint = t("Or add this link in the app by hand:", "Или добавьте эту ссылку в приложение вручную:"),
        url = escape(&p.subscription.subscription_url),
        copied = t("Copied", "Скопировано"),
        copy = t("Copy", "Копировать"),
    )
}

fn app_card(lang: Lang, a: &ConnectApp, platform: Option<&str>) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let badges: String = a
        .install_links
        .iter()
        .filter(|l| platform.is_none_or(|pl| l.platform_id == pl))
        .map(|l| {
            format!(
                "<a class=\"badge\" href=\"{url}\" aria-label=\"{label}\"><small>{get}</small> {store}</a>",
                url = escape(&l.url),
                label = escape(&l.label),
                get = t("Get it on", "Скачать в"),
                store = escape(store_name(&l.url, &l.platform_id)),
            )
        })
        .collect();
    format!(
        "<section class=\"app\"><h3>{name}</h3><p><a class=\"button primary\" href=\"{deep}\">{open} {name}</a>{badges}</p></section>",
        name = escape(&a.app_name),
        deep = escape(&a.deep_link),
        open = t("Open in", "Открыть в"),
    )
}

/// The store a download link leads to, named as its badge does.
fn store_name<'a>(url: &str, platform_id: &'a str) -> &'a str {
    let host = url.split("://").nth(1).and_then(|rest| rest.split('/').next()).unwrap_or_default();
    match host {
        "apps.apple.com" | "itunes.apple.com" => "App Store",
        "play.google.com" => "Google Play",
        "github.com" => "GitHub",
        "apps.microsoft.com" | "www.microsoft.com" => "Microsoft Store",
        _ => platform_id,
    }
}

fn state(lang: Lang, p: &ConnectPage) -> String {
    let t = |en: &'static str, ru: &'static str| lang.pick_str(en, ru);
    let s = &p.subscription;
    let status = match (s.status, s.is_trial) {
        (SubscriptionStatus::Active, true) => t("Active (trial)", "Активна (пробный период)"),
        (SubscriptionStatus::Active, false) => t("Active", "Активна"),
        (SubscriptionStatus::Expired, _) => t("Expired", "Истекла"),
        (SubscriptionStatus::Suspended, _) => t("Paused", "Приостановлена"),
    };
    let until = if s.lifetime {
        t("Never (lifetime)", "Бессрочно").to_owned()
    } else {
        format!("{} ({})", lang.date(s.expires_at.date()), days_left(lang, s.days_left))
    };
    let devices = match (p.devices_used, s.devices_limit) {
        (Some(used), Some(limit)) => format!("{used} {} {limit}", t("of", "из")),
        (Some(used), None) => format!("{used} ({})", t("no limit", "без ограничения")),
        (None, Some(limit)) => format!("{} {limit}", t("up to", "до")),
        (None, None) => t("no limit", "без ограничения").to_owned(),
    };
    format!(
        "<dl><dt>{}</dt><dd>{status}</dd><dt>{}</dt><dd>{until}</dd><dt>{}</dt><dd>{devices}</dd></dl>",
        t("Status", "Статус"),
        t("Valid until", "Действует до"),
        t("Devices", "Устройства"),
    )
}

fn days_left(lang: Lang, days: i64) -> String {
    match lang {
        Lang::En => format!("{days} {} left", if days == 1 { "day" } else { "days" }),
        Lang::Ru => format!("осталось дней: {days}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_agent_names_the_platform_phones_first() {
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15";
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile";
        assert_eq!(platform_of(iphone), Some("ios"), "not macos although it says Mac OS X");
        assert_eq!(platform_of(android), Some("android"), "not linux although it says Linux");
        assert_eq!(platform_of("Mozilla/5.0 (Windows NT 10.0; Win64; x64)"), Some("windows"));
        assert_eq!(platform_of("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)"), Some("macos"));
        assert_eq!(platform_of("Mozilla/5.0 (X11; Linux x86_64)"), Some("linux"));
        assert_eq!(platform_of("curl/8.0"), None);
    }

    #[test]
    fn store_badges_name_the_store() {
        assert_eq!(store_name("https://apps.apple.com/app/id1", "ios"), "App Store");
        assert_eq!(store_name("https://play.google.com/store/apps/details?id=x", "android"), "Google Play");
        assert_eq!(store_name("https://example.com/x", "linux"), "linux");
    }
}
