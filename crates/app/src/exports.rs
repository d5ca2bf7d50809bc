//! Exports for a partner's books (docs/decisions.md, "Exports"): the account's invoices,
//! clients with their subscriptions, and ledger lines of a range of days, as CSV (RFC 4180: a header row, CRLF lines, quoting where needed; UTF-8;
//! money as exact decimals with a dot; times RFC 3339 in UTC, as the API's). Read a page at a
//! time in the order of creation, so an export of any size takes constant memory: the adapter
//! (the cabinet's download, `vp-api export`) writes each page as it comes.

use std::sync::Arc;

use time::{Date, OffsetDateTime};
use vp_domain::TimeZone;
use vp_ports::{ClientRecord, Clock, Cursor, InvoiceRecord, LedgerEntry, LedgerSubject, Store};

use crate::error::{AppError, AppResult};

/// Rows read per page.
const PAGE: u32 = 1000;
/// The longest range one export covers, in days.
pub const RANGE_MAX_DAYS: i64 = 366;

/// What an export holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// The invoices made in the range.
    Invoices,
    /// The clients made in the range, each with its subscription as it is now.
    Clients,
    /// The ledger entries written in the range.
    Ledger,
}

impl ExportKind {
    pub const ALL: [ExportKind; 3] = [ExportKind::Invoices, ExportKind::Clients, ExportKind::Ledger];

    /// Its name in paths and file names: `invoices`, `clients`, `ledger`.
    pub const fn name(self) -> &'static str {
        match self {
            ExportKind::Invoices => "invoices",
            ExportKind::Clients => "clients",
            ExportKind::Ledger => "ledger",
        }
    }

    pub fn parse(name: &str) -> Option<ExportKind> {
        ExportKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The header row.
    pub const fn header(self) -> &'static str {
        match self {
            ExportKind::Invoices => {
                "payment_id,created_at,client_id,purpose,plan_id,devices,method,status,amount,platform_amount,\
                 partner_share,paid_at,promo_code\r\n"
            }
            ExportKind::Clients => {
                "client_id,created_at,blocked,subscription_status,is_trial,lifetime,expires_at,devices_limit,\
                 auto_renew\r\n"
            }
            ExportKind::Ledger => "entry_id,created_at,kind,invoice_id,withdrawal_id,amount,held\r\n",
        }
    }
}

/// The moments a range of whole days spans in the account's zone: `[from, to)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportRange {
    pub from: OffsetDateTime,
    pub to: OffsetDateTime,
}

impl ExportRange {
    /// The days `first` to `last`, both included, in `zone`; at most `RANGE_MAX_DAYS`.
    pub fn days(zone: &TimeZone, first: Date, last: Date) -> AppResult<ExportRange> {
        if last < first {
            return Err(AppError::field("to", "must not be before from"));
        }
        if (last - first).whole_days() >= RANGE_MAX_DAYS {
            return Err(AppError::field("to", format!("a range is at most {RANGE_MAX_DAYS} days")));
        }
        let from = first.previous_day().map_or(first.midnight().assume_utc(), |d| zone.end_of_day(d));
        Ok(ExportRange { from, to: zone.end_of_day(last) })
    }
}

/// A page of an export: its rows as CSV, and where the next page starts (`None`: the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportPage {
    pub csv: String,
    pub next: Option<Cursor>,
}

pub struct Exports {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl Exports {
    /// The days `first` to `last` in the account's zone (`NotFound("account")` without it).
    pub async fn range(&self, account_id: &str, first: Date, last: Date) -> AppResult<ExportRange> {
        let account = read!(self.store, |tx| crate::accounts::load_account(tx.as_mut(), account_id));
        ExportRange::days(&account.time_zone, first, last)
    }

