//! Issuing an invoice at its rail, outside any transaction, under the key's lease: the gateway
//! asked for a payment with the invoice id as its idempotency key, or the account's bot for a
//! Stars link. What a refusal leaves behind follows the spec: an outage keeps the key for the
//! retry (`503 PAYMENT_UNAVAILABLE`, no invoice), a definite "no" frees it.

use time::OffsetDateTime;
use vp_domain::invoice::payment_deadline;
use vp_domain::{GatewayRoute, InvoiceRequest, Money, Rail};
use vp_ports::{AccountRecord, ClientRecord, GatewayError, GatewayPaymentRequest, IdempotencyRecord, StarsInvoice};

use super::Payments;
use super::idempotency::renew_key_lock;
use super::pricing::Charge;
use crate::error::{AppError, AppResult, Refusal};
use crate::views::InvoiceView;

/// A request's key, reserved with the charge priced for it, and the client it names if there
/// is one yet: what is issued.
pub(super) struct Reserved {
    pub record: IdempotencyRecord,
    pub charge: Charge,
    pub client: Option<ClientRecord>,
}

/// Where the customer pays an issued invoice, and the rail's id of the payment (none for
/// Telegram Stars, whose charge is known only once paid).
pub(super) struct Issued {
    pub payment_url: String,
    pub gateway_payment_id: Option<String>,
}

impl Payments {
    /// Phase 2 under the key's lease (`KEY_LOCK`), renewed beside it until it is over.
    pub(super) async fn issue(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        reserved: Reserved,
    ) -> AppResult<InvoiceView> {
        let renewing = tokio::spawn(renew_key_lock(self.store.clone(), self.clock.clone(), reserved.record.clone()));
        let issued = self.issue_now(account, request, reserved).await;
        renewing.abort();
        // Once this returns, no renewal is left to lock a key the request released.
        let _ = renewing.await;
        issued
    }

    /// Phase 2 (no transaction open): the rail's call, then the second unit of work.
    async fn issue_now(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        reserved: Reserved,
    ) -> AppResult<InvoiceView> {
        let Reserved { record, charge, .. } = &reserved;
        let created_at = self.clock.now();
        let rail = charge.rail(&self.gateways);
        let issued = match &rail {
            Rail::Stars => self.stars_link(account, record, charge, created_at).await,
            Rail::Gateway(route) => self.gateway_payment(account, request, record, charge, route, created_at).await,
        };
        match issued {
            Ok(issued) => self.record_invoice(account, request, reserved, issued, created_at).await,
            Err(e) => {
                tracing::warn!(payment_id = %record.payment_id, %rail, error = %e, "gateway did not issue the payment");
                Err(self.rail_refused(record, e).await)
            }
        }
    }

    /// A payment of the route's gateway, its idempotency key the invoice id.
    async fn gateway_payment(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        record: &IdempotencyRecord,
        charge: &Charge,
        route: &GatewayRoute,
        created_at: OffsetDateTime,
    ) -> Result<Issued, GatewayError> {
        // A gateway turned off since the charge was pinned takes no payments now.
        let gateway = self
            .gateways
            .get(route.gateway)
            .ok_or_else(|| GatewayError::MethodUnavailable(format!("the gateway {} is off", route.gateway)))?;
        let gateway_request = GatewayPaymentRequest {
            idempotency_key: record.payment_id.to_string(),
            account_id: account.id.clone(),
            amount: Money::from_kopecks(charge.customer),
            method: request.method.as_str().to_owned(),
            gateway_method: route.method.clone(),
            description: charge.description.clone(),
            return_url: charge.return_url.clone(),
            result_url: self.payment_result_url(&record.payment_id),
            issued_at: created_at,
            expires_at: payment_deadline(created_at),
            save_method: charge.save_method,
            receipt: charge.receipt.clone(),
        };
        let payment = gateway.create_payment(&gateway_request).await?;
        Ok(Issued { payment_url: payment.payment_url, gateway_payment_id: Some(payment.gateway_payment_id) })
    }

    /// A Stars invoice's link from the account's bot (its price in Stars was held with the key:
    /// what the pre-checkout query is checked against).
    async fn stars_link(
        &self,
        account: &AccountRecord,
        record: &IdempotencyRecord,
        charge: &Charge,
        now: OffsetDateTime,
    ) -> Result<Issued, GatewayError> {
        let invoice = StarsInvoice {
            payment_id: record.payment_id.to_string(),
            account_id: account.id.clone(),
            stars: charge.stars.ok_or_else(|| GatewayError::Rejected("a Stars charge without its Stars".into()))?,
            subscription: charge.stars_subscription,
            created_at: now,
        };
        let payment_url = self.stars.invoice_link(account, &invoice, &charge.description).await?;
        Ok(Issued { payment_url, gateway_payment_id: None })
    }

    /// What a rail's failure leaves behind. An unknown outcome keeps the key reserved but
    /// unlocked, so a retry resumes with the same gateway key at once. A definite "no" frees
    /// the key (nothing was issued; the gateway would only repeat its answer for the same key),
    /// so the partner's retry with the same key is a new request.
    async fn rail_refused(&self, record: &IdempotencyRecord, e: GatewayError) -> AppError {
        let unlocked = IdempotencyRecord { locked_until: None, ..record.clone() };
        let (cleanup, error) = match e {
            GatewayError::Unavailable(_) => (self.save_key(&unlocked).await, Refusal::PaymentUnavailable.into()),
            GatewayError::Declined(_) => (self.forget_key(record).await, Refusal::PaymentUnavailable.into()),
            GatewayError::MethodUnavailable(_) => {
                (self.forget_key(record).await, Refusal::UnsupportedPaymentMethod.into())
            }
            GatewayError::Rejected(reason) => (self.forget_key(record).await, AppError::External(reason)),
        };
        cleanup.err().unwrap_or(error)
    }
}
