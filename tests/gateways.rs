//! Several gateways at once, through the real binary against the Platega and Crypto Pay
//! emulators (each checked against its vendor SDK's models), on SQLite and on PostgreSQL: a
//! method routed to its gateway, payments settled once by callbacks and updates read back
//! from the gateway, forged ones refused, lost ones reconciled, a gateway's outage answered
//! `503` for its methods only, refunds by hand where the gateway has none, and a process killed
//! between a gateway's answer and our record: one invoice per key, every paid transaction
//! credited once, although neither gateway takes an idempotency key.

use crate::support;

use serde_json::{Value, json};
use support::partner::{post_payment, rand_suffix};
use support::server::{Backend, Server};
use vp_testkit::cryptopay::{self, CryptoPay, Signature};
use vp_testkit::platega::{self, Credentials, Platega};

const MERCHANT: &str = "2a0c1f4e-8b9d-4c3a-9e1f-5d6b7a8c9d0e";
const PLATEGA_SECRET: &str = "pl_secret_7f3e9a2b";
const CRYPTO_TOKEN: &str = "4242:AAcryptoTestToken";

each_backend!(
    platega_transactions_settle_once_by_callbacks_read_back_and_forged_ones_change_nothing,
    a_platega_payment_whose_answer_was_lost_is_credited_once,
    crypto_pay_invoices_settle_once_by_signed_updates_and_are_refunded_by_hand,
    a_crypto_pay_invoice_whose_answer_was_lost_is_credited_once,
    paid_invoices_without_their_access_are_found_repaired_where_possible_and_counted,
);

struct Gateways {
    platega: Platega,
    crypto: CryptoPay,
    s: Server,
}

/// The demo account with Platega and Crypto Pay on beside the sandbox (the default gateway):
/// `sbp` goes through Platega's SBP, `crypto` through Crypto Pay, `card` stays the sandbox's.
fn start(backend: Backend, name: &str) -> Option<Gateways> {
    let platega = Platega::start(MERCHANT, PLATEGA_SECRET);
    let crypto = CryptoPay::start(CRYPTO_TOKEN);
    let (platega_url, crypto_url) = (platega.api_url(), crypto.api_url());
    let env = [
        ("VP_PLATEGA_MERCHANT_ID", MERCHANT),
        ("VP_PLATEGA_SECRET", PLATEGA_SECRET),
        ("VP_PLATEGA_API_URL", platega_url.as_str()),
        ("VP_CRYPTOPAY_TOKEN", CRYPTO_TOKEN),
        ("VP_CRYPTOPAY_API_URL", crypto_url.as_str()),
        ("VP_SHIFTED_CLOCK", "on"),
        ("VP_WEBHOOK_ALLOW_ADDRESSES", "127.0.0.1"),
    ];
    let s = Server::start_with(backend, name, &env)?;
    s.cli_settled(&["method", "set-gateway", "sbp", "platega:sbp"]);
    s.cli_settled(&["method", "add", "crypto", "--name-en", "Crypto", "--name-ru", "Крипта", "--gateway", "cryptopay"]);
    Some(Gateways { platega, crypto, s })
}

fn invoice(s: &Server, client: &str, method: &str) -> Value {
    let body = json!({"client_id": client, "purpose": "subscription", "plan_id": 1, "method": method});
    let r = post_payment(s, &format!("k-{client}-{}", rand_suffix()), &body);
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn status(s: &Server, payment_id: &str) -> Value {
    s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json()["status"].clone()
}

fn balance(s: &Server) -> String {
    s.cli(&["account", "show", &s.account_id])["partner_balance"].as_str().unwrap().to_owned()
}

/// Money strings ("95.40") as exact kopecks.
fn kopecks(text: &str) -> i64 {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "00"));
    whole.parse::<i64>().unwrap() * 100 + fraction.parse::<i64>().unwrap()
}

