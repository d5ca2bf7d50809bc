//! Operator settings: named JSON values (applications, documents, stand-in modes, the shifted clock).

use crate::records::SettingRecord;
use async_trait::async_trait;

use super::StoreResult;

#[async_trait]
pub trait SettingsRepo: Send {
    async fn setting(&mut self, key: &str) -> StoreResult<Option<SettingRecord>>;
    async fn put_setting(&mut self, setting: &SettingRecord) -> StoreResult<()>;
}
