//! The account's web shop over real HTTP against the real binary: its address made from the
//! brand and changed by the operator, the page in both languages under the brand with the plans
//! at the account's prices, the trial and the documents, and the branded not-found page for a
//! slug no account has; buying with an email: one invoice per form, the payment page, the
//! connect link on the result page and in the mail, and refusals that change nothing.

use crate::support;

use std::time::{Duration, Instant};

use support::Scratch;
use support::server::{Backend, Response, Server};
use support::smtp::SmtpServer;
use support::visitor::Visitor;

#[test]
fn every_account_has_a_shop_address_made_from_its_brand_and_the_operator_may_change_it() {
    let s = Scratch::new("shop-slugs");
    let first = s.ok(&["account", "create", "--brand", "Быстрый VPN"]);
    let first_id = first["account"]["account_id"].as_str().unwrap().to_owned();
    let second = s.ok(&["account", "create", "--brand", "БЫСТРЫЙ vpn!"]);
    let second_id = second["account"]["account_id"].as_str().unwrap().to_owned();
    let shop = |id: &str| s.ok(&["account", "show", id])["shop_url"].as_str().unwrap().to_owned();
    assert_eq!(shop(&first_id), "http://127.0.0.1:8080/shop/bystryy-vpn");
    assert_eq!(shop(&second_id), "http://127.0.0.1:8080/shop/bystryy-vpn-2", "a taken slug is numbered");

    let set = s.ok(&["account", "set-slug", &second_id, "Swift-VPN"]);
    assert_eq!(set["shop_url"], "http://127.0.0.1:8080/shop/swift-vpn");
    assert!(s.refused(&["account", "set-slug", &second_id, "bystryy-vpn"]).contains("another account"));
    for bad in ["ab", "swift_vpn", "-swift", "cabinet", "быстрый"] {
        assert!(s.refused(&["account", "set-slug", &second_id, bad]).contains("slug"), "{bad}");
    }
    s.refused(&["account", "set-slug", "acc_missing", "some-shop"]);
    assert_eq!(shop(&second_id), "http://127.0.0.1:8080/shop/swift-vpn", "refusals change nothing");
    assert_eq!(s.ok(&["account", "set-slug", &first_id, "bystryy-vpn"])["shop_url"], shop(&first_id), "its own again");
}

#[test]
fn the_shop_page_lists_the_plans_at_the_accounts_prices_in_both_languages() {
    let Some(s) = Server::start(Backend::Sqlite, "web_shop") else { return };
    let url = s.cli(&["account", "show", &s.account_id])["shop_url"].as_str().unwrap().to_owned();
    let path = url.split_once("/shop/").map(|(_, slug)| format!("/shop/{slug}")).unwrap();
    assert_eq!(path, "/shop/demo-vpn");

    let en = s.get_raw(&format!("{path}?lang=en"), &[]);
    assert_eq!(en.status, 200);
    let page = en.text().replace('\u{a0}', " ");
    assert!(page.contains("<h1>Demo VPN: VPN subscription</h1>"), "{page}");
    assert!(page.contains("1 month: RUB 238.80"), "the demo plan with the demo markup: {page}");
    assert!(
        page.contains("<p id=\"trial\">New here? Try it free for 72 hours. <a href=\"/shop/demo-vpn/account?lang=en\">Start it with your email</a></p>"),
        "without a bot, the trial starts on the account page: {page}"
    );
    assert!(page.contains("1 month: RUB 238.80") && page.contains("3 months: RUB 658.80 (−8 %)"), "{page}");
    assert!(page.contains(">Terms of service</a>"), "the legal documents: {page}");

    let ru = s.get_raw(&path, &[("accept-language", "ru-RU")]).text().replace('\u{a0}', " ");
    assert!(ru.contains("<html lang=\"ru\"") && ru.contains("Тарифы"), "{ru}");
    assert!(ru.contains("1 месяц: 238,80 ₽"), "{ru}");

    s.cli(&["account", "set-style", &s.account_id, "--support-url", "https://help.demo.example/"]);
    let styled = s.get_raw(&format!("{path}?lang=en"), &[]).text();
    assert!(styled.contains("href=\"https://help.demo.example/\""), "the support address: {styled}");

    for missing in ["/shop/no-such-shop", "/shop/x", "/shop/Demo_VPN"] {
        let r = s.get_raw(missing, &[("accept-language", "ru")]);
        assert_eq!(r.status, 404, "{missing}");
        assert!(r.text().contains("Страница не найдена"), "the branded not-found page: {missing}");
    }
}

