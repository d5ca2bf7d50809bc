//! A Stars payment from the form to the settlement: the pre-checkout answer (the invoice may
//! still be paid, at the amount asked), then the payment Telegram reports, applied once per
//! charge id through the one settlement of any payment, however often it is reported. The
//! charge is recorded before the settlement, so a report after a crash between the two
//! finishes what the first one began.

use time::OffsetDateTime;
use vp_domain::renewal::TurnedOffBy;
use vp_domain::stars::{STARS_CURRENCY, StarsRate};
use vp_domain::{AccountId, PaymentId};
use vp_domain::{InvoiceStatus, Money, PaymentOutcome, Rail};
use vp_ports::{InvoiceRecord, PreCheckout, StarsCharge, StarsInvoice, StarsPaid, StarsSubscription, Tx};

use super::Stars;
use crate::error::{AppError, AppResult};
use crate::payments::{Renewal, renewal_invoice};

/// Why an invoice may not be paid now: the pre-checkout answer's reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckoutRefusal {
    /// Not an invoice of this bot's account, or paid, expired or past its deadline.
    NotPayable,
    /// The form asks another amount than the invoice.
    AmountChanged,
    /// The platform blocked the client.
    Blocked,
}

/// What a reported payment came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StarsPayment {
    /// Applied: the invoice it paid, as it stands now.
    Settled(Box<InvoiceRecord>),
    /// Reported and applied before (a repeated update): nothing changed.
    Repeated,
    /// A second payment of an invoice already paid: the Stars were given back.
    Refunded,
    /// Not a Stars payment of an invoice of this account: nothing was done (logged).
    Ignored,
}

/// What the unit of work of a reported payment decided.
enum Recorded {
    /// Settle this invoice (a subscription's first payment also turns automatic renewal on).
    Settle {
        payment_id: PaymentId,
        subscription: Option<String>,
    },
    Repeated,
    PaidTwice,
    Ignored,
}

/// The charge `paid` reports, paying `payment_id` of the account.
fn charge_of(
    paid: &StarsPaid,
    account_id: &AccountId,
    payment_id: &str,
    renewal: bool,
    now: OffsetDateTime,
) -> StarsCharge {
    StarsCharge {
        charge_id: paid.charge_id.clone(),
        account_id: account_id.clone(),
        payment_id: payment_id.to_owned(),
        user_id: paid.user_id,
        stars: paid.total_amount,
        renewal,
        paid_at: now,
        refunded_at: None,
    }
}

/// When a subscription's payment says it is paid until, else a period from now.
fn paid_until(paid: &StarsPaid, now: OffsetDateTime) -> OffsetDateTime {
    paid.paid_until
        .and_then(|at| OffsetDateTime::from_unix_timestamp(at).ok())
        .unwrap_or(now + time::Duration::seconds(i64::from(vp_domain::stars::STARS_SUBSCRIPTION_PERIOD_SECS)))
}

impl Stars {
    /// Whether the invoice a pre-checkout query is about may be paid now; `None`: it may.
    pub async fn pre_checkout(
        &self,
        account_id: &AccountId,
        query: &PreCheckout,
    ) -> AppResult<Option<CheckoutRefusal>> {
        let now = self.clock.now();
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(&query.payload).await?.filter(|i| i.account_id == account_id);
        let stars = tx.stars_invoice(&query.payload).await?;
        let client = match &invoice {
            Some(i) => tx.client_by_ref(&i.client_ref).await?,
            None => None,
        };
        tx.commit().await?;
        let (Some(invoice), Some(stars)) = (invoice, stars) else { return Ok(Some(CheckoutRefusal::NotPayable)) };
        let refusal = if invoice.status != InvoiceStatus::Pending
            || now >= invoice.expires_at
            || query.currency != STARS_CURRENCY
        {
            Some(CheckoutRefusal::NotPayable)
        } else if query.total_amount != stars.stars {
            Some(CheckoutRefusal::AmountChanged)
        } else if client.is_some_and(|c| c.blocked) {
            Some(CheckoutRefusal::Blocked)
        } else {
            None
        };
        Ok(refusal)
    }

