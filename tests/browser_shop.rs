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
    looked_at(browser, "shop-walk", name)
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

/// Buys `plan` (its index on the page) as a gift for `recipient` (or nobody) with `email`, pays
/// it on the sandbox page and returns the payment id.
fn buy_a_gift(browser: &Browser, s: &Server, plan: usize, email: &str, recipient: &str) -> String {
    browser.goto(&format!("{}/shop/demo-vpn?lang=ru", s.base));
    browser.eval(&format!("document.querySelectorAll('input[name=plan]')[{plan}].click();"), json!([]));
    browser.eval("document.querySelector('input[name=gift]').click();", json!([]));
    fill(browser, &[("email", email), ("recipient", recipient)]);
    submit_first_form(browser);
    pay_here(browser)
}

/// The real binary with mail over SMTP, and a browser at a phone's size.
fn shop_on_a_phone(name: &str) -> Option<(SmtpServer, Server, Browser)> {
    let smtp = SmtpServer::start_anywhere();
    let url = smtp.url();
    let env = [("VP_SMTP_URL", url.as_str()), ("VP_MAIL_FROM", "shop@vpn.example")];
    let s = Server::start_with(Backend::Sqlite, name, &env)?;
    let browser = Browser::start(PHONE)?;
    Some((smtp, s, browser))
}

/// The page as a person sees it: it fits the phone, its screenshot is `<walk>-<name>.png`, and
/// it shows nothing internal; its text.
fn looked_at(browser: &Browser, walk: &str, name: &str) -> String {
    fits_the_phone(browser, name);
    browser.screenshot(&format!("{walk}-{name}"));
    let text = text(browser);
    assert_nothing_internal(name, &text, &[], in_russian(browser));
    text
}

