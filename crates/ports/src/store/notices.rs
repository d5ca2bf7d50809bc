//! Notices to partners, their sends, and the chats that receive them.

use crate::Cursor;
use async_trait::async_trait;
use time::OffsetDateTime;

use crate::notice::*;

use super::StoreResult;

#[async_trait]
pub trait NoticeRepo: Send {
    async fn insert_notice(&mut self, notice: &NoticeRecord) -> StoreResult<()>;
    /// An account's notices, newest first, strictly before the cursor `(created_at, id)`.
    async fn notices(&mut self, account_id: &str, before: Option<Cursor>, limit: u32)
    -> StoreResult<Vec<NoticeRecord>>;
    async fn insert_notice_sends(&mut self, sends: &[NoticeSend]) -> StoreResult<()>;
    /// Sends due at `now`, oldest first.
    async fn notice_sends_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<NoticeSend>>;
    /// Moves a send's next attempt to `until`, but only if it is still the time `send` was read
    /// with (no other worker took it meanwhile); returns whether this caller has it.
    async fn claim_notice_send(&mut self, send: &NoticeSend, until: OffsetDateTime) -> StoreResult<bool>;
    async fn update_notice_send(&mut self, send: &NoticeSend) -> StoreResult<()>;
    async fn notice(&mut self, id: &str) -> StoreResult<Option<NoticeRecord>>;
    /// Fails with `Conflict` when the chat is already linked to the account.
    async fn insert_partner_chat(&mut self, chat: &PartnerChat) -> StoreResult<()>;
    async fn partner_chats(&mut self, account_id: &str) -> StoreResult<Vec<PartnerChat>>;
    /// Returns whether there was such a link.
    async fn delete_partner_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<bool>;
    async fn insert_chat_link_code(&mut self, code: &ChatLinkCode) -> StoreResult<()>;
    /// Removes and returns the code (it works once).
    async fn take_chat_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ChatLinkCode>>;
    /// Forgets codes that expired before `before`.
    async fn prune_chat_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64>;
}