fn platega_callbacks(s: &Server) -> String {
    format!("{}/gateway/platega/notifications", s.base)
}

fn crypto_updates(s: &Server) -> String {
    format!("{}/gateway/cryptopay/notifications", s.base)
}

/// The one transaction Platega made for an invoice.
fn transaction(p: &Platega, payment_id: &str) -> String {
    let made = p.transactions_for(payment_id);
    let [one] = made.as_slice() else { panic!("one Platega transaction for {payment_id}: {made:?}") };
    one["id"].as_str().unwrap().to_owned()
}

fn platega_transactions_settle_once_by_callbacks_read_back_and_forged_ones_change_nothing(backend: Backend) {
    let Some(Gateways { platega: p, s, .. }) = start(backend, "gw_platega") else { return };
    let methods = s.api("GET", "/payment-methods", None, &[]).json();
    let codes: Vec<&Value> = methods["payment_methods"].as_array().unwrap().iter().map(|m| &m["code"]).collect();
    assert_eq!(codes, [&json!("card"), &json!("sbp"), &json!("crypto")], "every gateway's methods: {methods}");

    let paid = invoice(&s, "pl-paid", "sbp");
    let paid_id = paid["payment_id"].as_str().unwrap();
    let txn = transaction(&p, paid_id);
    let made = &p.transactions_for(paid_id)[0];
    assert_eq!(paid["payment_url"], made["redirect"], "the transaction's page is the invoice's");
    assert_eq!((made["paymentDetails"]["amount"].to_string(), &made["payload"]), ("238.8".into(), &json!(paid_id)));
    assert_eq!(made["paymentMethodInt"], 2, "SBP QR");

    // Callbacks without the merchant's credentials are refused and change nothing, even when
    // the transaction is paid.
    p.pay(&txn);
    assert_eq!(p.callback(&platega_callbacks(&s), &txn, Credentials::WrongSecret), 401);
    assert_eq!(p.callback(&platega_callbacks(&s), &txn, Credentials::Missing), 401);
    assert_eq!(status(&s, paid_id), "pending");
    let before = balance(&s);
    assert_eq!(p.callback(&platega_callbacks(&s), &txn, Credentials::Merchant), 200);
    assert_eq!(status(&s, paid_id), "succeeded");
    let credited = balance(&s);
    assert_ne!(credited, before, "the partner's share is credited");
    assert_eq!(p.callback(&platega_callbacks(&s), &txn, Credentials::Merchant), 200, "again: nothing more");
    assert_eq!(balance(&s), credited, "credited once");

    // A canceled transaction: the payment did not go through.
    let canceled = invoice(&s, "pl-canceled", "sbp");
    let canceled_id = canceled["payment_id"].as_str().unwrap();
    p.cancel(&transaction(&p, canceled_id));
    assert_eq!(p.callback(&platega_callbacks(&s), &transaction(&p, canceled_id), Credentials::Merchant), 200);
    assert_eq!(status(&s, canceled_id), "failed");

    // A paid transaction whose callback is lost is found by the reconciliation.
    let lost = invoice(&s, "pl-lost", "sbp");
    let lost_id = lost["payment_id"].as_str().unwrap();
    p.pay(&transaction(&p, lost_id));
    s.cli(&["clock", "advance", "3m"]);
    s.cli(&["jobs"]);
    assert_eq!(status(&s, lost_id), "succeeded", "reconciled");

    // A bank's chargeback after success is the spec's recall: failed, the share reversed.
    p.chargeback(&txn);
    assert_eq!(p.callback(&platega_callbacks(&s), &txn, Credentials::Merchant), 200);
    assert_eq!(status(&s, paid_id), "failed");

    // Platega's API gives no refunds: refused unless made by hand.
    let (code, said) = s.cli_raw(&["invoice", "refund", lost_id]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("platega gives no refunds") && said.contains("--by-hand"), "{said}");
    assert_eq!(status(&s, lost_id), "succeeded", "nothing recorded");
    let by_hand = s.cli(&["invoice", "refund", lost_id, "--by-hand"]);
    assert_eq!((&by_hand["status"], &by_hand["refund"]), (&json!("failed"), &json!("succeeded")));

    // Platega down: its methods answer 503 with no invoice; the sandbox's still sell.
    p.set_mode(platega::Mode::Down);
    let body = json!({"client_id": "pl-down", "purpose": "subscription", "plan_id": 1, "method": "sbp"});
    let down = post_payment(&s, "k-pl-down", &body);
    assert_eq!((down.status, down.code()), (503, "PAYMENT_UNAVAILABLE".to_owned()), "{}", down.text());
    assert_eq!(s.api("GET", "/clients/pl-down", None, &[]).status, 404, "no invoice, no client");
    assert_eq!(invoice(&s, "pl-card", "card")["status"], "pending", "the sandbox's method sells on");
    p.set_mode(platega::Mode::Up);
    let retried = post_payment(&s, "k-pl-down", &body);
    assert_eq!(retried.status, 201, "the retry with the same key issues it: {}", retried.text());

    let check = s.cli(&["gateway", "check", "platega"]);
    assert_eq!((&check["gateway"], &check["shop_id"]), (&json!("platega"), &json!(MERCHANT)));
    assert!(!s.log().contains(PLATEGA_SECRET), "the secret is never logged");
    p.assert_contract();
}

