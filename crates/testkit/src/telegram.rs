//! A Telegram Bot API emulator on loopback, after the Bot API reference
//! (https://core.telegram.org/bots/api): `POST /bot<token>/<method>` with a JSON body (or
//! `multipart/form-data` for `sendPhoto`), answered with the `{"ok": ..., "result" |
//! "error_code", "description", "parameters"}` envelope. It knows several bots by their tokens
//! (401 for any other, as for a revoked one) and serves `getMe`, the profile methods,
//! `sendMessage` and `sendPhoto` (together at most 30 a second per bot, then 429 with
//! `retry_after`), `answerCallbackQuery` (once per query it issued), `getUpdates` (with `offset`
//! confirming earlier updates and `timeout` long polling, capped at two seconds so tests stay
//! quick; 409 while a webhook is set or another poll of the same bot is open), and
//! `setWebhook`, `deleteWebhook`, `getWebhookInfo`. With a webhook set, a message or a button
//! press to the bot is posted to it with `X-Telegram-Bot-Api-Secret-Token`, through
//! `deliver_to` (the TLS-terminating proxy in front of the service: Telegram only posts to
//! https). A test presses the bot's Start button, writes to it, presses buttons of messages it
//! sent (only those), reads what it sent (texts, photos, buttons) and how it answered presses,
//! blocks it in a chat and makes sends fail.
//!
//! Payments are in Telegram Stars only (https://core.telegram.org/bots/payments-stars):
//! `createInvoiceLink` (currency `XTR`, no provider token, one price of 1-10000 Stars, and a
//! `subscription_period` of 30 days for a subscription), `answerPreCheckoutQuery` (once per query
//! it issued, while Telegram still waits), `refundStarPayment` (once per charge it made) and
//! `editUserStarSubscription`. A test opens a link and pays (`pay_link`: the bot is asked with a
//! `pre_checkout_query` and the Stars are only charged when it agrees within 10 seconds, then a
//! `successful_payment` message arrives), has Telegram charge a subscription's next period
//! (`renew_subscription`, not once canceled), has the person cancel or enable it again in
//! Telegram or a charge fail (`subscription_changed`: a `subscription` update), or send a
//! payment update twice (`deliver_again`),
//! and reads the links made, the answers, the refunds and the cancellations.
//!
//! Managed bots (Bot API 9.6): a bot with Bot Management Mode (`can_manage_bots` in `getMe`,
//! switched with `set_can_manage_bots`) may send a reply keyboard whose button is a
//! `request_managed_bot` (private chats only; `BUTTON_TYPE_INVALID` otherwise). A test has the
//! person press it and create the bot (`create_managed_bot`, refused once the person owns
//! `BOTS_PER_USER` bots, when Telegram creates nothing and tells the bot nothing); the manager
//! then gets a `managed_bot` update and the `managed_bot_created` message, and
//! `getManagedBotToken` and `replaceManagedBotToken` for the bots it manages (a replaced token is
//! refused with 401 at once; updates waiting for the bot stay for the new one). An owner replacing
//! the token in BotFather (`owner_replaces_token`) also tells the manager with `managed_bot`.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use crate::http::{HttpServer, Reply, Request};

/// How many bots one person may own (BotFather's limit); creating another fails.
pub const BOTS_PER_USER: usize = 20;
/// The first id of a bot created here.
const FIRST_MANAGED_BOT_ID: i64 = 8_100_000_001;

/// The longest a `getUpdates` call waits here, whatever `timeout` it asks for.
pub const LONG_POLL_CAP: Duration = Duration::from_secs(2);
/// Messages a bot may send in a second before Telegram answers 429 (the Bot API FAQ).
pub const SENDS_PER_SECOND: usize = 30;
/// The `date` of every message here.
const DATE: i64 = 1_795_000_000;
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
const INVALID_QUERY: &str = "Bad Request: query is too old and response timeout expired or query ID is invalid";
/// How long Telegram waits for a bot's `answerPreCheckoutQuery` before the payment fails.
pub const PRE_CHECKOUT_WAIT: Duration = Duration::from_secs(10);
/// The only `subscription_period` Telegram takes: 30 days, in seconds.
pub const STARS_SUBSCRIPTION_PERIOD: i64 = 2_592_000;
/// The most Stars one invoice (or one period of a subscription) may ask.
const MAX_STARS: i64 = 10_000;
const CHARGE_NOT_FOUND: &str = "Bad Request: CHARGE_NOT_FOUND";

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
    /// Bot Management Mode: it may create bots it then manages.
    can_manage_bots: bool,
    /// The id of the bot managing this one, and the person who created it.
    managed_by: Option<(i64, i64)>,
}

/// The bot as a `User` (`getMe`, the sender of its messages).
fn bot_user(bot: &Bot) -> Value {
    json!({"id": bot.id, "is_bot": true, "first_name": bot.username, "username": bot.username})
}

/// The person in a private chat, whose app is set to `language`.
fn customer(chat_id: i64, language: Option<&str>) -> Value {
    let mut from = json!({"id": chat_id, "is_bot": false, "first_name": "Customer"});
    if let Some(language) = language {
        from["language_code"] = json!(language);
    }
    from
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

/// A message a bot sent, as a test reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentMessage {
    /// The token of the bot that sent it.
    pub token: String,
    pub chat_id: i64,
    /// What Telegram answered the send with, and what a press on its buttons refers to.
    pub message_id: i64,
    /// The text, or a photo's caption (empty without one).
    pub text: String,
    pub reply_markup: Option<Value>,
    /// The PNG of a `sendPhoto`, as uploaded.
    pub photo: Option<Vec<u8>>,
}

/// A button of an inline keyboard, or of a reply keyboard: its label and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentButton {
    pub text: String,
    pub url: Option<String>,
    pub callback_data: Option<String>,
    /// A keyboard button's `request_managed_bot`.
    pub request_managed_bot: Option<Value>,
}

impl SentMessage {
    /// The buttons under the message, row by row.
    pub fn buttons(&self) -> Vec<SentButton> {
        let Some(markup) = &self.reply_markup else { return vec![] };
        let text = |b: &Value, key: &str| b[key].as_str().map(str::to_owned);
        let rows = markup["inline_keyboard"].as_array().or_else(|| markup["keyboard"].as_array());
        rows.into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .flatten()
            .map(|b| SentButton {
                text: text(b, "text").unwrap_or_default(),
                url: text(b, "url"),
                callback_data: text(b, "callback_data"),
                request_managed_bot: b.get("request_managed_bot").cloned(),
            })
            .collect()
    }

    pub fn button_labels(&self) -> Vec<String> {
        self.buttons().into_iter().map(|b| b.text).collect()
    }
}

/// An invoice link a bot made with `createInvoiceLink`, as a test reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceLinkSeen {
    /// `https://t.me/$<slug>`, as the call answered it.
    pub url: String,
    pub title: String,
    pub description: String,
    /// What the bot gets back in the `pre_checkout_query` and the `successful_payment`.
    pub payload: String,
    /// Always `XTR`: links for anything but Stars are refused here.
    pub currency: String,
    /// In Stars.
    pub amount: i64,
    /// The seconds a subscription's payment covers (only ever 30 days); `None` for a one-off
    /// payment.
    pub subscription_period: Option<i64>,
}

/// How a person's payment through an invoice link went (`pay_link`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsCheckout {
    /// Whether the bot answered the `pre_checkout_query` while Telegram waited.
    pub answered: bool,
    /// Whether it agreed: only then are the Stars charged.
    pub ok: bool,
    /// The refusal it showed the person.
    pub error_message: Option<String>,
    /// The `telegram_payment_charge_id` of the payment made (what a refund names).
    pub charge_id: Option<String>,
    /// The `message` update carrying the `successful_payment`.
    pub update: Option<Value>,
}

/// A link made, and the bot that made it (only that bot is asked when someone pays).
struct InvoiceLink {
    token: String,
    seen: InvoiceLinkSeen,
}

/// A `pre_checkout_query` issued to the bot of `token`; `expired` once Telegram stopped waiting
/// for its answer.
struct Checkout {
    token: String,
    id: String,
    expired: bool,
}

/// Stars a person paid a bot: what `refundStarPayment` names by `id`.
struct StarCharge {
    token: String,
    user_id: i64,
    id: String,
    refunded: bool,
}

/// A subscription bought through a link with a period: Telegram charges it again each period
/// until it is canceled.
struct StarSubscription {
    token: String,
    user_id: i64,
    language: Option<String>,
    /// The `telegram_payment_charge_id` of its first payment, which names it.
    first_charge_id: String,
    link: InvoiceLinkSeen,
    /// Until when it is paid: the last payment's `subscription_expiration_date`.
    expiration: i64,
    canceled: bool,
}

/// A message sent, and the `Message` object Telegram answered with (which a `callback_query`
/// carries when one of its buttons is pressed).
struct Sent {
    seen: SentMessage,
    message: Value,
}

