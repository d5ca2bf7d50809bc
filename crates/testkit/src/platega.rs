//! Platega's API on loopback, as its published SDK models it (PyPI `aioplatega`, pinned in
//! `contract/platega`): `X-MerchantId` and `X-Secret` on every call, `POST
//! /transaction/process` making a new transaction each time (Platega takes no idempotency key),
//! `GET /transaction/{id}`, the balance operations page `gateway check` reads, and the errors'
//! `{message}`. The test moves transactions (pay, cancel, chargeback), posts callbacks with the
//! merchant's credentials or forged ones, and makes the API fail: no answer (down, 503), a lost
//! answer, a slow one. Every exchange is kept for `assert_contract`, which checks them against
//! the SDK's models. docs/platega.md lists the fields the adapter relies on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Value, json};

use crate::faults::{Faults, fault_switches};
use crate::gateway_contract::{Exchange, check};
use crate::http::{HttpServer, Reply, Request, send};

pub use crate::faults::Mode;

/// Which credentials a callback carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credentials {
    /// The merchant's own id and secret.
    Merchant,
    /// The right id, a wrong secret.
    WrongSecret,
    /// None at all.
    Missing,
}

struct State {
    merchant_id: String,
    secret: String,
    base: String,
    faults: Faults,
    transactions: Vec<Value>,
    exchanges: Vec<Exchange>,
}

pub struct Platega {
    state: Arc<Mutex<State>>,
    server: HttpServer,
}

static IDS: AtomicU64 = AtomicU64::new(1);