fn a_platega_payment_whose_answer_was_lost_is_credited_once(backend: Backend) {
    let Some(Gateways { platega: p, mut s, .. }) = start(backend, "gw_platega_crash") else { return };
    // Platega takes its time; the process dies before its answer arrives. Platega makes the
    // transaction anyway.
    p.delay_next(std::time::Duration::from_millis(1500));
    let port = s.port;
    let auth = format!("Bearer {}", s.key);
    let body = json!({"client_id": "pl-crash", "purpose": "subscription", "plan_id": 1, "method": "sbp"}).to_string();
    let cut_off = std::thread::spawn(move || {
        let headers =
            [("authorization", auth.as_str()), ("content-type", "application/json"), ("idempotency-key", "k-pl-crash")];
        std::panic::catch_unwind(|| {
            support::server::request(port, "POST", "/api/partner/v1/payments", &headers, Some(body.as_bytes()))
        })
    });
    while p.arrived() == 0 && !cut_off.is_finished() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    s.kill_and_restart();
    let _ = cut_off.join();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(p.transactions().len(), 1, "Platega made the transaction although we never heard back");
    let orphan = p.transactions()[0]["id"].as_str().unwrap().to_owned();

    // The completer finishes the request: Platega takes no idempotency key, so a second
    // transaction is made for the same invoice; the partner's retry replays one invoice.
    s.cli(&["clock", "advance", "61s"]);
    s.cli(&["jobs"]);
    let body = json!({"client_id": "pl-crash", "purpose": "subscription", "plan_id": 1, "method": "sbp"});
    let replay = post_payment(&s, "k-pl-crash", &body);
    assert_eq!((replay.status, &replay.json()["replayed"]), (200, &json!(true)), "{}", replay.text());
    let payment_id = replay.json()["payment_id"].as_str().unwrap().to_owned();
    let made = p.transactions_for(&payment_id);
    assert_eq!(made.len(), 2, "two transactions name the one invoice: {made:?}");
    let shown = made.iter().find(|t| t["id"] != orphan.as_str()).unwrap();
    assert_eq!(replay.json()["payment_url"], shown["redirect"]);

    // Whichever transaction the customer pays, the invoice is paid once and credited once.
    let before = balance(&s);
    p.pay(&orphan);
    assert_eq!(p.callback(&platega_callbacks(&s), &orphan, Credentials::Merchant), 200);
    assert_eq!(status(&s, &payment_id), "succeeded", "the transaction its record lacks settles it");
    let credited = balance(&s);
    assert_ne!(credited, before);
    let second = shown["id"].as_str().unwrap();
    p.pay(second);
    assert_eq!(p.callback(&platega_callbacks(&s), second, Credentials::Merchant), 200);
    assert_eq!(p.callback(&platega_callbacks(&s), &orphan, Credentials::Merchant), 200);
    assert_eq!(balance(&s), credited, "a second payment credits nothing more");
    assert!(s.log().contains("an invoice paid twice"), "the operator is told to give the second back");
    p.assert_contract();
}

