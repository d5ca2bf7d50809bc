//! Broadcasts (docs/decisions.md, "Broadcasts"): a partner's message to an audience of their
//! bot's customers, each in their language. Sending it records every chat of the audience in
//! one unit of work; the broadcast worker (`sending`) then takes the chats in turns at the bot's
//! one pace, shared with its answers, so no chat gets it twice across restarts and instances.

mod preview;
mod sending;

use std::collections::HashSet;
use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::broadcast::{Audience, BroadcastAction, BroadcastButton, BroadcastState, BroadcastText, RecipientState};
use vp_domain::{AccountId, BroadcastId};
use vp_ports::{
    BotAudienceMember, BroadcastChat, BroadcastCounts, BroadcastRecord, BroadcastRepo, Clock, IdGenerator, Store,
};

use crate::actor::Acting;
use crate::audit::{Audit, AuditAction};
use crate::bots::connected_bot;
use crate::bots::sender::BotSender;
use crate::error::{AppError, AppResult, Declined};
use crate::secrets::SecretKeys;

pub use preview::BroadcastPreview;
pub use sending::BroadcastTurn;

/// A broadcast as the partner asks for it: raw text, read here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBroadcast {
    pub text: String,
    pub text_ru: Option<String>,
    pub button_text: Option<String>,
    pub button_url: Option<String>,
    pub audience: Audience,
}

/// A broadcast's content once read: every text and the button pass the bot's own checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastContent {
    pub text: BroadcastText,
    pub text_ru: Option<BroadcastText>,
    pub button: Option<BroadcastButton>,
}

impl NewBroadcast {
    fn read(&self) -> AppResult<BroadcastContent> {
        let text = BroadcastText::parse(&self.text).map_err(Declined::from)?;
        let text_ru = self.text_ru.as_deref().map(BroadcastText::parse).transpose().map_err(Declined::from)?;
        let button =
            BroadcastButton::parse(self.button_text.as_deref(), self.button_url.as_deref()).map_err(Declined::from)?;
        Ok(BroadcastContent { text, text_ru, button })
    }
}

/// Everyone of `audience` among the account's bot customers at `now`, each chat once; a client
/// the partner blocked is left out.
async fn audience_of(
    tx: &mut (impl BroadcastRepo + ?Sized),
    account_id: &AccountId,
    audience: Audience,
    now: OffsetDateTime,
) -> AppResult<Vec<BotAudienceMember>> {
    let mut seen = HashSet::new();
    Ok(tx
        .bot_audience(account_id)
        .await?
        .into_iter()
        .filter(|m| m.client.as_ref().is_none_or(|c| !c.blocked))
        .filter(|m| {
            let subscription = m.client.as_ref().and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
            audience.includes(subscription, m.paid_ever, now)
        })
        .filter(|m| seen.insert(m.chat_id))
        .collect())
}

/// A broadcast and what became of its chats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastSummary {
    pub broadcast: BroadcastRecord,
    pub counts: BroadcastCounts,
}

pub struct Broadcasts {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) sender: Arc<BotSender>,
    pub(crate) audit: Audit,
}

impl Broadcasts {
    /// Records a broadcast to everyone of `audience` at this moment (each chat once), to be sent
    /// by the worker; in the account's activity as `by`'s.
    pub async fn send(&self, by: Acting<'_>, new: NewBroadcast) -> AppResult<BroadcastSummary> {
        let account_id = by.account_id();
        let BroadcastContent { text, text_ru, button } = new.read()?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        if connected_bot(tx.as_mut(), account_id).await?.is_none() {
            return Err(Declined::BroadcastNoBot.into());
        }
        let broadcast = BroadcastRecord {
            id: self.ids.new_id("bcs"),
            account_id: account_id.clone(),
            text,
            text_ru,
            button,
            audience: new.audience,
            state: BroadcastState::Sending,
            created_at: now,
            finished_at: None,
        };
        let chats: Vec<BroadcastChat> = audience_of(tx.as_mut(), account_id, new.audience, now)
            .await?
            .into_iter()
            .map(|m| BroadcastChat {
                broadcast_id: broadcast.id.clone(),
                chat_id: m.chat_id,
                lang: m.lang.unwrap_or_default(),
                state: RecipientState::Left,
                attempts: 0,
                next_attempt_at: Some(now),
                sent_at: None,
                last_error: None,
            })
            .collect();
        tx.insert_broadcast(&broadcast, &chats).await?;
        if chats.is_empty() {
            tx.set_broadcast_state(&broadcast.id, BroadcastState::Done, Some(now)).await?;
        }
        let detail = format!("{} ({}, {} chats)", broadcast.id, new.audience, chats.len());
        self.audit.record(tx.as_mut(), account_id, by.into(), AuditAction::BroadcastSent, detail).await?;
        tx.commit().await?;
        self.show(&BroadcastId::issued(broadcast.id), Some(account_id)).await
    }

    /// A broadcast with its counts; `NotFound` for another account's than `of_account` (the
    /// operator sees any).
    pub async fn show(&self, id: &BroadcastId, of_account: Option<&AccountId>) -> AppResult<BroadcastSummary> {
        let mut tx = self.store.read().await?;
        let broadcast = tx.broadcast(id).await?.filter(|b| of_account.is_none_or(|a| b.account_id == a));
        let broadcast = broadcast.ok_or(AppError::NotFound("broadcast"))?;
        let counts = tx.broadcast_counts(id).await?;
        tx.commit().await?;
        Ok(BroadcastSummary { broadcast, counts })
    }

    /// The account's broadcasts, newest first, with their counts.
    pub async fn list(&self, of: Acting<'_>, limit: u32) -> AppResult<Vec<BroadcastSummary>> {
        let mut tx = self.store.read().await?;
        let mut out = Vec::new();
        for broadcast in tx.broadcasts(of.account_id(), limit).await? {
            let counts = tx.broadcast_counts(&broadcast.id).await?;
            out.push(BroadcastSummary { broadcast, counts });
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Pauses, resumes or cancels one of the account's broadcasts: the worker sees it before its
    /// next chat.
    pub async fn act(&self, by: Acting<'_>, id: &BroadcastId, action: BroadcastAction) -> AppResult<BroadcastSummary> {
        let mut tx = self.store.begin().await?;
        let broadcast = tx.broadcast(id).await?.filter(|b| b.account_id == by.account_id());
        let broadcast = broadcast.ok_or(AppError::NotFound("broadcast"))?;
        let next = broadcast.state.after(action).map_err(Declined::from)?;
        let finished = match next {
            BroadcastState::Cancelled => Some(broadcast.finished_at.unwrap_or_else(|| self.clock.now())),
            _ => None,
        };
        tx.set_broadcast_state(id, next, finished).await?;
        let what = match action {
            BroadcastAction::Pause => AuditAction::BroadcastPaused,
            BroadcastAction::Resume => AuditAction::BroadcastResumed,
            BroadcastAction::Cancel => AuditAction::BroadcastCancelled,
        };
        self.audit.record(tx.as_mut(), &broadcast.account_id, by.into(), what, id.to_string()).await?;
        tx.commit().await?;
        self.show(id, Some(by.account_id())).await
    }
}
