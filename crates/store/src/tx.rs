//! The unit of work: a pooled connection inside an explicit `BEGIN ... COMMIT/ROLLBACK`.
//! diesel's own transaction manager is not used, so the SQL decides the lock mode
//! (`BEGIN IMMEDIATE` on SQLite).

use std::sync::Arc;

use async_trait::async_trait;
use diesel_async::{RunQueryDsl, SimpleAsyncConnection};
use futures_util::future::join_all;
use time::OffsetDateTime;
use tokio::sync::{Mutex, OwnedMutexGuard};
use vp_domain::GatewayName;
use vp_ports::records::{AccountRecord, ApiKeyRecord, InvoiceRecord};
use vp_ports::store::StoreResult;
use vp_ports::{
    DeliveryBacklog, InvoiceOpening, InvoiceRecorded, InvoiceWrite, LocalPanelStore, LocalPanelTx, OpenedInvoice,
    Store, StoreError, Tx,
};

use crate::deferred::{Deferred, Pipelined};
use crate::errors;
use crate::invoice_work::{self, Commit, NotifyDeliveries};
use crate::pool::{DbConn, DbPool, PgConn, db_run};
use crate::repo::read_ahead::Ahead;
use crate::repo::{accounts, events};
use crate::signal::{DeliverySignal, NOTIFY_DELIVERIES};
use crate::sqlite_writer::GroupWriter;

/// `Store` of the core and the `LocalPanelStore` of the embedded panel.
pub struct PoolStore {
    pool: DbPool,
    deliveries: Arc<DeliverySignal>,
    /// SQLite has one writer at a time. Writers of this process queue here, in order, instead
    /// of in SQLite's busy handler, which polls with growing sleeps and turned contention into
    /// long tail latencies. Other processes (operator commands) still meet the busy timeout.
    sqlite_writer: Arc<Mutex<()>>,
    invoices: InvoiceWriters,
    /// The gateway of invoices issued before rails were kept (`StoreOptions::legacy_gateway`).
    legacy_gateway: GatewayName,
}

/// Who commits the invoice units of work, in groups: the one writer thread on SQLite, writer
/// tasks on PostgreSQL.
enum InvoiceWriters {
    Sqlite(GroupWriter),
    Postgres(invoice_work::PgGroups),
}

impl PoolStore {
    /// `sqlite_path` is the database file when `pool` is SQLite's; `open_transactions` the
    /// most transactions the database can have open at once (PostgreSQL's `max_connections`),
    /// for the new-client quota. Must run inside the runtime (it starts the writers).
    pub(crate) fn new(
        pool: DbPool,
        deliveries: DeliverySignal,
        open_transactions: u64,
        sqlite_path: Option<String>,
        legacy_gateway: GatewayName,
    ) -> StoreResult<PoolStore> {
        let sqlite_writer = Arc::<Mutex<()>>::default();
        let invoices = match (&pool, sqlite_path) {
            (DbPool::Sqlite(_), Some(path)) => InvoiceWriters::Sqlite(GroupWriter::start(path, sqlite_writer.clone())?),
            (DbPool::Sqlite(_), None) => {
                return Err(StoreError::Unavailable("an SQLite store needs its database file".into()));
            }
            // A quarter of the pool per unit of work (two kinds: half the pool at most), so
            // other work always finds connections.
            (DbPool::Postgres(pg), _) => InvoiceWriters::Postgres(invoice_work::PgGroups::start(
                pg.shared.clone(),
                (pg.shared.status().max_size / 4).clamp(1, 4),
                invoice_work::Margin::of(open_transactions),
            )),
        };
        Ok(PoolStore { pool, deliveries: Arc::new(deliveries), sqlite_writer, invoices, legacy_gateway })
    }

    /// A unit of work opened with `sqlite`'s or `postgres`'s BEGIN; `None` runs each statement
    /// on its own, with no transaction block.
    async fn start(&self, write: bool, sqlite: &str, postgres: Option<&str>) -> StoreResult<Box<StoreTx>> {
        let writer = match (&self.pool, write) {
            (DbPool::Sqlite(_), true) => Some(self.sqlite_writer.clone().lock_owned().await),
            _ => None,
        };
        let mut conn = self.pool.get().await?;
        let begin = match conn {
            DbConn::Sqlite(_) => Some(sqlite),
            DbConn::Postgres(_) => postgres,
        };
        if let Some(begin) = begin {
            // A failed BEGIN leaves no transaction open, so the connection may go back to the pool.
            db_run!(&mut conn, c => c.batch_execute(begin).await).map_err(errors::db)?;
        }
        Ok(Box::new(StoreTx {
            conn: Some(conn),
            in_block: begin.is_some(),
            write_turn: writer,
            deliveries: self.deliveries.clone(),
            recorded_deliveries: false,
            ahead: Ahead::default(),
            deferred: Vec::new(),
            legacy_gateway: self.legacy_gateway,
        }))
    }
}

