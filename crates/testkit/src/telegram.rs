//! A Telegram Bot API emulator on loopback, after the Bot API reference
//! (https://core.telegram.org/bots/api): `POST /bot<token>/<method>` with a JSON body, answered
//! with the `{"ok": ..., "result" | "error_code", "description", "parameters"}` envelope. It
//! knows several bots by their tokens (401 for any other, as for a revoked one) and serves
//! `getMe`, the profile methods, `sendMessage` (at most 30 a second per bot, then 429 with
//! `retry_after`), `getUpdates` (with `offset` confirming earlier updates and `timeout` long
//! polling, capped at two seconds so tests stay quick; 409 while a webhook is set or another
//! poll of the same bot is open), and `setWebhook`, `deleteWebhook`, `getWebhookInfo`. With a
//! webhook set, a message to the bot is posted to it with `X-Telegram-Bot-Api-Secret-Token`,
//! through `deliver_to` (the TLS-terminating proxy in front of the service: Telegram only posts
//! to https). A test presses the bot's Start button, writes to it, blocks it in a chat and
//! makes sends fail.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http::{HttpServer, Reply, Request};

/// The longest a `getUpdates` call waits here, whatever `timeout` it asks for.
pub const LONG_POLL_CAP: Duration = Duration::from_secs(2);
/// Messages a bot may send in a second before Telegram answers 429 (the Bot API FAQ).
pub const SENDS_PER_SECOND: usize = 30;

/// A bot the emulator knows: its token, id and username, and its profile as set by the
/// `setMy*` methods (by language code, `""` for the default).
#[derive(Default)]
struct Bot {
    token: String,
    id: i64,
    username: String,
    name: String,
    short_descriptions: Vec<(String, String)>,
    descriptions: Vec<(String, String)>,
    commands: Vec<(String, Value)>,
    menu_button: Option<Value>,
    /// `(url, secret_token)` while a webhook is set.
    webhook: Option<(String, String)>,
    /// Whether a `getUpdates` of this bot is open now.
    polling: bool,
    /// When its last messages were sent, for the 30-a-second limit.
    recent_sends: Vec<Instant>,
}

/// Sets `value` for `code` in a per-language list.
fn put(list: &mut Vec<(String, String)>, code: &str, value: &str) {
    list.retain(|(c, _)| c != code);
    list.push((code.to_owned(), value.to_owned()));
}

/// A bot's profile as a test reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotProfileSeen {
    pub name: String,
    /// `(language code, text)`, `""` for the default.
    pub short_descriptions: Vec<(String, String)>,
    pub descriptions: Vec<(String, String)>,
    /// `(language code, [command, ...])`.
    pub commands: Vec<(String, Vec<String>)>,
    pub menu_button: Option<Value>,
}

struct State {
    /// The bot `start` made first; partners' bots added with `add_bot` after it.
    bots: Vec<Bot>,
    /// Updates not yet confirmed, by the bot's token.
    updates: Vec<(String, Value)>,
    next_update_id: i64,
    /// Messages sent: the bot's token, the chat, the text and the `reply_markup`.
    sent: Vec<(String, i64, String, Option<Value>)>,
    /// Where webhook posts go instead of the webhook's own host (`http://127.0.0.1:PORT`).
    deliver_to: Option<String>,
    /// `getUpdates` calls answered 409 because another poll of the bot was open.
    poll_conflicts: usize,
    /// Sends answered 429 for going over 30 a second.
    throttled: usize,
    /// Every call and webhook post, for the contract check.
    exchanges: Vec<Value>,
    /// While set, `sendMessage` calls wait (in flight, as over a slow network) until released.
    hold_sends: bool,
    /// `sendMessage` calls waiting now.
    held: usize,
    blocked: Vec<i64>,
    /// Statuses the next sends fail with (429 carries `retry_after`).
    failures: Vec<(u16, Option<u64>)>,
    calls: Vec<String>,
}

