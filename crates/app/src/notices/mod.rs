//! Notices from the platform to partners. Each is kept for the cabinet in the unit of work of
//! its cause; when the platform has a notice bot (`VP_TELEGRAM_BOT_TOKEN`), a send to each
//! linked chat is queued in the same unit of work (`Notifier`) and delivered by the notice
//! worker through the bots' one sender, with retries, so neither a slow messenger nor a lost
//! process holds up or loses one. Partners link chats with the notice bot's deep link; its
//! updates arrive as every bot's do (`bots::updates`).

use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use vp_domain::AccountId;
use vp_domain::Lang;
use vp_ports::{
    AccountRepo, CabinetRepo, ChatLinkCode, Clock, Cursor, NoticeRecord, NoticeRepo, PartnerChat, Store, StoreError,
};

pub(crate) use crate::notifier::Notifier;

use crate::actor::Actor;
use crate::audit::{Audit, AuditAction, Who};
use crate::bots::PlatformBot;
use crate::bots::sender::{ActiveBot, BotFailure, BotSender, NextTry, Pace, next_try};
use crate::bots::wording::BotWording;
use crate::error::{AppError, AppResult};
use crate::tokens::Tokens;

/// Notices a cabinet page shows.
pub const NOTICE_PAGE: u32 = 50;
/// A chat link's code works this long, once.
pub const CHAT_CODE_VALID_FOR: Duration = Duration::hours(1);
/// A claimed send is not picked up by another worker for this long.
const SEND_LEASE: Duration = Duration::minutes(2);

/// A chat link for the cabinet: the deep link, and until when its code works.
#[derive(Debug, Clone)]
pub struct ChatLink {
    pub url: String,
    pub expires_at: OffsetDateTime,
}

/// Notices to partners: kept for the cabinet, carried to linked chats by the notice bot.
pub struct Notices {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) tokens: Tokens,
    pub(crate) audit: Audit,
    pub(crate) sender: Arc<BotSender>,
    pub(crate) wording: Arc<dyn BotWording>,
    /// The platform's notice bot; without it notices stay in the cabinet.
    pub(crate) platform_bot: Option<PlatformBot>,
}

/// A chat the notice bot linked to a partner's account with a good code: the brand, and the
/// language of the person who asked for the link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLinked {
    pub brand: String,
    pub lang: Lang,
}

impl Notices {
    /// The messenger notices also go to ("Telegram"), or `None` when they stay in the cabinet.
    pub fn messenger(&self) -> Option<&'static str> {
        self.platform_bot.as_ref().map(|_| "Telegram")
    }

    fn notice_bot(&self) -> Option<ActiveBot> {
        self.platform_bot.as_ref().map(PlatformBot::active)
    }

    pub async fn notices(
        &self,
        account_id: &AccountId,
        before: Option<Cursor>,
        limit: u32,
    ) -> AppResult<Vec<NoticeRecord>> {
        Ok(read!(self.store, |tx| tx.notices(account_id, before, limit)))
    }

    pub async fn partner_chats(&self, account_id: &AccountId) -> AppResult<Vec<PartnerChat>> {
        Ok(read!(self.store, |tx| tx.partner_chats(account_id)))
    }

    /// A one-time deep link that links the chat it is opened in to the actor's account;
    /// `None` when no messenger is configured.
    pub async fn chat_link(&self, actor: &Actor, lang: Lang) -> AppResult<Option<ChatLink>> {
        let Some(bot) = self.notice_bot() else { return Ok(None) };
        let code = self.tokens.random();
        let username = match self.sender.identify(&bot).await {
            Ok(me) => me.username,
            Err(e) => return Err(AppError::External(format!("cannot make a chat link: {e}"))),
        };
        let url = format!("https://t.me/{username}?start={code}");
        let expires_at = self.clock.now() + CHAT_CODE_VALID_FOR;
        let mut tx = self.store.begin().await?;
        tx.insert_chat_link_code(&ChatLinkCode {
            code_hash: crate::keys::hash(&code),
            account_id: actor.account_id().to_owned(),
            user_id: actor.user.id.to_string(),
            linked_by: actor.user.email.clone(),
            lang,
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
        self.audit
            .record(tx.as_mut(), actor.account_id(), actor.into(), AuditAction::ChatUnlinked, chat_id.to_string())
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The notice bot's `/start <code>`: links the chat to the code's account when the code
    /// is good (`None` when it is not), in the unit of work `tx` the update is handled in.
    pub(crate) async fn link_partner_chat(
        &self,
        tx: &mut (impl NoticeRepo + AccountRepo + CabinetRepo + ?Sized),
        chat_id: i64,
        code: &str,
    ) -> AppResult<Option<ChatLinked>> {
        let now = self.clock.now();
        let Some(code) = tx.take_chat_link_code(&crate::keys::hash(code)).await?.filter(|c| c.expires_at > now) else {
            return Ok(None);
        };
        let Some(account) = tx.account(&code.account_id).await? else { return Ok(None) };
        let chat = PartnerChat {
            account_id: code.account_id.clone(),
            chat_id,
            linked_by: code.linked_by.clone(),
            lang: code.lang,
            linked_at: now,
        };
        match tx.insert_partner_chat(&chat).await {
            // Linked before: the code still did its job.
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(e.into()),
        }
        let who = Who::User { id: &code.user_id, email: &code.linked_by };
        self.audit.record(tx, &code.account_id, who, AuditAction::ChatLinked, chat_id.to_string()).await?;
        Ok(Some(ChatLinked { brand: account.brand_name.as_str().to_owned(), lang: code.lang }))
    }

    /// The notice worker's round: sends what is due, each claimed first so two workers never
    /// send the same one. Returns how many were sent.
    pub async fn deliver_notices_once(&self, limit: u32) -> AppResult<usize> {
        let Some(bot) = self.notice_bot() else { return Ok(0) };
        let now = self.clock.now();
        let due = read!(self.store, |tx| tx.notice_sends_due(now, limit));
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
                    let message = self.wording.notice(chat.chat_id, &notice.kind, &brand, chat.lang);
                    self.sender.send(&bot, &message, Pace::Outbox { chat_id: chat.chat_id }).await
                }
                // Unlinked since: nobody is there to tell.
                _ => Err(BotFailure::ChatGone("the chat is no longer linked".into())),
            };
            let now = self.clock.now();
            match outcome {
                Ok(()) => {
                    send.sent_at = Some(now);
                    send.next_attempt_at = None;
                    send.last_error = None;
                    sent += 1;
                }
                Err(failure) => match next_try(&failure, &bot.kind, send.attempts, now) {
                    NextTry::Later(at) => {
                        send.next_attempt_at = Some(at);
                        send.last_error = Some(failure.to_string());
                    }
                    NextTry::GiveUp(reason) => {
                        tracing::warn!(notice_id = %send.notice_id, chat_id = send.chat_id, %reason, "notice not sent; giving up");
                        send.next_attempt_at = None;
                        send.last_error = Some(reason);
                    }
                },
            }
            let mut tx = self.store.begin().await?;
            tx.update_notice_send(&send).await?;
            tx.commit().await?;
        }
        Ok(sent)
    }
}
