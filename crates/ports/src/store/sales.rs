//! A partner's sales figures per day (docs/decisions.md, "Sales figures"): the daily rollups
//! the cabinet reads, and the facts they are rebuilt from that no other area reads.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use time::{Date, OffsetDateTime};
use vp_domain::sales::{Channel, Figures, Renewal};
use vp_domain::{AccountId, ClientId, ClientRef, PaymentId};

use super::StoreResult;

/// One day's figures of an account for one channel and payment method; `method` is empty for
/// the figures of the day that belong to no payment (clients made, trials started,
/// subscriptions ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailySales {
    pub day: Date,
    pub channel: Channel,
    pub method: String,
    pub figures: Figures,
}

/// What the store knows beside a page of invoices that decides how each counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaleFacts {
    /// The clients that had a trial.
    pub had_trial: HashSet<ClientRef>,
    /// The clients a referral link invited.
    pub invited: HashSet<ClientRef>,
    /// The invoices an automatic charge paid: a saved card's, or a Stars subscription's.
    pub automatic: HashMap<PaymentId, Renewal>,
    /// The invoices that bought a gift.
    pub gifts: HashSet<PaymentId>,
    /// The invoices whose payment rewarded the client's inviter (the reward not taken back).
    pub rewarding: HashSet<PaymentId>,
}

/// A paid subscription whose term ran out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndedSubscription {
    pub client_id: ClientId,
    pub ended_at: OffsetDateTime,
}

#[async_trait]
pub trait SalesRepo: Send {
    /// Replaces the account's figures of the days `first` to `last` (both included) with `rows`.
    async fn replace_daily_sales(
        &mut self,
        account_id: &str,
        first: Date,
        last: Date,
        rows: &[DailySales],
    ) -> StoreResult<()>;
    /// The account's figures of the days `first` to `last`, by day, channel and method.
    async fn daily_sales(&mut self, account_id: &str, first: Date, last: Date) -> StoreResult<Vec<DailySales>>;
    /// Every account's figures of the days `first` to `last` summed by day, channel and method
    /// (each account's days in its own zone): the operator's view.
    async fn daily_sales_of_all(&mut self, first: Date, last: Date) -> StoreResult<Vec<DailySales>>;
    /// Each account's figures of the days `first` to `last` summed, for the accounts that have
    /// any.
    async fn sales_by_account(&mut self, first: Date, last: Date) -> StoreResult<Vec<(AccountId, Figures)>>;
    /// The account's trials granted in `[from, to)`: to which client, and when.
    async fn trials_granted_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> StoreResult<Vec<(ClientId, OffsetDateTime)>>;
    /// Each of `clients`' first purchase: its earliest paid subscription invoice bought for
    /// itself (not a gift), by when it was paid; clients that bought none are not in it.
    async fn first_purchases(&mut self, clients: &[ClientRef]) -> StoreResult<HashMap<ClientRef, PaymentId>>;
    /// The facts beside the account's `invoices` (payment id and client) that decide how each
    /// counts.
    async fn sale_facts(&mut self, account_id: &str, invoices: &[(PaymentId, ClientRef)]) -> StoreResult<SaleFacts>;
    /// The account's paid (not trial, not lifetime) subscriptions whose term ran out in
    /// `[from, to)`.
    async fn subscriptions_ended_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> StoreResult<Vec<EndedSubscription>>;
}
