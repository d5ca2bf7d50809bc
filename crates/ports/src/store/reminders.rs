//! The platform's reminders to customers in their partner's bot (where a reminder sends a
//! customer to renew is the account's, `AccountRepo::renewal_url`).

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::AccountId;

use super::{Claim, StoreResult};
use crate::bots::{ReminderRecipient, ReminderSend};

#[async_trait]
pub trait ReminderRepo: Send {
    /// Queues a reminder; `false` when this client already has this kind for this term.
    async fn insert_reminder(&mut self, reminder: &ReminderSend) -> StoreResult<bool>;
    /// The accounts with reminders due at `now` (at most `limit` of them).
    async fn accounts_with_due_reminders(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<AccountId>>;
    /// The account's reminders due at `now`, oldest due first, each held back until
    /// `lease_until` so no other worker takes it meanwhile.
    async fn claim_reminders(&mut self, account_id: &str, claim: Claim) -> StoreResult<Vec<ReminderSend>>;
    async fn update_reminder(&mut self, reminder: &ReminderSend) -> StoreResult<()>;
    async fn reminders_of_client(&mut self, client_ref: &str) -> StoreResult<Vec<ReminderSend>>;
    /// The reminder's client with its subscription, the chat it is linked to now and the
    /// language of the reminder's chat, in one read; `None` when the client is gone.
    async fn reminder_recipient(&mut self, reminder: &ReminderSend) -> StoreResult<Option<ReminderRecipient>>;
}