#[test]
fn the_shop_offers_the_trial_by_email_and_in_the_partners_bot_while_the_account_gives_one() {
    let Some((_telegram, s)) = support::chat::shop_with(Backend::Sqlite, "web_shop_trial", &[]) else { return };
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text().replace('\u{a0}', " ");
    assert!(
        page.contains(
            "<p id=\"trial\">New here? Try it free for 72 hours. <a href=\"/shop/demo-vpn/account?lang=en\">Start it \
             with your email</a> or <a href=\"https://t.me/demo_vpn_bot\">in Telegram</a></p>"
        ),
        "{page}"
    );
    s.cli(&["account", "trial", &s.account_id, "off"]);
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    assert!(!page.contains("id=\"trial\""), "no trial, no offer: {page}");
}

/// The value of the first `name="<field>" value="…"` on a page.
fn field(page: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let (_, rest) = page.split_once(&marker).unwrap_or_else(|| panic!("no {name} field: {page}"));
    rest.split('"').next().unwrap().to_owned()
}

fn post_form(s: &Server, path: &str, body: &str) -> Response {
    s.request("POST", path, &[("content-type", "application/x-www-form-urlencoded")], Some(body))
}

fn shop_server(name: &str, smtp: &SmtpServer) -> Option<Server> {
    let url = smtp.url();
    Server::start_with(Backend::Sqlite, name, &[("VP_SMTP_URL", &url), ("VP_MAIL_FROM", "shop@vpn.example")])
}

#[test]
fn buying_with_an_email_makes_one_invoice_per_form_and_mails_the_connect_link_once_paid() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_buy", &smtp) else { return };
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    assert_eq!(s.get_raw("/shop/demo-vpn?lang=en", &[]).header("cache-control"), Some("no-store"), "one-time keys");
    assert!(page.contains("Bank card") && page.contains("name=\"method\""), "two methods to choose from: {page}");
    let (form, plan) = (field(&page, "form"), field(&page, "plan"));
    assert_ne!(form, field(&s.get_raw("/shop/demo-vpn", &[]).text(), "form"), "a new key per page");

    let body = format!("form={form}&plan={plan}&method=card&email=+Anna%40Example.COM+");
    let first = post_form(&s, "/shop/demo-vpn?lang=en", &body);
    assert_eq!(first.status, 303, "{}", first.text());
    let payment_url = first.header("location").unwrap().to_owned();
    let payment_id = payment_url.rsplit('/').next().unwrap().to_owned();
    assert_eq!(payment_url, format!("{}/sandbox/pay/{payment_id}", s.base), "the embedded gateway's page");
    let again = post_form(&s, "/shop/demo-vpn?lang=en", &body);
    assert_eq!(again.header("location"), Some(payment_url.as_str()), "a double submit makes one invoice");

    let invoice = s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json();
    let client_id = invoice["client_id"].as_str().unwrap().to_owned();
    assert!(
        client_id.starts_with("email:") && !client_id.contains("anna"),
        "the address is not in the id: {client_id}"
    );
    assert_eq!(invoice["amount"], "238.80", "the account's price with markup, as POST /payments makes it");

    let paid = post_form(&s, &format!("/sandbox/pay/{payment_id}"), "action=pay");
    assert_eq!(paid.status, 303);
    let client = s.api("GET", &format!("/clients/{client_id}"), None, &[]).json();
    let token = client["subscription"]["subscription_url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let result = s.get_raw(&format!("/payment-result/{payment_id}?lang=en"), &[]).text();
    assert!(
        result.contains(&format!("/connect/{token}?lang=en\">Connect now</a>")),
        "the first buyer connects: {result}"
    );

    let got = smtp.parsed_once_there_are(1);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(
        (got[0]["to"].as_str(), got[0]["from"].as_str()),
        (Some("anna@example.com"), Some("Demo VPN <shop@vpn.example>"))
    );
    assert_eq!(got[0]["subject"], "Demo VPN: your order is paid");
    let text = got[0]["text"].as_str().unwrap().replace('\u{a0}', " ");
    assert!(text.contains(&format!("Order {payment_id}: Subscription for 1 month, RUB 238.80, paid ")), "{text}");
    assert!(text.contains(&format!("{}/connect/{token}", s.base)), "the connect link: {text}");
    assert!(text.contains(&format!("{}/shop/demo-vpn", s.base)), "the shop: {text}");
    assert!(got[0]["html"].as_str().unwrap().contains(&format!("/connect/{token}")), "{got:#?}");
}

