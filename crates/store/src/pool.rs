//! The two pooled connection types behind one enum, and `db_run!`, which expands the same
//! diesel query text once per backend so each type-checks against its own backend.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::thread::ThreadId;

use diesel::SqliteConnection;
use diesel_async::pooled_connection::deadpool::{Object, Pool};
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod};
use diesel_async::sync_connection_wrapper::SyncConnectionWrapper;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use tokio::runtime::{Handle, RuntimeFlavor};
use vp_ports::StoreError;
use vp_ports::store::StoreResult;

use crate::errors;
use crate::url::Target;

pub(crate) type SqliteConn = SyncConnectionWrapper<SqliteConnection>;
pub(crate) type PgConn = AsyncPgConnection;

/// Set on every SQLite connection: the busy timeout (first, so the other pragmas wait too)
/// makes a second `BEGIN IMMEDIATE` wait for the first writer instead of failing at once;
/// WAL lets readers run beside the writer; foreign keys are off by default in SQLite.
pub(crate) const SQLITE_PRAGMAS: &str =
    "PRAGMA busy_timeout=5000; PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;";

/// How long a unit of work waits for a pooled connection before it fails as unavailable: a
/// pool whose connections stay taken must not hang every caller (and a stop) with it.
const CHECKOUT_WITHIN: std::time::Duration = std::time::Duration::from_secs(30);

#[derive(diesel::QueryableByName)]
struct MaxConnections {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

pub(crate) enum DbPool {
    Sqlite(Pool<SqliteConn>),
    Postgres(PgPools),
}

/// PostgreSQL's connections, each driven where it is used. A connection's reads and writes run
/// in a task of the runtime that opened it. An actix worker is a runtime of one thread: were
/// its requests to take connections opened elsewhere (the main runtime), each round trip would
/// wake another thread to write the query and again to hand the answer back. So each such
/// thread opens and keeps its own connections, and work on the main runtime has the shared
/// ones. Each pool holds up to the configured size.
pub(crate) struct PgPools {
    url: String,
    size: usize,
    pub(crate) shared: Pool<PgConn>,
    by_thread: Mutex<HashMap<ThreadId, Pool<PgConn>>>,
}

impl PgPools {
    fn new(url: &str, size: usize) -> Result<PgPools, BuildError> {
        Ok(PgPools { url: url.to_owned(), size, shared: pg_pool(url, size)?, by_thread: Mutex::default() })
    }

    /// The pool of the calling thread when it runs a runtime of its own, else the shared one.
    fn pool(&self) -> StoreResult<Pool<PgConn>> {
        let own_runtime = Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::CurrentThread);
        if !own_runtime {
            return Ok(self.shared.clone());
        }
        let mut by_thread = self.by_thread.lock().unwrap_or_else(PoisonError::into_inner);
        match by_thread.entry(std::thread::current().id()) {
            Entry::Occupied(pool) => Ok(pool.get().clone()),
            Entry::Vacant(slot) => Ok(slot.insert(pg_pool(&self.url, self.size).map_err(built)?).clone()),
        }
    }

    fn pools(&self) -> Vec<Pool<PgConn>> {
        let by_thread = self.by_thread.lock().unwrap_or_else(PoisonError::into_inner);
        std::iter::once(self.shared.clone()).chain(by_thread.values().cloned()).collect()
    }
}

type BuildError = diesel_async::pooled_connection::deadpool::BuildError;

fn pg_pool(url: &str, size: usize) -> Result<Pool<PgConn>, BuildError> {
    let mut config = ManagerConfig::<PgConn>::default();
    config.recycling_method = RecyclingMethod::Fast;
    let manager = AsyncDieselConnectionManager::<PgConn>::new_with_config(url, config);
    Pool::builder(manager).max_size(size).build()
}

fn built(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("cannot build the connection pool: {e}"))
}

// One per unit of work, moved a handful of times: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub(crate) enum DbConn {
    Sqlite(Object<SqliteConn>),
    Postgres(Object<PgConn>),
}