/// The one Crypto Pay invoice made for ours.
fn crypto_invoice(c: &CryptoPay, payment_id: &str) -> i64 {
    let made = c.invoices_for(payment_id);
    let [one] = made.as_slice() else { panic!("one Crypto Pay invoice for {payment_id}: {made:?}") };
    one["invoice_id"].as_i64().unwrap()
}

fn crypto_pay_invoices_settle_once_by_signed_updates_and_are_refunded_by_hand(backend: Backend) {
    // Platega's emulator stays up: its method sells while Crypto Pay is down.
    let Some(Gateways { crypto: c, s, platega: _platega }) = start(backend, "gw_crypto") else { return };
    let paid = invoice(&s, "cp-paid", "crypto");
    let paid_id = paid["payment_id"].as_str().unwrap();
    let id = crypto_invoice(&c, paid_id);
    let made = &c.invoices_for(paid_id)[0];
    assert_eq!(paid["payment_url"], made["bot_invoice_url"]);
    assert_eq!(
        (&made["currency_type"], &made["fiat"], &made["amount"]),
        (&json!("fiat"), &json!("RUB"), &json!("238.80"))
    );
    assert_eq!(made["accepted_assets"], json!(["USDT", "TON"]), "the default assets");

    c.pay(id);
    assert_eq!(c.webhook(&crypto_updates(&s), id, Signature::Forged), 401);
    assert_eq!(c.webhook(&crypto_updates(&s), id, Signature::Missing), 401);
    assert_eq!(status(&s, paid_id), "pending", "an unsigned update changes nothing");
    let before = balance(&s);
    assert_eq!(c.webhook(&crypto_updates(&s), id, Signature::Genuine), 200);
    assert_eq!(status(&s, paid_id), "succeeded");
    let credited = balance(&s);
    assert_ne!(credited, before);
    assert_eq!(c.webhook(&crypto_updates(&s), id, Signature::Genuine), 200);
    assert_eq!(balance(&s), credited, "credited once");

    // An update lost: the reconciliation reads the invoice back; one that ran out expires.
    let lost = invoice(&s, "cp-lost", "crypto");
    let lost_id = lost["payment_id"].as_str().unwrap();
    c.pay(crypto_invoice(&c, lost_id));
    let unpaid = invoice(&s, "cp-unpaid", "crypto");
    let unpaid_id = unpaid["payment_id"].as_str().unwrap();
    c.expire(crypto_invoice(&c, unpaid_id));
    s.cli(&["clock", "advance", "3m"]);
    s.cli(&["jobs"]);
    assert_eq!((status(&s, lost_id), status(&s, unpaid_id)), (json!("succeeded"), json!("expired")));

    // Crypto Pay gives no refunds: refused, then recorded by hand.
    let (code, said) = s.cli_raw(&["invoice", "refund", paid_id]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("cryptopay gives no refunds"), "{said}");
    let before_refund = balance(&s);
    s.cli(&["invoice", "refund", paid_id, "--by-hand"]);
    assert_eq!(status(&s, paid_id), "failed");
    let share = kopecks(paid["partner_share"].as_str().unwrap());
    assert_eq!(kopecks(&before_refund) - kopecks(&balance(&s)), share, "the share reversed");

    // Crypto Pay down: its method answers 503 with no invoice; Platega's still sells.
    c.set_mode(cryptopay::Mode::Down);
    let body = json!({"client_id": "cp-down", "purpose": "subscription", "plan_id": 1, "method": "crypto"});
    let down = post_payment(&s, "k-cp-down", &body);
    assert_eq!((down.status, down.code()), (503, "PAYMENT_UNAVAILABLE".to_owned()), "{}", down.text());
    assert_eq!(invoice(&s, "cp-sbp", "sbp")["status"], "pending");
    c.set_mode(cryptopay::Mode::Up);

    let check = s.cli(&["gateway", "check", "cryptopay"]);
    assert_eq!((&check["gateway"], &check["methods"]), (&json!("cryptopay"), &json!(["USDT", "TON"])));
    assert!(!s.log().contains(CRYPTO_TOKEN), "the token is never logged");
    c.assert_contract();
}