#[test]
fn a_later_order_for_a_known_email_renews_its_client_and_sends_the_link_only_by_mail() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_known", &smtp) else { return };
    let buy = |email: &str| {
        let page = s.get_raw("/shop/demo-vpn?lang=ru", &[]).text();
        let body = format!("form={}&plan={}&method=sbp&email={email}", field(&page, "form"), field(&page, "plan"));
        let r = post_form(&s, "/shop/demo-vpn?lang=ru", &body);
        assert_eq!(r.status, 303, "{}", r.text());
        let id = r.header("location").unwrap().rsplit('/').next().unwrap().to_owned();
        assert_eq!(post_form(&s, &format!("/sandbox/pay/{id}"), "action=pay").status, 303);
        id
    };
    let expires = |payment: &str| {
        let client_id = s.api("GET", &format!("/payments/{payment}"), None, &[]).json()["client_id"].clone();
        let client = s.api("GET", &format!("/clients/{}", client_id.as_str().unwrap()), None, &[]).json();
        (client_id, client["subscription"]["expires_at"].as_str().unwrap().to_owned())
    };
    let first = buy("boris%40example.com");
    let (client, term) = expires(&first);
    let second = buy("BORIS%40example.com");
    let (same, renewed) = expires(&second);
    assert_eq!(client, same, "one client per email");
    assert!(renewed > term, "the second month follows the first: {term} then {renewed}");

    let later = s.get_raw(&format!("/payment-result/{second}?lang=ru"), &[]).text();
    assert!(!later.contains("/connect/"), "whoever typed a known email does not get its link: {later}");
    assert!(later.contains("Ссылка для подключения — в письме"), "{later}");
    let got = smtp.parsed_once_there_are(2);
    assert_eq!(got.len(), 2, "a mail per paid order: {got:#?}");
    assert!(
        got.iter().all(|m| m["to"] == "boris@example.com" && m["subject"] == "Demo VPN: заказ оплачен"),
        "{got:#?}"
    );
    assert!(got[1]["text"].as_str().unwrap().contains("/connect/"), "the link goes to the address: {got:#?}");
}

#[test]
fn a_bad_email_a_foreign_form_or_a_replayed_form_with_other_details_is_refused_and_changes_nothing() {
    let Some(s) = Server::start(Backend::Sqlite, "web_shop_refusals") else { return };
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    let (form, plan) = (field(&page, "form"), field(&page, "plan"));

    let bad_email = post_form(&s, "/shop/demo-vpn?lang=en", &format!("form={form}&plan={plan}&method=card&email=anna"));
    assert_eq!(bad_email.status, 400);
    let shown = bad_email.text();
    assert!(shown.contains("Enter an email address such as name@example.com."), "{shown}");
    assert!(shown.contains("value=\"anna\"") && shown.contains("aria-invalid=\"true\""), "kept and marked: {shown}");

    let no_method = post_form(&s, "/shop/demo-vpn?lang=en", &format!("form={form}&plan={plan}&email=a%40b.example"));
    assert_eq!(no_method.status, 400);
    assert!(no_method.text().contains("Choose how to pay."));
    let no_plan =
        post_form(&s, "/shop/demo-vpn?lang=en", &format!("form={form}&plan=999&method=card&email=a%40b.example"));
    assert!(no_plan.status == 400 && no_plan.text().contains("Choose one of the plans."));
    let foreign =
        post_form(&s, "/shop/demo-vpn?lang=en", &format!("form=abc&plan={plan}&method=card&email=a%40b.example"));
    assert_eq!(foreign.status, 400, "a form this shop did not make: {}", foreign.text());
    assert!(s.api("GET", "/clients", None, &[]).json()["clients"].as_array().unwrap().is_empty(), "no client was made");

    let ok =
        post_form(&s, "/shop/demo-vpn?lang=en", &format!("form={form}&plan={plan}&method=card&email=c%40d.example"));
    assert_eq!(ok.status, 303, "the refusals bound nothing to the form: {}", ok.text());
    let replayed =
        post_form(&s, "/shop/demo-vpn?lang=en", &format!("form={form}&plan={plan}&method=card&email=e%40f.example"));
    assert_eq!(replayed.status, 409);
    let again = replayed.text();
    assert!(again.contains("This form was already sent with other details."), "{again}");
    assert_ne!(field(&again, "form"), form, "a fresh form to send");
    assert_eq!(s.api("GET", "/clients", None, &[]).json()["clients"].as_array().unwrap().len(), 1, "one client");
    assert_eq!(post_form(&s, "/shop/no-such-shop", &format!("form={form}&plan={plan}")).status, 404);
}

