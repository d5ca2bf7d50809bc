//! `BotApi` over the Bot API: every call under the token of the bot it is for.

use std::time::Duration;

use async_trait::async_trait;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};
use vp_domain::stars::{STARS_CURRENCY, STARS_SUBSCRIPTION_PERIOD_SECS};
use vp_outbound::Refusals;
use vp_ports::{
    BotApi, BotApiError, BotIdentity, BotMessage, BotProfile, BotUpdate, Button, ButtonAction, ManagedBotRequest,
    StarsInvoiceLink,
};

use crate::client::{CallError, Client, REQUEST_TIMEOUT};
use crate::updates::read_update;

/// A long poll may take its wait plus this much.
const POLL_MARGIN: Duration = Duration::from_secs(10);
/// What a bot's updates are asked for: messages (payments among them), button presses for the
/// bot's menus, the pre-checkout queries of its Stars invoices, and (for the platform's bot)
/// the bots it manages. Growing the list raises `vp_ports::bots::UPDATE_KINDS`.
const ALLOWED_UPDATES: [&str; 5] = ["message", "callback_query", "pre_checkout_query", "managed_bot", "subscription"];
/// The longest notice `answerCallbackQuery` shows.
const NOTICE_CHARS: usize = 200;

static REFUSALS: Refusals = Refusals::new("telegram");

pub struct TelegramBots {
    client: Client,
}

impl TelegramBots {
    /// `api_url` like `https://api.telegram.org`.
    pub fn new(api_url: &str) -> Result<TelegramBots, String> {
        Ok(TelegramBots { client: Client::new(api_url)? })
    }

    async fn call(&self, token: &str, method: &str, body: Value) -> Result<Value, BotApiError> {
        self.call_within(token, method, body, REQUEST_TIMEOUT).await
    }

    async fn call_within(
        &self,
        token: &str,
        method: &str,
        body: Value,
        timeout: Duration,
    ) -> Result<Value, BotApiError> {
        self.client.call(token, method, &body, timeout).await.map_err(|e| bot_error(method, &body, e))
    }

    /// A call with a file: `fields` is what a refusal logs of it (the form without the file).
    async fn call_form(&self, token: &str, method: &str, form: Form, fields: &Value) -> Result<Value, BotApiError> {
        self.client.call_form(token, method, form, REQUEST_TIMEOUT).await.map_err(|e| bot_error(method, fields, e))
    }
}

/// An inline keyboard of one button per row (the labels are sentences, not icons); `None`
/// without buttons. A message asking to create a managed bot gets a reply keyboard of those
/// buttons instead (Telegram has them only there; it hides once pressed), which a message
/// cannot have beside an inline one: such a message carries no other buttons.
fn keyboard(buttons: &[Button]) -> Option<Value> {
    let requests: Vec<Value> = buttons
        .iter()
        .filter_map(|b| match &b.action {
            ButtonAction::RequestManagedBot(request) => Some(json!([{
                "text": b.text,
                "request_managed_bot": managed_bot_request(request),
            }])),
            _ => None,
        })
        .collect();
    if !requests.is_empty() {
        return Some(json!({ "keyboard": requests, "resize_keyboard": true, "one_time_keyboard": true }));
    }
    let rows: Vec<Value> = buttons
        .iter()
        .filter_map(|b| match &b.action {
            ButtonAction::Url(url) => Some(json!([{ "text": b.text, "url": url }])),
            ButtonAction::Press(data) => Some(json!([{ "text": b.text, "callback_data": data }])),
            ButtonAction::RequestManagedBot(_) => None,
        })
        .collect();
    (!rows.is_empty()).then(|| json!({ "inline_keyboard": rows }))
}

/// Telegram's `KeyboardButtonRequestManagedBot`.
fn managed_bot_request(request: &ManagedBotRequest) -> Value {
    json!({
        "request_id": request.request_id,
        "suggested_name": request.suggested_name,
        "suggested_username": request.suggested_username,
    })
}

/// What a refusal means: 401 and 404 answer a wrong or revoked token, 429 asks to wait, 403
/// and "chat not found" say the chat is gone, 409 that updates are handed out elsewhere.
fn bot_error(method: &str, body: &Value, e: CallError) -> BotApiError {
    let CallError { code, description, retry_after, answer } = e;
    match code {
        Some(401 | 404) => BotApiError::Rejected,
        Some(429) => BotApiError::Throttled(retry_after.unwrap_or(Duration::from_secs(1))),
        Some(403) => BotApiError::ChatGone(description),
        Some(400) if description.contains("chat not found") => BotApiError::ChatGone(description),
        Some(409) => BotApiError::Conflict(description),
        Some(code @ 400..=499) => {
            // The token is in the path, never the body, so the request may be logged as it was.
            REFUSALS.record("POST", method, Some(body), code, answer.as_ref());
            BotApiError::Refused(format!("{method}: {code} {description}"))
        }
        Some(code) => BotApiError::Unavailable(format!("{method}: {code} {description}")),
        None => BotApiError::Unavailable(format!("{method}: {description}")),
    }
}

