//! What the payment pages for customers show: the sandbox payment page (and its pay and decline
//! buttons) and the payment result page's invoice.

use vp_domain::renewal::{charge_at, next_charge_after, renewable};
use vp_domain::{GatewayName, InvoiceStatus, Lang, PaymentId, PaymentOutcome, Purpose};
use vp_ports::{AccountStyle, InvoiceRecord};

use super::Payments;
use crate::bots::connected_bot;
use crate::consents::{ConsentGiven, RenewalOffer, renewal_price};
use crate::error::{AppError, AppResult};
use crate::views::DocumentLink;
use vp_ports::pages::connect_page_url;

pub use vp_ports::OrderItem;

/// A shop customer's invoices looked at for a payment before the one a result page shows.
const PAID_BEFORE_LOOKED_AT: u32 = 200;

/// Whether `other` was paid before `invoice` (or `invoice` is not paid yet).
fn paid_first(other: &InvoiceRecord, invoice: &InvoiceRecord) -> bool {
    other.paid_at.is_some_and(|at| invoice.paid_at.is_none_or(|mine| at < mine))
}

pub struct PaymentPage {
    pub invoice: InvoiceRecord,
    pub brand_name: String,
    pub style: AccountStyle,
    /// The account's zone, the one the customer reads the deadline in.
    pub time_zone: vp_domain::TimeZone,
    pub method_name: String,
    pub documents: Vec<DocumentLink>,
    /// What is being bought, for the order summary.
    pub order: OrderItem,
    /// Whole seconds until the payment deadline (0 once it has passed).
    pub seconds_left: i64,
    /// The page listing the apps to connect with, once the client has a subscription.
    pub connect_url: Option<String>,
    /// The subscription link token to offer "Get reminders in Telegram" with: the client has
    /// a subscription and the account a connected bot.
    pub reminders_token: Option<String>,
    /// What the "renew automatically" tick would consent to, while the invoice is payable and
    /// buys a term that can renew through a gateway that saves methods.
    pub renewal_offer: Option<RenewalOffer>,
    /// A consent was given with this invoice and automatic renewal is still on.
    pub renews: bool,
    /// A web shop order for an email that had bought before: the connect link (and the
    /// reminders offer) go to that address only, since whoever opens this page may only have
    /// typed it (docs/decisions.md, "The web shop").
    pub connect_mailed: bool,
    /// The invoice pays for a gift: it renews nothing and connects nothing of the buyer's; the
    /// gift's links show once it is paid (`Gifts::links_of_paid`).
    pub gift: bool,
}

