//! A partner's sales figures (docs/decisions.md, "Sales figures"): what the invoices, new
//! clients and trials of one day of an account come to, per payment method; the ranges the
//! cabinet shows and the period of the same length each is compared with. The store keeps the
//! figures per day (daily rollups, rebuilt from the facts); this states how a fact counts.

use std::ops::AddAssign;

use time::{Date, Duration};

use crate::InvoiceStatus;
use crate::money::Money;

/// What a day (or a range of days) of an account came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Figures {
    /// Invoices issued.
    pub issued: u32,
    /// Invoices paid (a refunded one too: it was paid).
    pub paid: u32,
    /// Paid invoices refunded since (the spec's bank recall).
    pub refunded: u32,
    /// Invoices the gateway declined (never paid).
    pub failed: u32,
    /// Invoices left unpaid past their deadline.
    pub expired: u32,
    /// What customers paid, refunds taken out.
    pub gross: Money,
    /// The partner's share of it.
    pub partner_share: Money,
    /// Clients made.
    pub new_clients: u32,
    /// Trials started.
    pub trials: u32,
}

impl AddAssign for Figures {
    fn add_assign(&mut self, other: Figures) {
        self.issued += other.issued;
        self.paid += other.paid;
        self.refunded += other.refunded;
        self.failed += other.failed;
        self.expired += other.expired;
        self.gross = self.gross.checked_add(other.gross).unwrap_or(self.gross);
        self.partner_share = self.partner_share.checked_add(other.partner_share).unwrap_or(self.partner_share);
        self.new_clients += other.new_clients;
        self.trials += other.trials;
    }
}

/// One invoice as the figures count it: on the day it was issued, in the account's zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceFact {
    pub status: InvoiceStatus,
    /// Whether it was ever paid (a refunded invoice is `failed` and was paid).
    pub was_paid: bool,
    pub amount: Money,
    pub partner_share: Money,
}

impl Figures {
    /// The figures of one invoice.
    pub fn of_invoice(fact: InvoiceFact) -> Figures {
        let mut f = Figures { issued: 1, ..Figures::default() };
        match (fact.status, fact.was_paid) {
            (InvoiceStatus::Succeeded, _) => {
                f.paid = 1;
                f.gross = fact.amount;
                f.partner_share = fact.partner_share;
            }
            (InvoiceStatus::Failed, true) => {
                f.paid = 1;
                f.refunded = 1;
            }
            (InvoiceStatus::Failed, false) => f.failed = 1,
            (InvoiceStatus::Expired, _) => f.expired = 1,
            (InvoiceStatus::Pending, _) => {}
        }
        f
    }

    /// The share of the payments the gateway decided that went through, in whole percent;
    /// `None` before any was decided.
    pub fn success_percent(&self) -> Option<u32> {
        let decided = u64::from(self.paid) + u64::from(self.failed);
        (decided > 0).then(|| u32::try_from(u64::from(self.paid) * 100 / decided).unwrap_or(100))
    }
}

/// `now` against `before` in whole percent, rounded toward zero; `None` when there was nothing
/// before to compare with.
pub fn change_percent(now: i64, before: i64) -> Option<i64> {
    let percent = (before != 0).then(|| (i128::from(now) - i128::from(before)) * 100 / i128::from(before).abs())?;
    Some(i64::try_from(percent).unwrap_or(if percent > 0 { i64::MAX } else { i64::MIN }))
}

/// The ranges the cabinet offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SalesRange {
    Days7,
    Days30,
    Days90,
    ThisMonth,
    LastMonth,
}

impl SalesRange {
    pub const ALL: [SalesRange; 5] =
        [SalesRange::Days7, SalesRange::Days30, SalesRange::Days90, SalesRange::ThisMonth, SalesRange::LastMonth];

    /// Its name in addresses (`?range=30d`).
    pub const fn code(self) -> &'static str {
        match self {
            SalesRange::Days7 => "7d",
            SalesRange::Days30 => "30d",
            SalesRange::Days90 => "90d",
            SalesRange::ThisMonth => "this-month",
            SalesRange::LastMonth => "last-month",
        }
    }

    pub fn parse(code: &str) -> Option<SalesRange> {
        SalesRange::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Its first and last day (both included), `today` being the account's: the last N days
    /// end today; this month runs from its first day to today; last month is whole.
    pub fn days(self, today: Date) -> (Date, Date) {
        let first_of_month = today.replace_day(1).unwrap_or(today);
        match self {
            SalesRange::Days7 => (today - Duration::days(6), today),
            SalesRange::Days30 => (today - Duration::days(29), today),
            SalesRange::Days90 => (today - Duration::days(89), today),
            SalesRange::ThisMonth => (first_of_month, today),
            SalesRange::LastMonth => {
                let last = first_of_month.previous_day().unwrap_or(first_of_month);
                (last.replace_day(1).unwrap_or(last), last)
            }
        }
    }
}

