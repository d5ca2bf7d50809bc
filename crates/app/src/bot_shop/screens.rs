//! What the shop shows without changing anything: the menu, the plans, the device offer, the
//! subscription, and help with the documents.

use vp_domain::devices::DevicePurchaseRefused;
use vp_domain::markup::price;
use vp_domain::renewal::charge_at;
use vp_domain::{PriceBreakdown, devices_for_sale};

use super::{BotShop, Shopper};
use crate::bots::wording::AutoRenewal;
use crate::error::{AppError, AppResult, Refusal};
use crate::views::{ClientView, DocumentLink, PanelUse, PlansView, SubscriptionView};

/// How many extra devices one purchase offers at most (one button each).
const DEVICE_CHOICES: u32 = 3;

/// What the menu offers beside what it always shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Menu {
    /// The trial: the account gives one and this client could still take it.
    pub trial: bool,
    /// "Invite a friend": the account has a referral program.
    pub invite: bool,
}

/// Extra devices as the shop offers them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceOffer {
    /// Nothing can be bought now, by the rule that says so (the invoice's rules; a client at
    /// the ceiling is `LimitExceeded`).
    Refused(DevicePurchaseRefused),
    /// The price of one, and each count that fits under the ceiling (up to three) with its
    /// exact amount.
    ForSale { each: PriceBreakdown, choices: Vec<(u32, PriceBreakdown)> },
}

/// The shopper's subscription as the shop shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionSummary {
    pub subscription: SubscriptionView,
    /// What the panel counts of its use (devices, traffic); each `None` when it did not answer.
    pub used: PanelUse,
    /// Whether extra devices can be bought now.
    pub devices_for_sale: bool,
    /// With automatic renewal on: what will be charged and when.
    pub auto_renewal: Option<AutoRenewal>,
    /// With a Stars subscription Telegram renews: how many Stars, about when.
    pub stars_renewal: Option<StarsRenewal>,
}

/// The next charge of a Stars subscription, as Telegram makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StarsRenewal {
    pub stars: i64,
    pub around: time::Date,
}

impl BotShop {
    /// The shopper's client as `GET /clients/{id}` shows it; `None` before its first invoice
    /// or trial.
    async fn shopper_view(&self, shopper: &Shopper) -> AppResult<Option<ClientView>> {
        match self.clients.client_view(&shopper.account, &shopper.client_id).await {
            Ok(view) => Ok(Some(view)),
            Err(AppError::Refused(Refusal::ClientNotFound)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The welcome's menu.
    pub async fn menu(&self, shopper: &Shopper) -> AppResult<Menu> {
        let client = self.shopper_view(shopper).await?;
        let invite = read!(self.store, |tx| tx.referral_days(&shopper.account.id)).is_on();
        Ok(Menu { trial: shopper.account.trial_enabled && client.as_ref().is_none_or(|c| c.trial_available), invite })
    }

    /// Each plan with its term and price (the invoice's amount), and the device offer.
    pub async fn plans(&self, shopper: &Shopper) -> AppResult<PlansView> {
        self.catalog.price_list(&shopper.account).await
    }

    /// How many devices can be added, each count with its exact amount; the domain's
    /// `devices_for_sale` decides whether any may be bought, as for an invoice.
    pub async fn device_offer(&self, shopper: &Shopper) -> AppResult<DeviceOffer> {
        let offer = self.offers.current().await?;
        let client = self.client_record(shopper).await?;
        let subscription = client.as_ref().and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
        let settings = offer.device_settings.as_ref();
        let room = match devices_for_sale(subscription, settings, self.clock.now()) {
            Ok(0) => {
                let max = settings.map_or(0, |s| s.max);
                return Ok(DeviceOffer::Refused(DevicePurchaseRefused::LimitExceeded { max }));
            }
            Ok(room) => room,
            Err(refused) => return Ok(DeviceOffer::Refused(refused)),
        };
        let Some(unit) = settings.and_then(|s| s.platform_price) else {
            return Ok(DeviceOffer::Refused(DevicePurchaseRefused::NotForSale));
        };
        let overflow = |e: vp_domain::markup::PriceOverflow| AppError::Internal(e.to_string());
        let each = price(unit, 1, shopper.account.markup).map_err(overflow)?;
        let choices = (1..=room.min(DEVICE_CHOICES))
            .map(|count| Ok((count, price(unit, count, shopper.account.markup).map_err(overflow)?)))
            .collect::<AppResult<_>>()?;
        Ok(DeviceOffer::ForSale { each, choices })
    }

    /// Status, expiry, days left and devices used of the limit; `None` without a subscription.
    pub async fn subscription(&self, shopper: &Shopper) -> AppResult<Option<SubscriptionSummary>> {
        let Some(subscription) = self.shopper_view(shopper).await?.and_then(|c| c.subscription) else {
            return Ok(None);
        };
        let Some(record) = self.client_record(shopper).await? else { return Ok(None) };
        let used = self.views.panel_use(&record).await;
        // Offered only when a purchase could go through now (the same rules as the invoice).
        let offer = self.offers.current().await?;
        let current = record.subscription.as_ref().map(|r| &r.subscription);
        let devices_for_sale =
            devices_for_sale(current, offer.device_settings.as_ref(), self.clock.now()).is_ok_and(|room| room > 0);
        let auto_renewal = match record.subscription.as_ref().filter(|r| r.auto_renew) {
            Some(r) => {
                read!(self.store, |tx| tx.current_consent(&record.id)).filter(|c| c.chargeable()).map(|c| AutoRenewal {
                    amount: c.price.customer,
                    on: shopper.account.time_zone.day(charge_at(r.subscription.expires_at)),
                })
            }
            None => None,
        };
        let stars_renewal = match record.subscription.as_ref().filter(|r| r.auto_renew) {
            Some(_) => self
                .stars
                .renewing_subscription(&record.id)
                .await?
                .map(|s| StarsRenewal { stars: s.stars, around: shopper.account.time_zone.day(s.paid_until) }),
            None => None,
        };
        Ok(Some(SubscriptionSummary { subscription, used, devices_for_sale, auto_renewal, stars_renewal }))
    }

    /// The account's documents (the terms carry the refund policy), for help.
    pub async fn documents(&self, shopper: &Shopper) -> AppResult<Vec<DocumentLink>> {
        self.catalog.document_links(&shopper.account, shopper.lang).await
    }
}

impl BotShop {
    /// The shopper turns automatic renewal off from "My subscription": no charge is started
    /// from now. `None` when the shopper has no client yet.
    pub async fn turn_off_auto_renew(&self, shopper: &Shopper) -> AppResult<Option<crate::renewals::TurnedOff>> {
        if self.client_record(shopper).await?.is_none() {
            return Ok(None);
        }
        let by = crate::renewals::TurnedOffBy::Customer;
        self.renewals.turn_off(&shopper.account.id, &shopper.client_id, by).await.map(Some)
    }
}
