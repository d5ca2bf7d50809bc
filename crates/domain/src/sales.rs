//! A partner's sales figures (docs/decisions.md, "Sales figures"): what the invoices, new
//! clients and trials of one day of an account come to, per payment method; the ranges the
//! cabinet shows and the period of the same length each is compared with; where a client came
//! from and what a paid subscription was to it. The store keeps the
//! figures per day (daily rollups, rebuilt from the facts); this states how a fact counts.

use std::ops::AddAssign;

use time::{Date, Duration};

use crate::InvoiceStatus;
use crate::money::Money;

/// Where a client came from (docs/decisions.md, "Sales figures"): the partner's bot's shop
/// when the bot knows the person, else the web shop when it knows the address, else the
/// partner's own servers through the API. A sale counts in its client's channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Channel {
    Api,
    Bot,
    Web,
}

impl Channel {
    pub const ALL: [Channel; 3] = [Channel::Api, Channel::Bot, Channel::Web];

    /// Its name in the store.
    pub const fn code(self) -> &'static str {
        match self {
            Channel::Api => "api",
            Channel::Bot => "bot",
            Channel::Web => "web",
        }
    }

    pub fn parse(code: &str) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.code() == code)
    }

    /// A client's channel from whether the bot serves the person and whether the web shop
    /// serves the address: the bot's for a person both know (the bot is where they came
    /// first unless the partner joined them), else the web's, else the API's.
    pub const fn of(bot_knows: bool, web_knows: bool) -> Channel {
        match (bot_knows, web_knows) {
            (true, _) => Channel::Bot,
            (false, true) => Channel::Web,
            (false, false) => Channel::Api,
        }
    }
}

/// How a renewal was paid: by the customer again, by a saved card charged automatically, or
/// by a Telegram Stars subscription's monthly charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Renewal {
    Manual,
    Card,
    Stars,
}

/// What a paid subscription purchase was to its client: the first (after a trial or not), or a
/// renewal of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sale {
    First { after_trial: bool },
    Renewal(Renewal),
}

impl Sale {
    /// The sale a paid subscription invoice is: the client's first paid subscription invoice
    /// is its first purchase (converting its trial when it had one granted before), any later
    /// one a renewal, automatic when a saved card's or Stars' charge paid it.
    pub fn of(is_first: bool, had_trial: bool, automatic: Option<Renewal>) -> Sale {
        match (is_first, automatic) {
            (true, _) => Sale::First { after_trial: had_trial },
            (false, Some(kind)) => Sale::Renewal(kind),
            (false, None) => Sale::Renewal(Renewal::Manual),
        }
    }
}

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
    /// Clients' first paid subscriptions.
    pub first_purchases: u32,
    /// Of them, by clients who had a trial first.
    pub converted: u32,
    /// Subscriptions renewed by the customer paying again.
    pub renewals_manual: u32,
    /// Subscriptions renewed by a saved card's automatic charge.
    pub renewals_card: u32,
    /// Subscriptions renewed by a Telegram Stars subscription's charge.
    pub renewals_stars: u32,
    /// Paid subscriptions whose term ran out (and were not renewed since).
    pub ended: u32,
    /// What promo codes took off paid invoices, refunds taken out.
    pub promo_discount: Money,
    /// What customers paid on invoices with a promo code, refunds taken out.
    pub promo_gross: Money,
    /// Invited customers' first payments that rewarded their inviter.
    pub referral_rewards: u32,
    /// What invited customers paid, refunds taken out.
    pub referred_gross: Money,
}

