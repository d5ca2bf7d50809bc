//! The unit of work: a pooled connection inside an explicit `BEGIN ... COMMIT/ROLLBACK`.
//! diesel's own transaction manager is not used, so the SQL decides the lock mode
//! (`BEGIN IMMEDIATE` on SQLite).

use std::sync::Arc;

use async_trait::async_trait;
use diesel_async::SimpleAsyncConnection;
use time::OffsetDateTime;
use tokio::sync::{Mutex, OwnedMutexGuard};
use vp_domain::withdrawal::Balance;
use vp_domain::{ClientId, DeviceSettings};
use vp_ports::balance::*;
use vp_ports::cabinet::*;
use vp_ports::notice::*;
use vp_ports::records::*;
use vp_ports::store::StoreResult;
use vp_ports::webhook::*;
use vp_ports::{
    DailyLimit, DeliveryBacklog, InvoiceOpening, InvoiceRecorded, InvoiceWrite, OpenedInvoice, Store, StoreError, Tx,
};

use crate::errors;
use crate::invoice_work;
use crate::pool::{DbConn, DbPool, db_run};
use crate::repo::{accounts, balance, billing, cabinet, catalogue, clients, events, local_panel, notices, quotas};
use crate::signal::{DeliverySignal, NOTIFY_DELIVERIES};
use crate::sqlite_writer::GroupWriter;

pub(crate) struct PoolStore {
    pool: DbPool,
    deliveries: Arc<DeliverySignal>,
    /// SQLite has one writer at a time. Writers of this process queue here, in order, instead
    /// of in SQLite's busy handler, which polls with growing sleeps and turned contention into
    /// long tail latencies. Other processes (operator commands) still meet the busy timeout.
    sqlite_writer: Arc<Mutex<()>>,
    invoices: InvoiceWriters,
}

/// Who commits the invoice units of work, in groups: the one writer thread on SQLite, writer
/// tasks on PostgreSQL.
enum InvoiceWriters {
    Sqlite(GroupWriter),
    Postgres(invoice_work::PgGroups),
}

impl PoolStore {
    /// `sqlite_path` is the database file when `pool` is SQLite's; `open_transactions` the
    /// most transactions the database can have open at once (PostgreSQL's `max_connections`),
    /// for the new-client quota. Must run inside the runtime (it starts the writers).
    pub(crate) fn new(
        pool: DbPool,
        deliveries: DeliverySignal,
        open_transactions: u64,
        sqlite_path: Option<String>,
    ) -> StoreResult<PoolStore> {
        let sqlite_writer = Arc::<Mutex<()>>::default();
        let invoices = match (&pool, sqlite_path) {
            (DbPool::Sqlite(_), Some(path)) => InvoiceWriters::Sqlite(GroupWriter::start(path, sqlite_writer.clone())?),
            (DbPool::Sqlite(_), None) => {
                return Err(StoreError::Unavailable("an SQLite store needs its database file".into()));
            }
            // A quarter of the pool per unit of work (two kinds: half the pool at most), so
            // other work always finds connections.
            (DbPool::Postgres(pg), _) => InvoiceWriters::Postgres(invoice_work::PgGroups::start(
                pg.clone(),
                (pg.status().max_size / 4).clamp(1, 4),
                invoice_work::Margin::of(open_transactions),
            )),
        };
        Ok(PoolStore { pool, deliveries: Arc::new(deliveries), sqlite_writer, invoices })
    }

    async fn start(&self, write: bool, sqlite: &str, postgres: &str) -> StoreResult<Box<dyn Tx>> {
        let writer = match (&self.pool, write) {
            (DbPool::Sqlite(_), true) => Some(self.sqlite_writer.clone().lock_owned().await),
            _ => None,
        };
        let mut conn = self.pool.get().await?;
        let begin = match conn {
            DbConn::Sqlite(_) => sqlite,
            DbConn::Postgres(_) => postgres,
        };
        // A failed BEGIN leaves no transaction open, so the connection may go back to the pool.
        db_run!(&mut conn, c => c.batch_execute(begin).await).map_err(errors::db)?;
        Ok(Box::new(StoreTx {
            conn: Some(conn),
            write_turn: writer,
            deliveries: self.deliveries.clone(),
            recorded_deliveries: false,
        }))
    }
}

