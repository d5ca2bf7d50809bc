//! Group commit on PostgreSQL for the invoice units of work (`Store::open_invoice`,
//! `Store::record_invoice`). A few writer tasks per kind each take every unit queued while they
//! were busy (up to `GROUP_MAX`) and run them in one transaction on one connection, all their
//! statements pipelined: BEGIN, the quota locks, the round trips and the commit are paid once a
//! group instead of once an invoice. That is where PostgreSQL's time went: the statements
//! themselves are cheap, a transaction and a trip are not (docs/architecture.md).
//!
//! - A unit is answered only after its group committed: no caller acts (calls the gateway) on a
//!   write that could still be lost.
//! - If any statement of a group fails (a conflict a retry of the same key makes, a deadlock),
//!   the transaction is rolled back and the units run again one by one (`postgres`), so each
//!   gets its own outcome and one unit's conflict never fails another.
//! - Lock order: a group writes in phases (clients, counts, invoices, keys), each phase sorted
//!   by its key, and takes the quota locks sorted too, so two groups take locks in one order.
//! - The new-client limit: each account of a group is decided once for all its new clients, with
//!   the margin of `Margin` (a transaction adds at most `GROUP_MAX` clients of an account).

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use diesel::{ExpressionMethods, OptionalExtension, QueryDsl};
use diesel_async::pooled_connection::deadpool::{Object, Pool};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures_util::future::join_all;
use tokio::sync::{Mutex, mpsc, oneshot};
use vp_ports::store::StoreResult;
use vp_ports::{DailyLimit, InvoiceRecorded, OpenedInvoice, StoreError};

use super::group_statements::{AddCounts, InsertClients, InsertInvoices, InsertKeys};
use super::postgres::{Begin, Commit, Done, Margin, Rollback, open_one, opened, record_one};
use super::statements::quota_lock;
use super::{NewClient, Opening, Recording, clients_in_window, existing_key, the_client};
use crate::errors::{self, db};
use crate::models::{ClientRow, IdempotencyRow, SubscriptionRow};
use crate::repo::clients::{ClientRows, first};
use crate::repo::quotas::window_counts;

/// The most units one group runs: bounds a transaction's length, and the new-client margin.
pub(crate) const GROUP_MAX: usize = 16;

// Pipelined statements go out in the order their futures are first polled. `join_all` polls up
// to 30 futures in order (beyond, it hands them to a `FuturesOrdered`); a group's lists of
// statements (a unit's read each, or its key update each plus three inserts) stay within that.
const _: () = assert!(GROUP_MAX + 3 <= 30);

type Answer<A> = oneshot::Sender<StoreResult<A>>;
type Queue<U> = Arc<Mutex<mpsc::UnboundedReceiver<Job<U>>>>;
type Pipelined<'c> = Pin<Box<dyn Future<Output = Done> + Send + 'c>>;

struct Job<U: Grouped> {
    unit: U,
    answer: Answer<U::Answer>,
}

/// The writer tasks of both units of work; they end when this is dropped.
pub(crate) struct PgGroups {
    opens: mpsc::UnboundedSender<Job<Opening>>,
    records: mpsc::UnboundedSender<Job<Recording>>,
}

impl PgGroups {
    /// Starts `writers` tasks for each unit of work on `pool` (must run inside the runtime).
    pub(crate) fn start(pool: Pool<AsyncPgConnection>, writers: usize, margin: Margin) -> PgGroups {
        PgGroups { opens: spawn_writers(&pool, writers, margin), records: spawn_writers(&pool, writers, margin) }
    }

    pub(crate) async fn open(&self, unit: Opening) -> StoreResult<OpenedInvoice> {
        ask(&self.opens, unit).await
    }

    pub(crate) async fn record(&self, unit: Recording) -> StoreResult<InvoiceRecorded> {
        ask(&self.records, unit).await
    }
}

