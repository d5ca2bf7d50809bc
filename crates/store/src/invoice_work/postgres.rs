//! On PostgreSQL a unit of work's statements are pipelined (sent together, answered together):
//! `open` is one round trip, `record` one for an existing client and two for a new one (the
//! quota decision sits between them).
//!
//! A new client takes its account's new-client lock shared and goes on while the bound plus
//! `max_connections` (the most transactions that can be open at once) stays below the limit: even
//! if every other open transaction adds a client too, the limit holds. Otherwise it starts over
//! with the lock exclusive, waits for those transactions, and counts exactly.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, QueryResult};
use diesel_async::pooled_connection::deadpool::Object;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use vp_ports::store::StoreResult;
use vp_ports::{InvoiceRecorded, OpenedInvoice};

use super::statements::quota_lock;
use super::{NewClient, Opening, Recording, clients_in_window, conflict_outcome, existing_key, the_client};
use crate::convert;
use crate::errors::{corrupt, db};
use crate::models::IdempotencyRow;
use crate::repo::clients::{ClientRows, first};

type Done = Result<usize, diesel::result::Error>;

/// A statement of fixed text as a type of its own, so the connection prepares it once and
/// later uses only send it: pipelined statements then go out without waiting for a prepare.
macro_rules! fixed_statement {
    ($name:ident, $sql:literal) => {
        #[derive(Debug, Clone, Copy, QueryId)]
        struct $name;

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

pub(crate) async fn open(conn: Object<AsyncPgConnection>, o: Opening) -> StoreResult<OpenedInvoice> {
    let c: &AsyncPgConnection = &conn;
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
    let rows: ClientRows = rows.map_err(db)?;
    Ok(OpenedInvoice {
        existing_key: existing.map(convert::idempotency).transpose()?,
        client: first(rows)?,
        new_clients_bound: u64::try_from(bound.map_err(db)?).map_err(|_| corrupt("negative daily count"))?,
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

async fn record_on(
    c: &AsyncPgConnection,
    r: &Recording,
    open_transactions: u64,
) -> Result<InvoiceRecorded, diesel::result::Error> {
    let Some(new) = &r.client else {
        // BEGIN goes out with the writes.
        let (begun, written) = tokio::join!(Begin.execute(&mut &*c), write(c, r));
        begun?;
        return written;
    };
    let limit = u64::from(new.limit.limit);
    if guard(c, new, false).await?.saturating_add(open_transactions) < limit {
        return write(c, r).await;
    }
    Rollback.execute(&mut &*c).await?;
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

/// `open_transactions`: the server's `max_connections`.
pub(crate) async fn record(
    conn: Object<AsyncPgConnection>,
    r: Recording,
    open_transactions: u64,
) -> StoreResult<InvoiceRecorded> {
    match record_on(&conn, &r, open_transactions).await {
        Ok(outcome) => Ok(outcome),
        Err(e) => {
            // The transaction may still be open: never hand this connection out again.
            crate::pool::DbConn::Postgres(conn).detach();
            Err(db(e))
        }
    }
}
