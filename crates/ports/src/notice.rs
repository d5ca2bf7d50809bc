//! Platform notices to partners. Every notice is kept for the cabinet; a messenger (the
//! Telegram Bot API) also carries it to the chats a partner linked. The app queues messenger
//! sends and retries them, so a slow or failing messenger never holds up what caused a notice.

use std::time::Duration;

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::Money;

/// A partner opened the bot's deep link: the chat it came from and the one-time code it carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatStart {
    /// The messenger's update number; the next poll asks for updates after it.
    pub update_id: i64,
    pub chat_id: i64,
    pub code: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessengerError {
    /// Worth trying again later: no answer, a 5xx, or a 429 (with the wait it asked for).
    #[error("messenger unavailable: {reason}")]
    Unavailable { reason: String, retry_after: Option<Duration> },
    /// Will not succeed for this chat however often it is tried (the bot was blocked, the chat
    /// is gone).
    #[error("messenger refused: {0}")]
    Refused(String),
}

/// Where notices leave the service besides the cabinet.
#[async_trait]
pub trait PartnerNotifier: Send + Sync {
    /// The messenger's name for pages ("Telegram"); `None` when notices stay in the cabinet.
    fn channel(&self) -> Option<&'static str>;
    /// The link that connects a chat, carrying a one-time code (`https://t.me/<bot>?start=<code>`).
    async fn chat_link(&self, code: &str) -> Result<String, MessengerError>;
    /// Sends one plain-text message to a linked chat.
    async fn send(&self, chat_id: i64, text: &str) -> Result<(), MessengerError>;
    /// The start commands received after `offset`, waiting up to `wait` for the first one
    /// (long polling). Other updates are skipped; the caller passes the greatest `update_id`
    /// it has seen plus one next time, which also confirms everything before it.
    async fn chat_starts(&self, offset: i64, wait: Duration) -> Result<ChatStartBatch, MessengerError>;
}

/// What one poll returned: the start commands and the offset for the next poll (past every
/// update seen, start command or not).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChatStartBatch {
    pub starts: Vec<ChatStart>,
    pub next_offset: i64,
}

/// What a notice says, with what the cabinet and the messenger need to word it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeKind {
    /// The platform disabled a webhook address (`reason`: `gone` for a 410, `failing` after
    /// five days without an accepted attempt).
    EndpointDisabled { endpoint_id: String, url: String, reason: String },
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
    pub account_id: String,
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
    pub account_id: String,
    pub chat_id: i64,
    /// The cabinet user's email who linked it.
    pub linked_by: String,
    /// Their cabinet language (`en`, `ru`): messages to the chat are worded in it.
    pub lang: String,
    pub linked_at: OffsetDateTime,
}

/// A one-time code carried by a chat link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLinkCode {
    /// SHA-256 of the code, hex.
    pub code_hash: String,
    pub account_id: String,
    /// The cabinet user who asked for the link, their email and language.
    pub user_id: String,
    pub linked_by: String,
    pub lang: String,
    pub expires_at: OffsetDateTime,
}
