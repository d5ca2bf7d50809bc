//! A YooKassa API v3 on loopback, as YooKassa's API reference and its official SDK models
//! (PyPI `yookassa`) describe it: Basic auth, `Idempotence-Key` semantics (the same key and
//! body give the same result; the same key with another body is refused), redirect payments
//! with a `confirmation_url`, statuses moved by the test (pay, hold for capture, cancel with a
//! reason, refund), capture and refunds, `GET /me`, the error object, and failure modes (no
//! answer, 500 with `retry_after`, 202 "processing", a lost answer, a slow answer).
//! docs/yookassa.md lists the fields the adapter relies on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::http::{HttpServer, Reply, Request};

/// How the emulator answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Up,
    /// Every request gets a 503 from the front proxy.
    Down,
    /// Every POST gets YooKassa's documented "result unknown": HTTP 500 with `retry_after`.
    Processing,
    /// Every POST gets the SDKs' "processing": HTTP 202 with `retry_after`.
    Accepted,
}

/// A request as the emulator received it (raw body bytes kept).
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub idempotence_key: Option<String>,
    pub body: Vec<u8>,
    pub status: u16,
}

struct Stored {
    /// method + path + canonical body the key was first used with.
    request: (String, String, Value),
    status: u16,
    response: Value,
}

struct State {
    shop_id: String,
    secret_key: String,
    base: String,
    mode: Mode,
    test_shop: bool,
    methods: Vec<String>,
    payments: Vec<Value>,
    refunds: Vec<Value>,
    keys: HashMap<String, Stored>,
    received: Vec<Received>,
    /// (method, path prefix, pause): the next such request answers after the pause.
    delay_next: Option<(String, String, Duration)>,
    /// (method, path prefix): the next such request is carried out but its answer is lost.
    lose_next: Option<(String, String)>,
    /// Refunds stay `pending` until `confirm_refunds`.
    refunds_pending: bool,
    /// Requests that reached the emulator, counted on arrival (before any delay).
    arrived: usize,
    /// Payments created with `save_payment_method: true`.
    save_asked: Vec<String>,
    /// Ids of the payment methods saved so far (`payment_method.saved`).
    saved_methods: Vec<String>,
    /// Charges of saved methods are declined (`insufficient_funds`).
    decline_saved: bool,
}

pub struct YooKassa {
    state: Arc<Mutex<State>>,
    server: HttpServer,
}

static IDS: AtomicU64 = AtomicU64::new(1);

/// A 36-character id shaped like YooKassa's (`2f3b588d-000f-5000-8000-1d6e87c7fbde`).
fn object_id() -> String {
    let n = IDS.fetch_add(1, Ordering::Relaxed);
    let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos().unsigned_abs() as u64;
    format!("{:08x}-000f-5000-8000-{:012x}", (nanos >> 16) as u32, n)
}

