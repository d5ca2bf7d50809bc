//! Updates, from Telegram's webhook posts or from the poller: recorded as handled by the
//! application layer (with what they change), then answered here and sent through the bots' one
//! sender.

use std::sync::Arc;

use async_trait::async_trait;
use vp_app::Services;
use vp_app::bot_shop::BotShop;
use vp_app::bot_updates::{Handled, Updates};
use vp_app::notices::ChatLinked;
use vp_app::stars::{CheckoutRefusal, RenewalInTelegram};
use vp_domain::Lang;
use vp_i18n::{text, text_with};
use vp_ports::{BotMessage, BotUpdate, BotUpdates, StarsSubscriptionState};

use crate::choice::Choice;
use crate::{commands, creating, shop};

/// What the bots answer.
pub struct Conversations {
    updates: Arc<Updates>,
    shop: Arc<BotShop>,
}

impl Conversations {
    pub fn new(services: &Services) -> Conversations {
        Conversations { updates: services.bot_updates.clone(), shop: services.bot_shop.clone() }
    }
}

#[async_trait]
impl BotUpdates for Conversations {
    fn webhook_secret_ok(&self, bot_id: i64, secret: &str) -> bool {
        self.updates.webhook_secret_ok(bot_id, secret)
    }

    async fn receive(&self, bot_id: i64, update: BotUpdate) -> Result<bool, String> {
        if let Some(query) = &update.pre_checkout {
            // Answered at once, and again if Telegram asks again: it changes nothing.
            return self.updates.answer_pre_checkout(bot_id, query, checkout_refusal).await.map_err(|e| e.to_string());
        }
        if let Some(paid) = &update.payment {
            // Settled before the update is recorded: an error has Telegram deliver it again.
            self.updates.stars_paid(bot_id, paid).await.map_err(|e| e.to_string())?;
        }
        // Likewise a Stars subscription's change: told to its person once applied.
        let renewal = match &update.subscription {
            Some(change) => {
                let changed = self.updates.stars_subscription_changed(bot_id, change).await;
                changed.map_err(|e| e.to_string())?.map(|(c, lang)| renewal_changed(change.user_id, &c, lang))
            }
            None => None,
        };
        let switches_language = update.press.as_ref().is_some_and(|p| Choice::parse(&p.data) == Some(Choice::Language));
        let recorded = self.updates.record(bot_id, &update, switches_language).await.map_err(|e| e.to_string())?;
        let Some(recorded) = recorded else { return Ok(false) };
        let mut messages = match (recorded.handled, recorded.bot.partner()) {
            (Handled::PartnerChatLinked { chat_id, linked }, _) => vec![BotMessage::text(chat_id, chat_linked(linked))],
            (Handled::BotCreateStarted { chat_id, lang, answer }, None) => {
                vec![creating::started(chat_id, lang, answer)]
            }
            (Handled::BotCreated { chat_id, lang, outcome }, None) => vec![creating::created(chat_id, lang, outcome)],
            (Handled::Customer { chat_id, reply }, Some(partner)) => {
                commands::answer(&self.shop, partner, chat_id, &reply).await.map_err(|e| e.to_string())?
            }
            (Handled::Press { press, lang }, Some(partner)) => {
                let shopper = self.shop.shopper(partner, press.chat_id, press.user_id, lang).await;
                let answer = match shopper.map_err(|e| e.to_string())? {
                    Some(shopper) => vec![shop::pressed(&self.shop, &shopper, &press).await],
                    None => vec![],
                };
                self.updates.confirm_press(&recorded.bot, &press).await;
                answer
            }
            _ => vec![],
        };
        messages.extend(renewal);
        self.updates.answer(&recorded.bot, &messages).await;
        Ok(true)
    }
}

/// What a person is told when their Stars subscription changed in Telegram.
fn renewal_changed(chat_id: i64, changed: &RenewalInTelegram, lang: Lang) -> BotMessage {
    let key = match changed.state {
        StarsSubscriptionState::Canceled => "bot-stars-renewal-off",
        StarsSubscriptionState::Active => "bot-stars-renewal-on",
        StarsSubscriptionState::Failed => "bot-stars-renewal-failed",
    };
    let args = [("brand", changed.brand.as_str().into()), ("day", changed.until.into())];
    BotMessage::text(chat_id, text_with(lang, key, &args))
}

/// Why an invoice may not be paid, as Telegram's payment form shows it.
fn checkout_refusal(refusal: CheckoutRefusal, lang: Lang) -> String {
    let key = match refusal {
        CheckoutRefusal::NotPayable => "shop-checkout-not-payable",
        CheckoutRefusal::AmountChanged => "shop-checkout-amount-changed",
        CheckoutRefusal::Blocked => "shop-checkout-blocked",
    };
    text(lang, key)
}

/// The notice bot's answer to `/start <code>`.
fn chat_linked(linked: Option<ChatLinked>) -> String {
    match linked {
        Some(ChatLinked { brand, lang }) => text_with(lang, "notice-chat-linked", &[("brand", (&brand).into())]),
        // Whose link it was is unknown, so its language too: both, English first.
        None => Lang::ALL.map(|lang| text(lang, "notice-chat-link-expired")).join(" / "),
    }
}
