//! The daily limits in O(1) (docs/limits.md, "New clients and trials").
//!
//! Every new client and trial grant adds 1 to its account's count for the hour it happened in
//! (`daily_counts`, split in `STRIPES` rows so concurrent writers rarely share one). The buckets
//! a window touches sum to an upper bound of the exact count, so "below the limit" is decided
//! from at most 25 x `STRIPES` small rows; only when that bound reaches the limit are the
//! records themselves counted, and then at most `limit` of them.
//!
//! Exactness under concurrency: on SQLite writers run one at a time. On PostgreSQL each
//! account's quota has an advisory lock. `ClientRepo::below_daily_limit` (trials, operator paths)
//! takes it exclusively; the invoice hot path (`invoice_work`) takes it shared and goes on only while the
//! bound plus its margin (`invoice_work::Margin`: `max_connections` transactions of at most a
//! group's clients each) stays below the limit, else starts over with it exclusive.
//! `docs/limits.md` has the argument that this never lets the limit be passed.
//!
//! No port is implemented here: these are the protocol's parts, functions on a connection that
//! `ClientRepo` (`clients.rs`: the count of each new client and trial, `below_daily_limit`,
//! pruning the counts) and `invoice_work/` put together.

use diesel::dsl::sql;
use diesel::sql_types::Bool;
use diesel::{ExpressionMethods, Insertable, QueryDsl};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::store::StoreResult;
use vp_ports::{DailyLimit, DailyQuota};

use crate::convert::db_time;
use crate::errors::{corrupt, db};
use crate::invoice_work::statements::{CountRecord, CountsFrom, quota_lock};
use crate::pool::{DbConn, db_run};
use crate::schema::{clients, daily_counts, trial_grants};

/// Rows each (account, quota, hour) is split over.
pub(crate) const STRIPES: u64 = 8;
const HOUR_SECONDS: i64 = 3600;

pub(crate) fn hour_of(at: OffsetDateTime) -> i64 {
    at.unix_timestamp().div_euclid(HOUR_SECONDS)
}

/// FNV-1a: a stable hash (std's is seeded per process, and these values outlive a process).
pub(crate) fn stable_hash(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The stripe a record counts in: spread by the record's own id.
pub(crate) fn stripe_of(record_id: &str) -> i32 {
    i32::try_from(stable_hash(&[record_id]) % STRIPES).unwrap_or(0)
}

/// The advisory lock key of an account's quota (collisions only make two quotas share a lock).
pub(crate) fn lock_key(account_id: &str, quota: DailyQuota) -> i64 {
    i64::from_ne_bytes(stable_hash(&[account_id, quota.as_str()]).to_ne_bytes())
}

/// One record's count: 1 in its hour and stripe.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = daily_counts)]
pub(crate) struct CounterRow {
    pub account_id: String,
    pub kind: String,
    pub hour: i64,
    pub stripe: i32,
    pub n: i64,
}

impl CounterRow {
    pub(crate) fn new(account_id: &str, quota: DailyQuota, at: OffsetDateTime, record_id: &str) -> CounterRow {
        CounterRow {
            account_id: account_id.to_owned(),
            kind: quota.as_str().to_owned(),
            hour: hour_of(at),
            stripe: stripe_of(record_id),
            n: 1,
        }
    }
}

/// Adds one to the account's count for the hour of `at`.
pub(crate) async fn bump(
    conn: &mut DbConn,
    account_id: &str,
    quota: DailyQuota,
    at: OffsetDateTime,
    record_id: &str,
) -> StoreResult<()> {
    let count = CountRecord(CounterRow::new(account_id, quota, at, record_id));
    db_run!(conn, c => (&count).execute(c).await).map(|_| ()).map_err(db)
}

/// The buckets the window after `since` touches.
pub(crate) fn window_counts(account_id: &str, limit: &DailyLimit) -> CountsFrom {
    CountsFrom { account_id: account_id.to_owned(), kind: limit.quota.as_str().to_owned(), hour: hour_of(limit.since) }
}

/// The sum of the buckets the window after `since` touches: at least the exact count.
pub(crate) async fn upper_bound(conn: &mut DbConn, account_id: &str, limit: &DailyLimit) -> StoreResult<u64> {
    let counts = window_counts(account_id, limit);
    let n: i64 = db_run!(conn, c => (&counts).get_result(c).await).map_err(db)?;
    u64::try_from(n).map_err(|_| corrupt("negative daily count"))
}

/// Whether fewer than `limit` records fall strictly after `since`, counting at most `limit`.
pub(crate) async fn exactly_below(conn: &mut DbConn, account_id: &str, limit: &DailyLimit) -> StoreResult<bool> {
    let since = db_time(limit.since);
    let cap = i64::from(limit.limit);
    let found: Vec<bool> = match limit.quota {
        DailyQuota::NewClients => db_run!(conn, c => {
            clients::table
                .filter(clients::account_id.eq(account_id))
                .filter(clients::created_at.gt(since))
                .select(sql::<Bool>("1 = 1"))
                .limit(cap)
                .load(c)
                .await
        }),
        DailyQuota::Trials => db_run!(conn, c => {
            trial_grants::table
                .filter(trial_grants::account_id.eq(account_id))
                .filter(trial_grants::granted_at.gt(since))
                .select(sql::<Bool>("1 = 1"))
                .limit(cap)
                .load(c)
                .await
        }),
    }
    .map_err(db)?;
    Ok(found.len() < usize::try_from(limit.limit).unwrap_or(usize::MAX))
}

/// Takes the account's quota lock until the unit of work ends (PostgreSQL; SQLite's single
/// writer needs none).
pub(crate) async fn lock(conn: &mut DbConn, account_id: &str, quota: DailyQuota, exclusive: bool) -> StoreResult<()> {
    let DbConn::Postgres(pg) = conn else { return Ok(()) };
    quota_lock(&mut **pg, lock_key(account_id, quota), exclusive).await.map(|_| ()).map_err(db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn hours_and_stripes_are_stable() {
        assert_eq!(hour_of(datetime!(1970-01-01 01:59:59 UTC)), 1);
        assert_eq!(hour_of(datetime!(1970-01-02 00:00:00 UTC)), 24);
        assert_eq!(hour_of(datetime!(1969-12-31 23:30:00 UTC)), -1, "before 1970 rounds down too");
        assert_eq!(stripe_of("cli_abc"), stripe_of("cli_abc"));
        let stripes: std::collections::BTreeSet<i32> = (0..200).map(|i| stripe_of(&format!("cli_{i}"))).collect();
        assert_eq!(stripes.len(), 8, "records spread over every stripe");
        assert_ne!(lock_key("acc_1", DailyQuota::NewClients), lock_key("acc_1", DailyQuota::Trials));
    }
}
