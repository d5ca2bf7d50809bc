//! Gateway outcomes: one code path moves an invoice through the spec's payment status table
//! and records, in the same transaction, the access it grants and the partner's ledger entry.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::invoice::{LedgerEffect, outcome_already_applied, transition};
use vp_domain::{DeviceLimit, InvoiceStatus, Money, PaymentId, PaymentOutcome, Purpose, Subscription};
use vp_ports::{
    AccountRepo, ClientRecord, ClientRepo, EventRepo, GiftRecord, InvoiceRecord, LedgerEntry, LedgerKind,
    LedgerSubject, OfferRepo, PlanRecord, ReadAhead, ReferralRepo, SettingsRepo, SubscriptionRecord, Tx,
};

use super::Payments;
use crate::content::load_app_list;
use crate::error::{AppError, AppResult};
use crate::events::types;

/// Work a channel above payments does in the unit of work that grants a paid invoice's access,
/// so it happens if and only if the payment is recorded: the channel implements this, and
/// payments depends on none of them.
#[async_trait]
pub(crate) trait AccessGranted: Send + Sync {
    async fn access_granted(&self, tx: &mut dyn Tx, invoice: &InvoiceRecord) -> AppResult<()>;
}

/// What a paid gift sets off in the unit of work that records its payment (the buyer and the
/// recipient are told where to redeem it): the gifts module implements it.
#[async_trait]
pub(crate) trait GiftPaid: Send + Sync {
    async fn gift_paid(&self, tx: &mut dyn Tx, invoice: &InvoiceRecord, gift: &GiftRecord) -> AppResult<()>;
}

impl Payments {
    /// Applies a gateway, sweeper or operator outcome to an invoice. Repeating an outcome that
    /// is already applied (a gateway notifying twice) changes nothing and is not an error.
    pub async fn apply_payment_outcome(
        &self,
        payment_id: &PaymentId,
        outcome: PaymentOutcome,
    ) -> AppResult<InvoiceRecord> {
        self.apply_outcome_if(payment_id, outcome, |_| true).await
    }

