//! Notices from the platform to partners. Each is kept for the cabinet in the unit of work of
//! its cause; when the platform has a notice bot (`VP_TELEGRAM_BOT_TOKEN`), a send to each
//! linked chat is queued in the same unit of work and delivered by the notice worker with
//! retries, so neither a slow messenger nor a lost process holds up or loses one. Partners
//! link chats with the notice bot's deep link; its updates arrive as every bot's do
//! (`bot_updates`).

use time::{Duration, OffsetDateTime};
use vp_domain::backoff;
use vp_ports::{
    BotApiError, BotMessage, ChatLinkCode, NoticeKind, NoticeRecord, NoticeSend, PartnerChat, StoreError, Tx,
};

use crate::App;
use crate::cabinet::Actor;
use crate::cabinet::audit::{self, Who};
use crate::error::{AppError, AppResult};
use vp_domain::Lang;
use vp_i18n::{text, text_with};

/// Notices a cabinet page shows.
pub const NOTICE_PAGE: u32 = 50;
/// A chat link's code works this long, once.
pub const CHAT_CODE_VALID_FOR: Duration = Duration::hours(1);
/// A message to a chat (a notice or a reminder) is tried this many times (over about a day)
/// before it is given up.
pub const SEND_ATTEMPTS: u32 = 12;
/// A claimed send is not picked up by another worker for this long.
const SEND_LEASE: Duration = Duration::minutes(2);

/// The pause before the next try after `attempts` failed ones: 30 s doubling, at most 4 h
/// (12 tries span about a day).
pub(crate) fn send_retry_delay(attempts: u32) -> Duration {
    backoff::doubling(attempts, Duration::seconds(30), Duration::hours(4))
}

/// How a notice reads, in a chat or on the cabinet's Notices page.
pub fn notice_text(kind: &NoticeKind, brand: &str, lang: Lang) -> String {
    match kind {
        NoticeKind::EndpointDisabled { url, reason, .. } => text_with(
            lang,
            "notice-endpoint-disabled",
            &[("brand", brand.into()), ("url", url.into()), ("reason", reason.into())],
        ),
        NoticeKind::WithdrawalPaid { withdrawal_id, amount } => text_with(
            lang,
            "notice-withdrawal-paid",
            &[("brand", brand.into()), ("withdrawal", withdrawal_id.into()), ("amount", (*amount).into())],
        ),
        NoticeKind::BotDisconnected { username, .. } => {
            text_with(lang, "notice-bot-disconnected", &[("brand", brand.into()), ("bot", username.into())])
        }
    }
}

/// A chat link for the cabinet: the deep link, and until when its code works.
#[derive(Debug, Clone)]
pub struct ChatLink {
    pub url: String,
    pub expires_at: OffsetDateTime,
}

