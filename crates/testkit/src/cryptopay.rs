//! The Crypto Pay API (Crypto Bot) on loopback, as its most used typed SDK models it (PyPI
//! `aiocryptopay`, pinned in `contract/cryptopay`): the token in `Crypto-Pay-API-Token`, methods
//! at `/api/{method}` with their parameters in the query string (as the SDK sends them) or a
//! JSON body, `{ok, result}` and `{ok: false, error: {code, name}}` answers. `createInvoice`
//! makes a new invoice each time (the API takes no idempotency key); `getInvoices` reads them
//! by id. The test pays or expires invoices and posts `invoice_paid` updates signed as the API
//! documents (HMAC-SHA256 of the raw body, keyed with the SHA-256 of the token, hex in
//! `crypto-pay-api-signature`), or forged; and makes the API fail: down, a lost answer, a slow
//! one. Every exchange is kept for `assert_contract`. docs/cryptopay.md lists the fields the
//! adapter relies on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ring::{digest, hmac};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::faults::{Faults, fault_switches};
use crate::gateway_contract::{Exchange, check};
use crate::http::{HttpServer, Reply, Request, send};

pub use crate::faults::Mode;

/// How an update is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signature {
    /// As the API signs it, with the app's token.
    Genuine,
    /// Signed with another token.
    Forged,
    /// No signature header.
    Missing,
}

struct State {
    token: String,
    faults: Faults,
    invoices: Vec<Value>,
    exchanges: Vec<Exchange>,
    updates: u64,
}

pub struct CryptoPay {
    state: Arc<Mutex<State>>,
    server: HttpServer,
}

static IDS: AtomicU64 = AtomicU64::new(1);

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn now_text() -> String {
    let now = OffsetDateTime::now_utc();
    now.replace_nanosecond(0).unwrap_or(now).format(&Rfc3339).unwrap_or_default()
}

fn error(status: u16, code: u16, name: &str) -> Reply {
    Reply::json(status, &json!({"ok": false, "error": {"code": code, "name": name}}))
}

/// The hex signature of `body` under `token`, as the API signs updates.
pub fn signature(token: &str, body: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, digest::digest(&digest::SHA256, token.as_bytes()).as_ref());
    hmac::sign(&key, body).as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

impl CryptoPay {
    pub fn start(token: &str) -> CryptoPay {
        let state = Arc::new(Mutex::new(State {
            token: token.to_owned(),
            faults: Faults::new(),
            invoices: vec![],
            exchanges: vec![],
            updates: 0,
        }));
        let handler_state = state.clone();
        let server = HttpServer::start(move |req| handle(&handler_state, req));
        CryptoPay { state, server }
    }

    /// `VP_CRYPTOPAY_API_URL`.
    pub fn api_url(&self) -> String {
        self.server.url()
    }

    fault_switches!();

    /// Every invoice, as `getInvoices` shows it.
    pub fn invoices(&self) -> Vec<Value> {
        lock(&self.state).invoices.clone()
    }

    /// The invoices made for our invoice (its `payload`), oldest first.
    pub fn invoices_for(&self, payment_id: &str) -> Vec<Value> {
        lock(&self.state).invoices.iter().filter(|i| i["payload"] == payment_id).cloned().collect()
    }

    /// The customer paid in USDT.
    pub fn pay(&self, invoice_id: i64) {
        self.edit(invoice_id, |i| {
            i["status"] = json!("paid");
            i["paid_at"] = json!(now_text());
            i["paid_asset"] = json!("USDT");
            i["paid_amount"] = json!("2.49");
            i["paid_fiat_rate"] = json!("96.00");
            i["paid_usd_rate"] = json!("1.00");
            i["fee_asset"] = json!("USDT");
            i["fee_amount"] = json!("0.07");
            i["paid_anonymously"] = json!(false);
        });
    }

    /// The invoice's time ran out unpaid.
    pub fn expire(&self, invoice_id: i64) {
        self.edit(invoice_id, |i| i["status"] = json!("expired"));
    }