async fn ask<U: Grouped>(queue: &mpsc::UnboundedSender<Job<U>>, unit: U) -> StoreResult<U::Answer> {
    let (answer, answered) = oneshot::channel();
    queue.send(Job { unit, answer }).map_err(|_| StoreError::Unavailable("the invoice writers have stopped".into()))?;
    answered
        .await
        .map_err(|_| StoreError::Unavailable("the invoice writer could not run or commit the write".into()))?
}

/// A unit of work that runs in groups.
trait Grouped: Sized + Send + Sync + 'static {
    type Answer: Send + 'static;

    /// Runs `units` together on `c`, each answered in order, and says whether the connection
    /// is left with no transaction open (else it is closed, not pooled).
    fn run<'c>(
        c: &'c AsyncPgConnection,
        units: Vec<Self>,
        margin: Margin,
    ) -> impl Future<Output = (Vec<StoreResult<Self::Answer>>, bool)> + Send + 'c;
}

fn spawn_writers<U: Grouped>(
    pool: &Pool<AsyncPgConnection>,
    writers: usize,
    margin: Margin,
) -> mpsc::UnboundedSender<Job<U>> {
    let (jobs, queue) = mpsc::unbounded_channel();
    let queue: Queue<U> = Arc::new(Mutex::new(queue));
    for _ in 0..writers.max(1) {
        tokio::spawn(write_groups(pool.clone(), queue.clone(), margin));
    }
    jobs
}

async fn write_groups<U: Grouped>(pool: Pool<AsyncPgConnection>, queue: Queue<U>, margin: Margin) {
    loop {
        // One writer collects at a time; the others wait here while it runs its group.
        let group = {
            let mut queue = queue.lock().await;
            let Some(first) = queue.recv().await else { return };
            let mut group = vec![first];
            while group.len() < GROUP_MAX {
                match queue.try_recv() {
                    Ok(job) => group.push(job),
                    Err(_) => break,
                }
            }
            group
        };
        let (units, answers): (Vec<U>, Vec<Answer<U::Answer>>) = group.into_iter().map(|j| (j.unit, j.answer)).unzip();
        let results = match pool.get().await {
            // Its own task: a unit that panics (a bug) drops its group's answers (those callers
            // get an error) and closes the connection, never stopping the writer.
            Ok(conn) => match tokio::spawn(run_held(conn, units, margin)).await {
                Ok(results) => results,
                Err(_) => {
                    tracing::error!("an invoice group panicked; its units were answered with an error");
                    continue;
                }
            },
            Err(e) => {
                let why = errors::pool(e).to_string();
                units.iter().map(|_| Err(StoreError::Unavailable(why.clone()))).collect()
            }
        };
        for (answer, result) in answers.into_iter().zip(results) {
            // The caller may have gone (its request was cancelled); nothing to tell then.
            let _ = answer.send(result);
        }
    }
}

async fn run_held<U: Grouped>(
    conn: Object<AsyncPgConnection>,
    units: Vec<U>,
    margin: Margin,
) -> Vec<StoreResult<U::Answer>> {
    let held = Held(Some(conn));
    let Some(c) = held.0.as_deref() else { return Vec::new() };
    let (results, clean) = U::run(c, units, margin).await;
    if clean {
        held.release();
    }
    results
}

/// A group's connection: back to the pool only when released with no transaction open; dropped
/// any other way (an error mid-transaction, a panic) it is closed.
struct Held(Option<Object<AsyncPgConnection>>);

impl Held {
    fn release(mut self) {
        drop(self.0.take());
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(conn) = self.0.take() {
            crate::pool::DbConn::Postgres(conn).detach();
        }
    }
}

/// Indices of `items` sorted by `key`: the order a phase writes in.
fn sorted_by<T, K: Ord>(items: &[T], key: impl Fn(&T) -> K) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| key(&items[i]));
    order
}