#[async_trait]
impl Store for PoolStore {
    async fn begin(&self) -> StoreResult<Box<dyn Tx>> {
        // SQLite takes the write lock now: a later upgrade from a read lock could deadlock.
        self.start(true, "BEGIN IMMEDIATE", "BEGIN").await
    }

    async fn read(&self) -> StoreResult<Box<dyn Tx>> {
        self.start(false, "BEGIN DEFERRED", "BEGIN READ ONLY").await
    }

    async fn account_by_key_hash(&self, key_hash: &str) -> StoreResult<Option<(ApiKeyRecord, AccountRecord)>> {
        let mut conn = self.pool.get().await?;
        accounts::account_by_key_hash(&mut conn, key_hash).await
    }

    async fn ping(&self) -> StoreResult<()> {
        let mut conn = self.pool.get().await?;
        db_run!(&mut conn, c => c.batch_execute("SELECT 1").await).map_err(errors::db)
    }

    async fn wait_for_deliveries(&self, max: std::time::Duration) {
        self.deliveries.wait(max).await;
    }

    async fn delivery_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog> {
        let mut conn = self.pool.get().await?;
        events::delivery_backlog(&mut conn, now).await
    }

    fn pool_state(&self) -> vp_ports::PoolState {
        self.pool.state()
    }

    async fn open_invoice(&self, opening: InvoiceOpening<'_>) -> StoreResult<OpenedInvoice> {
        let work = invoice_work::Opening::new(opening);
        match &self.invoices {
            InvoiceWriters::Sqlite(writer) => invoice_work::open_sqlite(writer, work).await,
            InvoiceWriters::Postgres(groups) => groups.open(work).await,
        }
    }

    async fn record_invoice(&self, write: &InvoiceWrite) -> StoreResult<InvoiceRecorded> {
        let work = invoice_work::Recording::new(write)?;
        match &self.invoices {
            InvoiceWriters::Sqlite(writer) => invoice_work::record_sqlite(writer, work).await,
            InvoiceWriters::Postgres(groups) => groups.record(work).await,
        }
    }
}

pub(crate) struct StoreTx {
    /// `None` once committed or rolled back.
    conn: Option<DbConn>,
    /// This process's SQLite write turn, held until the transaction has ended.
    write_turn: Option<OwnedMutexGuard<()>>,
    deliveries: Arc<DeliverySignal>,
    /// Deliveries were inserted: the dispatcher is woken when this unit of work commits.
    recorded_deliveries: bool,
}

impl StoreTx {
    fn conn(&mut self) -> StoreResult<&mut DbConn> {
        self.conn.as_mut().ok_or_else(|| StoreError::Unavailable("the unit of work has already ended".into()))
    }

    async fn finish(&mut self, statement: &str) -> StoreResult<()> {
        let Some(mut conn) = self.conn.take() else {
            return Err(StoreError::Unavailable("the unit of work has already ended".into()));
        };
        match db_run!(&mut conn, c => c.batch_execute(statement).await) {
            Ok(()) => Ok(()),
            Err(e) => {
                // The transaction may still be open: never hand this connection out again.
                conn.detach();
                Err(errors::db(e))
            }
        }
    }
}

impl Drop for StoreTx {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else { return };
        let write_turn = self.write_turn.take();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if let Err(e) = db_run!(&mut conn, c => c.batch_execute("ROLLBACK").await) {
                        tracing::warn!(error = %e, "rollback of an abandoned unit of work failed; dropping the connection");
                        conn.detach();
                    }
                    // The next writer starts only once this transaction is over.
                    drop(write_turn);
                });
            }
            // No runtime to roll back on: closing the connection rolls the transaction back.
            Err(_) => conn.detach(),
        }
    }
}