pub struct TelegramEmulator {
    state: Arc<(Mutex<State>, Condvar)>,
    server: HttpServer,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn error(code: u16, description: &str) -> Reply {
    Reply::json(code, &json!({"ok": false, "error_code": code, "description": description}))
}

impl TelegramEmulator {
    /// A bot with this token and username.
    pub fn start(token: &str, username: &str) -> TelegramEmulator {
        let state = Arc::new((
            Mutex::new(State {
                bots: vec![Bot {
                    token: token.to_owned(),
                    id: 123_456_789,
                    username: username.to_owned(),
                    ..Bot::default()
                }],
                updates: vec![],
                next_update_id: 700_000_001,
                sent: vec![],
                deliver_to: None,
                poll_conflicts: 0,
                throttled: 0,
                exchanges: vec![],
                hold_sends: false,
                held: 0,
                blocked: vec![],
                failures: vec![],
                calls: vec![],
            }),
            Condvar::new(),
        ));
        let handler_state = state.clone();
        let server = HttpServer::start(move |req| handle(&handler_state, req));
        TelegramEmulator { state, server }
    }

    /// Another bot Telegram knows (a partner's, made in BotFather).
    pub fn add_bot(&self, token: &str, id: i64, username: &str) {
        lock(&self.state.0).bots.push(Bot {
            token: token.to_owned(),
            id,
            username: username.to_owned(),
            ..Bot::default()
        });
    }

    /// The profile a bot shows now (`None` for a token the emulator does not know).
    pub fn profile(&self, token: &str) -> Option<BotProfileSeen> {
        let s = lock(&self.state.0);
        let bot = s.bots.iter().find(|b| b.token == token)?;
        let names = |v: &Value| {
            v.as_array().into_iter().flatten().filter_map(|c| c["command"].as_str().map(str::to_owned)).collect()
        };
        Some(BotProfileSeen {
            name: bot.name.clone(),
            short_descriptions: bot.short_descriptions.clone(),
            descriptions: bot.descriptions.clone(),
            commands: bot.commands.iter().map(|(code, list)| (code.clone(), names(list))).collect(),
            menu_button: bot.menu_button.clone(),
        })
    }

    /// The bot's token is revoked in BotFather: Telegram answers 401 to it from now on.
    pub fn revoke(&self, token: &str) {
        lock(&self.state.0).bots.retain(|b| b.token != token);
    }

    /// `VP_TELEGRAM_API_URL`: `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        self.server.url()
    }

    /// A person pressed Start on the first bot's deep link in a private chat.
    pub fn press_start(&self, chat_id: i64, payload: &str) {
        self.queue_text(chat_id, &format!("/start {payload}"));
    }

    /// A message in a private chat with the first bot.
    pub fn queue_text(&self, chat_id: i64, text: &str) {
        let token = lock(&self.state.0).bots[0].token.clone();
        self.write_to(&token, chat_id, text, Some("en"));
    }

    /// A message in a private chat with the bot of `token`, from a person whose app is set to
    /// `language`: queued for `getUpdates`, or posted to the bot's webhook when one is set.
    /// Returns the update and, when posted, the status the webhook answered.
    pub fn write_to(&self, token: &str, chat_id: i64, text: &str, language: Option<&str>) -> (Value, Option<u16>) {
        let (state, arrived) = &*self.state;
        let mut s = lock(state);
        let update_id = s.next_update_id;
        s.next_update_id += 1;
        let mut from = json!({"id": chat_id, "is_bot": false, "first_name": "Customer"});
        if let Some(language) = language {
            from["language_code"] = json!(language);
        }
        let update = json!({
            "update_id": update_id,
            "message": {
                "message_id": update_id % 1000,
                "date": 1_795_000_000,
                "chat": {"id": chat_id, "type": "private", "first_name": "Customer"},
                "from": from,
                "text": text,
            }
        });
        let hooked = s.bots.iter().find(|b| b.token == token).and_then(|b| b.webhook.clone());
        if hooked.is_none() {
            s.updates.push((token.to_owned(), update.clone()));
            arrived.notify_all();
            return (update, None);
        }
        drop(s);
        let status = self.post(token, &update);
        (update, status)
    }

