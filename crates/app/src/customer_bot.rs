//! A partner's bot for the partner's customers (docs/telegram.md): a customer links a chat
//! with "Get reminders in Telegram" (a deep link carrying a one-time code bound to the client),
//! and the bot answers `/start`, `/status`, `/connect`, `/help`, `/language` and `/stop` in the
//! chat's language under the brand. A chat may be linked to several clients of the account (a
//! family); a client to one chat.

use time::Duration;
use vp_domain::Lang;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button, ButtonPress, ChatText, ClientChat, ClientLinkCode, PartnerBotRecord, Tx};

use crate::App;
use crate::bots::connected_bot;
use crate::error::{AppError, AppResult};
use crate::views::{SubscriptionView, url_encode};

/// A "Get reminders in Telegram" code works this long, once.
pub const CLIENT_CODE_VALID_FOR: Duration = Duration::hours(24);

/// What the bot says to a chat, decided in the unit of work that handled the update and worded
/// after it committed (the wording reads the panel).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CustomerReply {
    lang: Lang,
    /// Who wrote: the shop serves them as `telegram:<user_id>`.
    user_id: i64,
    kind: ReplyKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum ReplyKind {
    /// The shop's welcome and menu: `/start` without a code, or anything not a command.
    Menu,
    Help,
    /// The chat was linked to a client just now: the status follows.
    Linked,
    LinkExpired,
    Status,
    Connect,
    LanguageSet,
    Stopped,
}

/// The chat's language: the one it chose with `/language`, else its Telegram app's when that is
/// Russian, else English.
pub(crate) fn language_of(chosen: Option<&str>, app_language: Option<&str>) -> Lang {
    let app = app_language.map(|code| code.split('-').next().unwrap_or(code));
    chosen.or(app).and_then(Lang::from_code).unwrap_or_default()
}

/// The other language (the menu's switch and a bare `/language`).
fn other(lang: Lang) -> Lang {
    match lang {
        Lang::En => Lang::Ru,
        Lang::Ru => Lang::En,
    }
}

impl App {
    /// The "Get reminders in Telegram" link of the client behind a subscription link token: a
    /// deep link to the account's bot carrying a one-time code (32 random bytes as 43 URL-safe
    /// characters, kept as SHA-256, valid 24 hours). `NotFound` without such a subscription or
    /// a connected bot.
    pub async fn reminders_link(&self, link_token: &str) -> AppResult<String> {
        let mut tx = self.store.begin().await?;
        let client = tx.client_by_link_token(link_token).await?.ok_or(AppError::NotFound("subscription"))?;
        let bot = connected_bot(tx.as_mut(), &client.account_id).await?.ok_or(AppError::NotFound("bot"))?;
        let code = self.random_token();
        tx.insert_client_link_code(&ClientLinkCode {
            code_hash: crate::keys::hash(&code),
            client_ref: client.id.clone(),
            expires_at: self.clock.now() + CLIENT_CODE_VALID_FOR,
        })
        .await?;
        tx.commit().await?;
        Ok(format!("https://t.me/{}?start={code}", bot.username))
    }

    /// Acts on what a customer wrote to the partner's bot, in the unit of work `tx` the update
    /// is handled in: links, unlinks, sets the language. Returns what to answer.
    pub(crate) async fn customer_said(
        &self,
        tx: &mut dyn Tx,
        bot: &PartnerBotRecord,
        said: &ChatText,
    ) -> AppResult<CustomerReply> {
        let account_id = bot.account_id.as_str();
        tx.touch_bot_customer(account_id, said.user_id, said.chat_id, self.clock.now()).await?;
        let mut lang = self.chat_reads(tx, account_id, said.chat_id, said.language.as_deref()).await?;
        let kind = match said.command() {
            Some(("start", code)) if !code.is_empty() => {
                if self.link_client(tx, account_id, said.chat_id, code).await? {
                    ReplyKind::Linked
                } else {
                    ReplyKind::LinkExpired
                }
            }
            Some(("start", _)) => ReplyKind::Menu,
            Some(("help", _)) => ReplyKind::Help,
            Some(("status", _)) => ReplyKind::Status,
            Some(("connect", _)) => ReplyKind::Connect,
            Some(("language", asked)) => {
                // `/language ru` picks one; `/language` alone switches to the other.
                lang = Lang::from_code(asked).unwrap_or(other(lang));
                tx.set_chat_language(account_id, said.chat_id, lang.code()).await?;
                ReplyKind::LanguageSet
            }
            Some(("stop", _)) => {
                tx.unlink_chat(account_id, said.chat_id).await?;
                ReplyKind::Stopped
            }
            _ => ReplyKind::Menu,
        };
        Ok(CustomerReply { lang, user_id: said.user_id, kind })
    }

