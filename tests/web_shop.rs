//! The account's web shop over real HTTP against the real binary: its address made from the
//! brand and changed by the operator, the page in both languages under the brand with the plans
//! at the account's prices, the trial and the documents, and the branded not-found page for a
//! slug no account has; buying with an email: one invoice per form, the payment page, the
//! connect link on the result page and in the mail, and refusals that change nothing.

mod support;

use std::time::{Duration, Instant};

use support::Scratch;
use support::server::{Backend, Response, Server};
use support::smtp::{SmtpServer, parse};

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
    assert!(page.contains("Try it free for 72 hours"), "the demo account gives a trial: {page}");
    assert!(page.contains(">Terms of service</a>"), "the legal documents: {page}");

    let ru = s.get_raw(&path, &[("accept-language", "ru-RU")]).text().replace('\u{a0}', " ");
    assert!(ru.contains("<html lang=\"ru\"") && ru.contains("Тарифы"), "{ru}");
    assert!(ru.contains("1 месяц: 238,80 ₽"), "{ru}");
    assert!(ru.contains("бесплатно 72 часа"), "{ru}");

    s.cli(&["account", "set-style", &s.account_id, "--support-url", "https://help.demo.example/"]);
    let styled = s.get_raw(&format!("{path}?lang=en"), &[]).text();
    assert!(styled.contains("href=\"https://help.demo.example/\""), "the support address: {styled}");
    s.cli(&["account", "trial", &s.account_id, "off"]);
    let no_trial = s.get_raw(&format!("{path}?lang=en"), &[]).text();
    assert!(!no_trial.contains("Try it free"), "no trial offered when the account gives none");

    for missing in ["/shop/no-such-shop", "/shop/x", "/shop/Demo_VPN"] {
        let r = s.get_raw(missing, &[("accept-language", "ru")]);
        assert_eq!(r.status, 404, "{missing}");
        assert!(r.text().contains("Страница не найдена"), "the branded not-found page: {missing}");
    }
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

/// The messages the SMTP server took, once there are `count` (the worker sends every 2 s).
fn mail(smtp: &SmtpServer, count: usize) -> Vec<serde_json::Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let got = smtp.messages();
        if got.len() >= count || Instant::now() > deadline {
            return got.iter().map(|raw| parse(raw)).collect();
        }
        std::thread::sleep(Duration::from_millis(200));
    }
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

    let got = mail(&smtp, 1);
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
    let got = mail(&smtp, 2);
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
