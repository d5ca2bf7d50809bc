//! The shop in a partner's bot (docs/telegram.md, "The shop"): a person who starts the bot is a
//! bot customer of the account, served as a client with the use cases the partner API has
//! (`create_invoice`, `start_trial`, `rotate_link`, `client_devices`, `delete_client_device`)
//! under the same per-minute windows. Each use case returns a typed outcome, and the bot
//! adapter (`vp-bots`) words it: the shop keeps no rule and no text of its own. What a customer
//! writes (the bot's commands) is `customer`.

mod buying;
mod customer;
mod devices;
mod screens;
mod several;

use std::sync::Arc;

use vp_domain::{ClientId, Lang};
use vp_ports::{AccountRecord, ClientChat, Clock, PartnerBotRecord, Store};

pub use buying::Purchase;
pub use customer::{CLIENT_CODE_VALID_FOR, ChatClient, ChatClients, CustomerReply, InviteLink, ReplyKind};
pub use devices::{DeviceList, Removal};
pub use screens::{DeviceOffer, Menu, StarsRenewal, SubscriptionSummary};
pub use several::{
    NAME_ANSWER_WINDOW, NAME_MAX_CHARS, NewSubscription, OwnSubscription, SUBSCRIPTIONS_PER_PERSON, subscription_name,
};

use crate::access::PartnerAccess;
use crate::bots::new_bot_client_id;
use crate::bots::wording::Connect;
use crate::catalog::{Catalog, Offers};
use crate::clients::Clients;
use crate::error::{AppError, AppResult, Refusal};
use crate::payments::Payments;
use crate::tokens::Tokens;
use crate::views::Views;

/// Who the shop serves in this exchange, in which language.
#[derive(Debug, Clone)]
pub struct Shopper {
    pub account: AccountRecord,
    pub bot_id: i64,
    pub chat_id: i64,
    pub user_id: i64,
    pub client_id: ClientId,
    /// The subscription a press named (0: the first, else a further one's number); `None`
    /// when it named none, which acts on the first.
    pub target: Option<u32>,
    /// The name the person gave the subscription acted on (a further one).
    pub name: Option<String>,
    pub lang: Lang,
    /// Where their fiscal receipts go, once given in the chat.
    pub receipt_email: Option<String>,
    /// The promo code they gave for their next purchase.
    pub promo_code: Option<vp_domain::promo::PromoCode>,
}

/// The shop in partners' bots and their answers to customers' commands.
pub struct BotShop {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) tokens: Tokens,
    pub(crate) views: Views,
    pub(crate) offers: Arc<Offers>,
    pub(crate) access: Arc<PartnerAccess>,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) clients: Arc<Clients>,
    pub(crate) payments: Arc<Payments>,
    pub(crate) renewals: Arc<crate::renewals::Renewals>,
    pub(crate) stars: Arc<crate::stars::Stars>,
    pub(crate) referrals: Arc<crate::referrals::Referrals>,
    pub(crate) gifts: Arc<crate::gifts::Gifts>,
    pub(crate) public_base_url: String,
}

impl BotShop {
    /// The shopper behind a chat of the account's bot: the client the person is linked to,
    /// or the id a new one gets; `None` for a user id that makes no valid `client_id` (never
    /// for Telegram's).
    pub async fn shopper(
        &self,
        bot: &PartnerBotRecord,
        chat_id: i64,
        user_id: i64,
        lang: Lang,
    ) -> AppResult<Option<Shopper>> {
        let mut tx = self.store.read().await?;
        let account = tx.account(&bot.account_id).await?.ok_or(AppError::NotFound("account"))?;
        let customer = tx.bot_customers(&bot.account_id, &[user_id]).await?.into_iter().next();
        let receipt_email = customer.as_ref().and_then(|c| c.receipt_email.clone());
        let promo_code = customer
            .as_ref()
            .and_then(|c| c.promo_code.as_deref())
            .and_then(|c| vp_domain::promo::PromoCode::parse(c).ok());
        let linked = match customer.and_then(|c| c.client_ref) {
            Some(client_ref) => tx.client_by_ref(&client_ref).await?.map(|c| c.client_id),
            None => None,
        };
        tx.commit().await?;
        let Some(client_id) = linked.or_else(|| new_bot_client_id(user_id)) else { return Ok(None) };
        Ok(Some(Shopper {
            account,
            bot_id: bot.bot_id,
            chat_id,
            user_id,
            client_id,
            target: None,
            name: None,
            lang,
            receipt_email,
            promo_code,
        }))
    }

    /// "I have a promo code": the next message the shopper writes is read as the code.
    pub async fn ask_promo(&self, shopper: &Shopper) -> AppResult<()> {
        self.set_promo(shopper, shopper.promo_code.as_ref(), Some(self.clock.now())).await
    }

    /// Keeps (or with `None` forgets) the shopper's code for the next purchase.
    async fn set_promo(
        &self,
        shopper: &Shopper,
        code: Option<&vp_domain::promo::PromoCode>,
        asked_at: Option<time::OffsetDateTime>,
    ) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        let code = code.map(vp_domain::promo::PromoCode::as_str);
        tx.set_bot_customer_promo(&shopper.account.id, shopper.user_id, code, asked_at).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether the platform blocked the shopper's client: then they get the refusal and
    /// nothing else.
    pub async fn is_blocked(&self, shopper: &Shopper) -> AppResult<bool> {
        Ok(self.client_record(shopper).await?.is_some_and(|c| c.blocked))
    }

    /// Makes the shopper's client the person's (they are a bot customer from now on) and links
    /// it to the chat (reminders and the paid message go there), once it exists: after its
    /// first invoice or trial, or on a start when the partner made it.
    pub async fn link_shopper(&self, shopper: &Shopper) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        if let Some(client) = tx.client(&shopper.account.id, &shopper.client_id).await? {
            // A further subscription is the person's by its own record, never their first.
            if shopper.target.unwrap_or(0) == 0 {
                tx.link_bot_customer(&shopper.account.id, shopper.user_id, &client.id).await?;
            }
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

    /// Counts a shop action against the account's per-minute windows, as the API request it
    /// stands for would be: `RateLimited` when a window is full.
    async fn admit(&self, shopper: &Shopper, is_payment: bool) -> AppResult<()> {
        self.access
            .admit_request(&shopper.account, is_payment)
            .await
            .map_err(|wait| Refusal::RateLimited { retry_after_secs: wait.0.max(1) }.into())
    }

    /// The shopper's client as stored; `None` before its first invoice or trial.
    async fn client_record(&self, shopper: &Shopper) -> AppResult<Option<vp_ports::ClientRecord>> {
        Ok(read!(self.store, |tx| tx.client(&shopper.account.id, &shopper.client_id)))
    }

    /// The shopper's subscription and where to connect it; `None` without one.
    pub async fn connect(&self, shopper: &Shopper) -> AppResult<Option<Connect>> {
        let Some(client) = self.client_record(shopper).await? else { return Ok(None) };
        let view = self.clients.client_view(&shopper.account, &shopper.client_id).await?;
        Ok(view.subscription.zip(client.subscription).map(|(subscription, record)| Connect {
            subscription,
            page_url: vp_ports::pages::connect_page_url(&self.public_base_url, &record.link_token, None),
        }))
    }
}