#[test]
fn a_gift_bought_in_the_web_shop_is_mailed_redeemed_once_by_the_recipient_and_refunded_when_unredeemed() {
    let Some((smtp, s, browser)) = shop_on_a_phone("browser_shop_gift") else { return };
    let seen = |name: &str| looked_at(&browser, "shop-gift", name);

    // The buyer ticks "a gift", names the recipient's address, pays.
    browser.goto(&format!("{}/shop/demo-vpn?lang=ru", s.base));
    let shop = seen("1-shop-ru");
    assert!(shop.contains("Это подарок: я получу ссылку, чтобы передать её"), "{shop}");
    let payment_id = buy_a_gift(&browser, &s, 0, "giver@example.com", "mum@example.com");
    browser.goto(&format!("{}/payment-result/{payment_id}?lang=ru", s.base));
    let result = seen("2-result-ru");
    assert!(result.contains("Подарок готов") && result.contains("Ваш подарок"), "{result}");
    assert!(!result.contains("Подключиться"), "nothing to connect for the buyer: {result}");
    let gift_url = browser
        .eval("return document.querySelector('#gift a[href*=\"/gift/\"]').href;", json!([]))
        .as_str()
        .unwrap()
        .to_owned();
    let gift_path = gift_url.split_once("/shop/").map(|(_, p)| format!("/shop/{p}")).unwrap();

    // The partner hears the buyer's payment; the buyer holds no term for it.
    let invoice = s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json();
    assert_eq!(invoice["status"], "succeeded", "{invoice}");
    let buyer_id = invoice["client_id"].as_str().unwrap().to_owned();
    assert!(s.api("GET", &format!("/clients/{buyer_id}"), None, &[]).json()["subscription"].is_null());

    // The buyer's mail and the recipient's, each with the gift's page.
    let mails = smtp.parsed_once_there_are(2);
    let to = |address: &str| mails.iter().find(|m| m["to"] == address).unwrap_or_else(|| panic!("{mails:#?}")).clone();
    let bought = to("giver@example.com");
    let received = to("mum@example.com");
    assert_eq!(bought["subject"], "Demo VPN: ваш подарок готов");
    assert_eq!(received["subject"], "Demo VPN: вам подарок");
    for mail in [&bought, &received] {
        let text = mail["text"].as_str().unwrap();
        assert!(text.contains(&gift_url) && text.contains("один раз, до"), "{text}");
        assert_nothing_internal("the gift mail", text, &[&buyer_id], true);
    }

    // The recipient opens it in English, signs in with the mailed code, and redeems it.
    browser.goto(&format!("{gift_url}?lang=en"));
    let gift = seen("3-gift-en");
    assert!(gift.contains("A gift from Demo VPN") && gift.contains("1 month"), "{gift}");
    assert!(gift.contains("Sign in with your email to redeem it"), "{gift}");
    browser.eval("document.querySelector('main a.button.primary').click();", json!([]));
    wait_until(
        &browser,
        "return location.pathname === '/shop/demo-vpn/account' && document.readyState === 'complete';",
    );
    fill(&browser, &[("email", "mum@example.com")]);
    press(&browser, "/shop/demo-vpn/account?lang=en");
    let code = smtp.parsed_once_there_are(3)[2]["subject"].as_str().unwrap().rsplit(' ').next().unwrap().to_owned();
    fill(&browser, &[("code", &code)]);
    press(&browser, "/shop/demo-vpn/account?lang=en");
    let account = seen("4-account-en");
    assert!(account.contains("A gift is waiting for you."), "the account leads back to the gift: {account}");
    browser.eval("document.querySelector('a.button[href*=\"/gift/\"]').click();", json!([]));
    wait_until(&browser, "return location.pathname.includes('/gift/') && document.readyState === 'complete';");
    let redeem = seen("5-redeem-en");
    assert!(redeem.contains("Redeem for mum@example.com"), "{redeem}");
    let csrf = browser.eval("return document.querySelector('input[name=csrf]').value;", json!([]));
    press(&browser, &format!("{gift_path}?lang=en"));
    wait_until(&browser, "return location.search.includes('done=gift') && document.readyState === 'complete';");
    let redeemed = seen("6-redeemed-en");
    assert!(redeemed.contains("The gift is yours") && redeemed.contains("Valid until"), "{redeemed}");

    // Their own client, active for a month; the buyer's still holds nothing.
    let clients = s.api("GET", "/clients?limit=10", None, &[]).json();
    let theirs: Vec<&serde_json::Value> =
        clients["clients"].as_array().unwrap().iter().filter(|c| c["client_id"] != buyer_id.as_str()).collect();
    assert_eq!(theirs.len(), 1, "{clients}");
    assert_eq!(theirs[0]["subscription"]["status"], "active", "{clients}");
    let recipient_id = theirs[0]["client_id"].as_str().unwrap().to_owned();
    assert_nothing_internal("the account page", &redeemed, &[&buyer_id, &recipient_id], false);

    // Once: the same form again is refused and extends nothing; the page says it was redeemed.
    let ends = theirs[0]["subscription"]["expires_at"].clone();
    browser.eval(
        "const f = document.createElement('form'); f.method = 'post'; f.action = arguments[0];
         const c = document.createElement('input'); c.type = 'hidden'; c.name = 'csrf'; c.value = arguments[1];
         f.appendChild(c); document.body.appendChild(f); f.submit();",
        json!([format!("{gift_path}?lang=en"), csrf]),
    );
    wait_until(&browser, "return location.pathname.includes('/gift/') && document.readyState === 'complete';");
    let status = browser.eval("return performance.getEntriesByType('navigation')[0].responseStatus;", json!([]));
    assert_eq!(status, 409, "a second redemption is refused");
    let again = seen("7-again-en");
    assert!(again.contains("This gift was redeemed already") && !again.contains("Redeem for"), "{again}");
    let client = s.api("GET", &format!("/clients/{recipient_id}"), None, &[]).json();
    assert_eq!(client["subscription"]["expires_at"], ends, "not extended twice");
    browser.goto(&format!("{gift_url}?lang=ru"));
    let used = seen("8-used-ru");
    assert!(used.contains("Этот подарок уже получен") && !used.contains("Получить для"), "{used}");

    // The partner sees it redeemed in the cabinet, and refunds a second gift nobody redeemed.
    let second = buy_a_gift(&browser, &s, 0, "giver@example.com", "");
    let mut partner = support::visitor::cabinet_member(&s, &s.account_id, "owner@partner.example");
    let list = partner.get("/cabinet/gifts").text();
    assert!(list.contains(&recipient_id) && list.contains("Redeemed") && list.contains("mum@example.com"), "{list}");
    assert!(list.contains("Refund to the buyer"), "the second waits: {list}");
    let refunded = partner.submit("/cabinet/gifts", "/cabinet/gifts/refund", &[("payment_id", &second)]);
    assert_eq!(refunded.status, 303, "{}", refunded.text());
    let second_invoice = s.api("GET", &format!("/payments/{second}"), None, &[]).json();
    assert_eq!(second_invoice["status"], "failed", "the spec's bank recall: {second_invoice}");
    let list = partner.get("/cabinet/gifts?refunded=1").text();
    assert!(list.contains("The gift is refunded to its buyer"), "{list}");
    let again = partner.submit("/cabinet/gifts", "/cabinet/gifts/refund", &[("payment_id", &payment_id)]);
    assert_eq!(again.status, 409, "a redeemed gift is not refunded: {}", again.text());
}

/// Pays the sandbox page the browser is on and waits until it says so.
fn pay_here(browser: &Browser) -> String {
    wait_until(browser, "return location.pathname.startsWith('/sandbox/pay/');");
    let payment_id = browser.eval("return location.pathname.split('/').pop();", json!([])).as_str().unwrap().to_owned();
    browser.eval("document.querySelector('button[value=pay]').click();", json!([]));
    wait_until(browser, "return document.readyState === 'complete' && !document.querySelector('button[value=pay]');");
    payment_id
}

