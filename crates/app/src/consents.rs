//! The customer's consent to automatic renewal, kept as given, and the payment method the
//! gateway saved with the consent's payment, sealed at rest; in the term check's unit of work,
//! the price a consenting customer is told and the renewal charge a term's end schedules, and
//! whether Telegram renews a term itself. Payments (a consent comes with a payment), the term
//! check and the renewals all build on it, so it depends on none of them.

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::markup::price;
use vp_domain::renewal::{TurnedOffBy, charge_due};
use vp_domain::{AccountId, ClientRef};
use vp_domain::{Lang, Money, Purpose, Rail};
use vp_ports::{
    AccountRepo, ClientRepo, Clock, IdGenerator, InvoiceRecord, OfferRepo, RenewalCharge, RenewalChargeState,
    RenewalConsent, RenewalRepo, StarsRepo, StarsSubscription, Store,
};

use crate::error::{AppError, AppResult};
use crate::gateways::Gateways;
use crate::secrets::{SecretKeys, SecretPurpose};

/// What the consent sentence names before paying, for a page or a bot to word it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalOffer {
    pub amount: Money,
    pub months: u32,
    pub next_charge_at: OffsetDateTime,
    /// The account's zone, the one the customer reads the day of the next charge in.
    pub time_zone: vp_domain::TimeZone,
}

/// The tick a customer gave, with the sentence they were shown, word for word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentGiven {
    pub text: String,
    pub lang: Lang,
}

/// Consents and saved methods, shared by the payments (a consent comes with a payment) and
/// the renewals (which charge what it saved).
pub struct Consents {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) gateways: Gateways,
    pub(crate) keys: Arc<SecretKeys>,
}

impl Consents {
    /// Whether a payment on `rail` can save a method for renewals, so a consent can be offered
    /// with it (never on Stars: Telegram renews its own subscriptions).
    pub fn offered(&self, rail: &Rail) -> bool {
        self.gateways.saves_methods(rail)
    }