fn now_text() -> String {
    let now = OffsetDateTime::now_utc();
    let ms = now.replace_nanosecond(now.nanosecond() / 1_000_000 * 1_000_000).unwrap_or(now);
    ms.format(&Rfc3339).unwrap_or_default()
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// YooKassa's error object.
fn error(status: u16, code: &str, description: &str, parameter: Option<&str>) -> Reply {
    let mut body = json!({"type": "error", "id": object_id(), "code": code, "description": description});
    if let Some(p) = parameter {
        body["parameter"] = json!(p);
    }
    Reply::json(status, &body)
}

fn invalid(description: &str, parameter: &str) -> Reply {
    error(400, "invalid_request", description, Some(parameter))
}

fn is_money(v: &Value) -> bool {
    let text = v.get("value").and_then(Value::as_str).unwrap_or("");
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.len() == 2
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && v.get("currency").and_then(Value::as_str) == Some("RUB")
}

/// `payment_subject` and `payment_mode` values of the SDK's `ReceiptItem`.
const PAYMENT_SUBJECTS: [&str; 13] = [
    "commodity",
    "excise",
    "job",
    "service",
    "gambling_bet",
    "gambling_prize",
    "lottery",
    "lottery_prize",
    "intellectual_activity",
    "payment",
    "agent_commission",
    "composite",
    "another",
];
const PAYMENT_MODES: [&str; 7] =
    ["full_prepayment", "partial_prepayment", "advance", "full_payment", "partial_payment", "credit", "credit_payment"];

/// A receipt as the SDK's `Receipt`, `ReceiptCustomer` and `ReceiptItem` take it and
/// `PaymentRequest.validate` / `RefundRequest.validate` check it, with the API's rule that the
/// lines add up to the amount: an email of `^[^@]+@[^@]+\.[^@]+$` or a phone; lines with a
/// description (at most 128 characters), a quantity above 0, an amount, the documented subject
/// and mode, and a `vat_code` unless the receipt has a `tax_system_code` (1 to 6).
fn check_receipt(receipt: &Value, total: i64) -> Result<(), Reply> {
    let customer = &receipt["customer"];
    let email = customer["email"].as_str().or(receipt["email"].as_str());
    let phone = customer["phone"].as_str().or(receipt["phone"].as_str());
    if let Some(email) = email {
        let (local, domain) = email.split_once('@').unwrap_or(("", ""));
        let dot = domain.split_once('.').is_some_and(|(a, b)| !a.is_empty() && !b.is_empty());
        if local.is_empty() || domain.contains('@') || !dot {
            return Err(invalid("Invalid email value", "receipt.customer.email"));
        }
    }
    if email.is_none() && phone.is_none() {
        return Err(invalid("Both email and phone values are empty in receipt", "receipt.customer"));
    }
    let tax = &receipt["tax_system_code"];
    if !tax.is_null() && !tax.as_u64().is_some_and(|t| (1..=6).contains(&t)) {
        return Err(invalid("Invalid tax_system_code value", "receipt.tax_system_code"));
    }
    let Some(items) = receipt["items"].as_array().filter(|i| !i.is_empty()) else {
        return Err(invalid("Receipt items are empty", "receipt.items"));
    };
    let mut sum = 0;
    for item in items {
        let description = item["description"].as_str().unwrap_or("");
        if description.is_empty() || description.chars().count() > 128 {
            return Err(invalid("Invalid description value", "receipt.items.description"));
        }
        let quantity = item["quantity"].as_str().and_then(|q| q.parse::<f64>().ok()).filter(|q| *q > 0.0);
        let Some(quantity) = quantity else {
            return Err(invalid("Invalid quantity value", "receipt.items.quantity"));
        };
        if !is_money(&item["amount"]) {
            return Err(invalid("Invalid amount value", "receipt.items.amount"));
        }
        let vat = &item["vat_code"];
        if vat.is_null() && tax.is_null() {
            return Err(invalid("Item vat_code and receipt tax_system_id not specified", "receipt.items.vat_code"));
        }
        if !vat.is_null() && !vat.as_u64().is_some_and(|v| (1..=12).contains(&v)) {
            return Err(invalid("Invalid vat_code value", "receipt.items.vat_code"));
        }
        if !PAYMENT_SUBJECTS.contains(&item["payment_subject"].as_str().unwrap_or("")) {
            return Err(invalid("Invalid payment_subject value", "receipt.items.payment_subject"));
        }
        if !PAYMENT_MODES.contains(&item["payment_mode"].as_str().unwrap_or("")) {
            return Err(invalid("Invalid payment_mode value", "receipt.items.payment_mode"));
        }
        sum += (kopecks(&item["amount"]) as f64 * quantity).round() as i64;
    }
    if sum != total {
        return Err(invalid("The receipt's items do not add up to the amount", "receipt.items.amount"));
    }
    Ok(())
}

fn kopecks(amount: &Value) -> i64 {
    amount["value"].as_str().unwrap_or("0").replace('.', "").parse().unwrap_or(0)
}

fn money(kopecks: i64) -> Value {
    json!({"value": format!("{}.{:02}", kopecks / 100, kopecks % 100), "currency": "RUB"})
}

/// The `payment_method_data.type` values of the API reference.
const METHOD_TYPES: [&str; 11] = [
    "bank_card",
    "cash",
    "sberbank",
    "tinkoff_bank",
    "yoo_money",
    "mobile_balance",
    "b2b_sberbank",
    "sbp",
    "sber_loan",
    "electronic_certificate",
    "sber_bnpl",
];

impl YooKassa {
    /// A shop with these credentials; bank cards and the YooMoney wallet enabled (as a test
    /// shop has).
    pub fn start(shop_id: &str, secret_key: &str) -> YooKassa {
        let state = Arc::new(Mutex::new(State {
            shop_id: shop_id.to_owned(),
            secret_key: secret_key.to_owned(),
            base: String::new(),
            mode: Mode::Up,
            test_shop: true,
            methods: vec!["bank_card".into(), "yoo_money".into()],
            payments: vec![],
            refunds: vec![],
            keys: HashMap::new(),
            received: vec![],
            delay_next: None,
            lose_next: None,
            refunds_pending: false,
            arrived: 0,
            save_asked: vec![],
            saved_methods: vec![],
            decline_saved: false,
        }));
        let handler_state = state.clone();
        let server = HttpServer::start(move |req| handle(&handler_state, req));
        lock(&state).base = server.url();
        YooKassa { state, server }
    }

    /// `VP_YOOKASSA_API_URL`: `http://127.0.0.1:PORT/v3`.
    pub fn api_url(&self) -> String {
        format!("{}/v3", self.server.url())
    }

    pub fn set_mode(&self, mode: Mode) {
        lock(&self.state).mode = mode;
    }

    /// The method types enabled in the shop (`GET /me`); a payment with another is refused.
    pub fn set_methods(&self, methods: &[&str]) {
        lock(&self.state).methods = methods.iter().map(|m| (*m).to_owned()).collect();
    }

    /// The next request with `method` to a path starting with `prefix` answers after `pause`.
    pub fn delay_next(&self, method: &str, prefix: &str, pause: Duration) {
        lock(&self.state).delay_next = Some((method.to_owned(), prefix.to_owned(), pause));
    }

    /// The next request with `method` to a path starting with `prefix` is carried out, but
    /// the connection closes instead of the answer.
    pub fn lose_next_answer(&self, method: &str, prefix: &str) {
        lock(&self.state).lose_next = Some((method.to_owned(), prefix.to_owned()));
    }

    /// Refunds stay pending until `confirm_refunds`.
    pub fn hold_refunds(&self) {
        lock(&self.state).refunds_pending = true;
    }

    /// Pending refunds succeed; returns their ids.
    pub fn confirm_refunds(&self) -> Vec<String> {
        let mut s = lock(&self.state);
        s.refunds_pending = false;
        let mut done = vec![];
        let pending: Vec<(String, String, i64)> = s
            .refunds
            .iter()
            .filter(|r| r["status"] == "pending")
            .map(|r| {
                (
                    r["id"].as_str().unwrap_or("").to_owned(),
                    r["payment_id"].as_str().unwrap_or("").to_owned(),
                    kopecks(&r["amount"]),
                )
            })
            .collect();
        for (refund_id, payment_id, amount) in pending {
            if let Some(r) = s.refunds.iter_mut().find(|r| r["id"] == refund_id.as_str()) {
                r["status"] = json!("succeeded");
            }
            add_refunded(&mut s, &payment_id, amount);
            done.push(refund_id);
        }
        done
    }

    /// Every payment, as `GET /payments/{id}` shows it.
    pub fn payments(&self) -> Vec<Value> {
        lock(&self.state).payments.clone()
    }

    pub fn payment(&self, id: &str) -> Option<Value> {
        lock(&self.state).payments.iter().find(|p| p["id"] == id).cloned()
    }

    /// The payment whose metadata names our invoice.
    pub fn payment_for(&self, invoice_id: &str) -> Option<Value> {
        lock(&self.state).payments.iter().find(|p| p["metadata"]["payment_id"] == invoice_id).cloned()
    }

    /// How many requests reached the emulator, answered or not yet.
    pub fn arrived(&self) -> usize {
        lock(&self.state).arrived
    }

    /// Every request received, in order.
    pub fn received(&self) -> Vec<Received> {
        lock(&self.state).received.clone()
    }

    /// The customer paid by card: a pending payment succeeds (captured at once, as `capture:
    /// true` asks), with the card as its `payment_method`, saved when the payment asked to.
    pub fn pay(&self, id: &str) {
        let mut s = lock(&self.state);
        let saved = s.save_asked.iter().any(|p| p == id);
        let method = card(saved);
        if saved {
            let method_id = method["id"].as_str().unwrap_or_default().to_owned();
            s.saved_methods.push(method_id);
        }
        let payment = s.payments.iter_mut().find(|p| p["id"] == id);
        let p = payment.unwrap_or_else(|| panic!("the emulator has no payment {id}"));
        succeed(p);
        p["payment_method"] = method;
        p.as_object_mut().map(|o| o.remove("confirmation"));
    }

    /// Charges of saved methods are declined from now (`true`) or pay again (`false`).
    pub fn decline_saved_methods(&self, decline: bool) {
        lock(&self.state).decline_saved = decline;
    }

    /// The customer paid a two-stage payment: it waits for the shop's capture.
    pub fn hold(&self, id: &str) {
        self.edit(id, |p| {
            p["status"] = json!("waiting_for_capture");
            p["paid"] = json!(true);
            p["expires_at"] = json!(now_text());
            p.as_object_mut().map(|o| o.remove("confirmation"));
        });
    }

    /// The payment is canceled with `reason` (`expired_on_confirmation`, `insufficient_funds`...).
    pub fn cancel(&self, id: &str, reason: &str) {
        let party = if reason == "expired_on_confirmation" { "yoo_money" } else { "payment_network" };
        self.edit(id, |p| {
            p["status"] = json!("canceled");
            p["paid"] = json!(false);
            p["cancellation_details"] = json!({"party": party, "reason": reason});
            p.as_object_mut().map(|o| o.remove("confirmation"));
        });
    }

    /// A full refund made in YooKassa's merchant cabinet; returns the refund's id.
    pub fn refund_in_cabinet(&self, payment_id: &str) -> String {
        let mut s = lock(&self.state);
        let amount = s.payments.iter().find(|p| p["id"] == payment_id).map_or(0, |p| kopecks(&p["amount"]));
        let refund = new_refund(payment_id, amount, "succeeded");
        let id = refund["id"].as_str().unwrap_or_default().to_owned();
        s.refunds.push(refund);
        add_refunded(&mut s, payment_id, amount);
        id
    }

    /// A notification as YooKassa posts it: the event and the object as it now stands.
    pub fn notification(&self, event: &str, object_id: &str) -> Value {
        let s = lock(&self.state);
        let object = if event.starts_with("refund.") {
            s.refunds.iter().find(|r| r["id"] == object_id).cloned()
        } else {
            s.payments.iter().find(|p| p["id"] == object_id).cloned()
        };
        json!({"type": "notification", "event": event, "object": object.unwrap_or(Value::Null)})
    }

    fn edit(&self, id: &str, change: impl FnOnce(&mut Value)) {
        let mut s = lock(&self.state);
        let payment = s.payments.iter_mut().find(|p| p["id"] == id);
        change(payment.unwrap_or_else(|| panic!("the emulator has no payment {id}")));
    }
}

/// A bank card as the SDK's `BankCardPaymentMethod` shows it.
fn card(saved: bool) -> Value {
    json!({
        "type": "bank_card",
        "id": object_id(),
        "saved": saved,
        "title": "Bank card *4444",
        "card": {"first6": "555555", "last4": "4444", "expiry_year": "2030", "expiry_month": "12", "card_type": "MasterCard"},
    })
}

/// A payment goes through and is captured.
fn succeed(p: &mut Value) {
    p["status"] = json!("succeeded");
    p["paid"] = json!(true);
    p["captured_at"] = json!(now_text());
    p["refundable"] = json!(true);
    p["income_amount"] = money(kopecks(&p["amount"]) * 965 / 1000);
}

fn new_refund(payment_id: &str, amount: i64, status: &str) -> Value {
    json!({
        "id": object_id(),
        "payment_id": payment_id,
        "status": status,
        "created_at": now_text(),
        "amount": money(amount),
    })
}

fn add_refunded(s: &mut State, payment_id: &str, amount: i64) {
    if let Some(p) = s.payments.iter_mut().find(|p| p["id"] == payment_id) {
        let total = p.get("refunded_amount").map_or(0, kopecks) + amount;
        p["refunded_amount"] = money(total);
        p["refundable"] = json!(total < kopecks(&p["amount"]));
    }
}

fn handle(state: &Mutex<State>, req: &Request) -> Reply {
    if req.path.starts_with("/checkout/") {
        return Reply::text(200, "YooKassa emulator: the payment page");
    }
    let Some(path) = req.path.strip_prefix("/v3") else { return Reply::text(404, "Not found") };
    let key = req.header("idempotence-key").map(str::to_owned);
    let (mode, delay, lose) = {
        let mut s = lock(state);
        s.arrived += 1;
        let matches = |(m, p): (&String, &String)| m.as_str() == req.method && path.starts_with(p.as_str());
        let delay = s.delay_next.take_if(|(m, p, _)| matches((m, p))).map(|(_, _, d)| d);
        let lose = s.lose_next.take_if(|(m, p)| matches((m, p))).is_some();
        (s.mode, delay, lose)
    };
    if let Some(d) = delay {
        std::thread::sleep(d);
    }
    let reply = match mode {
        Mode::Down => Reply::text(503, "503 Service Temporarily Unavailable"),
        Mode::Processing if req.method == "POST" => Reply::json(
            500,
            &json!({"type": "error", "id": object_id(), "code": "internal_server_error",
                    "description": "Internal server error", "retry_after": 1800}),
        ),
        Mode::Accepted if req.method == "POST" => Reply::json(
            202,
            &json!({"type": "error", "id": object_id(), "code": "request_accepted", "retry_after": 1800}),
        ),
        _ => api(&mut lock(state), req, path, key.as_deref()),
    };
    let status = match &reply {
        Reply::Respond { status, .. } => *status,
        Reply::Close => 0,
    };
    lock(state).received.push(Received {
        method: req.method.clone(),
        path: path.to_owned(),
        idempotence_key: key,
        body: req.body.clone(),
        status,
    });
    if lose { Reply::Close } else { reply }
}

fn api(s: &mut State, req: &Request, path: &str, key: Option<&str>) -> Reply {
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", s.shop_id, s.secret_key))
    );
    if req.header("authorization") != Some(expected.as_str()) {
        return error(
            401,
            "invalid_credentials",
            "Incorrect password format in the Authorization header. Use Secret key issued in Merchant Profile as the password",
            Some("Authorization"),
        );
    }
    let segments: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    if req.method == "POST" {
        let Some(key) = key.filter(|k| !k.is_empty()) else {
            return invalid("Idempotence key is empty", "Idempotence-Key");
        };
        if key.len() > 64 {
            return invalid("Idempotence key is too long. Max. length is 64", "Idempotence-Key");
        }
        let body = if req.body.is_empty() {
            json!({})
        } else {
            match serde_json::from_slice::<Value>(&req.body) {
                Ok(v) if v.is_object() => v,
                _ => return invalid("Request body is not a JSON object", "body"),
            }
        };
        let request = (req.method.clone(), path.to_owned(), body.clone());
        if let Some(stored) = s.keys.get(key) {
            return if stored.request == request {
                Reply::json(stored.status, &stored.response)
            } else {
                invalid("Idempotence key duplicated", "Idempotence-Key")
            };
        }
        let reply = match segments.as_slice() {
            ["payments"] => create_payment(s, &body),
            ["payments", id, "capture"] => capture(s, id, &body),
            ["refunds"] => create_refund(s, &body),
            _ => return error(404, "not_found", "Not found", None),
        };
        if let Reply::Respond { status, body: bytes, .. } = &reply {
            if *status < 500 {
                let response = serde_json::from_slice(bytes).unwrap_or(Value::Null);
                s.keys.insert(key.to_owned(), Stored { request, status: *status, response });
            }
        }
        return reply;
    }
    match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["payments", id]) => match s.payments.iter().find(|p| p["id"] == *id) {
            Some(p) => Reply::json(200, p),
            None => error(404, "not_found", "Payment not found or forbidden", None),
        },
        ("GET", ["refunds", id]) => match s.refunds.iter().find(|r| r["id"] == *id) {
            Some(r) => Reply::json(200, r),
            None => error(404, "not_found", "Refund not found or forbidden", None),
        },
        ("GET", ["me"]) => Reply::json(
            200,
            &json!({
                "account_id": s.shop_id,
                "test": s.test_shop,
                "status": "enabled",
                "fiscalization_enabled": false,
                "payment_methods": s.methods,
            }),
        ),
        _ => error(404, "not_found", "Not found", None),
    }
}