/// Buys the first plan for `email` in the shop and pays it; returns the invoice id.
fn buy_and_pay(s: &Server, email: &str) -> String {
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    let body = format!("form={}&plan={}&method=card&email={email}", field(&page, "form"), field(&page, "plan"));
    let r = post_form(s, "/shop/demo-vpn?lang=en", &body);
    assert_eq!(r.status, 303, "{}", r.text());
    let id = r.header("location").unwrap().rsplit('/').next().unwrap().to_owned();
    assert_eq!(post_form(s, &format!("/sandbox/pay/{id}"), "action=pay").status, 303);
    id
}

/// The sign-in code of the newest sign-in message to `to`, once it arrived.
fn code_for(smtp: &SmtpServer, to: &str, codes_before: usize) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let codes: Vec<String> = smtp
            .parsed_once_there_are(0)
            .iter()
            .filter(|m| m["to"] == to)
            .filter_map(|m| m["subject"].as_str()?.strip_prefix("Demo VPN: your sign-in code ").map(str::to_owned))
            .collect();
        if codes.len() > codes_before {
            return codes.last().unwrap().clone();
        }
        assert!(Instant::now() < deadline, "no sign-in message to {to}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Signs `email` in with the code mailed to it.
fn signed_in(s: &Server, smtp: &SmtpServer, email: &str, codes_before: usize) -> Visitor {
    let mut v = Visitor::new(s.port);
    let sent = v.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account?lang=en", &[("email", email)]);
    assert_eq!(sent.status, 200, "{}", sent.text());
    let code = code_for(smtp, email, codes_before);
    let entered = v.submit(
        "/shop/demo-vpn/account?lang=en",
        "/shop/demo-vpn/account?lang=en",
        &[("email", email), ("code", &code)],
    );
    assert_eq!(
        (entered.status, entered.header("location")),
        (303, Some("/shop/demo-vpn/account?lang=en")),
        "{}",
        entered.text()
    );
    v
}

#[test]
fn a_customer_signs_in_with_the_emailed_code_and_removes_a_device_and_gets_a_new_link() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_account", &smtp) else { return };
    let payment = buy_and_pay(&s, "dana%40example.com");
    let client_id =
        s.api("GET", &format!("/payments/{payment}"), None, &[]).json()["client_id"].as_str().unwrap().to_owned();
    let link = |s: &Server| {
        let client = s.api("GET", &format!("/clients/{client_id}"), None, &[]).json();
        client["subscription"]["subscription_url"].as_str().unwrap().to_owned()
    };
    let old_link = link(&s);
    let sub_path = format!("/sub/{}", old_link.rsplit('/').next().unwrap());
    for hwid in ["phone-1", "laptop-2"] {
        assert_eq!(s.get_raw(&sub_path, &[("accept", "*/*"), ("x-hwid", hwid)]).status, 200);
    }

    let mut v = Visitor::new(s.port);
    let form = v.get("/shop/demo-vpn/account?lang=en");
    assert!(form.text().contains("Sign in") && form.header("cache-control") == Some("no-store"), "{}", form.text());
    let sent =
        v.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account?lang=en", &[("email", "Dana@Example.com")]);
    assert!(sent.text().contains("We sent a six-digit code to dana@example.com."), "{}", sent.text());
    let code = code_for(&smtp, "dana@example.com", 0);
    assert!(code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()), "{code}");
    let message =
        smtp.parsed_once_there_are(0).into_iter().find(|m| m["subject"].as_str().unwrap().ends_with(&code)).unwrap();
    assert!(message["text"].as_str().unwrap().contains("/shop/demo-vpn/sign-in/"), "and a link: {message:#?}");

    let wrong = if code == "000000" { "111111" } else { "000000" };
    let refused = v.submit(
        "/shop/demo-vpn/account?lang=en",
        "/shop/demo-vpn/account?lang=en",
        &[("email", "dana@example.com"), ("code", wrong)],
    );
    assert_eq!(refused.status, 400);
    assert!(refused.text().contains("That is not the code. 4 tries left."), "{}", refused.text());
    let entered = v.submit(
        "/shop/demo-vpn/account?lang=en",
        "/shop/demo-vpn/account?lang=en",
        &[("email", "dana@example.com"), ("code", &code)],
    );
    assert_eq!(entered.status, 303);
    let session =
        entered.headers.iter().find(|(k, v)| k == "set-cookie" && v.starts_with("vp_shop=")).unwrap().1.clone();
    assert!(
        session.contains("Path=/shop/demo-vpn") && session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );

    let page = v.get("/shop/demo-vpn/account?lang=en").text().replace('\u{a0}', " ");
    assert!(page.contains("dana@example.com") && page.contains("Active"), "{page}");
    let shop = v.get("/shop/demo-vpn?lang=en").text();
    assert!(shop.contains("value=\"dana@example.com\""), "a signed-in customer buys with their address: {shop}");
    assert!(page.contains("2 of 3") && page.contains("value=\"phone-1\""), "the devices: {page}");
    assert!(
        page.contains(&format!("/payment-result/{payment}?lang=en")) && page.contains("RUB 238.80"),
        "a receipt: {page}"
    );

    let forged = v.post("/shop/demo-vpn/account/remove-device?lang=en", &[("csrf", "forged"), ("device", "phone-1")]);
    assert_eq!(forged.status, 403, "a form without the session's token changes nothing");
    let missing = v.submit(
        "/shop/demo-vpn/account?lang=en",
        "/shop/demo-vpn/account/remove-device?lang=en",
        &[("device", "someone-elses")],
    );
    assert_eq!(missing.status, 404);
    assert!(missing.text().contains("You have no such device."));
    let removed = v.submit(
        "/shop/demo-vpn/account?lang=en",
        "/shop/demo-vpn/account/remove-device?lang=en",
        &[("device", "phone-1")],
    );
    assert_eq!((removed.status, removed.header("location")), (303, Some("/shop/demo-vpn/account?done=device&lang=en")));
    let after = v.get("/shop/demo-vpn/account?done=device&lang=en").text();
    assert!(after.contains("The device is removed.") && !after.contains("value=\"phone-1\""), "{after}");

    let renewed = v.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account/new-link?lang=en", &[]);
    assert_eq!(renewed.status, 303);
    assert_ne!(link(&s), old_link, "a new link");
    assert_eq!(s.get_raw(&sub_path, &[("accept", "*/*"), ("x-hwid", "laptop-2")]).status, 404, "the old one stops");
    let too_soon = v.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account/new-link?lang=en", &[]);
    assert_eq!(too_soon.status, 409, "the spec's rotation rule");
    assert!(too_soon.text().contains("less than an hour ago"), "{}", too_soon.text());

    let out = v.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/sign-out?lang=en", &[]);
    assert_eq!((out.status, out.header("location")), (303, Some("/shop/demo-vpn?lang=en")));
    let mut replay = Visitor::new(s.port);
    replay.set_cookie("vp_shop", session.split(';').next().unwrap().trim_start_matches("vp_shop="));
    assert!(replay.get("/shop/demo-vpn/account?lang=en").text().contains("Send the code"), "the session ended");
}

