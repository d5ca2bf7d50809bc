//! The partner cabinet's main journey in a real headless Chromium at a phone's size (390x844):
//! accept an invitation and set a password, land on the overview, add an address pointing at a
//! loopback receiver, press the test button and see the code and time, rotate the secret, and
//! switch to Russian. Every page must fit the phone (the document is as wide as the viewport);
//! each step's screenshot goes to `tests/screenshots/cabinet-*.png` for a person to look at.

mod support;

use serde_json::{Value, json};
use support::browser::{Browser, PHONE};
use support::receiver::Receiver;
use support::server::{Backend, Server};

/// Waits until `script` returns true in the page (a form's submission is under way).
fn wait_until(browser: &Browser, script: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while browser.eval(script, json!([])) != Value::Bool(true) {
        assert!(std::time::Instant::now() < deadline, "the page never got to: {script}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Submits the form whose action ends with `action` the way a person does: by its button.
fn press(browser: &Browser, action: &str) {
    let before = browser.eval("return location.href;", json!([]));
    browser.eval(
        "document.querySelector(`form[action$=\"${arguments[0]}\"] button[type=submit]`).click();",
        json!([action]),
    );
    wait_until(browser, &format!("return location.href !== {before} && document.readyState === 'complete';"));
}

fn fits_the_phone(browser: &Browser, what: &str) {
    let shape = browser.eval("return [document.documentElement.scrollWidth, window.innerWidth];", json!([]));
    assert_eq!(shape[1], json!(PHONE.0), "{what}: the viewport is the phone's width");
    assert_eq!(shape[0], shape[1], "{what}: nothing runs off the side");
}

fn text(browser: &Browser) -> String {
    browser.eval("return document.body.innerText;", json!([])).as_str().unwrap_or_default().to_owned()
}

#[test]
fn a_partner_gets_in_adds_an_address_tests_it_and_rotates_its_secret_on_a_phone() {
    let env = [("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1")];
    let Some(s) = Server::start_with(Backend::Sqlite, "browser_cabinet", &env) else { return };
    let receiver = Receiver::start();
    let invited = s.cli(&["cabinet", "invite", &s.account_id, "--email", "partner@example.com"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/cabinet/welcome/").unwrap()..];
    let Some(browser) = Browser::start(PHONE) else { return };

    browser.goto(&format!("{}{path}", s.base));
    fits_the_phone(&browser, "welcome");
    browser.screenshot("cabinet-1-welcome");
    browser.eval(
        "document.getElementById('password').value = arguments[0]; document.getElementById('confirm').value = arguments[0];",
        json!(["a long enough phrase"]),
    );
    press(&browser, path);
    wait_until(&browser, "return location.pathname === '/cabinet';");
    fits_the_phone(&browser, "overview");
    assert!(text(&browser).contains("Demo VPN"));
    browser.screenshot("cabinet-2-overview");

    browser.goto(&format!("{}/cabinet/webhooks", s.base));
    browser.eval(
        "document.getElementById('url').value = arguments[0]; \
         document.querySelector('input[value=\"payment.succeeded\"]').checked = true;",
        json!([receiver.url]),
    );
    press(&browser, "/cabinet/webhooks");
    fits_the_phone(&browser, "address page");
    assert!(text(&browser).contains("The address is added."), "{}", text(&browser));

    press(&browser, "/test");
    let shown = text(&browser);
    assert!(shown.contains("Test event sent: response 200"), "the code is shown: {shown}");
    assert!(shown.contains(" ms"), "and the time");
    receiver.next_of("webhook.test", std::time::Duration::from_secs(5));
    fits_the_phone(&browser, "test result");
    browser.screenshot("cabinet-3-tested");

    press(&browser, "/rotate");
    assert!(text(&browser).contains("signed with both the old and the new one"));
    browser.screenshot("cabinet-4-rotated");

    browser.eval("document.querySelector('a[hreflang=\"ru\"]').click();", json!([]));
    wait_until(&browser, "return document.documentElement.lang === 'ru' && document.readyState === 'complete';");
    browser.goto(&format!("{}/cabinet", s.base));
    let russian = text(&browser);
    assert!(russian.contains("Обзор") && russian.contains("Действующие лимиты"), "Russian holds: {russian}");
    fits_the_phone(&browser, "overview in Russian");
    browser.screenshot("cabinet-5-overview-ru");
}
