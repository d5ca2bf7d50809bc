//! The partner cabinet: users, invitation links, sessions, failed sign-ins and the audit log.

use crate::Cursor;
use async_trait::async_trait;
use time::OffsetDateTime;

use crate::cabinet::*;

use super::StoreResult;

#[async_trait]
pub trait CabinetRepo: Send {
    /// Fails with `Conflict` when the email is taken (by any account).
    async fn insert_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()>;
    async fn update_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()>;
    async fn cabinet_user(&mut self, id: &str) -> StoreResult<Option<CabinetUser>>;
    async fn cabinet_user_by_email(&mut self, email: &str) -> StoreResult<Option<CabinetUser>>;
    /// Users of an account, oldest first.
    async fn cabinet_users(&mut self, account_id: &str) -> StoreResult<Vec<CabinetUser>>;
    async fn insert_cabinet_link(&mut self, link: &CabinetLink) -> StoreResult<()>;
    async fn cabinet_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>>;
    /// Marks every unused link of the user used at `at`.
    async fn spend_cabinet_links(&mut self, user_id: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn insert_cabinet_session(&mut self, session: &CabinetSession) -> StoreResult<()>;
    async fn cabinet_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>>;
    async fn touch_cabinet_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn delete_cabinet_session(&mut self, token_hash: &str) -> StoreResult<()>;
    /// Ends every session of the user; returns how many there were.
    async fn delete_cabinet_sessions(&mut self, user_id: &str) -> StoreResult<u64>;
    /// Forgets sessions idle since `idle_before` or signed in before `created_before`.
    async fn prune_cabinet_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64>;
    async fn insert_sign_in_failure(
        &mut self,
        id: &str,
        email: &str,
        address: &str,
        at: OffsetDateTime,
    ) -> StoreResult<()>;
    /// When the source's most recent failed sign-ins happened, newest first, at most `limit`.
    async fn sign_in_failures(&mut self, source: SignInSource<'_>, limit: u32) -> StoreResult<Vec<OffsetDateTime>>;
    /// Forgets the email's failed sign-ins (after a successful one).
    async fn clear_sign_in_failures(&mut self, email: &str) -> StoreResult<()>;
    async fn prune_sign_in_failures(&mut self, before: OffsetDateTime) -> StoreResult<u64>;
    async fn insert_audit_entry(&mut self, entry: &AuditEntry) -> StoreResult<()>;
    /// An account's activity, newest first, strictly before the cursor `(at, id)`.
    async fn audit_entries(
        &mut self,
        account_id: &str,
        before: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<AuditEntry>>;
}
