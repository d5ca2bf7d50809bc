//! The shop's screens: a press on one of its buttons (`Choice`) calls the shop's use case and
//! words what it returns. A blocked client gets the refusal and nothing else; a press on data
//! the shop never made gets the menu; a refusal is worded from its typed reason, and a failure
//! of the platform's own parts is "try again later" (logged), never silence.

mod buying;
mod devices;
mod gift;
mod screens;
mod several;

use vp_app::bot_shop::{BotShop, Shopper};
use vp_app::{AppError, AppResult, Refusal};
use vp_domain::Purpose;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button, ButtonPress};

pub(crate) use gift::{gift_links_message, redeem as redeem_gift};
pub(crate) use screens::{help, menu, plans, subscription_lines};
pub(crate) use several::{name_refused, subscription_heading};

use crate::choice::{Choice, parse_press, press_data};

/// How the shop speaks to a shopper: in their language, under the brand.
pub(crate) trait Speak {
    fn say(&self, key: &str) -> String;
    fn message(&self, text: impl Into<String>, buttons: Vec<Button>) -> BotMessage;
    fn button(&self, key: &str, choice: &Choice) -> Button;
    /// A button labelled `label` for `choice`, on the subscription the screen is about.
    fn press(&self, label: String, choice: &Choice) -> Button;
    fn back(&self) -> Button;
}

impl Speak for Shopper {
    fn say(&self, key: &str) -> String {
        text_with(self.lang, key, &[("brand", self.account.brand_name.as_str().into())])
    }

    fn message(&self, text: impl Into<String>, buttons: Vec<Button>) -> BotMessage {
        BotMessage::text(self.chat_id, text).with_buttons(buttons)
    }

    fn button(&self, key: &str, choice: &Choice) -> Button {
        self.press(text(self.lang, key), choice)
    }

    fn press(&self, label: String, choice: &Choice) -> Button {
        Button::press(label, press_data(choice, self.target))
    }

    fn back(&self) -> Button {
        self.button("shop-menu-back", &Choice::Menu)
    }
}

/// What a blocked client gets, and nothing else.
pub(crate) fn blocked(shopper: &Shopper) -> BotMessage {
    shopper.message(shopper.say("shop-blocked"), vec![])
}

/// Answers a press on one of the shop's buttons.
pub(crate) async fn pressed(shop: &BotShop, shopper: &Shopper, press: &ButtonPress) -> BotMessage {
    match answer(shop, shopper, press).await {
        Ok(answer) => answer,
        Err(e) => refusal(shopper, e),
    }
}