    fn edit(&self, invoice_id: i64, change: impl FnOnce(&mut Value)) {
        let mut s = lock(&self.state);
        let invoice = s.invoices.iter_mut().find(|i| i["invoice_id"] == invoice_id);
        change(invoice.unwrap_or_else(|| panic!("the emulator has no invoice {invoice_id}")));
    }

    /// Posts the invoice's `invoice_paid` update to `url`, signed as `how`; returns the
    /// answer's status (0: no answer).
    pub fn webhook(&self, url: &str, invoice_id: i64, how: Signature) -> u16 {
        let (raw, token) = {
            let mut s = lock(&self.state);
            let invoice = s.invoices.iter().find(|i| i["invoice_id"] == invoice_id).cloned();
            let invoice = invoice.unwrap_or_else(|| panic!("the emulator has no invoice {invoice_id}"));
            s.updates += 1;
            let body = json!({
                "update_id": s.updates,
                "update_type": "invoice_paid",
                "request_date": now_text(),
                "payload": invoice,
            });
            let raw = body.to_string();
            let params = json!({"token": s.token, "raw": raw, "signature": signature(&s.token, raw.as_bytes())});
            s.exchanges.push(Exchange::new("cryptopay", "webhook", params, body, 200, json!({})));
            (raw, s.token.clone())
        };
        let signed = match how {
            Signature::Genuine => Some(signature(&token, raw.as_bytes())),
            Signature::Forged => Some(signature(&format!("{token}-forged"), raw.as_bytes())),
            Signature::Missing => None,
        };
        let mut headers = vec![("content-type", "application/json")];
        if let Some(sig) = signed.as_deref() {
            headers.push(("crypto-pay-api-signature", sig));
        }
        send("POST", url, &headers, raw.as_bytes()).map_or(0, |a| a.status)
    }

    /// Checks every exchange so far against the SDK's models; panics with the findings.
    pub fn assert_contract(&self) {
        let exchanges = lock(&self.state).exchanges.clone();
        assert!(!exchanges.is_empty(), "no Crypto Pay exchange to check");
        if let Err(findings) = check("cryptopay", &exchanges) {
            panic!("exchanges with the Crypto Pay emulator break its API as aiocryptopay models it:\n{findings}");
        }
    }
}

/// A call's parameters: the query string's, or a JSON body's (as strings).
fn params(req: &Request) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for (k, v) in req.query_pairs() {
        out.insert(k, Value::String(v));
    }
    if let Some(Value::Object(body)) = req.json() {
        for (k, v) in body {
            let text = match v {
                Value::String(s) => s,
                Value::Array(items) => {
                    items.iter().map(|i| i.as_str().unwrap_or_default()).collect::<Vec<_>>().join(",")
                }
                other => other.to_string(),
            };
            out.insert(k, Value::String(text));
        }
    }
    out
}

fn handle(state: &Mutex<State>, req: &Request) -> Reply {
    let met = lock(state).faults.meet(req.path == "/api/createInvoice");
    met.reply(|| error(500, 500, "INTERNAL_ERROR"), || api(&mut lock(state), req))
}

fn api(s: &mut State, req: &Request) -> Reply {
    if req.header("crypto-pay-api-token") != Some(s.token.as_str()) {
        return error(401, 401, "UNAUTHORIZED");
    }
    let Some(method) = req.path.strip_prefix("/api/") else { return error(404, 404, "METHOD_NOT_FOUND") };
    let p = params(req);
    let answer = match method {
        "getMe" => {
            Ok(json!({"app_id": 4242, "name": "Emulated shop", "payment_processing_bot_username": "CryptoTestnetBot"}))
        }
        "createInvoice" => create(s, &p),
        "getInvoices" => get_invoices(s, &p),
        _ => return error(404, 404, "METHOD_NOT_FOUND"),
    };
    let (status, body) = match answer {
        Ok(result) => (200, json!({"ok": true, "result": result})),
        Err(name) => (400, json!({"ok": false, "error": {"code": 400, "name": name}})),
    };
    s.exchanges.push(Exchange::new("cryptopay", method, Value::Object(p), json!({}), status, body.clone()));
    Reply::json(status, &body)
}

