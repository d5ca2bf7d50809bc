//! The web shop's whole journey in a real headless Chromium at a phone's size (390x844), in
//! both languages: the plans, buying with an email, paying on the sandbox page, the result and
//! connect pages, the order mail received over SMTP with the connect link; then signing in with
//! the code mailed to the address, removing a device and getting a new link. Every page must
//! fit the phone; each step's screenshot goes to `tests/screenshots/shop-walk-*.png`. A
//! newcomer starts the free trial from the shop with the address proven by the mailed code.
//! No page or mail of either walk shows the customer an internal id or name.

use crate::support;

use serde_json::json;
use support::browser::{Browser, DESKTOP, PHONE, fill, fits_the_phone, press, text, wait_until};
use support::nothing_internal::assert_nothing_internal;
use support::server::{Backend, Server};
use support::smtp::SmtpServer;

/// Presses the submit button of the page's first form (the shop's own form posts to its page,
/// so it has no `action` to find it by) and waits for the next page.
fn submit_first_form(browser: &Browser) {
    let before = browser.eval("return location.href;", json!([]));
    browser.eval("document.querySelector('main form button[type=submit]').click();", json!([]));
    wait_until(browser, &format!("return location.href !== {before} && document.readyState === 'complete';"));
}

fn step(browser: &Browser, name: &str) -> String {
    fits_the_phone(browser, name);
    browser.screenshot(&format!("shop-walk-{name}"));
    let text = text(browser);
    assert_nothing_internal(name, &text, &[], in_russian(browser));
    text
}

/// Whether the page is in Russian, where the spec's English status names would be foreign.
fn in_russian(browser: &Browser) -> bool {
    browser.eval("return document.documentElement.lang;", json!([])) == "ru"
}

#[test]
fn a_customer_buys_in_the_shop_pays_connects_signs_in_with_the_mailed_code_and_manages_devices_on_a_phone() {
    let smtp = SmtpServer::start_anywhere();
    let url = smtp.url();
    let env = [("VP_SMTP_URL", url.as_str()), ("VP_MAIL_FROM", "shop@vpn.example")];
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_shop", &env) else { return };
    let Some(browser) = Browser::start(PHONE) else { return };

    browser.goto(&format!("{}/shop/demo-vpn?lang=ru", s.base));
    let shop = step(&browser, "1-shop-ru");
    assert!(shop.contains("Тарифы") && shop.contains("3 месяца"), "{shop}");
    assert!(shop.contains("3 месяца: 658,80\u{a0}₽ (−8 %)"), "the saving against paying monthly: {shop}");
    browser.eval("document.querySelectorAll('input[name=plan]')[1].click();", json!([]));
    browser.eval("document.querySelector('input[name=method][value=sbp]').click();", json!([]));
    fill(&browser, &[("email", "walk@example.com")]);
    submit_first_form(&browser);
    wait_until(&browser, "return location.pathname.startsWith('/sandbox/pay/');");
    let payment_id = browser.eval("return location.pathname.split('/').pop();", json!([])).as_str().unwrap().to_owned();
    step(&browser, "2-payment");
    browser.eval("document.querySelector('button[value=pay]').click();", json!([]));
    wait_until(&browser, "return document.readyState === 'complete' && !document.querySelector('button[value=pay]');");

    browser.goto(&format!("{}/payment-result/{payment_id}?lang=ru", s.base));
    let result = step(&browser, "3-result-ru");
    assert!(result.contains("Подключиться"), "the way on to the connect page: {result}");
    browser.eval("document.querySelector('a.button.primary[href*=\"/connect/\"]').click();", json!([]));
    wait_until(&browser, "return location.pathname.startsWith('/connect/') && document.readyState === 'complete';");
    let connect = step(&browser, "4-connect-ru");
    assert!(connect.contains("Ваша подписка"), "{connect}");
    let connect_path = browser.eval("return location.pathname;", json!([])).as_str().unwrap().to_owned();

    let got = smtp.parsed_once_there_are(1);
    assert!(!got.is_empty(), "the order mail arrives");
    let order = got[0].clone();
    let client_id =
        s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json()["client_id"].as_str().unwrap().to_owned();
    assert_nothing_internal("the order mail", order["text"].as_str().unwrap(), &[&client_id], true);
    assert_nothing_internal("the connect page", &connect, &[&client_id], in_russian(&browser));
    assert_eq!(
        (order["to"].as_str(), order["subject"].as_str()),
        (Some("walk@example.com"), Some("Demo VPN: заказ оплачен"))
    );
    assert!(order["text"].as_str().unwrap().contains(&connect_path), "the mail carries the connect link: {order:#?}");

    let token = connect_path.rsplit('/').next().unwrap();
    for hwid in ["walk-phone", "walk-laptop"] {
        let r = s.get_raw(&format!("/sub/{token}"), &[("accept", "*/*"), ("x-hwid", hwid), ("x-device-model", hwid)]);
        assert_eq!(r.status, 200);
    }

    browser.goto(&format!("{}/shop/demo-vpn/account?lang=en", s.base));
    step(&browser, "5-sign-in-en");
    fill(&browser, &[("email", "walk@example.com")]);
    press(&browser, "/shop/demo-vpn/account?lang=en");
    let code_page = step(&browser, "6-code-en");
    assert!(code_page.contains("We sent a six-digit code to walk@example.com."), "{code_page}");
    let got = smtp.parsed_once_there_are(2);
    assert!(got.len() >= 2, "the sign-in mail arrives: {got:#?}");
    let sign_in = got[1].clone();
    assert_nothing_internal("the sign-in mail", sign_in["text"].as_str().unwrap(), &[&client_id], false);
    let code = sign_in["subject"].as_str().unwrap().rsplit(' ').next().unwrap().to_owned();
    fill(&browser, &[("code", &code)]);
    press(&browser, "/shop/demo-vpn/account?lang=en");
    wait_until(&browser, "return location.pathname === '/shop/demo-vpn/account';");
    let account = step(&browser, "7-account-en");
    assert!(
        account.contains("walk@example.com") && account.contains("walk-phone") && account.contains("Receipts"),
        "{account}"
    );

    browser.eval(
        "document.querySelector('input[name=device][value=\"walk-phone\"]').form.querySelector('button').click();",
        json!([]),
    );
    wait_until(&browser, "return location.search.includes('done=device') && document.readyState === 'complete';");
    let removed = step(&browser, "8-device-removed-en");
    assert!(removed.contains("The device is removed.") && !removed.contains("Remove walk-phone"), "{removed}");
    press(&browser, "/shop/demo-vpn/account/new-link?lang=en");
    wait_until(&browser, "return location.search.includes('done=link') && document.readyState === 'complete';");
    let renewed = step(&browser, "9-new-link-en");
    assert!(renewed.contains("here is your new link"), "{renewed}");
    assert_eq!(s.get_raw(&format!("/sub/{token}"), &[("accept", "*/*"), ("x-hwid", "walk-laptop")]).status, 404);
}

