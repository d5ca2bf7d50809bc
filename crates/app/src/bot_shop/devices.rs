//! Devices and the link in the shop: the list with names and when each was added, removal
//! after a confirmation, and a new subscription link (the spec's rotation, once an hour).
//! A list's buttons name a device by its index in the list the chat was shown and the list's
//! nonce: Telegram's 64 bytes cannot carry a device id, and a press on an older list (the
//! devices changed since) removes nothing.

use vp_i18n::{text, text_with};
use vp_ports::{BotDeviceList, BotMessage, Button, PanelDevice};

use super::{Choice, Shopper};
use crate::App;
use crate::error::AppResult;

/// The nonce's length: enough that an old list's buttons never match a new one's.
const NONCE_LEN: usize = 8;

/// How a device is named to its owner: its model, else its platform, else "Device".
fn device_name(device: &PanelDevice, lang: vp_domain::Lang) -> String {
    let named = device.model.as_deref().or(device.platform.as_deref()).map(str::trim).filter(|n| !n.is_empty());
    // A button's text holds 64 characters; "Remove " and the name must fit.
    named.map_or_else(|| text(lang, "shop-device-unknown"), |n| n.chars().take(40).collect())
}

impl App {
    /// The devices as the panel has them now, kept as the chat's current list.
    pub(crate) async fn devices_screen(&self, shopper: &Shopper, before: Option<String>) -> AppResult<BotMessage> {
        let lang = shopper.lang;
        let view = match self.client_devices(&shopper.account, &shopper.client_id).await {
            Ok(view) => view,
            Err(e) => return Ok(self.refusal_message(shopper, e)),
        };
        let nonce: String = self.random_token().chars().take(NONCE_LEN).collect();
        let mut tx = self.store.begin().await?;
        tx.save_device_list(&BotDeviceList {
            account_id: shopper.account.id.clone(),
            chat_id: shopper.chat_id,
            nonce: nonce.clone(),
            device_ids: view.devices.iter().map(|d| d.hwid.clone()).collect(),
            listed_at: self.clock.now(),
        })
        .await?;
        tx.commit().await?;
        let mut lines: Vec<String> = before.into_iter().collect();
        lines.push(match view.devices_limit {
            Some(limit) => {
                text_with(lang, "shop-devices", &[("used", view.devices_count.into()), ("limit", limit.into())])
            }
            None => text_with(lang, "shop-devices-unlimited", &[("used", view.devices_count.into())]),
        });
        if view.devices.is_empty() {
            lines.push(text(lang, "shop-devices-none"));
        }
        let mut buttons = Vec::new();
        for (index, device) in view.devices.iter().enumerate() {
            let name = device_name(device, lang);
            lines.push(text_with(
                lang,
                "shop-device",
                &[("name", name.as_str().into()), ("day", device.created_at.date().into())],
            ));
            let label = text_with(lang, "shop-device-remove", &[("name", name.as_str().into())]);
            buttons.push(Button::press(label, Choice::RemoveAsk { nonce: nonce.clone(), index }.data()));
        }
        buttons.push(shopper.back());
        Ok(shopper.message(lines.join("\n"), buttons))
    }

    /// The device at `index` of the chat's current list `nonce`, with its name; `None` when
    /// the list is not the current one any more, or the panel has no such device now.
    async fn listed_device(&self, shopper: &Shopper, nonce: &str, index: usize) -> AppResult<Option<PanelDevice>> {
        let mut tx = self.store.read().await?;
        let list = tx.device_list(&shopper.account.id, shopper.chat_id).await?;
        tx.commit().await?;
        let Some(id) = list.filter(|l| l.nonce == nonce).and_then(|l| l.device_ids.get(index).cloned()) else {
            return Ok(None);
        };
        let devices = match self.client_devices(&shopper.account, &shopper.client_id).await {
            Ok(view) => view.devices,
            Err(_) => return Ok(None),
        };
        Ok(devices.into_iter().find(|d| d.hwid == id))
    }

    pub(crate) async fn confirm_removal(&self, shopper: &Shopper, nonce: &str, index: usize) -> AppResult<BotMessage> {
        let Some(device) = self.listed_device(shopper, nonce, index).await? else {
            return self.devices_screen(shopper, Some(text(shopper.lang, "shop-device-list-old"))).await;
        };
        let name = device_name(&device, shopper.lang);
        let body = text_with(shopper.lang, "shop-device-confirm", &[("name", name.as_str().into())]);
        let yes = shopper.button("shop-device-confirm-yes", &Choice::Remove { nonce: nonce.to_owned(), index });
        let back = shopper.button("shop-menu-devices", &Choice::Devices);
        Ok(shopper.message(body, vec![yes, back]))
    }

    /// Removes the device (`DELETE /clients/{id}/devices/{device_id}`), then lists again.
    pub(crate) async fn remove_device(&self, shopper: &Shopper, nonce: &str, index: usize) -> AppResult<BotMessage> {
        let Some(device) = self.listed_device(shopper, nonce, index).await? else {
            return self.devices_screen(shopper, Some(text(shopper.lang, "shop-device-list-old"))).await;
        };
        if let Err(refused) = self.admit_action(shopper, false).await {
            return Ok(refused);
        }
        match self.delete_client_device(&shopper.account, &shopper.client_id, &device.hwid).await {
            Ok(()) => {
                let name = device_name(&device, shopper.lang);
                let done = text_with(shopper.lang, "shop-device-removed", &[("name", name.as_str().into())]);
                self.devices_screen(shopper, Some(done)).await
            }
            Err(e) => Ok(self.refusal_message(shopper, e)),
        }
    }

    /// A new subscription link (`POST /clients/{id}/rotate-link`); within the hour the time
    /// left is said instead.
    pub(crate) async fn new_link(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        if let Err(refused) = self.admit_action(shopper, false).await {
            return Ok(refused);
        }
        match self.rotate_link(&shopper.account, &shopper.client_id).await {
            Ok(_) => self.connect_screen(shopper, Some(&text(shopper.lang, "shop-new-link-done"))).await,
            Err(e) => Ok(self.refusal_message(shopper, e)),
        }
    }
}