fn is_amount(text: &str) -> bool {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    !whole.is_empty() && digits(whole) && digits(fraction) && text.bytes().any(|b| (b'1'..=b'9').contains(&b))
}

const ASSETS: [&str; 8] = ["USDT", "TON", "BTC", "ETH", "LTC", "BNB", "TRX", "USDC"];

fn create(s: &mut State, p: &serde_json::Map<String, Value>) -> Result<Value, &'static str> {
    let get = |k: &str| p.get(k).and_then(Value::as_str);
    let amount = get("amount").filter(|a| is_amount(a)).ok_or("AMOUNT_INVALID")?;
    let fiat = match get("currency_type").unwrap_or("crypto") {
        "fiat" => Some(get("fiat").filter(|f| matches!(*f, "RUB" | "USD" | "EUR")).ok_or("FIAT_INVALID")?),
        "crypto" => {
            get("asset").filter(|a| ASSETS.contains(a)).ok_or("ASSET_INVALID")?;
            None
        }
        _ => return Err("CURRENCY_TYPE_INVALID"),
    };
    if let Some(accepted) = get("accepted_assets") {
        if fiat.is_none() || !accepted.split(',').all(|a| ASSETS.contains(&a)) {
            return Err("ACCEPTED_ASSETS_INVALID");
        }
    }
    if let Some(expires) = get("expires_in") {
        if !expires.parse::<u32>().is_ok_and(|e| (1..=2_678_400).contains(&e)) {
            return Err("EXPIRES_IN_INVALID");
        }
    }
    if get("payload").is_some_and(|payload| payload.len() > 4096) {
        return Err("PAYLOAD_TOO_LONG");
    }
    if get("description").is_some_and(|d| d.chars().count() > 1024) {
        return Err("DESCRIPTION_TOO_LONG");
    }
    let id = i64::try_from(IDS.fetch_add(1, Ordering::Relaxed)).unwrap_or(i64::MAX);
    let hash = format!("IV{id:010}");
    let mut invoice = json!({
        "invoice_id": id,
        "hash": hash,
        "currency_type": if fiat.is_some() { "fiat" } else { "crypto" },
        "fiat": fiat,
        "asset": get("asset"),
        "amount": amount,
        "accepted_assets": get("accepted_assets").map(|a| a.split(',').collect::<Vec<_>>()),
        "bot_invoice_url": format!("https://t.me/CryptoTestnetBot?start={hash}"),
        "mini_app_invoice_url": format!("https://t.me/CryptoTestnetBot/app?startapp=invoice-{hash}"),
        "web_app_invoice_url": format!("https://testnet-app.send.tg/invoices/{hash}"),
        "description": get("description"),
        "status": "active",
        "created_at": now_text(),
        "allow_comments": true,
        "allow_anonymous": true,
        "payload": get("payload"),
        "expiration_date": get("expires_in").map(|_| now_text()),
    });
    // The API leaves out what was not given.
    if let Some(object) = invoice.as_object_mut() {
        object.retain(|_, v| !v.is_null());
    }
    s.invoices.push(invoice.clone());
    Ok(invoice)
}

fn get_invoices(s: &State, p: &serde_json::Map<String, Value>) -> Result<Value, &'static str> {
    let ids: Vec<i64> = match p.get("invoice_ids").and_then(Value::as_str) {
        Some(list) => {
            list.split(',').map(|i| i.parse().map_err(|_| "INVOICE_IDS_INVALID")).collect::<Result<_, _>>()?
        }
        None => vec![],
    };
    let items: Vec<Value> = s
        .invoices
        .iter()
        .filter(|i| ids.is_empty() || i["invoice_id"].as_i64().is_some_and(|id| ids.contains(&id)))
        .cloned()
        .collect();
    Ok(json!({ "items": items }))
}
