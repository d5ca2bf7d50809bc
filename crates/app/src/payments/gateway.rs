//! What a payment gateway says, applied: a notification, the reconciliation job, the result
//! page and the operator's refund all re-read the invoice's own gateway (its rail's) and go
//! through the one settlement use case (`apply_payment_outcome`), so there is one settlement
//! path whichever gateway took the payment.

use async_trait::async_trait;
use time::Duration;
use vp_domain::backoff::{GATEWAY_RECHECK_AFTER_WINDOW, gateway_recheck_delay};
use vp_domain::invoice::outcome_of_gateway_state;
use vp_domain::limits::INVOICE_PAYMENT_WINDOW;
use vp_domain::{GatewayName, GatewayState, InvoiceStatus, PaymentId, PaymentOutcome, Rail};
use vp_ports::{
    Claim, GatewayError, GatewayEventError, GatewayEvents, GatewayInfo, InvoiceRecord, RefundState, StarsCharge,
};

use super::Payments;
use crate::error::{AppError, AppResult, Refusal};

/// A claimed re-read that dies with its process is made again after this.
const RECHECK_LEASE: Duration = Duration::minutes(5);

/// A gateway failure as the callers of these use cases see it: an outage the caller may
/// retry, or the gateway's refusal.
fn gateway_failure(e: GatewayError) -> AppError {
    match e {
        GatewayError::Unavailable(_) => Refusal::PaymentUnavailable.into(),
        other => AppError::External(other.to_string()),
    }
}

