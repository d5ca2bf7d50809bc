//! A partner's sales figures per day (docs/decisions.md, "Sales figures"): the daily rollups
//! the cabinet reads, and the one fact they are rebuilt from that no other area reads.

use async_trait::async_trait;
use time::{Date, OffsetDateTime};
use vp_domain::sales::Figures;

use super::StoreResult;

/// One day's figures of an account for one payment method; `method` is empty for the figures
/// of the day that belong to no payment (clients made, trials started).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailySales {
    pub day: Date,
    pub method: String,
    pub figures: Figures,
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
    /// The account's figures of the days `first` to `last`, by day and method.
    async fn daily_sales(&mut self, account_id: &str, first: Date, last: Date) -> StoreResult<Vec<DailySales>>;
    /// When the account's trials of `[from, to)` were granted.
    async fn trials_granted_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> StoreResult<Vec<OffsetDateTime>>;
}
