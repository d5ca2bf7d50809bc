//! Buying in the shop: an invoice made by `create_invoice`, exactly as `POST /payments` makes
//! it (prices, rules, limits, the gateway, the partner's events), under an idempotency key
//! derived from the press, so a double tap on a button makes one invoice; and the trial, by
//! `start_trial`.

use vp_domain::{IdempotencyKey, InvoiceRequest, Lang, MethodCode, Purpose};
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, Button, ButtonPress, PaymentMethodRecord};

use super::screens::term;
use super::{Choice, Shopper};
use crate::App;
use crate::error::{AppError, AppResult};
use crate::views::InvoiceView;

impl App {
    pub(crate) async fn buy_plan(
        &self,
        shopper: &Shopper,
        press: &ButtonPress,
        plan_id: i32,
        method: Option<String>,
    ) -> AppResult<BotMessage> {
        let purpose = Purpose::Subscription { plan_id };
        let choose = |method| Choice::Buy { plan_id, method: Some(method) };
        self.buy(shopper, press, purpose, method, choose).await
    }

    pub(crate) async fn buy_devices(
        &self,
        shopper: &Shopper,
        press: &ButtonPress,
        count: u32,
        method: Option<String>,
    ) -> AppResult<BotMessage> {
        let purpose = Purpose::Devices { count };
        let choose = |method| Choice::BuyDevices { count, method: Some(method) };
        self.buy(shopper, press, purpose, method, choose).await
    }

    /// With one payment method the invoice is made at once; with several the shopper picks one
    /// first (`choose` makes its button).
    async fn buy(
        &self,
        shopper: &Shopper,
        press: &ButtonPress,
        purpose: Purpose,
        method: Option<String>,
        choose: impl Fn(String) -> Choice,
    ) -> AppResult<BotMessage> {
        let methods = self.available_payment_methods().await?;
        let method = match (method, methods.as_slice()) {
            (Some(code), _) => code,
            (None, [only]) => only.code.clone(),
            (None, []) => {
                return Ok(shopper.message(shopper.say("shop-try-later"), vec![shopper.back()]));
            }
            (None, several) => {
                let mut buttons: Vec<Button> = several
                    .iter()
                    .map(|m| Button::press(method_name(m, shopper.lang), choose(m.code.clone()).data()))
                    .collect();
                buttons.push(shopper.back());
                return Ok(shopper.message(text(shopper.lang, "shop-choose-method"), buttons));
            }
        };
        if let Err(refused) = self.admit_action(shopper, true).await {
            return Ok(refused);
        }
        let Ok(method) = MethodCode::parse(&method) else {
            return Ok(shopper.message(shopper.say("shop-try-later"), vec![shopper.back()]));
        };
        let request = InvoiceRequest { client_id: shopper.client_id.clone(), purpose, method, return_url: None };
        let created = self.create_invoice(&shopper.account, press_key(shopper, press)?, request).await;
        match created {
            Ok(view) => {
                self.link_shopper(shopper).await?;
                self.invoice_message(shopper, &view).await
            }
            Err(e) => Ok(self.refusal_message(shopper, e)),
        }
    }

    /// The amount, the deadline and the "Pay" button to the invoice's `payment_url`; a replay
    /// of an invoice settled since says where it stands instead.
    async fn invoice_message(&self, shopper: &Shopper, view: &InvoiceView) -> AppResult<BotMessage> {
        let lang = shopper.lang;
        let invoice = &view.invoice;
        let Some(url) = &invoice.payment_url else {
            // The button of an invoice settled since: paid shows what it bought; expired or
            // failed asks for a new choice (this button's key stays bound to that invoice).
            if invoice.status == vp_domain::InvoiceStatus::Succeeded {
                return self.subscription_screen(shopper).await;
            }
            let buttons = vec![shopper.button("shop-menu-plans", &Choice::Plans), shopper.back()];
            return Ok(shopper.message(shopper.say("shop-invoice-closed"), buttons));
        };
        let what = match invoice.purpose {
            Purpose::Subscription { plan_id } => {
                // Read with the retired ones: a replay may name a plan retired since.
                let mut tx = self.store.read().await?;
                let plan = tx.plan(plan_id).await?;
                tx.commit().await?;
                plan.map_or_else(|| text(lang, "shop-menu-plans"), |p| term(lang, p.lifetime, p.months))
            }
            Purpose::Devices { count } => text_with(lang, "page-order-devices", &[("count", count.into())]),
        };
        let minutes = (invoice.expires_at - self.clock.now()).whole_minutes().max(0);
        let time = format!("{:02}:{:02}", invoice.expires_at.hour(), invoice.expires_at.minute());
        let amount = invoice.amounts.customer;
        let body = text_with(
            lang,
            "shop-invoice",
            &[
                ("what", what.as_str().into()),
                ("amount", amount.into()),
                ("minutes", minutes.into()),
                ("time", time.as_str().into()),
            ],
        );
        let pay = Button::link(text_with(lang, "shop-pay", &[("amount", amount.into())]), url.clone());
        Ok(shopper.message(body, vec![pay, shopper.back()]))
    }

    /// The trial, when the account gives one and this client never had a subscription.
    pub(crate) async fn take_trial(&self, shopper: &Shopper) -> AppResult<BotMessage> {
        if let Err(refused) = self.admit_action(shopper, false).await {
            return Ok(refused);
        }
        match self.start_trial(&shopper.account, &shopper.client_id).await {
            Ok(_) => {
                self.link_shopper(shopper).await?;
                let started = shopper.say("shop-trial-started");
                self.connect_screen(shopper, Some(&started)).await
            }
            Err(e) => Ok(self.refusal_message(shopper, e)),
        }
    }
}

/// The idempotency key of a press: the bot, the person, the message the button was under and
/// the button, so pressing it again (a double tap, a retry) replays the first invoice and a
/// new plans message makes a new one.
fn press_key(shopper: &Shopper, press: &ButtonPress) -> AppResult<IdempotencyKey> {
    let raw = format!("telegram:{}:{}:{}:{}", shopper.bot_id, shopper.user_id, press.message_id, press.data);
    IdempotencyKey::parse(Some(&raw)).map_err(|e| AppError::Conflict(format!("press key: {e:?}")))
}

fn method_name(method: &PaymentMethodRecord, lang: Lang) -> String {
    match lang {
        Lang::Ru => method.name_ru.clone(),
        Lang::En => method.name_en.clone(),
    }
}
