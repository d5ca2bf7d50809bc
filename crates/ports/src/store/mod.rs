//! The storage port: a pool of units of work. Everything done through one `Tx` commits or
//! rolls back together, so a state change and the records that follow from it are atomic.
//! `Tx` itself only begins and ends; what it reads and writes is split by area into the
//! `*Repo` traits beside this file, which a use case imports for the areas it touches.

mod accounts;
mod balance;
mod bot_customers;
mod bots;
mod broadcasts;
mod cabinet;
mod clients;
mod customer_chats;
mod events;
mod gifts;
mod invoices;
mod mail;
mod notices;
mod offer;
mod operators;
mod panel_adoption;
mod promo;
mod read_ahead;
mod referrals;
mod reminders;
mod renewals;
mod sales;
mod settings;
mod shop;
mod stars;

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;

pub use accounts::AccountRepo;
pub use balance::BalanceRepo;
pub use bot_customers::BotCustomerRepo;
pub use bots::BotRepo;
pub use broadcasts::BroadcastRepo;
pub use cabinet::CabinetRepo;
pub use clients::ClientRepo;
pub use customer_chats::CustomerChatRepo;
pub use events::EventRepo;
pub use gifts::{GiftRecord, GiftRepo};
pub use invoices::InvoiceRepo;
pub use mail::MailRepo;
pub use notices::NoticeRepo;
pub use offer::OfferRepo;
pub use operators::OperatorRepo;
pub use panel_adoption::{AdoptedClient, ImportedBalance, PanelAdoption, PanelAdoptionRepo};
pub use promo::PromoRepo;
pub use read_ahead::ReadAhead;
pub use referrals::ReferralRepo;
pub use reminders::ReminderRepo;
pub use renewals::RenewalRepo;
pub use sales::{DailySales, EndedSubscription, SaleFacts, SalesRepo};
pub use settings::SettingsRepo;
pub use shop::{ShopCustomer, ShopRepo, ShopSession, ShopSignIn, ShopSubscription};
pub use stars::StarsRepo;

use crate::invoice_work::{InvoiceOpening, InvoiceRecorded, InvoiceWrite, OpenedInvoice};
use crate::records::{AccountRecord, ApiKeyRecord, InvoiceRecord};

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
    /// The backend does not do this; the message says what does.
    #[error("{0}")]
    Unsupported(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// What a worker claims: work due at `now`, at most `limit` items, each held for it until
/// `lease_until`, so no other worker of any process takes it meanwhile (and a worker that dies
/// leaves it to be taken again then).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    pub now: OffsetDateTime,
    pub lease_until: OffsetDateTime,
    pub limit: u32,
}