/// The period of the same length just before `first`..=`last`, compared with it; last month is
/// compared with the month before it, whatever its length.
pub fn previous_period(range: SalesRange, first: Date, last: Date) -> (Date, Date) {
    match range {
        SalesRange::LastMonth | SalesRange::ThisMonth if first.day() == 1 => {
            let before_last = first.previous_day().unwrap_or(first);
            let before_first = before_last.replace_day(1).unwrap_or(before_last);
            match range {
                // This month so far against as many days of the month before.
                SalesRange::ThisMonth => {
                    let days = (last - first).whole_days();
                    let end = (before_first + Duration::days(days)).min(before_last);
                    (before_first, end)
                }
                _ => (before_first, before_last),
            }
        }
        _ => {
            let length = (last - first).whole_days() + 1;
            (first - Duration::days(length), first - Duration::DAY)
        }
    }
}

/// The days `first` to `last`, both included (none when `last` is before `first`).
pub fn days_between(first: Date, last: Date) -> impl Iterator<Item = Date> {
    std::iter::successors(Some(first).filter(|f| *f <= last), move |d| d.next_day().filter(|n| *n <= last))
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn money(kopecks: i64) -> Money {
        Money::from_kopecks(kopecks)
    }

    fn invoice(status: InvoiceStatus, was_paid: bool) -> Figures {
        Figures::of_invoice(InvoiceFact { status, was_paid, amount: money(23_880), partner_share: money(3_980) })
    }

    #[test]
    fn a_paid_invoice_counts_its_money_a_refunded_one_counts_as_paid_and_refunded_without_it() {
        let paid = invoice(InvoiceStatus::Succeeded, true);
        assert_eq!((paid.issued, paid.paid, paid.gross, paid.partner_share), (1, 1, money(23_880), money(3_980)));
        let refunded = invoice(InvoiceStatus::Failed, true);
        assert_eq!((refunded.paid, refunded.refunded, refunded.failed, refunded.gross), (1, 1, 0, Money::ZERO));
        let declined = invoice(InvoiceStatus::Failed, false);
        assert_eq!((declined.paid, declined.failed), (0, 1));
        assert_eq!(invoice(InvoiceStatus::Expired, false).expired, 1);
        assert_eq!(invoice(InvoiceStatus::Pending, false), Figures { issued: 1, ..Figures::default() });
        let mut day = paid;
        day += refunded;
        day += declined;
        assert_eq!((day.issued, day.paid, day.refunded, day.failed, day.gross), (3, 2, 1, 1, money(23_880)));
        assert_eq!(day.success_percent(), Some(66), "2 of 3 decided");
        assert_eq!(Figures::default().success_percent(), None);
    }

    #[test]
    fn a_change_is_against_the_period_before_and_none_without_one() {
        assert_eq!(change_percent(150, 100), Some(50));
        assert_eq!(change_percent(50, 100), Some(-50));
        assert_eq!(change_percent(0, 100), Some(-100));
        assert_eq!(change_percent(5, 0), None);
        assert_eq!(change_percent(1, 3), Some(-66), "toward zero");
    }

    #[test]
    fn ranges_end_today_or_cover_last_month_and_compare_with_as_long_before() {
        let today = date!(2026 - 03 - 15);
        assert_eq!(SalesRange::Days7.days(today), (date!(2026 - 03 - 09), today));
        assert_eq!(SalesRange::Days30.days(today), (date!(2026 - 02 - 14), today));
        assert_eq!(SalesRange::ThisMonth.days(today), (date!(2026 - 03 - 01), today));
        assert_eq!(SalesRange::LastMonth.days(today), (date!(2026 - 02 - 01), date!(2026 - 02 - 28)));
        let (first, last) = SalesRange::Days7.days(today);
        assert_eq!(previous_period(SalesRange::Days7, first, last), (date!(2026 - 03 - 02), date!(2026 - 03 - 08)));
        let (first, last) = SalesRange::LastMonth.days(today);
        assert_eq!(previous_period(SalesRange::LastMonth, first, last), (date!(2026 - 01 - 01), date!(2026 - 01 - 31)));
        let (first, last) = SalesRange::ThisMonth.days(date!(2026 - 03 - 31));
        assert_eq!(
            previous_period(SalesRange::ThisMonth, first, last),
            (date!(2026 - 02 - 01), date!(2026 - 02 - 28)),
            "as many days of February as it has"
        );
        assert_eq!(days_between(date!(2026 - 02 - 27), date!(2026 - 03 - 01)).count(), 3);
        assert_eq!(days_between(date!(2026 - 03 - 01), date!(2026 - 02 - 27)).count(), 0);
        for r in SalesRange::ALL {
            assert_eq!(SalesRange::parse(r.code()), Some(r));
        }
    }
}
