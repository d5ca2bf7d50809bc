//! The database as a whole: a backup while the service runs, and the leases a restored
//! database still holds.

use super::Operator;
use crate::error::AppResult;

impl Operator {
    /// A consistent copy of the database, as of one moment, to the new file `path`, taken
    /// while the service runs (SQLite; PostgreSQL answers which tools do it).
    pub async fn back_up_database(&self, path: &str) -> AppResult<()> {
        Ok(self.store.backup_to(path).await?)
    }

    /// After restoring a backup, before any instance starts: frees the leases the lost
    /// deployment's processes held, so the deliveries they had claimed go out at once rather
    /// than when their leases end (a minute). Returns how many deliveries it freed.
    pub async fn release_leases(&self) -> AppResult<u64> {
        Ok(self.store.release_leases().await?)
    }
}
