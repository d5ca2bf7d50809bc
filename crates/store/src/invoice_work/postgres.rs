//! One invoice unit of work on its own on PostgreSQL, its statements pipelined (sent together,
//! answered together): `open_one` is one round trip, `record_one` one for an existing client and
//! two for a new one (the quota decision sits between them). Groups (`postgres_group`) run units
//! together and fall back to these, one by one, when a group fails.
//!
//! A new client takes its account's new-client lock shared and goes on while the bound plus the
//! margin (the most clients of one account all open transactions can add, `Margin`) stays below
//! the limit: even if every other open transaction adds its most, the limit holds. Otherwise it
//! starts over with the lock exclusive, waits for those transactions, and counts exactly.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, QueryResult};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use vp_ports::store::StoreResult;
use vp_ports::{ClientRecord, InvoiceRecorded, OpenedInvoice};

use super::statements::quota_lock;
use super::{NewClient, Opening, Recording, clients_in_window, conflict_outcome, existing_key, the_client};
use crate::convert;
use crate::errors::{corrupt, db};
use crate::models::IdempotencyRow;
use crate::repo::clients::first;

pub(super) type Done = Result<usize, diesel::result::Error>;

/// A statement of fixed text as a type of its own, so the connection prepares it once and
/// later uses only send it: pipelined statements then go out without waiting for a prepare.
macro_rules! fixed_statement {
    ($name:ident, $sql:expr) => {
        #[derive(Debug, Clone, Copy, QueryId)]
        pub(crate) struct $name;

        impl QueryFragment<Pg> for $name {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
                out.push_sql($sql);
                Ok(())
            }
        }
    };
}

fixed_statement!(Begin, "BEGIN");
fixed_statement!(Commit, "COMMIT");
fixed_statement!(Rollback, "ROLLBACK");
fixed_statement!(AsyncCommit, "SET LOCAL synchronous_commit TO off");
fixed_statement!(NotifyDeliveries, crate::signal::NOTIFY_DELIVERIES);

pub(super) async fn open_one(c: &AsyncPgConnection, o: &Opening) -> StoreResult<OpenedInvoice> {
    let (inserted, rows, bound) = tokio::join!(
        (&o.insert_key).execute(&mut &*c),
        the_client!(o.account_id(), &o.client_id)
            .load::<(crate::models::ClientRow, Option<crate::models::SubscriptionRow>)>(&mut &*c),
        (&o.new_clients).get_result::<i64>(&mut &*c),
    );
    let existing: Option<IdempotencyRow> = if inserted.map_err(db)? == 0 {
        existing_key!(o.insert_key.0).first(&mut &*c).await.optional().map_err(db)?
    } else {
        None
    };
    opened(existing, first(rows.map_err(db)?)?, bound.map_err(db)?)
}

/// What a unit's opening read, as the port says it.
pub(super) fn opened(
    existing: Option<IdempotencyRow>,
    client: Option<ClientRecord>,
    bound: i64,
) -> StoreResult<OpenedInvoice> {
    Ok(OpenedInvoice {
        existing_key: existing.map(convert::idempotency).transpose()?,
        client,
        new_clients_bound: u64::try_from(bound).map_err(|_| corrupt("negative daily count"))?,
    })
}

/// The writes and COMMIT, pipelined. A refused write aborts the transaction, so the COMMIT
/// rolls it back; the refusal says what happened.
async fn write(c: &AsyncPgConnection, r: &Recording) -> Result<InvoiceRecorded, diesel::result::Error> {
    let client = async {
        match &r.client {
            Some(new) => {
                let (inserted, counted) = tokio::join!((&new.insert).execute(&mut &*c), (&new.count).execute(&mut &*c));
                inserted.and(counted)
            }
            None => Ok(0),
        }
    };
    let (client, invoice, key, commit): (Done, Done, Done, Done) = tokio::join!(
        client,
        (&r.insert_invoice).execute(&mut &*c),
        (&r.finish_key).execute(&mut &*c),
        Commit.execute(&mut &*c),
    );
    for result in [client, invoice, key] {
        if let Err(e) = result {
            commit?;
            return match conflict_outcome(&e) {
                Some(outcome) => Ok(outcome),
                None => Err(e),
            };
        }
    }
    commit.map(|_| InvoiceRecorded::Recorded)
}

/// BEGIN, the new-client lock (shared or exclusive) and the bound, pipelined.
async fn guard(c: &AsyncPgConnection, new: &NewClient, exclusive: bool) -> Result<u64, diesel::result::Error> {
    let (begun, locked, bound) = tokio::join!(
        Begin.execute(&mut &*c),
        quota_lock(c, new.lock_key, exclusive),
        (&new.window).get_result::<i64>(&mut &*c),
    );
    begun?;
    locked?;
    Ok(u64::try_from(bound?).unwrap_or(0))
}

pub(super) async fn record_one(
    c: &AsyncPgConnection,
    r: &Recording,
    margin: Margin,
) -> Result<InvoiceRecorded, diesel::result::Error> {
    let Some(new) = &r.client else {
        // BEGIN goes out with the writes.
        let (begun, written) = tokio::join!(Begin.execute(&mut &*c), write(c, r));
        begun?;
        return written;
    };
    let limit = u64::from(new.limit.limit);
    if margin.below(limit) {
        if margin.allows_shared(guard(c, new, false).await?, limit) {
            return write(c, r).await;
        }
        Rollback.execute(&mut &*c).await?;
    }
    if guard(c, new, true).await? >= limit {
        let in_window: Vec<time::PrimitiveDateTime> =
            clients_in_window!(&new.insert.0.account_id, &new.limit).load(&mut &*c).await?;
        if u64::try_from(in_window.len()).unwrap_or(u64::MAX) >= limit {
            Rollback.execute(&mut &*c).await?;
            return Ok(InvoiceRecorded::DailyLimitReached);
        }
    }
    write(c, r).await
}

/// The most clients of one account that all transactions open at once can add together:
/// `max_connections` transactions, each a group of at most `GROUP_MAX` units.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Margin(u64);

impl Margin {
    pub(crate) fn of(max_connections: u64) -> Margin {
        Margin(max_connections.saturating_mul(u64::try_from(super::postgres_group::GROUP_MAX).unwrap_or(u64::MAX)))
    }

    /// Whether a shared holder that read `bound` may add clients without counting exactly:
    /// even with every open transaction adding its most, the limit holds.
    pub(super) fn allows_shared(self, bound: u64, limit: u64) -> bool {
        bound.saturating_add(self.0) < limit
    }

    /// Whether the shared path can ever pass for `limit` (else go exclusive at once).
    pub(super) fn below(self, limit: u64) -> bool {
        self.0 < limit
    }
}
