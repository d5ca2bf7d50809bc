//! The people who use a partner's bot: when each started and was last seen, the bot's numbers,
//! and the device list each chat was last shown.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::StoreResult;
use crate::bots::{BotCustomer, BotDeviceList, BotStats, PersonSubscription};

#[async_trait]
pub trait BotCustomerRepo: Send {
    /// Records that the person wrote to or pressed in the partner's bot at `at`: the first time
    /// as their start. Returns whether it was the first time.
    async fn touch_bot_customer(
        &mut self,
        account_id: &str,
        user_id: i64,
        chat_id: i64,
        at: OffsetDateTime,
    ) -> StoreResult<bool>;
    async fn bot_customers(&mut self, account_id: &str, user_ids: &[i64]) -> StoreResult<Vec<BotCustomer>>;
    /// The person's chat refused the bot's messages at `at` (blocked it, or is gone): left out
    /// of broadcasts until the person writes to the bot again (`touch_bot_customer` clears it).
    async fn mark_chat_refused(&mut self, account_id: &str, chat_id: i64, at: OffsetDateTime) -> StoreResult<()>;
    /// Keeps the address the person gave for their receipts (replacing one given before).
    async fn set_bot_customer_email(&mut self, account_id: &str, user_id: i64, email: &str) -> StoreResult<()>;
    /// Keeps the promo code the person gave for their next purchase, and when the bot asked
    /// them for one (`None`, `None`: neither).
    async fn set_bot_customer_promo(
        &mut self,
        account_id: &str,
        user_id: i64,
        code: Option<&str>,
        asked_at: Option<OffsetDateTime>,
    ) -> StoreResult<()>;
    /// Links the person to the client the shop serves them as, unless they are linked already
    /// (the first link stays). Fails with `Conflict` when another person has that client.
    async fn link_bot_customer(&mut self, account_id: &str, user_id: i64, client_ref: &str) -> StoreResult<()>;
    /// The bot customer the client is, if it is one.
    async fn bot_customer_of_client(&mut self, client_ref: &str) -> StoreResult<Option<BotCustomer>>;
    /// Of these clients of the account (by the partner's `client_id`), those that are bot
    /// customers (a person's first subscription or a named further one), in no particular order.
    async fn bot_customers_among(&mut self, account_id: &str, client_ids: &[String]) -> StoreResult<Vec<String>>;
    /// Starts, links and purchases of the account's bot from `since` on.
    async fn bot_stats(&mut self, account_id: &str, since: OffsetDateTime) -> StoreResult<BotStats>;
    /// The person's further subscriptions, by position (named or still to be named).
    async fn person_subscriptions(&mut self, account_id: &str, user_id: i64) -> StoreResult<Vec<PersonSubscription>>;
    /// Records a further subscription, or its new name and ask time at the same position.
    async fn put_person_subscription(&mut self, subscription: &PersonSubscription) -> StoreResult<()>;
    /// The further subscription whose client has this `client_id`, if it is one.
    async fn person_subscription_of_client(
        &mut self,
        account_id: &str,
        client_id: &str,
    ) -> StoreResult<Option<PersonSubscription>>;
    /// Keeps the list as the chat's current one (replacing the one before).
    async fn save_device_list(&mut self, list: &BotDeviceList) -> StoreResult<()>;
    async fn device_list(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<BotDeviceList>>;
}