fn a_crypto_pay_invoice_whose_answer_was_lost_is_credited_once(backend: Backend) {
    let Some(Gateways { crypto: c, s, .. }) = start(backend, "gw_crypto_lost") else { return };
    // Crypto Pay makes the invoice, its answer is lost: the partner gets 503 and retries.
    c.lose_next_create();
    let body = json!({"client_id": "cp-lost", "purpose": "subscription", "plan_id": 1, "method": "crypto"});
    let lost = post_payment(&s, "k-cp-lost", &body);
    assert_eq!((lost.status, lost.code()), (503, "PAYMENT_UNAVAILABLE".to_owned()), "{}", lost.text());
    let retried = post_payment(&s, "k-cp-lost", &body);
    assert_eq!(retried.status, 201, "{}", retried.text());
    let payment_id = retried.json()["payment_id"].as_str().unwrap().to_owned();
    let made = c.invoices_for(&payment_id);
    assert_eq!(made.len(), 2, "two Crypto Pay invoices name ours: {made:?}");
    let orphan = made[0]["invoice_id"].as_i64().unwrap();
    let shown = made[1]["invoice_id"].as_i64().unwrap();
    assert_eq!(retried.json()["payment_url"], made[1]["bot_invoice_url"]);

    let before = balance(&s);
    c.pay(orphan);
    assert_eq!(c.webhook(&crypto_updates(&s), orphan, Signature::Genuine), 200);
    assert_eq!(status(&s, &payment_id), "succeeded");
    let credited = balance(&s);
    assert_ne!(credited, before);
    c.pay(shown);
    assert_eq!(c.webhook(&crypto_updates(&s), shown, Signature::Genuine), 200);
    assert_eq!(balance(&s), credited, "credited once");
    c.assert_contract();
}

/// YooKassa's notifications come from its own ranges; here through a reverse proxy on loopback.
const YOOKASSA_SHOP: &str = "100500";
const YOOKASSA_SECRET: &str = "test_Fh8hUAVVBGUGbjmlzba6TB0iyUbos_lueTHE";
const YOOKASSA_ADDRESS: &str = "185.71.76.10";

/// The four gateways' methods: the code, its name in the bot (Russian), its gateway.
const METHODS: [(&str, &str, &str); 4] = [
    ("card", "Банковская карта", "sandbox"),
    ("yk", "ЮKassa", "yookassa"),
    ("sbp", "СБП", "platega"),
    ("crypto", "Криптовалюта", "cryptopay"),
];

/// What the account sells through, and the one who buys.
struct Shop {
    yk: vp_testkit::yookassa::YooKassa,
    platega: Platega,
    crypto: CryptoPay,
    s: Server,
}