fn create_payment(s: &mut State, body: &Value) -> Reply {
    let allowed = [
        "amount",
        "capture",
        "confirmation",
        "description",
        "metadata",
        "payment_method_data",
        "save_payment_method",
        "payment_method_id",
        "receipt",
    ];
    if let Some(extra) = body.as_object().and_then(|o| o.keys().find(|k| !allowed.contains(&k.as_str()))) {
        // Other documented fields exist (airline, transfers, ...) but the adapter must not send them.
        return invalid("The emulator does not take this parameter", extra);
    }
    if !is_money(&body["amount"]) || kopecks(&body["amount"]) <= 0 {
        return invalid("Invalid amount value", "amount.value");
    }
    if let Some(receipt) = body.get("receipt") {
        if let Err(refused) = check_receipt(receipt, kopecks(&body["amount"])) {
            return refused;
        }
    }
    if !body["capture"].is_boolean() && !body["capture"].is_null() {
        return invalid("Invalid capture value", "capture");
    }
    if !body["save_payment_method"].is_boolean() && !body["save_payment_method"].is_null() {
        return invalid("Invalid save_payment_method value", "save_payment_method");
    }
    if let Some(method_id) = body.get("payment_method_id") {
        return charge_saved_method(s, body, method_id);
    }
    let confirmation = &body["confirmation"];
    if confirmation["type"] != "redirect" {
        return invalid("Invalid confirmation type", "confirmation.type");
    }
    let Some(return_url) = confirmation["return_url"].as_str().filter(|u| !u.is_empty() && u.len() <= 2048) else {
        return invalid("Return url is missing", "confirmation.return_url");
    };
    let description = body["description"].as_str().unwrap_or("");
    if description.chars().count() > 128 {
        return invalid("Description is too long. Max. length is 128", "description");
    }
    if let Some(meta) = body.get("metadata") {
        let Some(meta) = meta.as_object() else { return invalid("Invalid metadata", "metadata") };
        if meta.len() > 16
            || meta.iter().any(|(k, v)| k.chars().count() > 32 || v.as_str().is_none_or(|v| v.chars().count() > 512))
        {
            return invalid("Invalid metadata", "metadata");
        }
    }
    if let Some(data) = body.get("payment_method_data") {
        let kind = data["type"].as_str().unwrap_or("");
        if !METHOD_TYPES.contains(&kind) {
            return invalid("Illegal payment method type", "payment_method_data.type");
        }
        // Assumption (YooKassa does not document the exact answer): a type the shop has not
        // enabled is a 403 naming the parameter.
        if !s.methods.iter().any(|m| m == kind) {
            return error(
                403,
                "forbidden",
                "Payment method is not available for this shop",
                Some("payment_method_data.type"),
            );
        }
    }
    let id = object_id();
    let payment = json!({
        "id": id,
        "status": "pending",
        "paid": false,
        "amount": body["amount"],
        "description": description,
        "recipient": {"account_id": s.shop_id, "gateway_id": "100700"},
        "created_at": now_text(),
        "confirmation": {
            "type": "redirect",
            "return_url": return_url,
            "confirmation_url": format!("{}/checkout/payments/v2/contract?orderId={id}", s.base),
        },
        "test": s.test_shop,
        "refundable": false,
        "metadata": body.get("metadata").cloned().unwrap_or_else(|| json!({})),
    });
    if body["save_payment_method"] == json!(true) {
        s.save_asked.push(id);
    }
    s.payments.push(payment.clone());
    Reply::json(200, &payment)
}