#[test]
fn a_code_is_spent_by_five_wrong_tries_or_its_use_the_link_works_once_and_codes_are_limited_per_address() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_codes", &smtp) else { return };
    let mut v = Visitor::new(s.port);
    let send = |v: &mut Visitor, email: &str| {
        v.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account?lang=en", &[("email", email)])
    };
    assert_eq!(send(&mut v, "eve@example.com").status, 200, "any address may have an account");
    let code = code_for(&smtp, "eve@example.com", 0);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let try_code = |v: &mut Visitor, code: &str| {
        v.submit(
            "/shop/demo-vpn/account?lang=en",
            "/shop/demo-vpn/account?lang=en",
            &[("email", "eve@example.com"), ("code", code)],
        )
    };
    for left in (1..=4).rev() {
        assert!(try_code(&mut v, wrong).text().contains(&format!("{left} tr")), "{left} left");
    }
    let last = try_code(&mut v, wrong);
    assert!(last.text().contains("no longer works"), "the fifth wrong try spends it: {}", last.text());
    assert!(try_code(&mut v, &code).text().contains("no longer works"), "then even the right code is refused");
    assert_eq!(send(&mut v, "not-an-address").status, 400);

    assert_eq!(send(&mut v, "eve@example.com").status, 200);
    let second = code_for(&smtp, "eve@example.com", 1);
    let message =
        smtp.parsed_once_there_are(0).into_iter().find(|m| m["subject"].as_str().unwrap().ends_with(&second)).unwrap();
    let text = message["text"].as_str().unwrap().to_owned();
    let link = text.lines().find(|l| l.contains("/shop/demo-vpn/sign-in/")).unwrap().trim().to_owned();
    let path = link.split_once("127.0.0.1").unwrap().1.split_once('/').map(|(_, p)| format!("/{p}")).unwrap();
    let mut by_link = Visitor::new(s.port);
    let entered = by_link.get(&path);
    assert_eq!(
        (entered.status, entered.header("location")),
        (303, Some("/shop/demo-vpn/account?lang=en")),
        "{}",
        entered.text()
    );
    assert!(by_link.get("/shop/demo-vpn/account?lang=en").text().contains("You have no subscription yet"));
    assert!(Visitor::new(s.port).get(&path).text().contains("no longer works"), "the link works once");

    for _ in 0..3 {
        assert_eq!(send(&mut v, "eve@example.com").status, 200);
    }
    let limited = send(&mut v, "eve@example.com");
    assert_eq!(limited.status, 429, "five codes an hour to one address");
    assert!(limited.text().contains("Too many codes"), "{}", limited.text());
    let foreign =
        Visitor::new(s.port).post("/shop/demo-vpn/account", &[("email", "eve@example.com"), ("form_token", "x")]);
    assert_eq!(foreign.status, 403, "a sign-in form this browser was not given");
}