impl App {
    /// The messenger notices also go to ("Telegram"), or `None` when they stay in the cabinet.
    pub fn messenger(&self) -> Option<&'static str> {
        self.settings.platform_bot.as_ref().map(|_| "Telegram")
    }

    /// Keeps a notice for the account and queues it for every linked chat.
    pub(crate) async fn notify(&self, tx: &mut dyn Tx, account_id: &str, kind: NoticeKind) -> AppResult<()> {
        let now = self.clock.now();
        let notice =
            NoticeRecord { id: self.ids.new_id("ntc"), account_id: account_id.to_owned(), kind, created_at: now };
        tx.insert_notice(&notice).await?;
        tracing::info!(target: "partner_notice", account_id, notice_id = %notice.id, kind = ?notice.kind, "partner notice");
        if self.messenger().is_some() {
            let sends: Vec<NoticeSend> = tx
                .partner_chats(account_id)
                .await?
                .into_iter()
                .map(|chat| NoticeSend {
                    notice_id: notice.id.clone(),
                    chat_id: chat.chat_id,
                    attempts: 0,
                    next_attempt_at: Some(now),
                    sent_at: None,
                    last_error: None,
                })
                .collect();
            tx.insert_notice_sends(&sends).await?;
        }
        Ok(())
    }

    pub async fn notices(
        &self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> AppResult<Vec<NoticeRecord>> {
        let mut tx = self.store.read().await?;
        let list = tx.notices(account_id, before, limit).await?;
        tx.commit().await?;
        Ok(list)
    }

    pub async fn partner_chats(&self, account_id: &str) -> AppResult<Vec<PartnerChat>> {
        let mut tx = self.store.read().await?;
        let chats = tx.partner_chats(account_id).await?;
        tx.commit().await?;
        Ok(chats)
    }

    /// A one-time deep link that links the chat it is opened in to the actor's account;
    /// `None` when no messenger is configured.
    pub async fn chat_link(&self, actor: &Actor, lang: Lang) -> AppResult<Option<ChatLink>> {
        let Some(bot) = &self.settings.platform_bot else { return Ok(None) };
        // The messenger's start parameter allows at most 64 of [A-Za-z0-9_-]: 32 bytes in
        // URL-safe base64 is 43.
        let code = self.random_token();
        let username = match self.bots.identify(bot.token()).await {
            Ok(me) => me.username,
            Err(e) => return Err(AppError::External(format!("cannot make a chat link: {e}"))),
        };
        let url = format!("https://t.me/{username}?start={code}");
        let expires_at = self.clock.now() + CHAT_CODE_VALID_FOR;
        let mut tx = self.store.begin().await?;
        tx.insert_chat_link_code(&ChatLinkCode {
            code_hash: crate::keys::hash(&code),
            account_id: actor.account_id().to_owned(),
            user_id: actor.user.id.clone(),
            linked_by: actor.user.email.clone(),
            lang: lang.code().to_owned(),
            expires_at,
        })
        .await?;
        tx.commit().await?;
        Ok(Some(ChatLink { url, expires_at }))
    }

    pub async fn unlink_chat(&self, actor: &Actor, chat_id: i64) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        if !tx.delete_partner_chat(actor.account_id(), chat_id).await? {
            return Err(AppError::NotFound("chat"));
        }
        self.audit(tx.as_mut(), actor.account_id(), actor.into(), audit::CHAT_UNLINKED, chat_id.to_string()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The notice bot's answer to `/start <code>`: links the chat when the code is good, in
    /// the unit of work `tx` the update is handled in.
    pub(crate) async fn link_partner_chat(&self, tx: &mut dyn Tx, chat_id: i64, code: &str) -> AppResult<String> {
        Ok(match self.link_chat(tx, chat_id, code).await? {
            Some((brand, lang)) => text_with(lang, "notice-chat-linked", &[("brand", (&brand).into())]),
            // Whose link it was is unknown, so its language too: both, English first.
            None => Lang::ALL.map(|lang| text(lang, "notice-chat-link-expired")).join(" / "),
        })
    }

    /// Links a chat with a good code: the account's brand and the linker's language.
    async fn link_chat(&self, tx: &mut dyn Tx, chat_id: i64, code: &str) -> AppResult<Option<(String, Lang)>> {
        let now = self.clock.now();
        let Some(code) = tx.take_chat_link_code(&crate::keys::hash(code)).await?.filter(|c| c.expires_at > now) else {
            return Ok(None);
        };
        let Some(account) = tx.account(&code.account_id).await? else { return Ok(None) };
        let chat = PartnerChat {
            account_id: code.account_id.clone(),
            chat_id,
            linked_by: code.linked_by.clone(),
            lang: code.lang.clone(),
            linked_at: now,
        };
        match tx.insert_partner_chat(&chat).await {
            // Linked before: the code still did its job.
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(e.into()),
        }
        let who = Who::User { id: &code.user_id, email: &code.linked_by };
        self.audit(tx, &code.account_id, who, audit::CHAT_LINKED, chat_id.to_string()).await?;
        Ok(Some((account.brand_name.as_str().to_owned(), Lang::from_code(&code.lang).unwrap_or_default())))
    }

    /// The notice worker's round: sends what is due, each claimed first so two workers never
    /// send the same one. Returns how many were sent.
    pub async fn deliver_notices_once(&self, limit: u32) -> AppResult<usize> {
        let Some(bot) = &self.settings.platform_bot else { return Ok(0) };
        let now = self.clock.now();
        let mut tx = self.store.read().await?;
        let due = tx.notice_sends_due(now, limit).await?;
        tx.commit().await?;
        let mut sent = 0;
        for send in due {
            let mut tx = self.store.begin().await?;
            let claimed = tx.claim_notice_send(&send, now + SEND_LEASE).await?;
            let notice = tx.notice(&send.notice_id).await?;
            let (chat, brand) = match &notice {
                Some(n) => (
                    tx.partner_chats(&n.account_id).await?.into_iter().find(|c| c.chat_id == send.chat_id),
                    tx.account(&n.account_id).await?.map(|a| a.brand_name.as_str().to_owned()),
                ),
                None => (None, None),
            };
            tx.commit().await?;
            if !claimed {
                continue;
            }
            let mut send = send;
            send.attempts += 1;
            let outcome = match (notice, chat, brand) {
                (Some(notice), Some(chat), Some(brand)) => {
                    let lang = Lang::from_code(&chat.lang).unwrap_or_default();
                    let message = BotMessage::text(chat.chat_id, notice_text(&notice.kind, &brand, lang));
                    self.bots.send_message(bot.token(), &message).await
                }
                // Unlinked since: nobody is there to tell.
                _ => Err(BotApiError::ChatGone("the chat is no longer linked".into())),
            };
            let now = self.clock.now();
            match outcome {
                Ok(()) => {
                    send.sent_at = Some(now);
                    send.next_attempt_at = None;
                    send.last_error = None;
                    sent += 1;
                }
                Err(e @ (BotApiError::Unavailable(_) | BotApiError::Throttled(_) | BotApiError::Rejected))
                    if send.attempts < SEND_ATTEMPTS =>
                {
                    if e == BotApiError::Rejected {
                        tracing::error!("Telegram refused the notice bot's token; check VP_TELEGRAM_BOT_TOKEN");
                    }
                    let asked = match &e {
                        BotApiError::Throttled(wait) => Duration::try_from(*wait).unwrap_or(Duration::ZERO),
                        _ => Duration::ZERO,
                    };
                    send.next_attempt_at = Some(now + send_retry_delay(send.attempts).max(asked));
                    send.last_error = Some(e.to_string());
                }
                Err(e) => {
                    tracing::warn!(notice_id = %send.notice_id, chat_id = send.chat_id, error = %e, "notice not sent; giving up");
                    send.next_attempt_at = None;
                    send.last_error = Some(e.to_string());
                }
            }
            let mut tx = self.store.begin().await?;
            tx.update_notice_send(&send).await?;
            tx.commit().await?;
        }
        Ok(sent)
    }
}
