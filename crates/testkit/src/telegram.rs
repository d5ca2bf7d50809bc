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
                bots: vec![Bot {
                    token: token.to_owned(),
                    id: 123_456_789,
                    username: username.to_owned(),
                    ..Bot::default()
                }],
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
        "setMyName" | "setMyShortDescription" | "setMyDescription" | "setMyCommands" | "setChatMenuButton" => {
            match set_profile(&mut s.bots[bot], method, &body) {
                Ok(()) => Reply::json(200, &json!({"ok": true, "result": true})),
                Err(reason) => error(400, &format!("Bad Request: {reason}")),
            }
        }
        _ => error(404, "Not Found"),
    }
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
