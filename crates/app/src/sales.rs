//! A partner's sales figures (docs/decisions.md, "Sales figures"): daily rollups of each
//! account's invoices (per payment method), new clients and trials, in the account's zone,
//! rebuilt from the facts (`rebuild`: by the jobs for the recent days, and by `vp-api sales
//! rebuild` for any range), so the cabinet reads a range's figures from a few rows a day and
//! never sums the invoices at a page view.

use std::collections::BTreeMap;
use std::sync::Arc;

use time::{Date, Duration};
use vp_domain::sales::{Figures, InvoiceFact, SalesRange, days_between, previous_period};
use vp_ports::{AccountRecord, Clock, Cursor, DailySales, Store};

use crate::accounts::load_account;
use crate::error::AppResult;
use crate::exports::ExportRange;

/// Rows read per page while rebuilding.
const PAGE: u32 = 1000;
/// The days the jobs rebuild at each run: today and yesterday in each account's zone (an
/// invoice is settled within its 30 minutes, so a day's figures move only while it lasts and
/// just after); a refund of an older invoice moves its day at the nightly rebuild.
const RECENT_DAYS: i64 = 2;
/// The days the nightly rebuild covers, the longest range the cabinet shows.
pub const NIGHTLY_DAYS: i64 = 92;

/// A range's figures as the cabinet shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SalesReport {
    pub range: SalesRange,
    pub first: Date,
    pub last: Date,
    /// Each day of the range, the days without figures too.
    pub days: Vec<(Date, Figures)>,
    pub total: Figures,
    /// The period of the same length just before, to compare with.
    pub previous: Figures,
    /// The range's figures per payment method, by method code.
    pub by_method: Vec<(String, Figures)>,
}

pub struct Sales {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl Sales {
    /// Rebuilds the account's figures of the days `first` to `last` (its zone, both included,
    /// at most 366 days) from its invoices, clients and trials; returns the rows written.
    pub async fn rebuild(&self, account_id: &str, first: Date, last: Date) -> AppResult<usize> {
        let account = read!(self.store, |tx| load_account(tx.as_mut(), account_id));
        let range = ExportRange::days(&account.time_zone, first, last)?;
        let zone = &account.time_zone;
        let mut days: BTreeMap<(Date, String), Figures> = BTreeMap::new();
        let mut after: Option<Cursor> = None;
        loop {
            let page =
                read!(self.store, |tx| tx.account_invoices(&account.id, range.from, range.to, after.as_ref(), PAGE));
            for invoice in &page {
                let fact = InvoiceFact {
                    status: invoice.status,
                    was_paid: invoice.paid_at.is_some(),
                    amount: invoice.amounts.customer,
                    partner_share: invoice.amounts.partner_share,
                };
                *days.entry((zone.day(invoice.created_at), invoice.method.clone())).or_default() +=
                    Figures::of_invoice(fact);
            }
            after = match page.last() {
                Some(last) if page.len() == PAGE as usize => {
                    Some(Cursor { at: last.created_at, id: last.payment_id.to_string() })
                }
                _ => break,
            };
        }
        let mut after: Option<Cursor> = None;
        loop {
            let page = read!(self.store, |tx| tx.clients_created_between(
                &account.id,
                range.from,
                range.to,
                after.as_ref(),
                PAGE
            ));
            for client in &page {
                days.entry((zone.day(client.created_at), String::new())).or_default().new_clients += 1;
            }
            after = match page.last() {
                Some(last) if page.len() == PAGE as usize => {
                    Some(Cursor { at: last.created_at, id: last.id.to_string() })
                }
                _ => break,
            };
        }
        let trials = read!(self.store, |tx| tx.trials_granted_between(&account.id, range.from, range.to));
        for at in trials {
            days.entry((zone.day(at), String::new())).or_default().trials += 1;
        }
        let rows: Vec<DailySales> =
            days.into_iter().map(|((day, method), figures)| DailySales { day, method, figures }).collect();
        let mut tx = self.store.begin().await?;
        tx.replace_daily_sales(&account.id, first, last, &rows).await?;
        tx.commit().await?;
        Ok(rows.len())
    }

