//! The broadcast worker: one process at a time (a lease) takes a turn of chats of each broadcast
//! being sent and sends them through the bots' one sender, at the bot's pace shared with its
//! answers. A chat is marked sent in the unit of work that takes it, before Telegram is asked
//! (Telegram cannot tell a repeated message): a process killed during the call leaves it sent,
//! so no chat gets a broadcast twice; a failure puts it back or settles it.

use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use vp_domain::broadcast::{BroadcastButton, BroadcastState, BroadcastText, RecipientState};
use vp_ports::{BotMessage, BroadcastChat, BroadcastRecord, Button, Claim, Lease};

use super::Broadcasts;
use crate::bots::sender::{BotFailure, NextTry, Pace, next_try};
use crate::bots::{connected_bot, partner_bot};
use crate::error::AppResult;

/// How long the holder of the broadcast lease keeps it without renewing: longer than a turn.
const BROADCAST_LEASE_FOR: Duration = Duration::seconds(30);
/// Chats of one broadcast taken per turn: about a second at Telegram's pace, so a pause or a
/// cancel takes effect within one message and other broadcasts get their turns.
const CHATS_PER_TURN: u32 = 30;
/// A taken chat is not taken again for this long (its holder may still send it).
const CHAT_LEASE: Duration = Duration::seconds(20);
/// Broadcasts served per turn.
const BROADCASTS_PER_TURN: u32 = 20;

/// What a turn of the worker did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BroadcastTurn {
    /// Broadcasts being sent at the turn's start: none, and the worker may wait longer.
    pub broadcasts: usize,
    /// Messages that went.
    pub sent: usize,
}

