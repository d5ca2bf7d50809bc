//! A Telegram Bot API emulator on loopback, after the Bot API reference
//! (https://core.telegram.org/bots/api): `POST /bot<token>/<method>` with a JSON body, answered
//! with the `{"ok": ..., "result" | "error_code", "description", "parameters"}` envelope. It
//! knows several bots by their tokens (401 for any other, as for a revoked one) and
//! serves `getMe`, `sendMessage` and `getUpdates` (with `offset` confirming earlier updates and
//! `timeout` long polling, capped at two seconds so tests stay quick), and lets a test press
//! the bot's Start button, block the bot in a chat and make sends fail.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http::{HttpServer, Reply, Request};

/// The longest a `getUpdates` call waits here, whatever `timeout` it asks for.
pub const LONG_POLL_CAP: Duration = Duration::from_secs(2);

/// A bot the emulator knows: its token, id and username.
struct Bot {
    token: String,
    id: i64,
    username: String,
}

struct State {
    /// The bot `start` made first; partners' bots added with `add_bot` after it.
    bots: Vec<Bot>,
    updates: Vec<Value>,
    next_update_id: i64,
    sent: Vec<(i64, String)>,
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
                bots: vec![Bot { token: token.to_owned(), id: 123_456_789, username: username.to_owned() }],
                updates: vec![],
                next_update_id: 700_000_001,
                sent: vec![],
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
        lock(&self.state.0).bots.push(Bot { token: token.to_owned(), id, username: username.to_owned() });
    }

    /// The bot's token is revoked in BotFather: Telegram answers 401 to it from now on.
    pub fn revoke(&self, token: &str) {
        lock(&self.state.0).bots.retain(|b| b.token != token);
    }

    /// `VP_TELEGRAM_API_URL`: `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        self.server.url()
    }

    /// A person pressed Start on the bot's deep link in a private chat.
    pub fn press_start(&self, chat_id: i64, payload: &str) {
        self.queue_text(chat_id, &format!("/start {payload}"));
    }

    /// A message in a private chat with the bot.
    pub fn queue_text(&self, chat_id: i64, text: &str) {
        let (state, arrived) = &*self.state;
        let mut s = lock(state);
        let update_id = s.next_update_id;
        s.next_update_id += 1;
        s.updates.push(json!({
            "update_id": update_id,
            "message": {
                "message_id": update_id % 1000,
                "date": 1_795_000_000,
                "chat": {"id": chat_id, "type": "private", "first_name": "Partner"},
                "from": {"id": chat_id, "is_bot": false, "first_name": "Partner"},
                "text": text,
            }
        }));
        arrived.notify_all();
    }

    /// Messages `sendMessage` accepted, in order: chat id and text.
    pub fn sent(&self) -> Vec<(i64, String)> {
        lock(&self.state.0).sent.clone()
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

fn handle(state: &(Mutex<State>, Condvar), req: &Request) -> Reply {
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
            let (Some(chat_id), Some(text)) = (body["chat_id"].as_i64(), body["text"].as_str()) else {
                return error(400, "Bad Request: message text is empty");
            };
            if !s.failures.is_empty() {
                let (status, retry_after) = s.failures.remove(0);
                return match retry_after {
                    Some(after) => Reply::json(
                        status,
                        &json!({"ok": false, "error_code": status, "description": format!("Too Many Requests: retry after {after}"), "parameters": {"retry_after": after}}),
                    ),
                    None => error(status, "Internal Server Error"),
                };
            }
            if s.blocked.contains(&chat_id) {
                return error(403, "Forbidden: bot was blocked by the user");
            }
            s.sent.push((chat_id, text.to_owned()));
            let message_id = s.sent.len();
            Reply::json(
                200,
                &json!({"ok": true, "result": {"message_id": message_id, "date": 1_795_000_000, "chat": {"id": chat_id, "type": "private"}, "text": text}}),
            )
        }
        "getUpdates" => {
            let offset = body["offset"].as_i64().unwrap_or(0);
            let wait = Duration::from_secs(body["timeout"].as_u64().unwrap_or(0)).min(LONG_POLL_CAP);
            // A positive offset confirms every update before it: Telegram forgets them.
            s.updates.retain(|u| u["update_id"].as_i64().unwrap_or(0) >= offset);
            let deadline = Instant::now() + wait;
            while s.updates.is_empty() && Instant::now() < deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                s = arrived.wait_timeout(s, left).unwrap_or_else(std::sync::PoisonError::into_inner).0;
            }
            Reply::json(200, &json!({"ok": true, "result": s.updates}))
        }
        _ => error(404, "Not Found"),
    }
}
