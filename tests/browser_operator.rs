//! The operator's view in a real headless Chromium: an operator invited with `vp-api operator
//! invite` sets a password on a phone (Russian), reads every partner's sales with the chart and
//! the accounts ranked, switches the ranking and the range, and sees what the platform owes;
//! then on a desktop (English) signs in, reads the same and finds each page in the audit. Each
//! step's screenshot goes to `tests/screenshots/operator-*.png` for a person to look at.

use crate::support;

use serde_json::{Value, json};
use support::browser::{Browser, DESKTOP, PHONE, fill, fits_the_phone, press, text, wait_until};
use support::partner::{pay, rand_suffix, subscription};
use support::server::{Backend, Server, partner_request};

/// Issues `plan` for `client` with an account's `key` and pays it, or has the gateway decline
/// it; returns the invoice as the API shows it.
fn sell(s: &Server, key: &str, client: &str, plan: i64, paid: bool) -> Value {
    let idempotency = format!("bo-{client}-{}", rand_suffix());
    let headers = [("idempotency-key", idempotency.as_str())];
    let created = partner_request(s.port, key, "POST", "/payments", Some(&subscription(client, plan)), &headers);
    assert_eq!(created.status, 201, "{}", created.text());
    let payment_id = created.json()["payment_id"].as_str().unwrap().to_owned();
    if paid {
        pay(s, &payment_id);
    } else {
        let form = [("content-type", "application/x-www-form-urlencoded")];
        let declined = s.request("POST", &format!("/sandbox/pay/{payment_id}"), &form, Some("action=decline"));
        assert_eq!(declined.status, 303, "{}", declined.text());
    }
    partner_request(s.port, key, "GET", &format!("/payments/{payment_id}"), None, &[]).json()
}

/// The ranked table's account names, in order.
fn ranked(browser: &Browser) -> Value {
    browser.eval(
        "return [...document.querySelectorAll('#accounts table tbody tr')].map(r => r.querySelector('td span').firstChild.textContent);",
        json!([]),
    )
}

#[test]
fn an_operator_reads_every_partners_sales_ranks_the_accounts_and_sees_what_is_owed_on_a_phone_and_a_desktop() {
    let Some(s) = Server::start(Backend::Sqlite, "browser_operator") else { return };
    let other = s.cli(&["account", "create", "--brand", "Other VPN", "--markup", "10"]);
    let other_id = other["account"]["account_id"].as_str().unwrap().to_owned();
    let other_key = other["api_key"]["api_key"].as_str().unwrap().to_owned();
    sell(&s, &s.key, "demo-1", 2, true);
    sell(&s, &s.key, "demo-2", 1, true);
    sell(&s, &other_key, "other-1", 1, true);
    sell(&s, &other_key, "other-2", 1, false);
    let today = time::OffsetDateTime::now_utc().date();
    let (from, to) = ((today - time::Duration::days(1)).to_string(), (today + time::Duration::days(1)).to_string());
    for account in [s.account_id.as_str(), other_id.as_str()] {
        s.cli(&["sales", "rebuild", account, "--from", &from, "--to", &to]);
    }
    // A partner asks to withdraw, so something waits on the owed page.
    let mut partner = support::visitor::cabinet_member(&s, &s.account_id, "partner@example.com");
    let asked = partner.submit(
        "/cabinet/balance",
        "/cabinet/withdrawals",
        &[("amount", "10.00"), ("payout_details", "IBAN 1")],
    );
    assert_eq!(asked.status, 303, "{}", asked.text());
    let invited = s.cli(&["operator", "invite", "ops@example.com", "--lang", "ru"]);
    let link = invited["link"].as_str().unwrap();
    let path = &link[link.find("/operator/welcome/").unwrap()..];

    let Some(phone) = Browser::start(PHONE) else { return };
    phone.goto(&format!("{}{path}?lang=ru", s.base));
    assert!(text(&phone).contains("Добро пожаловать в панель оператора"), "{}", text(&phone));
    fill(&phone, &[("password", "an operator's long phrase"), ("confirm", "an operator's long phrase")]);
    press(&phone, path);
    wait_until(&phone, "return location.pathname === '/operator';");
    fits_the_phone(&phone, "the operator's sales");
    phone.screenshot("operator-1-sales-ru");
    let page = text(&phone);
    assert!(page.contains("Продажи всех партнёров") && page.contains("Доля партнёров"), "{page}");
    let figures = phone.eval(
        "const cell = name => [...document.querySelectorAll('#sales table tr')].find(r => r.querySelector('td')?.textContent === name)?.querySelectorAll('td')[1].textContent; \
         return [cell('Оплаченные счета'), cell('Новые клиенты'), document.querySelectorAll('#sales svg.chart').length];",
        json!([]),
    );
    assert_eq!(figures, json!(["3", "4", 2]), "every account's paid invoices and clients, and both charts");
    assert_eq!(ranked(&phone), json!(["Demo VPN", "Other VPN"]), "by revenue: a two-month plan and a month first");
    phone.eval("document.getElementById('accounts').scrollIntoView();", json!([]));
    phone.screenshot("operator-2-accounts-ru");

    phone.eval("document.querySelector('#accounts nav a[href*=\"by=failures\"]').click();", json!([]));
    wait_until(&phone, "return location.search.includes('by=failures') && document.readyState === 'complete';");
    assert_eq!(ranked(&phone), json!(["Other VPN", "Demo VPN"]), "one payment in two declined first");
    let declined = phone.eval(
        "return [...document.querySelectorAll('#accounts tbody tr')][0].querySelector('td[data-label=\"Доля отказов\"]').textContent;",
        json!([]),
    );
    assert_eq!(declined, "50 %");
    fits_the_phone(&phone, "the accounts by failure rate");
    phone.screenshot("operator-3-by-failures-ru");

    phone.goto(&format!("{}/operator/owed", s.base));
    fits_the_phone(&phone, "what is owed");
    phone.screenshot("operator-4-owed-ru");
    let owed = text(&phone);
    assert!(owed.contains("Сколько платформа должна партнёрам") && owed.contains("Ждёт одобрения"), "{owed}");
    assert!(owed.contains("10,00\u{a0}₽"), "the withdrawal waiting: {owed}");

    let Some(desktop) = Browser::start(DESKTOP) else { return };
    desktop.goto(&format!("{}/operator/sign-in?lang=en", s.base));
    fill(&desktop, &[("email", "ops@example.com"), ("password", "an operator's long phrase")]);
    press(&desktop, "/operator/sign-in");
    wait_until(&desktop, "return location.pathname === '/operator';");
    desktop.goto(&format!("{}/operator?range=this-month&by=growth&lang=en", s.base));
    desktop.screenshot("operator-5-this-month-en");
    let page = text(&desktop);
    assert!(page.contains("Sales of every partner") && page.contains("Partners' share"), "{page}");
    assert_eq!(ranked(&desktop), json!(["Demo VPN", "Other VPN"]), "neither sold before: ranked by revenue");

    desktop.goto(&format!("{}/operator/audit", s.base));
    desktop.screenshot("operator-6-audit-en");
    let audit = text(&desktop);
    for line in ["Looked at the sales", "Looked at what is owed", "Signed in", "Set the password", "Invited"] {
        assert!(audit.contains(line), "{line} in the audit: {audit}");
    }
    assert!(
        audit.contains("by failures") && audit.contains("withdrawals waiting (10.00)"),
        "with what each showed: {audit}"
    );
}
