//! Partners' own bots (one per account).

use async_trait::async_trait;

use super::StoreResult;
use crate::bots::PartnerBotRecord;

#[async_trait]
pub trait BotRepo: Send {
    /// Fails with `Conflict` when the bot or its token is connected to another account.
    async fn insert_partner_bot(&mut self, bot: &PartnerBotRecord) -> StoreResult<()>;
    async fn update_partner_bot(&mut self, bot: &PartnerBotRecord) -> StoreResult<()>;
    async fn partner_bot(&mut self, account_id: &str) -> StoreResult<Option<PartnerBotRecord>>;
    /// The bot connected with this token, or the same bot (`bot_id`) under another token.
    async fn partner_bot_by_token(&mut self, token_hash: &str, bot_id: i64) -> StoreResult<Option<PartnerBotRecord>>;
    /// Returns whether the account had a bot.
    async fn delete_partner_bot(&mut self, account_id: &str) -> StoreResult<bool>;
    /// Every bot, by account (for the secrets key's checks and its rotation).
    async fn partner_bots(&mut self) -> StoreResult<Vec<PartnerBotRecord>>;
}