impl Broadcasts {
    /// One turn of the broadcast worker, by the lease's holder only: a turn of chats of each
    /// broadcast being sent, every bot's at once. `None` when another process holds the lease.
    pub async fn deliver_once(self: &Arc<Self>, holder: &str) -> AppResult<Option<BroadcastTurn>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if !tx.take_lease(Lease::Broadcasts, holder, now, now + BROADCAST_LEASE_FOR).await? {
            tx.commit().await?;
            return Ok(None);
        }
        let sending = tx.sending_broadcasts(BROADCASTS_PER_TURN).await?;
        let broadcasts = sending.len();
        let mut turns = Vec::with_capacity(sending.len());
        for broadcast in sending {
            let claim = Claim { now, lease_until: now + CHAT_LEASE, limit: CHATS_PER_TURN };
            let chats = tx.claim_broadcast_chats(&broadcast.id, claim).await?;
            turns.push((broadcast, chats));
        }
        tx.commit().await?;
        let mut bots = tokio::task::JoinSet::new();
        for (broadcast, chats) in turns {
            let worker = self.clone();
            bots.spawn(async move { worker.send_turn(&broadcast, chats).await });
        }
        let mut sent = 0;
        while let Some(done) = bots.join_next().await {
            match done {
                Ok(Ok(n)) => sent += n,
                Ok(Err(e)) => tracing::warn!(error = %e, "a broadcast's turn failed; its chats are taken again"),
                Err(e) => tracing::error!(error = %e, "a broadcast's turn stopped"),
            }
        }
        Ok(Some(BroadcastTurn { broadcasts, sent }))
    }

    /// Gives up the broadcast lease (a clean stop).
    pub async fn release_broadcast_lease(&self, holder: &str) -> AppResult<()> {
        crate::setting::release_lease(self.store.as_ref(), Lease::Broadcasts, holder).await
    }

    /// Sends a turn of one broadcast's chats in order; a broadcast with none left is done.
    async fn send_turn(&self, broadcast: &BroadcastRecord, chats: Vec<BroadcastChat>) -> AppResult<usize> {
        if chats.is_empty() {
            return self.finish_if_done(broadcast).await.map(|()| 0);
        }
        let bot = read!(self.store, |tx| connected_bot(tx.as_mut(), &broadcast.account_id));
        let Some(bot) = bot else {
            // The bot was disconnected: the broadcast waits, paused, for the partner.
            tracing::info!(broadcast = %broadcast.id, "the account has no connected bot; the broadcast is paused");
            let mut tx = self.store.begin().await?;
            tx.set_broadcast_state(&broadcast.id, BroadcastState::Paused, None).await?;
            for mut chat in chats {
                chat.next_attempt_at = Some(self.clock.now());
                tx.update_broadcast_chat(&chat).await?;
            }
            tx.commit().await?;
            return Ok(0);
        };
        let bot = partner_bot(&self.keys, bot)?;
        let mut sent = 0;
        let mut waiting_until: Option<OffsetDateTime> = None;
        let mut chats = chats.into_iter();
        while let Some(mut chat) = chats.next() {
            let now = self.clock.now();
            // Telegram asked this bot to wait, or the partner paused or cancelled: the rest of
            // the turn goes back as it was.
            let mut tx = self.store.begin().await?;
            let still_sending = tx.broadcast(&broadcast.id).await?.is_some_and(|b| b.state == BroadcastState::Sending);
            if waiting_until.is_some() || !still_sending {
                let back = waiting_until.unwrap_or(now);
                for mut rest in std::iter::once(chat).chain(chats.by_ref()) {
                    rest.next_attempt_at = Some(back);
                    tx.update_broadcast_chat(&rest).await?;
                }
                tx.commit().await?;
                break;
            }
            chat.state = RecipientState::Sent;
            chat.attempts += 1;
            chat.sent_at = Some(now);
            chat.next_attempt_at = None;
            chat.last_error = None;
            tx.update_broadcast_chat(&chat).await?;
            tx.commit().await?;
            let b = broadcast;
            let message = message(&b.text, b.text_ru.as_ref(), b.button.as_ref(), chat.chat_id, chat.lang);
            let Err(failure) = self.sender.send(&bot, &message, Pace::Outbox { chat_id: chat.chat_id }).await else {
                sent += 1;
                continue;
            };
            let next = next_try(&failure, &bot.kind, chat.attempts, self.clock.now());
            chat.sent_at = None;
            chat.last_error = Some(failure.to_string());
            let mut tx = self.store.begin().await?;
            match (&failure, next) {
                (BotFailure::ChatGone(reason), _) => {
                    chat.state = RecipientState::Blocked;
                    tx.unlink_chat(&broadcast.account_id, chat.chat_id).await?;
                    tx.mark_chat_refused(&broadcast.account_id, chat.chat_id, self.clock.now()).await?;
                    tracing::info!(chat_id = chat.chat_id, %reason, "a customer's chat refuses the bot; unlinked");
                }
                (_, NextTry::Later(at)) => {
                    chat.state = RecipientState::Left;
                    chat.next_attempt_at = Some(at);
                    if matches!(failure, BotFailure::RetryAfter(_)) {
                        waiting_until = Some(at);
                    }
                }
                (_, NextTry::GiveUp(reason)) => {
                    chat.state = RecipientState::Failed;
                    chat.last_error = Some(reason);
                }
            }
            tx.update_broadcast_chat(&chat).await?;
            tx.commit().await?;
        }
        Ok(sent)
    }

    /// Marks the broadcast done once no chat is left.
    async fn finish_if_done(&self, broadcast: &BroadcastRecord) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        let counts = tx.broadcast_counts(&broadcast.id).await?;
        let sending = tx.broadcast(&broadcast.id).await?.is_some_and(|b| b.state == BroadcastState::Sending);
        if counts.left == 0 && sending {
            tx.set_broadcast_state(&broadcast.id, BroadcastState::Done, Some(self.clock.now())).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// The broadcast as a chat reading `lang` gets it: the Russian text in a Russian chat when
/// there is one, else the first text; and the button.
pub(super) fn message(
    text: &BroadcastText,
    text_ru: Option<&BroadcastText>,
    button: Option<&BroadcastButton>,
    chat_id: i64,
    lang: vp_domain::Lang,
) -> BotMessage {
    let text = match (lang, text_ru) {
        (vp_domain::Lang::Ru, Some(ru)) => ru,
        _ => text,
    };
    let buttons = button.iter().map(|b| Button::link(b.text.clone(), b.url.clone())).collect();
    BotMessage::text(chat_id, text.as_str()).with_buttons(buttons)
}