/// Runs `$body` with `$c` bound to the backend's connection (`&mut SqliteConn` or
/// `&mut PgConn`); the body is compiled once per backend.
macro_rules! db_run {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::pool::DbConn::Sqlite(object) => {
                let $c: &mut $crate::pool::SqliteConn = &mut **object;
                $body
            }
            $crate::pool::DbConn::Postgres(object) => {
                let $c: &mut $crate::pool::PgConn = &mut **object;
                $body
            }
        }
    };
}
pub(crate) use db_run;

/// Locks the row of `$table` with id `$id` (its `$id_col`) until the unit of work ends, so
/// count-then-insert rules on it are exact: `SELECT ... FOR UPDATE` on PostgreSQL; nothing on
/// SQLite, where `BEGIN IMMEDIATE` already serialises every writer. A missing row locks nothing.
macro_rules! lock_row {
    ($conn:expr, $table:path, $id_col:expr, $id:expr) => {
        match $conn {
            $crate::pool::DbConn::Sqlite(_) => Ok(()),
            $crate::pool::DbConn::Postgres(object) => {
                let c: &mut $crate::pool::PgConn = object;
                $table
                    .find($id)
                    .select($id_col)
                    .for_update()
                    .first::<String>(c)
                    .await
                    .optional()
                    .map(|_| ())
                    .map_err($crate::errors::db)
            }
        }
    };
}
pub(crate) use lock_row;

/// Loads the rows of `$query` a claim takes. On PostgreSQL they are locked `FOR UPDATE SKIP
/// LOCKED`: rows another worker is claiming right now are skipped, not waited for. On SQLite the
/// write transaction's `BEGIN IMMEDIATE` holds the only write lock: no other claimer runs meanwhile.
macro_rules! load_for_claim {
    ($conn:expr, $query:expr) => {
        match $conn {
            $crate::pool::DbConn::Sqlite(object) => {
                let c: &mut $crate::pool::SqliteConn = &mut **object;
                $query.load(c).await
            }
            $crate::pool::DbConn::Postgres(object) => {
                let c: &mut $crate::pool::PgConn = &mut **object;
                $query.for_update().skip_locked().load(c).await
            }
        }
    };
}
pub(crate) use load_for_claim;

/// The statement that inserts `$row` into `$table`, or replaces every column of the row already
/// there under the same `$key` (`INSERT ... ON CONFLICT ... DO UPDATE`), kept in the statement
/// cache by its text.
macro_rules! upsert_statement {
    ($table:expr, $key:expr, $row:expr) => {
        $crate::cached::by_sql(diesel::insert_into($table).values($row).on_conflict($key).do_update().set($row))
    };
}
pub(crate) use upsert_statement;

/// Runs `upsert_statement!` now, on either backend.
macro_rules! upsert {
    ($conn:expr, $table:expr, $key:expr, $row:expr) => {
        $crate::pool::db_run!($conn, c => $crate::pool::upsert_statement!($table, $key, $row).execute(c).await)
            .map(|_| ())
            .map_err($crate::errors::db)
    };
}
pub(crate) use upsert;

/// Inserts `$rows` (a slice of rows) into `$table`: one statement on PostgreSQL, a row at a
/// time on SQLite, which takes no multi-row insert with NULLs through diesel (its one writer
/// makes rows cheap). Fails the calling function with the store's error.
macro_rules! insert_rows {
    ($conn:expr, $table:path, $rows:expr) => {
        match $conn {
            $crate::pool::DbConn::Postgres(object) => {
                let c: &mut $crate::pool::PgConn = object;
                diesel::insert_into($table).values($rows).execute(c).await.map_err($crate::errors::db)?;
            }
            $crate::pool::DbConn::Sqlite(object) => {
                let c: &mut $crate::pool::SqliteConn = object;
                for row in $rows {
                    diesel::insert_into($table).values(row).execute(c).await.map_err($crate::errors::db)?;
                }
            }
        }
    };
}
pub(crate) use insert_rows;

