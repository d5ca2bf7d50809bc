//! Invoices, their gateway checks and the idempotency keys of `POST /payments`.

use super::Claim;
use async_trait::async_trait;
use time::OffsetDateTime;

use crate::records::*;

use super::StoreResult;

#[async_trait]
pub trait InvoiceRepo: Send {
    async fn insert_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()>;
    async fn update_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()>;
    async fn invoice(&mut self, account_id: &str, payment_id: &str) -> StoreResult<Option<InvoiceRecord>>;
    async fn invoice_by_id(&mut self, payment_id: &str) -> StoreResult<Option<InvoiceRecord>>;
    /// A client's newest invoices first.
    async fn client_invoices(&mut self, client_ref: &str, limit: u32) -> StoreResult<Vec<InvoiceRecord>>;
    /// Pending invoices whose deadline is at or before `now`, oldest first.
    async fn pending_invoices_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<InvoiceRecord>>;
    /// Succeeded invoices paid at or after `since`, in the order of (`paid_at`, id), after
    /// `after` (a page's last), at most `limit`.
    async fn paid_invoices_since(
        &mut self,
        since: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<InvoiceRecord>>;
    /// The account's invoices created in `[from, to)`, in the order of (`created_at`, id), after
    /// `after` (a page's last), at most `limit`: an export's page.
    async fn account_invoices(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<InvoiceRecord>>;
    async fn invoice_by_gateway_payment_id(&mut self, gateway_payment_id: &str) -> StoreResult<Option<InvoiceRecord>>;
    /// When the reconciliation job should next re-read the invoice's gateway payment; `None`:
    /// never again.
    async fn schedule_gateway_check(&mut self, payment_id: &str, at: Option<OffsetDateTime>) -> StoreResult<()>;
    /// Claims up to `limit` invoices whose re-read is due (`<= now`), still pending or expired
    /// here, whose payment window ended no earlier than `window_start`; each claimed one's next
    /// check moves to `lease_until` and its count goes up. Concurrent claimers never get the
    /// same invoice.
    async fn claim_gateway_checks(
        &mut self,
        claim: Claim,
        window_start: OffsetDateTime,
    ) -> StoreResult<Vec<GatewayCheck>>;
    /// Fails with `Conflict` when the account already used this key.
    async fn insert_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()>;
    async fn idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>>;
    async fn update_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()>;
    /// Moves the lock of a key still being issued under `payment_id` to `until` (its holder is
    /// alive). `false` when the key is no longer so: finished, released, or taken over.
    async fn extend_idempotency_lock(
        &mut self,
        account_id: &str,
        key: &str,
        payment_id: &str,
        until: OffsetDateTime,
    ) -> StoreResult<bool>;
    async fn delete_idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<()>;
    /// Keys left at `Started` whose lock expired before `before` (a process died holding it):
    /// `locked_until IS NOT NULL AND locked_until < before`. Keys released after a gateway
    /// failure have no lock and are not returned: the partner's retry decides for them.
    async fn unfinished_idempotency_keys(
        &mut self,
        before: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<IdempotencyRecord>>;
}
