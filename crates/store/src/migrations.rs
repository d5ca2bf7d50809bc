//! Embedded schema migrations, one set per backend, run on a blocking thread because
//! diesel's migration harness is synchronous.

use diesel::Connection;
use diesel::backend::Backend;
use diesel::migration::MigrationSource;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use vp_ports::StoreError;
use vp_ports::store::StoreResult;

use crate::errors;
use crate::pool::{PgConn, SQLITE_PRAGMAS, ensure_parent_dir};
use crate::url::{Target, parse};

const SQLITE: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

enum Direction {
    Up,
    DownAll,
}

/// Applies pending migrations; returns the versions applied now (empty when up to date).
pub async fn migrate(database_url: &str) -> Result<Vec<String>, StoreError> {
    run(database_url, Direction::Up).await
}

/// Reverts every applied migration (for the up/down/up test).
pub async fn revert_all(database_url: &str) -> Result<(), StoreError> {
    run(database_url, Direction::DownAll).await.map(|_| ())
}

async fn run(database_url: &str, direction: Direction) -> StoreResult<Vec<String>> {
    let target = parse(database_url)?;
    let task = tokio::task::spawn_blocking(move || match target {
        Target::Sqlite(path) => {
            ensure_parent_dir(&path)?;
            // Already on a blocking thread: the plain synchronous connection is enough here.
            let mut conn = diesel::SqliteConnection::establish(&path.to_string_lossy()).map_err(errors::connection)?;
            diesel::connection::SimpleConnection::batch_execute(&mut conn, SQLITE_PRAGMAS).map_err(errors::db)?;
            apply(&mut conn, SQLITE, direction)
        }
        Target::Postgres(url) => {
            let mut conn = AsyncConnectionWrapper::<PgConn>::establish(&url).map_err(errors::connection)?;
            apply(&mut conn, POSTGRES, direction)
        }
    });
    task.await.map_err(|e| StoreError::Unavailable(format!("migration task failed: {e}")))?
}

fn apply<DB, H, S>(conn: &mut H, source: S, direction: Direction) -> StoreResult<Vec<String>>
where
    DB: Backend,
    H: MigrationHarness<DB>,
    S: MigrationSource<DB>,
{
    let failed =
        |e: Box<dyn std::error::Error + Send + Sync>| StoreError::Unavailable(format!("migration failed: {e}"));
    match direction {
        Direction::Up => {
            let applied = conn.run_pending_migrations(source).map_err(failed)?;
            Ok(applied.into_iter().map(|v| v.to_string()).collect())
        }
        Direction::DownAll => {
            let reverted = conn.revert_all_migrations(source).map_err(failed)?;
            Ok(reverted.into_iter().map(|v| v.to_string()).collect())
        }
    }
}
