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
    /// The bot's profile (name, descriptions, commands, menu) to show: raised by every change
    /// of the brand or the support address; in sync when `profile_synced` reached it.
    pub profile_revision: i64,
    pub profile_synced: i64,
    /// Failed syncs in a row, when the next may start, and the last failure.
    pub profile_attempts: u32,
    pub profile_retry_at: Option<OffsetDateTime>,
    pub profile_error: Option<String>,
}

impl PartnerBotRecord {
    /// Whether the messenger shows the bot's current profile.
    pub fn profile_in_sync(&self) -> bool {
        self.profile_synced >= self.profile_revision
    }
}

/// How a bot presents itself, in each language Telegram shows it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotProfile {
    /// The bot's name (the brand): at most 64 characters.
    pub name: String,
    /// The first is also the default for languages not listed.
    pub languages: Vec<BotProfileLanguage>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotProfileLanguage {
    /// An IETF language code as Telegram takes it (`en`, `ru`).
    pub code: &'static str,
    /// At most 120 characters.
    pub short_description: String,
    /// At most 512 characters.
    pub description: String,
    /// `(command, description)`: the command 1-32 of `a-z 0-9 _`, the description 1-256.
    pub commands: Vec<(String, String)>,
}

/// A bot token as BotFather issues it: the bot's numeric id, a colon, and a secret of 30 to 100
/// letters, digits, `_` and `-` (so nothing in it changes the URL path it travels in).
pub fn is_bot_token(token: &str) -> bool {
    let Some((id, secret)) = token.split_once(':') else { return false };
    (1..=20).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_digit())
        && (30..=100).contains(&secret.len())
        && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
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
    /// The messenger asks to wait this long before calling again.
    #[error("the messenger asks to wait {0:?}")]
    Throttled(std::time::Duration),
}

/// The messenger's API for partners' bots: every call names the bot by its token.
#[async_trait]
pub trait BotApi: Send + Sync {
    /// The bot a token belongs to.
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError>;
    /// Sets the bot's name, descriptions and commands in every language of `profile`, and its
    /// menu button to the command list. Calling it again with the same profile changes nothing.
    async fn set_profile(&self, token: &str, profile: &BotProfile) -> Result<(), BotApiError>;
}

#[cfg(test)]
mod tests {
    use super::is_bot_token;

    #[test]
    fn a_token_has_the_shape_botfather_gives() {
        assert!(is_bot_token("123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs"));
        assert!(!is_bot_token("123456789"), "no secret part");
        assert!(!is_bot_token("abc:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs"), "the id is a number");
        assert!(!is_bot_token("123:short"));
        assert!(!is_bot_token("123:AAEhBOweik6ad9r QXMENQjcrGbqCr4K-bs"), "no spaces");
        assert!(!is_bot_token("123:AAEhBOweik6ad9r/QXMENQjcrGbqCr4K-bs"), "nothing that changes a URL path");
    }
}