struct State {
    /// The bot `start` made first; partners' bots added with `add_bot` after it.
    bots: Vec<Bot>,
    /// Updates not yet confirmed, by the bot's token.
    updates: Vec<(String, Value)>,
    next_update_id: i64,
    /// Messages sent, in order; the `message_id` of each is its position plus one.
    sent: Vec<Sent>,
    /// `callback_query` ids issued: the bot's token and the id.
    presses: Vec<(String, String)>,
    /// `answerCallbackQuery` calls accepted: the id and the notice text.
    press_answers: Vec<(String, Option<String>)>,
    /// Where webhook posts go instead of the webhook's own host (`http://127.0.0.1:PORT`).
    deliver_to: Option<String>,
    /// `getUpdates` calls answered 409 because another poll of the bot was open.
    poll_conflicts: usize,
    /// Sends answered 429 for going over 30 a second.
    throttled: usize,
    /// Every call and webhook post, for the contract check.
    exchanges: Vec<Value>,
    /// While set, `sendMessage` and `sendPhoto` calls wait (in flight, as over a slow network) until released.
    hold_sends: bool,
    /// While set, polls get no update: they wait at Telegram.
    hold_updates: bool,
    /// Sends waiting now.
    held: usize,
    blocked: Vec<i64>,
    /// Statuses the next sends fail with (429 carries `retry_after`).
    failures: Vec<(u16, Option<u64>)>,
    calls: Vec<String>,
    /// Links made by `createInvoiceLink`, in order.
    invoice_links: Vec<InvoiceLink>,
    /// `pre_checkout_query` updates issued.
    checkouts: Vec<Checkout>,
    /// `answerPreCheckoutQuery` calls accepted: the id, `ok` and the error message.
    pre_checkout_answers: Vec<(String, bool, Option<String>)>,
    /// How long a payment waits for the bot's answer (Telegram's 10 seconds unless a test
    /// shortens it).
    pre_checkout_wait: Duration,
    star_charges: Vec<StarCharge>,
    /// `refundStarPayment` calls accepted: the user and the charge.
    star_refunds: Vec<(i64, String)>,
    star_subscriptions: Vec<StarSubscription>,
    /// Numbers every link, query and charge made, so that none repeats.
    serial: u64,
    /// Bots a person owns besides those created here (to reach `BOTS_PER_USER`).
    bots_owned: Vec<(i64, usize)>,
    /// Methods whose next call is carried out but answered 502, as when the answer is lost.
    lose_answers: Vec<String>,
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
                presses: vec![],
                press_answers: vec![],
                deliver_to: None,
                poll_conflicts: 0,
                throttled: 0,
                exchanges: vec![],
                hold_sends: false,
                hold_updates: false,
                held: 0,
                blocked: vec![],
                failures: vec![],
                calls: vec![],
                invoice_links: vec![],
                checkouts: vec![],
                pre_checkout_answers: vec![],
                pre_checkout_wait: PRE_CHECKOUT_WAIT,
                star_charges: vec![],
                star_refunds: vec![],
                star_subscriptions: vec![],
                serial: 0,
                bots_owned: vec![],
                lose_answers: vec![],
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

    /// Switches Bot Management Mode for the bot of `token` (BotFather's Mini App).
    pub fn set_can_manage_bots(&self, token: &str, on: bool) {
        if let Some(bot) = lock(&self.state.0).bots.iter_mut().find(|b| b.token == token) {
            bot.can_manage_bots = on;
        }
    }

    /// The person `user_id` owns `n` bots made elsewhere (to reach `BOTS_PER_USER`).
    pub fn set_bots_owned(&self, user_id: i64, n: usize) {
        let mut s = lock(&self.state.0);
        s.bots_owned.retain(|(u, _)| *u != user_id);
        s.bots_owned.push((user_id, n));
    }

    /// The person in private chat `chat_id` presses the "create a bot" button of the latest
    /// message there that has one, and creates the bot with `username` (the suggested one when
    /// `None`) and the suggested name. Telegram then tells the bot that sent the button: a
    /// `managed_bot` update and a `managed_bot_created` message. The new bot's token, or why
    /// Telegram created nothing (the person owns `BOTS_PER_USER` bots, or the username is taken
    /// or invalid), when the bot is told nothing. Panics when no message offers the button.
    pub fn create_managed_bot(
        &self,
        chat_id: i64,
        username: Option<&str>,
        language: Option<&str>,
    ) -> Result<String, String> {
        let (manager_token, created) = {
            let mut s = lock(&self.state.0);
            let offered = s.sent.iter().rev().filter(|m| m.seen.chat_id == chat_id).find_map(|m| {
                let markup = m.seen.reply_markup.as_ref()?;
                let request = markup["keyboard"].as_array()?.iter().filter_map(Value::as_array).flatten().next()?;
                Some((m.seen.token.clone(), request["request_managed_bot"].clone()))
            });
            let Some((manager_token, request)) = offered else {
                panic!("no message in chat {chat_id} offers to create a bot")
            };
            let made_here = s.bots.iter().filter(|b| b.managed_by.is_some_and(|(_, owner)| owner == chat_id)).count();
            let elsewhere = s.bots_owned.iter().find(|(u, _)| *u == chat_id).map_or(0, |(_, n)| *n);
            if made_here + elsewhere >= BOTS_PER_USER {
                return Err(format!("the person owns {BOTS_PER_USER} bots already"));
            }
            let username = username.or(request["suggested_username"].as_str()).unwrap_or_default().to_owned();
            if !username_ok(&username) {
                return Err("USERNAME_INVALID".into());
            }
            if s.bots.iter().any(|b| b.username.eq_ignore_ascii_case(&username)) {
                return Err("USERNAME_OCCUPIED".into());
            }
            let manager = s.bots.iter().find(|b| b.token == manager_token).map(|b| b.id).unwrap_or_default();
            let id = FIRST_MANAGED_BOT_ID + i64::try_from(s.bots.len()).unwrap_or(0);
            let serial = s.next_serial();
            let bot = Bot {
                token: format!("{id}:AAManaged{serial:0>24}"),
                id,
                name: request["suggested_name"].as_str().unwrap_or(&username).to_owned(),
                username,
                managed_by: Some((manager, chat_id)),
                ..Bot::default()
            };
            let created = (bot.token.clone(), bot_user(&bot));
            s.bots.push(bot);
            (manager_token, created)
        };
        let (token, bot) = created;
        let person = customer(chat_id, language);
        self.deliver(&manager_token, |_, _| json!({"managed_bot": {"user": person, "bot": bot}}));
        self.deliver(&manager_token, |_, update_id| {
            json!({"message": {
                "message_id": update_id % 1000,
                "date": DATE,
                "chat": {"id": chat_id, "type": "private", "first_name": "Customer"},
                "from": person,
                "managed_bot_created": {"bot": bot},
            }})
        });
        Ok(token)
    }

    /// The next call of `method` is carried out, but its answer is lost on the way back: the
    /// caller gets 502.
    pub fn lose_next_answer(&self, method: &str) {
        lock(&self.state.0).lose_answers.push(method.to_owned());
    }

    /// The current token of the bot named `username` (`None` for no such bot).
    pub fn token_of(&self, username: &str) -> Option<String> {
        lock(&self.state.0).bots.iter().find(|b| b.username == username).map(|b| b.token.clone())
    }

    /// The owner of the managed bot `username` replaces its token in BotFather: the old one is
    /// refused from now on, and the managing bot gets a `managed_bot` update.
    pub fn owner_replaces_token(&self, username: &str) {
        let told = {
            let mut s = lock(&self.state.0);
            let Some(index) = s.bots.iter().position(|b| b.username == username) else { return };
            s.replace_token(index);
            let bot = &s.bots[index];
            bot.managed_by.and_then(|(manager, owner)| {
                let manager = s.bots.iter().find(|b| b.id == manager)?.token.clone();
                Some((manager, owner, bot_user(bot)))
            })
        };
        if let Some((manager, owner, bot)) = told {
            self.deliver(&manager, |_, _| json!({"managed_bot": {"user": customer(owner, Some("en")), "bot": bot}}));
        }
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
        self.deliver(token, |_, update_id| {
            json!({"message": {
                "message_id": update_id % 1000,
                "date": DATE,
                "chat": {"id": chat_id, "type": "private", "first_name": "Customer"},
                "from": customer(chat_id, language),
                "text": text,
            }})
        })
    }

    /// The person in `chat_id` (their app set to `language`) pressed the button with callback
    /// `data` under message `message_id` the bot of `token` sent there: the `callback_query`
    /// update is delivered like a message (`write_to`), carrying that message as Telegram does.
    /// Panics when the bot sent no such message or it has no such button.
    pub fn press(
        &self,
        token: &str,
        chat_id: i64,
        message_id: i64,
        data: &str,
        language: Option<&str>,
    ) -> (Value, Option<u16>) {
        let sent = lock(&self.state.0)
            .sent
            .iter()
            .find(|m| m.seen.token == token && m.seen.chat_id == chat_id && m.seen.message_id == message_id)
            .map(|m| (m.seen.clone(), m.message.clone()));
        let Some((seen, message)) = sent else { panic!("the bot sent no message {message_id} to chat {chat_id}") };
        let buttons = seen.buttons();
        assert!(
            buttons.iter().any(|b| b.callback_data.as_deref() == Some(data)),
            "message {message_id} in chat {chat_id} has no button with callback data {data:?}: {buttons:?}"
        );
        self.deliver(token, |s, update_id| {
            let id = format!("{}{update_id}", chat_id.unsigned_abs());
            s.presses.push((token.to_owned(), id.clone()));
            json!({"callback_query": {
                "id": id,
                "from": customer(chat_id, language),
                "message": message,
                "chat_instance": format!("-{}", chat_id.unsigned_abs() + 4_000_000_000),
                "data": data,
            }})
        })
    }

    /// Presses the first button whose label contains `label_contains` under the latest message
    /// in `chat_id` that has one (`press`); the callback data pressed. Panics when there is none.
    pub fn press_button(&self, token: &str, chat_id: i64, label_contains: &str, language: Option<&str>) -> String {
        let pressed = self.try_press_button(token, chat_id, label_contains, language);
        let Some((data, _)) = pressed else {
            panic!("no message in chat {chat_id} has a button to press labelled like {label_contains:?}")
        };
        data
    }

