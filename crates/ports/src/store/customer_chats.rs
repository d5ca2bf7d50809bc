//! Customers' chats with their partner's bot: the codes of "Get reminders in Telegram" links,
//! which chat each client linked, and the language each chat reads.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::{ClientRef, Lang};

use super::StoreResult;
use crate::bots::{ClientChat, ClientLinkCode};

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
    async fn client_chats(&mut self, client_refs: &[ClientRef]) -> StoreResult<Vec<ClientChat>>;
    /// The clients of the account linked to the chat, oldest link first.
    async fn chat_clients(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Vec<ClientChat>>;
    /// Unlinks every client of the account from the chat; returns how many.
    async fn unlink_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<u64>;
    /// The language the chat reads, once the bot has kept one for it.
    async fn chat_language(&mut self, account_id: &str, chat_id: i64) -> StoreResult<Option<Lang>>;
    async fn set_chat_language(&mut self, account_id: &str, chat_id: i64, lang: Lang) -> StoreResult<()>;
}
