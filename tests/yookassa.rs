//! The real binary with `VP_GATEWAY=yookassa` against the YooKassa emulator, on SQLite and on
//! PostgreSQL: paid, expired, late-paid, declined, captured and refunded invoices; notifications
//! that settle once, forged ones that change nothing, ones from addresses outside the allowed
//! ranges; a lost notification settled by reconciliation; the gateway down or still processing
//! (503, no invoice, the retry makes one YooKassa payment); a crash between the YooKassa call
//! and our commit (the completer finishes with the same payment); a method the shop lacks.

use crate::support;

use serde_json::{Value, json};
use support::partner::{post_payment, rand_suffix, subscription};
use support::server::{Backend, Response, Server};
use vp_testkit::yookassa::{Mode, YooKassa};

const SHOP: &str = "100500";
const SECRET: &str = "test_Fh8hUAVVBGUGbjmlzba6TB0iyUbos_lueTHE";
/// YooKassa posts from its own ranges; here through a reverse proxy on loopback.
const YOOKASSA_ADDRESS: &str = "185.71.76.10";

each_backend!(
    notifications_settle_paid_expired_declined_and_captured_invoices_once,
    forged_and_foreign_notifications_change_nothing,
    late_payments_lost_notifications_and_refunds_are_settled,
    an_unanswered_gateway_issues_no_invoice_and_the_retry_makes_one_payment,
    a_crash_after_the_yookassa_call_is_finished_with_the_same_payment,
    a_card_saved_with_the_customers_consent_renews_the_term_without_the_customer,
    a_renewal_run_killed_midway_leaves_exactly_one_charge_per_client_and_term,
    with_receipts_on_every_payment_and_its_refund_carry_the_buyers_receipt,
);

fn start(backend: Backend, name: &str) -> Option<(YooKassa, Server)> {
    start_with(backend, name, &[])
}

fn start_with(backend: Backend, name: &str, more: &[(&str, &str)]) -> Option<(YooKassa, Server)> {
    let yk = YooKassa::start(SHOP, SECRET);
    let api_url = yk.api_url();
    let mut env = vec![
        ("VP_GATEWAY", "yookassa"),
        ("VP_YOOKASSA_SHOP_ID", SHOP),
        ("VP_YOOKASSA_SECRET_KEY", SECRET),
        ("VP_YOOKASSA_API_URL", api_url.as_str()),
        ("VP_YOOKASSA_NOTIFY_FROM", "185.71.76.0/27,77.75.156.11"),
        ("VP_TRUSTED_PROXIES", "127.0.0.1/32"),
        ("VP_SHIFTED_CLOCK", "on"),
    ];
    env.extend_from_slice(more);
    let server = Server::start_with(backend, name, &env)?;
    Some((yk, server))
}

/// A card invoice for `client`; returns it.
fn invoice(s: &Server, client: &str) -> Value {
    let r = post_payment(s, &format!("k-{client}-{}", rand_suffix()), &subscription(client, 1));
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn read(s: &Server, payment_id: &str) -> Value {
    s.api("GET", &format!("/payments/{payment_id}"), None, &[]).json()
}

/// The YooKassa payment behind an invoice.
fn gateway_id(yk: &YooKassa, payment_id: &str) -> String {
    yk.payment_for(payment_id).expect("a YooKassa payment for the invoice")["id"].as_str().unwrap().to_owned()
}

/// Posts a notification as it reaches us through the reverse proxy from `sender`.
fn notify_from(s: &Server, sender: Option<&str>, body: &Value) -> Response {
    let mut headers = vec![("content-type", "application/json")];
    if let Some(ip) = sender {
        headers.push(("x-forwarded-for", ip));
    }
    s.request("POST", "/gateway/yookassa/notifications", &headers, Some(&body.to_string()))
}

fn notify(s: &Server, yk: &YooKassa, event: &str, object_id: &str) -> Response {
    notify_from(s, Some(YOOKASSA_ADDRESS), &yk.notification(event, object_id))
}

/// Money strings ("95.40") as exact kopecks.
fn kopecks(text: &str) -> i64 {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "00"));
    whole.parse::<i64>().unwrap() * 100 + fraction.parse::<i64>().unwrap()
}

fn balance(s: &Server) -> String {
    s.cli(&["account", "show", &s.account_id])["partner_balance"].as_str().unwrap().to_owned()
}

