//! `BotApi` for partners' own bots: the same Bot API, each call under the bot's own token.

use async_trait::async_trait;
use serde_json::json;
use vp_ports::{BotApi, BotApiError, BotIdentity};

use crate::client::{CallError, Client, REQUEST_TIMEOUT};

pub struct TelegramBots {
    client: Client,
}

impl TelegramBots {
    /// `api_url` like `https://api.telegram.org`.
    pub fn new(api_url: &str) -> Result<TelegramBots, String> {
        Ok(TelegramBots { client: Client::new(api_url)? })
    }
}

/// 401 and 404 are Telegram's answers to a wrong or revoked token.
fn bot_error(method: &str, e: CallError) -> BotApiError {
    match e.code {
        Some(401 | 404) => BotApiError::Rejected,
        Some(code) => BotApiError::Unavailable(format!("{method}: {code} {}", e.description)),
        None => BotApiError::Unavailable(format!("{method}: {}", e.description)),
    }
}

#[async_trait]
impl BotApi for TelegramBots {
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError> {
        let me =
            self.client.call(token, "getMe", &json!({}), REQUEST_TIMEOUT).await.map_err(|e| bot_error("getMe", e))?;
        match (me["id"].as_i64(), me["username"].as_str()) {
            (Some(bot_id), Some(username)) => Ok(BotIdentity { bot_id, username: username.to_owned() }),
            _ => Err(BotApiError::Unavailable("getMe: the answer has no id or username".into())),
        }
    }
}