    /// Posts `update` to the webhook of the bot of `token` (again, for a redelivery); the
    /// status it answered, or `None` without a webhook or an answer. Telegram's own retries are
    /// the test's to make.
    pub fn post(&self, token: &str, update: &Value) -> Option<u16> {
        let (url, secret, deliver_to) = {
            let s = lock(&self.state.0);
            let (url, secret) = s.bots.iter().find(|b| b.token == token)?.webhook.clone()?;
            (url, secret, s.deliver_to.clone())
        };
        let path = url.splitn(4, '/').nth(3).map(|p| format!("/{p}")).unwrap_or_default();
        let target = format!("{}{path}", deliver_to.unwrap_or(url));
        lock(&self.state.0).exchanges.push(json!({"kind": "post", "update": update}));
        let headers = [("content-type", "application/json"), ("x-telegram-bot-api-secret-token", secret.as_str())];
        crate::http::send("POST", &target, &headers, update.to_string().as_bytes()).ok().map(|a| a.status)
    }

    /// Webhook posts go to this address (the service behind its https proxy).
    pub fn deliver_to(&self, base: &str) {
        lock(&self.state.0).deliver_to = Some(base.trim_end_matches('/').to_owned());
    }

    /// The webhook set for the bot of `token`: its URL and secret token.
    pub fn webhook(&self, token: &str) -> Option<(String, String)> {
        lock(&self.state.0).bots.iter().find(|b| b.token == token)?.webhook.clone()
    }

    /// Messages `sendMessage` accepted from any bot, in order: chat id and text.
    pub fn sent(&self) -> Vec<(i64, String)> {
        lock(&self.state.0).sent.iter().map(|(_, chat, text, _)| (*chat, text.clone())).collect()
    }

    /// How many messages `sendMessage` accepted from any bot (without copying them).
    pub fn sent_count(&self) -> usize {
        lock(&self.state.0).sent.len()
    }

    /// Messages the bot of `token` sent, in order: chat id, text and `reply_markup`.
    pub fn sent_by(&self, token: &str) -> Vec<(i64, String, Option<Value>)> {
        let s = lock(&self.state.0);
        s.sent
            .iter()
            .filter(|(t, ..)| t == token)
            .map(|(_, c, text, markup)| (*c, text.clone(), markup.clone()))
            .collect()
    }