    /// Records the consent given with `invoice`. Ticking again for the same invoice changes
    /// nothing: the first sentence shown stays the proof.
    pub(crate) async fn give(&self, invoice: &InvoiceRecord, given: &ConsentGiven) -> AppResult<()> {
        let Purpose::Subscription { plan_id } = invoice.purpose else {
            return Err(AppError::Conflict(format!("invoice {} buys no term to renew", invoice.payment_id)));
        };
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if tx.consent_of_invoice(&invoice.payment_id).await?.is_none() {
            let consent = RenewalConsent {
                id: self.ids.new_id("ren"),
                account_id: invoice.account_id.clone(),
                client_ref: invoice.client_ref.clone(),
                payment_id: invoice.payment_id.to_string(),
                plan_id,
                method: invoice.method.clone(),
                consented_at: now,
                text: given.text.clone(),
                lang: given.lang,
                price: renewal_price(invoice),
                price_told_at: now,
                saved_method_sealed: None,
                saved_method_title: None,
                turned_off_at: None,
                turned_off_by: None,
            };
            tx.insert_consent(&consent).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// After a consenting invoice was paid: asks the gateway which method it saved and keeps
    /// it sealed, which puts the consent in effect. A failure is logged; without a saved method
    /// the consent never takes effect and nothing is charged.
    pub(crate) async fn keep_saved_method(&self, consent: RenewalConsent, rail: &Rail, gateway_payment_id: &str) {
        if let Err(e) = self.save_method(consent, rail, gateway_payment_id).await {
            tracing::warn!(error = %e, payment = %gateway_payment_id, "the saved payment method was not kept");
        }
    }

    async fn save_method(&self, mut consent: RenewalConsent, rail: &Rail, gateway_payment_id: &str) -> AppResult<()> {
        let gateway = self.gateways.of_rail(rail)?;
        let saved = gateway.saved_method(gateway_payment_id).await.map_err(|e| AppError::External(e.to_string()))?;
        let Some(method) = saved else {
            tracing::info!(consent = %consent.id, "the gateway saved no method: the consent cannot be charged");
            return Ok(());
        };
        consent.saved_method_sealed =
            Some(self.keys.seal(SecretPurpose::SavedPaymentMethod { consent_id: &consent.id }, &method.id));
        consent.saved_method_title = Some(method.title);
        let mut tx = self.store.begin().await?;
        tx.update_consent(&consent).await?;
        tx.set_auto_renew(&consent.client_ref, true).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Turns automatic renewal off for the client from now on, recorded as `by`'s doing.
    /// `false` when it was not on.
    pub(crate) async fn turn_off(
        &self,
        tx: &mut (impl RenewalRepo + ClientRepo + ?Sized),
        client_ref: &ClientRef,
        by: TurnedOffBy,
    ) -> AppResult<bool> {
        let Some(mut consent) = tx.current_consent(client_ref).await?.filter(|c| c.turned_off_at.is_none()) else {
            return Ok(false);
        };
        consent.turned_off_at = Some(self.clock.now());
        consent.turned_off_by = Some(by);
        tx.update_consent(&consent).await?;
        tx.set_auto_renew(client_ref, false).await?;
        Ok(true)
    }
}

/// At a consenting customer's 72 h reminder, in its unit of work: the customer is told today's
/// price of their plan, which from then on is what a renewal charges. A price changed after
/// that is charged only once a later reminder told it.
pub(crate) async fn tell_price(
    tx: &mut (impl RenewalRepo + OfferRepo + AccountRepo + ?Sized),
    client_ref: &ClientRef,
    account_id: &AccountId,
    now: OffsetDateTime,
) -> AppResult<()> {
    let Some(mut consent) = tx.current_consent(client_ref).await?.filter(RenewalConsent::chargeable) else {
        return Ok(());
    };
    let (Some(plan), Some(account)) = (tx.plan(consent.plan_id).await?, tx.account(account_id).await?) else {
        return Ok(());
    };
    let today = price(plan.platform_price, 1, account.markup).map_err(|e| AppError::Internal(e.to_string()))?;
    if today != consent.price {
        consent.price = today;
        consent.price_told_at = now;
        tx.update_consent(&consent).await?;
    }
    Ok(())
}

/// What an automatic renewal of `invoice`'s purchase charges: its price without a promo code.
pub(crate) fn renewal_price(invoice: &InvoiceRecord) -> vp_domain::PriceBreakdown {
    invoice.promo.as_ref().map_or(invoice.amounts, |applied| applied.full_price(invoice.amounts))
}

/// In the term check's unit of work: when the client consented, has a saved method and the
/// charge of this term is due, records the term's renewal charge (once per term). `true` when
/// the term renews by charge, so the 24 h reminder gives way to it.
pub(crate) async fn schedule_charge(
    tx: &mut (impl RenewalRepo + ?Sized),
    ids: &dyn IdGenerator,
    client_ref: &ClientRef,
    subscription: &vp_domain::Subscription,
    now: OffsetDateTime,
) -> AppResult<bool> {
    if !charge_due(subscription, now) {
        return Ok(false);
    }
    let Some(consent) = tx.current_consent(client_ref).await?.filter(|c| c.chargeable()) else { return Ok(false) };
    let charge = RenewalCharge {
        client_ref: client_ref.clone(),
        term_ends_at: subscription.expires_at,
        account_id: consent.account_id.clone(),
        consent_id: consent.id,
        attempt: 1,
        payment_id: ids.new_id("pay"),
        state: RenewalChargeState::Due,
        next_try_at: Some(now),
        last_error: None,
        created_at: now,
    };
    tx.insert_renewal_charge(&charge).await?;
    Ok(true)
}

/// The client's Stars subscription that Telegram renews: its newest, unless cancelled.
pub(crate) async fn stars_renewing(
    tx: &mut (impl StarsRepo + ?Sized),
    client_ref: &ClientRef,
) -> AppResult<Option<StarsSubscription>> {
    Ok(tx.stars_subscription_of_client(client_ref).await?.filter(|s| s.canceled_at.is_none()))
}

/// In the term check's unit of work: whether Telegram renews the client's term, so no
/// reminder asks to renew by hand.
pub(crate) async fn renews_in_telegram(tx: &mut (impl StarsRepo + ?Sized), client_ref: &ClientRef) -> AppResult<bool> {
    Ok(stars_renewing(tx, client_ref).await?.is_some())
}
