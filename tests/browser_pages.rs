//! Every customer page in a real headless Chromium, in both languages, at a phone's size
//! (390x844, as a phone) and a desktop's (1280x900): nothing runs off the side (the document is
//! as wide as the viewport), every link, button and field is reached with Tab and shows where
//! the focus is, and the connect page's QR code reads back as `qr_payload`. Each page's
//! screenshot goes to `tests/screenshots/` (ignored by git) for a person to look at.

use crate::support;

use serde_json::{Value, json};
use support::browser::{Browser, DESKTOP, PHONE};
use support::partner::{buy, link_token, post_payment, subscription};
use support::qr::read_qr;
use support::server::{Backend, Server};

/// Marks the elements a keyboard user can reach, in document order; returns how many.
const MARK_FOCUSABLE: &str = "
  const all = Array.from(document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]'));
  // What a closed <details> holds (all but its summary) is folded away until it is opened.
  const folded = e => { const d = e.closest('details'); return d !== null && !d.open && e.closest('summary') === null; };
  // A group of radio buttons is one stop: its checked one (or its first); arrows move within.
  const group = e => Array.from(document.querySelectorAll('input[type=radio]')).filter(r => r.name === e.name && r.form === e.form);
  const stop = e => e.type !== 'radio' || (e.checked || (!group(e).some(r => r.checked) && group(e)[0] === e));
  const reachable = all.filter(e => !e.disabled && !e.hidden && e.tabIndex >= 0 && e.getClientRects().length > 0 && !folded(e) && stop(e));
  reachable.forEach((e, i) => e.setAttribute('data-tab', String(i)));
  if (document.activeElement) { document.activeElement.blur(); }
  return reachable.length;";

/// The focused element's mark, and whether the focus is drawn (an outline, as the kit sets).
const FOCUSED: &str = "
  const e = document.activeElement;
  if (!e || e === document.body) { return null; }
  const style = getComputedStyle(e);
  return [e.getAttribute('data-tab'), style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2];";

/// The pages of a demo account with one pending and one paid invoice, by name.
fn customer_pages(s: &Server) -> Vec<(&'static str, String)> {
    let pending = post_payment(s, "browser-pending", &subscription("browser-pending", 1)).json();
    let pending = pending["payment_id"].as_str().unwrap().to_owned();
    let paid = buy(s, "browser-paid", 4);
    let paid_id = paid["payment_id"].as_str().unwrap().to_owned();
    let token = link_token(&paid["client"]);
    // Paid with "renew automatically" ticked: its connect page shows the renewal section.
    let renewing = post_payment(s, "browser-renewing", &subscription("browser-renewing", 1)).json();
    let renewing = renewing["payment_id"].as_str().unwrap().to_owned();
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let r = s.request("POST", &format!("/sandbox/pay/{renewing}"), &form, Some("action=pay&renew=on"));
    assert_eq!(r.status, 303, "{}", r.text());
    let renewing_token = link_token(&s.api("GET", "/clients/browser-renewing", None, &[]).json());
    let account = &s.account_id;
    vec![
        ("start", "/".to_owned()),
        ("not-found", "/no-such-page".to_owned()),
        ("sandbox-pending", format!("/sandbox/pay/{pending}")),
        ("result-paid", format!("/payment-result/{paid_id}")),
        ("connect", format!("/connect/{token}")),
        ("connect-app", format!("/connect/{token}/hiddify")),
        ("connect-renewing", format!("/connect/{renewing_token}")),
        ("subscription-link", format!("/sub/{token}")),
        ("terms", format!("/documents/{account}/terms_of_service")),
        ("privacy", format!("/documents/{account}/privacy_policy")),
        ("shop", "/shop/demo-vpn".to_owned()),
        ("shop-sign-in", "/shop/demo-vpn/account".to_owned()),
    ]
}

fn with_lang(path: &str, lang: &str) -> String {
    format!("{path}{}lang={lang}", if path.contains('?') { '&' } else { '?' })
}

#[test]
fn every_customer_page_fits_a_phone_and_a_desktop_in_both_languages_and_is_reachable_by_keyboard() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_pages") else { return };
    let pages = customer_pages(&s);
    for (size, size_name) in [(PHONE, "phone"), (DESKTOP, "desktop")] {
        let Some(browser) = Browser::start(size) else { return };
        for lang in ["en", "ru"] {
            for (name, path) in &pages {
                let what = format!("{name} ({lang}, {size_name})");
                browser.goto(&format!("{}{}", s.base, with_lang(path, lang)));
                let shape = browser.eval(
                    "return [document.documentElement.scrollWidth, window.innerWidth, document.documentElement.lang, \
                     document.querySelector('main') !== null];",
                    json!([]),
                );
                assert_eq!(shape[1], json!(size.0), "{what}: the viewport is the window's width");
                assert_eq!(shape[0], shape[1], "{what}: nothing runs off the side");
                assert_eq!((shape[2].as_str(), shape[3].as_bool()), (Some(lang), Some(true)), "{what}");

                let count = browser.eval(MARK_FOCUSABLE, json!([])).as_u64().unwrap();
                assert!(count >= 2, "{what}: at least the language switch");
                let mut reached = std::collections::BTreeSet::new();
                for _ in 0..count + 2 {
                    browser.tab();
                    let focused = browser.eval(FOCUSED, json!([]));
                    if let Value::Array(f) = focused {
                        let id =
                            f[0].as_str().map(str::to_owned).unwrap_or_else(|| panic!("{what}: Tab left the page"));
                        assert_eq!(f[1], json!(true), "{what}: the focus on #{id} is drawn");
                        reached.insert(id.parse::<u64>().unwrap());
                    }
                }
                assert_eq!(reached, (0..count).collect(), "{what}: every link, button and field is reached by Tab");
                browser.screenshot(&format!("{name}-{lang}-{size_name}"));
            }
        }
    }
}

