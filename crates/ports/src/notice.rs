//! Platform notices to partners. Every notice is kept for the cabinet; the platform's notice
//! bot (through `BotApi`) also carries it to the chats a partner linked. The app queues the
//! sends and retries them, so a slow or failing messenger never holds up what caused a notice.

use time::OffsetDateTime;
use vp_domain::{AccountId, EndpointId};
use vp_domain::{Lang, Money};

/// What a notice says, with what the cabinet and the messenger need to word it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeKind {
    /// The platform disabled a webhook address (`reason`: `gone` for a 410, `failing` after
    /// five days without an accepted attempt).
    EndpointDisabled { endpoint_id: EndpointId, url: String, reason: String },
    /// The operator paid out a withdrawal request.
    WithdrawalPaid { withdrawal_id: String, amount: Money },
    /// Telegram stopped accepting the token of the account's bot (revoked in BotFather): the
    /// bot is disconnected until a new token is connected.
    BotDisconnected { bot_id: i64, username: String },
}

/// A message from the platform to a partner, kept for the cabinet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeRecord {
    pub id: String,
    pub account_id: AccountId,
    pub kind: NoticeKind,
    pub created_at: OffsetDateTime,
}

/// A notice on its way to one linked chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeSend {
    pub notice_id: String,
    pub chat_id: i64,
    /// Attempts made so far.
    pub attempts: u32,
    /// When to try (again); `None` once sent or given up.
    pub next_attempt_at: Option<OffsetDateTime>,
    pub sent_at: Option<OffsetDateTime>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
}

/// A messenger chat a partner linked to an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnerChat {
    pub account_id: AccountId,
    pub chat_id: i64,
    /// The cabinet user's email who linked it.
    pub linked_by: String,
    /// Their cabinet language: messages to the chat are worded in it.
    pub lang: Lang,
    pub linked_at: OffsetDateTime,
}

/// A one-time code carried by a chat link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLinkCode {
    /// SHA-256 of the code, hex.
    pub code_hash: String,
    pub account_id: AccountId,
    /// The cabinet user who asked for the link, their email and language.
    pub user_id: String,
    pub linked_by: String,
    pub lang: Lang,
    pub expires_at: OffsetDateTime,
}