    /// Waits until at least `n` messages were sent; returns them.
    pub fn wait_for_sent(&self, n: usize, within: Duration) -> Vec<(i64, String)> {
        let deadline = Instant::now() + within;
        loop {
            let sent = self.sent();
            if sent.len() >= n || Instant::now() > deadline {
                return sent;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `getUpdates` calls refused because another poll of the same bot was open: more than
    /// one process polling.
    pub fn poll_conflicts(&self) -> usize {
        lock(&self.state.0).poll_conflicts
    }

    /// From now on `sendMessage` calls are held in flight until `release_sends`.
    pub fn hold_sends(&self) {
        lock(&self.state.0).hold_sends = true;
    }

    /// Lets the held calls through: each is handled as Telegram would, whether or not its
    /// caller still waits for the answer.
    pub fn release_sends(&self) {
        let (state, arrived) = &*self.state;
        lock(state).hold_sends = false;
        arrived.notify_all();
    }

    /// Waits until `sendMessage` calls are held and no more have arrived for half a second
    /// (every sender still sending has one in flight); the number held, or 0 after `within`.
    pub fn wait_for_held_sends(&self, within: Duration) -> usize {
        let deadline = Instant::now() + within;
        let (mut seen, mut since) = (0, Instant::now());
        loop {
            let held = lock(&self.state.0).held;
            if held != seen {
                (seen, since) = (held, Instant::now());
            } else if held > 0 && since.elapsed() >= Duration::from_millis(500) {
                return held;
            }
            if Instant::now() > deadline {
                return 0;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends refused with 429 for going over 30 a second per bot.
    pub fn throttled(&self) -> usize {
        lock(&self.state.0).throttled
    }

    /// Checks every call the emulator answered and every update it posted so far against the
    /// Bot API's typed models in aiogram; panics with the findings.
    pub fn assert_contract(&self) {
        let exchanges = lock(&self.state.0).exchanges.clone();
        assert!(!exchanges.is_empty(), "no Bot API exchange to check");
        if let Err(findings) = check_exchanges(&exchanges) {
            panic!("exchanges with the Telegram emulator break the Bot API as aiogram models it:\n{findings}");
        }
    }

    /// The next `n` sends fail with `status` (for 429, Telegram's `retry_after` seconds).
    pub fn fail_next_sends(&self, n: usize, status: u16, retry_after: Option<u64>) {
        lock(&self.state.0).failures.extend(std::iter::repeat_n((status, retry_after), n));
    }

    /// The person blocked the bot in this chat: sends there answer 403.
    pub fn block_chat(&self, chat_id: i64) {
        lock(&self.state.0).blocked.push(chat_id);
    }

    /// How many times a method was called.
    pub fn calls(&self, method: &str) -> usize {
        lock(&self.state.0).calls.iter().filter(|m| *m == method).count()
    }
}

/// Answers a call and records it for the contract check.
fn handle(state: &(Mutex<State>, Condvar), req: &Request) -> Reply {
    let reply = respond(state, req);
    if let (Some(method), Reply::Respond { status, body, .. }) =
        (req.path.strip_prefix("/bot").and_then(|r| r.split_once('/')).map(|(_, m)| m), &reply)
    {
        let response: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let request = req.json().unwrap_or_else(|| json!({}));
        lock(&state.0).exchanges.push(json!({
            "kind": "call", "method": method, "request": request, "status": status, "response": response,
        }));
    }
    reply
}

fn respond(state: &(Mutex<State>, Condvar), req: &Request) -> Reply {
    let (lock_state, arrived) = state;
    let Some(rest) = req.path.strip_prefix("/bot") else { return error(404, "Not Found") };
    let Some((token, method)) = rest.split_once('/') else { return error(404, "Not Found") };
    let mut s = lock(lock_state);
    let Some(bot) = s.bots.iter().position(|b| b.token == token) else { return error(401, "Unauthorized") };
    s.calls.push(method.to_owned());
    let body = req.json().unwrap_or_else(|| json!({}));
    match method {
        "getMe" => {
            let Bot { id, username, .. } = &s.bots[bot];
            Reply::json(
                200,
                &json!({"ok": true, "result": {"id": id, "is_bot": true, "first_name": username, "username": username}}),
            )
        }
        "sendMessage" => {
            if s.hold_sends {
                // The request has arrived whole: Telegram handles it even if the caller is gone.
                s.held += 1;
                arrived.notify_all();
                while s.hold_sends {
                    s = arrived.wait(s).unwrap_or_else(std::sync::PoisonError::into_inner);
                }
                s.held -= 1;
            }
            let Some(bot) = s.bots.iter().position(|b| b.token == token) else { return error(401, "Unauthorized") };
            let (Some(chat_id), Some(text)) = (body["chat_id"].as_i64(), body["text"].as_str()) else {
                return error(400, "Bad Request: message text is empty");
            };
            if text.is_empty() || text.chars().count() > 4096 {
                return error(400, "Bad Request: message text must be 1-4096 characters");
            }
            if let Err(reason) = check_markup(&body["reply_markup"]) {
                return error(400, &format!("Bad Request: {reason}"));
            }
            if !s.failures.is_empty() {
                let (status, retry_after) = s.failures.remove(0);
                return match retry_after {
                    Some(after) => too_many(status, after),
                    None => error(status, "Internal Server Error"),
                };
            }
            let now = Instant::now();
            let recent = &mut s.bots[bot].recent_sends;
            recent.retain(|at| now.duration_since(*at) < Duration::from_secs(1));
            if recent.len() >= SENDS_PER_SECOND {
                s.throttled += 1;
                return too_many(429, 1);
            }
            recent.push(now);
            if s.blocked.contains(&chat_id) {
                return error(403, "Forbidden: bot was blocked by the user");
            }
            let token = s.bots[bot].token.clone();
            let markup = body.get("reply_markup").cloned();
            s.sent.push((token, chat_id, text.to_owned(), markup));
            let message_id = s.sent.len();
            Reply::json(
                200,
                &json!({"ok": true, "result": {"message_id": message_id, "date": 1_795_000_000, "chat": {"id": chat_id, "type": "private"}, "text": text}}),
            )
        }
        "getUpdates" => {
            if s.bots[bot].webhook.is_some() {
                return error(
                    409,
                    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
                );
            }
            if s.bots[bot].polling {
                s.poll_conflicts += 1;
                return error(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
                );
            }
            let token = s.bots[bot].token.clone();
            let offset = body["offset"].as_i64().unwrap_or(0);
            let wait = Duration::from_secs(body["timeout"].as_u64().unwrap_or(0)).min(LONG_POLL_CAP);
            // A positive offset confirms every update before it: Telegram forgets them.
            s.updates.retain(|(t, u)| t != &token || u["update_id"].as_i64().unwrap_or(0) >= offset);
            let waiting = |s: &State| !s.updates.iter().any(|(t, _)| t == &token);
            let deadline = Instant::now() + wait;
            s.bots[bot].polling = true;
            while waiting(&s) && Instant::now() < deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                s = arrived.wait_timeout(s, left).unwrap_or_else(std::sync::PoisonError::into_inner).0;
            }
            // The bot's index may not move while polling: bots are only added at the end,
            // and a revoked one is found again by its token.
            if let Some(b) = s.bots.iter_mut().find(|b| b.token == token) {
                b.polling = false;
            }
            let updates: Vec<Value> = s.updates.iter().filter(|(t, _)| t == &token).map(|(_, u)| u.clone()).collect();
            Reply::json(200, &json!({"ok": true, "result": updates}))
        }
        "setWebhook" => {
            let url = body["url"].as_str().unwrap_or_default();
            let secret = body["secret_token"].as_str().unwrap_or_default();
            if !url.starts_with("https://") {
                return error(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook");
            }
            let secret_ok = (1..=256).contains(&secret.len())
                && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if !secret_ok {
                return error(400, "Bad Request: secret token contains unallowed characters");
            }
            s.bots[bot].webhook = Some((url.to_owned(), secret.to_owned()));
            Reply::json(200, &json!({"ok": true, "result": true, "description": "Webhook was set"}))
        }
        "deleteWebhook" => {
            s.bots[bot].webhook = None;
            Reply::json(200, &json!({"ok": true, "result": true, "description": "Webhook was deleted"}))
        }
        "getWebhookInfo" => {
            let token = s.bots[bot].token.clone();
            let pending = s.updates.iter().filter(|(t, _)| t == &token).count();
            let url = s.bots[bot].webhook.as_ref().map(|(u, _)| u.clone()).unwrap_or_default();
            Reply::json(
                200,
                &json!({"ok": true, "result": {"url": url, "has_custom_certificate": false, "pending_update_count": pending}}),
            )
        }
        "setMyName" | "setMyShortDescription" | "setMyDescription" | "setMyCommands" | "setChatMenuButton" => {
            match set_profile(&mut s.bots[bot], method, &body) {
                Ok(()) => Reply::json(200, &json!({"ok": true, "result": true})),
                Err(reason) => error(400, &format!("Bad Request: {reason}")),
            }
        }
        _ => error(404, "Not Found"),
    }
}

/// The directory of the contract check (`requirements.txt`, `validate.py`, and the `.venv`
/// they are installed into).
pub fn contract_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contract/telegram"))
}

static CHECKS: AtomicU32 = AtomicU32::new(0);

/// Checks exchanges (`{"kind": "call", ...}` or `{"kind": "post", ...}`) with aiogram's models
/// under Python. `Ok` carries the script's summary; `Err` what failed (or why it could not run).
pub fn check_exchanges(exchanges: &[Value]) -> Result<String, String> {
    let dir = contract_dir();
    let python = dir.join(".venv/bin/python");
    if !python.is_file() {
        return Err(format!(
            "the contract models are not installed: run `python3 -m venv {0}/.venv && {0}/.venv/bin/pip install -r \
             {0}/requirements.txt` (cargo xtask test does it)",
            dir.display()
        ));
    }
    let n = CHECKS.fetch_add(1, Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("vp-tg-exchanges-{}-{n}.json", std::process::id()));
    std::fs::write(&file, Value::Array(exchanges.to_vec()).to_string()).map_err(|e| e.to_string())?;
    let out = std::process::Command::new(python)
        .arg(dir.join("validate.py"))
        .arg(&file)
        .output()
        .map_err(|e| format!("cannot run python: {e}"));
    let _ = std::fs::remove_file(&file);
    let out = out?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.success() { Ok(text) } else { Err(text) }
}

fn too_many(status: u16, retry_after: u64) -> Reply {
    Reply::json(
        status,
        &json!({"ok": false, "error_code": status, "description": format!("Too Many Requests: retry after {retry_after}"),
            "parameters": {"retry_after": retry_after}}),
    )
}

/// An `InlineKeyboardMarkup` as the Bot API takes it: rows of buttons, each with a 1-64
/// character text and either an `http(s)`/`tg` `url` or 1-64 bytes of `callback_data`.
fn check_markup(markup: &Value) -> Result<(), String> {
    if markup.is_null() {
        return Ok(());
    }
    let rows = markup["inline_keyboard"].as_array().ok_or("reply_markup must have inline_keyboard")?;
    for button in rows
        .iter()
        .map(|r| r.as_array().ok_or("a keyboard row must be an array"))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
    {
        let text = button["text"].as_str().unwrap_or_default();
        if text.is_empty() || text.chars().count() > 64 {
            return Err("button text must be 1-64 characters".into());
        }
        match (button["url"].as_str(), button["callback_data"].as_str()) {
            (Some(url), None)
                if url.starts_with("https://") || url.starts_with("http://") || url.starts_with("tg://") => {}
            (None, Some(data)) if (1..=64).contains(&data.len()) => {}
            _ => return Err("BUTTON_DATA_INVALID".into()),
        }
    }
    Ok(())
}

/// The `setMy*` methods within the Bot API's documented limits: name 0-64 characters, short
/// description 0-120, description 0-512, 0-100 commands of 1-32 `a-z 0-9 _` with descriptions
/// of 1-256 characters, a menu button of a known type.
fn set_profile(bot: &mut Bot, method: &str, body: &Value) -> Result<(), String> {
    let code = body["language_code"].as_str().unwrap_or_default();
    let text = |field: &str, max: usize| {
        let value = body[field].as_str().unwrap_or_default();
        if value.chars().count() > max { Err(format!("{field} is longer than {max} characters")) } else { Ok(value) }
    };
    match method {
        "setMyName" if code.is_empty() => bot.name = text("name", 64)?.to_owned(),
        "setMyName" => {}
        "setMyShortDescription" => put(&mut bot.short_descriptions, code, text("short_description", 120)?),
        "setMyDescription" => put(&mut bot.descriptions, code, text("description", 512)?),
        "setMyCommands" => {
            let commands = body["commands"].as_array().ok_or("commands must be an array")?;
            if commands.len() > 100 {
                return Err("too many commands".into());
            }
            for c in commands {
                let command = c["command"].as_str().unwrap_or_default();
                let shaped = (1..=32).contains(&command.len())
                    && command.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
                let described = (1..=256).contains(&c["description"].as_str().unwrap_or_default().chars().count());
                if !shaped || !described {
                    return Err(format!("invalid bot command {command:?}"));
                }
            }
            bot.commands.retain(|(c, _)| c != code);
            bot.commands.push((code.to_owned(), body["commands"].clone()));
        }
        _ => {
            let kind = body["menu_button"]["type"].as_str().unwrap_or_default();
            if !["commands", "web_app", "default"].contains(&kind) {
                return Err("menu_button type must be commands, web_app or default".into());
            }
            bot.menu_button = Some(body["menu_button"].clone());
        }
    }
    Ok(())
}