fn notifications_settle_paid_expired_declined_and_captured_invoices_once(backend: Backend) {
    let Some((yk, s)) = start(backend, "yk_notify") else { return };
    let paid = invoice(&s, "paid");
    let id = paid["payment_id"].as_str().unwrap();
    let yk_id = gateway_id(&yk, id);
    let payment = yk.payment(&yk_id).unwrap();
    assert_eq!(paid["payment_url"], payment["confirmation"]["confirmation_url"], "the customer pays on YooKassa");
    assert_eq!(payment["metadata"], json!({"payment_id": id, "account_id": s.account_id}));
    assert_eq!(payment["amount"], json!({"value": paid["amount"], "currency": "RUB"}));
    assert_eq!(payment["confirmation"]["return_url"], json!(format!("{}/payment-result/{id}", s.base)));
    let create = yk.received().into_iter().find(|r| r.method == "POST" && r.path == "/payments").unwrap();
    assert_eq!(create.idempotence_key.as_deref(), Some(id), "Idempotence-Key is the invoice id");
    let sent: Value = serde_json::from_slice(&create.body).unwrap();
    assert_eq!(sent["payment_method_data"], json!({"type": "bank_card"}), "the card method's YooKassa type");

    yk.pay(&yk_id);
    assert_eq!(notify(&s, &yk, "payment.succeeded", &yk_id).status, 200);
    let settled = read(&s, id);
    assert_eq!((settled["status"].clone(), settled["payment_url"].clone()), (json!("succeeded"), Value::Null));
    assert_eq!(settled["client"]["subscription"]["status"], "active", "access granted");
    assert_eq!(notify(&s, &yk, "payment.succeeded", &yk_id).status, 200, "a repeat is answered");
    assert_eq!(balance(&s), paid["partner_share"].as_str().unwrap(), "and settles once");

    let expired = invoice(&s, "expired");
    let expired_id = expired["payment_id"].as_str().unwrap();
    yk.cancel(&gateway_id(&yk, expired_id), "expired_on_confirmation");
    assert_eq!(notify(&s, &yk, "payment.canceled", &gateway_id(&yk, expired_id)).status, 200);
    assert_eq!(read(&s, expired_id)["status"], "expired");

    let declined = invoice(&s, "declined");
    let declined_id = declined["payment_id"].as_str().unwrap();
    yk.cancel(&gateway_id(&yk, declined_id), "insufficient_funds");
    assert_eq!(notify(&s, &yk, "payment.canceled", &gateway_id(&yk, declined_id)).status, 200);
    assert_eq!(read(&s, declined_id)["status"], "failed");

    let held = invoice(&s, "held");
    let held_id = held["payment_id"].as_str().unwrap();
    yk.hold(&gateway_id(&yk, held_id));
    assert_eq!(notify(&s, &yk, "payment.waiting_for_capture", &gateway_id(&yk, held_id)).status, 200);
    assert_eq!(yk.payment(&gateway_id(&yk, held_id)).unwrap()["status"], "succeeded", "we captured it");
    assert_eq!(read(&s, held_id)["status"], "succeeded");

    let check = s.cli(&["gateway", "check", "yookassa"]);
    assert_eq!((&check["shop_id"], &check["default"]), (&json!(SHOP), &json!(true)));
    let all = s.cli(&["gateway", "check"]);
    let names: Vec<&Value> = all["gateways"].as_array().unwrap().iter().map(|g| &g["gateway"]).collect();
    assert_eq!(names, [&json!("sandbox"), &json!("yookassa")], "the sandbox is always on beside it");
    assert_eq!((check["test"].clone(), check["methods"].clone()), (json!(true), json!(["bank_card", "yoo_money"])));
}