impl Payments {
    pub async fn payment_page(&self, payment_id: &PaymentId, lang: Lang) -> AppResult<PaymentPage> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let account = tx.account(&invoice.account_id).await?.ok_or(AppError::NotFound("invoice"))?;
        let method = tx.payment_method(&invoice.method).await?;
        let order = match invoice.purpose {
            Purpose::Subscription { plan_id } => {
                let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("invoice"))?;
                OrderItem::Subscription { months: if plan.lifetime { 0 } else { plan.months } }
            }
            Purpose::Devices { count } => OrderItem::Devices { count },
        };
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let connect_mailed = match tx.shop_customer_of_client(&invoice.client_ref).await? {
            None => false,
            Some(customer) if customer.first_payment_id.as_deref() != Some(invoice.payment_id.as_str()) => true,
            // The purchase that linked the address shows the link only if it also made the
            // subscription: a payment of the client before it, or a trial the address's owner
            // started on the account page, was someone else's, who also typed this address.
            Some(_) => {
                tx.had_trial(&invoice.client_ref).await?
                    || tx
                        .client_invoices(&invoice.client_ref, PAID_BEFORE_LOOKED_AT)
                        .await?
                        .iter()
                        .any(|i| i.payment_id != invoice.payment_id && paid_first(i, &invoice))
            }
        };
        let consent = tx.consent_of_invoice(&invoice.payment_id).await?;
        let renews = match &consent {
            Some(c) => tx
                .current_consent(&c.client_ref)
                .await?
                .is_some_and(|now| now.id == c.id && now.turned_off_at.is_none()),
            None => false,
        };
        let has_bot = connected_bot(tx.as_mut(), &account.id).await?.is_some();
        let gift = tx.gift(&invoice.payment_id).await?.is_some();
        tx.commit().await?;
        let documents = self.catalog.document_links(&account, lang).await?;
        let current = client.as_ref().and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
        let renewal_offer = match (order, &consent) {
            (OrderItem::Subscription { months }, None) if !gift => {
                self.renewal_offer(&invoice, months, current, &account)
            }
            _ => None,
        };
        let link_token = client.and_then(|c| c.subscription).map(|s| s.link_token).filter(|_| !connect_mailed && !gift);
        let connect_url = link_token.as_ref().map(|t| connect_page_url(&self.public_base_url, t, None));
        let reminders_token = link_token.filter(|_| has_bot);
        Ok(PaymentPage {
            method_name: method
                .map_or_else(|| invoice.method.clone(), |m| lang.pick_str(&m.name_en, &m.name_ru).to_owned()),
            brand_name: account.brand_name.as_str().to_owned(),
            style: account.style.clone(),
            time_zone: account.time_zone.clone(),
            seconds_left: (invoice.expires_at - self.clock.now()).whole_seconds().max(0),
            order,
            connect_url,
            reminders_token,
            renewal_offer,
            renews,
            connect_mailed: connect_mailed && !gift,
            gift,
            invoice,
            documents,
        })
    }

    /// What "renew automatically" would consent to for `invoice`, a `months`-month plan's (0 for
    /// lifetime) for a client whose term is `current`: offered while the invoice is payable, for
    /// a periodic plan, through a gateway that saves methods (never for Stars: Telegram renews
    /// its own subscriptions).
    pub(crate) fn renewal_offer(
        &self,
        invoice: &InvoiceRecord,
        months: u32,
        current: Option<&vp_domain::Subscription>,
        account: &vp_ports::AccountRecord,
    ) -> Option<RenewalOffer> {
        if months == 0 || !self.settled.consents.offered(&invoice.rail) {
            return None;
        }
        let next_charge_at = match invoice.status {
            status if status.may_be_paid() => next_charge_after(current, months, self.clock.now()),
            // Paid already (a gateway's page came first): the term it bought renews.
            InvoiceStatus::Succeeded => charge_at(current.filter(|s| renewable(s))?.expires_at),
            _ => return None,
        };
        let time_zone = account.time_zone.clone();
        let amount = renewal_price(invoice).customer;
        Some(RenewalOffer { amount, months, next_charge_at, time_zone })
    }

    /// The customer consents to automatic renewal with `invoice`, before paying it or (back from
    /// a gateway's page) after: an invoice paid already has its saved method kept at once.
    pub(crate) async fn consent(&self, invoice: &InvoiceRecord, given: &ConsentGiven) -> AppResult<()> {
        self.settled.consents.give(invoice, given).await?;
        let Some(gateway_payment_id) = invoice.gateway_payment_id.as_deref() else { return Ok(()) };
        if invoice.status == InvoiceStatus::Succeeded {
            let consent = read!(self.store, |tx| tx.consent_of_invoice(&invoice.payment_id));
            if let Some(consent) = consent.filter(|c| c.saved_method_sealed.is_none()) {
                self.settled.consents.keep_saved_method(consent, &invoice.rail, gateway_payment_id).await;
            }
        }
        Ok(())
    }

    /// "Renew automatically" on the payment result page, after paying on the gateway's page:
    /// the consent with the sentence shown. `false` when it is not offered for this invoice.
    pub async fn consent_after_payment(
        &self,
        payment_id: &PaymentId,
        word: impl Fn(&RenewalOffer) -> String,
        lang: Lang,
    ) -> AppResult<bool> {
        let page = self.payment_page(payment_id, lang).await?;
        let Some(offer) = page.renewal_offer.filter(|_| page.invoice.status == InvoiceStatus::Succeeded) else {
            return Ok(false);
        };
        self.consent(&page.invoice, &ConsentGiven { text: word(&offer), lang }).await?;
        Ok(true)
    }

    /// The customer pressed pay or decline on the sandbox page; paying with the "renew
    /// automatically" tick gives the consent, with the sentence shown, before the payment.
    pub async fn sandbox_pay(
        &self,
        payment_id: &PaymentId,
        paid: bool,
        consent: Option<ConsentGiven>,
    ) -> AppResult<InvoiceRecord> {
        // Only the sandbox's own payments are paid on its page (never a Stars invoice, nor
        // another gateway's).
        let on_this_page = |invoice: &InvoiceRecord| invoice.rail.gateway() == Some(GatewayName::Sandbox);
        if let (true, Some(given)) = (paid, consent) {
            let invoice = read!(self.store, |tx| tx.invoice_by_id(payment_id))
                .filter(on_this_page)
                .ok_or(AppError::NotFound("invoice"))?;
            if invoice.status.may_be_paid() {
                self.settled.consents.give(&invoice, &given).await?;
            }
        }
        let outcome = if paid { PaymentOutcome::Paid } else { PaymentOutcome::AttemptFailed };
        self.apply_outcome_if(payment_id, outcome, on_this_page).await
    }
}
