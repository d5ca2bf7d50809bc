//! The person's several subscriptions in the shop (docs/decisions.md, "Several subscriptions
//! per person"): "Buy" asks which to extend or whether to start a new one, "My subscription"
//! and "My devices" ask which once there are several, and "New subscription" asks its name.
//! Each choice's button carries the subscription's number, so what follows acts on that one.

use vp_app::AppResult;
use vp_app::bot_shop::{BotShop, NAME_MAX_CHARS, NewSubscription, OwnSubscription, SUBSCRIPTIONS_PER_PERSON, Shopper};
use vp_domain::Lang;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button};

use super::Speak;
use super::screens::subscription_lines;
use crate::choice::{Choice, press_data};

/// How a subscription is called to its person: the name they gave, or the first's number.
pub(crate) fn subscription_heading(lang: Lang, name: Option<&str>) -> String {
    match name {
        Some(name) => text_with(lang, "shop-subscription-named", &[("name", name.into())]),
        None => text_with(lang, "bot-subscription-numbered", &[("number", 1u32.into())]),
    }
}

/// The heading of the screen about the shopper's subscription, once they hold several.
pub(crate) async fn heading(shop: &BotShop, shopper: &Shopper) -> AppResult<Option<String>> {
    Ok(match shopper.target {
        Some(t) if t > 0 => Some(subscription_heading(shopper.lang, shopper.name.as_deref())),
        Some(_) if shop.holds_several(shopper).await? => Some(subscription_heading(shopper.lang, None)),
        _ => None,
    })
}

/// "Buy" from the menu: which subscription to extend, or a new one; the plans at once for a
/// person who holds none yet (`None`).
pub(crate) async fn extend_which(shop: &BotShop, shopper: &Shopper) -> AppResult<Option<BotMessage>> {
    let own = shop.own_subscriptions(shopper).await?;
    // Nothing to extend before the first is paid for: the plans at once.
    if own.iter().all(|s| s.subscription.is_none()) {
        return Ok(None);
    }
    let lang = shopper.lang;
    let only = own.len() == 1;
    let mut buttons: Vec<Button> = own
        .iter()
        .filter(|s| s.subscription.as_ref().is_none_or(|s| !s.lifetime))
        .map(|s| {
            let label = match only {
                true => text(lang, "shop-extend-current"),
                false => {
                    let name = subscription_heading(lang, s.name.as_deref());
                    text_with(lang, "shop-extend", &[("name", name.as_str().into())])
                }
            };
            Button::press(label, press_data(&Choice::Plans, Some(s.target)))
        })
        .collect();
    buttons.push(shopper.button("shop-menu-new-subscription", &Choice::NewSubscription));
    buttons.push(shopper.back());
    Ok(Some(shopper.message(text(lang, "shop-extend-which"), buttons)))
}

/// "My subscription" or "My devices" from the menu once the person holds several: each with
/// its state, a button each to go on with (`choice`) for that one; `None` with one or none.
pub(crate) async fn which(shop: &BotShop, shopper: &Shopper, choice: &Choice) -> AppResult<Option<BotMessage>> {
    let own = shop.own_subscriptions(shopper).await?;
    if own.len() < 2 {
        return Ok(None);
    }
    let lang = shopper.lang;
    let lines: Vec<String> = own.iter().map(|s| listed(lang, s)).collect();
    let mut buttons: Vec<Button> = own
        .iter()
        .map(|s| Button::press(subscription_heading(lang, s.name.as_deref()), press_data(choice, Some(s.target))))
        .collect();
    buttons.push(shopper.back());
    let body = format!("{}\n\n{}", text(lang, "shop-subscriptions"), lines.join("\n\n"));
    Ok(Some(shopper.message(body, buttons)))
}

/// One subscription in the list: its heading, then its state (or that it is not paid yet).
fn listed(lang: Lang, own: &OwnSubscription) -> String {
    let heading = subscription_heading(lang, own.name.as_deref());
    match &own.subscription {
        Some(sub) => format!("{heading}\n{}", subscription_lines(sub, Default::default(), lang)),
        None => format!("{heading}\n{}", text(lang, "bot-subscription-not-yet")),
    }
}

/// "New subscription": asks its name, or says why not.
pub(crate) async fn new_subscription(shop: &BotShop, shopper: &Shopper) -> AppResult<BotMessage> {
    let lang = shopper.lang;
    Ok(match shop.new_subscription(shopper).await? {
        NewSubscription::AskName => {
            let body = text_with(lang, "shop-new-subscription-ask", &[("max", NAME_MAX_CHARS.into())]);
            shopper.message(body, vec![shopper.back()])
        }
        NewSubscription::FirstFirst => return super::screens::plans(shop, shopper).await,
        NewSubscription::TooMany => {
            let body = text_with(lang, "shop-new-subscription-too-many", &[("count", SUBSCRIPTIONS_PER_PERSON.into())]);
            shopper.message(body, vec![shopper.back()])
        }
    })
}

/// The person wrote what cannot be a name: asked again.
pub(crate) fn name_refused(shopper: &Shopper) -> BotMessage {
    let body = text_with(shopper.lang, "shop-new-subscription-name-refused", &[("max", NAME_MAX_CHARS.into())]);
    shopper.message(body, vec![shopper.back()])
}
