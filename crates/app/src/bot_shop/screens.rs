//! The shop's screens that show rather than change: the menu, the plans, the device offer, the
//! subscription, how to connect, and help with the documents.

use vp_domain::Lang;
use vp_domain::markup::price;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button};

use super::{Choice, Shopper};
use crate::App;
use crate::error::{AppError, AppResult, Refusal};
use crate::views::{ClientView, SubscriptionView, url_encode};

/// How many extra devices one purchase offers at most (one button each).
const DEVICE_CHOICES: u32 = 3;

impl App {
    /// The welcome and the menu: the trial only while this client could still take one.
    pub(crate) async fn shop_menu(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        let client = self.shopper_view(shopper).await?;
        let trial = shopper.account.trial_enabled && client.as_ref().is_none_or(|c| c.trial_available);
        let mut buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans)];
        if trial {
            buttons.push(shopper.button("shop-menu-trial", &Choice::Trial));
        }
        buttons.extend([
            shopper.button("shop-menu-subscription", &Choice::Subscription),
            shopper.button("shop-menu-devices", &Choice::Devices),
            shopper.button("shop-menu-help", &Choice::Help),
            shopper.button("shop-menu-language", &Choice::Language),
        ]);
        Ok(shopper.message(shopper.say("shop-welcome"), buttons))
    }

    /// The shopper's client as `GET /clients/{id}` shows it; `None` before its first invoice
    /// or trial.
    pub(super) async fn shopper_view(&self, shopper: &Shopper) -> AppResult<Option<ClientView>> {
        match self.client_view(&shopper.account, &shopper.client_id).await {
            Ok(view) => Ok(Some(view)),
            Err(AppError::Refused(Refusal::ClientNotFound)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Each plan with its term and price (the invoice's amount), and the device offer.
    pub(crate) async fn plans_screen(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        let lang = shopper.lang;
        let list = self.price_list(&shopper.account).await?;
        if list.plans.is_empty() {
            return Ok(shopper.message(shopper.say("shop-plans-none"), vec![shopper.back()]));
        }
        let mut body = shopper.say("shop-plans");
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
            .map(|p| {
                let label = text_with(
                    lang,
                    "shop-plan",
                    &[
                        ("term", term(lang, p.plan.lifetime, p.plan.months).as_str().into()),
                        ("price", p.price.customer.into()),
                    ],
                );
                Button::press(label, Choice::Buy { plan_id: p.plan.plan_id, method: None }.data())
            })
            .collect();
        buttons.push(shopper.back());
        Ok(shopper.message(body, buttons))
    }

    /// How many devices to add, each choice with its exact amount, up to the ceiling.
    pub(crate) async fn device_offer_screen(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        let lang = shopper.lang;
        let offer = self.offer().await?;
        let Some((settings, unit)) = offer.device_settings.as_ref().and_then(|s| s.platform_price.map(|p| (s, p)))
        else {
            return Ok(shopper.message(shopper.say("shop-devices-not-for-sale"), vec![shopper.back()]));
        };
        let Some(client) = self.shopper_view(shopper).await? else {
            return Ok(shopper.message(shopper.say("shop-needs-subscription"), vec![shopper.back()]));
        };
        let room = match client.subscription.as_ref().map(|s| s.devices_limit) {
            None => return Ok(shopper.message(shopper.say("shop-needs-subscription"), vec![shopper.back()])),
            Some(None) => return Ok(shopper.message(shopper.say("shop-devices-no-limit"), vec![shopper.back()])),
            Some(Some(limit)) => settings.max.saturating_sub(limit),
        };
        if room == 0 {
            return Ok(shopper.message(shopper.say("shop-devices-at-limit"), vec![shopper.back()]));
        }
        let each = price(unit, 1, shopper.account.markup).map_err(|e| AppError::Conflict(e.to_string()))?;
        let mut buttons = Vec::new();
        for count in 1..=room.min(DEVICE_CHOICES) {
            let amount = price(unit, count, shopper.account.markup).map_err(|e| AppError::Conflict(e.to_string()))?;
            let label =
                text_with(lang, "shop-devices-count", &[("count", count.into()), ("amount", amount.customer.into())]);
            buttons.push(Button::press(label, Choice::BuyDevices { count, method: None }.data()));
        }
        buttons.push(shopper.back());
        let body = text_with(lang, "shop-devices-choose", &[("price", each.customer.into())]);
        Ok(shopper.message(body, buttons))
    }

    /// Status, expiry, days left and devices used of the limit, with what can be done next.
    pub(crate) async fn subscription_screen(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        let Some(sub) = self.shopper_view(shopper).await?.and_then(|c| c.subscription) else {
            let buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans), shopper.back()];
            return Ok(shopper.message(shopper.say("shop-subscription-none"), buttons));
        };
        let Some(record) = self.client_record(shopper).await? else {
            return Ok(shopper.message(shopper.say("shop-subscription-none"), vec![shopper.back()]));
        };
        let body = self.subscription_lines(&record.id, &sub, shopper.lang).await;
        let mut buttons = Vec::new();
        if !sub.lifetime {
            buttons.push(shopper.button("shop-renew", &Choice::Plans));
        }
        // A limit (`devices_limit`) is what extra devices can raise.
        if sub.devices_limit.is_some()
            && self.offer().await?.device_settings.as_ref().is_some_and(|s| s.platform_price.is_some())
        {
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

    /// The shopper's client as stored; `None` before its first invoice or trial.
    pub(super) async fn client_record(&self, shopper: &Shopper) -> AppResult<Option<vp_ports::ClientRecord>> {
        let mut tx = self.store.read().await?;
        let client = tx.client(&shopper.account.id, &shopper.client_id).await?;
        tx.commit().await?;
        Ok(client)
    }

    /// The subscription link, the connect page's button, and the QR code of the same
    /// `qr_payload` the connect page draws, as a PNG photo. `before` goes first (a new link).
    pub(crate) async fn connect_screen(&self, shopper: &Shopper, before: Option<&str>) -> AppResult<BotMessage> {
        let Some(client) = self.client_record(shopper).await? else {
            return Ok(shopper.message(shopper.say("shop-subscription-none"), vec![shopper.back()]));
        };
        let view = self.client_view(&shopper.account, &shopper.client_id).await?;
        let (Some(sub), Some(record)) = (view.subscription, client.subscription) else {
            return Ok(shopper.message(shopper.say("shop-subscription-none"), vec![shopper.back()]));
        };
        let before = before.map(str::to_owned).unwrap_or_default();
        let message =
            self.connect_message(shopper.chat_id, shopper.lang, &sub, &record.link_token, before, shopper.back());
        Ok(message)
    }

    /// `before` (when not empty), the subscription link, the connect page's button and `next`,
    /// with the QR code of the `qr_payload` the connect page draws as a PNG photo.
    pub(crate) fn connect_message(
        &self,
        chat_id: i64,
        lang: Lang,
        sub: &SubscriptionView,
        link_token: &str,
        before: String,
        next: Button,
    ) -> BotMessage {
        let page = format!("{}/connect/{}", self.settings.public_base_url, url_encode(link_token));
        let payload = sub.connect.first().map_or(page.clone(), |c| c.qr_payload.clone());
        let mut body = before;
        if !body.is_empty() {
            body.push_str("\n\n");
        }
        body.push_str(&text_with(lang, "shop-connect", &[("link", sub.subscription_url.as_str().into())]));
        let mut message = BotMessage::text(chat_id, body)
            .with_buttons(vec![Button::link(text(lang, "shop-connect-page"), page), next]);
        message.photo = crate::qr_png::qr_png(&payload);
        message
    }

    /// The support address, the account's documents (the terms carry the refund policy), and
    /// the language switch.
    pub(crate) async fn help_screen(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        let lang = shopper.lang;
        let mut buttons = Vec::new();
        for doc in self.document_links(&shopper.account, lang).await? {
            let key =
                if doc.doc_type == "terms_of_service" { "shop-documents-terms" } else { "shop-documents-privacy" };
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
}

/// A plan's term as the shop words it.
pub(super) fn term(lang: Lang, lifetime: bool, months: u32) -> String {
    if lifetime {
        text(lang, "shop-term-lifetime")
    } else {
        text_with(lang, "shop-term-months", &[("count", months.into())])
    }
}
