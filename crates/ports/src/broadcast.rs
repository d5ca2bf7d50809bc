//! Broadcasts as stored (docs/decisions.md, "Broadcasts").

use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::Lang;
use vp_domain::broadcast::{Audience, BroadcastButton, BroadcastState, BroadcastText, RecipientState};

use crate::records::ClientRecord;

/// A partner's message to the customers of their bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastRecord {
    pub id: String,
    pub account_id: AccountId,
    /// The text for English chats, and for Russian ones without `text_ru`.
    pub text: BroadcastText,
    pub text_ru: Option<BroadcastText>,
    pub button: Option<BroadcastButton>,
    pub audience: Audience,
    pub state: BroadcastState,
    pub created_at: OffsetDateTime,
    /// When it was done or cancelled.
    pub finished_at: Option<OffsetDateTime>,
}

/// One chat of a broadcast and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastChat {
    pub broadcast_id: String,
    pub chat_id: i64,
    pub lang: Lang,
    pub state: RecipientState,
    pub attempts: u32,
    /// When a chat still left may be taken (a claim holds it until then; `None`: now).
    pub next_attempt_at: Option<OffsetDateTime>,
    pub sent_at: Option<OffsetDateTime>,
    pub last_error: Option<String>,
}

/// A broadcast's chats by what became of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BroadcastCounts {
    pub sent: u64,
    pub blocked: u64,
    pub failed: u64,
    pub left: u64,
}

/// A person of the account's bot as a broadcast's audience sees them: their chat, its
/// language, their client (if they have one) and whether it ever paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotAudienceMember {
    pub chat_id: i64,
    pub lang: Option<Lang>,
    pub client: Option<ClientRecord>,
    pub paid_ever: bool,
}