/// A payment with a saved method (`payment_method_id`), made without the customer: no
/// confirmation; it succeeds at once, or is canceled when the method no longer pays.
fn charge_saved_method(s: &mut State, body: &Value, method_id: &Value) -> Reply {
    let Some(method_id) = method_id.as_str().filter(|id| s.saved_methods.iter().any(|m| m == id)) else {
        return invalid("Payment method is not saved or not found", "payment_method_id");
    };
    if body.get("confirmation").is_some() || body.get("payment_method_data").is_some() {
        return invalid("A saved method is charged without confirmation or method data", "payment_method_id");
    }
    let mut method = card(true);
    method["id"] = json!(method_id);
    let mut payment = json!({
        "id": object_id(),
        "status": "pending",
        "paid": false,
        "amount": body["amount"],
        "description": body["description"].as_str().unwrap_or(""),
        "recipient": {"account_id": s.shop_id, "gateway_id": "100700"},
        "created_at": now_text(),
        "payment_method": method,
        "test": s.test_shop,
        "refundable": false,
        "metadata": body.get("metadata").cloned().unwrap_or_else(|| json!({})),
    });
    if s.decline_saved {
        payment["status"] = json!("canceled");
        payment["cancellation_details"] = json!({"party": "payment_network", "reason": "insufficient_funds"});
    } else {
        succeed(&mut payment);
    }
    s.payments.push(payment.clone());
    Reply::json(200, &payment)
}