impl Payments {
    /// Re-reads the invoice's gateway payment and applies what the gateway says; returns the
    /// invoice as it now stands and the gateway's state. A final state ends reconciliation.
    pub async fn reconcile_invoice(&self, payment_id: &PaymentId) -> AppResult<(InvoiceRecord, GatewayState)> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        tx.commit().await?;
        self.reconcile(invoice).await
    }

    async fn reconcile(&self, invoice: InvoiceRecord) -> AppResult<(InvoiceRecord, GatewayState)> {
        let gateway_payment_id = invoice.gateway_payment_id.clone().ok_or(AppError::NotFound("gateway payment"))?;
        let gateway = self.gateways.of_rail(&invoice.rail)?;
        let state = gateway.payment_state(&gateway_payment_id).await.map_err(gateway_failure)?;
        let invoice = match outcome_of_gateway_state(state, invoice.status) {
            Some(outcome) => self.apply_payment_outcome(&invoice.payment_id, outcome).await?,
            None => invoice,
        };
        if state.is_final() && invoice.status.may_be_paid() {
            let mut tx = self.store.begin().await?;
            tx.schedule_gateway_check(&invoice.payment_id, None).await?;
            tx.commit().await?;
        }
        Ok((invoice, state))
    }

    /// The reconciliation job: re-reads every invoice still pending at its gateway, from
    /// 2 minutes after its creation until 2 hours after its payment window, ever less often,
    /// so that a lost notification loses no payment. Safe on several instances at once: each
    /// invoice is claimed by one of them. A gateway that does not answer is not asked again
    /// in this run; the others' invoices go on. Returns how many invoices it re-read.
    pub async fn reconcile_pending_payments(&self, limit: u32) -> AppResult<usize> {
        if !self.gateways.any_reconciles() {
            return Ok(0);
        }
        let now = self.clock.now();
        let window_start = now - GATEWAY_RECHECK_AFTER_WINDOW;
        let mut tx = self.store.begin().await?;
        let claimed =
            tx.claim_gateway_checks(Claim { now, lease_until: now + RECHECK_LEASE, limit }, window_start).await?;
        tx.commit().await?;
        let mut read = 0;
        let mut down: Vec<Option<GatewayName>> = Vec::new();
        for check in claimed {
            let gateway = check.invoice.rail.gateway();
            if down.contains(&gateway) {
                continue; // its gateway is down: it keeps its lease and comes back later
            }
            let payment_id = check.invoice.payment_id.clone();
            let window_end = check.invoice.created_at + INVOICE_PAYMENT_WINDOW + GATEWAY_RECHECK_AFTER_WINDOW;
            let result = self.reconcile(check.invoice).await;
            if let Ok((_, state)) = &result {
                read += 1;
                if state.is_final() {
                    continue;
                }
            }
            let next = now + gateway_recheck_delay(check.checks);
            let mut tx = self.store.begin().await?;
            tx.schedule_gateway_check(&payment_id, (next <= window_end).then_some(next)).await?;
            tx.commit().await?;
            if let Err(e) = result {
                tracing::warn!(%payment_id, error = %e, "could not re-read a pending payment; will try again");
                if matches!(e, AppError::Refused(Refusal::PaymentUnavailable)) {
                    down.push(gateway);
                }
            }
        }
        Ok(read)
    }

    /// `invoice refund`: refunds a succeeded invoice in full on its rail. When the gateway
    /// confirms at once the invoice moves to `failed` with the partner share reversed (the
    /// spec's bank recall); a pending refund is applied when the gateway confirms it. A
    /// gateway with no refunds (Crypto Pay) is refused unless `by_hand`
    /// says the money was given back outside it: then only the recall is recorded.
    pub async fn refund_invoice(
        &self,
        payment_id: &PaymentId,
        by_hand: bool,
    ) -> AppResult<(InvoiceRecord, RefundState)> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        tx.commit().await?;
        if invoice.status != InvoiceStatus::Succeeded {
            return Err(AppError::Conflict(format!(
                "invoice {payment_id} is {}; only a succeeded invoice can be refunded",
                invoice.status
            )));
        }
        if invoice.rail == Rail::Stars {
            return self.refund_stars(invoice).await;
        }
        let gateway = self.gateways.of_rail(&invoice.rail)?;
        if !gateway.refunds() {
            if !by_hand {
                return Err(AppError::Conflict(format!(
                    "{} gives no refunds: give the money back outside it, then record the refund with --by-hand",
                    gateway.name()
                )));
            }
            tracing::warn!(%payment_id, gateway = %gateway.name(), "a refund made by hand recorded as a recall");
            let invoice = self.apply_payment_outcome(payment_id, PaymentOutcome::BankRecall).await?;
            return Ok((invoice, RefundState::Succeeded));
        }
        let gateway_payment_id = invoice.gateway_payment_id.clone().ok_or(AppError::NotFound("gateway payment"))?;
        let key = format!("refund-{payment_id}");
        let state = gateway
            .refund(&gateway_payment_id, invoice.amounts.customer, &key, invoice.receipt.as_ref())
            .await
            .map_err(gateway_failure)?;
        let invoice = match &state {
            RefundState::Succeeded => self.apply_payment_outcome(payment_id, PaymentOutcome::BankRecall).await?,
            RefundState::Pending => invoice,
            RefundState::Canceled(reason) => {
                return Err(AppError::Conflict(format!("the gateway refused the refund: {reason}")));
            }
        };
        Ok((invoice, state))
    }

    /// A refund of an invoice paid in Telegram Stars: the charge is given back through the
    /// account's bot (a charge given back before counts as such), then the invoice is recalled
    /// like a bank's recall.
    async fn refund_stars(&self, invoice: InvoiceRecord) -> AppResult<(InvoiceRecord, RefundState)> {
        let charge = read!(self.store, |tx| tx.stars_charge_of_invoice(&invoice.payment_id))
            .ok_or(AppError::NotFound("Stars charge"))?;
        if charge.refunded_at.is_none() {
            self.stars.refund(&charge).await?;
            let mut tx = self.store.begin().await?;
            tx.update_stars_charge(&StarsCharge { refunded_at: Some(self.clock.now()), ..charge }).await?;
            tx.commit().await?;
        }
        let invoice = self.apply_payment_outcome(&invoice.payment_id, PaymentOutcome::BankRecall).await?;
        Ok((invoice, RefundState::Succeeded))
    }

    /// `gateway check`: each gateway that is on answers with our credentials (`only`: that
    /// one), in the order of their names; the default one is marked.
    pub async fn gateway_check(&self, only: Option<GatewayName>) -> AppResult<Vec<GatewayChecked>> {
        let gateways: Vec<_> = self.gateways.all().into_iter().filter(|g| only.is_none_or(|o| g.name() == o)).collect();
        if let (Some(name), true) = (only, gateways.is_empty()) {
            return Err(AppError::Conflict(format!("the gateway {name} is off: its settings are not given")));
        }
        let mut checked = Vec::with_capacity(gateways.len());
        for gateway in gateways {
            checked.push(GatewayChecked {
                gateway: gateway.name(),
                default: gateway.name() == self.gateways.default_name(),
                answer: gateway.check().await.map_err(|e| e.to_string()),
            });
        }
        Ok(checked)
    }
}