impl Shop {
    /// The customer pays `payment_id` on `gateway`'s page, and the gateway tells us as it does
    /// (the sandbox's page settles at once).
    fn pay(&self, gateway: &str, payment_id: &str) {
        match gateway {
            "sandbox" => support::partner::pay(&self.s, payment_id),
            "yookassa" => {
                let id =
                    self.yk.payment_for(payment_id).expect("a YooKassa payment")["id"].as_str().unwrap().to_owned();
                self.yk.pay(&id);
                let body = self.yk.notification("payment.succeeded", &id).to_string();
                let headers = [("content-type", "application/json"), ("x-forwarded-for", YOOKASSA_ADDRESS)];
                let r = self.s.request("POST", "/gateway/yookassa/notifications", &headers, Some(&body));
                assert_eq!(r.status, 200, "{}", r.text());
            }
            "platega" => {
                let txn = transaction(&self.platega, payment_id);
                self.platega.pay(&txn);
                assert_eq!(self.platega.callback(&platega_callbacks(&self.s), &txn, Credentials::Merchant), 200);
            }
            _ => {
                let id = crypto_invoice(&self.crypto, payment_id);
                self.crypto.pay(id);
                assert_eq!(self.crypto.webhook(&crypto_updates(&self.s), id, Signature::Genuine), 200);
            }
        }
    }

    /// Every gateway up (`None`) or one down.
    fn down(&self, gateway: Option<&str>) {
        use vp_testkit::yookassa::Mode as YkMode;
        self.yk.set_mode(if gateway == Some("yookassa") { YkMode::Down } else { YkMode::Up });
        self.platega.set_mode(if gateway == Some("platega") { platega::Mode::Down } else { platega::Mode::Up });
        self.crypto.set_mode(if gateway == Some("cryptopay") { cryptopay::Mode::Down } else { cryptopay::Mode::Up });
        let sandbox = if gateway == Some("sandbox") { "down" } else { "up" };
        self.s.cli_settled(&["sandbox", "gateway", sandbox]);
    }
}