#[test]
fn a_customer_cannot_remove_another_customers_device() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_foreign_device", &smtp) else { return };
    let anna = buy_and_pay(&s, "anna%40example.com");
    let anna = s.api("GET", &format!("/payments/{anna}"), None, &[]).json()["client_id"].as_str().unwrap().to_owned();
    let url = s.api("GET", &format!("/clients/{anna}"), None, &[]).json()["subscription"]["subscription_url"].clone();
    let sub_path = format!("/sub/{}", url.as_str().unwrap().rsplit('/').next().unwrap());
    assert_eq!(s.get_raw(&sub_path, &[("accept", "*/*"), ("x-hwid", "anna-phone")]).status, 200);
    buy_and_pay(&s, "boris%40example.com");

    let mut boris = signed_in(&s, &smtp, "boris@example.com", 0);
    let r = boris.submit(
        "/shop/demo-vpn/account?lang=en",
        "/shop/demo-vpn/account/remove-device?lang=en",
        &[("device", "anna-phone")],
    );
    assert_eq!(r.status, 404);
    assert!(r.text().contains("You have no such device."), "{}", r.text());
    let devices = s.api("GET", &format!("/clients/{anna}/devices"), None, &[]).json();
    assert_eq!(devices["devices_count"], 1, "Anna's device stays: {devices}");
}

#[test]
fn a_first_order_paid_after_the_owners_does_not_show_the_owners_link() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_first_paid_late", &smtp) else { return };
    let order = |email: &str| {
        let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
        let body = format!("form={}&plan={}&method=card&email={email}", field(&page, "form"), field(&page, "plan"));
        let r = post_form(&s, "/shop/demo-vpn?lang=en", &body);
        assert_eq!(r.status, 303, "{}", r.text());
        r.header("location").unwrap().rsplit('/').next().unwrap().to_owned()
    };
    let typed_by_someone = order("owner%40example.com");
    let owners = order("owner%40example.com");
    assert_eq!(post_form(&s, &format!("/sandbox/pay/{owners}"), "action=pay").status, 303);
    assert_eq!(post_form(&s, &format!("/sandbox/pay/{typed_by_someone}"), "action=pay").status, 303);
    for id in [&typed_by_someone, &owners] {
        let page = s.get_raw(&format!("/payment-result/{id}?lang=en"), &[]).text();
        assert!(!page.contains("/connect/"), "{id}: the link goes by mail only: {page}");
        assert!(page.contains("The connect link is in the email"), "{page}");
    }
}