impl PoolStore {
    async fn begin_writing(&self) -> StoreResult<Box<StoreTx>> {
        // SQLite takes the write lock now: a later upgrade from a read lock could deadlock.
        self.start(true, "BEGIN IMMEDIATE", Some("BEGIN")).await
    }

    /// SQLite reads in one snapshot from its BEGIN on. PostgreSQL's READ COMMITTED gives each
    /// statement a snapshot of its own, in a transaction block or not, so its reads skip
    /// BEGIN and COMMIT: two round trips less for every read (`just bench --phases settle`).
    async fn begin_reading(&self) -> StoreResult<Box<StoreTx>> {
        self.start(false, "BEGIN DEFERRED", None).await
    }

    /// `Store::begin_async_commit`: on PostgreSQL the BEGIN and `SET LOCAL synchronous_commit`
    /// wait for the unit's first statement, as deferred writes do.
    async fn start_async_commit(&self) -> StoreResult<Box<StoreTx>> {
        let mut tx = self.start(true, "BEGIN IMMEDIATE", None).await?;
        if matches!(tx.conn, Some(DbConn::Postgres(_))) {
            // From here on a block may be open: a failure rolls it back when `tx` drops.
            tx.in_block = true;
            tx.defer(|c| Box::pin(invoice_work::Begin.execute(&mut &*c)));
            tx.defer(|c| Box::pin(invoice_work::AsyncCommit.execute(&mut &*c)));
        }
        Ok(tx)
    }
}

#[async_trait]
impl LocalPanelStore for PoolStore {
    async fn begin_local(&self) -> StoreResult<Box<dyn LocalPanelTx>> {
        Ok(self.begin_writing().await?)
    }

    async fn read_local(&self) -> StoreResult<Box<dyn LocalPanelTx>> {
        Ok(self.begin_reading().await?)
    }

    async fn begin_local_async_commit(&self) -> StoreResult<Box<dyn LocalPanelTx>> {
        Ok(self.start_async_commit().await?)
    }
}

#[async_trait]
impl Store for PoolStore {
    async fn begin(&self) -> StoreResult<Box<dyn Tx>> {
        Ok(self.begin_writing().await?)
    }

    async fn read(&self) -> StoreResult<Box<dyn Tx>> {
        Ok(self.begin_reading().await?)
    }

    async fn begin_async_commit(&self) -> StoreResult<Box<dyn Tx>> {
        Ok(self.start_async_commit().await?)
    }

    async fn begin_with_invoice(&self, payment_id: &str) -> StoreResult<(Box<dyn Tx>, Option<InvoiceRecord>)> {
        // On PostgreSQL the BEGIN is not sent here: it goes first in the locks' pipeline.
        let mut tx = self.start(true, "BEGIN IMMEDIATE", None).await?;
        // From here on a block may be open: a failure rolls it back when `tx` drops.
        tx.in_block = true;
        let invoice =
            crate::repo::billing::begin_with_invoice(tx.conn().await?, payment_id, self.legacy_gateway).await?;
        Ok((tx, invoice))
    }

    async fn account_by_key_hash(&self, key_hash: &str) -> StoreResult<Option<(ApiKeyRecord, AccountRecord)>> {
        let mut conn = self.pool.get().await?;
        accounts::account_by_key_hash(&mut conn, key_hash).await
    }

    async fn ping(&self) -> StoreResult<()> {
        let mut conn = self.pool.get().await?;
        db_run!(&mut conn, c => c.batch_execute("SELECT 1").await).map_err(errors::db)
    }

    async fn wait_for_deliveries(&self, max: std::time::Duration) {
        self.deliveries.wait(max).await;
    }

    async fn delivery_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog> {
        let mut conn = self.pool.get().await?;
        events::delivery_backlog(&mut conn, now).await
    }

    async fn mail_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog> {
        let mut conn = self.pool.get().await?;
        crate::repo::mail::mail_backlog(&mut conn, now).await
    }

