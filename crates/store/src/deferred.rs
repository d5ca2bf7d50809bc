//! Writes sent with the unit of work's next statement. Inside a PostgreSQL transaction block, a
//! write whose caller gets nothing back (`()`) waits in the unit of work; the next call that
//! needs the connection sends the waiting writes first, pipelined, and the COMMIT takes them
//! along: a settlement's three writes and its COMMIT are one round trip, not four
//! (`just bench --phases settle`).
//!
//! A failed write then fails that next call, or the COMMIT, and the unit of work with it:
//! PostgreSQL has aborted the block, so nothing of it is kept. No caller of a deferred write
//! acts on its error, only passes it on. A unit dropped or rolled back drops its waiting writes
//! unsent. On SQLite, in-process, and in units with no transaction block, writes run at once.

use std::future::Future;
use std::pin::Pin;

use diesel::QueryResult;

use crate::pool::PgConn;

/// A statement sent pipelined: its future, borrowing the connection.
pub(crate) type Pipelined<'c> = Pin<Box<dyn Future<Output = QueryResult<usize>> + Send + 'c>>;

/// A waiting write: makes its statement's future once the connection is at hand.
pub(crate) type Deferred = Box<dyn for<'c> FnOnce(&'c PgConn) -> Pipelined<'c> + Send>;

/// Runs `$query` (built of values the expression may move) on the unit of work `$tx`: now, or
/// with its next statement where the unit defers writes (see the module's doc).
macro_rules! write_with_next {
    ($tx:expr, $query:expr) => {{
        let tx: &mut $crate::tx::StoreTx = $tx;
        if tx.defers_writes() {
            tx.defer(move |c| {
                Box::pin(async move { diesel_async::RunQueryDsl::execute($query, &mut &*c).await })
            });
            Ok(())
        } else {
            let conn = tx.conn().await?;
            $crate::pool::db_run!(conn, c => diesel_async::RunQueryDsl::execute($query, c).await)
                .map(|_| ())
                .map_err($crate::errors::db)
        }
    }};
}
pub(crate) use write_with_next;