#[async_trait]
impl BotApi for TelegramBots {
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError> {
        let me = self.call(token, "getMe", json!({})).await?;
        match (me["id"].as_i64(), me["username"].as_str()) {
            (Some(bot_id), Some(username)) => Ok(BotIdentity {
                bot_id,
                username: username.to_owned(),
                can_manage_bots: me["can_manage_bots"].as_bool().unwrap_or(false),
            }),
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

    async fn send_message(&self, token: &str, message: &BotMessage) -> Result<(), BotApiError> {
        let markup = keyboard(&message.buttons);
        let Some(png) = &message.photo else {
            let mut body = json!({
                "chat_id": message.chat_id,
                "text": message.text,
                "link_preview_options": {"is_disabled": true},
            });
            if let Some(markup) = markup {
                body["reply_markup"] = markup;
            }
            return self.call(token, "sendMessage", body).await.map(|_| ());
        };
        let mut fields = json!({ "chat_id": message.chat_id });
        if !message.text.is_empty() {
            fields["caption"] = json!(message.text);
        }
        if let Some(markup) = markup {
            fields["reply_markup"] = markup;
        }
        // Form fields are text: strings as they are, numbers and objects as JSON.
        let form = fields.as_object().into_iter().flatten().fold(Form::new(), |form, (name, value)| {
            form.text(name.clone(), value.as_str().map_or_else(|| value.to_string(), str::to_owned))
        });
        let photo = Part::bytes(png.clone()).file_name("qr.png").mime_str("image/png").expect("a MIME type");
        // What a refusal logs instead of the file.
        fields["photo"] = json!(format!("qr.png, {} bytes", png.len()));
        self.call_form(token, "sendPhoto", form.part("photo", photo), &fields).await.map(|_| ())
    }

    async fn answer_press(&self, token: &str, press_id: &str, notice: Option<&str>) -> Result<(), BotApiError> {
        let mut body = json!({ "callback_query_id": press_id });
        if let Some(notice) = notice {
            // Telegram refuses a longer notice; a cut one still tells the person something.
            body["text"] = json!(notice.chars().take(NOTICE_CHARS).collect::<String>());
        }
        self.call(token, "answerCallbackQuery", body).await.map(|_| ())
    }

    async fn updates(&self, token: &str, offset: i64, wait: Duration) -> Result<Vec<BotUpdate>, BotApiError> {
        let body = json!({"offset": offset, "timeout": wait.as_secs(), "allowed_updates": ALLOWED_UPDATES});
        let result = self.call_within(token, "getUpdates", body, wait + POLL_MARGIN).await?;
        Ok(result.as_array().into_iter().flatten().filter_map(read_update).collect())
    }

    async fn set_webhook(&self, token: &str, url: &str, secret: &str) -> Result<(), BotApiError> {
        let body = json!({"url": url, "secret_token": secret, "allowed_updates": ALLOWED_UPDATES});
        self.call(token, "setWebhook", body).await.map(|_| ())
    }

    async fn delete_webhook(&self, token: &str) -> Result<(), BotApiError> {
        // Updates that came meanwhile stay, to be polled.
        self.call(token, "deleteWebhook", json!({"drop_pending_updates": false})).await.map(|_| ())
    }

    async fn stars_invoice_link(&self, token: &str, invoice: &StarsInvoiceLink) -> Result<String, BotApiError> {
        // Stars need no payment provider: the token is empty, the one price is whole Stars.
        let mut body = json!({
            "title": invoice.title,
            "description": invoice.description,
            "payload": invoice.payload,
            "provider_token": "",
            "currency": STARS_CURRENCY,
            "prices": [{"label": invoice.label, "amount": invoice.stars}],
        });
        if invoice.subscription {
            body["subscription_period"] = json!(STARS_SUBSCRIPTION_PERIOD_SECS);
        }
        let link = self.call(token, "createInvoiceLink", body).await?;
        link.as_str()
            .map(str::to_owned)
            .ok_or_else(|| BotApiError::Unavailable("createInvoiceLink: the answer is not a link".into()))
    }

    async fn answer_pre_checkout(&self, token: &str, query_id: &str, refusal: Option<&str>) -> Result<(), BotApiError> {
        let mut body = json!({"pre_checkout_query_id": query_id, "ok": refusal.is_none()});
        if let Some(reason) = refusal {
            body["error_message"] = json!(reason);
        }
        self.call(token, "answerPreCheckoutQuery", body).await.map(|_| ())
    }

    async fn refund_stars(&self, token: &str, user_id: i64, charge_id: &str) -> Result<(), BotApiError> {
        let body = json!({"user_id": user_id, "telegram_payment_charge_id": charge_id});
        match self.call(token, "refundStarPayment", body).await {
            // A refund made before (its answer lost) is what was asked for.
            Err(BotApiError::Refused(reason)) if reason.contains("CHARGE_ALREADY_REFUNDED") => Ok(()),
            other => other.map(|_| ()),
        }
    }

    async fn cancel_stars_subscription(&self, token: &str, user_id: i64, charge_id: &str) -> Result<(), BotApiError> {
        let body = json!({"user_id": user_id, "telegram_payment_charge_id": charge_id, "is_canceled": true});
        self.call(token, "editUserStarSubscription", body).await.map(|_| ())
    }

    async fn managed_bot_token(&self, token: &str, bot_id: i64) -> Result<String, BotApiError> {
        let token = self.call(token, "getManagedBotToken", json!({"user_id": bot_id})).await?;
        token_of(token, "getManagedBotToken")
    }

    async fn replace_managed_bot_token(&self, token: &str, bot_id: i64) -> Result<String, BotApiError> {
        let token = self.call(token, "replaceManagedBotToken", json!({"user_id": bot_id})).await?;
        token_of(token, "replaceManagedBotToken")
    }
}

/// The token a managed-bot method answers with.
fn token_of(answer: Value, method: &str) -> Result<String, BotApiError> {
    answer
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| BotApiError::Unavailable(format!("{method}: the answer is not a token")))
}