fn lost(e: &diesel::result::Error) -> StoreError {
    StoreError::Unavailable(format!("the invoice group's commit failed: {e}"))
}

impl Grouped for Opening {
    type Answer = OpenedInvoice;

    async fn run(c: &AsyncPgConnection, units: Vec<Opening>, _: Margin) -> (Vec<StoreResult<OpenedInvoice>>, bool) {
        match open_together(c, &units).await {
            Ok(opened) => (opened, true),
            Err(Failed::Lost(e)) => (units.iter().map(|_| Err(lost(&e))).collect(), false),
            Err(Failed::RolledBack(e)) => {
                tracing::debug!(error = %e, units = units.len(), "an opening group failed; its units run one by one");
                let mut results = Vec::with_capacity(units.len());
                for o in &units {
                    results.push(open_one(c, o).await);
                }
                (results, true)
            }
        }
    }
}

/// Why a group did not commit.
enum Failed {
    /// Nothing was written: the units can run again.
    RolledBack(diesel::result::Error),
    /// The commit itself failed: what was written is not known, and the connection is suspect.
    Lost(diesel::result::Error),
}

/// Every key inserted (or found), the clients read and the accounts' bounds, in one
/// transaction of one statement each; the keys another request had are read after the commit.
async fn open_together(c: &AsyncPgConnection, units: &[Opening]) -> Result<Vec<StoreResult<OpenedInvoice>>, Failed> {
    let order = sorted_by(units, |o| (o.account_id().to_owned(), o.insert_key.0.key.clone()));
    let keys = InsertKeys::new(order.iter().map(|&i| &units[i].insert_key.0));
    let reads = order.iter().map(|&i| {
        let o = &units[i];
        the_client!(o.account_id(), &o.client_id).load::<(ClientRow, Option<SubscriptionRow>)>(&mut &*c)
    });
    // One bound per account and window start (the units of a group share them).
    let mut windows: BTreeMap<(&str, &str, i64), usize> = BTreeMap::new();
    let mut counts = Vec::new();
    let unit_window: Vec<usize> = units
        .iter()
        .map(|o| {
            let w = &o.new_clients;
            *windows.entry((w.account_id.as_str(), w.kind.as_str(), w.hour)).or_insert_with(|| {
                counts.push(w);
                counts.len() - 1
            })
        })
        .collect();
    let bounds = join_all(counts.iter().map(|w| w.get_result::<i64>(&mut &*c)));
    let (begun, inserted, rows, bounds, committed) = tokio::join!(
        Begin.execute(&mut &*c),
        (&keys).load::<(String, String)>(&mut &*c),
        join_all(reads),
        bounds,
        Commit.execute(&mut &*c),
    );
    if let Err(e) = committed {
        return Err(Failed::Lost(e));
    }
    // A failed statement aborted the transaction, so the COMMIT rolled it back.
    let read = begun.and(inserted).and_then(|inserted| {
        Ok((
            inserted,
            rows.into_iter().collect::<Result<Vec<_>, _>>()?,
            bounds.into_iter().collect::<Result<Vec<i64>, _>>()?,
        ))
    });
    let (inserted, rows, bounds) = read.map_err(Failed::RolledBack)?;
    let mut clients: Vec<Option<ClientRows>> = units.iter().map(|_| None).collect();
    for (&i, rows) in order.iter().zip(rows) {
        clients[i] = Some(rows);
    }
    // Of units with one key, the first in `order` is the one whose row went in.
    let mut fresh: BTreeSet<(String, String)> = inserted.into_iter().collect();
    let mut had_key = vec![false; units.len()];
    for &i in &order {
        let k = &units[i].insert_key.0;
        had_key[i] = !fresh.remove(&(k.account_id.clone(), k.key.clone()));
    }
    let existing =
        join_all(units.iter().zip(&had_key).map(|(o, had)| {
            let key = &o.insert_key.0;
            async move {
                if *had { existing_key!(key).first::<IdempotencyRow>(&mut &*c).await.optional() } else { Ok(None) }
            }
        }))
        .await;
    Ok(existing
        .into_iter()
        .zip(clients)
        .zip(unit_window)
        .map(|((existing, rows), w)| {
            let client = first(rows.unwrap_or_default())?;
            existing.map_err(db).and_then(|existing| opened(existing, client, bounds[w]))
        })
        .collect())
}