    /// `apply_payment_outcome` for an invoice `applies_to` accepts; any other is not found
    /// (the sandbox page's, which never pays a Stars invoice, without a read of its own).
    pub(crate) async fn apply_outcome_if(
        &self,
        payment_id: &str,
        outcome: PaymentOutcome,
        applies_to: impl Fn(&InvoiceRecord) -> bool,
    ) -> AppResult<InvoiceRecord> {
        let now = self.clock.now();
        // Read under the client's lock, not the account's: what a settlement changes is the
        // client's (invitations touch their inviter, who is locked in turn), so one account's
        // customers paying at once settle at once, each after any unit holding the whole
        // account. Another outcome applied meanwhile shows in what is read.
        let (mut tx, invoice) = self.store.begin_with_invoice(payment_id).await?;
        let mut invoice = invoice.filter(|i| applies_to(i)).ok_or(AppError::NotFound("invoice"))?;
        if outcome_already_applied(invoice.status, outcome) {
            tx.commit().await?;
            return Ok(invoice);
        }
        let step = transition(invoice.status, outcome)
            .map_err(|e| AppError::Conflict(format!("invoice {payment_id}: {e}")))?;
        if step.grants_access {
            // What granting the access reads next, in one round trip where the store can.
            tx.read_ahead(ReadAhead {
                client: Some(&invoice.client_ref),
                plan: match invoice.purpose {
                    Purpose::Subscription { plan_id } => Some(plan_id),
                    Purpose::Devices { .. } => None,
                },
                device_settings: true,
                consent_of_invoice: Some(&invoice.payment_id),
                webhook_endpoints: Some(&invoice.account_id),
            })
            .await?;
        }
        // A gift's payment grants nothing to the buyer: the code it makes grants the term to
        // whoever redeems it; a recall of it (refund) voids a gift nobody redeemed yet.
        let gift = match (invoice.purpose, step.grants_access || step.ledger == LedgerEffect::ReversePartnerShare) {
            (Purpose::Subscription { .. }, true) => tx.gift(&invoice.payment_id).await?,
            _ => None,
        };
        if gift.is_some() && step.ledger == LedgerEffect::ReversePartnerShare {
            tx.refund_gift(&invoice.payment_id, now).await?;
        }
        let grants_access = step.grants_access && gift.is_none();
        invoice.status = step.next;
        if step.next == InvoiceStatus::Succeeded {
            invoice.paid_at = Some(now);
        }
        if step.next != InvoiceStatus::Pending {
            invoice.payment_url = None;
        }
        let granted = match grants_access {
            true => self.grant_access(tx.as_mut(), &invoice, now).await?,
            false => None,
        };
        // An invited customer's first payment rewards the inviter; its refund takes that back.
        let inviter_changed = match step.ledger {
            LedgerEffect::CreditPartnerShare => self.settled.referrals.paid(tx.as_mut(), &invoice).await?,
            LedgerEffect::ReversePartnerShare => self.settled.referrals.refunded(tx.as_mut(), &invoice).await?,
            LedgerEffect::None => None,
        };
        let ledger = match step.ledger {
            LedgerEffect::None => None,
            LedgerEffect::CreditPartnerShare => Some((LedgerKind::PartnerShareCredit, invoice.amounts.partner_share)),
            LedgerEffect::ReversePartnerShare => Some((
                LedgerKind::PartnerShareReversal,
                Money::ZERO.checked_sub(invoice.amounts.partner_share).unwrap_or(Money::ZERO),
            )),
        };
        if let Some((kind, amount)) = ledger {
            tx.insert_ledger_entry(&LedgerEntry {
                id: self.ids.new_id("led"),
                account_id: invoice.account_id.clone(),
                subject: LedgerSubject::Invoice(invoice.payment_id.to_string()),
                kind,
                amount,
                held: Money::ZERO,
                created_at: now,
            })
            .await?;
        }
        tx.update_invoice(&invoice).await?;
        self.record_payment_event(tx.as_mut(), &invoice).await?;
        // A consent given with this invoice waits for the method the gateway saved with it.
        let consent = match grants_access {
            true => tx.consent_of_invoice(&invoice.payment_id).await?.filter(|c| c.saved_method_sealed.is_none()),
            false => None,
        };
        if grants_access {
            self.settled.reminders.queue_paid(tx.as_mut(), &invoice).await?;
            for then in &self.settled.access_granted {
                then.access_granted(tx.as_mut(), &invoice).await?;
            }
        }
        if let Some(gift) = gift.as_ref().filter(|_| step.grants_access) {
            self.settled.gift_paid.gift_paid(tx.as_mut(), &invoice, gift).await?;
        }
        tx.commit().await?;
        if let (Some(consent), Some(gateway_payment_id)) = (consent, &invoice.gateway_payment_id) {
            self.settled.consents.keep_saved_method(consent, &invoice.rail, gateway_payment_id).await;
        }
        if step.next != InvoiceStatus::Pending {
            self.metrics.invoice_settled(step.next);
        }
        if let Some(client) = granted {
            self.settled.panel_sync.sync_saved(&client).await;
        }
        if let Some(inviter) = inviter_changed {
            self.settled.panel_sync.sync_client(&inviter).await;
        }
        Ok(invoice)
    }

    /// `payment.succeeded` or `payment.expired`, carrying the invoice exactly as
    /// `GET /payments/{id}` shows it now; other transitions send nothing.
    async fn record_payment_event(
        &self,
        tx: &mut (impl EventRepo + AccountRepo + ClientRepo + SettingsRepo + ?Sized),
        invoice: &InvoiceRecord,
    ) -> AppResult<()> {
        let event_type = match invoice.status {
            InvoiceStatus::Succeeded => types::PAYMENT_SUCCEEDED,
            InvoiceStatus::Expired => types::PAYMENT_EXPIRED,
            InvoiceStatus::Pending | InvoiceStatus::Failed => return Ok(()),
        };
        let targets = self.settled.outbox.targets(tx, &invoice.account_id, event_type).await?;
        if targets.is_empty() {
            return Ok(());
        }
        let account = tx.account(&invoice.account_id).await?.ok_or(AppError::NotFound("account"))?;
        let app_list = load_app_list(tx).await?;
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let view =
            self.views.render(&account, app_list.as_ref(), |v| v.invoice(invoice.clone(), client.as_ref(), false));
        let data = self.settled.events.payment(view);
        self.settled.outbox.record(tx, &invoice.account_id, event_type, self.clock.now(), &data, &targets).await?;
        Ok(())
    }

