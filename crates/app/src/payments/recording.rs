//! Recording what the rail answered (the second unit of work of `POST /payments`): the client
//! if new, the invoice on its rail and the finished key, all or nothing; and reading an
//! invoice back as the partner API shows it.

use time::OffsetDateTime;
use vp_domain::backoff::GATEWAY_RECHECK_FROM;
use vp_domain::invoice::payment_deadline;
use vp_domain::{ClientRef, InvoiceRequest, InvoiceStatus, PaymentId};
use vp_ports::{
    AccountRecord, ClientRecord, ClientRepo, DailyQuota, IdempotencyRecord, InvoiceRecord, InvoiceRecorded,
    InvoiceRepo, InvoiceWrite, RecoveryPoint, SettingsRepo,
};

use super::Payments;
use super::issuing::{Issued, Reserved};
use crate::clients::limits::daily_limit;
use crate::content::load_app_list;
use crate::error::{AppError, AppResult, Refusal};
use crate::retry::busy_retried;
use crate::views::InvoiceView;

impl Payments {
    /// The second unit of work: the client (if new), the invoice and the finished key.
    pub(super) async fn record_invoice(
        &self,
        account: &AccountRecord,
        request: &InvoiceRequest,
        reserved: Reserved,
        issued: Issued,
        created_at: OffsetDateTime,
    ) -> AppResult<InvoiceView> {
        let Reserved { record, charge, mut client } = reserved;
        let rail = charge.rail(&self.gateways);
        let finished = IdempotencyRecord { recovery_point: RecoveryPoint::Finished, locked_until: None, ..record };
        let gateway_check_at = (self.gateways.reconciles(&rail) && issued.gateway_payment_id.is_some())
            .then(|| created_at + GATEWAY_RECHECK_FROM);
        // Twice at most: a client created meanwhile by another request gets the invoice instead.
        for _ in 0..2 {
            let (owner, new_client) = match &client {
                Some(c) => (c.id.clone(), None),
                None => {
                    let id = ClientRef::issued(self.ids.new_id(ClientRef::PREFIX));
                    let c = ClientRecord::new(id, account.id.clone(), request.client_id.clone(), created_at);
                    (c.id.clone(), Some((c, daily_limit(account, DailyQuota::NewClients, created_at))))
                }
            };
            let invoice = InvoiceRecord {
                payment_id: finished.payment_id.clone(),
                account_id: account.id.clone(),
                client_ref: owner,
                client_id: request.client_id.clone(),
                status: InvoiceStatus::Pending,
                purpose: request.purpose,
                method: request.method.as_str().to_owned(),
                rail: rail.clone(),
                amounts: charge.amounts(),
                return_url: request.return_url.as_ref().map(|u| u.as_str().to_owned()),
                payment_url: Some(issued.payment_url.clone()),
                gateway_payment_id: issued.gateway_payment_id.clone(),
                created_at,
                expires_at: payment_deadline(created_at),
                paid_at: None,
                receipt: charge.receipt.clone(),
                promo: charge.applied_promo(),
            };
            let write = InvoiceWrite { invoice, new_client, key: finished.clone(), gateway_check_at };
            let recorded =
                busy_retried("recording an invoice", || async { Ok(self.store.record_invoice(&write).await?) });
            match recorded.await? {
                // A new invoice is pending: shown without a client, so nothing needs re-reading.
                InvoiceRecorded::Recorded => {
                    return Ok(self.views.render(account, None, |v| v.invoice(write.invoice, None, false)));
                }
                // Another attempt of this request recorded it (and it may even be paid).
                InvoiceRecorded::AlreadyRecorded => {
                    let mut tx = self.store.begin().await?;
                    tx.update_idempotency_key(&finished).await?;
                    let view = self.stored_invoice_view(tx.as_mut(), account, &finished.payment_id, false).await?;
                    tx.commit().await?;
                    return Ok(view);
                }
                InvoiceRecorded::ClientExists => {
                    let mut tx = self.store.read().await?;
                    client = tx.client(&account.id, &request.client_id).await?;
                    tx.commit().await?;
                }
                InvoiceRecorded::DailyLimitReached => {
                    // Others took the last places after this request looked; nothing was issued
                    // here (the rail's payment is never shown and lapses unpaid).
                    return Err(self.forget_key(&finished).await.err().unwrap_or(Refusal::NewClientsDailyLimit.into()));
                }
            }
        }
        Err(AppError::Conflict(format!("client {} changed twice while its invoice was recorded", request.client_id)))
    }

    /// `GET /payments/{payment_id}`: only invoices of the caller's account exist for it.
    pub async fn invoice_view(&self, account: &AccountRecord, payment_id: &PaymentId) -> AppResult<InvoiceView> {
        Ok(read!(self.store, |tx| self.stored_invoice_view(tx.as_mut(), account, payment_id, false)))
    }

    pub(crate) async fn stored_invoice_view(
        &self,
        tx: &mut (impl InvoiceRepo + ClientRepo + SettingsRepo + ?Sized),
        account: &AccountRecord,
        payment_id: &str,
        replayed: bool,
    ) -> AppResult<InvoiceView> {
        let invoice = tx.invoice(&account.id, payment_id).await?.ok_or(Refusal::PaymentNotFound)?;
        let client = tx.client_by_ref(&invoice.client_ref).await?;
        let app_list = load_app_list(tx).await?;
        Ok(self.views.render(account, app_list.as_ref(), |v| v.invoice(invoice, client.as_ref(), replayed)))
    }
}