fn forged_and_foreign_notifications_change_nothing(backend: Backend) {
    let Some((yk, s)) = start(backend, "yk_forged") else { return };
    let pending = invoice(&s, "victim");
    let id = pending["payment_id"].as_str().unwrap();
    let yk_id = gateway_id(&yk, id);
    let forged = json!({"type": "notification", "event": "payment.succeeded",
                        "object": {"id": yk_id, "status": "succeeded", "paid": true}});
    assert_eq!(notify_from(&s, Some(YOOKASSA_ADDRESS), &forged).status, 200);
    assert_eq!(read(&s, id)["status"], "pending", "YooKassa, asked, says pending: nothing changes");

    yk.pay(&yk_id);
    let real = yk.notification("payment.succeeded", &yk_id);
    for sender in [Some("203.0.113.9"), None, Some("185.71.76.10, 203.0.113.9")] {
        let r = notify_from(&s, sender, &real);
        assert_eq!(r.status, 403, "from {sender:?}: {}", r.text());
    }
    assert_eq!(read(&s, id)["status"], "pending", "refused senders change nothing");

    let unknown = json!({"type": "notification", "event": "payment.succeeded",
                         "object": {"id": "2f3b588d-000f-5000-8000-000000000000"}});
    assert_eq!(notify_from(&s, Some(YOOKASSA_ADDRESS), &unknown).status, 200, "an unknown payment is acknowledged");
    for malformed in ["not json", r#"{"type":"notification"}"#, r#"{"event":"payment.succeeded","object":{"id":"x"}}"#]
    {
        let r = s.request(
            "POST",
            "/gateway/yookassa/notifications",
            &[("content-type", "application/json"), ("x-forwarded-for", YOOKASSA_ADDRESS)],
            Some(malformed),
        );
        assert_eq!(r.status, 400, "{malformed}");
    }
    let other_event = json!({"type": "notification", "event": "payout.succeeded", "object": {"id": "po-1"}});
    assert_eq!(notify_from(&s, Some("77.75.156.11"), &other_event).status, 200, "unused events are acknowledged");
    assert_eq!(read(&s, id)["status"], "pending");
    assert_eq!(notify_from(&s, Some("77.75.156.11"), &real).status, 200);
    assert_eq!(read(&s, id)["status"], "succeeded", "the genuine notification settles it");
}

fn late_payments_lost_notifications_and_refunds_are_settled(backend: Backend) {
    let Some((yk, s)) = start(backend, "yk_late") else { return };
    let late = invoice(&s, "late");
    let late_id = late["payment_id"].as_str().unwrap();
    // Settled: the server must create the next invoice at the new time.
    s.cli_settled(&["clock", "advance", "31m"]);
    s.cli(&["jobs"]);
    assert_eq!(read(&s, late_id)["status"], "expired", "the 30-minute window passed");
    yk.pay(&gateway_id(&yk, late_id));
    assert_eq!(notify(&s, &yk, "payment.succeeded", &gateway_id(&yk, late_id)).status, 200);
    assert_eq!(read(&s, late_id)["status"], "succeeded", "a late payment succeeds");

    let lost = invoice(&s, "lost");
    let lost_id = lost["payment_id"].as_str().unwrap();
    yk.pay(&gateway_id(&yk, lost_id)); // and YooKassa's notification never arrives
    s.cli(&["jobs"]);
    assert_eq!(read(&s, lost_id)["status"], "pending", "not re-read before 2 minutes");
    s.cli(&["clock", "advance", "3m"]);
    s.cli(&["jobs"]);
    assert_eq!(read(&s, lost_id)["status"], "succeeded", "reconciliation settled it");

    let before = kopecks(&balance(&s));
    let share = kopecks(lost["partner_share"].as_str().unwrap());
    let refunded = s.cli(&["invoice", "refund", lost_id]);
    assert_eq!((refunded["status"].clone(), refunded["refund"].clone()), (json!("failed"), json!("succeeded")));
    let yk_refund = yk.payment(&gateway_id(&yk, lost_id)).unwrap();
    assert_eq!(yk_refund["refunded_amount"]["value"], lost["amount"], "refunded in full at YooKassa");
    assert_eq!(kopecks(&balance(&s)), before - share, "the partner share is reversed");
    let again = s.db.cli_raw(&["invoice", "refund", lost_id]);
    assert_eq!(again.0, Some(2), "a failed invoice cannot be refunded again: {}", again.1);

    let cabinet = invoice(&s, "cabinet");
    let cabinet_id = cabinet["payment_id"].as_str().unwrap();
    yk.pay(&gateway_id(&yk, cabinet_id));
    notify(&s, &yk, "payment.succeeded", &gateway_id(&yk, cabinet_id));
    let refund_id = yk.refund_in_cabinet(&gateway_id(&yk, cabinet_id));
    assert_eq!(notify(&s, &yk, "refund.succeeded", &refund_id).status, 200);
    assert_eq!(read(&s, cabinet_id)["status"], "failed", "a full refund is the spec's bank recall");
    assert_eq!(notify(&s, &yk, "refund.succeeded", &refund_id).status, 200);
    assert_eq!(kopecks(&balance(&s)), before - share, "each refund reversed its share exactly once");
}

fn an_unanswered_gateway_issues_no_invoice_and_the_retry_makes_one_payment(backend: Backend) {
    let Some((yk, s)) = start(backend, "yk_down") else { return };
    for (mode, client) in [(Mode::Down, "down"), (Mode::Processing, "processing"), (Mode::Accepted, "accepted")] {
        yk.set_mode(mode);
        let key = format!("k-{client}");
        let r = post_payment(&s, &key, &subscription(client, 1));
        assert_eq!((r.status, r.code().as_str()), (503, "PAYMENT_UNAVAILABLE"), "{mode:?}");
        assert_eq!(s.api("GET", &format!("/clients/{client}"), None, &[]).code(), "API_CLIENT_NOT_FOUND");
        yk.set_mode(Mode::Up);
        let retry = post_payment(&s, &key, &subscription(client, 1));
        assert_eq!(retry.status, 201, "{}", retry.text());
        let id = retry.json()["payment_id"].as_str().unwrap().to_owned();
        let keyed: Vec<_> =
            yk.received().into_iter().filter(|r| r.idempotence_key.as_deref() == Some(id.as_str())).collect();
        assert!(keyed.len() >= 2, "the retry resumed with the same Idempotence-Key");
        assert!(keyed.windows(2).all(|w| w[0].body == w[1].body), "with the same bytes");
        let payments = yk.payments().into_iter().filter(|p| p["metadata"]["payment_id"] == id.as_str()).count();
        assert_eq!(payments, 1, "YooKassa holds one payment for the invoice");
    }

    let sbp = json!({"client_id": "sbp-fan", "purpose": "subscription", "plan_id": 1, "method": "sbp"});
    let refused = post_payment(&s, "k-sbp", &sbp);
    assert_eq!((refused.status, refused.code().as_str()), (400, "UNSUPPORTED_PAYMENT_METHOD"), "the shop has no SBP");
    assert_eq!(s.api("GET", "/clients/sbp-fan", None, &[]).code(), "API_CLIENT_NOT_FOUND", "nothing half-created");
    s.cli_settled(&["method", "set-yookassa-type", "sbp", "none"]);
    let chosen_on_yookassa = post_payment(&s, "k-sbp", &sbp);
    assert_eq!(chosen_on_yookassa.status, 201, "the same key works: {}", chosen_on_yookassa.text());
    let id = chosen_on_yookassa.json()["payment_id"].as_str().unwrap().to_owned();
    assert!(yk.payment_for(&id).unwrap().get("payment_method_data").is_none());
}

fn a_crash_after_the_yookassa_call_is_finished_with_the_same_payment(backend: Backend) {
    let Some((yk, mut s)) = start(backend, "yk_crash") else { return };
    // YooKassa takes its time answering; the process dies before the answer arrives.
    yk.delay_next("POST", "/payments", std::time::Duration::from_millis(1500));
    let port = s.port;
    let auth = format!("Bearer {}", s.key);
    let body = subscription("crash", 1).to_string();
    let cut_off = std::thread::spawn(move || {
        let headers =
            [("authorization", auth.as_str()), ("content-type", "application/json"), ("idempotency-key", "k-crash")];
        std::panic::catch_unwind(|| {
            support::server::request(port, "POST", "/api/partner/v1/payments", &headers, Some(body.as_bytes()))
        })
    });
    while yk.arrived() == 0 && !cut_off.is_finished() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    s.kill_and_restart();
    let _ = cut_off.join();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(yk.payments().len(), 1, "YooKassa created the payment although we never heard back");

    s.cli(&["clock", "advance", "61s"]);
    s.cli(&["jobs"]);
    let keyed: Vec<_> = yk.received().into_iter().filter(|r| r.method == "POST").collect();
    assert_eq!(keyed.len(), 2, "the completer asked again");
    assert_eq!(keyed[0].idempotence_key, keyed[1].idempotence_key, "with the same Idempotence-Key");
    assert_eq!(keyed[0].body, keyed[1].body, "and byte-identical body");
    assert_eq!(yk.payments().len(), 1, "still one YooKassa payment");
    let replay = post_payment(&s, "k-crash", &subscription("crash", 1));
    assert_eq!(replay.status, 200, "{}", replay.text());
    assert_eq!(replay.json()["replayed"], true);
    assert_eq!(replay.json()["payment_url"], yk.payments()[0]["confirmation"]["confirmation_url"]);
}

fn a_card_saved_with_the_customers_consent_renews_the_term_without_the_customer(backend: Backend) {
    let Some((yk, s)) = start_with(backend, "yk_renewal", &[("VP_YOOKASSA_SAVE_METHODS", "on")]) else { return };
    let inv = invoice(&s, "renewing");
    let payment_id = inv["payment_id"].as_str().unwrap().to_owned();
    let created = yk.received().into_iter().find(|r| r.method == "POST").expect("the payment was created");
    let sent: Value = serde_json::from_slice(&created.body).unwrap();
    assert_eq!(sent["save_payment_method"], json!(true), "a periodic plan's payment asks to save the card: {sent}");
    yk.pay(&gateway_id(&yk, &payment_id));

    // Back on the result page (which re-reads the payment): the offer, then the consent.
    let page = s.get_raw(&format!("/payment-result/{payment_id}?lang=en"), &[]).text().replace('\u{a0}', " ");
    assert!(page.contains("Paid"), "{page}");
    assert!(
        page.contains("Renew automatically: RUB 238.80 for 1 month each time, next charge on")
            && page.contains("from the card you paid with."),
        "{page}"
    );
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let r = s.request("POST", &format!("/payment-result/{payment_id}?lang=en"), &form, Some("renew=on"));
    assert_eq!(r.status, 303, "{}", r.text());
    let page = s.get_raw(&format!("/payment-result/{payment_id}?lang=en"), &[]).text();
    assert!(page.contains("Automatic renewal is on"), "{page}");
    assert!(!page.contains("from the card you paid with."), "offered once: {page}");
    let client = || s.api("GET", "/clients/renewing", None, &[]).json();
    assert_eq!(client()["subscription"]["auto_renew"], true);

    // A day before the end the saved card is charged, without the customer, and the term moves.
    let end = time::OffsetDateTime::parse(
        client()["subscription"]["expires_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let now = time::OffsetDateTime::now_utc()
        + time::Duration::seconds(s.cli(&["clock", "show"])["offset_seconds"].as_i64().unwrap());
    let by = end - time::Duration::hours(24) - now;
    // Settled: the running server reads the clock's offset about once a second, and with the
    // old one it would drop a charge `jobs` queued as not due yet.
    s.cli_settled(&["clock", "advance", &format!("{}s", by.whole_seconds() + 1)]);
    s.cli(&["jobs"]);
    // The server's own term check may make the charge instead of `jobs`, a moment later.
    let saved_card_charges = || -> Vec<Value> {
        yk.received()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == "/payments")
            .map(|r| serde_json::from_slice(&r.body).unwrap())
            .filter(|b: &Value| b.get("payment_method_id").is_some())
            .collect()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while saved_card_charges().is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let charges = saved_card_charges();
    assert_eq!(charges.len(), 1, "one charge of the saved card");
    assert!(charges[0].get("confirmation").is_none(), "{}", charges[0]);
    assert_eq!(charges[0]["amount"], json!({"value": "238.80", "currency": "RUB"}));
    let expires = || {
        time::OffsetDateTime::parse(
            client()["subscription"]["expires_at"].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap()
    };
    while expires() <= end + time::Duration::days(27) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let renewed = expires();
    assert!(renewed > end + time::Duration::days(27), "the term moved on: {end} -> {renewed}");
    s.cli(&["jobs"]);
    let again = yk.received().into_iter().filter(|r| r.method == "POST" && r.path == "/payments").count();
    assert_eq!(again, 2, "the first payment and one renewal, nothing more");
}

/// The service's clock now.
fn service_now(s: &Server) -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
        + time::Duration::seconds(s.cli(&["clock", "show"])["offset_seconds"].as_i64().unwrap())
}

fn term_end(s: &Server, client: &str) -> time::OffsetDateTime {
    let shown = s.api("GET", &format!("/clients/{client}"), None, &[]).json();
    let text = shown["subscription"]["expires_at"].as_str().unwrap().to_owned();
    time::OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339).unwrap()
}

/// Renewal payments at YooKassa: the invoice of each payment not made for one of `bought`.
fn renewal_payments(yk: &YooKassa, bought: &[String]) -> Vec<String> {
    yk.payments()
        .into_iter()
        .map(|p| p["metadata"]["payment_id"].as_str().unwrap_or_default().to_owned())
        .filter(|invoice| !bought.contains(invoice))
        .collect()
}

fn a_renewal_run_killed_midway_leaves_exactly_one_charge_per_client_and_term(backend: Backend) {
    let Some((yk, s)) = start_with(backend, "yk_renewal_kill", &[("VP_YOOKASSA_SAVE_METHODS", "on")]) else { return };
    let clients: Vec<String> = (0..8).map(|n| format!("drill-{n}")).collect();
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let mut bought = vec![];
    for client in &clients {
        let payment_id = invoice(&s, client)["payment_id"].as_str().unwrap().to_owned();
        bought.push(payment_id.clone());
        yk.pay(&gateway_id(&yk, &payment_id));
        s.get_raw(&format!("/payment-result/{payment_id}"), &[]); // settles it (re-read)
        let r = s.request("POST", &format!("/payment-result/{payment_id}"), &form, Some("renew=on"));
        assert_eq!(r.status, 303, "{}", r.text());
    }
    let ends: Vec<time::OffsetDateTime> = clients.iter().map(|c| term_end(&s, c)).collect();
    let due = *ends.iter().max().unwrap() - time::Duration::hours(24) - service_now(&s);
    s.cli(&["clock", "advance", &format!("{}s", due.whole_seconds() + 1)]);

    // The first charge reaches YooKassa, which answers late; the run is killed meanwhile.
    let before = yk.arrived();
    yk.delay_next("POST", "/payments", std::time::Duration::from_secs(3));
    let mut run = s.db.spawn(&["jobs"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut runs = 1;
    while yk.arrived() == before {
        assert!(
            std::time::Instant::now() < deadline,
            "no charge reached YooKassa; the runs' log:\n{}",
            s.db.spawned_log()
        );
        // A run that ends before it reaches YooKassa (its unit of work lost to a busy
        // database on a loaded machine) leaves the charges to the next check, a claim's
        // lease later, as the service's own loop would: the kill is what is tested here.
        if let Ok(Some(status)) = run.try_wait() {
            assert!(runs < 3, "{runs} runs ended ({status}) before a charge reached YooKassa:\n{}", s.db.spawned_log());
            eprintln!("the run ended ({status}) before a charge reached YooKassa; its log:\n{}", s.db.spawned_log());
            s.cli(&["clock", "advance", "6m"]);
            run = s.db.spawn(&["jobs"]);
            runs += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    run.kill().expect("SIGKILL the renewal run");
    run.wait().unwrap();
    // YooKassa carries the charge out after its pause, though no one waits for the answer.
    while renewal_payments(&yk, &bought).is_empty() {
        assert!(std::time::Instant::now() < deadline, "the charge was not carried out");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(renewal_payments(&yk, &bought).len(), 1, "one charge made before the kill");

    // After the claim's lease, the next run asks again with the same keys and finishes.
    s.cli(&["clock", "advance", "6m"]);
    s.cli(&["jobs"]);
    let charged = renewal_payments(&yk, &bought);
    assert_eq!(charged.len(), clients.len(), "one charge per client: {charged:?}");
    let mut charged_clients: Vec<String> =
        charged.iter().map(|id| read(&s, id)["client_id"].as_str().unwrap().to_owned()).collect();
    charged_clients.sort();
    assert_eq!(charged_clients, clients, "each client charged once");
    for (client, end) in clients.iter().zip(ends) {
        assert_eq!(term_end(&s, client), vp_domain::subscription::add_months(end, 1), "{client}: one term added");
    }
    s.cli(&["jobs"]);
    assert_eq!(renewal_payments(&yk, &bought).len(), clients.len(), "nothing more");
}

#[test]
fn bad_gateway_settings_stop_the_start_naming_the_setting_without_the_secret() {
    let db = support::Scratch::new("yk_settings");
    let run = |env: &[(&str, &str)], args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_vp-api"))
            .args(args)
            .env("DATABASE_URL", &db.database_url)
            .env("VP_LOG", "warn")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (code, text) = run(&[("VP_GATEWAY", "yookassa"), ("VP_YOOKASSA_SHOP_ID", SHOP)], &["gateway", "check"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("VP_YOOKASSA_SECRET_KEY"), "{text}");
    let yk = YooKassa::start(SHOP, SECRET);
    let url = yk.api_url();
    let wrong = [
        ("VP_GATEWAY", "yookassa"),
        ("VP_YOOKASSA_SHOP_ID", SHOP),
        ("VP_YOOKASSA_SECRET_KEY", "test_wrong-secret-value"),
        ("VP_YOOKASSA_API_URL", url.as_str()),
    ];
    let (code, text) = run(&wrong, &["gateway", "check"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("VP_YOOKASSA_SECRET_KEY") && !text.contains("wrong-secret-value"), "{text}");
    let (code, text) = run(&wrong, &["--help"]);
    assert_eq!(code, Some(0));
    assert!(!text.contains("wrong-secret-value"), "--help shows no secret: {text}");
}

/// The body YooKassa received for the invoice's payment.
fn created_body(yk: &YooKassa, payment_id: &str) -> Value {
    yk.received()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/payments")
        .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap())
        .find(|b| b["metadata"]["payment_id"] == payment_id)
        .expect("the payment's creation")
}

fn with_receipts_on_every_payment_and_its_refund_carry_the_buyers_receipt(backend: Backend) {
    let receipts = [("VP_RECEIPTS", "on"), ("VP_RECEIPTS_TAX_SYSTEM", "2")];
    let Some((yk, s)) = start_with(backend, "yk_receipts", &receipts) else { return };
    let missing = post_payment(&s, "rc-missing", &subscription("rc-buyer", 1));
    assert_eq!((missing.status, missing.code().as_str()), (422, "VALIDATION_ERROR"), "{}", missing.text());
    assert!(missing.json()["error"]["fields"]["customer_email"].as_str().unwrap().contains("fiscal receipt"));
    let bad = post_payment(
        &s,
        "rc-bad",
        &json!({"client_id": "rc-buyer", "purpose": "subscription", "plan_id": 1,
        "method": "card", "customer_email": "no-at-sign"}),
    );
    assert_eq!(bad.status, 422);
    assert!(bad.json()["error"]["fields"]["customer_email"].is_string());
    assert!(yk.payments().is_empty(), "nothing was issued");

    let body = json!({"client_id": "rc-buyer", "purpose": "subscription", "plan_id": 1, "method": "card",
        "customer_email": "Buyer@Example.com"});
    let issued = post_payment(&s, "rc-1", &body);
    assert_eq!(issued.status, 201, "{}", issued.text());
    let id = issued.json()["payment_id"].as_str().unwrap().to_owned();
    assert_eq!(post_payment(&s, "rc-1", &body).status, 200, "the same fields replay");
    let changed = post_payment(
        &s,
        "rc-1",
        &json!({"client_id": "rc-buyer", "purpose": "subscription", "plan_id": 1,
        "method": "card", "customer_email": "other@example.com"}),
    );
    assert_eq!(changed.code(), "IDEMPOTENCY_KEY_REUSE", "the email is one of the request's fields");
    let receipt = created_body(&yk, &id)["receipt"].clone();
    assert_eq!(receipt["customer"], json!({"email": "buyer@example.com"}));
    assert_eq!(receipt["tax_system_code"], 2);
    assert_eq!(receipt["items"][0]["amount"]["value"], issued.json()["amount"]);
    assert_eq!(
        (receipt["items"][0]["payment_subject"].as_str(), receipt["items"][0]["payment_mode"].as_str()),
        (Some("service"), Some("full_payment"))
    );

    yk.pay(&gateway_id(&yk, &id));
    assert_eq!(notify(&s, &yk, "payment.succeeded", &gateway_id(&yk, &id)).status, 200);
    assert_eq!(read(&s, &id)["status"], "succeeded");
    let refunded = s.cli(&["invoice", "refund", &id]);
    assert_eq!(refunded["refund"], "succeeded", "{refunded}");
    let refund = yk
        .received()
        .iter()
        .find(|r| r.method == "POST" && r.path == "/refunds")
        .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap())
        .expect("the refund request");
    assert_eq!(refund["receipt"], receipt, "the refund's receipt has the payment's lines");
}