    /// Records a press on a shop button in the unit of work `tx` the update is handled in (the
    /// language switch is the one press that changes something there). Returns the language to
    /// answer in.
    pub(crate) async fn customer_pressed(
        &self,
        tx: &mut dyn Tx,
        bot: &PartnerBotRecord,
        press: &ButtonPress,
    ) -> AppResult<Lang> {
        let account_id = bot.account_id.as_str();
        tx.touch_bot_customer(account_id, press.user_id, press.chat_id, self.clock.now()).await?;
        let mut lang = self.chat_reads(tx, account_id, press.chat_id, press.language.as_deref()).await?;
        if crate::bot_shop::Choice::parse(&press.data) == Some(crate::bot_shop::Choice::Language) {
            lang = other(lang);
            tx.set_chat_language(account_id, press.chat_id, lang.code()).await?;
        }
        Ok(lang)
    }

    /// The language the chat reads; the first time the chat is seen its Telegram app's is kept
    /// for it, so what the platform sends later on its own (reminders, the paid message) reads
    /// the same.
    async fn chat_reads(&self, tx: &mut dyn Tx, account_id: &str, chat_id: i64, app: Option<&str>) -> AppResult<Lang> {
        let chosen = tx.chat_language(account_id, chat_id).await?;
        let lang = language_of(chosen.as_deref(), app);
        if chosen.is_none() {
            tx.set_chat_language(account_id, chat_id, lang.code()).await?;
        }
        Ok(lang)
    }

    /// Links the chat to the client a good code names (of this account, not expired).
    async fn link_client(&self, tx: &mut dyn Tx, account_id: &str, chat_id: i64, code: &str) -> AppResult<bool> {
        let now = self.clock.now();
        let Some(code) = tx.take_client_link_code(&crate::keys::hash(code)).await? else { return Ok(false) };
        let client = tx.client_by_ref(&code.client_ref).await?;
        if code.expires_at <= now || client.as_ref().is_none_or(|c| c.account_id != account_id) {
            return Ok(false);
        }
        let linked =
            ClientChat { client_ref: code.client_ref, account_id: account_id.to_owned(), chat_id, linked_at: now };
        tx.link_client_chat(&linked).await?;
        Ok(true)
    }