#[test]
fn a_promo_code_typed_in_the_shop_discounts_the_order_and_a_wrong_one_is_said_and_kept() {
    let Some(s) = Server::start(Backend::Sqlite, "web_shop_promo") else { return };
    s.cli(&["promo", "create", &s.account_id, "SPRING-10", "--percent-off", "10"]);
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    assert!(page.contains("Promo code (if you have one)") && page.contains("name=\"promo\""), "{page}");
    let (form, plan) = (field(&page, "form"), field(&page, "plan"));

    let wrong = post_form(
        &s,
        "/shop/demo-vpn?lang=en",
        &format!("form={form}&plan={plan}&method=card&email=a%40b.example&promo=AUTUMN"),
    );
    assert_eq!(wrong.status, 400);
    let shown = wrong.text();
    assert!(shown.contains("There is no such promo code."), "{shown}");
    assert!(shown.contains("value=\"AUTUMN\"") && shown.contains("aria-describedby=\"promo_problem\""), "{shown}");
    assert!(s.api("GET", "/clients", None, &[]).json()["clients"].as_array().unwrap().is_empty(), "no client was made");

    // Typed as a person types it: small letters and spaces around.
    let body = format!("form={form}&plan={plan}&method=card&email=a%40b.example&promo=+spring-10+");
    let bought = post_form(&s, "/shop/demo-vpn?lang=en", &body);
    assert_eq!(bought.status, 303, "{}", bought.text());
    let payment_id = bought.header("location").unwrap().rsplit('/').next().unwrap().to_owned();
    let invoice = s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json();
    assert_eq!((invoice["amount"].as_str(), invoice["promo"]["code"].as_str()), (Some("214.92"), Some("SPRING-10")));
    let sandbox = s.get_raw(&format!("/sandbox/pay/{payment_id}?lang=en"), &[]).text().replace('\u{a0}', " ");
    assert!(sandbox.contains("214.92"), "the customer pays the discounted price: {sandbox}");
}

#[test]
fn a_signed_in_customer_sees_their_personal_invite_link_while_the_account_has_a_referral_program() {
    let smtp = SmtpServer::start_anywhere();
    let url = smtp.url();
    let mail = [("VP_SMTP_URL", url.as_str()), ("VP_MAIL_FROM", "shop@vpn.example")];
    let Some((telegram, s)) = support::chat::shop_with(Backend::Sqlite, "web_shop_invite", &mail) else { return };
    buy_and_pay(&s, "vera%40example.com");
    let mut v = signed_in(&s, &smtp, "vera@example.com", 0);
    let page = v.get("/shop/demo-vpn/account?lang=en").text();
    assert!(!page.contains("id=\"invite\""), "no program, no link: {page}");

    s.cli(&["account", "referrals", &s.account_id, "--days", "5"]);
    let page = v.get("/shop/demo-vpn/account?lang=en").text();
    assert!(page.contains("you get 5 days of VPN for free"), "{page}");
    let at = page.find("id=\"invite-link\" href=\"").expect("the personal link") + "id=\"invite-link\" href=\"".len();
    let link = page[at..].split('"').next().unwrap().to_owned();
    assert!(link.starts_with("https://t.me/demo_vpn_bot?start=ref-"), "{link}");

    // The link leads to the bot, where a new person through it is invited.
    let friend = support::chat::Person::new(&telegram, 630_001);
    friend.write(&format!("/start {}", link.rsplit('=').next().unwrap()), "Вас пригласил друг.");
    let program = s.cli(&["account", "referrals", &s.account_id]);
    assert_eq!(program["invited"], serde_json::Value::from(1), "{program}");
}

/// The shop client an address stands for, read through the partner API's list.
fn shop_clients(s: &Server) -> Vec<serde_json::Value> {
    let list = s.api("GET", "/clients?limit=100", None, &[]).json();
    list["clients"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["client_id"].as_str().unwrap().starts_with("email:"))
        .cloned()
        .collect()
}

