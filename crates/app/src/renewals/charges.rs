//! The renewal charge of a term. The term check decides it in its own unit of work, under the
//! account's lock (`consents::schedule_charge`), so a term gets at most one; the worker then reserves
//! the renewal invoice (its id is the gateway's idempotency key) before it asks the gateway, so
//! a try after a crash, a restart or on another instance gets the same payment, never a
//! second one. The term moves on only when the payment has succeeded, through the same
//! settlement as any payment.

use time::Duration;
use vp_domain::AccountId;
use vp_domain::backoff::GATEWAY_RECHECK_FROM;
use vp_domain::renewal::{charge_due, retry_at};
use vp_domain::{GatewayState, InvoiceStatus, PaymentId, PaymentOutcome, Purpose};
use vp_ports::{Claim, GatewayError, InvoiceRecord, RenewalCharge, RenewalChargeState, SavedMethodCharge};

use super::Renewals;
use crate::error::{AppError, AppResult};
use crate::payments::{Renewal, renewal_invoice};

/// A claimed charge is held this long: a worker that dies mid-charge leaves it to the next.
const LEASE: Duration = Duration::minutes(5);
/// When the gateway did not answer, or has not decided yet, the charge is asked again after this.
const ASK_AGAIN: Duration = Duration::minutes(5);
/// A charge the gateway has not decided a day after the end of the term is given up.
const GIVE_UP_AFTER: Duration = Duration::days(1);

/// What one run of the renewal worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenewalRun {
    /// Paid: the term moved on.
    pub charged: usize,
    /// Declined (tried again later, or the term ends as usual).
    pub declined: usize,
    /// Not charged: turned off, or the term changed before the try.
    pub dropped: usize,
    /// The gateway has not decided, or did not answer: asked again.
    pub waiting: usize,
}

/// What a try came to.
enum Tried {
    Charged,
    Declined(String),
    Dropped(&'static str),
    Waiting,
}

impl Renewals {
    /// Makes the renewal charges that are due, at most `limit` of them.
    pub async fn run_due_charges(&self, limit: u32) -> AppResult<RenewalRun> {
        let now = self.clock.now();
        let claim = Claim { now, lease_until: now + LEASE, limit };
        let mut tx = self.store.begin().await?;
        let due = tx.claim_renewal_charges(claim).await?;
        tx.commit().await?;
        let mut run = RenewalRun::default();
        for charge in due {
            let claimed = charge.clone();
            match self.try_charge(charge).await {
                Ok(Tried::Charged) => run.charged += 1,
                Ok(Tried::Declined(_)) => run.declined += 1,
                Ok(Tried::Dropped(_)) => run.dropped += 1,
                Ok(Tried::Waiting) => run.waiting += 1,
                // Left claimed: tried again when the lease ends, until a day after the term's end.
                Err(e) if now < claimed.term_ends_at + GIVE_UP_AFTER => {
                    let (client, term) = (&claimed.client_ref, claimed.term_ends_at);
                    tracing::warn!(%client, %term, error = %e, "renewal charge failed; tried again later");
                }
                Err(e) => {
                    tracing::error!(client = %claimed.client_ref, error = %e, "renewal charge given up");
                    self.give_up(claimed, &e).await?;
                    run.declined += 1;
                }
            }
        }
        Ok(run)
    }

