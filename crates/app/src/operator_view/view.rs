//! What the operator's view shows, each page audited with what it showed: the sales of every
//! account summed (the cabinet's figures, from the same daily rollups), the accounts ranked,
//! what the platform owes partners, and the operators' audit itself.

use std::collections::HashMap;
use std::sync::Arc;

use vp_domain::audit::OperatorAction;
use vp_domain::sales::{AccountOrder, Figures, SalesRange, previous_period};
use vp_domain::withdrawal::{Balance, WithdrawalStatus};
use vp_domain::{AccountId, Money};
use vp_ports::{Clock, Cursor, OperatorAuditEntry, Store, WithdrawalFilter, WithdrawalRecord};

use super::{OperatorActor, OperatorDoor};
use crate::error::AppResult;
use crate::sales::{SalesReport, report_of};

/// The operators' audit, newest first, at most this many a page.
pub const AUDIT_PAGE: u32 = 50;
/// Withdrawals waiting shown, of each status (requested, approved), oldest first: the
/// operator pays them by hand, so more than this waiting is itself the news.
const WAITING_SHOWN: u32 = 200;

/// One account's line of the ranked table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountSales {
    pub account_id: AccountId,
    /// The account's brand name.
    pub brand_name: String,
    pub figures: Figures,
    pub before: Figures,
}

/// The sales page: every account's figures summed, and the accounts ranked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformSales {
    pub report: SalesReport,
    pub order: AccountOrder,
    /// The accounts with figures in the range or the period before, in `order`.
    pub accounts: Vec<AccountSales>,
}

/// What the platform owes partners.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwedToPartners {
    /// Each account with a balance, the largest owed first.
    pub balances: Vec<(AccountId, String, Balance)>,
    pub total: Balance,
    /// Withdrawals requested or approved and not paid yet, newest first, at most
    /// `WAITING_SHOWN` of each status.
    pub waiting: Vec<(WithdrawalRecord, String)>,
    /// What they come to.
    pub waiting_total: Money,
    /// More are waiting than are shown (`vp-api withdrawal list` has them all).
    pub more_waiting: bool,
}

/// Sums of money the platform holds cannot reach `i64::MAX` kopecks; a sum that would stays put.
fn add(a: Money, b: Money) -> Money {
    a.checked_add(b).unwrap_or(a)
}

fn brands(accounts: Vec<vp_ports::AccountRecord>) -> HashMap<AccountId, String> {
    accounts.into_iter().map(|a| (a.id, a.brand_name.as_str().to_owned())).collect()
}

/// An account's brand name, or its id where it has none to show.
fn brand(brands: &HashMap<AccountId, String>, id: &AccountId) -> String {
    brands.get(id).cloned().unwrap_or_else(|| id.to_string())
}

pub struct OperatorView {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) audit: OperatorDoor,
}

