//! The embedded local panel's own tables: not part of the core's unit of work, only the local
//! panel adapter reaches them, through a store that also implements `LocalPanelStore`.

use async_trait::async_trait;
use vp_domain::traffic::TrafficCount;

use crate::records::{LocalPanelDevice, LocalPanelUser};
use crate::store::{Store, StoreResult, Tx};

#[async_trait]
pub trait LocalPanelRepo: Send {
    async fn local_panel_put_user(&mut self, user: &LocalPanelUser) -> StoreResult<()>;
    async fn local_panel_user(&mut self, user_ref: &str) -> StoreResult<Option<LocalPanelUser>>;
    async fn local_panel_user_by_token(&mut self, link_token: &str) -> StoreResult<Option<LocalPanelUser>>;
    /// Devices of a user, oldest first.
    async fn local_panel_devices(&mut self, user_ref: &str) -> StoreResult<Vec<LocalPanelDevice>>;
    /// Inserts the device, or updates its details and `last_seen_at` when (user_ref, hwid) exists.
    async fn local_panel_upsert_device(&mut self, device: &LocalPanelDevice) -> StoreResult<()>;
    /// Returns false when the user has no such device.
    async fn local_panel_delete_device(&mut self, user_ref: &str, hwid: &str) -> StoreResult<bool>;
    /// What the user's links served since its count last started; `None` before the first.
    async fn local_panel_traffic(&mut self, user_ref: &str) -> StoreResult<Option<TrafficCount>>;
    async fn local_panel_save_traffic(&mut self, user_ref: &str, count: &TrafficCount) -> StoreResult<()>;
}

/// A unit of work of the local panel: the core's records and the panel's own tables together.
pub trait LocalPanelTx: Tx + LocalPanelRepo {}

impl<T: Tx + LocalPanelRepo + ?Sized> LocalPanelTx for T {}

/// A database that also holds the local panel's tables.
#[async_trait]
pub trait LocalPanelStore: Store {
    /// As `Store::begin`, with the local panel's tables.
    async fn begin_local(&self) -> StoreResult<Box<dyn LocalPanelTx>>;
    /// As `Store::read`, with the local panel's tables.
    async fn read_local(&self) -> StoreResult<Box<dyn LocalPanelTx>>;
    /// As `Store::begin_async_commit`, with the local panel's tables.
    async fn begin_local_async_commit(&self) -> StoreResult<Box<dyn LocalPanelTx>>;
}
