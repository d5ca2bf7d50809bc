//! Buying in the shop: an invoice made by `create_invoice`, exactly as `POST /payments` makes
//! it (prices, rules, limits, the gateway, the partner's events), under an idempotency key
//! derived from the press, so a double tap on a button makes one invoice; and the trial, by
//! `start_trial`.

use vp_domain::cabinet::Email;
use vp_domain::gift::{GiftCode, GiftRefused};
use vp_domain::promo::PromoRefused;
use vp_domain::stars::STARS_METHOD;
use vp_domain::{IdempotencyKey, InvoiceRequest, MethodCode, PaymentId, Purpose};
use vp_ports::{ButtonPress, InvoiceRecord, PaymentMethodRecord, PlanRecord, StarsInvoice};

use super::{BotShop, Shopper};
use crate::bots::wording::Connect;
use crate::error::{AppError, AppResult, Refusal};
use crate::gift_links::GiftLinks;
use crate::renewals::{ConsentGiven, RenewalOffer};
use crate::views::InvoiceView;

/// What a press on a plan or a device count came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purchase {
    /// Several payment methods: the customer chooses one first.
    ChooseMethod(Vec<PaymentMethodRecord>),
    /// The service sends fiscal receipts and the customer has not said where yet: they write
    /// their email in the chat, once, and choose again.
    AskEmail,
    /// The invoice (a press again replays it, perhaps settled since), with the plan it buys
    /// (read with the retired ones: a replay may name a plan retired since) and the whole
    /// minutes left to pay.
    Invoice {
        invoice: Box<InvoiceView>,
        plan: Option<Box<PlanRecord>>,
        minutes_left: i64,
        renewal_offer: Option<RenewalOffer>,
        /// The price in Stars of an invoice paid in Telegram Stars.
        stars: Option<StarsInvoice>,
        /// The shopper's promo code could not be used (and is forgotten): the invoice is at
        /// the full price, and this says why.
        promo_dropped: Option<PromoRefused>,
    },
}

/// Telegram Stars among the payment methods of a bot whose account takes them.
fn stars_method() -> PaymentMethodRecord {
    PaymentMethodRecord {
        code: STARS_METHOD.to_owned(),
        name_en: "Telegram Stars".to_owned(),
        name_ru: "Telegram Stars".to_owned(),
        enabled: true,
        position: i32::MAX,
        gateway: None,
        gateway_type: None,
    }
}

impl BotShop {
    /// With one payment method the invoice is made at once; with several the shopper picks
    /// one first. The press counts in both per-minute windows, like `POST /payments`.
    pub async fn buy(
        &self,
        shopper: &Shopper,
        press: &ButtonPress,
        purpose: Purpose,
        method: Option<String>,
    ) -> AppResult<Purchase> {
        self.purchase(shopper, press, purpose, method, false).await
    }

    /// "Gift a subscription": the plan bought as `buy` buys it, by the shopper's first client,
    /// its invoice marked as a gift before its payment button is shown; its payment gives the
    /// shopper the gift's link to pass on (the paid message), not a term.
    pub async fn buy_gift(
        &self,
        shopper: &Shopper,
        press: &ButtonPress,
        plan_id: i32,
        method: Option<String>,
    ) -> AppResult<Purchase> {
        let buyer = Shopper { target: None, name: None, ..shopper.clone() };
        self.purchase(&buyer, press, Purpose::Subscription { plan_id }, method, true).await
    }

    async fn purchase(
        &self,
        shopper: &Shopper,
        press: &ButtonPress,
        purpose: Purpose,
        method: Option<String>,
        gift: bool,
    ) -> AppResult<Purchase> {
        let mut methods = self.catalog.available_payment_methods().await?;
        // A gift is not sold for Stars: a monthly plan in Stars is a Telegram subscription,
        // which would go on renewing the buyer's own.
        let stars_rate = match gift {
            true => None,
            false => self.stars.rate(&shopper.account.id).await?,
        };
        if stars_rate.is_some() {
            methods.push(stars_method());
        }
        let method = match (method, methods.as_slice()) {
            (Some(code), _) => code,
            (None, [only]) => only.code.clone(),
            (None, []) => return Err(Refusal::UnsupportedPaymentMethod.into()),
            (None, _) => return Ok(Purchase::ChooseMethod(methods)),
        };
        let customer_email = shopper.receipt_email.as_deref().and_then(|e| Email::parse(e).ok());
        let method = MethodCode::parse(&method).map_err(|_| Refusal::UnsupportedPaymentMethod)?;
        // Only a gateway that sends receipts needs the email (Telegram sells the Stars).
        if customer_email.is_none() && self.payments.needs_receipt_email(&shopper.account, &method).await? {
            return Ok(Purchase::AskEmail);
        }
        self.admit(shopper, true).await?;
        // A code the shopper gave is for plans; it stays kept until it cannot be used.
        let promo_code = shopper.promo_code.clone().filter(|_| matches!(purpose, Purpose::Subscription { .. }));
        let mut request = InvoiceRequest {
            client_id: shopper.client_id.clone(),
            purpose,
            method,
            return_url: None,
            customer_email,
            promo_code,
        };
        let key = press_key(shopper, press)?;
        let mut promo_dropped = None;
        let issued = self.payments.create_bot_invoice(&shopper.account, key.clone(), request.clone(), stars_rate).await;
        let invoice = match issued {
            // A refused code is forgotten, and the purchase goes on at the full price, saying why.
            Err(AppError::Refused(Refusal::Promo(reason))) if request.promo_code.is_some() => {
                self.set_promo(shopper, None, None).await?;
                promo_dropped = Some(reason);
                request.promo_code = None;
                self.payments.create_bot_invoice(&shopper.account, key, request, stars_rate).await?
            }
            issued => issued?,
        };
        if gift {
            self.gifts.mark(&shopper.account, &invoice.invoice.payment_id, None, shopper.lang).await?;
        }
        self.link_shopper(shopper).await?;
        let plan = match invoice.invoice.purpose {
            Purpose::Subscription { plan_id } => {
                read!(self.store, |tx| tx.plan(plan_id))
            }
            Purpose::Devices { .. } => None,
        };
        let minutes_left = (invoice.invoice.expires_at - self.clock.now()).whole_minutes().max(0);
        // A gift renews nothing of the buyer's.
        let renewal_offer = match gift {
            true => None,
            false => self.renewal_offer(shopper, &invoice.invoice, plan.as_ref()).await?,
        };
        let stars = match invoice.invoice.rail.is_stars() {
            true => read!(self.store, |tx| tx.stars_invoice(&invoice.invoice.payment_id)),
            false => None,
        };
        Ok(Purchase::Invoice {
            invoice: Box::new(invoice),
            plan: plan.map(Box::new),
            minutes_left,
            renewal_offer,
            stars,
            promo_dropped,
        })
    }