    fn pool_state(&self) -> vp_ports::PoolState {
        self.pool.state()
    }

    async fn scrub_overwritten(&self) -> StoreResult<()> {
        match &self.pool {
            DbPool::Sqlite(_) => {
                // VACUUM rebuilds the file without its free pages; the checkpoint then empties
                // the WAL, which held the old pages too. This process's writers wait meanwhile.
                let _turn = self.sqlite_writer.lock().await;
                let mut conn = self.pool.get().await?;
                db_run!(&mut conn, c => c.batch_execute("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);").await)
                    .map_err(errors::db)
            }
            DbPool::Postgres(_) => {
                // Rewrites the tables, leaving no dead row versions behind (a brief exclusive lock).
                let mut conn = self.pool.get().await?;
                db_run!(&mut conn, c => c.batch_execute("VACUUM FULL webhook_endpoints, partner_bots").await)
                    .map_err(errors::db)
            }
        }
    }

    async fn release_leases(&self) -> StoreResult<u64> {
        let mut tx = self.begin_writing().await?;
        let freed = events::release_delivery_leases(tx.conn().await?).await?;
        crate::repo::settings::release_named_leases(tx.conn().await?).await?;
        Tx::commit(tx).await?;
        Ok(freed)
    }

    async fn backup_to(&self, path: &str) -> StoreResult<()> {
        let DbPool::Sqlite(_) = &self.pool else {
            return Err(StoreError::Unsupported(
                "a PostgreSQL database is backed up with pg_dump or a base backup (docs/operations.md)".into(),
            ));
        };
        let mut conn = self.pool.get().await?;
        db_run!(&mut conn, c => {
            diesel_async::RunQueryDsl::execute(
                diesel::sql_query("VACUUM INTO ?").bind::<diesel::sql_types::Text, _>(path),
                c,
            )
            .await
        })
        .map(|_| ())
        .map_err(errors::db)
    }

    async fn open_invoice(&self, opening: InvoiceOpening<'_>) -> StoreResult<OpenedInvoice> {
        let work = invoice_work::Opening::new(opening);
        match &self.invoices {
            InvoiceWriters::Sqlite(writer) => invoice_work::open_sqlite(writer, work).await,
            InvoiceWriters::Postgres(groups) => groups.open(work).await,
        }
    }

    async fn record_invoice(&self, write: &InvoiceWrite) -> StoreResult<InvoiceRecorded> {
        let work = invoice_work::Recording::new(write)?;
        match &self.invoices {
            InvoiceWriters::Sqlite(writer) => invoice_work::record_sqlite(writer, work).await,
            InvoiceWriters::Postgres(groups) => groups.record(work).await,
        }
    }
}

pub(crate) struct StoreTx {
    /// `None` once committed or rolled back.
    conn: Option<DbConn>,
    /// Whether a transaction block is open (PostgreSQL's reads run without one).
    in_block: bool,
    /// This process's SQLite write turn, held until the transaction has ended.
    write_turn: Option<OwnedMutexGuard<()>>,
    deliveries: Arc<DeliverySignal>,
    /// Deliveries were inserted: the dispatcher is woken when this unit of work commits.
    recorded_deliveries: bool,
    /// What `read_ahead` read, waiting for the calls it answers.
    pub(crate) ahead: Ahead,
    /// Writes waiting for the unit's next statement (`deferred.rs`).
    deferred: Vec<Deferred>,
    /// The gateway of invoices issued before rails were kept.
    pub(crate) legacy_gateway: GatewayName,
}

/// The most writes waiting at once: `join_all` polls (and so sends) up to 30 futures in order,
/// and a full queue is sent before the next write joins it.
const MOST_DEFERRED: usize = 16;

impl StoreTx {
    /// The connection of the unit of work, for the queries of `repo/`, once the writes waiting
    /// for it are sent.
    pub(crate) async fn conn(&mut self) -> StoreResult<&mut DbConn> {
        if !self.deferred.is_empty() {
            self.send_deferred(None).await?;
        }
        self.conn.as_mut().ok_or_else(|| StoreError::Unavailable("the unit of work has already ended".into()))
    }

    /// Whether a write may wait for the unit's next statement: inside a PostgreSQL transaction
    /// block, with room in the queue.
    pub(crate) fn defers_writes(&self) -> bool {
        self.in_block && matches!(self.conn, Some(DbConn::Postgres(_))) && self.deferred.len() < MOST_DEFERRED
    }

