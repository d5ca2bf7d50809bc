//! Reading and writing one setting (a named text value of the `settings` table) in a unit of
//! work of its own, for the use cases that keep their bookkeeping there.

use time::OffsetDateTime;
use vp_ports::{SettingKey, SettingRecord, Store};

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

/// A setting holding JSON, read into `T`; a value that does not read is a corrupt record.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(key: SettingKey, value: &str) -> AppResult<T> {
    serde_json::from_str(value)
        .map_err(|e| AppError::Store(vp_ports::StoreError::Corrupt(format!("setting {}: {e}", key.name()))))
}