    /// What "renew automatically" would consent to for the shopper's invoice of `plan`.
    async fn renewal_offer(
        &self,
        shopper: &Shopper,
        invoice: &InvoiceRecord,
        plan: Option<&PlanRecord>,
    ) -> AppResult<Option<RenewalOffer>> {
        let Some(plan) = plan.filter(|p| !p.lifetime) else { return Ok(None) };
        let client = self.client_record(shopper).await?;
        let current = client.as_ref().and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
        Ok(self.payments.renewal_offer(invoice, plan.months, current, &shopper.account))
    }

    /// The shopper pressed "Renew automatically" under their invoice: the consent is given
    /// with the sentence `word` makes of the offer (what the message showed), before paying.
    /// Returns the invoice (to pay it next), or `None` when it is not the shopper's, no longer
    /// payable, or buys nothing that renews.
    pub async fn consent_to_renewal(
        &self,
        shopper: &Shopper,
        payment_id: &PaymentId,
        word: impl Fn(&RenewalOffer) -> String,
    ) -> AppResult<Option<InvoiceRecord>> {
        let invoice = read!(self.store, |tx| tx.invoice_by_id(payment_id));
        let Some(invoice) = invoice.filter(|i| i.account_id == shopper.account.id && i.client_id == shopper.client_id)
        else {
            return Ok(None);
        };
        let plan = match invoice.purpose {
            Purpose::Subscription { plan_id } => read!(self.store, |tx| tx.plan(plan_id)),
            Purpose::Devices { .. } => None,
        };
        let Some(offer) = self.renewal_offer(shopper, &invoice, plan.as_ref()).await? else { return Ok(None) };
        let given = ConsentGiven { text: word(&offer), lang: shopper.lang };
        self.payments.consent(&invoice, &given).await?;
        Ok(Some(invoice))
    }

    /// The links of the shopper's paid gift `payment_id`; `None` unless it is one of theirs.
    pub async fn gift_links(&self, shopper: &Shopper, payment_id: &PaymentId) -> AppResult<Option<GiftLinks>> {
        let invoice = read!(self.store, |tx| tx.invoice_by_id(payment_id));
        if !invoice.is_some_and(|i| i.account_id == shopper.account.id && i.client_id == shopper.client_id) {
            return Ok(None);
        }
        self.gifts.links_of_paid(&shopper.account.id, payment_id).await
    }

    /// `/start gift_<code>`: the gift's term for the shopper's first subscription (the client
    /// made now if they have none); then how to connect, or why the gift was refused.
    pub async fn redeem_gift(
        &self,
        shopper: &Shopper,
        code: &GiftCode,
    ) -> AppResult<Result<Option<Connect>, GiftRefused>> {
        let shopper = Shopper { target: None, name: None, ..shopper.clone() };
        self.admit(&shopper, false).await?;
        if let Err(refused) = self.gifts.redeem(&shopper.account, code, &shopper.client_id).await? {
            return Ok(Err(refused));
        }
        self.link_shopper(&shopper).await?;
        Ok(Ok(self.connect(&shopper).await?))
    }

    /// The trial, when the account gives one and this client never had a subscription; then
    /// how to connect.
    pub async fn trial(&self, shopper: &Shopper) -> AppResult<Option<Connect>> {
        self.admit(shopper, false).await?;
        self.clients.start_trial(&shopper.account, &shopper.client_id).await?;
        self.link_shopper(shopper).await?;
        self.connect(shopper).await
    }
}

/// The idempotency key of a press: the bot, the person, the message the button was under and
/// the button, so pressing it again (a double tap, a retry) replays the first invoice and a
/// new plans message makes a new one.
fn press_key(shopper: &Shopper, press: &ButtonPress) -> AppResult<IdempotencyKey> {
    let raw = format!("telegram:{}:{}:{}:{}", shopper.bot_id, shopper.user_id, press.message_id, press.data);
    IdempotencyKey::parse(Some(&raw)).map_err(|e| AppError::Internal(format!("press key: {e:?}")))
}