#[async_trait]
impl Tx for StoreTx {
    async fn commit(mut self: Box<Self>) -> StoreResult<()> {
        let postgres = matches!(self.conn, Some(DbConn::Postgres(_)));
        if !self.recorded_deliveries {
            return self.finish("COMMIT").await;
        }
        // On PostgreSQL the notification reaches every listening process at the commit.
        let statement = if postgres { format!("{NOTIFY_DELIVERIES}; COMMIT") } else { "COMMIT".to_owned() };
        self.finish(&statement).await?;
        self.deliveries.wake();
        Ok(())
    }

    async fn rollback(mut self: Box<Self>) -> StoreResult<()> {
        self.finish("ROLLBACK").await
    }

    async fn lock_account(&mut self, account_id: &str) -> StoreResult<()> {
        accounts::lock_account(self.conn()?, account_id).await
    }

    async fn insert_account(&mut self, account: &AccountRecord) -> StoreResult<()> {
        accounts::insert_account(self.conn()?, account).await
    }

    async fn update_account(&mut self, account: &AccountRecord) -> StoreResult<()> {
        accounts::update_account(self.conn()?, account).await
    }

    async fn account(&mut self, id: &str) -> StoreResult<Option<AccountRecord>> {
        accounts::account(self.conn()?, id).await
    }

    async fn accounts(&mut self) -> StoreResult<Vec<AccountRecord>> {
        accounts::accounts(self.conn()?).await
    }

    async fn insert_api_key(&mut self, key: &ApiKeyRecord) -> StoreResult<()> {
        accounts::insert_api_key(self.conn()?, key).await
    }

    async fn api_key(&mut self, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
        accounts::api_key(self.conn()?, id).await
    }

    async fn api_keys(&mut self, account_id: &str) -> StoreResult<Vec<ApiKeyRecord>> {
        accounts::api_keys(self.conn()?, account_id).await
    }

    async fn revoke_api_key(&mut self, id: &str, at: OffsetDateTime) -> StoreResult<bool> {
        accounts::revoke_api_key(self.conn()?, id, at).await
    }

    async fn insert_plan(&mut self, plan: &NewPlan) -> StoreResult<PlanRecord> {
        catalogue::insert_plan(self.conn()?, plan).await
    }

    async fn plan(&mut self, plan_id: i32) -> StoreResult<Option<PlanRecord>> {
        catalogue::plan(self.conn()?, plan_id).await
    }

    async fn plans(&mut self, include_withdrawn: bool) -> StoreResult<Vec<PlanRecord>> {
        catalogue::plans(self.conn()?, include_withdrawn).await
    }

    async fn withdraw_plan(&mut self, plan_id: i32, at: OffsetDateTime) -> StoreResult<bool> {
        catalogue::withdraw_plan(self.conn()?, plan_id, at).await
    }

    async fn device_settings(&mut self) -> StoreResult<Option<DeviceSettings>> {
        catalogue::device_settings(self.conn()?).await
    }

    async fn set_device_settings(&mut self, settings: &DeviceSettings) -> StoreResult<()> {
        catalogue::set_device_settings(self.conn()?, settings).await
    }

    async fn upsert_payment_method(&mut self, method: &PaymentMethodRecord) -> StoreResult<()> {
        catalogue::upsert_payment_method(self.conn()?, method).await
    }

    async fn payment_method(&mut self, code: &str) -> StoreResult<Option<PaymentMethodRecord>> {
        catalogue::payment_method(self.conn()?, code).await
    }

    async fn payment_methods(&mut self) -> StoreResult<Vec<PaymentMethodRecord>> {
        catalogue::payment_methods(self.conn()?).await
    }

    async fn setting(&mut self, key: &str) -> StoreResult<Option<SettingRecord>> {
        catalogue::setting(self.conn()?, key).await
    }

    async fn put_setting(&mut self, setting: &SettingRecord) -> StoreResult<()> {
        catalogue::put_setting(self.conn()?, setting).await
    }