    /// Queues `write` for the unit's next statement (only where `defers_writes`).
    pub(crate) fn defer<F>(&mut self, write: F)
    where
        F: for<'c> FnOnce(&'c PgConn) -> Pipelined<'c> + Send + 'static,
    {
        self.deferred.push(Box::new(write));
    }

    /// Sends the waiting writes, pipelined, and with `end` (whether to notify the dispatcher)
    /// ends the unit with a COMMIT in the same round trip.
    async fn send_deferred(&mut self, end: Option<bool>) -> StoreResult<()> {
        let writes = std::mem::take(&mut self.deferred);
        let Some(DbConn::Postgres(object)) = self.conn.as_mut() else {
            return Err(StoreError::Unavailable("the unit of work has already ended".into()));
        };
        let c: &PgConn = object;
        let mut sent: Vec<Pipelined<'_>> = writes.into_iter().map(|write| write(c)).collect();
        if let Some(notify) = end {
            if notify {
                sent.push(Box::pin(NotifyDeliveries.execute(&mut &*c)));
            }
            sent.push(Box::pin(Commit.execute(&mut &*c)));
        }
        // Polled in order, so sent in it.
        let failed = join_all(sent).await.into_iter().find_map(Result::err);
        if let Some(e) = failed {
            // The block is aborted (a COMMIT after a failed write rolled it back, a NOTIFY
            // after one left it open): never hand this connection out again.
            if let Some(conn) = self.conn.take() {
                conn.detach();
            }
            return Err(errors::db(e));
        }
        if end.is_some() {
            self.conn = None;
        }
        Ok(())
    }

    /// Deliveries were inserted: the dispatcher is woken at the commit.
    pub(crate) fn note_recorded_deliveries(&mut self) {
        self.recorded_deliveries = true;
    }

    /// Ends the unit of work with `statement`; a unit with no block open (PostgreSQL's reads)
    /// has nothing to end.
    async fn finish(&mut self, statement: &str) -> StoreResult<()> {
        self.deferred.clear();
        let Some(mut conn) = self.conn.take() else {
            return Err(StoreError::Unavailable("the unit of work has already ended".into()));
        };
        if !self.in_block {
            return Ok(());
        }
        match db_run!(&mut conn, c => c.batch_execute(statement).await) {
            Ok(()) => Ok(()),
            Err(e) => {
                // The transaction may still be open: never hand this connection out again.
                conn.detach();
                Err(errors::db(e))
            }
        }
    }
}

impl Drop for StoreTx {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else { return };
        if !self.in_block {
            return;
        }
        let write_turn = self.write_turn.take();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if let Err(e) = db_run!(&mut conn, c => c.batch_execute("ROLLBACK").await) {
                        tracing::warn!(error = %e, "rollback of an abandoned unit of work failed; dropping the connection");
                        conn.detach();
                    }
                    // The next writer starts only once this transaction is over.
                    drop(write_turn);
                });
            }
            // No runtime to roll back on: closing the connection rolls the transaction back.
            Err(_) => conn.detach(),
        }
    }
}

#[async_trait]
impl Tx for StoreTx {
    async fn commit(mut self: Box<Self>) -> StoreResult<()> {
        let postgres = matches!(self.conn, Some(DbConn::Postgres(_)));
        if !self.deferred.is_empty() {
            self.send_deferred(Some(self.recorded_deliveries)).await?;
            if self.recorded_deliveries {
                self.deliveries.wake();
            }
            return Ok(());
        }
        if !self.recorded_deliveries {
            return self.finish("COMMIT").await;
        }
        // On PostgreSQL the notification reaches every listening process at the commit.
        let statement = if postgres { format!("{NOTIFY_DELIVERIES}; COMMIT") } else { "COMMIT".to_owned() };
        self.finish(&statement).await?;
        self.deliveries.wake();
        Ok(())
    }

    async fn rollback(mut self: Box<Self>) -> StoreResult<()> {
        self.finish("ROLLBACK").await
    }

    async fn lock_account(&mut self, account_id: &str) -> StoreResult<()> {
        crate::repo::accounts::lock_account(self.conn().await?, account_id).await
    }

    async fn lock_client(&mut self, account_id: &str, client_ref: &str) -> StoreResult<()> {
        crate::repo::clients::lock_client(self.conn().await?, account_id, client_ref).await
    }

    async fn read_ahead(&mut self, ahead: vp_ports::ReadAhead<'_>) -> StoreResult<()> {
        crate::repo::read_ahead::read(self, ahead).await
    }
}
