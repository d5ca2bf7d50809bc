//! The balance and withdrawals from the cabinet, reached only for the actor's own account.

use vp_ports::{Cursor, LedgerEntry, WithdrawalFilter, WithdrawalRecord};

use vp_domain::WithdrawalId;
use vp_domain::withdrawal::Balance;

use super::{Actor, Cabinet};
use crate::error::{AppError, AppResult};
use crate::exports::{ExportKind, ExportPage, ExportRange};
use crate::ledger::WithdrawalView;

/// Withdrawal requests a page shows.
pub const WITHDRAWAL_PAGE: u32 = 20;
/// The export reads the ledger in pages of this many entries.
const EXPORT_PAGE: u32 = 1000;

impl Cabinet {
    pub async fn balance(&self, actor: &Actor) -> AppResult<Balance> {
        self.services.ledger.balance(actor.account_id()).await
    }

    /// A page of the account's ledger, newest first, before the cursor.
    pub async fn ledger(&self, actor: &Actor, before: Option<Cursor>, limit: u32) -> AppResult<Vec<LedgerEntry>> {
        self.services.ledger.ledger(actor.account_id(), before, limit).await
    }

    pub async fn request_withdrawal(
        &self,
        actor: &Actor,
        amount: &str,
        payout_details: &str,
    ) -> AppResult<WithdrawalRecord> {
        self.services.ledger.request_withdrawal(actor.account_id(), amount, payout_details, actor.into()).await
    }

    /// The actor's withdrawal request, or `NotFound` (whether it is another account's or none).
    pub async fn own_withdrawal(&self, actor: &Actor, id: &WithdrawalId) -> AppResult<WithdrawalView> {
        match self.services.ledger.withdrawal(id).await {
            Ok(view) if view.withdrawal.account_id == actor.account_id() => Ok(view),
            Ok(_) | Err(AppError::NotFound(_)) => Err(AppError::NotFound("withdrawal")),
            Err(e) => Err(e),
        }
    }

    pub async fn withdrawals(&self, actor: &Actor, before: Option<Cursor>) -> AppResult<Vec<WithdrawalRecord>> {
        let filter = WithdrawalFilter {
            account_id: Some(actor.account_id().clone()),
            status: None,
            before,
            limit: WITHDRAWAL_PAGE,
        };
        self.services.ledger.withdrawals(&filter).await
    }

    /// The whole ledger, newest first, for the CSV export.
    pub async fn ledger_export(&self, actor: &Actor) -> AppResult<Vec<LedgerEntry>> {
        let mut all = Vec::new();
        let mut before = None;
        loop {
            let page = self.services.ledger.ledger(actor.account_id(), before, EXPORT_PAGE).await?;
            let full = page.len() == EXPORT_PAGE as usize;
            before = page.last().map(|e| Cursor { at: e.created_at, id: e.id.clone() });
            all.extend(page);
            if !full {
                return Ok(all);
            }
        }
    }

    /// The range an export form offers first: this month so far, in the account's zone.
    pub fn export_defaults(&self, actor: &Actor) -> (time::Date, time::Date) {
        let today = actor.account.time_zone.day(self.views.now());
        (today.replace_day(1).unwrap_or(today), today)
    }

    /// The days `first` to `last` in the account's zone, for an export.
    pub fn export_range(&self, actor: &Actor, first: time::Date, last: time::Date) -> AppResult<ExportRange> {
        ExportRange::days(&actor.account.time_zone, first, last)
    }

    /// A page of one of the account's exports (`vp_app::exports`), from `after` on.
    pub async fn export_page(
        &self,
        actor: &Actor,
        kind: ExportKind,
        range: ExportRange,
        after: Option<Cursor>,
    ) -> AppResult<ExportPage> {
        self.services.exports.page(actor.account_id(), kind, range, after).await
    }
}
