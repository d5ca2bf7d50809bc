//! The shop in a partner's bot (docs/telegram.md, "The shop"): a person who starts the bot is
//! the client `telegram:<user id>` of the account and buys, tries, connects and manages devices
//! with inline buttons. Every action is a use case the partner API has (`create_invoice`,
//! `start_trial`, `rotate_link`, `client_devices`, `delete_client_device`) under the same
//! per-minute windows: the bot is a driving adapter beside the API and the cabinet, and keeps
//! no rule of its own.

mod buying;
mod choice;
mod devices;
mod screens;

use time::{Duration, OffsetDateTime};
use vp_domain::{ClientId, Lang};
use vp_i18n::text_with;
use vp_ports::{AccountRecord, BotMessage, BotStats, Button, ButtonPress, ClientChat, PartnerBotRecord};

pub(crate) use choice::Choice;

use crate::App;
use crate::error::{AppError, AppResult, Refusal};

/// The prefix of a bot customer's `client_id`; the partner's systems may use the same id.
pub const CLIENT_ID_PREFIX: &str = "telegram:";

/// The client a person of the partner's bot is: `telegram:<user id>`.
pub fn bot_client_id(user_id: i64) -> Option<ClientId> {
    ClientId::parse(&format!("{CLIENT_ID_PREFIX}{user_id}")).ok()
}

/// The Telegram user behind a bot customer's `client_id`, if it is one.
pub fn bot_user_of(client_id: &str) -> Option<i64> {
    client_id.strip_prefix(CLIENT_ID_PREFIX)?.parse().ok()
}

/// What `vp-api bot stats` reports: the account's bot over the last `STATS_DAYS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotReport {
    pub since: OffsetDateTime,
    pub stats: BotStats,
}

/// The period `vp-api bot stats` covers.
pub const STATS_DAYS: i64 = 30;

impl BotReport {
    /// Of the people who started the bot in the period, the share who paid, in percent with two
    /// decimals (rounded down; exact integers, no floats); "0.00" when nobody started it.
    pub fn conversion_percent(&self) -> String {
        let basis_points = (self.stats.started_and_paid * 10_000).checked_div(self.stats.started).unwrap_or(0);
        format!("{}.{:02}", basis_points / 100, basis_points % 100)
    }
}

/// Who the shop serves in this exchange, in which language.
pub(crate) struct Shopper {
    pub account: AccountRecord,
    pub bot_id: i64,
    pub chat_id: i64,
    pub user_id: i64,
    pub client_id: ClientId,
    pub lang: Lang,
}

impl Shopper {
    fn say(&self, key: &str) -> String {
        text_with(self.lang, key, &[("brand", self.account.brand_name.as_str().into())])
    }

    fn message(&self, text: impl Into<String>, buttons: Vec<Button>) -> BotMessage {
        BotMessage::text(self.chat_id, text).with_buttons(buttons)
    }

    fn button(&self, key: &str, choice: &Choice) -> Button {
        Button::press(vp_i18n::text(self.lang, key), choice.data())
    }

    fn back(&self) -> Button {
        self.button("shop-menu-back", &Choice::Menu)
    }
}

impl App {
    /// `vp-api bot stats`: the account's bot over the last 30 days.
    pub async fn bot_stats(&self, account_id: &str) -> AppResult<BotReport> {
        self.require_account(account_id).await?;
        let since = self.clock.now() - Duration::days(STATS_DAYS);
        let mut tx = self.store.read().await?;
        let stats = tx.bot_stats(account_id, since).await?;
        tx.commit().await?;
        Ok(BotReport { since, stats })
    }

    /// The shopper behind a chat of the account's bot, or `None` for a user id that makes no
    /// valid `client_id` (never for Telegram's).
    pub(crate) async fn shopper(
        &self,
        bot: &PartnerBotRecord,
        chat_id: i64,
        user_id: i64,
        lang: Lang,
    ) -> AppResult<Option<Shopper>> {
        let Some(client_id) = bot_client_id(user_id) else { return Ok(None) };
        let mut tx = self.store.read().await?;
        let account = tx.account(&bot.account_id).await?.ok_or(AppError::NotFound("account"))?;
        tx.commit().await?;
        Ok(Some(Shopper { account, bot_id: bot.bot_id, chat_id, user_id, client_id, lang }))
    }