#[test]
fn one_account_sells_through_every_gateway_at_once_over_the_api_the_bot_and_the_web_shop() {
    let yk = vp_testkit::yookassa::YooKassa::start(YOOKASSA_SHOP, YOOKASSA_SECRET);
    let platega = Platega::start(MERCHANT, PLATEGA_SECRET);
    let crypto = CryptoPay::start(CRYPTO_TOKEN);
    let (yk_url, platega_url, crypto_url) = (yk.api_url(), platega.api_url(), crypto.api_url());
    let env = [
        ("VP_YOOKASSA_SHOP_ID", YOOKASSA_SHOP),
        ("VP_YOOKASSA_SECRET_KEY", YOOKASSA_SECRET),
        ("VP_YOOKASSA_API_URL", yk_url.as_str()),
        ("VP_YOOKASSA_NOTIFY_FROM", "185.71.76.0/27"),
        ("VP_TRUSTED_PROXIES", "127.0.0.1/32"),
        ("VP_PLATEGA_MERCHANT_ID", MERCHANT),
        ("VP_PLATEGA_SECRET", PLATEGA_SECRET),
        ("VP_PLATEGA_API_URL", platega_url.as_str()),
        ("VP_CRYPTOPAY_TOKEN", CRYPTO_TOKEN),
        ("VP_CRYPTOPAY_API_URL", crypto_url.as_str()),
    ];
    let Some((telegram, s)) = support::chat::shop_with(Backend::Postgres, "gw_every", &env) else { return };
    let shop = Shop { yk, platega, crypto, s };
    let s = &shop.s;
    s.cli(&["method", "add", "yk", "--name-en", "YooKassa", "--name-ru", "ЮKassa", "--gateway", "yookassa:bank_card"]);
    s.cli(&["method", "set-gateway", "sbp", "platega:sbp"]);
    s.cli_settled(&[
        "method",
        "add",
        "crypto",
        "--name-en",
        "Crypto",
        "--name-ru",
        "Криптовалюта",
        "--gateway",
        "cryptopay",
    ]);
    let on: Vec<Value> =
        s.cli(&["gateway", "check"])["gateways"].as_array().unwrap().iter().map(|g| g["gateway"].clone()).collect();
    assert_eq!(on, [json!("sandbox"), json!("yookassa"), json!("platega"), json!("cryptopay")]);
    let receiver = support::receiver::Receiver::start();
    s.cli(&["endpoint", "add", &s.account_id, &receiver.url, "--type", "payment.succeeded"]);

    // The partner API: an invoice through each gateway, paid there.
    let mut paid = vec![];
    for (code, _, gateway) in METHODS {
        let issued = invoice(s, &format!("api-{code}"), code);
        let payment_id = issued["payment_id"].as_str().unwrap().to_owned();
        shop.pay(gateway, &payment_id);
        assert_eq!(status(s, &payment_id), "succeeded", "{gateway}");
        paid.push(payment_id);
    }

    // The web shop offers every method and sends the buyer to each gateway's page.
    let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
    for (code, _, _) in METHODS {
        assert!(page.contains(&format!("value=\"{code}\"")), "the shop offers {code}: {page}");
    }
    for (code, _, gateway) in METHODS {
        let page = s.get_raw("/shop/demo-vpn?lang=en", &[]).text();
        let form = field(&page, "form");
        let body = format!("form={form}&plan={}&method={code}&email=web-{code}%40example.com", field(&page, "plan"));
        let r = s.request(
            "POST",
            "/shop/demo-vpn?lang=en",
            &[("content-type", "application/x-www-form-urlencoded")],
            Some(&body),
        );
        assert_eq!(r.status, 303, "{code}: {}", r.text());
        let page_url = r.header("location").unwrap().to_owned();
        let payment_id = newest_invoice(s);
        assert_eq!(s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json()["payment_url"], json!(page_url));
        shop.pay(gateway, &payment_id);
        assert_eq!(status(s, &payment_id), "succeeded", "web shop, {gateway}");
        paid.push(payment_id);
    }

    // The partner's bot: each method among the choices, the invoice's button opens its gateway.
    for (n, (_, name, gateway)) in METHODS.iter().enumerate() {
        let person = support::chat::Person::new(&telegram, 777_000 + i64::try_from(n).unwrap());
        let menu = person.write("/start", "Добро пожаловать в Demo VPN!");
        let plans = person.press(&menu, "Купить подписку", "выберите тариф");
        let methods = person.press(&plans, "1 месяц", "Как вы хотите оплатить?");
        let labels = methods.button_labels();
        for (_, other, _) in METHODS {
            assert!(labels.iter().any(|l| l == other), "the bot offers {other}: {labels:?}");
        }
        let invoice = person.press(&methods, name, "Оплатите в течение");
        let url = support::chat::url_of(&invoice, "Оплатить 238,80\u{a0}₽");
        let payment_id = newest_invoice(s);
        assert_eq!(s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json()["payment_url"], json!(url));
        let seen = person.messages().len();
        shop.pay(gateway, &payment_id);
        person.next_with(seen, "Оплата получена");
        person.save_transcript(&format!("telegram-shop-paid-through-{gateway}"));
        paid.push(payment_id);
    }

    // Each paid once: one credit in the ledger and one `payment.succeeded` each.
    let credits =
        s.db.query_sql("SELECT payment_id FROM ledger_entries WHERE kind = 'partner_share_credit' ORDER BY payment_id");
    let mut expected = paid.clone();
    expected.sort();
    assert_eq!(credits, expected, "one credit per paid invoice");
    let mut told = std::collections::BTreeMap::new();
    while told.len() < paid.len() {
        let event = receiver.next_of("payment.succeeded", std::time::Duration::from_secs(30));
        *told.entry(event.json()["data"]["payment_id"].as_str().unwrap().to_owned()).or_insert(0) += 1;
    }
    assert!(paid.iter().all(|p| told.get(p) == Some(&1)), "each told once: {told:?}");

    // One gateway's outage is its methods' alone: 503 and no invoice for them, the others sell.
    for (down_code, _, down_gateway) in METHODS {
        shop.down(Some(down_gateway));
        for (code, _, _) in METHODS {
            let client = format!("out-{down_code}-{code}");
            let body = json!({"client_id": client, "purpose": "subscription", "plan_id": 1, "method": code});
            let r = post_payment(s, &format!("k-{client}"), &body);
            if code == down_code {
                assert_eq!((r.status, r.code()), (503, "PAYMENT_UNAVAILABLE".to_owned()), "{code}: {}", r.text());
                assert_eq!(s.api("GET", &format!("/clients/{client}"), None, &[]).status, 404, "no invoice");
            } else {
                assert_eq!(r.status, 201, "{code} sells while {down_gateway} is down: {}", r.text());
            }
        }
    }
    shop.down(None);
    shop.platega.assert_contract();
    shop.crypto.assert_contract();
    telegram.assert_contract();
}

