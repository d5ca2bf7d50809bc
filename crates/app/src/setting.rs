//! Reading and writing one setting (a named text value of the `settings` table) in a unit of
//! work of its own, for the use cases that keep their bookkeeping there, and giving up a lease
//! (kept beside the settings) the same way.

use time::OffsetDateTime;
use vp_ports::{Lease, SettingKey, SettingRecord, Store};

use crate::error::{AppError, AppResult};

/// The setting's stored text, if it is set.
pub(crate) async fn read(store: &dyn Store, key: SettingKey) -> AppResult<Option<String>> {
    let mut tx = store.read().await?;
    let value = tx.setting(key).await?.map(|s| s.value);
    tx.commit().await?;
    Ok(value)
}

/// Stores the setting's text.
pub(crate) async fn write(store: &dyn Store, key: SettingKey, value: &str, at: OffsetDateTime) -> AppResult<()> {
    let mut tx = store.begin().await?;
    tx.put_setting(&SettingRecord { key, value: value.to_owned(), updated_at: at }).await?;
    tx.commit().await?;
    Ok(())
}

/// Gives up `lease` if `holder` has it (a clean stop: the next taker need not wait).
pub(crate) async fn release_lease(store: &dyn Store, lease: Lease, holder: &str) -> AppResult<()> {
    let mut tx = store.begin().await?;
    tx.release_lease(lease, holder).await?;
    tx.commit().await?;
    Ok(())
}

/// A setting holding JSON, read into `T`; a value that does not read is a corrupt record.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(key: SettingKey, value: &str) -> AppResult<T> {
    serde_json::from_str(value)
        .map_err(|e| AppError::Store(vp_ports::StoreError::Corrupt(format!("setting {}: {e}", key.name()))))
}