    /// A payment to the account's bot went through: its invoice (a renewal of a Stars
    /// subscription gets a new one) is settled like any payment, once per charge.
    pub async fn paid(&self, account_id: &AccountId, paid: &StarsPaid) -> AppResult<StarsPayment> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        let recorded = self.record_charge(tx.as_mut(), account_id, paid, now).await?;
        tx.commit().await?;
        match recorded {
            Recorded::Settle { payment_id, subscription } => {
                let invoice = self.payments.apply_payment_outcome(&payment_id, PaymentOutcome::Paid).await?;
                if subscription.is_some() {
                    // After the settlement: the subscription exists from there on.
                    let mut tx = self.store.begin().await?;
                    tx.set_auto_renew(&invoice.client_ref, true).await?;
                    tx.commit().await?;
                }
                Ok(StarsPayment::Settled(Box::new(invoice)))
            }
            Recorded::Repeated => Ok(StarsPayment::Repeated),
            Recorded::Ignored => Ok(StarsPayment::Ignored),
            Recorded::PaidTwice => {
                tracing::warn!(charge = %paid.charge_id, payment_id = %paid.payload, "a Stars invoice paid twice; refunding the second payment");
                self.rail.refund(&charge_of(paid, account_id, &paid.payload, false, now)).await?;
                Ok(StarsPayment::Refunded)
            }
        }
    }

    /// Under the account's lock: the charge recorded with the invoice it pays.
    async fn record_charge(
        &self,
        tx: &mut dyn Tx,
        account_id: &AccountId,
        paid: &StarsPaid,
        now: OffsetDateTime,
    ) -> AppResult<Recorded> {
        let first = tx.invoice_by_id(&paid.payload).await?.filter(|i| i.account_id == account_id);
        let stars_invoice = tx.stars_invoice(&paid.payload).await?;
        let (Some(first), Some(stars_invoice), true) = (first, stars_invoice, paid.currency == STARS_CURRENCY) else {
            tracing::error!(charge = %paid.charge_id, payload = %paid.payload, "a Stars payment for no Stars invoice of the account; left for the operator");
            return Ok(Recorded::Ignored);
        };
        if let Some(known) = tx.stars_charge(&paid.charge_id).await? {
            // Reported before; settled then, unless that stopped before the settlement.
            let invoice = tx.invoice_by_id(&known.payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
            return Ok(match invoice.status {
                status if status.may_be_paid() => {
                    let subscription = tx.stars_subscription(&paid.charge_id).await?;
                    let subscription = subscription.filter(|s| s.canceled_at.is_none()).map(|s| s.charge_id);
                    Recorded::Settle { payment_id: invoice.payment_id, subscription }
                }
                _ => Recorded::Repeated,
            });
        }
        let charge = |payment_id: &str, renewal: bool| charge_of(paid, account_id, payment_id, renewal, now);
        if paid.recurring && !paid.first_recurring {
            let payment_id = self.renewal_invoice(tx, &first, paid, now).await?;
            tx.insert_stars_charge(&charge(&payment_id, true)).await?;
            let subscription = tx.stars_charge_of_invoice(&first.payment_id).await?;
            if let Some(mut subscription) = match subscription {
                Some(c) => tx.stars_subscription(&c.charge_id).await?,
                None => None,
            } {
                subscription.paid_until = paid_until(paid, now);
                tx.update_stars_subscription(&subscription).await?;
            }
            return Ok(Recorded::Settle { payment_id, subscription: None });
        }
        if tx.stars_charge_of_invoice(&first.payment_id).await?.is_some() {
            return Ok(Recorded::PaidTwice);
        }
        tx.insert_stars_charge(&charge(&first.payment_id, false)).await?;
        if !(stars_invoice.subscription && paid.recurring) {
            return Ok(Recorded::Settle { payment_id: first.payment_id, subscription: None });
        }
        let subscription = StarsSubscription {
            charge_id: paid.charge_id.clone(),
            account_id: account_id.clone(),
            client_ref: first.client_ref.clone(),
            payment_id: first.payment_id.to_string(),
            user_id: paid.user_id,
            stars: paid.total_amount,
            paid_until: paid_until(paid, now),
            canceled_at: None,
        };
        tx.insert_stars_subscription(&subscription).await?;
        // Telegram renews it from now on: a card's automatic renewal would charge the term twice.
        self.consents.turn_off(tx, &first.client_ref, TurnedOffBy::StarsSubscription).await?;
        Ok(Recorded::Settle { payment_id: first.payment_id, subscription: Some(subscription.charge_id) })
    }

    /// The invoice of a subscription's renewal: the plan of its first invoice, worth the
    /// Stars charged at today's rate (the first invoice's rate when the bot takes no more).
    async fn renewal_invoice(
        &self,
        tx: &mut dyn Tx,
        first: &InvoiceRecord,
        paid: &StarsPaid,
        now: OffsetDateTime,
    ) -> AppResult<PaymentId> {
        let first_stars = tx.stars_invoice(&first.payment_id).await?.map_or(1, |s| s.stars.max(1));
        let rate = match tx.stars_rate(&first.account_id).await? {
            Some(rate) => rate,
            None => StarsRate::from_rubles(Money::from_kopecks(first.amounts.customer.kopecks() / first_stars))
                .map_err(|e| AppError::Internal(format!("the first invoice's rate: {e}")))?,
        };
        let amounts = rate
            .renewal(paid.total_amount, first.amounts)
            .ok_or_else(|| AppError::Internal("the renewal's value overflows".into()))?;
        let client = tx.client_by_ref(&first.client_ref).await?.ok_or(AppError::NotFound("client"))?;
        let renewal = Renewal { purpose: first.purpose, method: &first.method, rail: Rail::Stars, amounts };
        let invoice = renewal_invoice(PaymentId::issued(self.ids.new_id("pay")), &client, renewal, now);
        tx.insert_invoice(&invoice).await?;
        let stars = StarsInvoice {
            payment_id: invoice.payment_id.to_string(),
            account_id: first.account_id.clone(),
            stars: paid.total_amount,
            subscription: true,
            created_at: now,
        };
        tx.insert_stars_invoice(&stars).await?;
        Ok(invoice.payment_id)
    }
}
