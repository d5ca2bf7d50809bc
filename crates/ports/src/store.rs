//! The storage port: a pool of units of work. Everything done through one `Tx` commits or
//! rolls back together, so a state change and the records that follow from it are atomic.

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;
use vp_domain::{ClientId, DeviceSettings};

use crate::balance::*;
use crate::cabinet::*;
use crate::invoice_work::{InvoiceOpening, InvoiceRecorded, InvoiceWrite, OpenedInvoice};
use crate::notice::*;
use crate::records::*;
use crate::webhook::*;

#[derive(Debug, Error)]
pub enum StoreError {
    /// A unique constraint refused the write (client per account, idempotency key per
    /// account, api key hash, ...). The unit of work must be rolled back.
    #[error("conflict with an existing record: {0}")]
    Conflict(String),
    /// Another writer holds what this unit of work needs; retrying later may succeed.
    #[error("the database is busy: {0}")]
    Busy(String),
    /// The database cannot be reached or failed.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// A stored value does not decode into a domain value (a bug or a manual edit).
    #[error("corrupt record: {0}")]
    Corrupt(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// A database: hands out units of work.
#[async_trait]
pub trait Store: Send + Sync {
    /// Starts a unit of work that may write. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so two writers never deadlock on a lock upgrade.
    async fn begin(&self) -> StoreResult<Box<dyn Tx>>;
    /// Starts a unit of work that only reads: a consistent snapshot that takes no write lock,
    /// so reads never queue behind writers (PostgreSQL `READ ONLY`; SQLite a deferred
    /// transaction). Writing through it is a bug and fails on PostgreSQL.
    async fn read(&self) -> StoreResult<Box<dyn Tx>>;
    /// The key with this hash and its account, in one statement outside any unit of work:
    /// every partner request authenticates, so this is the hottest read.
    async fn account_by_key_hash(&self, key_hash: &str) -> StoreResult<Option<(ApiKeyRecord, AccountRecord)>>;
    /// Whether the database answers (for `/ready`).
    async fn ping(&self) -> StoreResult<()>;
    /// Returns when deliveries were recorded since the last call (in this process, or in
    /// another one sharing the database where the backend can tell), or after `max`.
    async fn wait_for_deliveries(&self, max: std::time::Duration);
    /// `POST /payments` before the gateway call, as one unit of work: records `opening.key`
    /// unless the account has that key already, and reads the client and the new-client bound.
    async fn open_invoice(&self, opening: InvoiceOpening<'_>) -> StoreResult<OpenedInvoice>;
    /// `POST /payments` after the gateway call, as one unit of work: the new client (within its
    /// daily limit, exactly), the invoice, the finished key. All or nothing.
    async fn record_invoice(&self, write: &InvoiceWrite) -> StoreResult<InvoiceRecorded>;
    /// Deliveries still to be made, read outside any unit of work (for the metrics).
    async fn delivery_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog>;
    /// The connection pool's use now.
    fn pool_state(&self) -> crate::metrics::PoolState;
}

/// The daily limits the store keeps (spec: Limits; a day is a sliding 24 hours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DailyQuota {
    NewClients,
    Trials,
}

impl DailyQuota {
    pub const fn as_str(self) -> &'static str {
        match self {
            DailyQuota::NewClients => "new_clients",
            DailyQuota::Trials => "trials",
        }
    }
}

/// A daily limit as it applies now: at most `limit` recorded after `since`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyLimit {
    pub quota: DailyQuota,
    pub since: OffsetDateTime,
    pub limit: u32,
}

/// Deliveries still to be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeliveryBacklog {
    /// Neither delivered nor given up.
    pub pending: u64,
    /// When the longest-waiting delivery that is due now fell due.
    pub oldest_due_at: Option<OffsetDateTime>,
}

