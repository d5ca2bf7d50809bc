//! What the payment gateway says, applied: a notification, the reconciliation job, the result
//! page and the operator's refund all re-read the gateway and go through the one settlement
//! use case (`apply_payment_outcome`), so there is one settlement path.

use async_trait::async_trait;
use time::Duration;
use vp_domain::backoff::{GATEWAY_RECHECK_AFTER_WINDOW, gateway_recheck_delay};
use vp_domain::invoice::outcome_of_gateway_state;
use vp_domain::limits::INVOICE_PAYMENT_WINDOW;
use vp_domain::stars::STARS_METHOD;
use vp_domain::{GatewayState, InvoiceStatus, PaymentOutcome};
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
    pub async fn reconcile_invoice(&self, payment_id: &str) -> AppResult<(InvoiceRecord, GatewayState)> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        tx.commit().await?;
        self.reconcile(invoice).await
    }

    async fn reconcile(&self, invoice: InvoiceRecord) -> AppResult<(InvoiceRecord, GatewayState)> {
        let gateway_payment_id = invoice.gateway_payment_id.clone().ok_or(AppError::NotFound("gateway payment"))?;
        let state = self.gateway.payment_state(&gateway_payment_id).await.map_err(gateway_failure)?;
        let invoice = match outcome_of_gateway_state(state, invoice.status) {
            Some(outcome) => self.apply_payment_outcome(&invoice.payment_id, outcome).await?,
            None => invoice,
        };
        if state.is_final() && matches!(invoice.status, InvoiceStatus::Pending | InvoiceStatus::Expired) {
            let mut tx = self.store.begin().await?;
            tx.schedule_gateway_check(&invoice.payment_id, None).await?;
            tx.commit().await?;
        }
        Ok((invoice, state))
    }

    /// The reconciliation job: re-reads every invoice still pending at the gateway, from
    /// 2 minutes after its creation until 2 hours after its payment window, ever less often,
    /// so that a lost notification loses no payment. Safe on several instances at once: each
    /// invoice is claimed by one of them. Returns how many invoices it re-read.
    pub async fn reconcile_pending_payments(&self, limit: u32) -> AppResult<usize> {
        if !self.gateway.reconciles() {
            return Ok(0);
        }
        let now = self.clock.now();
        let window_start = now - GATEWAY_RECHECK_AFTER_WINDOW;
        let mut tx = self.store.begin().await?;
        let claimed =
            tx.claim_gateway_checks(Claim { now, lease_until: now + RECHECK_LEASE, limit }, window_start).await?;
        tx.commit().await?;
        let mut read = 0;
        for check in claimed {
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
                    break; // the gateway is down: the rest keep their lease and come back later
                }
            }
        }
        Ok(read)
    }

    /// `invoice refund`: refunds a succeeded invoice in full through the gateway. When the
    /// gateway confirms at once the invoice moves to `failed` with the partner share reversed
    /// (the spec's bank recall); a pending refund is applied when the gateway confirms it.
    pub async fn refund_invoice(&self, payment_id: &str) -> AppResult<(InvoiceRecord, RefundState)> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        tx.commit().await?;
        if invoice.status != InvoiceStatus::Succeeded {
            return Err(AppError::Conflict(format!(
                "invoice {payment_id} is {}; only a succeeded invoice can be refunded",
                invoice.status
            )));
        }
        if invoice.method == STARS_METHOD {
            return self.refund_stars(invoice).await;
        }
        let gateway_payment_id = invoice.gateway_payment_id.clone().ok_or(AppError::NotFound("gateway payment"))?;
        let key = format!("refund-{payment_id}");
        let state = self
            .gateway
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

    /// `gateway check`: the gateway answers with our credentials.
    pub async fn gateway_check(&self) -> AppResult<GatewayInfo> {
        self.gateway.check().await.map_err(|e| AppError::External(e.to_string()))
    }
}

#[async_trait]
impl GatewayEvents for Payments {
    async fn payment_changed(&self, gateway_payment_id: &str) -> Result<bool, GatewayEventError> {
        let failed = |e: AppError| GatewayEventError::Failed(e.to_string());
        let mut tx = self.store.read().await.map_err(|e| failed(e.into()))?;
        let invoice = tx.invoice_by_gateway_payment_id(gateway_payment_id).await.map_err(|e| failed(e.into()))?;
        tx.commit().await.map_err(|e| failed(e.into()))?;
        let Some(invoice) = invoice else { return Ok(false) };
        match self.reconcile(invoice).await {
            Ok(_) => Ok(true),
            Err(AppError::Refused(Refusal::PaymentUnavailable)) => {
                Err(GatewayEventError::Retry("the gateway did not answer the re-read".into()))
            }
            Err(e) => Err(failed(e)),
        }
    }
}