impl AddAssign for Figures {
    fn add_assign(&mut self, other: Figures) {
        let add = |a: Money, b: Money| a.checked_add(b).unwrap_or(a);
        self.issued += other.issued;
        self.paid += other.paid;
        self.refunded += other.refunded;
        self.failed += other.failed;
        self.expired += other.expired;
        self.gross = add(self.gross, other.gross);
        self.partner_share = add(self.partner_share, other.partner_share);
        self.new_clients += other.new_clients;
        self.trials += other.trials;
        self.first_purchases += other.first_purchases;
        self.converted += other.converted;
        self.renewals_manual += other.renewals_manual;
        self.renewals_card += other.renewals_card;
        self.renewals_stars += other.renewals_stars;
        self.ended += other.ended;
        self.promo_discount = add(self.promo_discount, other.promo_discount);
        self.promo_gross = add(self.promo_gross, other.promo_gross);
        self.referral_rewards += other.referral_rewards;
        self.referred_gross = add(self.referred_gross, other.referred_gross);
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
    /// What it was to its client when paid, for a subscription bought for the client itself
    /// (not devices, not a gift).
    pub sale: Option<Sale>,
    /// What its promo code took off, when it was issued with one.
    pub promo_discount: Option<Money>,
    /// Whether its client was invited by a referral link.
    pub referred: bool,
    /// Whether its payment rewarded the client's inviter.
    pub rewarded_inviter: bool,
}

impl InvoiceFact {
    /// An invoice with no sale, code or referral to it.
    pub fn plain(status: InvoiceStatus, was_paid: bool, amount: Money, partner_share: Money) -> InvoiceFact {
        InvoiceFact {
            status,
            was_paid,
            amount,
            partner_share,
            sale: None,
            promo_discount: None,
            referred: false,
            rewarded_inviter: false,
        }
    }
}

impl Figures {
    /// The figures of one invoice. Counts follow `paid` (a refunded sale still happened);
    /// money follows `gross` (a refund takes it out).
    pub fn of_invoice(fact: InvoiceFact) -> Figures {
        let mut f = Figures { issued: 1, ..Figures::default() };
        match (fact.status, fact.was_paid) {
            (InvoiceStatus::Succeeded, _) => {
                f.paid = 1;
                f.gross = fact.amount;
                f.partner_share = fact.partner_share;
                if let Some(discount) = fact.promo_discount {
                    f.promo_discount = discount;
                    f.promo_gross = fact.amount;
                }
                if fact.referred {
                    f.referred_gross = fact.amount;
                }
            }
            (InvoiceStatus::Failed, true) => {
                f.paid = 1;
                f.refunded = 1;
            }
            (InvoiceStatus::Failed, false) => f.failed = 1,
            (InvoiceStatus::Expired, _) => f.expired = 1,
            (InvoiceStatus::Pending, _) => {}
        }
        if f.paid == 1 {
            match fact.sale {
                Some(Sale::First { after_trial }) => {
                    f.first_purchases = 1;
                    f.converted = u32::from(after_trial);
                }
                Some(Sale::Renewal(Renewal::Manual)) => f.renewals_manual = 1,
                Some(Sale::Renewal(Renewal::Card)) => f.renewals_card = 1,
                Some(Sale::Renewal(Renewal::Stars)) => f.renewals_stars = 1,
                None => {}
            }
            f.referral_rewards = u32::from(fact.rewarded_inviter);
        }
        f
    }

    /// Renewals of every kind.
    pub fn renewals(&self) -> u32 {
        self.renewals_manual + self.renewals_card + self.renewals_stars
    }

    /// The share of the payments the gateway decided that went through, in whole percent;
    /// `None` before any was decided.
    pub fn success_percent(&self) -> Option<u32> {
        let decided = u64::from(self.paid) + u64::from(self.failed);
        (decided > 0).then(|| u32::try_from(u64::from(self.paid) * 100 / decided).unwrap_or(100))
    }

    /// The share of the payments the gateway decided that it declined, in whole percent;
    /// `None` before any was decided.
    pub fn failure_percent(&self) -> Option<u32> {
        self.success_percent().map(|success| 100 - success.min(100))
    }

    /// The share of the trials started that converted to a first purchase, in whole percent
    /// (of the same period's trials; `None` without any).
    pub fn conversion_percent(&self) -> Option<u32> {
        (self.trials > 0)
            .then(|| u32::try_from(u64::from(self.converted) * 100 / u64::from(self.trials)).unwrap_or(u32::MAX))
    }
}

/// `now` against `before` in whole percent, rounded toward zero; `None` when there was nothing
/// before to compare with.
pub fn change_percent(now: i64, before: i64) -> Option<i64> {
    let percent = (before != 0).then(|| (i128::from(now) - i128::from(before)) * 100 / i128::from(before).abs())?;
    Some(i64::try_from(percent).unwrap_or(if percent > 0 { i64::MAX } else { i64::MIN }))
}

/// How the operator's table of accounts is ranked (`?by=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountOrder {
    /// What customers paid in the range, most first.
    Revenue,
    /// What customers paid against the period before, fastest growing first; an account with
    /// nothing before has no rate and comes after those that have one.
    Growth,
    /// The share of decided payments declined, highest first; an account with none decided
    /// comes last.
    Failures,
}

impl AccountOrder {
    pub const ALL: [AccountOrder; 3] = [AccountOrder::Revenue, AccountOrder::Growth, AccountOrder::Failures];

    pub const fn code(self) -> &'static str {
        match self {
            AccountOrder::Revenue => "revenue",
            AccountOrder::Growth => "growth",
            AccountOrder::Failures => "failures",
        }
    }

    pub fn parse(code: &str) -> Option<AccountOrder> {
        AccountOrder::ALL.into_iter().find(|o| o.code() == code)
    }

    /// Whether the account with figures `a` (the range's, the period before's) ranks before
    /// `b`'s, as `Ordering::Less`; ties go to the higher revenue.
    pub fn compare(self, a: (&Figures, &Figures), b: (&Figures, &Figures)) -> std::cmp::Ordering {
        let revenue = |f: (&Figures, &Figures)| f.0.gross;
        let growth = |f: (&Figures, &Figures)| change_percent(f.0.gross.kopecks(), f.1.gross.kopecks());
        let failures = |f: (&Figures, &Figures)| (f.0.failure_percent(), f.0.failed);
        let first = match self {
            AccountOrder::Revenue => std::cmp::Ordering::Equal,
            // `Some` above `None`, then the larger first.
            AccountOrder::Growth => growth(b).cmp(&growth(a)),
            AccountOrder::Failures => failures(b).cmp(&failures(a)),
        };
        first.then_with(|| revenue(b).cmp(&revenue(a)))
    }
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
mod ranking_tests {
    use super::*;

