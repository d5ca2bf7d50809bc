//! Group commit for SQLite's hot units of work (`POST /payments`): one thread owns a writing
//! connection and runs every unit of work queued while the previous group was committing in
//! one `BEGIN IMMEDIATE ... COMMIT`, each unit inside its own savepoint. SQLite has one writer
//! at a time anyway; grouping saves a commit (WAL frames of the same pages), a pool checkout
//! and two thread hops per unit, which is where an invoice's time went.
//!
//! A unit's answer is sent only after its group has committed: a caller never acts (calls the
//! gateway) on a write that could still be lost. A unit that fails rolls back to its savepoint
//! and leaves the rest of the group alone; a failed commit fails the whole group.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, TryRecvError};

use diesel::connection::SimpleConnection;
use diesel::{Connection, SqliteConnection};
use tokio::sync::{Mutex, oneshot};
use vp_ports::StoreError;
use vp_ports::store::StoreResult;

use crate::errors;
use crate::pool::SQLITE_PRAGMAS;

/// The most units of work one group commits: bounds the time the write lock is held.
const GROUP_MAX: usize = 64;

/// Tells a unit of work how its group's commit went (`None`: committed).
type Reply = Box<dyn FnOnce(Option<&str>) + Send>;
/// Runs a unit of work inside the group's transaction and returns how to answer it.
type Job = Box<dyn FnOnce(&mut SqliteConnection) -> Reply + Send>;

pub(crate) struct GroupWriter {
    jobs: Sender<Job>,
}

impl GroupWriter {
    /// Starts the writer thread for the database file `path`. `turn` is the process's SQLite
    /// write turn, taken for each group so the other writers of this process queue behind it.
    /// The thread ends when the writer is dropped.
    pub(crate) fn start(path: String, turn: Arc<Mutex<()>>) -> StoreResult<GroupWriter> {
        let (jobs, queue) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("vp-sqlite-writer".into())
            .spawn(move || write_groups(&path, &turn, &queue))
            .map_err(|e| StoreError::Unavailable(format!("cannot start the SQLite writer: {e}")))?;
        Ok(GroupWriter { jobs })
    }

    /// Runs `work` in the next group; its writes are rolled back alone if it fails.
    pub(crate) async fn run<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut SqliteConnection) -> Result<T, diesel::result::Error> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel::<StoreResult<T>>();
        let job: Job = Box::new(move |c: &mut SqliteConnection| {
            let result = c.transaction(work);
            Box::new(move |failed_commit: Option<&str>| {
                let outcome = match failed_commit {
                    None => result.map_err(errors::db),
                    Some(why) => Err(StoreError::Unavailable(format!("the write was not committed: {why}"))),
                };
                // The caller may have gone (its request was cancelled); nothing to tell then.
                let _ = answer.send(outcome);
            })
        });
        self.jobs.send(job).map_err(|_| StoreError::Unavailable("the SQLite writer has stopped".into()))?;
        answered
            .await
            .map_err(|_| StoreError::Unavailable("the SQLite writer could not run or commit the write".into()))?
    }
}

fn write_groups(path: &str, turn: &Mutex<()>, queue: &Receiver<Job>) {
    let mut conn: Option<SqliteConnection> = None;
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < GROUP_MAX {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            }
        }
        let c = match conn.as_mut() {
            Some(c) => c,
            None => match open(path) {
                Ok(c) => conn.insert(c),
                // Dropping the group answers each unit that the transaction could not open.
                Err(e) => {
                    tracing::error!(error = %e, "the SQLite writer cannot open the database");
                    continue;
                }
            },
        };
        let _turn = turn.blocking_lock();
        let mut replies = Vec::with_capacity(group.len());
        // A unit that panics (a bug) must not take the thread, and every later invoice, with it:
        // the group is dropped unanswered (its callers get an error) and the connection closed,
        // which rolls its transaction back.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            c.immediate_transaction(|c| {
                replies.extend(group.into_iter().map(|job| job(c)));
                Ok::<_, diesel::result::Error>(())
            })
        }));
        let Ok(committed) = run else {
            tracing::error!("an invoice unit of work panicked in the SQLite writer; its group was rolled back");
            conn = None;
            continue;
        };
        let failure = committed.err().map(|e| e.to_string());
        if failure.is_some() {
            // The connection may be left mid-transaction; the next group starts on a new one.
            conn = None;
        }
        for reply in replies {
            reply(failure.as_deref());
        }
    }
}

fn open(path: &str) -> Result<SqliteConnection, String> {
    let mut c = SqliteConnection::establish(path).map_err(|e| e.to_string())?;
    c.batch_execute(SQLITE_PRAGMAS).map_err(|e| e.to_string())?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use diesel::RunQueryDsl;

    use super::*;

    #[tokio::test]
    async fn a_unit_that_panics_fails_alone_and_the_writer_goes_on() {
        let path = std::env::temp_dir().join(format!("vp-writer-{}.sqlite", std::process::id()));
        let path = path.to_string_lossy().into_owned();
        let writer = GroupWriter::start(path.clone(), Arc::default()).unwrap();
        writer.run(|c| diesel::sql_query("CREATE TABLE IF NOT EXISTS t (x INTEGER)").execute(c)).await.unwrap();
        let panicked = writer.run(|_| -> Result<(), diesel::result::Error> { panic!("a bug in a unit of work") }).await;
        assert!(matches!(panicked, Err(StoreError::Unavailable(_))), "{panicked:?}");
        let written = writer.run(|c| diesel::sql_query("INSERT INTO t (x) VALUES (1)").execute(c)).await;
        assert_eq!(written.unwrap(), 1, "the next unit runs on a fresh connection");
        drop(writer);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }
}
