//! The mail outbox.

use async_trait::async_trait;

use super::{Claim, StoreResult};
use crate::mail::MailRecord;

#[async_trait]
pub trait MailRepo: Send {
    async fn insert_mail(&mut self, mail: &MailRecord) -> StoreResult<()>;
    /// Messages due at `now`, oldest due first, each held back until `lease_until` so no other
    /// worker takes it meanwhile.
    async fn claim_mail(&mut self, claim: Claim) -> StoreResult<Vec<MailRecord>>;
    async fn update_mail(&mut self, mail: &MailRecord) -> StoreResult<()>;
    async fn mail(&mut self, id: &str) -> StoreResult<Option<MailRecord>>;
}
