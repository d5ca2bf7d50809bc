//! The two units of work of `POST /payments` (spec: Idempotency outcomes), shaped so a store can
//! run each in as few round trips as it can: one before the gateway is called, one after.
//! Everything else about invoices goes through `Tx`.

use time::OffsetDateTime;
use vp_domain::ClientId;

use crate::records::{ClientRecord, IdempotencyRecord, InvoiceRecord};
use crate::store::DailyLimit;

/// What `Store::open_invoice` found and did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedInvoice {
    /// `None`: the key was new and is now recorded as given. `Some`: the account already had
    /// this key (as returned); nothing was written.
    pub existing_key: Option<IdempotencyRecord>,
    /// The account's client with the request's `client_id`, if there is one.
    pub client: Option<ClientRecord>,
    /// At least the number of clients the account created in the new-client limit's window (the
    /// store's bound; exact only when it is below the limit).
    pub new_clients_bound: u64,
}

/// The writes of a recorded invoice, all or nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceWrite {
    /// The invoice, `pending`; its `client_ref` is the new client's or an existing one's.
    pub invoice: InvoiceRecord,
    /// A client to create with it, and the daily limit its creation must stay within.
    pub new_client: Option<(ClientRecord, DailyLimit)>,
    /// The request's key, now at `finished`.
    pub key: IdempotencyRecord,
    /// When the gateway should first be asked about the payment (gateways that may lose a
    /// notification); `None`: never.
    pub gateway_check_at: Option<OffsetDateTime>,
}

/// What `Store::record_invoice` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceRecorded {
    /// Everything was written.
    Recorded,
    /// Nothing was written: an invoice with this id exists (another attempt of the same request
    /// recorded it).
    AlreadyRecorded,
    /// Nothing was written: the account has a client with this `client_id` now (created since
    /// the request read it); record the invoice for that client instead.
    ClientExists,
    /// Nothing was written: the client would pass the daily new-client limit.
    DailyLimitReached,
}

/// The parameters of `Store::open_invoice`.
#[derive(Debug, Clone, Copy)]
pub struct InvoiceOpening<'a> {
    /// The key to record (at `started`, locked, with the charge pinned).
    pub key: &'a IdempotencyRecord,
    pub client_id: &'a ClientId,
    /// The new-client limit, for `OpenedInvoice::new_clients_bound`.
    pub new_clients: &'a DailyLimit,
}