#[test]
fn the_connect_page_in_a_browser_shows_a_qr_code_of_qr_payload_and_copies_the_link() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_connect") else { return };
    let paid = buy(&s, "browser-qr", 1);
    let entries = paid["client"]["subscription"]["connect"].as_array().unwrap().clone();
    let url = paid["client"]["subscription"]["subscription_url"].as_str().unwrap().to_owned();
    let token = link_token(&paid["client"]);
    let Some(browser) = Browser::start(PHONE) else { return };
    for app in ["v2raytun", "streisand"] {
        browser.goto(&format!("{}/connect/{token}/{app}?lang=en", s.base));
        let svg = browser.eval("return document.querySelector('svg.qr').outerHTML;", json!([]));
        let payload = entries.iter().find(|e| e["app_id"] == app).unwrap()["qr_payload"].as_str().unwrap();
        assert_eq!(read_qr(svg.as_str().unwrap()), payload, "{app}");
        browser.screenshot(&format!("connect-qr-{app}"));
    }
    // The copy button appears only where its script runs, and says when it has copied.
    let copied = browser.eval(
        "const b = document.querySelector('button[data-copy]'); const shown = !b.hidden; b.click();
         const field = document.getElementById(b.getAttribute('data-copy'));
         return [shown, b.textContent, field.value, field.selectionEnd - field.selectionStart];",
        json!([]),
    );
    assert_eq!(copied[0], json!(true));
    assert_eq!(copied[2], json!(url));
    assert_eq!(copied[3], json!(url.len()), "the link is selected");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while browser.eval("return document.querySelector('button[data-copy]').textContent;", json!([])) != json!("Copied")
    {
        assert!(std::time::Instant::now() < deadline, "the button says the link was copied");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_customer_pays_on_the_phone_and_goes_on_to_connect() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_journey") else { return };
    let inv = post_payment(&s, "journey-1", &subscription("journey", 1)).json();
    let id = inv["payment_id"].as_str().unwrap().to_owned();
    let Some(browser) = Browser::start(PHONE) else { return };
    browser.goto(&format!("{}/sandbox/pay/{id}?lang=ru", s.base));
    browser.screenshot("journey-1-pay");
    browser.eval("document.querySelector('button[value=pay]').click();", json!([]));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !browser.eval("return document.body.innerText;", json!([])).as_str().unwrap().contains("Оплачено") {
        assert!(std::time::Instant::now() < deadline, "the page shows the payment");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    browser.goto(&format!("{}/payment-result/{id}?lang=ru", s.base));
    browser.screenshot("journey-2-paid");
    browser.eval(
        "Array.from(document.querySelectorAll('a')).find(a => a.textContent === 'Подключиться').click();",
        json!([]),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !browser.eval("return location.pathname;", json!([])).as_str().unwrap().starts_with("/connect/") {
        assert!(std::time::Instant::now() < deadline, "Connect now leads to the connect page");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let text = browser.eval("return document.body.innerText;", json!([]));
    assert!(text.as_str().unwrap().contains("Ваша подписка"), "{text}");
    browser.screenshot("journey-3-connect");
}

#[test]
fn with_the_partners_bot_connected_the_connect_page_offers_reminders_in_telegram_on_the_phone() {
    let telegram = vp_testkit::telegram::TelegramEmulator::start("123456789:AAHplatform_0123456789abcdefghijklm", "p");
    let bot_token = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";
    telegram.add_bot(bot_token, 5_550_001, "demo_vpn_bot");
    let api_url = telegram.url();
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_reminders", &[("VP_TELEGRAM_API_URL", &api_url)]) else {
        return;
    };
    s.connect_bot(&s.account_id, bot_token);
    let paid = buy(&s, "browser-reminders", 1);
    let token = link_token(&paid["client"]);
    let Some(browser) = Browser::start(PHONE) else { return };
    for (lang, label) in [("ru", "Открыть в Telegram"), ("en", "Open in Telegram")] {
        browser.goto(&format!("{}/connect/{token}?lang={lang}", s.base));
        let offer = browser.eval(
            "const b = document.querySelector('section.reminders button[type=submit]');
             b.scrollIntoView();
             const r = b.getBoundingClientRect();
             return [b.textContent, b.form.getAttribute('action'), r.left >= 0 && r.right <= window.innerWidth,
                     document.documentElement.scrollWidth === window.innerWidth];",
            json!([]),
        );
        assert_eq!(offer[0], json!(label));
        assert_eq!(offer[1], json!(format!("/reminders/{token}?lang={lang}")));
        assert_eq!((offer[2].as_bool(), offer[3].as_bool()), (Some(true), Some(true)), "fits the phone: {offer}");
        browser.screenshot(&format!("connect-reminders-{lang}"));
    }
}
