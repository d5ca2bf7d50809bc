//! Customers' chats with their partner's bot: the codes of "Get reminders in Telegram" links,
//! which chat each client linked, and the language each chat reads.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::StoreResult;
use crate::bots::{BotCustomer, BotDeviceList, BotStats, ClientChat, ClientLinkCode};

#[async_trait]
pub trait CustomerChatRepo: Send {
    async fn insert_client_link_code(&mut self, code: &ClientLinkCode) -> StoreResult<()>;
    /// The code with this hash, removed so it works once.
    async fn take_client_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ClientLinkCode>>;
    /// Forgets codes that expired before `before`; returns how many.
    async fn prune_client_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64>;
    /// Links the client to the chat, replacing the chat it had (a client has one).
    async fn link_client_chat(&mut self, chat: &ClientChat) -> StoreResult<()>;
    async fn client_chat(&mut self, client_ref: &str) -> StoreResult<Option<ClientChat>>;
    /// The chats of those of these clients that have one, in no particular order.
    async fn client_chats(&mut self, client_refs: &[String]) -> StoreResult<Vec<ClientChat>>;
    /// The clients of the account linked to the chat, oldest link first.
    async fn chat_clients(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Vec<ClientChat>>;
    /// Unlinks every client of the account from the chat; returns how many.
    async fn unlink_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<u64>;
    async fn chat_language(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<String>>;
    async fn set_chat_language(&mut self, account_id: &str, chat_id: i64, lang: &str) -> StoreResult<()>;
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
    /// Starts, links and purchases of the account's bot from `since` on.
    async fn bot_stats(&mut self, account_id: &str, since: OffsetDateTime) -> StoreResult<BotStats>;
    /// Keeps the list as the chat's current one (replacing the one before).
    async fn save_device_list(&mut self, list: &BotDeviceList) -> StoreResult<()>;
    async fn device_list(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<BotDeviceList>>;
}
