//! The partner balance: the ledger and withdrawal requests.

use crate::Cursor;
use async_trait::async_trait;

use super::StoreResult;
use crate::balance::*;

#[async_trait]
pub trait BalanceRepo: Send {
    /// Fails with `Conflict` when the same invoice or withdrawal already has an entry of this
    /// kind (here, or at the unit's next statement: see `Tx::commit`).
    async fn insert_ledger_entry(&mut self, entry: &LedgerEntry) -> StoreResult<()>;
    /// An account's ledger entries written in `[from, to)`, oldest first, after `after`
    /// (a page's last), at most `limit`: an export's page.
    async fn ledger_entries_between(
        &mut self,
        account_id: &str,
        from: time::OffsetDateTime,
        to: time::OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<LedgerEntry>>;
    /// An account's ledger, newest first, strictly before the cursor `(created_at, id)`.
    async fn ledger_entries(
        &mut self,
        account_id: &str,
        before: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<LedgerEntry>>;
    /// The entries about one withdrawal request, oldest first.
    async fn withdrawal_ledger(&mut self, withdrawal_id: &str) -> StoreResult<Vec<LedgerEntry>>;
    /// The sums of the account's ledger.
    async fn partner_balance(&mut self, account_id: &str) -> StoreResult<vp_domain::withdrawal::Balance>;
    /// What the platform owes each account that has ledger entries.
    async fn partner_balances(&mut self) -> StoreResult<Vec<(vp_domain::AccountId, vp_domain::withdrawal::Balance)>>;
    async fn insert_withdrawal(&mut self, withdrawal: &WithdrawalRecord) -> StoreResult<()>;
    async fn update_withdrawal(&mut self, withdrawal: &WithdrawalRecord) -> StoreResult<()>;
    async fn withdrawal(&mut self, id: &str) -> StoreResult<Option<WithdrawalRecord>>;
    async fn withdrawals(&mut self, filter: &WithdrawalFilter) -> StoreResult<Vec<WithdrawalRecord>>;
}