/// One unit of work. Dropping it without `commit` rolls it back.
#[async_trait]
pub trait Tx: Send {
    async fn commit(self: Box<Self>) -> StoreResult<()>;
    async fn rollback(self: Box<Self>) -> StoreResult<()>;
    /// Serialises writers of one account until this unit of work ends (PostgreSQL:
    /// `SELECT ... FOR UPDATE` on the account row; SQLite: already serialised by
    /// `BEGIN IMMEDIATE`, so nothing to do). Count-then-insert limits rely on it.
    async fn lock_account(&mut self, account_id: &str) -> StoreResult<()>;

    // Accounts and keys.
    async fn insert_account(&mut self, account: &AccountRecord) -> StoreResult<()>;
    async fn update_account(&mut self, account: &AccountRecord) -> StoreResult<()>;
    async fn account(&mut self, id: &str) -> StoreResult<Option<AccountRecord>>;
    async fn accounts(&mut self) -> StoreResult<Vec<AccountRecord>>;
    async fn insert_api_key(&mut self, key: &ApiKeyRecord) -> StoreResult<()>;
    async fn api_key(&mut self, id: &str) -> StoreResult<Option<ApiKeyRecord>>;
    async fn api_keys(&mut self, account_id: &str) -> StoreResult<Vec<ApiKeyRecord>>;
    /// Marks a key revoked; returns false when it does not exist or was already revoked.
    async fn revoke_api_key(&mut self, id: &str, at: OffsetDateTime) -> StoreResult<bool>;

    // Catalogue: plans, device settings, payment methods, operator documents.
    async fn insert_plan(&mut self, plan: &NewPlan) -> StoreResult<PlanRecord>;
    async fn plan(&mut self, plan_id: i32) -> StoreResult<Option<PlanRecord>>;
    /// All plans, ordered by id; withdrawn ones only when asked.
    async fn plans(&mut self, include_withdrawn: bool) -> StoreResult<Vec<PlanRecord>>;
    /// Returns false when the plan does not exist or was already withdrawn.
    async fn withdraw_plan(&mut self, plan_id: i32, at: OffsetDateTime) -> StoreResult<bool>;
    async fn device_settings(&mut self) -> StoreResult<Option<DeviceSettings>>;
    async fn set_device_settings(&mut self, settings: &DeviceSettings) -> StoreResult<()>;
    async fn upsert_payment_method(&mut self, method: &PaymentMethodRecord) -> StoreResult<()>;
    async fn payment_method(&mut self, code: &str) -> StoreResult<Option<PaymentMethodRecord>>;
    /// All methods ordered by position, then code.
    async fn payment_methods(&mut self) -> StoreResult<Vec<PaymentMethodRecord>>;
    async fn setting(&mut self, key: &str) -> StoreResult<Option<SettingRecord>>;
    async fn put_setting(&mut self, setting: &SettingRecord) -> StoreResult<()>;

