//! The customer pages over real HTTP against the real binary: the page kit (language by `?lang`
//! then `Accept-Language`, the brand, amounts written per language, the security headers), the
//! start page and favicon, and the branded not-found page of every path outside the partner API.
//! The pages read through the same store code on both backends; SQLite keeps these quick.

use std::time::Duration;

use serde_json::json;

use crate::support;

use support::partner::{link_token, pay, post_payment, subscription};
use support::qr::read_qr;
use support::server::{Backend, Response, Server};

const NBSP: char = '\u{a0}';

fn server(name: &str) -> Option<Server> {
    Server::start(Backend::Sqlite, name)
}

fn html(r: &Response) -> String {
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"), "{}", r.text());
    r.text()
}

#[test]
fn the_start_page_names_the_service_and_links_its_health_and_api_document() {
    let Some(s) = server("start_page") else { return };
    let r = s.get_raw("/", &[]);
    assert_eq!(r.status, 200);
    let page = html(&r);
    assert!(page.contains("<h1>VPN partner platform</h1>"), "{page}");
    assert!(page.contains("href=\"/api/partner/v1/openapi.json\"") && page.contains("href=\"/health\""));
    assert!(page.contains("<link rel=\"icon\" href=\"/favicon.ico\">"));
    let ru = html(&s.get_raw("/", &[("accept-language", "ru-RU,ru;q=0.9")]));
    assert!(ru.contains("<html lang=\"ru\"") && ru.contains("Партнёрская VPN-платформа"));

    let icon = s.get_raw("/favicon.ico", &[]);
    assert_eq!((icon.status, icon.header("content-type")), (200, Some("image/x-icon")));
    assert_eq!(&icon.body[..6], &[0, 0, 1, 0, 1, 0], "an ICO file with one image");
    assert_eq!(&icon.body[22..30], b"\x89PNG\r\n\x1a\n", "the image is a PNG where the directory says");
}

#[test]
fn unknown_customer_paths_get_a_branded_page_with_a_way_on_and_api_paths_keep_the_envelope() {
    let Some(s) = server("not_found_pages") else { return };
    let paths = [
        "/connect/no-such-token",
        "/sandbox/pay/pay_unknown",
        "/payment-result/pay_unknown",
        "/nothing",
        "/documents/acc_unknown/terms_of_service",
        "/documents/not-an-account/terms_of_service",
    ];
    for path in paths {
        let r = s.get_raw(path, &[]);
        assert_eq!(r.status, 404, "{path}");
        let page = html(&r);
        assert!(page.contains("<h1>Page not found</h1>") && page.contains("href=\"/?lang=en\""), "{path}: {page}");
    }
    let documents = format!("/documents/{}/no_such_document", s.account_id);
    let ru = s.get_raw(&documents, &[("accept-language", "ru")]);
    assert_eq!(ru.status, 404);
    assert!(html(&ru).contains("Страница не найдена"), "Accept-Language chooses Russian");
    let en = s.get_raw(&format!("{documents}?lang=en"), &[("accept-language", "ru")]);
    assert!(html(&en).contains("Page not found"), "?lang comes before Accept-Language");

    let api = s.get_raw("/api/partner/v1/no-such-route", &[]);
    assert_eq!((api.status, api.code().as_str()), (404, "NOT_FOUND"), "the partner API answers machines");
}

#[test]
fn payment_pages_write_the_amount_the_way_each_language_does_under_the_brand() {
    let Some(s) = server("payment_amounts") else { return };
    let inv = post_payment(&s, "amounts-1", &subscription("amounts", 1)).json();
    let id = inv["payment_id"].as_str().unwrap();
    assert_eq!(inv["amount"], "238.80");
    let sandbox = format!("/sandbox/pay/{id}");

    let ru = html(&s.get_raw(&format!("{sandbox}?lang=ru"), &[]));
    assert!(ru.contains(&format!("238,80{NBSP}₽")), "{ru}");
    assert!(ru.contains("<span class=\"brand\">Demo VPN</span>"));
    let en = html(&s.get_raw(&sandbox, &[("accept-language", "en-GB")]));
    assert!(en.contains(&format!("RUB{NBSP}238.80")), "{en}");
    assert!(
        en.contains(&format!("href=\"{sandbox}?lang=ru\" hreflang=\"ru\" lang=\"ru\">Русский</a>")),
        "a switch to the other language: {en}"
    );
    let by_header = html(&s.get_raw(&sandbox, &[("accept-language", "ru")]));
    assert!(by_header.contains(&format!("238,80{NBSP}₽")), "Accept-Language without ?lang");

    pay(&s, id);
    let result = html(&s.get_raw(&format!("/payment-result/{id}"), &[("accept-language", "ru")]));
    assert!(result.contains("Оплачено") && result.contains(&format!("238,80{NBSP}₽")), "{result}");
}