impl OperatorView {
    /// The days of `range` for the operator end with the latest day any account has reached:
    /// each account's figures are kept by its own days (docs/decisions.md, "The operator's
    /// view"), so the platform's today is the day of the zone furthest ahead.
    pub async fn sales(
        &self,
        actor: &OperatorActor,
        range: SalesRange,
        order: AccountOrder,
    ) -> AppResult<PlatformSales> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let accounts = tx.accounts().await?;
        let today = accounts.iter().map(|a| a.time_zone.day(now)).max().unwrap_or(now.date());
        let (first, last) = range.days(today);
        let before = previous_period(range, first, last);
        let rows = tx.daily_sales_of_all(before.0, last).await?;
        let in_range = tx.sales_by_account(first, last).await?;
        let then = tx.sales_by_account(before.0, before.1).await?;
        let brands = brands(accounts);
        let report = report_of(range, (first, last), before, &rows);
        let mut by_account: HashMap<AccountId, (Figures, Figures)> = HashMap::new();
        for (id, figures) in in_range {
            by_account.entry(id).or_default().0 = figures;
        }
        for (id, figures) in then {
            by_account.entry(id).or_default().1 = figures;
        }
        let mut accounts: Vec<AccountSales> = by_account
            .into_iter()
            .map(|(id, (figures, before))| AccountSales {
                brand_name: brand(&brands, &id),
                account_id: id,
                figures,
                before,
            })
            .collect();
        accounts.sort_by(|a, b| {
            order
                .compare((&a.figures, &a.before), (&b.figures, &b.before))
                .then_with(|| a.account_id.cmp(&b.account_id))
        });
        let detail = format!(
            "sales {} ({first} to {last}) by {}: {} accounts, gross {}, paid {}",
            range.code(),
            order.code(),
            accounts.len(),
            report.total.gross,
            report.total.paid
        );
        self.audit.audit(tx.as_mut(), Some(&actor.operator), OperatorAction::ViewedSales, detail).await?;
        tx.commit().await?;
        Ok(PlatformSales { report, order, accounts })
    }

    /// The balances the platform owes partners and the withdrawals waiting to be paid.
    pub async fn owed(&self, actor: &OperatorActor) -> AppResult<OwedToPartners> {
        let mut tx = self.store.begin().await?;
        let brands = brands(tx.accounts().await?);
        let mut balances: Vec<(AccountId, String, Balance)> = tx
            .partner_balances()
            .await?
            .into_iter()
            .filter(|(_, b)| b.total() != Money::ZERO)
            .map(|(id, b)| (id.clone(), brand(&brands, &id), b))
            .collect();
        balances.sort_by(|a, b| b.2.total().cmp(&a.2.total()).then_with(|| a.0.as_str().cmp(b.0.as_str())));
        let total = balances.iter().fold(Balance::default(), |sum, (_, _, b)| Balance {
            available: add(sum.available, b.available),
            held: add(sum.held, b.held),
        });
        let (mut waiting, mut more_waiting) = (vec![], false);
        for status in [WithdrawalStatus::Requested, WithdrawalStatus::Approved] {
            let filter = WithdrawalFilter { status: Some(status), limit: WAITING_SHOWN, ..WithdrawalFilter::default() };
            let found = tx.withdrawals(&filter).await?;
            more_waiting |= found.len() == WAITING_SHOWN as usize;
            waiting.extend(found.into_iter().map(|w| {
                let name = brand(&brands, &w.account_id);
                (w, name)
            }));
        }
        waiting.sort_by(|a, b| (b.0.created_at, b.0.id.as_str()).cmp(&(a.0.created_at, a.0.id.as_str())));
        let waiting_total = waiting.iter().fold(Money::ZERO, |sum, (w, _)| add(sum, w.amount));
        let detail = format!(
            "owed {} to {} accounts ({} available, {} held), {} withdrawals waiting ({})",
            total.total(),
            balances.len(),
            total.available,
            total.held,
            waiting.len(),
            waiting_total
        );
        self.audit.audit(tx.as_mut(), Some(&actor.operator), OperatorAction::ViewedLedger, detail).await?;
        tx.commit().await?;
        Ok(OwedToPartners { balances, total, waiting, waiting_total, more_waiting })
    }

    /// A page of the operators' audit, newest first, strictly before `before`. Looking at it
    /// is written to it too (after the page is read, so the page shows what came before).
    pub async fn audit(&self, actor: &OperatorActor, before: Option<Cursor>) -> AppResult<Vec<OperatorAuditEntry>> {
        let mut tx = self.store.begin().await?;
        let entries = tx.operator_audit(before.clone(), AUDIT_PAGE).await?;
        let detail = match &before {
            Some(cursor) => format!("{} entries before {}", entries.len(), cursor.id),
            None => format!("{} newest entries", entries.len()),
        };
        self.audit.audit(tx.as_mut(), Some(&actor.operator), OperatorAction::ViewedActivity, detail).await?;
        tx.commit().await?;
        Ok(entries)
    }
}