async fn answer(shop: &BotShop, shopper: &Shopper, press: &ButtonPress) -> AppResult<BotMessage> {
    if shop.is_blocked(shopper).await? {
        return Ok(blocked(shopper));
    }
    let Some((choice, target)) = parse_press(&press.data) else {
        return menu(shop, shopper).await;
    };
    // A press names the subscription it acts on; one the person does not hold gets the menu.
    let named;
    let shopper = match target {
        Some(target) => match shop.at(shopper.clone(), target).await? {
            Some(at) => {
                named = at;
                &named
            }
            None => return menu(shop, shopper).await,
        },
        None => shopper,
    };
    // From the menu, "Buy", "My subscription" and "My devices" ask which once there is a choice.
    if shopper.target.is_none() {
        let asked = match &choice {
            Choice::Plans => several::extend_which(shop, shopper).await?,
            Choice::Subscription | Choice::Devices => several::which(shop, shopper, &choice).await?,
            _ => None,
        };
        if let Some(asked) = asked {
            return Ok(asked);
        }
    }
    // What follows acts on the one named, the first when none: its screen's buttons say so.
    let first;
    let shopper = match (shopper.target, choice.scoped()) {
        (None, true) => {
            first = Shopper { target: Some(0), ..shopper.clone() };
            &first
        }
        _ => shopper,
    };
    match choice {
        Choice::Menu | Choice::Language => menu(shop, shopper).await,
        Choice::Plans => screens::plans(shop, shopper).await,
        Choice::Buy { plan_id, method } => {
            let choose = |method| Choice::Buy { plan_id, method: Some(method) };
            buying::buy(shop, shopper, press, Purpose::Subscription { plan_id }, method, choose).await
        }
        Choice::DeviceOffer => screens::device_offer(shop, shopper).await,
        Choice::BuyDevices { count, method } => {
            let choose = |method| Choice::BuyDevices { count, method: Some(method) };
            buying::buy(shop, shopper, press, Purpose::Devices { count }, method, choose).await
        }
        Choice::Trial => buying::trial(shop, shopper).await,
        Choice::Subscription => screens::subscription(shop, shopper).await,
        Choice::AutoRenewOff => screens::auto_renew_off(shop, shopper).await,
        Choice::RenewOn { payment_id } => buying::renew_on(shop, shopper, &payment_id).await,
        Choice::Connect => screens::connect(shop, shopper).await,
        Choice::NewLink => devices::new_link(shop, shopper).await,
        Choice::Devices => devices::list(shop, shopper, None).await,
        Choice::RemoveAsk { nonce, index } => devices::confirm_removal(shop, shopper, &nonce, index).await,
        Choice::Remove { nonce, index } => devices::remove(shop, shopper, &nonce, index).await,
        Choice::Help => help(shop, shopper).await,
        Choice::Invite => screens::invite(shop, shopper).await,
        Choice::NewSubscription => several::new_subscription(shop, shopper).await,
        Choice::GiftPlans => gift::plans(shop, shopper).await,
        Choice::Gift { plan_id, method } => gift::buy(shop, shopper, press, plan_id, method).await,
        Choice::PromoAsk => {
            shop.ask_promo(shopper).await?;
            Ok(shopper.message(shopper.say("shop-promo-ask"), vec![shopper.back()]))
        }
    }
}

/// A use case's refusal in the shopper's words, with the menu button; failures of the
/// platform's own parts become "try again later" (and are logged).
pub(crate) fn refusal(shopper: &Shopper, e: AppError) -> BotMessage {
    let key = match &e {
        AppError::Refused(r) => match r {
            Refusal::ClientBlocked => "shop-blocked",
            Refusal::LifetimeSubscription => "shop-lifetime-owned",
            Refusal::NoActiveSubscription | Refusal::ClientNotFound => "shop-needs-subscription",
            Refusal::DeviceSlotLimitExceeded => "shop-devices-at-limit",
            Refusal::DeviceSlotsNotApplicable => "shop-devices-no-limit",
            Refusal::DevicesNotForSale => "shop-devices-not-for-sale",
            Refusal::NewClientsDailyLimit => "shop-new-clients-limit",
            Refusal::TrialDisabled => "shop-trial-off",
            Refusal::TrialAlreadyUsed => "shop-trial-used",
            Refusal::TrialDailyLimit => "shop-trial-daily-limit",
            Refusal::OperationInProgress => "shop-in-progress",
            Refusal::Promo(reason) => vp_app::promotions::refusal_text_key(*reason),
            Refusal::RateLimited { retry_after_secs } => {
                let wait = (*retry_after_secs).max(1);
                let text = text_with(shopper.lang, "shop-too-fast", &[("seconds", wait.into())]);
                return shopper.message(text, vec![shopper.back()]);
            }
            Refusal::LinkRotateTooSoon { retry_after_secs } => {
                let minutes = retry_after_secs.div_ceil(60).max(1);
                let text = text_with(shopper.lang, "shop-new-link-too-soon", &[("minutes", minutes.into())]);
                return shopper.message(text, vec![shopper.back()]);
            }
            _ => "shop-try-later",
        },
        _ => "shop-try-later",
    };
    if key == "shop-try-later" {
        tracing::warn!(account = %shopper.account.id, error = %e, "the bot's shop could not serve a press");
    }
    shopper.message(shopper.say(key), vec![shopper.back()])
}
