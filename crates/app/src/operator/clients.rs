//! Clients and invoices as the operator sees and steps in: reading one, blocking it, pausing
//! its access; any invoice by id.

use vp_domain::subscription::SubscriptionError;
use vp_domain::{AccountId, ClientId, PaymentId};
use vp_ports::ClientRecord;

use super::{Operator, load_client};
use crate::error::{AppError, AppResult};

impl Operator {
    pub async fn show_client(&self, account_id: &AccountId, client_id: &ClientId) -> AppResult<ClientRecord> {
        Ok(read!(self.store, |tx| load_client(tx.as_mut(), account_id, client_id)))
    }

    /// Blocks or unblocks a client: a blocked client answers `API_CLIENT_BLOCKED` everywhere
    /// and gets no term events.
    pub async fn set_client_blocked(
        &self,
        account_id: &AccountId,
        client_id: &ClientId,
        blocked: bool,
    ) -> AppResult<ClientRecord> {
        let mut tx = self.store.begin().await?;
        let mut client = load_client(tx.as_mut(), account_id, client_id).await?;
        tx.set_client_blocked(&client.id, blocked).await?;
        client.blocked = blocked;
        if let Some(record) = client.subscription.as_mut() {
            // The panel must switch access off (or on again).
            record.revision += 1;
            tx.save_subscription(&client.id, record).await?;
        }
        tx.commit().await?;
        self.panel_sync.sync_client(&client.id).await;
        Ok(client)
    }

    /// Pauses (`suspend = true`) or resumes a client's access; the term keeps running.
    pub async fn set_subscription_suspended(
        &self,
        account_id: &AccountId,
        client_id: &ClientId,
        suspend: bool,
    ) -> AppResult<ClientRecord> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let mut client = load_client(tx.as_mut(), account_id, client_id).await?;
        let record = client.subscription.as_mut().ok_or(AppError::NotFound("subscription"))?;
        let result = if suspend { record.subscription.suspend(now) } else { record.subscription.resume(now) };
        result.map_err(|e| match e {
            SubscriptionError::NotActive => AppError::Conflict("only an active subscription can be suspended".into()),
            SubscriptionError::NotSuspended => AppError::Conflict("the subscription is not suspended".into()),
            other => AppError::Conflict(other.to_string()),
        })?;
        record.revision += 1;
        tx.save_subscription(&client.id, record).await?;
        tx.commit().await?;
        self.panel_sync.sync_client(&client.id).await;
        Ok(client)
    }

    /// Any invoice by id, for the operator.
    pub async fn invoice(&self, payment_id: &PaymentId) -> AppResult<vp_ports::InvoiceRecord> {
        let mut tx = self.store.read().await?;
        let invoice = tx.invoice_by_id(payment_id).await?.ok_or(AppError::NotFound("invoice"))?;
        tx.commit().await?;
        Ok(invoice)
    }
}