impl Grouped for Recording {
    type Answer = InvoiceRecorded;

    async fn run(
        c: &AsyncPgConnection,
        units: Vec<Recording>,
        margin: Margin,
    ) -> (Vec<StoreResult<InvoiceRecorded>>, bool) {
        let failure = match record_together(c, &units, margin).await {
            Ok(outcomes) => return (outcomes.into_iter().map(Ok).collect(), true),
            Err(e) => e,
        };
        // The transaction may still be open (a failure before the writes); end it.
        if Rollback.execute(&mut &*c).await.is_err() {
            return (units.iter().map(|_| Err(lost(&failure))).collect(), false);
        }
        tracing::debug!(error = %failure, units = units.len(), "an invoice group failed; its units run one by one");
        let mut results = Vec::with_capacity(units.len());
        let mut clean = true;
        for r in &units {
            if !clean {
                results.push(Err(StoreError::Unavailable("the database connection failed during the group".into())));
                continue;
            }
            match record_one(c, r, margin).await {
                Ok(outcome) => results.push(Ok(outcome)),
                Err(e) => {
                    clean = Rollback.execute(&mut &*c).await.is_ok();
                    results.push(Err(db(e)));
                }
            }
        }
        (results, clean)
    }
}

/// An account's new clients in a group, decided together.
struct Quota {
    lock_key: i64,
    /// The widest window and the lowest limit of the units (they were taken moments apart).
    limit: DailyLimit,
    account_id: String,
    /// The units adding a client, in the group's order.
    units: Vec<usize>,
}

fn quotas(units: &[Recording]) -> Vec<Quota> {
    let mut by_lock: BTreeMap<i64, Quota> = BTreeMap::new();
    for (i, r) in units.iter().enumerate() {
        let Some(new) = &r.client else { continue };
        let q = by_lock.entry(new.lock_key).or_insert_with(|| Quota {
            lock_key: new.lock_key,
            limit: new.limit,
            account_id: new.insert.0.account_id.clone(),
            units: Vec::new(),
        });
        q.limit.since = q.limit.since.min(new.limit.since);
        q.limit.limit = q.limit.limit.min(new.limit.limit);
        q.units.push(i);
    }
    by_lock.into_values().collect()
}

/// BEGIN, then each account's quota lock (shared or exclusive, in key order) and bound.
async fn guard_all(
    c: &AsyncPgConnection,
    quotas: &[Quota],
    exclusive: bool,
) -> Result<Vec<u64>, diesel::result::Error> {
    let guards = quotas.iter().map(|q| async move {
        let window = window_counts(&q.account_id, &q.limit);
        let (locked, bound) = tokio::join!(quota_lock(c, q.lock_key, exclusive), (&window).get_result::<i64>(&mut &*c));
        locked?;
        Ok::<u64, diesel::result::Error>(u64::try_from(bound?).unwrap_or(0))
    });
    let (begun, bounds) = tokio::join!(Begin.execute(&mut &*c), join_all(guards));
    begun?;
    bounds.into_iter().collect()
}