#[test]
fn documents_follow_accept_language_and_show_the_brand() {
    let Some(s) = server("document_language") else { return };
    let path = format!("/documents/{}/terms_of_service", s.account_id);
    let ru = s.get_raw(&path, &[("accept-language", "ru")]);
    assert_eq!(ru.status, 200);
    let ru = html(&ru);
    assert!(ru.contains("Пользовательское соглашение") && ru.contains("<span class=\"brand\">Demo VPN</span>"), "{ru}");
    let en = html(&s.get_raw(&format!("{path}?lang=en"), &[("accept-language", "ru")]));
    assert!(en.contains("Terms of service"), "{en}");
}

#[test]
fn the_terms_carry_the_offer_and_refunds_and_every_document_names_the_operator() {
    let Some(s) = server("document_sections") else { return };
    let terms = html(&s.get_raw(&format!("/documents/{}/terms_of_service?lang=en", s.account_id), &[]));
    let offer = terms.find("<h2>Public offer</h2>").expect("the offer");
    let own = terms.find("Demo VPN provides access").expect("the terms themselves, the brand filled in");
    let refunds = terms.find("<h2>Refunds</h2>").expect("the refund policy");
    assert!(offer < own && own < refunds, "offer, terms, refunds: {terms}");
    assert!(
        terms.contains("<dt>Name</dt><dd>Demo Operator LLC")
            && terms.contains("<dt>Contact</dt><dd>support@vpn.example")
    );
    assert!(terms.contains("<time datetime=\"2026-11-23\">2026-11-23</time>"));
    let privacy = html(&s.get_raw(&format!("/documents/{}/privacy_policy?lang=ru", s.account_id), &[]));
    assert!(!privacy.contains("Публичная оферта") && !privacy.contains("Возврат средств"), "{privacy}");
    assert!(privacy.contains("ООО «Демо Оператор»") && privacy.contains(">23.11.2026</time>"));
}