    async fn insert_client(&mut self, client: &ClientRecord) -> StoreResult<()> {
        clients::insert_client(self.conn()?, client).await
    }

    async fn client(&mut self, account_id: &str, client_id: &ClientId) -> StoreResult<Option<ClientRecord>> {
        clients::client(self.conn()?, account_id, client_id).await
    }

    async fn client_by_ref(&mut self, id: &str) -> StoreResult<Option<ClientRecord>> {
        clients::client_by_ref(self.conn()?, id).await
    }

    async fn set_client_blocked(&mut self, id: &str, blocked: bool) -> StoreResult<()> {
        clients::set_client_blocked(self.conn()?, id, blocked).await
    }

    async fn save_subscription(&mut self, client_ref: &str, subscription: &SubscriptionRecord) -> StoreResult<()> {
        clients::save_subscription(self.conn()?, client_ref, subscription).await
    }

    async fn clients(&mut self, account_id: &str, filter: &ClientFilter) -> StoreResult<Vec<ClientRecord>> {
        clients::clients(self.conn()?, account_id, filter).await
    }

    async fn client_by_link_token(&mut self, token: &str) -> StoreResult<Option<ClientRecord>> {
        clients::client_by_link_token(self.conn()?, token).await
    }

    async fn insert_trial_grant(&mut self, account_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<()> {
        clients::insert_trial_grant(self.conn()?, account_id, client_ref, at).await
    }

    async fn below_daily_limit(&mut self, account_id: &str, limit: &DailyLimit) -> StoreResult<bool> {
        quotas::below_daily_limit(self.conn()?, account_id, limit).await
    }

    async fn prune_daily_counts(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        quotas::prune(self.conn()?, before).await
    }

    async fn insert_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()> {
        billing::insert_invoice(self.conn()?, invoice).await
    }

    async fn update_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()> {
        billing::update_invoice(self.conn()?, invoice).await
    }

    async fn invoice(&mut self, account_id: &str, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        billing::invoice(self.conn()?, account_id, payment_id).await
    }

    async fn client_invoices(&mut self, client_ref: &str, limit: u32) -> StoreResult<Vec<InvoiceRecord>> {
        billing::client_invoices(self.conn()?, client_ref, limit).await
    }

    async fn invoice_by_id(&mut self, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        billing::invoice_by_id(self.conn()?, payment_id).await
    }

    async fn pending_invoices_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<InvoiceRecord>> {
        billing::pending_invoices_due(self.conn()?, now, limit).await
    }

    async fn invoice_by_gateway_payment_id(&mut self, gateway_payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        billing::invoice_by_gateway_payment_id(self.conn()?, gateway_payment_id).await
    }

    async fn schedule_gateway_check(&mut self, payment_id: &str, at: Option<OffsetDateTime>) -> StoreResult<()> {
        billing::schedule_gateway_check(self.conn()?, payment_id, at).await
    }

    async fn claim_gateway_checks(
        &mut self,
        now: OffsetDateTime,
        window_start: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<GatewayCheck>> {
        billing::claim_gateway_checks(self.conn()?, now, window_start, lease_until, limit).await
    }

    async fn insert_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()> {
        billing::insert_idempotency_key(self.conn()?, record).await
    }

    async fn idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>> {
        billing::idempotency_key(self.conn()?, account_id, key).await
    }

    async fn update_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()> {
        billing::update_idempotency_key(self.conn()?, record).await
    }

    async fn delete_idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<()> {
        billing::delete_idempotency_key(self.conn()?, account_id, key).await
    }

    async fn unfinished_idempotency_keys(
        &mut self,
        before: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<IdempotencyRecord>> {
        billing::unfinished_idempotency_keys(self.conn()?, before, limit).await
    }

    async fn insert_ledger_entry(&mut self, entry: &LedgerEntry) -> StoreResult<()> {
        balance::insert_ledger_entry(self.conn()?, entry).await
    }

    async fn ledger_entries(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<LedgerEntry>> {
        balance::ledger_entries(self.conn()?, account_id, before, limit).await
    }

    async fn withdrawal_ledger(&mut self, withdrawal_id: &str) -> StoreResult<Vec<LedgerEntry>> {
        balance::withdrawal_ledger(self.conn()?, withdrawal_id).await
    }

    async fn partner_balance(&mut self, account_id: &str) -> StoreResult<Balance> {
        balance::partner_balance(self.conn()?, account_id).await
    }

    async fn insert_withdrawal(&mut self, withdrawal: &WithdrawalRecord) -> StoreResult<()> {
        balance::insert_withdrawal(self.conn()?, withdrawal).await
    }

    async fn update_withdrawal(&mut self, withdrawal: &WithdrawalRecord) -> StoreResult<()> {
        balance::update_withdrawal(self.conn()?, withdrawal).await
    }

    async fn withdrawal(&mut self, id: &str) -> StoreResult<Option<WithdrawalRecord>> {
        balance::withdrawal_by_id(self.conn()?, id).await
    }

    async fn withdrawals(&mut self, filter: &WithdrawalFilter) -> StoreResult<Vec<WithdrawalRecord>> {
        balance::withdrawals_page(self.conn()?, filter).await
    }

    async fn insert_notice(&mut self, notice: &NoticeRecord) -> StoreResult<()> {
        notices::insert_notice(self.conn()?, notice).await
    }

    async fn notices(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<NoticeRecord>> {
        notices::notices(self.conn()?, account_id, before, limit).await
    }

    async fn insert_notice_sends(&mut self, sends: &[NoticeSend]) -> StoreResult<()> {
        notices::insert_sends(self.conn()?, sends).await
    }

    async fn notice_sends_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<NoticeSend>> {
        notices::sends_due(self.conn()?, now, limit).await
    }

    async fn claim_notice_send(&mut self, send: &NoticeSend, until: OffsetDateTime) -> StoreResult<bool> {
        notices::claim_send(self.conn()?, send, until).await
    }

    async fn update_notice_send(&mut self, send: &NoticeSend) -> StoreResult<()> {
        notices::update_send(self.conn()?, send).await
    }

    async fn notice(&mut self, id: &str) -> StoreResult<Option<NoticeRecord>> {
        notices::notice_by_id(self.conn()?, id).await
    }

    async fn insert_partner_chat(&mut self, chat: &PartnerChat) -> StoreResult<()> {
        notices::insert_chat(self.conn()?, chat).await
    }

    async fn partner_chats(&mut self, account_id: &str) -> StoreResult<Vec<PartnerChat>> {
        notices::chats(self.conn()?, account_id).await
    }

    async fn delete_partner_chat(&mut self, account_id: &str, chat_id: i64) -> StoreResult<bool> {
        notices::delete_chat(self.conn()?, account_id, chat_id).await
    }

    async fn insert_chat_link_code(&mut self, code: &ChatLinkCode) -> StoreResult<()> {
        notices::insert_link_code(self.conn()?, code).await
    }

    async fn take_chat_link_code(&mut self, code_hash: &str) -> StoreResult<Option<ChatLinkCode>> {
        notices::take_link_code(self.conn()?, code_hash).await
    }

    async fn prune_chat_link_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        notices::prune_link_codes(self.conn()?, before).await
    }

    async fn insert_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()> {
        cabinet::insert_user(self.conn()?, user).await
    }

    async fn update_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()> {
        cabinet::update_user(self.conn()?, user).await
    }

    async fn cabinet_user(&mut self, id: &str) -> StoreResult<Option<CabinetUser>> {
        cabinet::user_by_id(self.conn()?, id).await
    }

    async fn cabinet_user_by_email(&mut self, email: &str) -> StoreResult<Option<CabinetUser>> {
        cabinet::user_by_email(self.conn()?, email).await
    }

    async fn cabinet_users(&mut self, account_id: &str) -> StoreResult<Vec<CabinetUser>> {
        cabinet::users(self.conn()?, account_id).await
    }

    async fn insert_cabinet_link(&mut self, link: &CabinetLink) -> StoreResult<()> {
        cabinet::insert_link(self.conn()?, link).await
    }

    async fn cabinet_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
        cabinet::link(self.conn()?, token_hash).await
    }

    async fn spend_cabinet_links(&mut self, user_id: &str, at: OffsetDateTime) -> StoreResult<()> {
        cabinet::spend_links(self.conn()?, user_id, at).await
    }

    async fn insert_cabinet_session(&mut self, session: &CabinetSession) -> StoreResult<()> {
        cabinet::insert_session(self.conn()?, session).await
    }

    async fn cabinet_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
        cabinet::session(self.conn()?, token_hash).await
    }

    async fn touch_cabinet_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        cabinet::touch_session(self.conn()?, token_hash, at).await
    }

    async fn delete_cabinet_session(&mut self, token_hash: &str) -> StoreResult<()> {
        cabinet::delete_session(self.conn()?, token_hash).await
    }

    async fn delete_cabinet_sessions(&mut self, user_id: &str) -> StoreResult<u64> {
        cabinet::delete_user_sessions(self.conn()?, user_id).await
    }

    async fn prune_cabinet_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64> {
        cabinet::prune_sessions(self.conn()?, idle_before, created_before).await
    }

    async fn insert_sign_in_failure(
        &mut self,
        id: &str,
        email: &str,
        address: &str,
        at: OffsetDateTime,
    ) -> StoreResult<()> {
        cabinet::insert_failure(self.conn()?, id, email, address, at).await
    }

    async fn sign_in_failures(&mut self, source: SignInSource<'_>, limit: u32) -> StoreResult<Vec<OffsetDateTime>> {
        cabinet::failures(self.conn()?, source, limit).await
    }

    async fn clear_sign_in_failures(&mut self, email: &str) -> StoreResult<()> {
        cabinet::clear_failures(self.conn()?, email).await
    }

    async fn prune_sign_in_failures(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        cabinet::prune_failures(self.conn()?, before).await
    }

    async fn insert_audit_entry(&mut self, entry: &AuditEntry) -> StoreResult<()> {
        cabinet::insert_audit(self.conn()?, entry).await
    }

    async fn audit_entries(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<AuditEntry>> {
        cabinet::audit(self.conn()?, account_id, before, limit).await
    }

    async fn subscriptions_owing_panel_sync(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>> {
        clients::subscriptions_owing_panel_sync(self.conn()?, now, limit).await
    }

    async fn mark_panel_synced(&mut self, client_ref: &str, revision: i64) -> StoreResult<()> {
        clients::mark_panel_synced(self.conn()?, client_ref, revision).await
    }

    async fn defer_panel_sync(
        &mut self,
        client_ref: &str,
        retry_at: &(dyn Fn(u32) -> OffsetDateTime + Sync),
    ) -> StoreResult<u32> {
        clients::defer_panel_sync(self.conn()?, client_ref, retry_at).await
    }

    async fn insert_webhook_endpoint(&mut self, endpoint: &WebhookEndpointRecord) -> StoreResult<()> {
        events::insert_endpoint(self.conn()?, endpoint).await
    }

    async fn update_webhook_endpoint(&mut self, endpoint: &WebhookEndpointRecord) -> StoreResult<()> {
        events::update_endpoint(self.conn()?, endpoint).await
    }

    async fn webhook_endpoint(&mut self, id: &str) -> StoreResult<Option<WebhookEndpointRecord>> {
        events::endpoint_by_id(self.conn()?, id).await
    }

    async fn webhook_endpoints(&mut self, account_id: &str) -> StoreResult<Vec<WebhookEndpointRecord>> {
        events::endpoints(self.conn()?, account_id).await
    }

    async fn insert_event(&mut self, event: &EventRecord) -> StoreResult<()> {
        events::insert_event(self.conn()?, event).await
    }

    async fn event(&mut self, id: &str) -> StoreResult<Option<EventRecord>> {
        events::event_by_id(self.conn()?, id).await
    }

    async fn insert_delivery(&mut self, delivery: &DeliveryRecord) -> StoreResult<()> {
        events::insert_delivery(self.conn()?, delivery).await?;
        self.recorded_deliveries = true;
        Ok(())
    }

    async fn update_delivery(&mut self, delivery: &DeliveryRecord) -> StoreResult<()> {
        events::update_delivery(self.conn()?, delivery).await
    }

    async fn update_deliveries(&mut self, deliveries: &[DeliveryRecord]) -> StoreResult<()> {
        events::update_deliveries(self.conn()?, deliveries).await
    }

    async fn delivery(&mut self, id: &str) -> StoreResult<Option<DeliveryRecord>> {
        events::delivery_by_id(self.conn()?, id).await
    }

    async fn claim_due_deliveries(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
        skip_endpoints: &[String],
    ) -> StoreResult<Vec<DeliveryRecord>> {
        events::claim_due_deliveries(self.conn()?, now, lease_until, limit, skip_endpoints).await
    }

    async fn release_deliveries(&mut self, ids: &[String]) -> StoreResult<()> {
        events::release_deliveries(self.conn()?, ids).await
    }

    async fn events_by_ids(&mut self, ids: &[String]) -> StoreResult<Vec<EventRecord>> {
        events::events_by_ids(self.conn()?, ids).await
    }

    async fn webhook_endpoints_by_ids(&mut self, ids: &[String]) -> StoreResult<Vec<WebhookEndpointRecord>> {
        events::endpoints_by_ids(self.conn()?, ids).await
    }

    async fn insert_attempts(&mut self, attempts: &[AttemptRecord]) -> StoreResult<()> {
        events::insert_attempts(self.conn()?, attempts).await
    }

    async fn endpoint_attempts(
        &mut self,
        endpoint_id: &str,
        filter: &AttemptFilter,
    ) -> StoreResult<Vec<AttemptLogEntry>> {
        events::endpoint_attempts(self.conn()?, endpoint_id, filter).await
    }

    async fn endpoint_deliveries_since(
        &mut self,
        endpoint_id: &str,
        status: DeliveryStatus,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<DeliveryRecord>> {
        events::deliveries_since(self.conn()?, endpoint_id, status, since).await
    }

    async fn endpoint_event_times_since(
        &mut self,
        endpoint_id: &str,
        event_type: &str,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<OffsetDateTime>> {
        events::endpoint_event_times_since(self.conn()?, endpoint_id, event_type, since).await
    }

    async fn term_event_candidates(
        &mut self,
        now: OffsetDateTime,
        horizon: OffsetDateTime,
        after: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>> {
        events::term_event_candidates(self.conn()?, now, horizon, after, limit).await
    }

    async fn local_panel_put_user(&mut self, user: &LocalPanelUser) -> StoreResult<()> {
        local_panel::put_user(self.conn()?, user).await
    }

    async fn local_panel_user(&mut self, user_ref: &str) -> StoreResult<Option<LocalPanelUser>> {
        local_panel::user(self.conn()?, user_ref).await
    }

    async fn local_panel_user_by_token(&mut self, link_token: &str) -> StoreResult<Option<LocalPanelUser>> {
        local_panel::user_by_token(self.conn()?, link_token).await
    }

    async fn local_panel_devices(&mut self, user_ref: &str) -> StoreResult<Vec<LocalPanelDevice>> {
        local_panel::devices(self.conn()?, user_ref).await
    }

    async fn local_panel_upsert_device(&mut self, device: &LocalPanelDevice) -> StoreResult<()> {
        local_panel::upsert_device(self.conn()?, device).await
    }

    async fn local_panel_delete_device(&mut self, user_ref: &str, hwid: &str) -> StoreResult<bool> {
        local_panel::delete_device(self.conn()?, user_ref, hwid).await
    }
}
