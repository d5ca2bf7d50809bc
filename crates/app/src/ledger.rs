//! The partner balance: the ledger, withdrawal requests and the operator's steps on them. Each
//! change is one ledger entry written in the unit of work that makes it, under the account's
//! lock, so the balance read before a hold is the balance the hold applies to.

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::withdrawal::{self, Balance, Movement, WithdrawalStatus, WithdrawalStep};
use vp_domain::{AccountId, WithdrawalId};
use vp_ports::{
    BalanceRepo, Clock, Cursor, IdGenerator, LedgerEntry, LedgerKind, LedgerSubject, NoticeKind, Store,
    WithdrawalFilter, WithdrawalRecord,
};

use crate::audit::{Audit, AuditAction, Who};
use crate::error::{AppError, AppResult, Declined};
use crate::notifier::Notifier;

/// Ledger entries a page shows.
pub const LEDGER_PAGE: u32 = 50;

/// A withdrawal request and its ledger entries, oldest first.
#[derive(Debug, Clone)]
pub struct WithdrawalView {
    pub withdrawal: WithdrawalRecord,
    pub ledger: Vec<LedgerEntry>,
}

/// The partner's ledger: the balance it sums to, and withdrawals from it.
pub struct Ledger {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) audit: Audit,
    pub(crate) notifier: Notifier,
}

impl Ledger {
    pub async fn balance(&self, account_id: &AccountId) -> AppResult<Balance> {
        Ok(read!(self.store, |tx| tx.partner_balance(account_id)))
    }

    /// The account's ledger, newest first, before the cursor.
    pub async fn ledger(
        &self,
        account_id: &AccountId,
        before: Option<Cursor>,
        limit: u32,
    ) -> AppResult<Vec<LedgerEntry>> {
        Ok(read!(self.store, |tx| tx.ledger_entries(account_id, before, limit)))
    }

    /// A partner asks to be paid `amount`: it is held at once, so it can never be asked for
    /// twice and the available balance never goes below zero through withdrawals.
    pub(crate) async fn request_withdrawal(
        &self,
        account_id: &AccountId,
        amount: &str,
        payout_details: &str,
        who: Who<'_>,
    ) -> AppResult<WithdrawalRecord> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        let balance = tx.partner_balance(account_id).await?;
        let (amount, payout_details) =
            withdrawal::check_request(amount, payout_details, balance).map_err(Declined::Withdrawal)?;
        let record = WithdrawalRecord {
            id: WithdrawalId::issued(self.ids.new_id("wd")),
            account_id: account_id.clone(),
            amount,
            payout_details,
            status: WithdrawalStatus::Requested,
            note: None,
            requested_by: match who {
                Who::User { email, .. } => email.to_owned(),
                Who::Operator => "operator".to_owned(),
            },
            created_at: now,
            updated_at: now,
        };
        tx.insert_withdrawal(&record).await?;
        self.record_withdrawal_step(tx.as_mut(), &record, LedgerKind::WithdrawalHold, withdrawal::hold(amount), now)
            .await?;
        self.audit
            .record(tx.as_mut(), account_id, who, AuditAction::WithdrawalRequested, format!("{} {amount}", record.id))
            .await?;
        tx.commit().await?;
        Ok(record)
    }

    pub async fn withdrawal(&self, id: &WithdrawalId) -> AppResult<WithdrawalView> {
        let mut tx = self.store.read().await?;
        let withdrawal = tx.withdrawal(id).await?.ok_or(AppError::NotFound("withdrawal"))?;
        let ledger = tx.withdrawal_ledger(id).await?;
        tx.commit().await?;
        Ok(WithdrawalView { withdrawal, ledger })
    }

    pub async fn withdrawals(&self, filter: &WithdrawalFilter) -> AppResult<Vec<WithdrawalRecord>> {
        Ok(read!(self.store, |tx| tx.withdrawals(filter)))
    }

    /// Operator: approve, reject (the hold goes back) or mark paid (the held amount leaves the
    /// balance and the partner is told). A step the request's status does not allow is a
    /// conflict and changes nothing.
    pub async fn step_withdrawal(
        &self,
        id: &WithdrawalId,
        step: WithdrawalStep,
        note: Option<&str>,
    ) -> AppResult<WithdrawalRecord> {
        let note = withdrawal::check_note(note).map_err(Declined::Withdrawal)?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let account_id = tx.withdrawal(id).await?.ok_or(AppError::NotFound("withdrawal"))?.account_id;
        tx.lock_account(&account_id).await?;
        // Re-read under the lock: another step may have been taken meanwhile.
        let mut record = tx.withdrawal(id).await?.ok_or(AppError::NotFound("withdrawal"))?;
        let (next, movement) = withdrawal::step(record.status, step, record.amount)
            .map_err(|e| AppError::Conflict(format!("withdrawal {id}: {e}")))?;
        record.status = next;
        record.note = note;
        record.updated_at = now;
        tx.update_withdrawal(&record).await?;
        let (kind, action) = match step {
            WithdrawalStep::Approve => (LedgerKind::WithdrawalApproval, AuditAction::WithdrawalApproved),
            WithdrawalStep::Reject => (LedgerKind::WithdrawalRelease, AuditAction::WithdrawalRejected),
            WithdrawalStep::MarkPaid => (LedgerKind::WithdrawalPayout, AuditAction::WithdrawalPaid),
        };
        self.record_withdrawal_step(tx.as_mut(), &record, kind, movement, now).await?;
        let detail = match &record.note {
            Some(note) => format!("{id} {}: {note}", record.amount),
            None => format!("{id} {}", record.amount),
        };
        self.audit.record(tx.as_mut(), &account_id, Who::Operator, action, detail).await?;
        if next == WithdrawalStatus::Paid {
            let notice = NoticeKind::WithdrawalPaid { withdrawal_id: record.id.to_string(), amount: record.amount };
            self.notifier.notify(tx.as_mut(), &account_id, notice).await?;
        }
        tx.commit().await?;
        Ok(record)
    }

    async fn record_withdrawal_step(
        &self,
        tx: &mut (impl BalanceRepo + ?Sized),
        record: &WithdrawalRecord,
        kind: LedgerKind,
        movement: Movement,
        now: OffsetDateTime,
    ) -> AppResult<()> {
        let entry = LedgerEntry {
            id: self.ids.new_id("led"),
            account_id: record.account_id.clone(),
            subject: LedgerSubject::Withdrawal(record.id.to_string()),
            kind,
            amount: movement.available,
            held: movement.held,
            created_at: now,
        };
        tx.insert_ledger_entry(&entry).await?;
        Ok(())
    }
}