/// A database: hands out units of work.
#[async_trait]
pub trait Store: Send + Sync {
    /// Starts a unit of work that may write. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so two writers never deadlock on a lock upgrade.
    async fn begin(&self) -> StoreResult<Box<dyn Tx>>;
    /// Starts a unit of work that only reads and takes no write lock, so reads never queue
    /// behind writers. On SQLite a deferred transaction: one snapshot for all its reads. On
    /// PostgreSQL each statement runs on its own: READ COMMITTED gives each statement a
    /// snapshot of its own inside a transaction block too, so a block would only add two round
    /// trips. Writing through it is a bug.
    async fn read(&self) -> StoreResult<Box<dyn Tx>>;
    /// Starts a unit of work as `begin` does, whose commit does not wait for the disk: a crash
    /// of the database may lose it, together with every later commit of that kind, never
    /// without them (PostgreSQL's asynchronous commit; on SQLite as `begin`). Only for writes
    /// whose loss repeats work and breaks nothing: the panel sync's marks, whose loss pushes a
    /// client to the panel once more. On PostgreSQL its BEGIN waits for the unit's first
    /// statement, so a unit of one write that answers nothing is one round trip, as a single
    /// statement with no block is (the panel sync after every settlement is two such units).
    async fn begin_async_commit(&self) -> StoreResult<Box<dyn Tx>>;
    /// Starts a unit of work as `begin` does, takes `Tx::lock_client` for the invoice's client
    /// and reads the invoice under it: what a settlement starts with. On PostgreSQL the BEGIN,
    /// the two locks (each finding its row through the invoice) and the read go out pipelined,
    /// one round trip for all. No such invoice: `None`, and nothing is locked.
    async fn begin_with_invoice(&self, payment_id: &str) -> StoreResult<(Box<dyn Tx>, Option<InvoiceRecord>)>;
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
    /// Mail still to be sent (neither sent nor given up), read the same way: its `pending`,
    /// and when the longest-waiting message due now fell due.
    async fn mail_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog>;
    /// The connection pool's use now.
    fn pool_state(&self) -> crate::metrics::PoolState;
    /// Rewrites the tables that hold secrets, so values overwritten there (plain text sealed
    /// at a start) do not stay behind in freed space (on SQLite, nor in its write-ahead log).
    async fn scrub_overwritten(&self) -> StoreResult<()>;
    /// Writes a consistent copy of the database, as of one moment, to the new file `path`
    /// while the service goes on using it (SQLite). PostgreSQL has its own tools for this
    /// (`pg_dump`, base backups): it answers `Unsupported` with their names.
    async fn backup_to(&self, path: &str) -> StoreResult<()>;
    /// Frees every lease a process held (claimed deliveries, named leases such as the bot
    /// poller's), for a database restored from a backup: their holders are gone. Returns how
    /// many deliveries it freed. Only while no instance runs on the database.
    async fn release_leases(&self) -> StoreResult<u64>;
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

/// Deliveries (or mail) still to be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeliveryBacklog {
    /// Neither delivered nor given up.
    pub pending: u64,
    /// When the longest-waiting delivery that is due now fell due.
    pub oldest_due_at: Option<OffsetDateTime>,
}

/// One unit of work. Dropping it without `commit` rolls it back.
#[async_trait]
pub trait Tx:
    AccountRepo
    + OfferRepo
    + SettingsRepo
    + ClientRepo
    + InvoiceRepo
    + BalanceRepo
    + NoticeRepo
    + CabinetRepo
    + EventRepo
    + BotRepo
    + CustomerChatRepo
    + BotCustomerRepo
    + ReminderRepo
    + RenewalRepo
    + StarsRepo
    + MailRepo
    + ShopRepo
    + PromoRepo
    + ReferralRepo
    + BroadcastRepo
    + PanelAdoptionRepo
    + GiftRepo
    + SalesRepo
    + OperatorRepo
    + Send
{
    /// A write that returns nothing may be sent with the unit's next statement (PostgreSQL,
    /// inside a transaction block: one round trip for the writes and the COMMIT). Its failure
    /// then fails that next call or the commit, and nothing of the unit is kept either way.
    async fn commit(self: Box<Self>) -> StoreResult<()>;
    async fn rollback(self: Box<Self>) -> StoreResult<()>;
    /// Serialises writers of one account until this unit of work ends (PostgreSQL:
    /// `SELECT ... FOR UPDATE` on the account row; SQLite: already serialised by
    /// `BEGIN IMMEDIATE`, so nothing to do). Count-then-insert limits rely on it.
    async fn lock_account(&mut self, account_id: &str) -> StoreResult<()>;
    /// Serialises writers of one client of `account_id` until this unit of work ends, beside
    /// writers of the account's other clients, and after every `lock_account` holder
    /// (PostgreSQL: `FOR SHARE` on the account row, then `FOR UPDATE` on the client's; SQLite:
    /// nothing to do, as above). A payment's settlement needs no more, so one account's
    /// customers paying at once are not settled one at a time.
    async fn lock_client(&mut self, account_id: &str, client_ref: &str) -> StoreResult<()>;
    /// Makes the reads `ahead` names now, together where the backend can (PostgreSQL: one
    /// round trip); each then answers the unit's next call of that read once (see `ReadAhead`).
    /// A backend with nothing to gain (SQLite, in-process) reads nothing ahead.
    async fn read_ahead(&mut self, ahead: ReadAhead<'_>) -> StoreResult<()>;
}
