//! The Telegram Bot API adapters (docs/telegram.md lists the methods and fields we rely on):
//! the platform's own notice bot (`TelegramNotifier`, the `PartnerNotifier`) and partners' own
//! bots (`TelegramBots`, the `BotApi`), over one client (`client.rs`).

mod bots;
mod client;

pub use bots::TelegramBots;

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};
use tokio::sync::OnceCell;
use vp_outbound::Refusals;
use vp_ports::{ChatStart, ChatStartBatch, MessengerError, PartnerNotifier};

use client::{CallError, Client, REQUEST_TIMEOUT};
/// A long poll may take its wait plus this much.
const POLL_MARGIN: Duration = Duration::from_secs(10);

static REFUSALS: Refusals = Refusals::new("telegram");

pub struct TelegramNotifier {
    client: Client,
    token: String,
    /// The bot's username (`getMe`), read once it is first needed.
    username: OnceCell<String>,
}

impl TelegramNotifier {
    /// `api_url` like `https://api.telegram.org` (no trailing slash needed).
    pub fn new(api_url: &str, token: &str) -> Result<TelegramNotifier, String> {
        Ok(TelegramNotifier { client: Client::new(api_url)?, token: token.to_owned(), username: OnceCell::new() })
    }

    /// Calls a method; the `result` of an `ok` answer, or the error it means.
    async fn call(&self, method: &str, body: &Value, timeout: Duration) -> Result<Value, MessengerError> {
        self.client.call(&self.token, method, body, timeout).await.map_err(|e| refusal(method, body, e))
    }
}

/// What a failed call of the notice bot means.
fn refusal(method: &str, body: &Value, e: CallError) -> MessengerError {
    let CallError { code, description, retry_after, answer } = e;
    let Some(code) = code else { return unavailable(format!("{method}: {description}"), None) };
    match code {
        429 => unavailable(format!("{method}: {description}"), retry_after),
        // A wrong or revoked token: nothing works until the operator fixes it.
        401 | 404 => {
            tracing::error!(method, code, "Telegram refused the bot token; check VP_TELEGRAM_BOT_TOKEN");
            unavailable(format!("{method}: {code} {description}"), None)
        }
        403 => MessengerError::Refused(description),
        400 if description.contains("chat not found") => MessengerError::Refused(description),
        400..=499 => {
            // The token is not in the body, so the request may be logged as it was.
            REFUSALS.record("POST", method, Some(body), code, answer.as_ref());
            MessengerError::Refused(format!("{code} {description}"))
        }
        _ => unavailable(format!("{method}: {code} {description}"), None),
    }
}

fn unavailable(reason: String, retry_after: Option<Duration>) -> MessengerError {
    MessengerError::Unavailable { reason, retry_after }
}

/// The code of `/start <code>` or `/start@<bot> <code>`; `None` for any other text.
fn start_code(text: &str) -> Option<&str> {
    let (command, payload) = text.trim().split_once(char::is_whitespace)?;
    let is_start = command == "/start" || command.strip_prefix("/start@").is_some_and(|bot| !bot.is_empty());
    let payload = payload.trim();
    (is_start && !payload.is_empty()).then_some(payload)
}

#[async_trait]
impl PartnerNotifier for TelegramNotifier {
    fn channel(&self) -> Option<&'static str> {
        Some("Telegram")
    }

    async fn chat_link(&self, code: &str) -> Result<String, MessengerError> {
        let username = self
            .username
            .get_or_try_init(|| async {
                let me = self.call("getMe", &json!({}), REQUEST_TIMEOUT).await?;
                me["username"]
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| unavailable("getMe: the answer has no username".into(), None))
            })
            .await?;
        Ok(format!("https://t.me/{username}?start={code}"))
    }

    async fn send(&self, chat_id: i64, text: &str) -> Result<(), MessengerError> {
        let body = json!({"chat_id": chat_id, "text": text, "link_preview_options": {"is_disabled": true}});
        self.call("sendMessage", &body, REQUEST_TIMEOUT).await.map(|_| ())
    }

    async fn chat_starts(&self, offset: i64, wait: Duration) -> Result<ChatStartBatch, MessengerError> {
        let body = json!({"offset": offset, "timeout": wait.as_secs(), "allowed_updates": ["message"]});
        let result = self.call("getUpdates", &body, wait + POLL_MARGIN).await?;
        let updates = result.as_array().cloned().unwrap_or_default();
        let mut batch = ChatStartBatch { starts: vec![], next_offset: offset };
        for update in &updates {
            let Some(update_id) = update["update_id"].as_i64() else { continue };
            batch.next_offset = batch.next_offset.max(update_id + 1);
            let message = &update["message"];
            if let (Some(chat_id), Some(code)) =
                (message["chat"]["id"].as_i64(), message["text"].as_str().and_then(start_code))
            {
                batch.starts.push(ChatStart { update_id, chat_id, code: code.to_owned() });
            }
        }
        Ok(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::start_code;

    #[test]
    fn only_a_start_command_with_a_payload_carries_a_code() {
        assert_eq!(start_code("/start abc_DEF-1"), Some("abc_DEF-1"));
        assert_eq!(start_code("/start@platform_bot abc"), Some("abc"));
        assert_eq!(start_code("/start"), None);
        assert_eq!(start_code("/start   "), None);
        assert_eq!(start_code("/help abc"), None);
        assert_eq!(start_code("/startabc x"), None);
        assert_eq!(start_code("hello /start abc"), None);
    }
}