    /// `press_button` without the panic: the callback data pressed and the status the webhook
    /// answered (`None` when the update was queued for `getUpdates` or the post got no answer),
    /// or `None` when no message in `chat_id` has such a button. For a load harness that
    /// counts failures instead of stopping at the first.
    pub fn try_press_button(
        &self,
        token: &str,
        chat_id: i64,
        label_contains: &str,
        language: Option<&str>,
    ) -> Option<(String, Option<u16>)> {
        // Read in place: a load test presses thousands of times over thousands of messages.
        let found = lock(&self.state.0)
            .sent
            .iter()
            .rev()
            .filter(|m| m.seen.token == token && m.seen.chat_id == chat_id)
            .find_map(|m| {
                let mut buttons = m.seen.buttons().into_iter();
                buttons
                    .find_map(|b| b.callback_data.filter(|_| b.text.contains(label_contains)))
                    .map(|d| (m.seen.message_id, d))
            });
        let (message_id, data) = found?;
        let (_, status) = self.press(token, chat_id, message_id, &data, language);
        Some((data, status))
    }

    /// `answerCallbackQuery` calls accepted, in order: the query id and the notice.
    pub fn press_answers(&self) -> Vec<(String, Option<String>)> {
        lock(&self.state.0).press_answers.clone()
    }

    /// Presses no `answerCallbackQuery` confirmed (the person's app still shows them loading).
    pub fn unanswered_presses(&self) -> usize {
        let s = lock(&self.state.0);
        s.presses.len() - s.press_answers.len()
    }

