//! The shop's screens that show rather than change: the menu, the plans, the device offer, the
//! subscription, how to connect, and help with the documents.

use vp_app::AppResult;
use vp_app::bot_shop::{BotShop, DeviceOffer, InviteLink, Shopper};
use vp_app::views::{PanelUse, SubscriptionView, plan_offer};
use vp_domain::Lang;
use vp_domain::devices::DevicePurchaseRefused;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button};

use super::Speak;
use crate::choice::Choice;
use crate::connect::connect_message;

/// The welcome and the menu: the trial only while this client could still take one.
pub(crate) async fn menu(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    // The menu's buttons name no subscription: "Buy" and the others ask which.
    let shopper = &Shopper { target: None, name: None, ..shopper.clone() };
    let menu = shop.menu(shopper).await?;
    let mut buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans)];
    if menu.trial {
        buttons.push(shopper.button("shop-menu-trial", &Choice::Trial));
    }
    buttons.extend([
        shopper.button("shop-menu-subscription", &Choice::Subscription),
        shopper.button("shop-menu-devices", &Choice::Devices),
    ]);
    buttons.push(shopper.button("shop-menu-gift", &Choice::GiftPlans));
    if menu.invite {
        buttons.push(shopper.button("shop-menu-invite", &Choice::Invite));
    }
    buttons.extend([
        shopper.button("shop-menu-help", &Choice::Help),
        shopper.button("shop-menu-language", &Choice::Language),
    ]);
    Ok(shopper.message(shopper.say("shop-welcome"), buttons))
}

/// "Invite a friend": the shopper's personal link and what a friend's first payment gives.
pub(super) async fn invite(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    match shop.invite_link(shopper).await? {
        // Turned off since the menu was shown.
        InviteLink::Off => menu(shop, shopper).await,
        InviteLink::NeedsClient => {
            let buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans), shopper.back()];
            Ok(shopper.message(shopper.say("shop-invite-needs-client"), buttons))
        }
        InviteLink::Link(link) => {
            let args = [("days", link.days.days().into()), ("link", link.url.as_str().into())];
            let share = Button::link(text(shopper.lang, "shop-invite-share"), share_url(&link.url));
            Ok(shopper.message(text_with(shopper.lang, "shop-invite", &args), vec![share, shopper.back()]))
        }
    }
}

/// Telegram's "share" page for `link`: the person picks the chats to send it to.
pub(super) fn share_url(link: &str) -> String {
    let encoded: String = link
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => char::from(b).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect();
    format!("https://t.me/share/url?url={encoded}")
}

/// Each plan with its term and price (the invoice's amount), and the device offer.
pub(crate) async fn plans(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let lang = shopper.lang;
    let list = shop.plans(shopper).await?;
    if list.plans.is_empty() {
        return Ok(shopper.message(shopper.say("shop-plans-none"), vec![shopper.back()]));
    }
    let mut body = shopper.say("shop-plans");
    if let Some(heading) = super::several::heading(shop, shopper).await? {
        body = format!("{heading}\n\n{body}");
    }
    if let Some(devices) = &list.devices {
        body.push_str("\n\n");
        body.push_str(&text_with(
            lang,
            "shop-device-offer",
            &[
                ("price", devices.price.customer.into()),
                ("included", devices.included.into()),
                ("max", devices.max.into()),
            ],
        ));
    }
    let mut buttons: Vec<Button> = list
        .plans
        .iter()
        .zip(list.savings())
        .map(|(p, saving)| {
            let label = plan_offer(lang, p, saving);
            shopper.press(label, &Choice::Buy { plan_id: p.plan.plan_id, method: None })
        })
        .collect();
    match &shopper.promo_code {
        Some(code) => {
            body.push_str("\n\n");
            body.push_str(&text_with(lang, "shop-promo-kept", &[("code", code.as_str().into())]));
        }
        None => buttons.push(shopper.button("shop-promo-button", &Choice::PromoAsk)),
    }
    buttons.push(shopper.back());
    Ok(shopper.message(body, buttons))
}

/// How many devices to add, each choice with its exact amount, up to the ceiling.
pub(super) async fn device_offer(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let lang = shopper.lang;
    let refused = |key: &str| Ok(shopper.message(shopper.say(key), vec![shopper.back()]));
    let (each, choices) = match shop.device_offer(shopper).await? {
        DeviceOffer::ForSale { each, choices } => (each, choices),
        DeviceOffer::Refused(DevicePurchaseRefused::LimitExceeded { .. }) => return refused("shop-devices-at-limit"),
        DeviceOffer::Refused(DevicePurchaseRefused::NoActiveSubscription) => return refused("shop-needs-subscription"),
        DeviceOffer::Refused(DevicePurchaseRefused::NotApplicable) => return refused("shop-devices-no-limit"),
        DeviceOffer::Refused(DevicePurchaseRefused::NotForSale) => return refused("shop-devices-not-for-sale"),
    };
    let mut buttons: Vec<Button> = choices
        .into_iter()
        .map(|(count, amount)| {
            let label =
                text_with(lang, "shop-devices-count", &[("count", count.into()), ("amount", amount.customer.into())]);
            shopper.press(label, &Choice::BuyDevices { count, method: None })
        })
        .collect();
    buttons.push(shopper.back());
    let body = text_with(lang, "shop-devices-choose", &[("price", each.customer.into())]);
    Ok(shopper.message(body, buttons))
}