    // Clients and subscriptions.
    /// Fails with `Conflict` when the account already has this `client_id`.
    async fn insert_client(&mut self, client: &ClientRecord) -> StoreResult<()>;
    async fn client(&mut self, account_id: &str, client_id: &ClientId) -> StoreResult<Option<ClientRecord>>;
    async fn client_by_ref(&mut self, id: &str) -> StoreResult<Option<ClientRecord>>;
    async fn set_client_blocked(&mut self, id: &str, blocked: bool) -> StoreResult<()>;
    /// Creates or replaces the client's subscription.
    async fn save_subscription(&mut self, client_ref: &str, subscription: &SubscriptionRecord) -> StoreResult<()>;
    /// Clients of an account ordered by (created_at, id).
    async fn clients(&mut self, account_id: &str, filter: &ClientFilter) -> StoreResult<Vec<ClientRecord>>;
    async fn client_by_link_token(&mut self, token: &str) -> StoreResult<Option<ClientRecord>>;
    /// Records that a trial was granted, for the daily trial limit.
    async fn insert_trial_grant(&mut self, account_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<()>;
    /// Whether the account recorded fewer than `limit.limit` new clients (or trials) strictly
    /// after `limit.since` (a sliding window excludes its start). Exact, and it stays true until
    /// this unit of work ends: whoever records more waits for it (PostgreSQL: an advisory lock on
    /// the account's quota; SQLite has one writer). Costs O(1) until the count nears the limit.
    async fn below_daily_limit(&mut self, account_id: &str, limit: &DailyLimit) -> StoreResult<bool>;
    /// Forgets the daily counts older than `before` (no window reaches them); returns how many
    /// rows went.
    async fn prune_daily_counts(&mut self, before: OffsetDateTime) -> StoreResult<u64>;

    // Invoices, idempotency keys and the partner balance ledger.
    async fn insert_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()>;
    async fn update_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()>;
    async fn invoice(&mut self, account_id: &str, payment_id: &str) -> StoreResult<Option<InvoiceRecord>>;
    async fn invoice_by_id(&mut self, payment_id: &str) -> StoreResult<Option<InvoiceRecord>>;
    /// A client's newest invoices first.
    async fn client_invoices(&mut self, client_ref: &str, limit: u32) -> StoreResult<Vec<InvoiceRecord>>;
    /// Pending invoices whose deadline is at or before `now`, oldest first.
    async fn pending_invoices_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<InvoiceRecord>>;
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
        now: OffsetDateTime,
        window_start: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<GatewayCheck>>;
    /// Fails with `Conflict` when the account already used this key.
    async fn insert_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()>;
    async fn idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>>;
    async fn update_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()>;
    async fn delete_idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<()>;
    /// Keys left at `Started` whose lock expired before `before` (a process died holding it):
    /// `locked_until IS NOT NULL AND locked_until < before`. Keys released after a gateway
    /// failure have no lock and are not returned: the partner's retry decides for them.
    async fn unfinished_idempotency_keys(
        &mut self,
        before: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<IdempotencyRecord>>;
    /// Fails with `Conflict` when the same invoice or withdrawal already has an entry of this
    /// kind.
    async fn insert_ledger_entry(&mut self, entry: &LedgerEntry) -> StoreResult<()>;
    /// An account's ledger, newest first, strictly before the cursor `(created_at, id)`.
    async fn ledger_entries(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<LedgerEntry>>;
    /// The entries about one withdrawal request, oldest first.
    async fn withdrawal_ledger(&mut self, withdrawal_id: &str) -> StoreResult<Vec<LedgerEntry>>;
    /// The sums of the account's ledger.
    async fn partner_balance(&mut self, account_id: &str) -> StoreResult<vp_domain::withdrawal::Balance>;
    async fn insert_withdrawal(&mut self, withdrawal: &WithdrawalRecord) -> StoreResult<()>;
    async fn update_withdrawal(&mut self, withdrawal: &WithdrawalRecord) -> StoreResult<()>;
    async fn withdrawal(&mut self, id: &str) -> StoreResult<Option<WithdrawalRecord>>;
    async fn withdrawals(&mut self, filter: &WithdrawalFilter) -> StoreResult<Vec<WithdrawalRecord>>;

    // Notices to partners and the chats that receive them.
    async fn insert_notice(&mut self, notice: &NoticeRecord) -> StoreResult<()>;
    /// An account's notices, newest first, strictly before the cursor `(created_at, id)`.
    async fn notices(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<NoticeRecord>>;
    async fn insert_notice_sends(&mut self, sends: &[NoticeSend]) -> StoreResult<()>;
    /// Sends due at `now`, oldest first.
    async fn notice_sends_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<NoticeSend>>;
    /// Moves a send's next attempt to `until`, but only if it is still the time `send` was read
    /// with (no other worker took it meanwhile); returns whether this caller has it.
    async fn claim_notice_send(&mut self, send: &NoticeSend, until: OffsetDateTime) -> StoreResult<bool>;
    async fn update_notice_send(&mut self, send: &NoticeSend) -> StoreResult<()>;
    async fn notice(&mut self, id: &str) -> StoreResult<Option<NoticeRecord>>;
    /// Fails with `Conflict` when the chat is already linked to the account.
    async fn insert_partner_chat(&mut self, chat: &PartnerChat) -> StoreResult<()>;
    async fn partner_chats(&mut self, account_id: &str) -> StoreResult<Vec<PartnerChat>>;
    /// Returns whether there was such a link.
    async fn delete_partner_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<bool>;
    async fn insert_chat_link_code(&mut self, code: &ChatLinkCode) -> StoreResult<()>;
    /// Removes and returns the code (it works once).
    async fn take_chat_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ChatLinkCode>>;
    /// Forgets codes that expired before `before`.
    async fn prune_chat_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64>;

    // The partner cabinet.
    /// Fails with `Conflict` when the email is taken (by any account).
    async fn insert_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()>;
    async fn update_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()>;
    async fn cabinet_user(&mut self, id: &str) -> StoreResult<Option<CabinetUser>>;
    async fn cabinet_user_by_email(&mut self, email: &str) -> StoreResult<Option<CabinetUser>>;
    /// Users of an account, oldest first.
    async fn cabinet_users(&mut self, account_id: &str) -> StoreResult<Vec<CabinetUser>>;
    async fn insert_cabinet_link(&mut self, link: &CabinetLink) -> StoreResult<()>;
    async fn cabinet_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>>;
    /// Marks every unused link of the user used at `at`.
    async fn spend_cabinet_links(&mut self, user_id: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn insert_cabinet_session(&mut self, session: &CabinetSession) -> StoreResult<()>;
    async fn cabinet_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>>;
    async fn touch_cabinet_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn delete_cabinet_session(&mut self, token_hash: &str) -> StoreResult<()>;
    /// Ends every session of the user; returns how many there were.
    async fn delete_cabinet_sessions(&mut self, user_id: &str) -> StoreResult<u64>;
    /// Forgets sessions idle since `idle_before` or signed in before `created_before`.
    async fn prune_cabinet_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64>;
    async fn insert_sign_in_failure(
        &mut self,
        id: &str,
        email: &str,
        address: &str,
        at: OffsetDateTime,
    ) -> StoreResult<()>;
    /// When the source's most recent failed sign-ins happened, newest first, at most `limit`.
    async fn sign_in_failures(&mut self, source: SignInSource<'_>, limit: u32) -> StoreResult<Vec<OffsetDateTime>>;
    /// Forgets the email's failed sign-ins (after a successful one).
    async fn clear_sign_in_failures(&mut self, email: &str) -> StoreResult<()>;
    async fn prune_sign_in_failures(&mut self, before: OffsetDateTime) -> StoreResult<u64>;
    async fn insert_audit_entry(&mut self, entry: &AuditEntry) -> StoreResult<()>;
    /// An account's activity, newest first, strictly before the cursor `(at, id)`.
    async fn audit_entries(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<AuditEntry>>;

    // Panel synchronisation of subscriptions.
    /// Clients whose subscription `revision` is above its `panel_revision` and whose retry is
    /// not held back past `now`, oldest change first.
    async fn subscriptions_owing_panel_sync(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>>;
    /// Records that the panel confirmed `revision` (never lowers `panel_revision`).
    async fn mark_panel_synced(&mut self, client_ref: &str, revision: i64) -> StoreResult<()>;
    /// Records that the panel refused a push: counts it (reset by `mark_panel_synced`) and
    /// holds the next try back until `retry_at(failures in a row)`; returns that count.
    async fn defer_panel_sync(
        &mut self,
        client_ref: &str,
        retry_at: &(dyn Fn(u32) -> OffsetDateTime + Sync),
    ) -> StoreResult<u32>;

    // Events and their delivery (the outbox).
    async fn insert_webhook_endpoint(&mut self, endpoint: &WebhookEndpointRecord) -> StoreResult<()>;
    async fn update_webhook_endpoint(&mut self, endpoint: &WebhookEndpointRecord) -> StoreResult<()>;
    async fn webhook_endpoint(&mut self, id: &str) -> StoreResult<Option<WebhookEndpointRecord>>;
    /// Endpoints of an account, oldest first.
    async fn webhook_endpoints(&mut self, account_id: &str) -> StoreResult<Vec<WebhookEndpointRecord>>;
    async fn insert_event(&mut self, event: &EventRecord) -> StoreResult<()>;
    async fn event(&mut self, id: &str) -> StoreResult<Option<EventRecord>>;
    /// Fails with `Conflict` when the event already has a delivery to this endpoint.
    async fn insert_delivery(&mut self, delivery: &DeliveryRecord) -> StoreResult<()>;
    async fn update_delivery(&mut self, delivery: &DeliveryRecord) -> StoreResult<()>;
    /// Saves many deliveries' state at once.
    async fn update_deliveries(&mut self, deliveries: &[DeliveryRecord]) -> StoreResult<()>;
    async fn delivery(&mut self, id: &str) -> StoreResult<Option<DeliveryRecord>>;
    /// Pending deliveries due at `now` whose lease is free, oldest due first, leased to the
    /// caller until `lease_until`: no other worker of any process takes them meanwhile
    /// (PostgreSQL skips rows being claimed with `FOR UPDATE SKIP LOCKED`; SQLite's single
    /// write lock serialises claimers). Deliveries to the endpoints in `skip_endpoints` are
    /// left alone.
    async fn claim_due_deliveries(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
        skip_endpoints: &[String],
    ) -> StoreResult<Vec<DeliveryRecord>>;
    /// Gives claimed deliveries back before their lease runs out.
    async fn release_deliveries(&mut self, ids: &[String]) -> StoreResult<()>;
    async fn events_by_ids(&mut self, ids: &[String]) -> StoreResult<Vec<EventRecord>>;
    async fn webhook_endpoints_by_ids(&mut self, ids: &[String]) -> StoreResult<Vec<WebhookEndpointRecord>>;
    async fn insert_attempts(&mut self, attempts: &[AttemptRecord]) -> StoreResult<()>;
    /// Attempts to an endpoint that pass the filter, newest first (ties: by id, descending).
    async fn endpoint_attempts(
        &mut self,
        endpoint_id: &str,
        filter: &AttemptFilter,
    ) -> StoreResult<Vec<AttemptLogEntry>>;
    /// Deliveries to an endpoint in `status` created strictly after `since`, oldest first.
    async fn endpoint_deliveries_since(
        &mut self,
        endpoint_id: &str,
        status: DeliveryStatus,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<DeliveryRecord>>;
    /// When events of `event_type` were queued for an endpoint strictly after `since`, oldest
    /// first.
    async fn endpoint_event_times_since(
        &mut self,
        endpoint_id: &str,
        event_type: &str,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<OffsetDateTime>>;
    /// Clients whose subscription may owe a term event: active or suspended, not lifetime, ending at or
    /// before `horizon`, with the 24-hour reminder unsent or the term over at `now`; ordered
    /// by (expires_at, client ref) and strictly after the cursor `after`.
    async fn term_event_candidates(
        &mut self,
        now: OffsetDateTime,
        horizon: OffsetDateTime,
        after: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>>;

    // The embedded local panel's own tables.
    async fn local_panel_put_user(&mut self, user: &LocalPanelUser) -> StoreResult<()>;
    async fn local_panel_user(&mut self, user_ref: &str) -> StoreResult<Option<LocalPanelUser>>;
    async fn local_panel_user_by_token(&mut self, link_token: &str) -> StoreResult<Option<LocalPanelUser>>;
    /// Devices of a user, oldest first.
    async fn local_panel_devices(&mut self, user_ref: &str) -> StoreResult<Vec<LocalPanelDevice>>;
    /// Inserts the device, or updates its details and `last_seen_at` when (user_ref, hwid) exists.
    async fn local_panel_upsert_device(&mut self, device: &LocalPanelDevice) -> StoreResult<()>;
    /// Returns false when the user has no such device.
    async fn local_panel_delete_device(&mut self, user_ref: &str, hwid: &str) -> StoreResult<bool>;
}