    /// Gives the update `make` builds from its number its `update_id`, and queues it for
    /// `getUpdates` or posts it to the webhook of the bot of `token` when one is set; the update
    /// and, when posted, the status the webhook answered.
    fn deliver(&self, token: &str, make: impl FnOnce(&mut State, i64) -> Value) -> (Value, Option<u16>) {
        let (state, arrived) = &*self.state;
        let mut s = lock(state);
        let update_id = s.next_update_id;
        s.next_update_id += 1;
        let mut update = make(&mut s, update_id);
        update["update_id"] = json!(update_id);
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

    /// Messages sent by any bot, in order: chat id and text (a photo's caption).
    pub fn sent(&self) -> Vec<(i64, String)> {
        lock(&self.state.0).sent.iter().map(|m| (m.seen.chat_id, m.seen.text.clone())).collect()
    }

    /// How many messages any bot sent (without copying them).
    pub fn sent_count(&self) -> usize {
        lock(&self.state.0).sent.len()
    }

    /// How many messages any bot sent whose text (or caption) starts with `prefix`, counted in
    /// place (a load test asks often, over thousands of messages).
    pub fn sent_count_starting_with(&self, prefix: &str) -> usize {
        lock(&self.state.0).sent.iter().filter(|m| m.seen.text.starts_with(prefix)).count()
    }

    /// Messages the bot of `token` sent, in order: chat id, text (a photo's caption) and
    /// `reply_markup`.
    pub fn sent_by(&self, token: &str) -> Vec<(i64, String, Option<Value>)> {
        self.sent_messages(token).into_iter().map(|m| (m.chat_id, m.text, m.reply_markup)).collect()
    }

    /// The latest message the bot of `token` sent to `chat_id` whose text (or caption)
    /// contains `text`, copied alone.
    pub fn last_sent_to(&self, token: &str, chat_id: i64, text: &str) -> Option<SentMessage> {
        let s = lock(&self.state.0);
        let mut mine = s.sent.iter().rev().map(|m| &m.seen).filter(|m| m.token == token && m.chat_id == chat_id);
        mine.find(|m| m.text.contains(text)).cloned()
    }

    /// Messages the bot of `token` sent, in order, whole.
    pub fn sent_messages(&self, token: &str) -> Vec<SentMessage> {
        lock(&self.state.0).sent.iter().filter(|m| m.seen.token == token).map(|m| m.seen.clone()).collect()
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

    /// From now on no update is handed to a poll (it waits at Telegram, as in a moment the bot is
    /// not polled) until `release_updates`.
    pub fn hold_updates(&self) {
        lock(&self.state.0).hold_updates = true;
    }

    /// Hands the waiting updates to the next polls.
    pub fn release_updates(&self) {
        let (state, arrived) = &*self.state;
        lock(state).hold_updates = false;
        arrived.notify_all();
    }

    /// From now on `sendMessage` and `sendPhoto` calls are held in flight until `release_sends`.
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

    /// Waits until sends are held and no more have arrived for half a second
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

    /// The person unblocked the bot: sends there go through again.
    pub fn unblock_chat(&self, chat_id: i64) {
        lock(&self.state.0).blocked.retain(|c| *c != chat_id);
    }

    /// How many times a method was called.
    pub fn calls(&self, method: &str) -> usize {
        lock(&self.state.0).calls.iter().filter(|m| *m == method).count()
    }

    /// The invoice links the bot of `token` made, in order.
    pub fn invoice_links(&self, token: &str) -> Vec<InvoiceLinkSeen> {
        lock(&self.state.0).invoice_links.iter().filter(|l| l.token == token).map(|l| l.seen.clone()).collect()
    }

    /// How long `pay_link` waits for the bot's `answerPreCheckoutQuery` from now on: Telegram's
    /// 10 seconds by default, shorter for a test of a bot that never answers.
    pub fn pre_checkout_wait(&self, wait: Duration) {
        lock(&self.state.0).pre_checkout_wait = wait;
    }

    /// The person in the private chat `chat_id` (their app set to `language`) opens the
    /// invoice link `url` and pays. The bot that made it gets a `pre_checkout_query` (delivered
    /// like a message, `write_to`) and Telegram waits for its `answerPreCheckoutQuery`; without
    /// an answer in time, or with `ok` false, nothing is charged. With `ok` the Stars are
    /// charged and a message carrying the `successful_payment` arrives in the chat; a link with
    /// a period starts a subscription named by that first charge (`renew_subscription`).
    /// Panics when no bot made such a link.
    pub fn pay_link(&self, url: &str, chat_id: i64, language: Option<&str>) -> StarsCheckout {
        let (state, arrived) = &*self.state;
        let found =
            lock(state).invoice_links.iter().find(|l| l.seen.url == url).map(|l| (l.token.clone(), l.seen.clone()));
        let Some((token, link)) = found else { panic!("no bot made the invoice link {url}") };
        let (query, _) = self.deliver(&token, |s, _| {
            let id = format!("{}{:08}", chat_id.unsigned_abs(), s.next_serial());
            s.checkouts.push(Checkout { token: token.clone(), id: id.clone(), expired: false });
            json!({"pre_checkout_query": {
                "id": id,
                "from": customer(chat_id, language),
                "currency": link.currency,
                "total_amount": link.amount,
                "invoice_payload": link.payload,
            }})
        });
        let id = query["pre_checkout_query"]["id"].as_str().unwrap_or_default().to_owned();
        // The lock is let go while waiting (as `getUpdates` does), so the bot's call gets in.
        let mut s = lock(state);
        let deadline = Instant::now() + s.pre_checkout_wait;
        let answer = loop {
            if let Some(answer) = s.pre_checkout_answers.iter().find(|(a, ..)| *a == id) {
                break Some(answer.clone());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break None;
            }
            s = arrived.wait_timeout(s, left).unwrap_or_else(std::sync::PoisonError::into_inner).0;
        };
        let Some((_, ok, error_message)) = answer else {
            // Telegram gives up on the payment: an answer now is too late.
            if let Some(checkout) = s.checkouts.iter_mut().find(|c| c.id == id) {
                checkout.expired = true;
            }
            return StarsCheckout { answered: false, ok: false, error_message: None, charge_id: None, update: None };
        };
        drop(s);
        if !ok {
            return StarsCheckout { answered: true, ok, error_message, charge_id: None, update: None };
        }
        let (update, _) = self.deliver(&token, |s, update_id| {
            let charge_id = s.charge(&token, chat_id);
            let mut payment = successful_payment(&link, &charge_id);
            if let Some(period) = link.subscription_period {
                payment["is_recurring"] = json!(true);
                payment["is_first_recurring"] = json!(true);
                payment["subscription_expiration_date"] = json!(DATE + period);
                s.star_subscriptions.push(StarSubscription {
                    token: token.clone(),
                    user_id: chat_id,
                    language: language.map(str::to_owned),
                    first_charge_id: charge_id,
                    link: link.clone(),
                    expiration: DATE + period,
                    canceled: false,
                });
            }
            paid_message(update_id, chat_id, language, payment)
        });
        let charge_id =
            update["message"]["successful_payment"]["telegram_payment_charge_id"].as_str().map(str::to_owned);
        StarsCheckout { answered: true, ok: true, error_message: None, charge_id, update: Some(update) }
    }

    /// Telegram charges the next period of the subscription whose first payment was
    /// `first_charge_id`: a message carrying a `successful_payment` with a new charge (which
    /// can be refunded) and the expiration a period on is delivered like a message
    /// (`write_to`). The new charge id and the update; `None` for a subscription unknown or
    /// canceled (`editUserStarSubscription`), which Telegram no longer charges.
    pub fn renew_subscription(&self, first_charge_id: &str) -> Option<(String, Value)> {
        let (token, user_id, language, link, expiration) = {
            let s = lock(&self.state.0);
            let sub = s.star_subscriptions.iter().find(|x| x.first_charge_id == first_charge_id && !x.canceled)?;
            let period = sub.link.subscription_period.unwrap_or(STARS_SUBSCRIPTION_PERIOD);
            (sub.token.clone(), sub.user_id, sub.language.clone(), sub.link.clone(), sub.expiration + period)
        };
        let (update, _) = self.deliver(&token, |s, update_id| {
            let charge_id = s.charge(&token, user_id);
            if let Some(sub) = s.star_subscriptions.iter_mut().find(|x| x.first_charge_id == first_charge_id) {
                sub.expiration = expiration;
            }
            let mut payment = successful_payment(&link, &charge_id);
            payment["is_recurring"] = json!(true);
            payment["subscription_expiration_date"] = json!(expiration);
            paid_message(update_id, user_id, language.as_deref(), payment)
        });
        let charge_id = update["message"]["successful_payment"]["telegram_payment_charge_id"].as_str()?.to_owned();
        Some((charge_id, update))
    }

    /// The person cancels the subscription whose first payment was `first_charge_id` in
    /// Telegram (`canceled`) or enables it again (`active`), or Telegram could not charge its
    /// next period (`failed`): a `subscription` update (Bot API 10.2, `BotSubscriptionUpdated`)
    /// is delivered like a message. Returns the update.
    pub fn subscription_changed(&self, first_charge_id: &str, state: &str) -> Value {
        let (token, user_id, language, payload) = {
            let mut s = lock(&self.state.0);
            let sub = s.star_subscriptions.iter_mut().find(|x| x.first_charge_id == first_charge_id);
            let sub = sub.unwrap_or_else(|| panic!("no Stars subscription {first_charge_id}"));
            sub.canceled = state != "active";
            (sub.token.clone(), sub.user_id, sub.language.clone(), sub.link.payload.clone())
        };
        let (update, _) = self.deliver(&token, |_, _| {
            json!({"subscription": {
                "user": customer(user_id, language.as_deref()),
                "invoice_payload": payload,
                "state": state,
            }})
        });
        update
    }

    /// Telegram sends the content of `update` again under a new `update_id` (as it may a
    /// payment's), delivered like a message (`write_to`): the update and, when posted, the
    /// status the webhook answered.
    pub fn deliver_again(&self, token: &str, update: &Value) -> (Value, Option<u16>) {
        self.deliver(token, |_, _| update.clone())
    }

    /// `answerPreCheckoutQuery` calls accepted, in order: the query id, `ok` and the error
    /// message shown.
    pub fn pre_checkout_answers(&self) -> Vec<(String, bool, Option<String>)> {
        lock(&self.state.0).pre_checkout_answers.clone()
    }

    /// `refundStarPayment` calls accepted, in order: the user and the charge refunded.
    pub fn star_refunds(&self) -> Vec<(i64, String)> {
        lock(&self.state.0).star_refunds.clone()
    }

    /// Whether the subscription whose first payment was `first_charge_id` is canceled now;
    /// `None` for no such subscription.
    pub fn star_subscription_canceled(&self, first_charge_id: &str) -> Option<bool> {
        let s = lock(&self.state.0);
        s.star_subscriptions.iter().find(|x| x.first_charge_id == first_charge_id).map(|x| x.canceled)
    }
}

impl State {
    fn next_serial(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    /// A new token for bot `index`: the old one is refused from now on, and the updates
    /// waiting for the bot wait for the new one.
    fn replace_token(&mut self, index: usize) {
        let serial = self.next_serial();
        let new = format!("{}:AAReplaced{serial:0>24}", self.bots[index].id);
        let old = std::mem::replace(&mut self.bots[index].token, new.clone());
        for (token, _) in self.updates.iter_mut().filter(|(t, _)| *t == old) {
            token.clone_from(&new);
        }
    }

    /// A new charge of Stars the person `user_id` paid the bot of `token`: its
    /// `telegram_payment_charge_id`.
    fn charge(&mut self, token: &str, user_id: i64) -> String {
        let serial = self.next_serial();
        let id = format!("stx{}", URL_SAFE_NO_PAD.encode([user_id.to_be_bytes(), serial.to_be_bytes()].concat()));
        self.star_charges.push(StarCharge { token: token.to_owned(), user_id, id: id.clone(), refunded: false });
        id
    }
}

/// A `SuccessfulPayment` in Stars for `link` (Telegram has no provider's charge for Stars).
fn successful_payment(link: &InvoiceLinkSeen, charge_id: &str) -> Value {
    json!({
        "currency": link.currency,
        "total_amount": link.amount,
        "invoice_payload": link.payload,
        "telegram_payment_charge_id": charge_id,
        "provider_payment_charge_id": "",
    })
}

/// The message in the private chat `chat_id`, from the person who paid, carrying `payment`.
fn paid_message(update_id: i64, chat_id: i64, language: Option<&str>, payment: Value) -> Value {
    json!({"message": {
        "message_id": update_id % 1000,
        "date": DATE,
        "chat": {"id": chat_id, "type": "private", "first_name": "Customer"},
        "from": customer(chat_id, language),
        "successful_payment": payment,
    }})
}

/// Answers a call and records it for the contract check.
fn handle(state: &(Mutex<State>, Condvar), req: &Request) -> Reply {
    let (fields, files) = read_fields(req);
    let mut reply = respond(state, req, &fields, &files);
    let method = req.path.strip_prefix("/bot").and_then(|r| r.split_once('/')).map(|(_, m)| m);
    if let Some(method) = method {
        let mut s = lock(&state.0);
        if let Some(i) = s.lose_answers.iter().position(|m| m == method) {
            s.lose_answers.remove(i);
            reply = error(502, "Bad Gateway");
        }
    }
    if let (Some(method), Reply::Respond { status, body, .. }) =
        (req.path.strip_prefix("/bot").and_then(|r| r.split_once('/')).map(|(_, m)| m), &reply)
    {
        let response: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        lock(&state.0).exchanges.push(json!({
            "kind": "call", "method": method, "request": fields, "status": status, "response": response,
        }));
    }
    reply
}

fn respond(state: &(Mutex<State>, Condvar), req: &Request, body: &Value, files: &[(String, Vec<u8>)]) -> Reply {
    let (lock_state, arrived) = state;
    let Some(rest) = req.path.strip_prefix("/bot") else { return error(404, "Not Found") };
    let Some((token, method)) = rest.split_once('/') else { return error(404, "Not Found") };
    let mut s = lock(lock_state);
    let Some(bot) = s.bots.iter().position(|b| b.token == token) else { return error(401, "Unauthorized") };
    s.calls.push(method.to_owned());
    match method {
        "getMe" => {
            let mut me = bot_user(&s.bots[bot]);
            me["can_manage_bots"] = json!(s.bots[bot].can_manage_bots);
            Reply::json(200, &json!({"ok": true, "result": me}))
        }
        "getManagedBotToken" | "replaceManagedBotToken" => {
            let manager = s.bots[bot].id;
            let Some(bot_id) = user_id(&body["user_id"]) else {
                return error(400, "Bad Request: invalid user_id specified");
            };
            let Some(managed) =
                s.bots.iter().position(|b| b.id == bot_id && b.managed_by.is_some_and(|(m, _)| m == manager))
            else {
                return error(400, "Bad Request: BOT_NOT_MANAGED");
            };
            if method == "replaceManagedBotToken" {
                s.replace_token(managed);
            }
            Reply::json(200, &json!({"ok": true, "result": s.bots[managed].token}))
        }
        "sendMessage" | "sendPhoto" => send(state, s, token, method, body, files),
        "answerCallbackQuery" => {
            let id = body["callback_query_id"].as_str().unwrap_or_default();
            let issued = s.presses.iter().any(|(t, p)| t == token && p == id);
            if !issued || s.press_answers.iter().any(|(a, _)| a == id) {
                return error(400, INVALID_QUERY);
            }
            let text = body["text"].as_str();
            if text.is_some_and(|t| t.chars().count() > 200) {
                return error(400, "Bad Request: MESSAGE_TOO_LONG");
            }
            s.press_answers.push((id.to_owned(), text.map(str::to_owned)));
            Reply::json(200, &json!({"ok": true, "result": true}))
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
            let (token, bot_id) = (s.bots[bot].token.clone(), s.bots[bot].id);
            let offset = body["offset"].as_i64().unwrap_or(0);
            let wait = Duration::from_secs(body["timeout"].as_u64().unwrap_or(0)).min(LONG_POLL_CAP);
            // A positive offset confirms every update before it: Telegram forgets them.
            s.updates.retain(|(t, u)| t != &token || u["update_id"].as_i64().unwrap_or(0) >= offset);
            let waiting = |s: &State| s.hold_updates || !s.updates.iter().any(|(t, _)| t == &token);
            let deadline = Instant::now() + wait;
            s.bots[bot].polling = true;
            while waiting(&s) && Instant::now() < deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                s = arrived.wait_timeout(s, left).unwrap_or_else(std::sync::PoisonError::into_inner).0;
            }
            // Found again by its id: its index moves when a revoked bot is removed, and its
            // token when it is replaced meanwhile (the poll of the old token still ends).
            if let Some(b) = s.bots.iter_mut().find(|b| b.id == bot_id) {
                b.polling = false;
            }
            let updates: Vec<Value> = match s.hold_updates {
                true => vec![],
                false => s.updates.iter().filter(|(t, _)| t == &token).map(|(_, u)| u.clone()).collect(),
            };
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
        "createInvoiceLink" => match read_invoice(body) {
            Ok(mut seen) => {
                let serial = s.next_serial();
                let slug = [s.bots[bot].id.to_be_bytes(), serial.to_be_bytes()].concat();
                seen.url = format!("https://t.me/${}", URL_SAFE_NO_PAD.encode(slug));
                let url = seen.url.clone();
                s.invoice_links.push(InvoiceLink { token: token.to_owned(), seen });
                Reply::json(200, &json!({"ok": true, "result": url}))
            }
            Err(description) => error(400, &description),
        },
        "answerPreCheckoutQuery" => {
            let id = body["pre_checkout_query_id"].as_str().unwrap_or_default();
            let ok = flag(&body["ok"]);
            let error_message = body["error_message"].as_str().filter(|m| !m.is_empty());
            if !ok && error_message.is_none() {
                return error(400, "Bad Request: parameter \"error_message\" is required");
            }
            let issued = s.checkouts.iter().any(|c| c.token == token && c.id == id && !c.expired);
            if !issued || s.pre_checkout_answers.iter().any(|(a, ..)| a == id) {
                return error(400, INVALID_QUERY);
            }
            // Telegram shows the error only when the bot refuses.
            let error_message = error_message.filter(|_| !ok).map(str::to_owned);
            s.pre_checkout_answers.push((id.to_owned(), ok, error_message));
            arrived.notify_all();
            Reply::json(200, &json!({"ok": true, "result": true}))
        }
        "refundStarPayment" => {
            let Some(user_id) = user_id(&body["user_id"]) else {
                return error(400, "Bad Request: invalid user_id specified");
            };
            let charge_id = body["telegram_payment_charge_id"].as_str().unwrap_or_default();
            if charge_id.is_empty() {
                return error(400, "Bad Request: parameter \"telegram_payment_charge_id\" is required");
            }
            let charges = &mut s.star_charges;
            let Some(charge) =
                charges.iter_mut().find(|c| c.token == token && c.user_id == user_id && c.id == charge_id)
            else {
                return error(400, CHARGE_NOT_FOUND);
            };
            if charge.refunded {
                return error(400, "Bad Request: CHARGE_ALREADY_REFUNDED");
            }
            charge.refunded = true;
            s.star_refunds.push((user_id, charge_id.to_owned()));
            Reply::json(200, &json!({"ok": true, "result": true}))
        }
        "editUserStarSubscription" => {
            let Some(user_id) = user_id(&body["user_id"]) else {
                return error(400, "Bad Request: invalid user_id specified");
            };
            let charge_id = body["telegram_payment_charge_id"].as_str().unwrap_or_default();
            let subscriptions = &mut s.star_subscriptions;
            let Some(sub) = subscriptions
                .iter_mut()
                .find(|x| x.token == token && x.user_id == user_id && x.first_charge_id == charge_id)
            else {
                return error(400, CHARGE_NOT_FOUND);
            };
            sub.canceled = flag(&body["is_canceled"]);
            Reply::json(200, &json!({"ok": true, "result": true}))
        }
        "setMyName" | "setMyShortDescription" | "setMyDescription" | "setMyCommands" | "setChatMenuButton" => {
            match set_profile(&mut s.bots[bot], method, body) {
                Ok(()) => Reply::json(200, &json!({"ok": true, "result": true})),
                Err(reason) => error(400, &format!("Bad Request: {reason}")),
            }
        }
        _ => error(404, "Not Found"),
    }
}

/// What a send carries, once read and checked.
struct Outgoing {
    chat_id: i64,
    text: String,
    markup: Option<Value>,
    /// A PNG, its width and its height.
    photo: Option<(Vec<u8>, u32, u32)>,
}

/// `sendMessage` and `sendPhoto`: held while sends are held, checked, then failed, throttled
/// (30 a second per bot, both together) or refused for a blocked chat like any send, and kept.
fn send(
    state: &(Mutex<State>, Condvar),
    mut s: MutexGuard<'_, State>,
    token: &str,
    method: &str,
    body: &Value,
    files: &[(String, Vec<u8>)],
) -> Reply {
    let arrived = &state.1;
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
    let read = if method == "sendPhoto" { read_photo(body, files) } else { read_text(body) };
    let out = match read {
        Ok(out) => out,
        Err(reason) => return error(400, &format!("Bad Request: {reason}")),
    };
    let asks_for_bot = out.markup.as_ref().is_some_and(|m| !m["keyboard"].is_null());
    if asks_for_bot && (!s.bots[bot].can_manage_bots || out.chat_id <= 0) {
        return error(400, "Bad Request: BUTTON_TYPE_INVALID");
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
    if s.blocked.contains(&out.chat_id) {
        return error(403, "Forbidden: bot was blocked by the user");
    }
    let message_id = i64::try_from(s.sent.len()).unwrap_or(i64::MAX) + 1;
    let mut message = json!({
        "message_id": message_id,
        "from": bot_user(&s.bots[bot]),
        "date": DATE,
        "chat": {"id": out.chat_id, "type": "private", "first_name": "Customer"},
    });
    match &out.photo {
        Some((png, width, height)) => {
            message["photo"] = json!(photo_sizes(message_id, png.len(), *width, *height));
            if !out.text.is_empty() {
                message["caption"] = json!(out.text);
            }
        }
        None => message["text"] = json!(out.text),
    }
    // A message shows only an inline keyboard; a reply keyboard is the chat's, not the message's.
    if let Some(markup) = out.markup.as_ref().filter(|m| !m["inline_keyboard"].is_null()) {
        message["reply_markup"] = markup.clone();
    }
    let seen = SentMessage {
        token: token.to_owned(),
        chat_id: out.chat_id,
        message_id,
        text: out.text,
        reply_markup: out.markup,
        photo: out.photo.map(|(png, ..)| png),
    };
    s.sent.push(Sent { seen, message: message.clone() });
    Reply::json(200, &json!({"ok": true, "result": message}))
}

/// `sendMessage`: a chat, 1-4096 characters, an optional inline keyboard.
fn read_text(body: &Value) -> Result<Outgoing, String> {
    let (Some(chat_id), Some(text)) = (body["chat_id"].as_i64(), body["text"].as_str()) else {
        return Err("message text is empty".into());
    };
    if text.is_empty() || text.chars().count() > 4096 {
        return Err("message text must be 1-4096 characters".into());
    }
    check_markup(&body["reply_markup"])?;
    let markup = body.get("reply_markup").filter(|m| !m.is_null()).cloned();
    Ok(Outgoing { chat_id, text: text.to_owned(), markup, photo: None })
}

/// `sendPhoto` with the PNG uploaded in the request: a chat, the photo, a caption of at most
/// 1024 characters, an optional inline keyboard.
fn read_photo(body: &Value, files: &[(String, Vec<u8>)]) -> Result<Outgoing, String> {
    let chat_id = body["chat_id"].as_i64().ok_or("chat_id is empty")?;
    let part = body["photo"].as_str().and_then(|p| p.strip_prefix("attach://"));
    let png = files.iter().find(|(name, _)| Some(name.as_str()) == part).map(|(_, png)| png);
    let png = png.ok_or("there is no photo in the request")?;
    // The signature, then the IHDR chunk: length, type, width, height.
    if !png.starts_with(PNG_SIGNATURE) || png.len() < 24 || &png[12..16] != b"IHDR" {
        return Err("IMAGE_PROCESS_FAILED".into());
    }
    let size = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    let caption = body["caption"].as_str().unwrap_or_default();
    if caption.chars().count() > 1024 {
        return Err("message caption is too long".into());
    }
    check_markup(&body["reply_markup"])?;
    let markup = body.get("reply_markup").filter(|m| !m.is_null()).cloned();
    Ok(Outgoing { chat_id, text: caption.to_owned(), markup, photo: Some((png.clone(), size(16), size(20))) })
}

/// The `PhotoSize`s Telegram answers with: smaller copies whose longer side is 90, 320 and
/// 800 pixels where the image is larger, then the image itself.
fn photo_sizes(message_id: i64, bytes: usize, width: u32, height: u32) -> Vec<Value> {
    let (width, height) = (u64::from(width), u64::from(height));
    let longest = width.max(height).max(1);
    let mut sizes: Vec<(u64, u64)> = [90, 320, 800]
        .into_iter()
        .filter(|side| *side < longest)
        .map(|side| (width * side / longest, height * side / longest))
        .collect();
    sizes.push((width, height));
    let last = sizes.len() - 1;
    sizes
        .into_iter()
        .enumerate()
        .map(|(i, (w, h))| {
            let mut size = json!({"file_id": format!("AgACAgIAAxkBAAM{message_id}-{i}"),
                "file_unique_id": format!("AQAD{message_id}-{i}"), "width": w, "height": h});
            if i == last {
                size["file_size"] = json!(bytes);
            }
            size
        })
        .collect()
}

/// A Boolean parameter as the Bot API reads it: `true` (or the text `true`, `yes`, `1`).
fn flag(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_i64() == Some(1),
        Value::String(text) => ["true", "yes", "1"].contains(&text.to_ascii_lowercase().as_str()),
        _ => false,
    }
}

/// A `user_id` parameter (a number, or its text): `None` unless positive.
fn user_id(value: &Value) -> Option<i64> {
    value.as_i64().or_else(|| value.as_str()?.parse().ok()).filter(|id| *id > 0)
}

/// `createInvoiceLink` for Telegram Stars, checked as the Bot API does: `title`,
/// `description`, `payload`, `currency` and `prices` required (the Bot API server's own
/// descriptions), then as Telegram does: a 1-32 character title, a 1-255 character
/// description, a payload of at most 128 bytes, currency `XTR` without a provider token,
/// exactly one price of 1-10000 Stars, and no period but 30 days (0 is none, as the Bot API
/// reads it). The link without its `url`.
fn read_invoice(body: &Value) -> Result<InvoiceLinkSeen, String> {
    let required = |field: &str| match body[field].as_str() {
        Some(text) if !text.is_empty() => Ok(text.to_owned()),
        _ => Err(format!("Bad Request: parameter \"{field}\" is required")),
    };
    let (title, description, payload) = (required("title")?, required("description")?, required("payload")?);
    let currency = required("currency")?;
    let prices = match &body["prices"] {
        Value::Null => return Err("Bad Request: parameter \"prices\" is required".into()),
        Value::String(text) => {
            serde_json::from_str(text).map_err(|_| "Bad Request: can't parse prices JSON object".to_owned())?
        }
        prices => prices.clone(),
    };
    let prices = prices.as_array().ok_or("Bad Request: expected an Array of labeled prices")?;
    let mut amounts = vec![];
    for price in prices {
        amounts.push(read_price(price).map_err(|reason| format!("Bad Request: can't parse labeled price: {reason}"))?);
    }
    if amounts.is_empty() {
        return Err("Bad Request: there must be at least one price".into());
    }
    if currency != "XTR" {
        return Err("Bad Request: CURRENCY_INVALID".into());
    }
    if !body["provider_token"].as_str().unwrap_or_default().is_empty() {
        return Err("Bad Request: PAYMENT_PROVIDER_INVALID".into());
    }
    let amount = match amounts[..] {
        [amount] if (1..=MAX_STARS).contains(&amount) => amount,
        _ => return Err("Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID".into()),
    };
    let period = &body["subscription_period"];
    let subscription_period = match period.as_i64().or_else(|| period.as_str()?.parse().ok()) {
        None if period.is_null() => None,
        Some(0) => None,
        Some(STARS_SUBSCRIPTION_PERIOD) => Some(STARS_SUBSCRIPTION_PERIOD),
        _ => return Err("Bad Request: SUBSCRIPTION_PERIOD_INVALID".into()),
    };
    if title.chars().count() > 32 {
        return Err("Bad Request: TITLE_INVALID".into());
    }
    if description.chars().count() > 255 {
        return Err("Bad Request: DESCRIPTION_INVALID".into());
    }
    if payload.len() > 128 {
        return Err("Bad Request: INVOICE_PAYLOAD_INVALID".into());
    }
    Ok(InvoiceLinkSeen { url: String::new(), title, description, payload, currency, amount, subscription_period })
}

/// A `LabeledPrice`'s amount (the reasons in tdlib's words).
fn read_price(price: &Value) -> Result<i64, String> {
    if !price.is_object() {
        return Err("LabeledPrice must be an Object".into());
    }
    match &price["label"] {
        Value::Null => return Err("Can't find field \"label\"".into()),
        Value::String(label) if label.is_empty() => return Err("LabeledPrice label must be non-empty".into()),
        Value::String(_) => {}
        _ => return Err("Field \"label\" must be of type String".into()),
    }
    match &price["amount"] {
        Value::Null => Err("Can't find field \"amount\"".into()),
        amount => amount.as_i64().ok_or_else(|| "Field \"amount\" must be a Number".into()),
    }
}

/// The directory of the contract check (`requirements.txt`, `validate.py`, and the `.venv`
/// they are installed into).
pub fn contract_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contract/telegram"))
}

/// Checks exchanges (`{"kind": "call", ...}` or `{"kind": "post", ...}`) with aiogram's models
/// under Python. `Ok` carries the script's summary; `Err` what failed (or why it could not run).
pub fn check_exchanges(exchanges: &[Value]) -> Result<String, String> {
    crate::gateway_contract::run_validator(&contract_dir(), &Value::Array(exchanges.to_vec()))
}

/// A request's parameters: its JSON body, or the fields of a `multipart/form-data` one as the
/// Bot API reads them (objects and arrays as JSON text, `chat_id` a number) with each uploaded
/// file as `attach://<part name>`, and those files by part name.
fn read_fields(req: &Request) -> (Value, Vec<(String, Vec<u8>)>) {
    let content_type = req.header("content-type").unwrap_or_default();
    if !content_type.starts_with("multipart/form-data") {
        return (req.json().unwrap_or_else(|| json!({})), vec![]);
    }
    let mut fields = serde_json::Map::new();
    let mut files = vec![];
    for FormPart { name, file_name, data } in form_parts(content_type, &req.body).unwrap_or_default() {
        if file_name.is_some() {
            fields.insert(name.clone(), json!(format!("attach://{name}")));
            files.push((name, data));
            continue;
        }
        let text = String::from_utf8_lossy(&data).into_owned();
        let value = match serde_json::from_str(&text) {
            Ok(value @ (Value::Object(_) | Value::Array(_))) => value,
            Ok(value @ Value::Number(_)) if name == "chat_id" => value,
            _ => Value::String(text),
        };
        fields.insert(name, value);
    }
    (Value::Object(fields), files)
}

struct FormPart {
    name: String,
    file_name: Option<String>,
    data: Vec<u8>,
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The parts of a `multipart/form-data` body (RFC 7578); `None` when it is malformed.
fn form_parts(content_type: &str, body: &[u8]) -> Option<Vec<FormPart>> {
    let boundary = content_type.split(';').find_map(|p| p.trim().strip_prefix("boundary="))?.trim_matches('"');
    let delimiter = format!("\r\n--{boundary}");
    let first = format!("--{boundary}");
    let mut rest = &body[find(body, first.as_bytes())? + first.len()..];
    let mut parts = vec![];
    // After each delimiter: `--` closes the body, CRLF opens a part.
    while !rest.starts_with(b"--") {
        rest = rest.strip_prefix(b"\r\n")?;
        let head_end = find(rest, b"\r\n\r\n")?;
        let head = std::str::from_utf8(&rest[..head_end]).ok()?;
        let content = &rest[head_end + 4..];
        let end = find(content, delimiter.as_bytes())?;
        let disposition = head
            .split("\r\n")
            .find_map(|line| {
                line.split_once(':').filter(|(k, _)| k.trim().eq_ignore_ascii_case("content-disposition"))
            })?
            .1;
        let param = |key: &str| {
            disposition
                .split(';')
                .find_map(|p| p.trim().strip_prefix(key)?.strip_prefix('='))
                .map(|v| v.trim_matches('"').to_owned())
        };
        parts.push(FormPart { name: param("name")?, file_name: param("filename"), data: content[..end].to_vec() });
        rest = &content[end + delimiter.len()..];
    }
    Some(parts)
}

fn too_many(status: u16, retry_after: u64) -> Reply {
    Reply::json(
        status,
        &json!({"ok": false, "error_code": status, "description": format!("Too Many Requests: retry after {retry_after}"),
            "parameters": {"retry_after": retry_after}}),
    )
}

/// An `InlineKeyboardMarkup` as the Bot API takes it: rows of buttons, each with a 1-64
/// character text and either an `http(s)`/`tg` `url` or 1-64 bytes of `callback_data`; or a
/// `ReplyKeyboardMarkup` whose buttons each ask to create a managed bot (the only kind of
/// keyboard button the platform sends).
fn check_markup(markup: &Value) -> Result<(), String> {
    if markup.is_null() {
        return Ok(());
    }
    if let Some(rows) = markup["keyboard"].as_array() {
        return check_reply_keyboard(rows);
    }
    let rows = markup["inline_keyboard"].as_array().ok_or("reply_markup must have inline_keyboard")?;
    for button in rows
        .iter()
        .map(|r| r.as_array().ok_or("a keyboard row must be an array"))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
    {
        check_label(button)?;
        match (button["url"].as_str(), button["callback_data"].as_str()) {
            (Some(url), None)
                if url.starts_with("https://") || url.starts_with("http://") || url.starts_with("tg://") => {}
            (None, Some(data)) if (1..=64).contains(&data.len()) => {}
            _ => return Err("BUTTON_DATA_INVALID".into()),
        }
    }
    Ok(())
}

fn check_label(button: &Value) -> Result<(), String> {
    let text = button["text"].as_str().unwrap_or_default();
    if text.is_empty() || text.chars().count() > 64 {
        return Err("button text must be 1-64 characters".into());
    }
    Ok(())
}

/// Keyboard buttons with a `KeyboardButtonRequestManagedBot`: a signed 32-bit `request_id`,
/// and a suggested username (when given) in BotFather's rules.
fn check_reply_keyboard(rows: &[Value]) -> Result<(), String> {
    for button in rows.iter().filter_map(Value::as_array).flatten() {
        check_label(button)?;
        let request = &button["request_managed_bot"];
        if request.is_null() {
            return Err("BUTTON_TYPE_INVALID".into());
        }
        if request["request_id"].as_i64().and_then(|id| i32::try_from(id).ok()).is_none() {
            return Err("BUTTON_ID_INVALID".into());
        }
        if let Some(name) = request["suggested_username"].as_str()
            && !username_ok(name)
        {
            return Err("USERNAME_INVALID".into());
        }
    }
    Ok(())
}

/// BotFather's rules for a bot's username: 5-32 Latin letters, digits and underscores,
/// starting with a letter, ending in `bot`.
fn username_ok(name: &str) -> bool {
    (5..=32).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name.to_ascii_lowercase().ends_with("bot")
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use std::time::{Duration, Instant};

    use super::{DATE, INVALID_QUERY, STARS_SUBSCRIPTION_PERIOD, StarsCheckout, TelegramEmulator, form_parts};

    const TOKEN: &str = "1:emulator-test-token";
    const BOUNDARY: &str = "b0und";

    /// The signature and IHDR chunk of a 400 x 200 PNG: enough for the emulator.
    fn png() -> Vec<u8> {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&[0, 0, 1, 144, 0, 0, 0, 200]);
        png
    }

    /// A form of `(name, file name, content)` parts.
    fn form(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
        let mut body = vec![];
        for (name, file, content) in parts {
            let file = file.map(|f| format!("; filename=\"{f}\"\r\nContent-Type: image/png")).unwrap_or_default();
            body.extend(
                format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"{file}\r\n\r\n").bytes(),
            );
            body.extend_from_slice(content);
            body.extend(b"\r\n");
        }
        body.extend(format!("--{BOUNDARY}--\r\n").bytes());
        body
    }

    fn call(emulator: &TelegramEmulator, method: &str, content_type: &str, body: &[u8]) -> (u16, Value) {
        let url = format!("{}/bot{TOKEN}/{method}", emulator.url());
        let answer = crate::http::send("POST", &url, &[("content-type", content_type)], body).unwrap();
        (answer.status, serde_json::from_slice(&answer.body).unwrap())
    }

    fn send_photo(emulator: &TelegramEmulator, parts: &[(&str, Option<&str>, &[u8])]) -> (u16, Value) {
        call(emulator, "sendPhoto", &format!("multipart/form-data; boundary=\"{BOUNDARY}\""), &form(parts))
    }

    /// A call with a JSON body by the bot of `token`.
    fn json_call(emulator: &TelegramEmulator, token: &str, method: &str, body: &Value) -> (u16, Value) {
        let url = format!("{}/bot{token}/{method}", emulator.url());
        let answer =
            crate::http::send("POST", &url, &[("content-type", "application/json")], body.to_string().as_bytes());
        let answer = answer.unwrap();
        (answer.status, serde_json::from_slice(&answer.body).unwrap())
    }

    /// An invoice for 250 Stars, a month's subscription with `period`.
    fn invoice(period: Option<i64>) -> Value {
        let mut invoice = json!({"title": "VPN, 30 days", "description": "Unlimited traffic for 30 days",
            "payload": "order-17", "currency": "XTR", "prices": [{"label": "30 days", "amount": 250}]});
        if let Some(period) = period {
            invoice["subscription_period"] = json!(period);
        }
        invoice
    }

    /// The link the bot of `token` makes for `invoice`.
    fn link(emulator: &TelegramEmulator, token: &str, invoice: &Value) -> String {
        let (status, answer) = json_call(emulator, token, "createInvoiceLink", invoice);
        assert_eq!(status, 200, "{answer}");
        answer["result"].as_str().unwrap().to_owned()
    }

    /// The updates the first bot has not confirmed yet, waiting up to two seconds for one, and
    /// confirmed now.
    fn take_updates(emulator: &TelegramEmulator) -> Vec<Value> {
        let (_, answer) = json_call(emulator, TOKEN, "getUpdates", &json!({"timeout": 2}));
        let updates = answer["result"].as_array().unwrap().clone();
        if let Some(last) = updates.last() {
            let offset = last["update_id"].as_i64().unwrap() + 1;
            json_call(emulator, TOKEN, "getUpdates", &json!({"offset": offset}));
        }
        updates
    }

    /// The person in `chat_id` pays through `url` while the first bot polls and answers the
    /// `pre_checkout_query` with `answer` (`pre_checkout_query_id` added).
    fn pay(emulator: &TelegramEmulator, url: &str, chat_id: i64, mut answer: Value) -> StarsCheckout {
        std::thread::scope(|scope| {
            let paying = scope.spawn(|| emulator.pay_link(url, chat_id, Some("en")));
            let updates = take_updates(emulator);
            let query = updates.iter().find_map(|u| u.get("pre_checkout_query"));
            let Some(query) = query else { panic!("no pre_checkout_query within two seconds: {updates:?}") };
            answer["pre_checkout_query_id"] = query["id"].clone();
            let (status, answered) = json_call(emulator, TOKEN, "answerPreCheckoutQuery", &answer);
            assert_eq!(status, 200, "{answered}");
            paying.join().unwrap()
        })
    }

    #[test]
    fn a_form_keeps_its_parts_byte_for_byte() {
        let body = form(&[("chat_id", None, b"7"), ("photo", Some("qr.png"), b"\r\n--b0un\0\r\n")]);
        let parts = form_parts(&format!("multipart/form-data; boundary={BOUNDARY}"), &body).unwrap();
        let read: Vec<_> = parts.iter().map(|p| (p.name.as_str(), p.file_name.as_deref(), p.data.as_slice())).collect();
        assert_eq!(read, [("chat_id", None, &b"7"[..]), ("photo", Some("qr.png"), &b"\r\n--b0un\0\r\n"[..])]);
        assert!(form_parts("multipart/form-data; boundary=other", &body).is_none());
    }

    #[test]
    fn a_photo_is_a_png_with_a_caption_of_at_most_1024_characters() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        let png = png();
        let markup = json!({"inline_keyboard": [[{"text": "Done", "callback_data": "done"}]]}).to_string();
        let (status, answer) = send_photo(
            &emulator,
            &[
                ("chat_id", None, b"7"),
                ("caption", None, b"QR"),
                ("reply_markup", None, markup.as_bytes()),
                ("photo", Some("qr.png"), &png),
            ],
        );
        assert_eq!(status, 200, "{answer}");
        let sizes: Vec<(i64, i64)> = answer["result"]["photo"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["width"].as_i64().unwrap(), s["height"].as_i64().unwrap()))
            .collect();
        assert_eq!(sizes, [(90, 45), (320, 160), (400, 200)]);
        assert_eq!(
            (answer["result"]["caption"].as_str(), &answer["result"]["reply_markup"]["inline_keyboard"][0][0]["text"]),
            (Some("QR"), &json!("Done"))
        );
        assert_eq!(emulator.sent_messages(TOKEN)[0].photo.as_ref(), Some(&png));