    /// A charge that kept failing on our side is given up a day after its term ended (a
    /// payment the gateway still settles reaches its invoice through the reconciliation).
    async fn give_up(&self, mut charge: RenewalCharge, e: &AppError) -> AppResult<()> {
        charge.state = RenewalChargeState::Failed;
        charge.next_try_at = None;
        charge.last_error = Some(e.to_string());
        let mut tx = self.store.begin().await?;
        tx.update_renewal_charge(&charge).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn try_charge(&self, mut charge: RenewalCharge) -> AppResult<Tried> {
        if charge.state == RenewalChargeState::Due {
            if let Some(dropped) = self.open_charge(&mut charge).await? {
                return Ok(dropped);
            }
        }
        // Charging: the invoice is reserved. Settled meanwhile (by the reconciler, or a try
        // that died after the gateway answered)? Then only the charge's record follows.
        let invoice = read!(self.store, |tx| tx.invoice_by_id(&charge.payment_id))
            .ok_or(AppError::NotFound("renewal invoice"))?;
        let tried = if invoice.status.may_be_paid() {
            // An expired renewal invoice may still be paid at the gateway (its answer was lost,
            // or it had not decided by the deadline): asked again with the same key, so a new
            // try never charges a term twice.
            self.ask_gateway(&charge, invoice).await?
        } else if invoice.status == InvoiceStatus::Succeeded {
            Tried::Charged
        } else {
            Tried::Declined("the renewal invoice did not go through".into())
        };
        self.record_try(charge, &tried).await?;
        Ok(tried)
    }

    /// The first step of a try, in one unit of work under the account's lock: the consent and
    /// the term are read again (either may have changed since the check), and the renewal
    /// invoice is reserved. `Some` when nothing is to be charged.
    async fn open_charge(&self, charge: &mut RenewalCharge) -> AppResult<Option<Tried>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(&charge.account_id).await?;
        let consent = tx.current_consent(&charge.client_ref).await?;
        let client = tx.client_by_ref(&charge.client_ref).await?;
        let term = client.as_ref().and_then(|c| c.subscription.as_ref()).map(|r| &r.subscription);
        let dropped = match (&consent, term) {
            (Some(c), _) if c.id != charge.consent_id || c.turned_off_at.is_some() => {
                Some("automatic renewal was turned off")
            }
            (None, _) => Some("automatic renewal was turned off"),
            _ if client.as_ref().is_some_and(|c| c.blocked) => Some("the client is blocked"),
            (_, Some(t)) if t.expires_at == charge.term_ends_at && charge_due(t, now) => None,
            _ => Some("the term changed before the charge"),
        };
        let plan = match (&consent, dropped) {
            (Some(c), None) => tx.plan(c.plan_id).await?,
            _ => None,
        };
        let (Some(consent), Some(client), Some(_plan), None) = (consent, client, plan, dropped) else {
            let reason = dropped.unwrap_or("the plan no longer exists");
            charge.state = RenewalChargeState::Dropped;
            charge.next_try_at = None;
            charge.last_error = Some(reason.to_owned());
            tx.update_renewal_charge(charge).await?;
            tx.commit().await?;
            tracing::info!(client = %charge.client_ref, reason, "renewal charge dropped");
            return Ok(Some(Tried::Dropped(reason)));
        };
        let purpose = Purpose::Subscription { plan_id: consent.plan_id };
        // The consenting payment's gateway saved the method: the renewal is charged there.
        let first = tx.invoice_by_id(&consent.payment_id).await?.ok_or(AppError::NotFound("consent's invoice"))?;
        // The price the customer was last told (docs/decisions.md).
        let renewal = Renewal { purpose, method: &consent.method, rail: first.rail.clone(), amounts: consent.price };
        let mut invoice = renewal_invoice(PaymentId::issued(charge.payment_id.clone()), &client, renewal, now);
        // The buyer's receipt goes where the consenting payment's went, for today's amount.
        let description = renewal_description(&consent_brand(tx.as_mut(), &consent.account_id).await?);
        invoice.receipt = first.receipt.map(|r| r.for_amount(&description, purpose, invoice.amounts.customer));
        tx.insert_invoice(&invoice).await?;
        if self.gateways.reconciles(&invoice.rail) {
            tx.schedule_gateway_check(&invoice.payment_id, Some(now + GATEWAY_RECHECK_FROM)).await?;
        }
        charge.state = RenewalChargeState::Charging;
        tx.update_renewal_charge(charge).await?;
        tx.commit().await?;
        Ok(None)
    }