    /// Answers a press on one of the shop's buttons. A blocked client gets the refusal and
    /// nothing else; a press on data the shop never made gets the menu; a failure of the
    /// platform's own parts gets "try again later" (logged), never silence.
    pub(crate) async fn shop_pressed(&self, shopper: &Shopper, press: &ButtonPress) -> BotMessage {
        match self.shop_answer(shopper, press).await {
            Ok(answer) => answer,
            Err(e) => self.refusal_message(shopper, e),
        }
    }

    async fn shop_answer(&self, shopper: &Shopper, press: &ButtonPress) -> AppResult<BotMessage> {
        if let Some(refusal) = self.blocked_refusal(shopper).await? {
            return Ok(refusal);
        }
        let Some(choice) = Choice::parse(&press.data) else {
            return self.shop_menu(shopper).await;
        };
        match choice {
            Choice::Menu | Choice::Language => self.shop_menu(shopper).await,
            Choice::Plans => self.plans_screen(shopper).await,
            Choice::Buy { plan_id, method } => self.buy_plan(shopper, press, plan_id, method).await,
            Choice::DeviceOffer => self.device_offer_screen(shopper).await,
            Choice::BuyDevices { count, method } => self.buy_devices(shopper, press, count, method).await,
            Choice::Trial => self.take_trial(shopper).await,
            Choice::Subscription => self.subscription_screen(shopper).await,
            Choice::Connect => self.connect_screen(shopper, None).await,
            Choice::NewLink => self.new_link(shopper).await,
            Choice::Devices => self.devices_screen(shopper, None).await,
            Choice::RemoveAsk { nonce, index } => self.confirm_removal(shopper, &nonce, index).await,
            Choice::Remove { nonce, index } => self.remove_device(shopper, &nonce, index).await,
            Choice::Help => self.help_screen(shopper).await,
        }
    }

    /// What a blocked client gets, and nothing else: `Some` when the shopper is blocked.
    pub(crate) async fn blocked_refusal(&self, shopper: &Shopper) -> AppResult<Option<BotMessage>> {
        let blocked = self.client_record(shopper).await?.is_some_and(|c| c.blocked);
        Ok(blocked.then(|| shopper.message(shopper.say("shop-blocked"), vec![])))
    }

    /// Links the shopper's client to the chat (reminders and the paid message go there), once
    /// it exists: after its first invoice or trial, or on a start when the partner made it.
    pub(crate) async fn link_shopper(&self, shopper: &Shopper) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        if let Some(client) = tx.client(&shopper.account.id, &shopper.client_id).await? {
            let linked = tx.client_chat(&client.id).await?;
            if linked.is_none_or(|l| l.chat_id != shopper.chat_id) {
                tx.link_client_chat(&ClientChat {
                    client_ref: client.id,
                    account_id: shopper.account.id.clone(),
                    chat_id: shopper.chat_id,
                    linked_at: self.clock.now(),
                })
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// A use case's refusal in the shopper's words, with the menu button; failures of the
    /// platform's own parts become "try again later" (and are logged).
    fn refusal_message(&self, shopper: &Shopper, e: AppError) -> BotMessage {
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

    /// Counts a shop action against the account's per-minute windows, as the API request it
    /// stands for would be; `Err` is the message to answer instead.
    async fn admit_action(&self, shopper: &Shopper, is_payment: bool) -> Result<(), BotMessage> {
        self.admit_request(&shopper.account, is_payment).await.map_err(|wait| {
            let text = text_with(shopper.lang, "shop-too-fast", &[("seconds", wait.0.max(1).into())]);
            shopper.message(text, vec![shopper.back()])
        })
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use vp_ports::BotStats;

    use super::{BotReport, bot_client_id, bot_user_of};

    fn report(started: u64, started_and_paid: u64) -> BotReport {
        let stats = BotStats { started, linked: 0, purchases: 0, started_and_paid };
        BotReport { since: datetime!(2026-01-01 0:00 UTC), stats }
    }

    #[test]
    fn conversion_is_the_share_of_starters_who_paid_in_exact_hundredths_of_a_percent() {
        assert_eq!(report(0, 0).conversion_percent(), "0.00");
        assert_eq!(report(8, 1).conversion_percent(), "12.50");
        assert_eq!(report(3, 1).conversion_percent(), "33.33");
        assert_eq!(report(7, 7).conversion_percent(), "100.00");
    }

    #[test]
    fn a_bot_customer_is_the_client_telegram_colon_user_id() {
        assert_eq!(bot_client_id(424_242).unwrap().as_str(), "telegram:424242");
        assert_eq!(bot_user_of("telegram:424242"), Some(424_242));
        assert_eq!(bot_user_of("alice"), None);
        assert_eq!(bot_user_of("telegram:x"), None);
    }
}
