//! Devices and the link in the shop: the list with names and when each was added, removal
//! after a confirmation, and a new subscription link. A list's buttons name a device by its
//! index in the list the chat was shown and the list's nonce, never by its id.

use vp_app::AppResult;
use vp_app::bot_shop::{BotShop, Removal, Shopper};
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, PanelDevice};

use super::screens::connect_screen;
use super::{Speak, refusal};
use crate::choice::Choice;

/// How a device is named to its owner: its model, else its platform, else "Device".
fn device_name(device: &PanelDevice, lang: vp_domain::Lang) -> String {
    let named = device.model.as_deref().or(device.platform.as_deref()).map(str::trim).filter(|n| !n.is_empty());
    // A button's text holds 64 characters; "Remove " and the name must fit.
    named.map_or_else(|| text(lang, "shop-device-unknown"), |n| n.chars().take(40).collect())
}

/// The devices as the panel has them now, `before` first (what was just done).
pub(super) async fn list(shop: &BotShop, shopper: &Shopper, before: Option<String>) -> AppResult<BotMessage> {
    let lang = shopper.lang;
    let list = match shop.devices(shopper).await {
        Ok(list) => list,
        Err(e) => return Ok(refusal(shopper, e)),
    };
    let view = &list.devices;
    let mut lines: Vec<String> = before.into_iter().collect();
    lines.extend(super::several::heading(shop, shopper).await?);
    lines.push(match view.devices_limit {
        Some(limit) => text_with(lang, "shop-devices", &[("used", view.devices_count.into()), ("limit", limit.into())]),
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
            &[("name", name.as_str().into()), ("day", shopper.account.time_zone.day(device.created_at).into())],
        ));
        let label = text_with(lang, "shop-device-remove", &[("name", name.as_str().into())]);
        buttons.push(shopper.press(label, &Choice::RemoveAsk { nonce: list.nonce.clone(), index }));
    }
    buttons.push(shopper.back());
    Ok(shopper.message(lines.join("\n"), buttons))
}

pub(super) async fn confirm_removal(
    shop: &BotShop,
    shopper: &Shopper,
    nonce: &str,
    index: usize,
) -> AppResult<BotMessage> {
    let Some(device) = shop.listed_device(shopper, nonce, index).await? else {
        return list(shop, shopper, Some(text(shopper.lang, "shop-device-list-old"))).await;
    };
    let name = device_name(&device, shopper.lang);
    let body = text_with(shopper.lang, "shop-device-confirm", &[("name", name.as_str().into())]);
    let yes = shopper.button("shop-device-confirm-yes", &Choice::Remove { nonce: nonce.to_owned(), index });
    let back = shopper.button("shop-menu-devices", &Choice::Devices);
    Ok(shopper.message(body, vec![yes, back]))
}

/// Removes the device, then lists again.
pub(super) async fn remove(shop: &BotShop, shopper: &Shopper, nonce: &str, index: usize) -> AppResult<BotMessage> {
    match shop.remove_device(shopper, nonce, index).await {
        Ok(Removal::Stale) => list(shop, shopper, Some(text(shopper.lang, "shop-device-list-old"))).await,
        Ok(Removal::Removed(device)) => {
            let name = device_name(&device, shopper.lang);
            let done = text_with(shopper.lang, "shop-device-removed", &[("name", name.as_str().into())]);
            list(shop, shopper, Some(done)).await
        }
        Err(e) => Ok(refusal(shopper, e)),
    }
}

/// A new subscription link; within the hour the time left is said instead.
pub(super) async fn new_link(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    match shop.new_link(shopper).await {
        Ok(connect) => {
            let done = text(shopper.lang, "shop-new-link-done");
            let said = match super::several::heading(shop, shopper).await? {
                Some(heading) => format!("{heading}\n{done}"),
                None => done,
            };
            Ok(connect_screen(shopper, connect.as_ref(), Some(said)))
        }
        Err(e) => Ok(refusal(shopper, e)),
    }
}
