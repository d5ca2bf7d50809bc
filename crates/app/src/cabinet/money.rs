//! The balance and withdrawals from the cabinet, reached only for the actor's own account.

use time::OffsetDateTime;
use vp_ports::{LedgerEntry, WithdrawalFilter, WithdrawalRecord};

use super::Actor;
use crate::App;
use crate::balance::WithdrawalView;
use crate::error::{AppError, AppResult};

/// Withdrawal requests a page shows.
pub const WITHDRAWAL_PAGE: u32 = 20;
/// The export reads the ledger in pages of this many entries.
const EXPORT_PAGE: u32 = 1000;

impl App {
    pub async fn cabinet_request_withdrawal(
        &self,
        actor: &Actor,
        amount: &str,
        payout_details: &str,
    ) -> AppResult<WithdrawalRecord> {
        self.request_withdrawal(actor.account_id(), amount, payout_details, actor.into()).await
    }

    /// The actor's withdrawal request, or `NotFound` (whether it is another account's or none).
    pub async fn own_withdrawal(&self, actor: &Actor, id: &str) -> AppResult<WithdrawalView> {
        match self.withdrawal(id).await {
            Ok(view) if view.withdrawal.account_id == actor.account_id() => Ok(view),
            Ok(_) | Err(AppError::NotFound(_)) => Err(AppError::NotFound("withdrawal")),
            Err(e) => Err(e),
        }
    }

    pub async fn cabinet_withdrawals(
        &self,
        actor: &Actor,
        before: Option<(OffsetDateTime, String)>,
    ) -> AppResult<Vec<WithdrawalRecord>> {
        let filter = WithdrawalFilter {
            account_id: Some(actor.account_id().to_owned()),
            status: None,
            before,
            limit: WITHDRAWAL_PAGE,
        };
        self.withdrawals(&filter).await
    }

    /// The whole ledger, newest first, for the CSV export.
    pub async fn ledger_export(&self, actor: &Actor) -> AppResult<Vec<LedgerEntry>> {
        let mut all = Vec::new();
        let mut before = None;
        loop {
            let page = self.ledger(actor.account_id(), before, EXPORT_PAGE).await?;
            let full = page.len() == EXPORT_PAGE as usize;
            before = page.last().map(|e| (e.created_at, e.id.clone()));
            all.extend(page);
            if !full {
                return Ok(all);
            }
        }
    }
}