/// Status, expiry, days left and devices used of the limit, with what can be done next.
pub(super) async fn subscription(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let Some(summary) = shop.subscription(shopper).await? else {
        let buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans), shopper.back()];
        return Ok(shopper.message(shopper.say("shop-subscription-none"), buttons));
    };
    let mut body = subscription_lines(&summary.subscription, summary.used, shopper.lang);
    if let Some(heading) = super::several::heading(shop, shopper).await? {
        body = format!("{heading}\n{body}");
    }
    let mut buttons = Vec::new();
    if let Some(renewal) = &summary.auto_renewal {
        let charge = [("amount", renewal.amount.into()), ("day", renewal.on.into())];
        body = format!("{body}\n{}", text_with(shopper.lang, "shop-auto-renew-on", &charge));
        buttons.push(shopper.button("shop-auto-renew-off", &Choice::AutoRenewOff));
    }
    if let Some(renewal) = &summary.stars_renewal {
        let charge = [("stars", renewal.stars.into()), ("day", renewal.around.into())];
        body = format!("{body}\n{}", text_with(shopper.lang, "shop-stars-renewing", &charge));
        if summary.auto_renewal.is_none() {
            buttons.push(shopper.button("shop-auto-renew-off", &Choice::AutoRenewOff));
        }
    }
    if !summary.subscription.lifetime {
        buttons.push(shopper.button("shop-renew", &Choice::Plans));
    }
    if summary.devices_for_sale {
        buttons.push(shopper.button("shop-add-devices", &Choice::DeviceOffer));
    }
    buttons.extend([
        shopper.button("shop-connect-button", &Choice::Connect),
        shopper.button("shop-new-link", &Choice::NewLink),
        shopper.button("shop-menu-devices", &Choice::Devices),
        shopper.back(),
    ]);
    Ok(shopper.message(body, buttons))
}

/// "Turn off automatic renewal": off at once, and said so (with a charge already under way,
/// that it completes).
pub(super) async fn auto_renew_off(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let key = match shop.turn_off_auto_renew(shopper).await? {
        Some(off) if off.charge_under_way => "shop-auto-renew-off-under-way",
        Some(_) => "shop-auto-renew-off-done",
        None => "shop-subscription-none",
    };
    let buttons = vec![shopper.button("shop-menu-subscription", &Choice::Subscription), shopper.back()];
    Ok(shopper.message(shopper.say(key), buttons))
}

/// The subscription link, the connect page's button and the QR code.
pub(super) async fn connect(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let connect = shop.connect(shopper).await?;
    let heading = super::several::heading(shop, shopper).await?;
    Ok(connect_screen(shopper, connect.as_ref(), heading))
}

/// How to connect, `before` first (a trial started, a new link); "no subscription" without one.
pub(super) fn connect_screen(
    shopper: &Shopper,
    connect: Option<&vp_app::bots::wording::Connect>,
    before: Option<String>,
) -> BotMessage {
    match connect {
        Some(connect) => {
            connect_message(shopper.chat_id, shopper.lang, connect, before.unwrap_or_default(), shopper.back())
        }
        None => shopper.message(shopper.say("shop-subscription-none"), vec![shopper.back()]),
    }
}

/// The support address, the account's documents (the terms carry the refund policy), and
/// the language switch.
pub(crate) async fn help(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let lang = shopper.lang;
    let mut buttons = Vec::new();
    for doc in shop.documents(shopper).await? {
        let key = if doc.doc_type == "terms_of_service" { "shop-documents-terms" } else { "shop-documents-privacy" };
        buttons.push(Button::link(text(lang, key), doc.url));
    }
    let mut body = shopper.say("shop-help");
    body.push_str("\n\n");
    body.push_str(&shopper.say("bot-help"));
    if let Some(support) = &shopper.account.style.support_url {
        body.push_str("\n\n");
        body.push_str(&text_with(lang, "bot-help-support", &[("support", support.as_str().into())]));
        if support.starts_with("https://") || support.starts_with("tg://") {
            buttons.push(Button::link(text(lang, "shop-support"), support.clone()));
        }
    }
    buttons.push(shopper.button("shop-menu-language", &Choice::Language));
    buttons.push(shopper.back());
    Ok(shopper.message(body, buttons))
}

/// A subscription's status, until when, devices and traffic, a line each, as the bot words
/// them; what the panel counts is left out when it did not answer.
pub(crate) fn subscription_lines(sub: &SubscriptionView, used: PanelUse, lang: Lang) -> String {
    let state = sub.state(lang, used);
    let mut lines = vec![
        format!("{}: {}", text(lang, "page-subscription-status"), state.status),
        format!("{}: {}", text(lang, "page-subscription-valid-until"), state.until),
        format!("{}: {}", text(lang, "page-subscription-devices"), state.devices),
    ];
    lines.extend(state.traffic.map(|t| format!("{}: {t}", text(lang, "page-subscription-traffic"))));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::share_url;

    #[test]
    fn the_share_page_carries_the_personal_link_encoded() {
        assert_eq!(
            share_url("https://t.me/demo_vpn_bot?start=ref-Ab3_-xYz0123"),
            "https://t.me/share/url?url=https%3A%2F%2Ft.me%2Fdemo_vpn_bot%3Fstart%3Dref-Ab3_-xYz0123"
        );
    }
}
