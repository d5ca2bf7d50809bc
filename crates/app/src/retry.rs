//! A unit of work the database aborted because it stood in a lock cycle with another (a
//! deadlock, PostgreSQL's 40P01) or could not be serialized (40001) was rolled back whole, so it
//! may simply run again (docs/decisions.md, "Lock order"). Such a unit is retried a few times
//! after short, spread pauses; one that still cannot finish fails with `StoreError::Busy`, which
//! the partner API answers with a retryable `503`.

use std::future::Future;
use std::time::Duration;

use vp_ports::StoreError;

use crate::error::{AppError, AppResult};

/// Runs of one unit of work at most, the first included.
const TRIES: u32 = 4;

/// Runs `unit` until it does not end in `StoreError::Busy`, at most `TRIES` times.
pub(crate) async fn busy_retried<T, F, Fut>(what: &'static str, mut unit: F) -> AppResult<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = AppResult<T>>,
{
    let mut tries = 1;
    loop {
        match unit().await {
            Err(AppError::Store(StoreError::Busy(reason))) if tries < TRIES => {
                tracing::warn!(what, tries, %reason, "a unit of work was aborted by the database; running it again");
                tokio::time::sleep(pause(tries)).await;
                tries += 1;
            }
            done => return done,
        }
    }
}

/// 10, 20, 40 ms, each spread by up to half its length so units that collided once do not
/// collide again in step. The spread needs no randomness of quality: the clock's nanoseconds do.
fn pause(tries: u32) -> Duration {
    let base = 10u64 << (tries - 1).min(4);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    Duration::from_millis(base + u64::from(nanos) % (base / 2 + 1))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    fn busy() -> AppError {
        AppError::Store(StoreError::Busy("deadlock detected".into()))
    }

    #[tokio::test]
    async fn an_aborted_unit_runs_again_until_it_finishes() {
        let runs = AtomicU32::new(0);
        let done = busy_retried("test", || async {
            if runs.fetch_add(1, Ordering::SeqCst) < 2 { Err(busy()) } else { Ok(7) }
        })
        .await;
        assert_eq!((done.ok(), runs.load(Ordering::SeqCst)), (Some(7), 3));
    }

    #[tokio::test]
    async fn a_unit_aborted_every_time_gives_up_busy_after_its_tries() {
        let runs = AtomicU32::new(0);
        let done: AppResult<()> = busy_retried("test", || async {
            runs.fetch_add(1, Ordering::SeqCst);
            Err(busy())
        })
        .await;
        assert!(matches!(done, Err(AppError::Store(StoreError::Busy(_)))));
        assert_eq!(runs.load(Ordering::SeqCst), TRIES);
    }

    #[tokio::test]
    async fn other_failures_are_not_retried() {
        let runs = AtomicU32::new(0);
        let done: AppResult<()> = busy_retried("test", || async {
            runs.fetch_add(1, Ordering::SeqCst);
            Err(AppError::Store(StoreError::Unavailable("down".into())))
        })
        .await;
        assert!(done.is_err());
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn pauses_grow_and_stay_short() {
        for tries in 1..TRIES {
            let p = pause(tries);
            let base = Duration::from_millis(10 << (tries - 1));
            assert!(p >= base && p <= base + base / 2 + Duration::from_millis(1), "{tries}: {p:?}");
        }
    }
}
