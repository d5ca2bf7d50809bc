//! `BotApi` for partners' own bots: the same Bot API, each call under the bot's own token.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};
use vp_ports::{BotApi, BotApiError, BotIdentity, BotProfile};

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

impl TelegramBots {
    async fn call(&self, token: &str, method: &str, body: Value) -> Result<Value, BotApiError> {
        self.client.call(token, method, &body, REQUEST_TIMEOUT).await.map_err(|e| bot_error(method, e))
    }
}

/// 401 and 404 are Telegram's answers to a wrong or revoked token; 429 asks to wait.
fn bot_error(method: &str, e: CallError) -> BotApiError {
    match e.code {
        Some(401 | 404) => BotApiError::Rejected,
        Some(429) => BotApiError::Throttled(e.retry_after.unwrap_or(Duration::from_secs(1))),
        Some(code) => BotApiError::Unavailable(format!("{method}: {code} {}", e.description)),
        None => BotApiError::Unavailable(format!("{method}: {}", e.description)),
    }
}

#[async_trait]
impl BotApi for TelegramBots {
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError> {
        let me = self.call(token, "getMe", json!({})).await?;
        match (me["id"].as_i64(), me["username"].as_str()) {
            (Some(bot_id), Some(username)) => Ok(BotIdentity { bot_id, username: username.to_owned() }),
            _ => Err(BotApiError::Unavailable("getMe: the answer has no id or username".into())),
        }
    }

    async fn set_profile(&self, token: &str, profile: &BotProfile) -> Result<(), BotApiError> {
        self.call(token, "setMyName", json!({ "name": profile.name })).await?;
        for (i, lang) in profile.languages.iter().enumerate() {
            // The first language is also what users of other languages see (no language_code).
            let codes = if i == 0 { vec![None, Some(lang.code)] } else { vec![Some(lang.code)] };
            for code in codes {
                let with_code = |mut body: Value| {
                    if let Some(code) = code {
                        body["language_code"] = json!(code);
                    }
                    body
                };
                let commands: Vec<Value> =
                    lang.commands.iter().map(|(c, d)| json!({ "command": c, "description": d })).collect();
                self.call(
                    token,
                    "setMyShortDescription",
                    with_code(json!({ "short_description": lang.short_description })),
                )
                .await?;
                self.call(token, "setMyDescription", with_code(json!({ "description": lang.description }))).await?;
                self.call(token, "setMyCommands", with_code(json!({ "commands": commands }))).await?;
            }
        }
        self.call(token, "setChatMenuButton", json!({ "menu_button": { "type": "commands" } })).await?;
        Ok(())
    }
}