/// A transaction id shaped like Platega's (a UUID).
fn transaction_id() -> String {
    let n = IDS.fetch_add(1, Ordering::Relaxed);
    let nanos = time::OffsetDateTime::now_utc().unix_timestamp_nanos().unsigned_abs() as u64;
    format!("{:08x}-{:04x}-4{:03x}-8000-{:012x}", (nanos >> 20) as u32, (nanos >> 4) & 0xffff, n & 0xfff, n)
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn error(status: u16, message: &str) -> Reply {
    Reply::json(status, &json!({ "message": message }))
}

impl Platega {
    pub fn start(merchant_id: &str, secret: &str) -> Platega {
        let state = Arc::new(Mutex::new(State {
            merchant_id: merchant_id.to_owned(),
            secret: secret.to_owned(),
            base: String::new(),
            faults: Faults::new(),
            transactions: vec![],
            exchanges: vec![],
        }));
        let handler_state = state.clone();
        let server = HttpServer::start(move |req| handle(&handler_state, req));
        lock(&state).base = server.url();
        Platega { state, server }
    }

    /// `VP_PLATEGA_API_URL`.
    pub fn api_url(&self) -> String {
        self.server.url()
    }

    fault_switches!();

    /// Every transaction, as `GET /transaction/{id}` shows it.
    pub fn transactions(&self) -> Vec<Value> {
        lock(&self.state).transactions.clone()
    }

    /// The transactions made for our invoice (its `payload`), oldest first.
    pub fn transactions_for(&self, invoice_id: &str) -> Vec<Value> {
        lock(&self.state).transactions.iter().filter(|t| t["payload"] == invoice_id).cloned().collect()
    }

    /// The customer paid.
    pub fn pay(&self, id: &str) {
        self.set_status(id, "CONFIRMED");
    }

    /// The customer gave up, or the transaction timed out.
    pub fn cancel(&self, id: &str) {
        self.set_status(id, "CANCELED");
    }

    /// The bank recalled a confirmed payment.
    pub fn chargeback(&self, id: &str) {
        self.set_status(id, "CHARGEBACKED");
    }

    fn set_status(&self, id: &str, status: &str) {
        let mut s = lock(&self.state);
        let t = s.transactions.iter_mut().find(|t| t["id"] == id);
        t.unwrap_or_else(|| panic!("the emulator has no transaction {id}"))["status"] = json!(status);
    }

    /// Posts the transaction's callback to `url` as Platega does (`CallbackPayload`), with
    /// `credentials`; returns the answer's status (0: no answer).
    pub fn callback(&self, url: &str, id: &str, credentials: Credentials) -> u16 {
        let (body, merchant_id, secret) = {
            let mut s = lock(&self.state);
            let t = s.transactions.iter().find(|t| t["id"] == id).cloned();
            let t = t.unwrap_or_else(|| panic!("the emulator has no transaction {id}"));
            let body = json!({
                "id": t["id"],
                "amount": t["paymentDetails"]["amount"],
                "currency": t["paymentDetails"]["currency"],
                "status": t["status"],
                "paymentMethod": t["paymentMethodInt"],
                "payload": t["payload"],
            });
            s.exchanges.push(Exchange::new("platega", "callback", json!({}), body.clone(), 200, json!({})));
            (body, s.merchant_id.clone(), s.secret.clone())
        };
        let wrong = format!("{secret}-forged");
        let mut headers = vec![("content-type", "application/json")];
        match credentials {
            Credentials::Merchant => {
                headers.extend([("x-merchantid", merchant_id.as_str()), ("x-secret", secret.as_str())])
            }
            Credentials::WrongSecret => {
                headers.extend([("x-merchantid", merchant_id.as_str()), ("x-secret", wrong.as_str())])
            }
            Credentials::Missing => {}
        }
        send("POST", url, &headers, body.to_string().as_bytes()).map_or(0, |a| a.status)
    }

    /// Checks every exchange so far against the SDK's models; panics with the findings.
    pub fn assert_contract(&self) {
        let exchanges = lock(&self.state).exchanges.clone();
        assert!(!exchanges.is_empty(), "no Platega exchange to check");
        if let Err(findings) = check("platega", &exchanges) {
            panic!("exchanges with the Platega emulator break its API as aioplatega models it:\n{findings}");
        }
    }
}

fn handle(state: &Mutex<State>, req: &Request) -> Reply {
    if req.path.starts_with("/pay/") {
        return Reply::text(200, "Platega emulator: the payment page");
    }
    let met = lock(state).faults.meet(req.path == "/transaction/process");
    met.reply(|| error(500, "Internal server error"), || api(&mut lock(state), req))
}

fn api(s: &mut State, req: &Request) -> Reply {
    if req.header("x-merchantid") != Some(s.merchant_id.as_str()) || req.header("x-secret") != Some(s.secret.as_str()) {
        return error(401, "Unauthorized");
    }
    match (req.method.as_str(), req.path.as_str()) {
        ("POST", "/transaction/process") => create(s, req),
        ("GET", "/transaction/balance-unlock-operations") => {
            Reply::json(200, &json!({"content": [], "totalElements": 0, "totalPages": 0, "page": 0, "size": 1}))
        }
        ("GET", path) if path.starts_with("/transaction/") => {
            let id = &path["/transaction/".len()..];
            match s.transactions.iter().find(|t| t["id"] == id) {
                Some(t) => {
                    let shown = status_view(t);
                    s.exchanges.push(Exchange::new("platega", "status", json!({}), json!({}), 200, shown.clone()));
                    Reply::json(200, &shown)
                }
                None => error(404, "Transaction not found"),
            }
        }
        _ => error(404, "Not found"),
    }
}

/// A JSON number of at most two decimals, above zero (read as text: the emulator takes no
/// float's word for money either).
fn is_amount(v: &Value) -> bool {
    let text = v.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((text.as_str(), ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    v.is_number()
        && !whole.is_empty()
        && digits(whole)
        && digits(fraction)
        && fraction.len() <= 2
        && text.bytes().any(|b| (b'1'..=b'9').contains(&b))
}

fn create(s: &mut State, req: &Request) -> Reply {
    let Some(body) = req.json().filter(Value::is_object) else { return error(400, "Request body is not JSON") };
    let method = body["paymentMethod"].as_u64();
    if !matches!(method, Some(2 | 10 | 11 | 12 | 13)) {
        return error(400, "Unknown paymentMethod");
    }
    let details = &body["paymentDetails"];
    if !is_amount(&details["amount"]) || details["currency"] != "RUB" {
        return error(400, "paymentDetails must carry an amount and the currency RUB");
    }
    for field in ["description", "return", "failedUrl", "payload"] {
        if !(body[field].is_null() || body[field].is_string()) {
            return error(400, &format!("{field} must be a string"));
        }
    }
    let id = transaction_id();
    let method_name = if method == Some(2) { "SBPQR" } else { "CardRu" };
    let transaction = json!({
        "id": id,
        "status": "PENDING",
        "paymentDetails": {"amount": details["amount"], "currency": "RUB"},
        "merchantName": "Emulated merchant",
        "merchantId": s.merchant_id,
        "comission": 0.0,
        "paymentMethod": method_name,
        "paymentMethodInt": method,
        "expiresIn": "00:15:00",
        "return": body["return"],
        "payload": body["payload"],
        "description": body["description"],
        "redirect": format!("{}/pay/{id}", s.base),
    });
    s.transactions.push(transaction);
    let answer = json!({
        "paymentMethod": method_name,
        "transactionId": id,
        "redirect": format!("{}/pay/{id}", s.base),
        "return": body["return"],
        "paymentDetails": {"amount": details["amount"], "currency": "RUB"},
        "status": "PENDING",
        "expiresIn": "00:15:00",
        "merchantId": s.merchant_id,
    });
    s.exchanges.push(Exchange::new("platega", "create", json!({}), body, 200, answer.clone()));
    Reply::json(200, &answer)
}

/// `GET /transaction/{id}` as `TransactionStatusResponse`.
fn status_view(t: &Value) -> Value {
    json!({
        "id": t["id"],
        "status": t["status"],
        "paymentDetails": t["paymentDetails"],
        "merchantName": t["merchantName"],
        "merchantId": t["merchantId"],
        "comission": t["comission"],
        "paymentMethod": t["paymentMethod"],
        "expiresIn": t["expiresIn"],
        "return": t["return"],
        "payload": t["payload"],
        "description": t["description"],
    })
}