    fn figures(gross: i64, paid: u32, failed: u32) -> Figures {
        Figures { gross: Money::from_kopecks(gross), paid, failed, ..Figures::default() }
    }

    fn ranked(order: AccountOrder, accounts: &[(&'static str, Figures, Figures)]) -> Vec<&'static str> {
        let mut sorted = accounts.to_vec();
        sorted.sort_by(|a, b| order.compare((&a.1, &a.2), (&b.1, &b.2)));
        sorted.into_iter().map(|(name, ..)| name).collect()
    }

    #[test]
    fn accounts_rank_by_revenue_by_growth_with_new_ones_after_and_by_failure_rate() {
        let accounts = [
            ("big", figures(100_000, 90, 10), figures(90_000, 0, 0)),
            ("growing", figures(30_000, 10, 0), figures(10_000, 0, 0)),
            ("new", figures(50_000, 5, 5), Figures::default()),
            ("quiet", Figures::default(), figures(1_000, 0, 0)),
        ];
        assert_eq!(ranked(AccountOrder::Revenue, &accounts), ["big", "new", "growing", "quiet"]);
        // growing +200 %, big +11 %, quiet −100 %, new has nothing before to compare with.
        assert_eq!(ranked(AccountOrder::Growth, &accounts), ["growing", "big", "quiet", "new"]);
        // new declined 50 %, big 10 %, growing 0 %; quiet had no payment decided.
        assert_eq!(ranked(AccountOrder::Failures, &accounts), ["new", "big", "growing", "quiet"]);
        assert_eq!(figures(0, 1, 3).failure_percent(), Some(75));
        assert_eq!(Figures::default().failure_percent(), None);
    }

    #[test]
    fn an_order_reads_back_from_its_code_and_nothing_else_is_one() {
        for order in AccountOrder::ALL {
            assert_eq!(AccountOrder::parse(order.code()), Some(order));
        }
        assert_eq!(AccountOrder::parse("REVENUE"), None);
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn money(kopecks: i64) -> Money {
        Money::from_kopecks(kopecks)
    }

    fn invoice(status: InvoiceStatus, was_paid: bool) -> Figures {
        Figures::of_invoice(InvoiceFact::plain(status, was_paid, money(23_880), money(3_980)))
    }

    #[test]
    fn a_clients_first_paid_subscription_is_a_first_purchase_and_a_later_one_a_renewal_of_its_kind() {
        assert_eq!(Sale::of(true, false, None), Sale::First { after_trial: false });
        assert_eq!(Sale::of(true, true, Some(Renewal::Card)), Sale::First { after_trial: true });
        assert_eq!(Sale::of(false, true, None), Sale::Renewal(Renewal::Manual));
        assert_eq!(Sale::of(false, false, Some(Renewal::Stars)), Sale::Renewal(Renewal::Stars));
        let sale = |status, was_paid, sale| {
            Figures::of_invoice(InvoiceFact {
                sale: Some(sale),
                ..InvoiceFact::plain(status, was_paid, money(100), money(10))
            })
        };
        let first = sale(InvoiceStatus::Succeeded, true, Sale::First { after_trial: true });
        assert_eq!((first.first_purchases, first.converted, first.renewals()), (1, 1, 0));
        let refunded = sale(InvoiceStatus::Failed, true, Sale::Renewal(Renewal::Card));
        assert_eq!((refunded.renewals_card, refunded.gross), (1, Money::ZERO), "a refunded renewal happened");
        let declined = sale(InvoiceStatus::Failed, false, Sale::Renewal(Renewal::Stars));
        assert_eq!(declined.renewals(), 0, "a declined one did not");
        let mut day = first;
        day += refunded;
        day += Figures { trials: 4, ..Figures::default() };
        assert_eq!(day.conversion_percent(), Some(25));
        assert_eq!(Figures::default().conversion_percent(), None);
    }

    #[test]
    fn a_promo_codes_discount_and_an_invited_customers_payment_count_while_paid_and_not_refunded() {
        let with = |status, was_paid| {
            Figures::of_invoice(InvoiceFact {
                promo_discount: Some(money(2_000)),
                referred: true,
                rewarded_inviter: true,
                ..InvoiceFact::plain(status, was_paid, money(18_000), money(3_000))
            })
        };
        let paid = with(InvoiceStatus::Succeeded, true);
        assert_eq!((paid.promo_discount, paid.promo_gross), (money(2_000), money(18_000)));
        assert_eq!((paid.referred_gross, paid.referral_rewards), (money(18_000), 1));
        let refunded = with(InvoiceStatus::Failed, true);
        assert_eq!((refunded.promo_discount, refunded.referred_gross), (Money::ZERO, Money::ZERO));
        assert_eq!(with(InvoiceStatus::Pending, false).referral_rewards, 0);
        for c in Channel::ALL {
            assert_eq!(Channel::parse(c.code()), Some(c));
        }
        assert_eq!(Channel::of(true, true), Channel::Bot, "the bot's when both know the client");
        assert_eq!(Channel::of(false, true), Channel::Web);
        assert_eq!(Channel::of(false, false), Channel::Api);
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