    /// The access a paid invoice buys: the first term, a renewal, or device slots. Returns the
    /// client with the subscription as saved.
    async fn grant_access(
        &self,
        tx: &mut (impl ClientRepo + OfferRepo + ReferralRepo + ?Sized),
        invoice: &InvoiceRecord,
        paid_at: OffsetDateTime,
    ) -> AppResult<Option<ClientRecord>> {
        let mut client = tx.client_by_ref(&invoice.client_ref).await?.ok_or(AppError::NotFound("client"))?;
        let mut record = match (invoice.purpose, client.subscription) {
            (Purpose::Subscription { plan_id }, current) => {
                // A retired plan still delivers what was paid for.
                let plan = tx.plan(plan_id).await?.ok_or(AppError::NotFound("plan"))?;
                self.plan_term(tx, &plan, current, paid_at).await?
            }
            (Purpose::Devices { count }, Some(mut r)) => {
                r.subscription.devices = r.subscription.devices.add_purchased(count);
                r.revision += 1;
                r
            }
            (Purpose::Devices { .. }, None) => {
                // Not reachable through the API (devices need an active subscription); kept
                // visible rather than silently dropped.
                tracing::error!(payment_id = %invoice.payment_id, "paid devices invoice for a client without subscription");
                return Ok(None);
            }
        };
        // A promo code's days come on top of the term bought.
        if let Some(promo) = &invoice.promo {
            record.subscription.add_days(promo.extra_days);
        }
        // So do the days the client's invitations left as credits.
        self.settled.referrals.spend_credits(tx, &client.id, &invoice.payment_id, &mut record).await?;
        tx.save_subscription(&client.id, &record).await?;
        client.subscription = Some(record);
        Ok(Some(client))
    }

    /// A term of `plan` from `at`: the first (a new link) or a renewal of `current`, with the
    /// device limit and the traffic the plan sets. A paid invoice and a redeemed gift grant it.
    pub(crate) async fn plan_term(
        &self,
        tx: &mut (impl OfferRepo + ?Sized),
        plan: &PlanRecord,
        current: Option<SubscriptionRecord>,
        at: OffsetDateTime,
    ) -> AppResult<SubscriptionRecord> {
        let settings = tx.device_settings().await?;
        let term = plan.term();
        let limit = match settings {
            Some(s) => s.initial_limit(plan.device_limited),
            None => DeviceLimit::Unlimited,
        };
        let mut record = match current {
            None => SubscriptionRecord {
                subscription: Subscription::activate(term, limit, at),
                link_token: self.tokens.link_token(),
                revision: 1,
                panel_revision: 0,
                auto_renew: false,
                panel_name: None,
            },
            Some(mut r) => {
                r.subscription.renew(term, at);
                if limit == DeviceLimit::Unlimited {
                    r.subscription.devices = DeviceLimit::Unlimited;
                }
                r.revision += 1;
                r
            }
        };
        // Each purchase of a plan sets the traffic its term allows.
        record.subscription.traffic = plan.traffic;
        Ok(record)
    }

    /// The sweeper: pending invoices past their deadline become `expired`. Returns how many.
    pub async fn expire_overdue_invoices(&self, limit: u32) -> AppResult<usize> {
        let now = self.clock.now();
        let due = read!(self.store, |tx| tx.pending_invoices_due(now, limit));
        let mut expired = 0;
        for invoice in due {
            // A gateway whose word can be lost is asked first: a payment it already settled
            // (its notification lost) is applied as such instead of expiring. When it cannot
            // be asked, the deadline still applies (a late payment succeeds later).
            if self.gateways.reconciles(&invoice.rail) && invoice.gateway_payment_id.is_some() {
                match self.reconcile_invoice(&invoice.payment_id).await {
                    Ok((settled, _)) if settled.status != InvoiceStatus::Pending => {
                        expired += usize::from(settled.status == InvoiceStatus::Expired);
                        continue;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::info!(payment_id = %invoice.payment_id, error = %e, "expiring without the gateway's word")
                    }
                }
            }
            match self.apply_payment_outcome(&invoice.payment_id, PaymentOutcome::DeadlinePassed).await {
                Ok(i) if i.status == InvoiceStatus::Expired => expired += 1,
                Ok(_) => {}
                Err(e) => tracing::warn!(payment_id = %invoice.payment_id, error = %e, "could not expire invoice"),
            }
        }
        Ok(expired)
    }
}
