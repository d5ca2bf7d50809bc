//! The pages behind a subscription's links: `/connect/{token}` lists the app list's
//! applications with the visitor's platform first, and `/connect/{token}/{app_id}` (the
//! `connect_url` messengers open) puts that application first. Both show the subscription's
//! state, the link with a copy button, and a QR code of `qr_payload` for another device.
//! "Open in the app" is a plain link to the app's scheme: without the app the browser stays on
//! this page (no automatic redirect that ends on an error page).

use actix_web::http::StatusCode;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;
use vp_app::clients::{Clients, ConnectApp, ConnectPage};
use vp_app::{AppError, Lang};

use maud::{Markup, html};
use vp_i18n::Texts;

use super::kit::{Page, not_found, page_lang, unavailable};
use super::{qr, reminders, renewal};

pub async fn list(req: HttpRequest, clients: Data<Clients>, token: Path<String>) -> HttpResponse {
    show(&req, &clients, &token, None).await
}

pub async fn for_app(req: HttpRequest, clients: Data<Clients>, path: Path<(String, String)>) -> HttpResponse {
    let (token, app_id) = path.into_inner();
    show(&req, &clients, &token, Some(&app_id)).await
}

async fn show(req: &HttpRequest, clients: &Clients, token: &str, app_id: Option<&str>) -> HttpResponse {
    let lang = page_lang(req);
    let p = match clients.connect_page(token, app_id, lang).await {
        Ok(p) => p,
        Err(AppError::NotFound(_)) => return not_found(req, lang),
        Err(e) => {
            tracing::error!(error = %e, "connect page failed");
            return unavailable(req, lang);
        }
    };
    let platform = chosen_platform(req, &p);
    let body = render(lang, &p, platform.as_deref(), app_id, req.path());
    let said = Query::<RenewalQuery>::from_query(req.query_string()).ok().and_then(|q| q.0.renewal);
    let renewal = renewal::section(lang, p.subscription.auto_renew, token, said.as_deref());
    let body = html! {
        (body)
        @if let Some(renewal) = renewal { (renewal) }
        @if p.offers_reminders { (reminders::offer(lang, &p.brand_name, token)) }
    };
    Page::new(req, lang, &p.brand_name)
        .brand(&p.brand_name)
        .style(&p.style)
        .with_script("/assets/copy.js")
        .render(StatusCode::OK, body)
}

/// `?renewal=`: what the automatic renewal button just did.
#[derive(Deserialize)]
struct RenewalQuery {
    renewal: Option<String>,
}

/// `?platform=`: the platform the visitor chose.
#[derive(Deserialize)]
struct PlatformQuery {
    platform: Option<String>,
}

/// `?platform=` when it names one of the app list's, else the one the User-Agent shows.
fn chosen_platform(req: &HttpRequest, p: &ConnectPage) -> Option<String> {
    let known = |id: &str| p.platforms.iter().any(|pl| pl.platform_id == id);
    let asked = Query::<PlatformQuery>::from_query(req.query_string()).ok().and_then(|q| q.into_inner().platform);
    let agent = req.headers().get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or_default();
    asked.filter(|id| known(id)).or_else(|| platform_of(agent).filter(|id| known(id)).map(str::to_owned))
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

fn render(lang: Lang, p: &ConnectPage, platform: Option<&str>, app_id: Option<&str>, path: &str) -> Markup {
    let tx = Texts(lang);
    let installs_on = |a: &ConnectApp| platform.is_none_or(|pl| a.install_links.iter().any(|l| l.platform_id == pl));
    // The application of the link first, then those for the visitor's platform, then the rest.
    let mut apps: Vec<&ConnectApp> = p.apps.iter().collect();
    apps.sort_by_key(|a| (Some(a.app_id.as_str()) != app_id, !installs_on(a)));
    let (main, other): (Vec<&ConnectApp>, Vec<&ConnectApp>) =
        apps.iter().partition(|a| Some(a.app_id.as_str()) == app_id || installs_on(a));
    let first = main.first().or(other.first()).copied();
    let platform_name =
        platform.and_then(|id| p.platforms.iter().find(|pl| pl.platform_id == id)).map(|pl| pl.name.as_str());
    let heading = match platform_name {
        Some(name) => tx.with("page-connect-apps-for", &[("platform", name.into())]),
        None => tx.get("page-connect-apps"),
    };
    let link_title = tx.get("page-connect-link-title");
    let qr = first.and_then(|a| qr::svg(&a.qr_payload, &tx.get("page-connect-qr-label")));
    html! {
        h1 { (tx.get("page-subscription-title")) }
        (state(lang, p))
        h2 { (heading) }
        nav.choices aria-label=(tx.get("page-connect-platform")) {
            @for pl in &p.platforms {
                a href={ (path) "?platform=" (pl.platform_id) "&lang=" (lang.code()) }
                    aria-current=[(Some(pl.platform_id.as_str()) == platform).then_some("true")] { (pl.name) }
            }
        }
        @for a in &main { (app_card(lang, a, platform)) }
        @if !other.is_empty() {
            details { summary { (tx.get("page-connect-other-apps")) } @for a in &other { (app_card(lang, a, platform)) } }
        }
        p.muted { (tx.get("page-connect-nothing-happened")) }
        h2 { (link_title) }
        p { (tx.get("page-connect-link-hint")) }
        p.copy {
            input #subscription-link readonly value=(p.subscription.subscription_url) aria-label=(link_title);
            button type="button" data-copy="subscription-link" data-done=(tx.get("page-connect-copied")) hidden {
                (tx.get("page-connect-copy"))
            }
        }
        @if let Some(svg) = qr {
            h2 { (tx.get("page-connect-another-device")) }
            figure.qr-box { (svg) figcaption.muted { (tx.get("page-connect-scan")) } }
        }
    }
}

fn app_card(lang: Lang, a: &ConnectApp, platform: Option<&str>) -> Markup {
    let tx = Texts(lang);
    html! {
        section.app {
            h3 { (a.app_name) }
            p {
                a.button.primary href=(a.deep_link) { (tx.with("page-connect-open-in", &[("app", (&a.app_name).into())])) }
                @for l in a.install_links.iter().filter(|l| platform.is_none_or(|pl| l.platform_id == pl)) {
                    a.badge href=(l.url) aria-label=(l.label) {
                        small { (tx.get("page-connect-get-it-on")) } " " (store_name(&l.url, &l.platform_id))
                    }
                }
            }
        }
    }
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

fn state(lang: Lang, p: &ConnectPage) -> Markup {
    let tx = Texts(lang);
    let state = p.subscription.state(lang, p.used);
    html! {
        dl {
            dt { (tx.get("page-subscription-status")) } dd { (state.status) }
            dt { (tx.get("page-subscription-valid-until")) } dd { (state.until) }
            dt { (tx.get("page-subscription-devices")) } dd { (state.devices) }
            @if let Some(traffic) = &state.traffic { dt { (tx.get("page-subscription-traffic")) } dd { (traffic) } }
        }
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