#[test]
fn a_signed_in_customer_starts_the_free_trial_once_and_gets_the_connect_link_by_mail() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_trial_by_email", &smtp) else { return };
    let mut vera = signed_in(&s, &smtp, "vera@example.com", 0);
    let account = vera.get("/shop/demo-vpn/account?lang=en").text().replace('\u{a0}', " ");
    assert!(
        account.contains("You have no subscription yet.") && account.contains("Try it free for 72 hours"),
        "{account}"
    );
    assert!(shop_clients(&s).is_empty(), "signing in makes no client");

    let forged = vera.post("/shop/demo-vpn/account/trial?lang=en", &[("csrf", "not-the-session-token")]);
    assert_eq!(forged.status, 403, "a form without the session's token starts nothing");
    assert!(shop_clients(&s).is_empty());

    let started = vera.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account/trial?lang=en", &[]);
    assert_eq!(
        (started.status, started.header("location")),
        (303, Some("/shop/demo-vpn/account?done=trial&lang=en")),
        "{}",
        started.text()
    );
    let account = vera.get("/shop/demo-vpn/account?done=trial&lang=en").text();
    assert!(account.contains("Your free trial is on.") && account.contains("/connect/"), "{account}");
    assert!(!account.contains("Start the free trial"), "offered no more: {account}");

    let clients = shop_clients(&s);
    assert_eq!(clients.len(), 1, "{clients:?}");
    let client = &clients[0];
    assert_eq!(client["subscription"]["is_trial"], true, "{client}");
    assert_eq!(client["subscription"]["status"], "active");
    assert_eq!(client["trial_available"], false);
    let link = client["subscription"]["subscription_url"].as_str().unwrap();
    let token = link.rsplit('/').next().unwrap();
    assert!(account.contains(&format!("/connect/{token}")), "the page shows the trial's own link: {account}");
    assert_eq!(s.get_raw(&format!("/sub/{token}"), &[("accept", "*/*"), ("x-hwid", "vera-phone")]).status, 200);

    let mails = smtp.parsed_once_there_are(2);
    let mail =
        mails.iter().find(|m| m["subject"] == "Demo VPN: your free trial has started").expect("the trial's mail");
    assert_eq!(mail["to"], "vera@example.com");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains(&format!("/connect/{token}")) && text.contains("It runs until"), "{text}");

    let again = vera.post("/shop/demo-vpn/account/trial?lang=en", &[("csrf", &field(&account, "csrf"))]);
    assert_eq!(again.status, 409, "{}", again.text());
    assert!(again.text().contains("You have already had a subscription"), "{}", again.text());
    let after = shop_clients(&s);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0]["subscription"]["expires_at"], client["subscription"]["expires_at"], "nothing changed");

    // Signing in again later: the same address, the same client and trial.
    let mut later = signed_in(&s, &smtp, "vera@example.com", 1);
    let page = later.get("/shop/demo-vpn/account?lang=en").text();
    assert!(page.contains(&format!("/connect/{token}")) && !page.contains("Start the free trial"), "{page}");
}

#[test]
fn the_trial_is_not_started_where_the_account_gives_none_and_a_typed_address_does_not_show_its_link() {
    let smtp = SmtpServer::start_anywhere();
    let Some(s) = shop_server("web_shop_trial_refused", &smtp) else { return };
    // Someone types the owner's address into an order and leaves it unpaid; the owner then
    // starts the trial; when the typed order is paid, its page does not show the trial's link.
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    let body =
        format!("form={}&plan={}&method=card&email=owner%40example.com", field(&page, "form"), field(&page, "plan"));
    let typed = post_form(&s, "/shop/demo-vpn?lang=en", &body);
    let typed = typed.header("location").unwrap().rsplit('/').next().unwrap().to_owned();
    let mut owner = signed_in(&s, &smtp, "owner@example.com", 0);
    let account = owner.get("/shop/demo-vpn/account?lang=en").text();
    assert!(account.contains("Start the free trial"), "an unpaid order is no subscription: {account}");
    let started = owner.submit("/shop/demo-vpn/account?lang=en", "/shop/demo-vpn/account/trial?lang=en", &[]);
    assert_eq!(started.status, 303, "{}", started.text());
    assert_eq!(post_form(&s, &format!("/sandbox/pay/{typed}"), "action=pay").status, 303);
    let result = s.get_raw(&format!("/payment-result/{typed}?lang=en"), &[]).text();
    assert!(!result.contains("/connect/") && result.contains("The connect link is in the email"), "{result}");

    s.cli(&["account", "trial", &s.account_id, "off"]);
    let mut newcomer = signed_in(&s, &smtp, "new@example.com", 0);
    let account = newcomer.get("/shop/demo-vpn/account?lang=en").text();
    assert!(!account.contains("Start the free trial"), "no trial, no offer: {account}");
    let refused = newcomer.post("/shop/demo-vpn/account/trial?lang=en", &[("csrf", &field(&account, "csrf"))]);
    assert_eq!(refused.status, 403, "{}", refused.text());
    assert!(refused.text().contains("offers no free trial right now"), "{}", refused.text());
    assert_eq!(shop_clients(&s).len(), 1, "only the owner's: the refusal made no client");
}
