//! Operator settings: named JSON values (applications, documents, stand-in modes, the shifted
//! clock), and leases on work one process does at a time.

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::lease::Lease;
use crate::records::SettingRecord;
use crate::setting_key::SettingKey;

use super::StoreResult;

#[async_trait]
pub trait SettingsRepo: Send {
    async fn setting(&mut self, key: SettingKey) -> StoreResult<Option<SettingRecord>>;
    async fn put_setting(&mut self, setting: &SettingRecord) -> StoreResult<()>;
    /// Takes or renews `lease` for `holder` until `until`: granted when nobody holds
    /// it, `holder` does, or the holder's time ran out by `now`. Returns whether `holder`
    /// holds it now; two callers never both get `true` for overlapping times.
    async fn take_lease(
        &mut self,
        lease: Lease,
        holder: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<bool>;
    /// Gives the lease up, if `holder` has it (a clean stop: the next taker need not wait).
    async fn release_lease(&mut self, lease: Lease, holder: &str) -> StoreResult<()>;
}