#[test]
fn every_customer_page_sends_the_kit_headers() {
    let Some(s) = server("page_headers") else { return };
    let inv = post_payment(&s, "headers-1", &subscription("headers", 1)).json();
    let id = inv["payment_id"].as_str().unwrap();
    let documents = format!("/documents/{}/privacy_policy", s.account_id);
    for path in ["/", "/nothing", &format!("/sandbox/pay/{id}"), &format!("/payment-result/{id}"), &documents] {
        let r = s.get_raw(path, &[("accept-language", "ru")]);
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(csp.starts_with("default-src 'none'") && csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{path}: links carry tokens");
        assert_eq!(r.header("content-language"), Some("ru"), "{path}");
        assert!(r.text().contains("name=\"viewport\" content=\"width=device-width,initial-scale=1\""), "{path}");
    }
}

const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const ANDROID: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36";

#[test]
fn the_payment_page_summarises_the_order_with_the_deadline_and_leads_on_after_payment() {
    let Some(s) = server("payment_summary") else { return };
    let body = serde_json::json!({"client_id": "summary", "purpose": "subscription", "plan_id": 1, "method": "card",
        "return_url": "https://shop.example/back"});
    let inv = post_payment(&s, "summary-1", &body).json();
    let id = inv["payment_id"].as_str().unwrap();
    let sandbox = format!("/sandbox/pay/{id}");
    let open = html(&s.get_raw(&format!("{sandbox}?lang=en"), &[]));
    assert!(open.contains("<dd>Subscription for 1 month</dd>"), "what is bought: {open}");
    assert!(open.contains(&format!("<dd><code>{id}</code></dd>")), "the order number");
    assert!(open.contains("min left)</dd>") && open.contains("\u{a0}MSK, "), "the deadline with the time left");
    assert!(open.contains("By paying you accept") && open.contains("value=\"decline\""));
    let ru = html(&s.get_raw(&format!("{sandbox}?lang=ru"), &[]));
    assert!(ru.contains("<dd>Подписка на 1 месяц</dd>") && ru.contains("(осталось "), "{ru}");

    // Back from the gateway before paying: the same invoice can still be paid.
    let waiting = html(&s.get_raw(&format!("/payment-result/{id}?lang=en"), &[]));
    assert!(waiting.contains(&format!("href=\"{}\">Back to the payment</a>", inv["payment_url"].as_str().unwrap())));

    pay(&s, id);
    let paid = html(&s.get_raw(&format!("{sandbox}?lang=en"), &[]));
    assert!(!paid.contains("By paying you accept") && paid.contains("Documents:"), "no acceptance line once paid");
    assert!(paid.contains("Receipt: RUB") && !paid.contains("min left"), "{paid}");
    let client = s.api("GET", "/clients/summary", None, &[]).json();
    let token = link_token(&client);
    let result = html(&s.get_raw(&format!("/payment-result/{id}?lang=en"), &[]));
    assert!(result.contains(&format!("/connect/{token}?lang=en\">Connect now</a>")), "the next step: {result}");
    assert!(result.contains("href=\"https://shop.example/back\">Back to the shop</a>"));
    assert!(!result.contains("Back to the payment"));
}

#[test]
fn after_a_decline_the_page_says_nothing_was_taken_and_leads_back_to_the_shop() {
    let Some(s) = server("payment_declined") else { return };
    let body = serde_json::json!({"client_id": "declined", "purpose": "subscription", "plan_id": 1, "method": "card",
        "return_url": "https://shop.example/again"});
    let id = post_payment(&s, "declined-1", &body).json()["payment_id"].as_str().unwrap().to_owned();
    let declined = s.request(
        "POST",
        &format!("/sandbox/pay/{id}"),
        &[("content-type", "application/x-www-form-urlencoded")],
        Some("action=decline"),
    );
    assert_eq!(declined.status, 303);
    for path in [format!("/sandbox/pay/{id}?lang=en"), format!("/payment-result/{id}?lang=en")] {
        let page = html(&s.get_raw(&path, &[]));
        assert!(page.contains("No money was taken"), "{path}: {page}");
        assert!(page.contains("href=\"https://shop.example/again\">Back to the shop</a>"), "{path}");
        assert!(!page.contains("By paying you accept") && !page.contains("value=\"pay\""), "{path}");
    }
}

/// A paid subscription's link token.
fn paid_token(s: &Server, client: &str) -> String {
    link_token(&support::partner::buy(s, client, 1)["client"])
}

#[test]
fn the_local_panel_counts_a_limited_plans_traffic_tells_the_partner_at_80_and_100_percent_refuses_the_link_when_used_up_and_counts_anew_on_renewal()
 {
    let loopback = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(Backend::Sqlite, "local_traffic", &loopback) else { return };
    let args =
        ["plan", "create", "--months", "1", "--price", "99.00", "--traffic-gb", "1", "--traffic-reset", "no_reset"];
    let plan_id = support::partner::offered_plan(&s, &args)["plan_id"].as_i64().unwrap();
    let token = link_token(&support::partner::buy(&s, "counted", plan_id)["client"]);
    let path = format!("/sub/{token}");
    let fetch = || s.get_raw(&path, &[("accept", "*/*"), ("x-hwid", "phone-1")]);

    let first = fetch();
    assert_eq!(first.status, 200, "{}", first.text());
    let info = first.header("subscription-userinfo").unwrap().to_owned();
    let served: u64 = info.split("download=").nth(1).and_then(|v| v.split(';').next()).unwrap().parse().unwrap();
    assert!(served > 0 && info.contains("total=1073741824"), "what the link served counts: {info}");
    let page = html(&s.get_raw(&format!("/connect/{token}?lang=en"), &[]));
    assert!(page.contains("<dt>Traffic</dt><dd>0 of 1 GB per term</dd>"), "the used traffic, to a tenth: {page}");

    // The partner hears each threshold of a count once (`vp-api jobs` runs the traffic check).
    let receiver = support::receiver::Receiver::start();
    s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", "subscription.traffic_used"]);
    let told = |percent: u64, used: Option<u64>| {
        s.cli(&["jobs"]);
        let event = receiver.next_of("subscription.traffic_used", Duration::from_secs(15)).json();
        let data = &event["data"];
        assert_eq!(data["threshold_percent"].as_u64(), Some(percent), "{event}");
        if let Some(used) = used {
            assert_eq!(data["used_bytes"].as_u64(), Some(used), "{event}");
        }
        assert_eq!(data["client"]["client_id"], "counted", "{event}");
        assert_eq!(data["client"]["subscription"]["traffic_limit"], json!({"bytes": 1 << 30, "reset": "no_reset"}));
        data["counted_since"].as_str().unwrap().to_owned()
    };
    let mb: u64 = 1 << 20;
    s.cli(&["sandbox", "traffic", &s.account_id, "counted", "--mb", "820"]);
    let first_count = told(80, Some(served + 820 * mb));
    let page = html(&s.get_raw(&format!("/connect/{token}?lang=en"), &[]));
    assert!(page.contains("<dd>0.8 of 1 GB per term</dd>"), "{page}");
    s.cli(&["jobs"]);
    let used = s.cli(&["sandbox", "traffic", &s.account_id, "counted", "--mb", "204"]);
    assert_eq!(used["traffic_used_bytes"].as_u64(), Some(served + (1 << 30)), "{used}");
    assert_eq!(told(100, Some(served + (1 << 30))), first_count, "the same count, its second threshold");
    let refused = fetch();
    assert_eq!((refused.status, refused.text().as_str()), (403, "traffic limit reached for this period"));
    s.cli(&["jobs"]);
    std::thread::sleep(Duration::from_secs(2));
    let again: Vec<_> =
        receiver.drain().into_iter().filter(|d| d.json()["type"] == "subscription.traffic_used").collect();
    assert!(
        again.is_empty(),
        "each threshold once per count: {:?}",
        again.iter().map(|d| d.json()).collect::<Vec<_>>()
    );

    support::partner::buy(&s, "counted", plan_id);
    assert_eq!(fetch().status, 200, "a new term on a no_reset limit counts from zero");
    s.cli(&["sandbox", "traffic", &s.account_id, "counted", "--mb", "900"]);
    let renewed_count = told(80, None);
    assert!(renewed_count > first_count, "a new count, told again: {renewed_count} after {first_count}");
    let (code, out) = s.cli_raw(&["sandbox", "traffic", &s.account_id, "counted", "--mb", "0"]);
    assert_eq!(code, Some(2), "{out}");
}

#[test]
fn the_connect_page_shows_the_subscription_and_the_visitors_platform_first() {
    let Some(s) = server("connect_listing") else { return };
    let token = paid_token(&s, "connect-me");
    let r = s.get_raw(&format!("/connect/{token}?lang=en"), &[("user-agent", IPHONE)]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("refresh"), None, "never sent on to the app's scheme by itself");
    let ios = html(&r);
    assert!(
        ios.contains("<dd>Active</dd>") && ios.contains("days left)</dd>") && ios.contains("<dd>0 of 3</dd>"),
        "{ios}"
    );
    assert!(ios.contains("<h2>Apps for iOS</h2>"));
    let open_in_happ = ios.split("href=\"happ://add/").nth(1).expect("open in the app").split('"').next().unwrap();
    assert!(open_in_happ.ends_with(&format!("%2Fsub%2F{token}")), "the app imports the subscription link");
    assert!(ios.contains("<small>Get it on</small> App Store</a>"), "store badges for the platform");
    assert!(!ios.contains("Other apps"), "every app of the demo app list is on iOS");
    assert!(ios.contains(&format!("readonly value=\"{}/sub/{token}\"", s.base)) && ios.contains("data-copy="));
    assert!(ios.contains("<script src=\"/assets/copy.js\"></script>"));

    let android = html(&s.get_raw(&format!("/connect/{token}?lang=en"), &[("user-agent", ANDROID)]));
    let others = android.split("<summary>Other apps</summary>").nth(1).expect("apps without Android come after");
    assert!(others.contains("<h3>Streisand</h3>") && !others.contains("<h3>Happ</h3>"), "{android}");
    assert!(android.contains("Google Play"));
    let picked = html(&s.get_raw(&format!("/connect/{token}?platform=linux&lang=en"), &[("user-agent", IPHONE)]));
    assert!(picked.contains("<h2>Apps for Linux</h2>"), "the visitor's choice beats the User-Agent");

    let one = html(&s.get_raw(&format!("/connect/{token}/streisand?lang=ru"), &[("user-agent", ANDROID)]));
    let first_card = one.split("<section class=\"app\"><h3>").nth(1).unwrap();
    assert!(first_card.starts_with("Streisand</h3>"), "the link's app comes first: {one}");
    assert!(one.contains("Ваша подписка") && one.contains("<dd>0 из 3</dd>"));

    assert_eq!(s.get_raw(&format!("/connect/{token}/no-such-app"), &[]).status, 404);
    let js = s.get_raw("/assets/copy.js", &[]);
    assert_eq!((js.status, js.header("content-type")), (200, Some("text/javascript; charset=utf-8")));
}

#[test]
fn the_connect_pages_qr_code_reads_back_as_the_apps_qr_payload() {
    let Some(s) = server("connect_qr") else { return };
    let token = paid_token(&s, "qr-me");
    let client = s.api("GET", "/clients/qr-me", None, &[]).json();
    let entries = client["subscription"]["connect"].as_array().unwrap().clone();
    for (path, app_id) in [(format!("/connect/{token}"), "happ"), (format!("/connect/{token}/hiddify"), "hiddify")] {
        let page = html(&s.get_raw(&path, &[("user-agent", IPHONE)]));
        let payload = entries.iter().find(|e| e["app_id"] == app_id).unwrap()["qr_payload"].as_str().unwrap();
        assert_eq!(read_qr(&page), payload, "{path}");
    }
}

const BROWSER_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

#[test]
fn a_subscription_link_opened_in_a_browser_is_the_connect_page_and_apps_get_the_headers_they_read() {
    use base64::Engine;
    let Some(s) = server("subscription_link") else { return };
    let token = paid_token(&s, "linked");
    let path = format!("/sub/{token}");

    let browser = s.get_raw(&path, &[("accept", BROWSER_ACCEPT), ("user-agent", IPHONE), ("accept-language", "ru")]);
    assert_eq!(browser.status, 200);
    let page = html(&browser);
    assert!(page.contains("Ваша подписка") && page.contains("<h2>Приложения для iOS</h2>"), "{page}");

    let app = s.get_raw(&path, &[("accept", "*/*"), ("x-hwid", "phone-1"), ("user-agent", "Happ/3.0")]);
    assert_eq!((app.status, app.header("content-type")), (200, Some("text/plain; charset=utf-8")));
    let title = app.header("profile-title").unwrap().strip_prefix("base64:").expect("base64-encoded title");
    assert_eq!(base64::engine::general_purpose::STANDARD.decode(title).unwrap(), b"Demo VPN");
    assert_eq!(app.header("profile-update-interval"), Some("12"));
    assert_eq!(app.header("profile-web-page-url"), Some(format!("{}/connect/{token}", s.base).as_str()));
    assert!(app.header("subscription-userinfo").unwrap().contains("expire="));
    assert_eq!(app.header("support-url"), None, "no support address set yet");
    let html_but_app = s.get_raw(&path, &[("accept", BROWSER_ACCEPT), ("x-hwid", "phone-1")]);
    assert_eq!(html_but_app.header("content-type"), Some("text/plain; charset=utf-8"), "an app's headers win");

    s.cli(&["account", "set-style", &s.account_id, "--support-url", "https://t.me/demo_support"]);
    let styled = s.get_raw(&path, &[("x-hwid", "phone-1")]);
    assert_eq!(styled.header("support-url"), Some("https://t.me/demo_support"));
}

#[test]
fn the_operator_styles_an_accounts_pages_and_bad_values_change_nothing() {
    let Some(s) = server("account_style") else { return };
    let account = s.cli(&[
        "account",
        "set-style",
        &s.account_id,
        "--logo-url",
        "https://brand.example/logo.png",
        "--accent",
        "#7A1FA2",
        "--support-url",
        "https://brand.example/help",
    ]);
    assert_eq!(
        account["style"],
        serde_json::json!({"logo_url": "https://brand.example/logo.png", "accent_color": "#7a1fa2",
            "support_url": "https://brand.example/help"})
    );
    let id = post_payment(&s, "styled-1", &subscription("styled", 1)).json()["payment_id"].as_str().unwrap().to_owned();
    let page = html(&s.get_raw(&format!("/sandbox/pay/{id}?lang=en"), &[]));
    assert!(page.contains("<img class=\"logo\" src=\"https://brand.example/logo.png\""), "{page}");
    assert!(page.contains(":root{--accent:#7a1fa2}"));
    assert!(page.contains("<footer><a href=\"https://brand.example/help\">Support</a></footer>"));

    for (flag, value, why) in [
        ("--accent", "#ffee00", "too light"),
        ("--logo-url", "http://brand.example/logo.png", "https://"),
        ("--support-url", "https://x.example/\"><script>", "must not contain"),
    ] {
        let (code, text) = s.db.cli_raw(&["account", "set-style", &s.account_id, flag, value]);
        assert_ne!(code, Some(0), "{flag} {value}");
        assert!(text.contains(why), "{flag} {value}: {text}");
    }
    let cleared = s.cli(&["account", "set-style", &s.account_id, "--logo-url", "none"]);
    assert_eq!(cleared["style"]["logo_url"], serde_json::Value::Null);
    assert_eq!(cleared["style"]["accent_color"], "#7a1fa2", "the refused values changed nothing");
}