    /// The messages that say `reply` in the chat.
    pub(crate) async fn customer_messages(
        &self,
        bot: &PartnerBotRecord,
        chat_id: i64,
        reply: &CustomerReply,
    ) -> AppResult<Vec<BotMessage>> {
        let lang = reply.lang;
        if matches!(reply.kind, ReplyKind::Menu | ReplyKind::Help) {
            let Some(shopper) = self.shopper(bot, chat_id, reply.user_id, lang).await? else { return Ok(vec![]) };
            if let Some(refusal) = self.blocked_refusal(&shopper).await? {
                return Ok(vec![refusal]);
            }
            if reply.kind == ReplyKind::Help {
                return Ok(vec![self.help_screen(&shopper).await?]);
            }
            // A client the partner made for this person (or an earlier purchase) gets reminders here.
            self.link_shopper(&shopper).await?;
            return Ok(vec![self.shop_menu(&shopper).await?]);
        }
        let mut tx = self.store.read().await?;
        let account = tx.account(&bot.account_id).await?.ok_or(AppError::NotFound("account"))?;
        let linked = tx.chat_clients(&bot.account_id, chat_id).await?;
        let mut clients = Vec::with_capacity(linked.len());
        for l in &linked {
            if let Some(client) = tx.client_by_ref(&l.client_ref).await? {
                clients.push(client);
            }
        }
        tx.commit().await?;
        let brand = account.brand_name.as_str();
        let say = |key: &str| BotMessage::text(chat_id, text_with(lang, key, &[("brand", brand.into())]));
        let status_or_connect = matches!(reply.kind, ReplyKind::Linked | ReplyKind::Status | ReplyKind::Connect);
        if status_or_connect && clients.is_empty() {
            return Ok(vec![say("bot-not-linked")]);
        }
        Ok(match reply.kind {
            ReplyKind::Menu | ReplyKind::Help => vec![],
            ReplyKind::LinkExpired => vec![say("bot-link-expired")],
            ReplyKind::LanguageSet => vec![say("bot-language-set")],
            ReplyKind::Stopped => vec![say("bot-stopped")],
            ReplyKind::Linked | ReplyKind::Status => {
                let mut text = String::new();
                if reply.kind == ReplyKind::Linked {
                    text = text_with(lang, "bot-linked", &[("brand", brand.into())]);
                }
                for client in &clients {
                    if !text.is_empty() {
                        text.push_str("\n\n");
                    }
                    text.push_str(&self.client_status(&account, client, lang).await);
                }
                vec![BotMessage::text(chat_id, text)]
            }
            ReplyKind::Connect => {
                let views =
                    self.with_views(&account, None, |v| clients.iter().map(|c| v.client(c)).collect::<Vec<_>>());
                let mut messages = Vec::new();
                for (client, view) in clients.iter().zip(views) {
                    let (Some(sub), Some(record)) = (view.subscription, client.subscription.as_ref()) else {
                        messages.push(BotMessage::text(
                            chat_id,
                            text_with(lang, "bot-no-subscription", &[("client", client.client_id.as_str().into())]),
                        ));
                        continue;
                    };
                    let page = format!("{}/connect/{}", self.settings.public_base_url, url_encode(&record.link_token));
                    let body = text_with(
                        lang,
                        "bot-connect",
                        &[("client", client.client_id.as_str().into()), ("link", sub.subscription_url.as_str().into())],
                    );
                    messages.push(
                        BotMessage::text(chat_id, body)
                            .with_buttons(vec![Button::link(text(lang, "bot-connect-button"), page)]),
                    );
                }
                messages
            }
        })
    }

    /// One client's state as the bot words it: who, status, until when, devices.
    async fn client_status(
        &self,
        account: &vp_ports::AccountRecord,
        client: &vp_ports::ClientRecord,
        lang: Lang,
    ) -> String {
        let who = text_with(lang, "bot-status-client", &[("client", client.client_id.as_str().into())]);
        let Some(sub) = self.with_views(account, None, |v| v.client(client)).subscription else {
            return text_with(lang, "bot-no-subscription", &[("client", client.client_id.as_str().into())]);
        };
        format!("{who}\n{}", self.subscription_lines(&client.id, &sub, lang).await)
    }

    /// A subscription's status, until when and devices, a line each, as the bot words them;
    /// the devices used come from the panel, and are left out when it does not answer (the
    /// panel being down must not silence the bot).
    pub(crate) async fn subscription_lines(&self, client_ref: &str, sub: &SubscriptionView, lang: Lang) -> String {
        let used = self.panel.devices(client_ref).await.ok().map(|d| d.len());
        let state = sub.state(lang, used);
        [
            format!("{}: {}", text(lang, "page-subscription-status"), state.status),
            format!("{}: {}", text(lang, "page-subscription-valid-until"), state.until),
            format!("{}: {}", text(lang, "page-subscription-devices"), state.devices),
        ]
        .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chat_reads_its_chosen_language_else_its_apps_russian_else_english() {
        assert_eq!(language_of(None, Some("ru")), Lang::Ru);
        assert_eq!(language_of(None, Some("ru-RU")), Lang::Ru);
        assert_eq!(language_of(None, Some("de")), Lang::En);
        assert_eq!(language_of(None, None), Lang::En);
        assert_eq!(language_of(Some("en"), Some("ru")), Lang::En);
    }
}
