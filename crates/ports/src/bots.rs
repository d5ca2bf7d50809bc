//! A partner's own messenger bot, run by the platform under the partner's brand: how it is
//! kept, and the messenger's side of it (`BotApi`).

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;

/// A connected bot. Its token is never kept as given: `token_sealed` is the token sealed under
/// the secrets key, `token_hash` its SHA-256 (to find a token another account connected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnerBotRecord {
    pub account_id: String,
    /// The bot's Telegram user id (the number before `:` in its token).
    pub bot_id: i64,
    pub username: String,
    pub token_hash: String,
    pub token_sealed: String,
    pub connected_at: OffsetDateTime,
    /// When Telegram stopped accepting the token (revoked in BotFather); `None` while it works.
    pub disconnected_at: Option<OffsetDateTime>,
}

/// Who a token belongs to, as the messenger says (`getMe`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotIdentity {
    pub bot_id: i64,
    pub username: String,
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum BotApiError {
    /// The messenger does not accept the token (wrong, or revoked in BotFather).
    #[error("the messenger does not accept the bot token")]
    Rejected,
    /// The messenger did not answer or failed; trying again later may work.
    #[error("the messenger is unavailable: {0}")]
    Unavailable(String),
}

/// The messenger's API for partners' bots: every call names the bot by its token.
#[async_trait]
pub trait BotApi: Send + Sync {
    /// The bot a token belongs to.
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError>;
}