#[test]
fn a_signed_in_customer_buys_a_second_subscription_named_router_sees_both_and_renews_the_first_only() {
    let Some((smtp, s, browser)) = shop_on_a_phone("browser_shop_several") else { return };
    let seen = |name: &str| looked_at(&browser, "shop-several", name);

    // The first subscription, bought by the address; then signed in with the mailed code.
    browser.goto(&format!("{}/shop/demo-vpn?lang=ru", s.base));
    fill(&browser, &[("email", "family@example.com")]);
    submit_first_form(&browser);
    let first_payment = pay_here(&browser);
    let first_id =
        s.api("GET", &format!("/payments/{first_payment}"), None, &[]).json()["client_id"].as_str().unwrap().to_owned();
    browser.goto(&format!("{}/shop/demo-vpn/account?lang=ru", s.base));
    fill(&browser, &[("email", "family@example.com")]);
    press(&browser, "/shop/demo-vpn/account?lang=ru");
    let code = smtp.parsed_once_there_are(2)[1]["subject"].as_str().unwrap().rsplit(' ').next().unwrap().to_owned();
    fill(&browser, &[("code", &code)]);
    press(&browser, "/shop/demo-vpn/account?lang=ru");
    let account = seen("1-account-ru");
    assert!(account.contains("Купить или продлить") && !account.contains("Ваши подписки:"), "one so far: {account}");

    // A new one named "Router", paid: its own client, with its own link.
    browser.eval("document.querySelector('#for_new').click();", json!([]));
    fill(&browser, &[("name", "Router")]);
    press(&browser, "/shop/demo-vpn/account/buy?lang=ru");
    pay_here(&browser);
    let router_id = format!("{first_id}:2");
    let router = s.api("GET", &format!("/clients/{router_id}"), None, &[]).json();
    assert_eq!(router["subscription"]["status"], "active", "{router}");
    let first = s.api("GET", &format!("/clients/{first_id}"), None, &[]).json();
    assert_ne!(router["subscription"]["subscription_url"], first["subscription"]["subscription_url"]);

    // The account lists both; the router's page shows the router's.
    browser.goto(&format!("{}/shop/demo-vpn/account?lang=ru&sub=1", s.base));
    let both = seen("2-router-ru");
    assert!(both.contains("Ваши подписки:") && both.contains("Подписка 1") && both.contains("«Router»"), "{both}");
    let router_token = support::partner::link_token(&router);
    let shown = browser.eval("return document.querySelector('a.button.primary[href*=\"/connect/\"]').href;", json!([]));
    assert!(shown.as_str().unwrap().contains(&router_token), "the router's link: {shown}");
    assert_nothing_internal("the router's page", &both, &[&first_id, &router_id], true);

    // Renewing the first extends the first only.
    let router_ends = router["subscription"]["expires_at"].clone();
    let first_ends = first["subscription"]["expires_at"].clone();
    browser.goto(&format!("{}/shop/demo-vpn/account?lang=ru", s.base));
    let checked = browser.eval("return document.querySelector('input[name=for]:checked').value;", json!([]));
    assert_eq!(checked, "0", "the form buys for the subscription shown");
    press(&browser, "/shop/demo-vpn/account/buy?lang=ru");
    pay_here(&browser);
    let first = s.api("GET", &format!("/clients/{first_id}"), None, &[]).json();
    assert_ne!(first["subscription"]["expires_at"], first_ends, "the first is renewed");
    let router = s.api("GET", &format!("/clients/{router_id}"), None, &[]).json();
    assert_eq!(router["subscription"]["expires_at"], router_ends, "the router's is not");
    let ids: Vec<String> = s.api("GET", "/clients?limit=10", None, &[]).json()["clients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["client_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, [first_id.clone(), router_id.clone()], "two clients");

    // A new link for the router changes the router's only.
    browser.goto(&format!("{}/shop/demo-vpn/account?lang=ru&sub=1", s.base));
    press(&browser, "/shop/demo-vpn/account/new-link?lang=ru");
    wait_until(&browser, "return location.search.includes('done=link') && document.readyState === 'complete';");
    let rotated = seen("3-router-new-link-ru");
    assert!(rotated.contains("«Router»"), "back on the router's: {rotated}");
    let router = s.api("GET", &format!("/clients/{router_id}"), None, &[]).json();
    assert_ne!(support::partner::link_token(&router), router_token, "the router's is new");
    let first_now = s.api("GET", &format!("/clients/{first_id}"), None, &[]).json();
    assert_eq!(
        first_now["subscription"]["subscription_url"], first["subscription"]["subscription_url"],
        "not the first's"
    );

    // A number that is none of theirs is no page; the router's order was mailed to the address.
    browser.goto(&format!("{}/shop/demo-vpn/account?lang=ru&sub=7", s.base));
    let status = browser.eval("return performance.getEntriesByType('navigation')[0].responseStatus;", json!([]));
    assert_eq!(status, 404);
    let mails = smtp.parsed_once_there_are(4);
    let orders = mails.iter().filter(|m| m["subject"] == "Demo VPN: заказ оплачен").count();
    assert_eq!(orders, 3, "each paid order mailed: {mails:#?}");
}
