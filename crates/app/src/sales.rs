//! A partner's sales figures (docs/decisions.md, "Sales figures"): daily rollups of each
//! account's invoices (per channel and payment method), new clients, trials and ended
//! subscriptions, in the account's zone,
//! rebuilt from the facts (`rebuild`: by the jobs for the recent days, and by `vp-api sales
//! rebuild` for any range), so the cabinet reads a range's figures from a few rows a day and
//! never sums the invoices at a page view.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use time::{Date, Duration};
use vp_domain::sales::{Channel, Figures, InvoiceFact, Sale, SalesRange, days_between, previous_period};
use vp_domain::{ClientId, ClientRef, PaymentId, Purpose};
use vp_ports::{
    AccountRecord, Clock, Cursor, DailySales, InvoiceRecord, Lease, SaleFacts, SettingKey, SettingRecord, Store,
};

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
/// How often the recent days are rebuilt, across every instance.
pub const RECENT_EVERY: Duration = Duration::minutes(5);
/// How long a rebuild holds its lease: an instance stopped mid-way leaves it to run out.
const LEASE_FOR: Duration = Duration::minutes(30);

/// When the jobs last rebuilt the figures (`SettingKey::SalesRebuilt`).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Rebuilt {
    /// The last rebuild of the recent days (Unix seconds).
    recent_at: i64,
    /// The UTC day of the last nightly rebuild (`YYYY-MM-DD`; empty before the first).
    nightly_on: String,
}

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
    /// The range's figures per channel, each channel there.
    pub by_channel: Vec<(Channel, Figures)>,
    /// The period before's figures per channel.
    pub previous_by_channel: Vec<(Channel, Figures)>,
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
        let mut days: BTreeMap<(Date, Channel, String), Figures> = BTreeMap::new();
        let mut after: Option<Cursor> = None;
        // Each client's first purchase, asked once per rebuild: a busy client's invoices fill
        // many pages, and its first purchase is read with all its invoices.
        let mut firsts: HashMap<ClientRef, Option<PaymentId>> = HashMap::new();
        loop {
            let page =
                read!(self.store, |tx| tx.account_invoices(&account.id, range.from, range.to, after.as_ref(), PAGE));
            let keys: Vec<(PaymentId, ClientRef)> =
                page.iter().map(|i| (i.payment_id.clone(), i.client_ref.clone())).collect();
            let facts = read!(self.store, |tx| tx.sale_facts(&account.id, &keys));
            let mut unknown: Vec<ClientRef> =
                page.iter().map(|i| &i.client_ref).filter(|c| !firsts.contains_key(*c)).cloned().collect();
            unknown.sort_unstable();
            unknown.dedup();
            if !unknown.is_empty() {
                let found = read!(self.store, |tx| tx.first_purchases(&unknown));
                firsts.extend(unknown.into_iter().map(|c| {
                    let first = found.get(&c).cloned();
                    (c, first)
                }));
            }
            let channels = self.channels(&account.id, page.iter().map(|i| &i.client_id)).await?;
            for invoice in &page {
                let channel = channels.of(&invoice.client_id);
                let first = firsts.get(&invoice.client_ref).and_then(Option::as_ref) == Some(&invoice.payment_id);
                *days.entry((zone.day(invoice.created_at), channel, invoice.method.clone())).or_default() +=
                    Figures::of_invoice(invoice_fact(invoice, first, &facts));
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
            let channels = self.channels(&account.id, page.iter().map(|c| &c.client_id)).await?;
            for client in &page {
                let channel = channels.of(&client.client_id);
                days.entry((zone.day(client.created_at), channel, String::new())).or_default().new_clients += 1;
            }
            after = match page.last() {
                Some(last) if page.len() == PAGE as usize => {
                    Some(Cursor { at: last.created_at, id: last.id.to_string() })
                }
                _ => break,
            };
        }
        // Trials and ended subscriptions are few beside invoices: a range's are read at once.
        let trials = read!(self.store, |tx| tx.trials_granted_between(&account.id, range.from, range.to));
        let ended_by = range.to.min(self.clock.now());
        let ended = read!(self.store, |tx| tx.subscriptions_ended_between(&account.id, range.from, ended_by));
        let channels = self
            .channels(&account.id, trials.iter().map(|(client, _)| client).chain(ended.iter().map(|e| &e.client_id)))
            .await?;
        for (client, at) in &trials {
            days.entry((zone.day(*at), channels.of(client), String::new())).or_default().trials += 1;
        }
        for e in &ended {
            days.entry((zone.day(e.ended_at), channels.of(&e.client_id), String::new())).or_default().ended += 1;
        }
        let rows: Vec<DailySales> = days
            .into_iter()
            .map(|((day, channel, method), figures)| DailySales { day, channel, method, figures })
            .collect();
        let mut tx = self.store.begin().await?;
        tx.replace_daily_sales(&account.id, first, last, &rows).await?;
        tx.commit().await?;
        Ok(rows.len())
    }

    /// Which of the account's `clients` the bot and the web shop serve.
    async fn channels(&self, account_id: &str, clients: impl Iterator<Item = &ClientId>) -> AppResult<Channels> {
        let mut ids: Vec<String> = clients.map(|c| c.as_str().to_owned()).collect();
        ids.sort_unstable();
        ids.dedup();
        let bot = read!(self.store, |tx| tx.bot_customers_among(account_id, &ids));
        let web = read!(self.store, |tx| tx.shop_customers_among(account_id, &ids));
        Ok(Channels { bot: bot.into_iter().collect(), web: web.into_iter().collect() })
    }

    /// The jobs' rebuild when it is due and no other instance runs it: the recent days every
    /// `RECENT_EVERY`, the last `NIGHTLY_DAYS` once a UTC day (the first run after an upgrade
    /// is a nightly one). `None` when it did not run; else whether it was the nightly.
    pub async fn rebuild_when_due(&self, holder: &str) -> AppResult<Option<bool>> {
        let now = self.clock.now();
        let today = now.date().to_string();
        let mut tx = self.store.begin().await?;
        let last: Rebuilt = tx
            .setting(SettingKey::SalesRebuilt)
            .await?
            .and_then(|s| serde_json::from_str(&s.value).ok())
            .unwrap_or_default();
        // ISO days compare as text.
        let nightly = last.nightly_on < today;
        let due = nightly || last.recent_at + RECENT_EVERY.whole_seconds() <= now.unix_timestamp();
        let held = due && tx.take_lease(Lease::SalesFigures, holder, now, now + LEASE_FOR).await?;
        tx.commit().await?;
        if !held {
            return Ok(None);
        }
        let rebuilt = self.rebuild_recent(nightly).await;
        let mut tx = self.store.begin().await?;
        if rebuilt.is_ok() {
            let done =
                Rebuilt { recent_at: now.unix_timestamp(), nightly_on: if nightly { today } else { last.nightly_on } };
            let value = serde_json::to_string(&done).unwrap_or_default();
            tx.put_setting(&SettingRecord { key: SettingKey::SalesRebuilt, value, updated_at: now }).await?;
        }
        tx.release_lease(Lease::SalesFigures, holder).await?;
        tx.commit().await?;
        rebuilt.map(|_| Some(nightly))
    }

    /// The jobs' rebuild: today and yesterday of every account (with `nightly`, the last
    /// `NIGHTLY_DAYS`); returns the accounts rebuilt.
    async fn rebuild_recent(&self, nightly: bool) -> AppResult<usize> {
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

/// The clients of a page the bot and the web shop serve, by `client_id`.
struct Channels {
    bot: HashSet<String>,
    web: HashSet<String>,
}

impl Channels {
    fn of(&self, client: &ClientId) -> Channel {
        Channel::of(self.bot.contains(client.as_str()), self.web.contains(client.as_str()))
    }
}

/// How an invoice counts, with the facts beside it.
fn invoice_fact(invoice: &InvoiceRecord, first: bool, facts: &SaleFacts) -> InvoiceFact {
    let id = &invoice.payment_id;
    let for_itself = matches!(invoice.purpose, Purpose::Subscription { .. }) && !facts.gifts.contains(id);
    let sale = for_itself
        .then(|| Sale::of(first, facts.had_trial.contains(&invoice.client_ref), facts.automatic.get(id).copied()));
    InvoiceFact {
        sale,
        promo_discount: invoice.promo.as_ref().map(|applied| applied.discount),
        referred: facts.invited.contains(&invoice.client_ref),
        rewarded_inviter: facts.rewarding.contains(id),
        ..InvoiceFact::plain(
            invoice.status,
            invoice.paid_at.is_some(),
            invoice.amounts.customer,
            invoice.amounts.partner_share,
        )
    }
}

/// A report from the rows of both periods.
pub(crate) fn report_of(
    range: SalesRange,
    (first, last): (Date, Date),
    before: (Date, Date),
    rows: &[DailySales],
) -> SalesReport {
    let mut by_day: BTreeMap<Date, Figures> = days_between(first, last).map(|d| (d, Figures::default())).collect();
    let mut by_method: BTreeMap<String, Figures> = BTreeMap::new();
    let whole = |by: BTreeMap<Channel, Figures>| -> Vec<(Channel, Figures)> {
        Channel::ALL.into_iter().map(|c| (c, by.get(&c).copied().unwrap_or_default())).collect()
    };
    let (mut by_channel, mut previous_by_channel) = (BTreeMap::new(), BTreeMap::new());
    let mut total = Figures::default();
    let mut previous = Figures::default();
    for row in rows {
        if (first..=last).contains(&row.day) {
            *by_day.entry(row.day).or_default() += row.figures;
            total += row.figures;
            *by_channel.entry(row.channel).or_default() += row.figures;
            if !row.method.is_empty() {
                *by_method.entry(row.method.clone()).or_default() += row.figures;
            }
        } else if (before.0..=before.1).contains(&row.day) {
            previous += row.figures;
            *previous_by_channel.entry(row.channel).or_default() += row.figures;
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
        by_channel: whole(by_channel),
        previous_by_channel: whole(previous_by_channel),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;
    use vp_domain::Money;

    use super::*;

    fn row(day: Date, method: &str, paid: u32) -> DailySales {
        let figures = Figures { paid, gross: Money::from_kopecks(i64::from(paid) * 100), ..Figures::default() };
        DailySales { day, channel: Channel::Api, method: method.into(), figures }
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
                channel: Channel::Bot,
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
        let channels: Vec<(Channel, u32, u32)> =
            report.by_channel.iter().map(|(c, f)| (*c, f.paid, f.new_clients)).collect();
        assert_eq!(channels, [(Channel::Api, 6, 0), (Channel::Bot, 0, 4), (Channel::Web, 0, 0)], "every channel");
        assert_eq!(report.previous_by_channel[0].1.paid, 5);
    }
}