    /// The jobs' rebuild: today and yesterday of every account (with `nightly`, the last
    /// `NIGHTLY_DAYS`); returns the accounts rebuilt.
    pub async fn rebuild_recent(&self, nightly: bool) -> AppResult<usize> {
        let accounts = read!(self.store, |tx| tx.accounts());
        let days = if nightly { NIGHTLY_DAYS } else { RECENT_DAYS };
        for account in &accounts {
            let today = account.time_zone.day(self.clock.now());
            self.rebuild(&account.id, today - Duration::days(days - 1), today).await?;
        }
        Ok(accounts.len())
    }

    /// The account's figures of `range`, each day's, the total, the period before's total and
    /// the total per payment method.
    pub async fn report(&self, account: &AccountRecord, range: SalesRange) -> AppResult<SalesReport> {
        let today = account.time_zone.day(self.clock.now());
        let (first, last) = range.days(today);
        let (before_first, before_last) = previous_period(range, first, last);
        let rows = read!(self.store, |tx| tx.daily_sales(&account.id, before_first, last));
        Ok(report_of(range, (first, last), (before_first, before_last), &rows))
    }
}

/// A report from the rows of both periods.
fn report_of(range: SalesRange, (first, last): (Date, Date), before: (Date, Date), rows: &[DailySales]) -> SalesReport {
    let mut by_day: BTreeMap<Date, Figures> = days_between(first, last).map(|d| (d, Figures::default())).collect();
    let mut by_method: BTreeMap<String, Figures> = BTreeMap::new();
    let mut total = Figures::default();
    let mut previous = Figures::default();
    for row in rows {
        if (first..=last).contains(&row.day) {
            *by_day.entry(row.day).or_default() += row.figures;
            total += row.figures;
            if !row.method.is_empty() {
                *by_method.entry(row.method.clone()).or_default() += row.figures;
            }
        } else if (before.0..=before.1).contains(&row.day) {
            previous += row.figures;
        }
    }
    SalesReport {
        range,
        first,
        last,
        days: by_day.into_iter().collect(),
        total,
        previous,
        by_method: by_method.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;
    use vp_domain::Money;

    use super::*;

    fn row(day: Date, method: &str, paid: u32) -> DailySales {
        let figures = Figures { paid, gross: Money::from_kopecks(i64::from(paid) * 100), ..Figures::default() };
        DailySales { day, method: method.into(), figures }
    }

    #[test]
    fn a_report_sums_its_days_and_methods_and_the_period_before_apart() {
        let rows = [
            row(date!(2026 - 11 - 20), "card", 5),
            row(date!(2026 - 11 - 29), "card", 2),
            row(date!(2026 - 12 - 01), "card", 1),
            row(date!(2026 - 12 - 01), "sbp", 3),
            DailySales {
                day: date!(2026 - 12 - 02),
                method: String::new(),
                figures: Figures { new_clients: 4, ..Figures::default() },
            },
        ];
        let range = SalesRange::Days7.days(date!(2026 - 12 - 02));
        let before = previous_period(SalesRange::Days7, range.0, range.1);
        let report = report_of(SalesRange::Days7, range, before, &rows);
        assert_eq!(report.days.len(), 7, "every day, with figures or not");
        assert_eq!((report.total.paid, report.total.new_clients), (6, 4));
        assert_eq!(report.total.gross, Money::from_kopecks(600));
        assert_eq!(report.previous.paid, 5, "the week before");
        let methods: Vec<(&str, u32)> = report.by_method.iter().map(|(m, f)| (m.as_str(), f.paid)).collect();
        assert_eq!(methods, [("card", 3), ("sbp", 3)]);
    }
}