impl DbPool {
    pub(crate) fn build(target: &Target, max_connections: usize) -> StoreResult<DbPool> {
        let size = max_connections.max(1);
        let pool = match target {
            Target::Sqlite(path) => {
                ensure_parent_dir(path)?;
                let mut config = ManagerConfig::<SqliteConn>::default();
                // A checkout costs no query; a broken connection shows on its first use.
                config.recycling_method = RecyclingMethod::Fast;
                config.custom_setup = Box::new(|url| Box::pin(establish_sqlite(url.to_owned())));
                let url = path.to_string_lossy().into_owned();
                let manager = AsyncDieselConnectionManager::new_with_config(url, config);
                Pool::builder(manager).max_size(size).build().map(DbPool::Sqlite)
            }
            Target::Postgres(url) => PgPools::new(url, size).map(DbPool::Postgres),
        };
        pool.map_err(built)
    }

    /// The size of a pool (each of PostgreSQL's is as large), and every pool's connections
    /// together.
    pub(crate) fn state(&self) -> vp_ports::PoolState {
        let statuses = match self {
            DbPool::Sqlite(pool) => vec![pool.status()],
            DbPool::Postgres(pools) => pools.pools().iter().map(Pool::status).collect(),
        };
        let count = |n: usize| u64::try_from(n).unwrap_or(0);
        let max = statuses.as_slice().first().map_or(0, |shared| count(shared.max_size));
        let mut state = vp_ports::PoolState { max, ..Default::default() };
        for status in statuses {
            state.open += count(status.size);
            state.in_use += count(status.size).saturating_sub(count(status.available));
            state.waiting += count(status.waiting);
        }
        state
    }

    /// The most transactions the database can have open at once: PostgreSQL's
    /// `max_connections`; SQLite runs one writer at a time.
    pub(crate) async fn max_open_transactions(&self) -> StoreResult<u64> {
        let DbPool::Postgres(pools) = self else { return Ok(1) };
        let mut conn = pools.shared.get().await.map_err(errors::pool)?;
        let row: MaxConnections = diesel::sql_query("SELECT current_setting('max_connections')::BIGINT AS n")
            .get_result(&mut *conn)
            .await
            .map_err(errors::db)?;
        u64::try_from(row.n).map_err(|_| errors::corrupt("negative max_connections"))
    }

    /// A connection of the pool, waited for at most `CHECKOUT_WITHIN`.
    pub(crate) async fn get(&self) -> StoreResult<DbConn> {
        let checkout = async {
            match self {
                DbPool::Sqlite(pool) => pool.get().await.map(DbConn::Sqlite).map_err(errors::pool),
                DbPool::Postgres(pools) => pools.pool()?.get().await.map(DbConn::Postgres).map_err(errors::pool),
            }
        };
        tokio::time::timeout(CHECKOUT_WITHIN, checkout).await.unwrap_or_else(|_| {
            Err(StoreError::Unavailable(format!(
                "no database connection came free within {} s",
                CHECKOUT_WITHIN.as_secs()
            )))
        })
    }
}

impl DbConn {
    /// Removes the connection from its pool so it is closed instead of reused (used when it
    /// may still hold an open transaction).
    pub(crate) fn detach(self) {
        match self {
            DbConn::Sqlite(object) => drop(Object::take(object)),
            DbConn::Postgres(object) => drop(Object::take(object)),
        }
    }
}

async fn establish_sqlite(path: String) -> diesel::ConnectionResult<SqliteConn> {
    let mut conn = SqliteConn::establish(&path).await?;
    conn.batch_execute(SQLITE_PRAGMAS).await.map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
    Ok(conn)
}

/// SQLite creates the file but not its directory; a fresh install should just work.
pub(crate) fn ensure_parent_dir(path: &Path) -> StoreResult<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Unavailable(format!("cannot create directory {}: {e}", dir.display()))),
        _ => Ok(()),
    }
}