        let refused = |parts: &[(&str, Option<&str>, &[u8])]| send_photo(&emulator, parts).1["description"].clone();
        assert_eq!(
            refused(&[("chat_id", None, b"7"), ("photo", Some("a.gif"), b"GIF89a")]),
            "Bad Request: IMAGE_PROCESS_FAILED"
        );
        let long = "x".repeat(1025);
        assert_eq!(
            refused(&[("chat_id", None, b"7"), ("caption", None, long.as_bytes()), ("photo", Some("qr.png"), &png)]),
            "Bad Request: message caption is too long"
        );
        assert_eq!(
            refused(&[
                ("chat_id", None, b"7"),
                ("reply_markup", None, br#"{"inline_keyboard": [[{"text": "x", "callback_data": ""}]]}"#),
                ("photo", Some("qr.png"), &png)
            ]),
            "Bad Request: BUTTON_DATA_INVALID"
        );
        emulator.assert_contract();
        // Requests that break the contract (the check above would say so).
        assert_eq!(refused(&[("chat_id", None, b"7")]), "Bad Request: there is no photo in the request");
        assert_eq!(refused(&[("photo", Some("qr.png"), &png)]), "Bad Request: chat_id is empty");
        assert_eq!(emulator.sent_count(), 1);
    }

    #[test]
    fn a_press_is_answered_once_by_its_bot_with_at_most_200_characters() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        emulator.add_bot("2:other-bot", 2, "other");
        let markup = json!({"inline_keyboard": [[{"text": "Pick me", "callback_data": "pick"}]]});
        let json_call = |token: &str, method: &str, body: Value| {
            let url = format!("{}/bot{token}/{method}", emulator.url());
            let answer =
                crate::http::send("POST", &url, &[("content-type", "application/json")], body.to_string().as_bytes());
            let answer = answer.unwrap();
            (answer.status, serde_json::from_slice::<Value>(&answer.body).unwrap())
        };
        let (_, sent) = json_call(TOKEN, "sendMessage", json!({"chat_id": 5, "text": "Pick", "reply_markup": markup}));
        assert_eq!(emulator.press_button(TOKEN, 5, "Pick", Some("en")), "pick");
        let (_, updates) = json_call(TOKEN, "getUpdates", json!({}));
        let query = &updates["result"][0]["callback_query"];
        assert_eq!(query["message"], sent["result"], "the press carries the message as it was sent");
        let id = query["id"].as_str().unwrap();