/// The outcome of each unit: `Recorded`, or `DailyLimitReached` for the new clients beyond
/// their account's places. `Err`: the transaction did not commit (it may still be open).
async fn record_together(
    c: &AsyncPgConnection,
    units: &[Recording],
    margin: Margin,
) -> Result<Vec<InvoiceRecorded>, diesel::result::Error> {
    let quotas = quotas(units);
    let mut outcomes = vec![InvoiceRecorded::Recorded; units.len()];
    if !quotas.is_empty() {
        let mut exclusive = quotas.iter().any(|q| !margin.below(u64::from(q.limit.limit)));
        let bounds = loop {
            let bounds = guard_all(c, &quotas, exclusive).await?;
            let shared_holds =
                quotas.iter().zip(&bounds).all(|(q, bound)| margin.allows_shared(*bound, u64::from(q.limit.limit)));
            if exclusive || shared_holds {
                break bounds;
            }
            Rollback.execute(&mut &*c).await?;
            exclusive = true;
        };
        if exclusive {
            for (q, bound) in quotas.iter().zip(bounds) {
                let limit = u64::from(q.limit.limit);
                let adding = u64::try_from(q.units.len()).unwrap_or(u64::MAX);
                if bound.saturating_add(adding) <= limit {
                    continue;
                }
                // No other writer of this account runs now: count exactly and fill the places.
                let in_window: Vec<time::PrimitiveDateTime> =
                    clients_in_window!(&q.account_id, &q.limit).load(&mut &*c).await?;
                let places = limit.saturating_sub(u64::try_from(in_window.len()).unwrap_or(u64::MAX));
                let places = usize::try_from(places).unwrap_or(usize::MAX);
                for &i in q.units.iter().skip(places) {
                    outcomes[i] = InvoiceRecorded::DailyLimitReached;
                }
            }
        }
    }
    let written: Vec<&Recording> =
        units.iter().zip(&outcomes).filter(|(_, o)| **o == InvoiceRecorded::Recorded).map(|(r, _)| r).collect();
    let mut new_clients: Vec<&NewClient> = written.iter().filter_map(|r| r.client.as_ref()).collect();
    new_clients.sort_by(|a, b| {
        (&a.insert.0.account_id, &a.insert.0.client_id).cmp(&(&b.insert.0.account_id, &b.insert.0.client_id))
    });
    let mut added: BTreeMap<(&str, &str, i64, i32), i64> = BTreeMap::new();
    for n in &new_clients {
        let r = &n.count.0;
        *added.entry((r.account_id.as_str(), r.kind.as_str(), r.hour, r.stripe)).or_default() += r.n;
    }
    let mut invoices: Vec<&Recording> = written.clone();
    invoices.sort_by(|a, b| a.insert_invoice.row.payment_id.cmp(&b.insert_invoice.row.payment_id));
    let mut keys: Vec<&Recording> = written.clone();
    keys.sort_by(|a, b| {
        (&a.finish_key.account_id, &a.finish_key.key).cmp(&(&b.finish_key.account_id, &b.finish_key.key))
    });
    let statements = (
        InsertClients::new(new_clients.iter().map(|n| &n.insert.0)),
        AddCounts::new(added),
        InsertInvoices::new(invoices.iter().map(|r| (&r.insert_invoice.row, r.insert_invoice.gateway_check_at))),
    );
    let mut writes: Vec<Pipelined<'_>> = Vec::new();
    if !new_clients.is_empty() {
        writes.push(Box::pin((&statements.0).execute(&mut &*c)));
        writes.push(Box::pin((&statements.1).execute(&mut &*c)));
    }
    if !written.is_empty() {
        writes.push(Box::pin((&statements.2).execute(&mut &*c)));
    }
    for r in keys {
        writes.push(Box::pin((&r.finish_key).execute(&mut &*c)));
    }
    let begin = quotas.is_empty();
    let (begun, done, committed) = tokio::join!(
        async { if begin { Begin.execute(&mut &*c).await.map(|_| ()) } else { Ok(()) } },
        join_all(writes),
        Commit.execute(&mut &*c),
    );
    begun?;
    // A failed write aborted the transaction, so the COMMIT rolled it back.
    for result in done {
        result?;
    }
    committed?;
    Ok(outcomes)
}