/// What one gateway said to `gateway check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayChecked {
    pub gateway: GatewayName,
    /// The gateway of methods that name none (`VP_GATEWAY`).
    pub default: bool,
    /// What it reported, or why it could not be reached.
    pub answer: Result<GatewayInfo, String>,
}

#[async_trait]
impl GatewayEvents for Payments {
    async fn payment_changed(
        &self,
        gateway: GatewayName,
        gateway_payment_id: &str,
        invoice: Option<&str>,
    ) -> Result<bool, GatewayEventError> {
        let result = async {
            let mut tx = self.store.read().await?;
            let recorded = tx.invoice_by_gateway_payment_id(gateway_payment_id).await?;
            tx.commit().await?;
            // Only an invoice of the gateway that notifies: another gateway's ids mean nothing here.
            match (recorded.filter(|i| i.rail.gateway() == Some(gateway)), invoice) {
                (Some(recorded), _) => self.reconcile(recorded).await.map(|_| true),
                (None, Some(payment_id)) => self.unrecorded_payment(gateway, gateway_payment_id, payment_id).await,
                (None, None) => Ok(false),
            }
        };
        match result.await {
            Ok(known) => Ok(known),
            Err(AppError::Refused(Refusal::PaymentUnavailable)) => {
                Err(GatewayEventError::Retry("the gateway did not answer the re-read".into()))
            }
            Err(e) => Err(GatewayEventError::Failed(e.to_string())),
        }
    }
}

impl Payments {
    /// A payment the gateway made for one of our invoices under an id the invoice does not
    /// record: a gateway that takes no idempotency key was asked again after its first answer
    /// was lost (docs/decisions.md, "Payment rails"). Only the gateway's own word counts: the
    /// payment is re-read, and settles the invoice it names when paid, once, like any late
    /// payment; a second payment of a paid invoice is left for the operator to give back.
    async fn unrecorded_payment(
        &self,
        gateway: GatewayName,
        gateway_payment_id: &str,
        payment_id: &str,
    ) -> AppResult<bool> {
        let invoice = read!(self.store, |tx| tx.invoice_by_id(payment_id));
        // No such invoice of this gateway: a payment whose page nobody was ever shown (its
        // request was refused after the gateway answered), which cannot be paid.
        let Some(invoice) = invoice.filter(|i| i.rail.gateway() == Some(gateway)) else { return Ok(false) };
        let adapter = self.gateways.of_rail(&invoice.rail)?;
        let named = adapter.invoice_of_payment(gateway_payment_id).await.map_err(gateway_failure)?;
        if named.as_deref() != Some(payment_id) {
            tracing::warn!(%gateway, payment = %gateway_payment_id, %payment_id, "a notification names an invoice its payment is not for");
            return Ok(false);
        }
        let state = adapter.payment_state(gateway_payment_id).await.map_err(gateway_failure)?;
        match (state, invoice.status) {
            (GatewayState::Succeeded, status) if status.may_be_paid() => {
                tracing::warn!(%gateway, payment = %gateway_payment_id, %payment_id, "an invoice paid through a payment it does not record; settled by it");
                self.apply_payment_outcome(&invoice.payment_id, PaymentOutcome::Paid).await?;
            }
            (GatewayState::Succeeded, InvoiceStatus::Succeeded) => {
                tracing::error!(%gateway, payment = %gateway_payment_id, %payment_id, "an invoice paid twice; the second payment is to be given back by the operator");
            }
            _ => {}
        }
        Ok(true)
    }
}