#[test]
fn a_newcomer_sees_the_savings_and_starts_the_free_trial_from_the_shop_with_the_mailed_code_on_a_desktop() {
    let smtp = SmtpServer::start_anywhere();
    let url = smtp.url();
    let env = [("VP_SMTP_URL", url.as_str()), ("VP_MAIL_FROM", "shop@vpn.example")];
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_shop_trial", &env) else { return };
    let Some(browser) = Browser::start(DESKTOP) else { return };
    let seen = |name: &str| {
        browser.screenshot(&format!("shop-trial-{name}"));
        let text = text(&browser);
        assert_nothing_internal(name, &text, &[], in_russian(&browser));
        text
    };

    browser.goto(&format!("{}/shop/demo-vpn?lang=ru", s.base));
    let shop = seen("1-shop-ru").replace('\u{a0}', " ");
    assert!(shop.contains("3 месяца: 658,80 ₽ (−8 %)") && shop.contains("12 месяцев: 2 158,80 ₽ (−24 %)"), "{shop}");
    assert!(shop.contains("Попробуйте бесплатно 72 часа"), "{shop}");
    browser.eval("document.querySelector('#trial a').click();", json!([]));
    wait_until(
        &browser,
        "return location.pathname === '/shop/demo-vpn/account' && document.readyState === 'complete';",
    );
    seen("2-sign-in-ru");
    fill(&browser, &[("email", "newcomer@example.com")]);
    press(&browser, "/shop/demo-vpn/account?lang=ru");
    let code_page = seen("3-code-ru");
    assert!(code_page.contains("newcomer@example.com"), "{code_page}");
    let got = smtp.parsed_once_there_are(1);
    let code = got[0]["subject"].as_str().unwrap().rsplit(' ').next().unwrap().to_owned();
    fill(&browser, &[("code", &code)]);
    press(&browser, "/shop/demo-vpn/account?lang=ru");
    let account = seen("4-account-ru");
    assert!(account.contains("У вас ещё нет подписки.") && account.contains("Начать пробный период"), "{account}");

    press(&browser, "/shop/demo-vpn/account/trial?lang=ru");
    wait_until(&browser, "return location.search.includes('done=trial') && document.readyState === 'complete';");
    let started = seen("5-trial-started-ru");
    assert!(started.contains("Бесплатный пробный период включён.") && started.contains("Действует до"), "{started}");
    assert!(!started.contains("Начать пробный период"), "offered once: {started}");

    let clients = s.api("GET", "/clients?limit=10", None, &[]).json();
    let client = clients["clients"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["client_id"].as_str().unwrap().starts_with("email:"))
        .cloned()
        .expect("the newcomer's client");
    assert_eq!(client["subscription"]["is_trial"], true, "{client}");
    let client_id = client["client_id"].as_str().unwrap();
    assert_nothing_internal("the account page", &started, &[client_id], in_russian(&browser));

    browser.eval("document.querySelector('a.button.primary[href*=\"/connect/\"]').click();", json!([]));
    wait_until(&browser, "return location.pathname.startsWith('/connect/') && document.readyState === 'complete';");
    let connect = seen("6-connect-ru");
    assert!(connect.contains("Ваша подписка"), "{connect}");
    assert_nothing_internal("the connect page", &connect, &[client_id], in_russian(&browser));

    let mails = smtp.parsed_once_there_are(2);
    let trial = mails.iter().find(|m| m["subject"] == "Demo VPN: пробный период начался").expect("the trial mail");
    let text = trial["text"].as_str().unwrap();
    let path = browser.eval("return location.pathname;", json!([])).as_str().unwrap().to_owned();
    assert!(text.contains(&path), "the mail carries the same connect link: {text}");
    assert_nothing_internal("the trial mail", text, &[client_id], true);
}
