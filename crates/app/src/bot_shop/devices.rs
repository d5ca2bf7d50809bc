//! Devices and the link in the shop: the list, removal after a confirmation, and a new
//! subscription link (the spec's rotation, once an hour). A list's buttons name a device by its
//! index in the list the chat was shown and the list's nonce: Telegram's 64 bytes cannot carry a
//! device id, and a press on an older list (the devices changed since) removes nothing.

use vp_ports::{BotDeviceList, PanelDevice};

use super::{BotShop, Shopper};
use crate::bots::wording::Connect;
use crate::error::AppResult;
use crate::views::DevicesView;

/// The nonce's length: enough that an old list's buttons never match a new one's.
const NONCE_LEN: usize = 8;

/// The devices as the panel has them now, kept as the chat's current list under `nonce`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceList {
    pub nonce: String,
    pub devices: DevicesView,
}

/// What a removal press came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// The list pressed on is not the chat's current one, or the panel has no such device now.
    Stale,
    Removed(PanelDevice),
}

impl BotShop {
    /// The devices as the panel has them now, kept as the chat's current list.
    pub async fn devices(&self, shopper: &Shopper) -> AppResult<DeviceList> {
        let devices = self.clients.client_devices(&shopper.account, &shopper.client_id).await?;
        let nonce: String = self.tokens.random().chars().take(NONCE_LEN).collect();
        let mut tx = self.store.begin().await?;
        tx.save_device_list(&BotDeviceList {
            account_id: shopper.account.id.clone(),
            chat_id: shopper.chat_id,
            nonce: nonce.clone(),
            device_ids: devices.devices.iter().map(|d| d.hwid.clone()).collect(),
            listed_at: self.clock.now(),
        })
        .await?;
        tx.commit().await?;
        Ok(DeviceList { nonce, devices })
    }

    /// The device at `index` of the chat's current list `nonce`; `None` when the list is not
    /// the current one any more, or the panel has no such device now.
    pub async fn listed_device(&self, shopper: &Shopper, nonce: &str, index: usize) -> AppResult<Option<PanelDevice>> {
        let list = read!(self.store, |tx| tx.device_list(&shopper.account.id, shopper.chat_id));
        let Some(id) = list.filter(|l| l.nonce == nonce).and_then(|l| l.device_ids.get(index).cloned()) else {
            return Ok(None);
        };
        let devices = match self.clients.client_devices(&shopper.account, &shopper.client_id).await {
            Ok(view) => view.devices,
            Err(_) => return Ok(None),
        };
        Ok(devices.into_iter().find(|d| d.hwid == id))
    }

    /// Removes the listed device (`DELETE /clients/{id}/devices/{device_id}`).
    pub async fn remove_device(&self, shopper: &Shopper, nonce: &str, index: usize) -> AppResult<Removal> {
        let Some(device) = self.listed_device(shopper, nonce, index).await? else { return Ok(Removal::Stale) };
        self.admit(shopper, false).await?;
        self.clients.delete_client_device(&shopper.account, &shopper.client_id, &device.hwid).await?;
        Ok(Removal::Removed(device))
    }

    /// A new subscription link (`POST /clients/{id}/rotate-link`), then how to connect with it.
    pub async fn new_link(&self, shopper: &Shopper) -> AppResult<Option<Connect>> {
        self.admit(shopper, false).await?;
        self.clients.rotate_link(&shopper.account, &shopper.client_id).await?;
        self.connect(shopper).await
    }
}
