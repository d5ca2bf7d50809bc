//! The platform's operators: their records, set-password links, sessions and audit.

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::Cursor;
use crate::cabinet::{CabinetLink, CabinetSession};
use crate::operator::{OperatorAuditEntry, OperatorRecord};

use super::StoreResult;

#[async_trait]
pub trait OperatorRepo: Send {
    /// Fails with `Conflict` when another operator has the email.
    async fn insert_operator(&mut self, operator: &OperatorRecord) -> StoreResult<()>;
    async fn update_operator(&mut self, operator: &OperatorRecord) -> StoreResult<()>;
    async fn operator(&mut self, id: &str) -> StoreResult<Option<OperatorRecord>>;
    async fn operator_by_email(&mut self, email: &str) -> StoreResult<Option<OperatorRecord>>;
    /// Every operator, oldest first.
    async fn operators(&mut self) -> StoreResult<Vec<OperatorRecord>>;
    async fn insert_operator_link(&mut self, link: &CabinetLink) -> StoreResult<()>;
    async fn operator_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>>;
    /// Marks every unused link of the operator used at `at`.
    async fn spend_operator_links(&mut self, operator_id: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn insert_operator_session(&mut self, session: &CabinetSession) -> StoreResult<()>;
    async fn operator_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>>;
    async fn touch_operator_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn delete_operator_session(&mut self, token_hash: &str) -> StoreResult<()>;
    /// Ends every session of the operator; returns how many there were.
    async fn delete_operator_sessions(&mut self, operator_id: &str) -> StoreResult<u64>;
    /// Forgets sessions idle since `idle_before` or signed in before `created_before`.
    async fn prune_operator_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64>;
    async fn insert_operator_audit(&mut self, entry: &OperatorAuditEntry) -> StoreResult<()>;
    /// The operators' audit, newest first, strictly before the cursor `(at, id)`.
    async fn operator_audit(&mut self, before: Option<Cursor>, limit: u32) -> StoreResult<Vec<OperatorAuditEntry>>;
}