        let answer = |token: &str, body: Value| json_call(token, "answerCallbackQuery", body).1["description"].clone();
        let too_old = json!(super::INVALID_QUERY);
        assert_eq!(answer(TOKEN, json!({"callback_query_id": "nope"})), too_old);
        assert_eq!(answer("2:other-bot", json!({"callback_query_id": id})), too_old, "another bot's query");
        assert_eq!(
            answer(TOKEN, json!({"callback_query_id": id, "text": "x".repeat(201)})),
            "Bad Request: MESSAGE_TOO_LONG"
        );
        assert_eq!(emulator.unanswered_presses(), 1);
        assert_eq!(json_call(TOKEN, "answerCallbackQuery", json!({"callback_query_id": id, "text": "Done"})).0, 200);
        assert_eq!(answer(TOKEN, json!({"callback_query_id": id})), too_old, "answered once");
        assert_eq!(
            (emulator.press_answers(), emulator.unanswered_presses()),
            (vec![(id.to_owned(), Some("Done".to_owned()))], 0)
        );
        emulator.assert_contract();
    }

    #[test]
    fn a_stars_invoice_link_is_xtr_with_one_price_of_at_most_10000_and_a_30_day_period_or_none() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        let once = link(&emulator, TOKEN, &invoice(None));
        let monthly = link(&emulator, TOKEN, &invoice(Some(STARS_SUBSCRIPTION_PERIOD)));
        assert!(once.starts_with("https://t.me/$") && monthly.starts_with("https://t.me/$"), "{once} {monthly}");
        assert_ne!(once, monthly);
        let slug = &once["https://t.me/$".len()..];
        assert!(slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{slug}");
        let links = emulator.invoice_links(TOKEN);
        assert_eq!(
            links.iter().map(|l| (l.url.as_str(), l.amount, l.subscription_period)).collect::<Vec<_>>(),
            [(once.as_str(), 250, None), (monthly.as_str(), 250, Some(STARS_SUBSCRIPTION_PERIOD))]
        );
        assert_eq!(
            (&*links[0].title, &*links[0].description, &*links[0].payload, &*links[0].currency),
            ("VPN, 30 days", "Unlimited traffic for 30 days", "order-17", "XTR")
        );

        let refused = |change: &dyn Fn(&mut Value)| {
            let mut body = invoice(None);
            change(&mut body);
            let (status, answer) = json_call(&emulator, TOKEN, "createInvoiceLink", &body);
            assert_eq!(status, 400, "{answer}");
            answer["description"].as_str().unwrap().to_owned()
        };
        assert_eq!(refused(&|b| b["currency"] = json!("RUB")), "Bad Request: CURRENCY_INVALID");
        let two_prices = json!([{"label": "30 days", "amount": 200}, {"label": "Fee", "amount": 50}]);
        assert_eq!(refused(&|b| b["prices"] = two_prices.clone()), "Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID");
        for amount in [0, 10_001] {
            assert_eq!(
                refused(&|b| b["prices"][0]["amount"] = json!(amount)),
                "Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID"
            );
        }
        assert_eq!(refused(&|b| b["prices"] = json!([])), "Bad Request: there must be at least one price");
        assert_eq!(refused(&|b| b["subscription_period"] = json!(86_400)), "Bad Request: SUBSCRIPTION_PERIOD_INVALID");
        assert_eq!(
            refused(&|b| b["provider_token"] = json!("381764678:TEST:1")),
            "Bad Request: PAYMENT_PROVIDER_INVALID"
        );
        assert_eq!(refused(&|b| b["title"] = json!("")), "Bad Request: parameter \"title\" is required");
        assert_eq!(refused(&|b| b["title"] = json!("x".repeat(33))), "Bad Request: TITLE_INVALID");
        assert_eq!(refused(&|b| b["description"] = json!("x".repeat(256))), "Bad Request: DESCRIPTION_INVALID");
        assert_eq!(refused(&|b| b["payload"] = json!("x".repeat(129))), "Bad Request: INVOICE_PAYLOAD_INVALID");
        assert_eq!(emulator.invoice_links(TOKEN).len(), 2, "no refused link is kept");
        emulator.assert_contract();
    }

    #[test]
    fn a_payment_is_charged_only_after_the_bot_agrees_and_an_answer_is_taken_once() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        emulator.add_bot("2:other-bot", 2, "other");
        let url = link(&emulator, TOKEN, &invoice(None));

        // The bot refuses: it must say why, and nothing is charged.
        let refused = pay(&emulator, &url, 7, json!({"ok": false, "error_message": "Sold out"}));
        assert_eq!(
            refused,
            StarsCheckout {
                answered: true,
                ok: false,
                error_message: Some("Sold out".into()),
                charge_id: None,
                update: None
            }
        );
        let (_, pending) = json_call(&emulator, TOKEN, "getUpdates", &json!({}));
        assert_eq!(pending["result"], json!([]), "no payment after a refusal");

        std::thread::scope(|scope| {
            let paying = scope.spawn(|| emulator.pay_link(&url, 7, Some("en")));
            let updates = take_updates(&emulator);
            let query = &updates[0]["pre_checkout_query"];
            assert_eq!(
                (&query["from"]["id"], &query["currency"], &query["total_amount"], &query["invoice_payload"]),
                (&json!(7), &json!("XTR"), &json!(250), &json!("order-17"))
            );
            let id = query["id"].as_str().unwrap();
            let answer = |token: &str, body: Value| {
                json_call(&emulator, token, "answerPreCheckoutQuery", &body).1["description"].clone()
            };
            assert_eq!(answer(TOKEN, json!({"pre_checkout_query_id": "nope", "ok": true})), INVALID_QUERY);
            assert_eq!(answer("2:other-bot", json!({"pre_checkout_query_id": id, "ok": true})), INVALID_QUERY);
            assert_eq!(
                answer(TOKEN, json!({"pre_checkout_query_id": id, "ok": false})),
                "Bad Request: parameter \"error_message\" is required"
            );
            let (status, _) = json_call(
                &emulator,
                TOKEN,
                "answerPreCheckoutQuery",
                &json!({"pre_checkout_query_id": id, "ok": true}),
            );
            assert_eq!(status, 200);
            assert_eq!(answer(TOKEN, json!({"pre_checkout_query_id": id, "ok": true})), INVALID_QUERY, "answered once");

            let paid = paying.join().unwrap();
            assert!(paid.answered && paid.ok && paid.error_message.is_none(), "{paid:?}");
            let charge = paid.charge_id.clone().unwrap();
            assert!(charge.starts_with("stx"), "{charge}");
            let updates = take_updates(&emulator);
            assert_eq!(updates.len(), 1);
            assert_eq!(Some(&updates[0]), paid.update.as_ref());
            let message = &updates[0]["message"];
            assert_eq!((&message["chat"]["id"], &message["from"]["id"]), (&json!(7), &json!(7)));
            assert_eq!(
                message["successful_payment"],
                json!({"currency": "XTR", "total_amount": 250, "invoice_payload": "order-17",
                    "telegram_payment_charge_id": charge, "provider_payment_charge_id": ""})
            );
            assert_eq!(emulator.pre_checkout_answers()[1], (id.to_owned(), true, None));
        });
        assert_eq!(emulator.pre_checkout_answers()[0].2.as_deref(), Some("Sold out"));
        emulator.assert_contract();
    }

    #[test]
    fn a_checkout_the_bot_does_not_answer_in_time_charges_nothing_and_a_late_answer_is_too_old() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        emulator.pre_checkout_wait(Duration::from_millis(200));
        let url = link(&emulator, TOKEN, &invoice(None));
        let started = Instant::now();
        let checkout = emulator.pay_link(&url, 7, None);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(200) && waited < Duration::from_secs(5), "{waited:?}");
        assert_eq!(
            checkout,
            StarsCheckout { answered: false, ok: false, error_message: None, charge_id: None, update: None }
        );
        let updates = take_updates(&emulator);
        let id = updates[0]["pre_checkout_query"]["id"].clone();
        let (status, late) =
            json_call(&emulator, TOKEN, "answerPreCheckoutQuery", &json!({"pre_checkout_query_id": id, "ok": true}));
        assert_eq!((status, &late["description"]), (400, &json!(INVALID_QUERY)));
        assert_eq!(updates.len(), 1, "no payment");
        assert!(emulator.pre_checkout_answers().is_empty());
    }

    #[test]
    fn a_refund_is_taken_once_for_a_charge_the_bot_got_from_that_person() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        emulator.add_bot("2:other-bot", 2, "other");
        let url = link(&emulator, TOKEN, &invoice(None));
        let paid = pay(&emulator, &url, 7, json!({"ok": true}));
        let charge = paid.charge_id.unwrap();
        let refund = |token: &str, body: Value| json_call(&emulator, token, "refundStarPayment", &body);
        let refused = |token: &str, body: Value| refund(token, body).1["description"].clone();
        let not_found = json!("Bad Request: CHARGE_NOT_FOUND");
        assert_eq!(
            refused(TOKEN, json!({"user_id": 8, "telegram_payment_charge_id": charge})),
            not_found,
            "another person"
        );
        assert_eq!(refused("2:other-bot", json!({"user_id": 7, "telegram_payment_charge_id": charge})), not_found);
        assert_eq!(refused(TOKEN, json!({"user_id": 7, "telegram_payment_charge_id": "stxnope"})), not_found);
        assert_eq!(emulator.star_refunds(), []);
        let (status, answer) = refund(TOKEN, json!({"user_id": 7, "telegram_payment_charge_id": charge}));
        assert_eq!((status, &answer["result"]), (200, &json!(true)));
        assert_eq!(
            refused(TOKEN, json!({"user_id": 7, "telegram_payment_charge_id": charge})),
            "Bad Request: CHARGE_ALREADY_REFUNDED"
        );
        assert_eq!(emulator.star_refunds(), [(7, charge.clone())]);
        emulator.assert_contract();
        // A request that breaks the contract (the check above would say so).
        assert_eq!(
            refused(TOKEN, json!({"telegram_payment_charge_id": charge})),
            "Bad Request: invalid user_id specified"
        );
    }

    #[test]
    fn a_subscription_is_charged_each_period_until_canceled() {
        let emulator = TelegramEmulator::start(TOKEN, "bot");
        let url = link(&emulator, TOKEN, &invoice(Some(STARS_SUBSCRIPTION_PERIOD)));
        let paid = pay(&emulator, &url, 7, json!({"ok": true}));
        let first = paid.charge_id.unwrap();
        let payment = &paid.update.as_ref().unwrap()["message"]["successful_payment"];
        assert_eq!(
            (&payment["is_recurring"], &payment["is_first_recurring"], &payment["subscription_expiration_date"]),
            (&json!(true), &json!(true), &json!(DATE + STARS_SUBSCRIPTION_PERIOD))
        );
        assert_eq!(emulator.star_subscription_canceled(&first), Some(false));

        let (second, renewed) = emulator.renew_subscription(&first).unwrap();
        assert_ne!(second, first);
        let payment = &renewed["message"]["successful_payment"];
        assert_eq!(
            payment,
            &json!({"currency": "XTR", "total_amount": 250, "invoice_payload": "order-17",
                "telegram_payment_charge_id": second, "provider_payment_charge_id": "", "is_recurring": true,
                "subscription_expiration_date": DATE + 2 * STARS_SUBSCRIPTION_PERIOD})
        );
        // Telegram sends the renewal twice: the same content under a new update_id.
        let (again, _) = emulator.deliver_again(TOKEN, &renewed);
        assert_ne!(again["update_id"], renewed["update_id"]);
        assert_eq!(again["message"], renewed["message"]);
        // The renewal is a charge of its own, refundable.
        let refund = json!({"user_id": 7, "telegram_payment_charge_id": second});
        assert_eq!(json_call(&emulator, TOKEN, "refundStarPayment", &refund).0, 200);

        let edit = |charge: &str, canceled: bool| {
            let body = json!({"user_id": 7, "telegram_payment_charge_id": charge, "is_canceled": canceled});
            json_call(&emulator, TOKEN, "editUserStarSubscription", &body)
        };
        assert_eq!(edit(&second, true).1["description"], "Bad Request: CHARGE_NOT_FOUND", "named by its first charge");
        assert_eq!(edit("stxnope", true).1["description"], "Bad Request: CHARGE_NOT_FOUND");
        assert_eq!(edit(&first, true), (200, json!({"ok": true, "result": true})));
        assert_eq!(emulator.star_subscription_canceled(&first), Some(true));
        assert!(emulator.renew_subscription(&first).is_none(), "a canceled subscription is not charged");
        assert_eq!(edit(&first, false).0, 200);
        let (_, third) = emulator.renew_subscription(&first).unwrap();
        assert_eq!(
            third["message"]["successful_payment"]["subscription_expiration_date"],
            json!(DATE + 3 * STARS_SUBSCRIPTION_PERIOD)
        );
        assert!(emulator.renew_subscription("stxnope").is_none());
        assert_eq!(emulator.star_subscription_canceled("stxnope"), None);
        assert_eq!(take_updates(&emulator).len(), 4, "the first payment, the renewal, its duplicate and the next");
        emulator.assert_contract();
    }
}