/// The value of the first `name="<field>" value="…"` on a page.
fn field(page: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let (_, rest) = page.split_once(&marker).unwrap_or_else(|| panic!("no {name} field: {page}"));
    rest.split('"').next().unwrap().to_owned()
}

/// The account's newest invoice.
fn newest_invoice(s: &Server) -> String {
    let rows = s.db.query_sql("SELECT payment_id FROM invoices ORDER BY created_at DESC, payment_id LIMIT 1");
    rows.into_iter().next().expect("an invoice")
}

/// The last paid-access check's findings as `/metrics` shows them: (repaired, not repaired).
fn paid_without_access(s: &Server) -> Option<(String, String)> {
    let text = s.metrics();
    let value = |repaired: &str| {
        let prefix = format!("vp_paid_without_access{{repaired=\"{repaired}\"}} ");
        text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).map(str::to_owned)
    };
    Some((value("true")?, value("false")?)).filter(|(r, n)| r != "NaN" && n != "NaN")
}

fn paid_invoices_without_their_access_are_found_repaired_where_possible_and_counted(backend: Backend) {
    use support::server::METRICS_TOKEN;
    let env = [("VP_SHIFTED_CLOCK", "on"), ("VP_METRICS_TOKEN", METRICS_TOKEN)];
    let Some(s) = Server::start_with(backend, "gw_paid_access", &env) else { return };
    // The check runs once an hour in whichever process comes first (the server's loop or the
    // `jobs` command); what either logged is returned.
    let check = |expect: (&str, &str)| {
        s.cli(&["clock", "advance", "61m"]);
        let (_, jobs) = s.cli_raw(&["jobs"]);
        let seen = support::wait_for(std::time::Duration::from_secs(30), || {
            paid_without_access(&s).filter(|found| (found.0.as_str(), found.1.as_str()) == expect)
        });
        assert!(seen.is_some(), "expected {expect:?}, /metrics shows {:?}", paid_without_access(&s));
        jobs + &s.log()
    };
    support::partner::buy(&s, "kept", 1);
    support::partner::buy(&s, "disabled", 1);
    support::partner::buy(&s, "cut", 1);
    check(("0", "0"));

    // Behind the service's back: one client's panel user turned off, another's term cut short.
    let client_ref =
        |client: &str| s.db.query_sql(&format!("SELECT id FROM clients WHERE client_id = '{client}'"))[0].clone();
    let disabled = client_ref("disabled");
    s.db.execute_sql(&format!("UPDATE local_panel_users SET enabled = false WHERE user_ref = '{disabled}'"));
    check(("1", "0"));
    let enabled = s.db.query_sql(&format!("SELECT enabled FROM local_panel_users WHERE user_ref = '{disabled}'"));
    assert!(matches!(enabled[0].as_str(), "t" | "1"), "the panel user is on again: {enabled:?}");

    let cut = client_ref("cut");
    let end = "2026-01-01 00:00:00";
    s.db.execute_sql(&format!("UPDATE subscriptions SET expires_at = '{end}' WHERE client_ref = '{cut}'"));
    let told = check(("0", "1"));
    assert!(told.contains("paid without access: the term does not cover the payment"), "told: {told}");
}