fn capture(s: &mut State, id: &str, body: &Value) -> Reply {
    let Some(p) = s.payments.iter_mut().find(|p| p["id"] == id) else {
        return error(404, "not_found", "Payment not found or forbidden", None);
    };
    if p["status"] != "waiting_for_capture" {
        return invalid("Payment can not be captured in current status", "payment_id");
    }
    if body.get("amount").is_some_and(|a| !is_money(a) || kopecks(a) > kopecks(&p["amount"])) {
        return invalid("Illegal amount for capture", "amount");
    }
    p["status"] = json!("succeeded");
    p["captured_at"] = json!(now_text());
    p["refundable"] = json!(true);
    Reply::json(200, p)
}

fn create_refund(s: &mut State, body: &Value) -> Reply {
    let Some(payment_id) = body["payment_id"].as_str() else {
        return invalid("Payment id not specified", "payment_id");
    };
    if !is_money(&body["amount"]) {
        return invalid("Invalid amount value", "amount.value");
    }
    let amount = kopecks(&body["amount"]);
    if let Some(extra) = body
        .as_object()
        .and_then(|o| o.keys().find(|k| !["payment_id", "amount", "description", "receipt"].contains(&k.as_str())))
    {
        return invalid("The emulator does not take this parameter", extra);
    }
    if let Some(receipt) = body.get("receipt") {
        if let Err(refused) = check_receipt(receipt, amount) {
            return refused;
        }
    }
    let Some(p) = s.payments.iter().find(|p| p["id"] == payment_id) else {
        return error(404, "not_found", "Payment not found or forbidden", None);
    };
    if p["status"] != "succeeded" {
        return invalid("Payment can not be refunded in current status", "payment_id");
    }
    if amount > kopecks(&p["amount"]) - p.get("refunded_amount").map_or(0, kopecks) {
        return invalid("Refund sum exceeded", "amount.value");
    }
    let status = if s.refunds_pending { "pending" } else { "succeeded" };
    let refund = new_refund(payment_id, amount, status);
    s.refunds.push(refund.clone());
    if status == "succeeded" {
        add_refunded(s, payment_id, amount);
    }
    Reply::json(200, &refund)
}