    /// Asks the gateway to charge the saved method, with the invoice id as the key, and settles
    /// the invoice with its answer.
    async fn ask_gateway(&self, charge: &RenewalCharge, mut invoice: InvoiceRecord) -> AppResult<Tried> {
        // The consent the charge was decided with, even if turned off or replaced since the
        // invoice was reserved: the charge was started before, and completes (the same key
        // gives the same payment).
        let (consent, account) = {
            let mut tx = self.store.read().await?;
            let consent = tx.consent(&charge.consent_id).await?;
            let account = tx.account(&charge.account_id).await?;
            tx.commit().await?;
            (consent.ok_or(AppError::NotFound("renewal consent"))?, account.ok_or(AppError::NotFound("account"))?)
        };
        let Some(method_id) = self.consents.keys.saved_method(&consent)? else {
            return Err(AppError::NotFound("saved payment method"));
        };
        let request = SavedMethodCharge {
            idempotency_key: invoice.payment_id.to_string(),
            account_id: charge.account_id.clone(),
            amount: invoice.amounts.customer,
            description: renewal_description(account.brand_name.as_str()),
            saved_method_id: method_id,
            receipt: invoice.receipt.clone(),
        };
        let answer = self.gateways.of_rail(&invoice.rail)?.charge_saved_method(&request).await;
        let payment = match answer {
            Ok(p) => p,
            Err(GatewayError::Unavailable(e)) => {
                tracing::info!(payment_id = %invoice.payment_id, error = %e, "renewal charge: the gateway did not answer");
                return Ok(Tried::Waiting);
            }
            Err(e) => {
                self.fail(&invoice).await?;
                return Ok(Tried::Declined(e.to_string()));
            }
        };
        if invoice.gateway_payment_id.as_deref() != Some(payment.gateway_payment_id.as_str()) {
            let mut tx = self.store.begin().await?;
            invoice.gateway_payment_id = Some(payment.gateway_payment_id.clone());
            tx.update_invoice(&invoice).await?;
            tx.commit().await?;
        }
        match payment.state {
            GatewayState::Succeeded | GatewayState::Refunded => {
                self.payments.apply_payment_outcome(&invoice.payment_id, PaymentOutcome::Paid).await?;
                Ok(Tried::Charged)
            }
            GatewayState::Declined | GatewayState::Expired => {
                self.fail(&invoice).await?;
                Ok(Tried::Declined(format!("the gateway declined: {:?}", payment.state)))
            }
            GatewayState::Pending => Ok(Tried::Waiting),
        }
    }

    /// A declined charge's invoice fails; one the deadline expired already stays expired.
    async fn fail(&self, invoice: &InvoiceRecord) -> AppResult<()> {
        if invoice.status == InvoiceStatus::Pending {
            self.payments.apply_payment_outcome(&invoice.payment_id, PaymentOutcome::AttemptFailed).await?;
        }
        Ok(())
    }

    /// Records a try: done, waiting for the gateway, or declined (tried again within the
    /// retries, with a new invoice, else the term ends as usual).
    async fn record_try(&self, mut charge: RenewalCharge, tried: &Tried) -> AppResult<()> {
        let now = self.clock.now();
        let declined = match tried {
            Tried::Declined(_) => read!(self.store, |tx| tx.invoice_by_id(&charge.payment_id)),
            _ => None,
        };
        match tried {
            Tried::Charged => {
                charge.state = RenewalChargeState::Succeeded;
                charge.next_try_at = None;
            }
            Tried::Dropped(reason) => {
                charge.state = RenewalChargeState::Dropped;
                charge.next_try_at = None;
                charge.last_error = Some((*reason).to_owned());
            }
            // Asked again with the same key until the gateway decides; a day after the end of
            // the term it is given up (a payment it still settles reaches the invoice through
            // the reconciliation and renews from then).
            Tried::Waiting if now < charge.term_ends_at + GIVE_UP_AFTER => charge.next_try_at = Some(now + ASK_AGAIN),
            Tried::Waiting => {
                charge.state = RenewalChargeState::Failed;
                charge.next_try_at = None;
                charge.last_error = Some("the gateway did not decide".into());
            }
            Tried::Declined(reason) => {
                charge.last_error = Some(reason.clone());
                match retry_at(charge.attempt, charge.term_ends_at, now) {
                    Some(at) => {
                        charge.attempt += 1;
                        charge.payment_id = self.ids.new_id("pay");
                        charge.state = RenewalChargeState::Due;
                        charge.next_try_at = Some(at);
                    }
                    None => {
                        charge.state = RenewalChargeState::Failed;
                        charge.next_try_at = None;
                    }
                }
                tracing::info!(client = %charge.client_ref, attempt = charge.attempt, %reason, "renewal charge declined");
            }
        }
        let mut tx = self.store.begin().await?;
        if let (Tried::Declined(_), Some(invoice)) = (tried, declined) {
            // The customer hears of it in the bot, with the retry or the end, and a way to renew.
            self.reminders.queue_renewal_declined(tx.as_mut(), &invoice, charge.term_ends_at).await?;
        }
        tx.update_renewal_charge(&charge).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// What a renewal charge is called at the gateway and on its receipt.
fn renewal_description(brand: &str) -> String {
    format!("{brand}: renewal")
}

/// The account's brand, for a renewal's description.
async fn consent_brand(tx: &mut dyn vp_ports::Tx, account_id: &AccountId) -> AppResult<String> {
    let account = tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
    Ok(account.brand_name.as_str().to_owned())
}