    /// A page of the account's `kind` of `range`, from `after` on (a page's `next`), oldest
    /// first.
    pub async fn page(
        &self,
        account_id: &str,
        kind: ExportKind,
        range: ExportRange,
        after: Option<Cursor>,
    ) -> AppResult<ExportPage> {
        let (from, to, after) = (range.from, range.to, after.as_ref());
        let mut csv = String::new();
        let last = match kind {
            ExportKind::Invoices => {
                let page = read!(self.store, |tx| tx.account_invoices(account_id, from, to, after, PAGE));
                page.iter().for_each(|i| invoice_row(&mut csv, i));
                (page.len(), page.last().map(|i| Cursor { at: i.created_at, id: i.payment_id.to_string() }))
            }
            ExportKind::Clients => {
                let page = read!(self.store, |tx| tx.clients_created_between(account_id, from, to, after, PAGE));
                let now = self.clock.now();
                page.iter().for_each(|c| client_row(&mut csv, c, now));
                (page.len(), page.last().map(|c| Cursor { at: c.created_at, id: c.id.to_string() }))
            }
            ExportKind::Ledger => {
                let page = read!(self.store, |tx| tx.ledger_entries_between(account_id, from, to, after, PAGE));
                page.iter().for_each(|e| ledger_row(&mut csv, e));
                (page.len(), page.last().map(|e| Cursor { at: e.created_at, id: e.id.clone() }))
            }
        };
        let next = last.1.filter(|_| last.0 == PAGE as usize);
        Ok(ExportPage { csv, next })
    }
}

fn invoice_row(out: &mut String, i: &InvoiceRecord) {
    let opt = |v: Option<String>| v.unwrap_or_default();
    let cells = [
        i.payment_id.to_string(),
        rfc3339(i.created_at),
        i.client_id.as_str().to_owned(),
        i.purpose.as_str().to_owned(),
        opt(i.purpose.plan_id().map(|p| p.to_string())),
        opt(i.purpose.devices().map(|d| d.to_string())),
        i.method.clone(),
        i.status.as_str().to_owned(),
        i.amounts.customer.to_string(),
        i.amounts.platform.to_string(),
        i.amounts.partner_share.to_string(),
        opt(i.paid_at.map(rfc3339)),
        opt(i.promo.as_ref().map(|p| p.code.as_str().to_owned())),
    ];
    csv_row(out, &cells);
}

/// A client with its subscription as the API shows it now (the status read at `now`).
fn client_row(out: &mut String, c: &ClientRecord, now: OffsetDateTime) {
    let sub = c.subscription.as_ref();
    let flag = |b: bool| if b { "true" } else { "false" }.to_owned();
    let cells = [
        c.client_id.as_str().to_owned(),
        rfc3339(c.created_at),
        flag(c.blocked),
        sub.map(|s| s.subscription.status_at(now).as_str().to_owned()).unwrap_or_default(),
        sub.map(|s| flag(s.subscription.is_trial)).unwrap_or_default(),
        sub.map(|s| flag(s.subscription.lifetime)).unwrap_or_default(),
        sub.filter(|s| !s.subscription.lifetime).map(|s| rfc3339(s.subscription.expires_at)).unwrap_or_default(),
        sub.and_then(|s| s.subscription.devices.limit()).map(|n| n.to_string()).unwrap_or_default(),
        sub.map(|s| flag(s.auto_renew)).unwrap_or_default(),
    ];
    csv_row(out, &cells);
}

/// One ledger entry as a row of the ledger's CSV (this export's and the whole ledger's).
pub fn ledger_row(out: &mut String, e: &LedgerEntry) {
    let (invoice, withdrawal) = match &e.subject {
        LedgerSubject::Invoice(id) => (id.as_str(), ""),
        LedgerSubject::Withdrawal(id) => ("", id.as_str()),
    };
    let at = rfc3339(e.created_at);
    let cells = [e.id.as_str(), &at, e.kind.as_str(), invoice, withdrawal, &e.amount.to_string(), &e.held.to_string()];
    csv_row(out, &cells);
}

fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// One CSV line of `cells`, CRLF-ended.
pub fn csv_row(out: &mut String, cells: &[impl AsRef<str>]) {
    for (n, cell) in cells.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        out.push_str(&csv_cell(cell.as_ref()));
    }
    out.push_str("\r\n");
}

/// RFC 4180 quoting where needed; a cell a spreadsheet would run as a formula is quoted with a
/// leading apostrophe (a partner's client id may start with `+` or `@`).
pub fn csv_cell(cell: &str) -> String {
    let cell = if cell.starts_with(['=', '+', '@', '-']) && cell.parse::<f64>().is_err() {
        format!("'{cell}")
    } else {
        cell.to_owned()
    };
    if cell.contains([',', '"', '\r', '\n']) { format!("\"{}\"", cell.replace('"', "\"\"")) } else { cell }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn a_range_is_whole_days_in_the_accounts_zone() {
        let moscow = TimeZone::parse("Europe/Moscow").unwrap();
        let range = ExportRange::days(&moscow, date!(2026 - 11 - 01), date!(2026 - 11 - 30)).unwrap();
        assert_eq!(range.from.to_string(), "2026-10-31 21:00:00.0 +00:00:00");
        assert_eq!(range.to.to_string(), "2026-11-30 21:00:00.0 +00:00:00");
        assert!(ExportRange::days(&moscow, date!(2026 - 11 - 02), date!(2026 - 11 - 01)).is_err());
        assert!(ExportRange::days(&moscow, date!(2025 - 11 - 01), date!(2026 - 11 - 01)).is_ok(), "366 days");
        assert!(ExportRange::days(&moscow, date!(2025 - 10 - 31), date!(2026 - 11 - 01)).is_err(), "367 days");
    }

    #[test]
    fn cells_are_quoted_as_rfc_4180_says_and_formulas_are_not_run() {
        let mut out = String::new();
        csv_row(&mut out, &["plain", "a,b", "say \"hi\"", "two\nlines", "=SUM(A1)", "-1.50", "+7 900"]);
        assert_eq!(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",'=SUM(A1),-1.50,'+7 900\r\n");
    }
}
