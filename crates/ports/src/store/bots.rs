//! Partners' own bots (one per account).

use async_trait::async_trait;
use time::OffsetDateTime;

use super::StoreResult;
use crate::bots::{BotCreateCode, PartnerBotRecord, WebhookRegistration};

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
    /// Every bot, by account (for the secrets key's checks and its rotation, and the updates).
    async fn partner_bots(&mut self) -> StoreResult<Vec<PartnerBotRecord>>;
    /// The bot with this messenger id, connected or not.
    async fn partner_bot_by_id(&mut self, bot_id: i64) -> StoreResult<Option<PartnerBotRecord>>;
    /// Records what the messenger was told about the bot's updates (`PartnerBotRecord::webhook`).
    async fn set_partner_bot_webhook(
        &mut self,
        account_id: &str,
        webhook: Option<&WebhookRegistration>,
    ) -> StoreResult<()>;
    /// Records that update `update_id` of bot `bot_id` is being handled; `false` when it was
    /// before (a redelivery, or another instance got it too). Rolled back with its unit of work.
    async fn claim_bot_update(&mut self, bot_id: i64, update_id: i64, at: OffsetDateTime) -> StoreResult<bool>;
    /// Forgets updates received before `before`; returns how many.
    async fn prune_bot_updates(&mut self, before: OffsetDateTime) -> StoreResult<u64>;
    /// The account's bot must show a new profile (its brand or support address changed);
    /// returns whether the account has a bot.
    async fn bump_bot_profile(&mut self, account_id: &str) -> StoreResult<bool>;
    /// Connected bots whose profile is behind and whose retry is due at `now`, each held back
    /// until `lease_until` so no other worker takes it meanwhile.
    async fn claim_bot_profiles(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<PartnerBotRecord>>;
    /// The messenger shows the profile of `revision` (never lowers what is recorded).
    async fn mark_bot_profile_synced(&mut self, account_id: &str, revision: i64) -> StoreResult<()>;
    /// A sync failed: counted, the next held back until `retry_at`.
    async fn defer_bot_profile(&mut self, account_id: &str, retry_at: OffsetDateTime, error: &str) -> StoreResult<()>;
    async fn insert_bot_create_code(&mut self, code: &BotCreateCode) -> StoreResult<()>;
    /// The code with this hash, expired or not.
    async fn bot_create_code(&mut self, code_hash: &str) -> StoreResult<Option<BotCreateCode>>;
    /// Records that Telegram user `user_id` opened the code (kept when someone opened it
    /// before).
    async fn open_bot_create_code(&mut self, code_hash: &str, user_id: i64) -> StoreResult<()>;
    /// The newest code user `user_id` opened that is still good at `now`.
    async fn bot_create_code_opened_by(
        &mut self,
        user_id: i64,
        now: OffsetDateTime,
    ) -> StoreResult<Option<BotCreateCode>>;
    /// Returns whether the code was there.
    async fn delete_bot_create_code(&mut self, code_hash: &str) -> StoreResult<bool>;
    /// Forgets codes expired before `before`; returns how many.
    async fn prune_bot_create_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64>;
}
