//! The store contract, written once and run against SQLite and PostgreSQL.
//!
//! SQLite: a fresh temporary file per test. PostgreSQL: a fresh schema per test in the
//! database at `VP_TEST_POSTGRES_URL`; `VP_TEST_POSTGRES=require|skip|auto` decides what a
//! missing server means (auto: skip).

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration as StdDuration, SystemTime, UNIX_EPOCH};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use vp_domain::limits::LimitOverrides;
use vp_domain::subscription::TermReminders;
use vp_domain::withdrawal::{Balance, WithdrawalStatus};
use vp_domain::{AccountId, ClientRef, PaymentId};
use vp_domain::{
    BrandName, ClientId, DeviceLimit, DeviceSettings, GatewayName, GatewayRoute, InvoiceStatus, MarkupPercent, Money,
    PriceBreakdown, Purpose, Rail, Subscription, SubscriptionStatus,
};
use vp_ports::balance::*;
use vp_ports::cabinet::CabinetUser;
use vp_ports::notice::*;
use vp_ports::records::*;
use vp_ports::webhook::*;
use vp_ports::{
    BotCreateCode, BotCustomer, BotDeviceList, BotStats, Claim, ClientChat, ClientLinkCode, Cursor, DailyLimit,
    DailyQuota, DeliveryBacklog, InvoiceOpening, InvoiceRecorded, InvoiceWrite, LocalPanelStore, PanelDevice,
    PartnerBotRecord, ReminderKind, ReminderSend, Store, StoreError, Tx,
};
use vp_store::{StoreOptions, connect, migrate, revert_all};

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

/// What a contract test gets: the store, and its URL for tests that migrate.
struct Ctx {
    store: Arc<dyn Store>,
    /// The same database as the local panel's store, with its own tables.
    local_panel: Arc<dyn LocalPanelStore>,
    url: String,
}

fn unique() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    format!("{}_{}_{}", std::process::id(), nanos, COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// Runs the test body on its own task so a failing assertion still lets the harness clean up.
async fn run_body<F, Fut>(test: F, ctx: Ctx) -> Result<(), tokio::task::JoinError>
where
    F: FnOnce(Ctx) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    tokio::spawn(test(ctx)).await
}

fn rethrow(result: Result<(), tokio::task::JoinError>) {
    if let Err(e) = result {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("test task failed: {e}"),
        }
    }
}

async fn run_sqlite<F, Fut>(test: F)
where
    F: FnOnce(Ctx) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = std::env::temp_dir().join(format!("vp-store-test-{}", unique()));
    let path = dir.join("db").join("vp.sqlite");
    let url = format!("sqlite://{}", path.display());
    let result = async {
        migrate(&url).await.expect("migrate sqlite");
        let store = connect(&url, &StoreOptions::default()).await.expect("connect sqlite");
        run_body(test, Ctx { store: store.clone(), local_panel: store, url: url.clone() }).await
    }
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    rethrow(result);
}

async fn run_postgres<F, Fut>(test: F)
where
    F: FnOnce(Ctx) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mode = std::env::var("VP_TEST_POSTGRES").unwrap_or_else(|_| "auto".into());
    let base =
        std::env::var("VP_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    if mode == "skip" {
        eprintln!("SKIPPED: VP_TEST_POSTGRES=skip");
        return;
    }
    let admin = tokio::time::timeout(StdDuration::from_secs(5), AsyncPgConnection::establish(&base)).await;
    let mut admin = match admin {
        Ok(Ok(conn)) => conn,
        Ok(Err(e)) if mode == "require" => panic!("PostgreSQL at {base} is required: {e}"),
        Err(_) if mode == "require" => panic!("PostgreSQL at {base} is required but did not answer"),
        _ => {
            eprintln!("SKIPPED: PostgreSQL at {base} does not answer");
            return;
        }
    };
    let schema = format!("t_{}", unique());
    admin.batch_execute(&format!("CREATE SCHEMA {schema}")).await.expect("create schema");
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-csearch_path%3D{schema}");
    let result = async {
        migrate(&url).await.expect("migrate postgres");
        let store = connect(&url, &StoreOptions::default()).await.expect("connect postgres");
        run_body(test, Ctx { store: store.clone(), local_panel: store, url: url.clone() }).await
    }
    .await;
    admin.batch_execute(&format!("DROP SCHEMA {schema} CASCADE")).await.expect("drop schema");
    rethrow(result);
}

/// Generates `sqlite::<name>` and `postgres::<name>` tests for each contract test of a module.
macro_rules! contract_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    crate::run_sqlite(super::$name).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    crate::run_postgres(super::$name).await;
                }
            )*
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

const T0: OffsetDateTime = datetime!(2026-11-23 10:00:00.123456 UTC);

fn at(seconds: i64) -> OffsetDateTime {
    T0 + Duration::seconds(seconds)
}

async fn begin(store: &Arc<dyn Store>) -> Box<dyn Tx> {
    store.begin().await.expect("begin")
}

fn account(id: &str) -> AccountRecord {
    AccountRecord {
        id: AccountId::issued(id.into()),
        brand_name: BrandName::parse("Fast VPN").unwrap(),
        markup: MarkupPercent::from_basis_points(1250).unwrap(),
        trial_enabled: true,
        api_enabled: true,
        limits: LimitOverrides {
            requests_per_minute: Some(1200),
            trials_per_day: Some(7),
            ..LimitOverrides::default()
        },
        style: vp_ports::AccountStyle {
            logo_url: Some("https://brand.example/logo.png".into()),
            accent_color: Some("#0b57d0".into()),
            support_url: None,
        },
        time_zone: vp_domain::TimeZone::parse("Asia/Yekaterinburg").unwrap(),
        created_at: T0,
    }
}

fn cid(text: &str) -> ClientId {
    ClientId::parse(text).unwrap()
}

/// A client's own record id, as the store hands it back.
fn cref(id: &str) -> ClientRef {
    ClientRef::issued(id.to_owned())
}

fn client(id: &str, account_id: &str, client_id: &str, created_at: OffsetDateTime) -> ClientRecord {
    ClientRecord {
        id: cref(id),
        account_id: AccountId::issued(account_id.into()),
        client_id: cid(client_id),
        created_at,
        blocked: false,
        subscription: None,
    }
}

fn subscription(status: SubscriptionStatus, token: &str) -> SubscriptionRecord {
    SubscriptionRecord {
        subscription: Subscription {
            status,
            is_trial: false,
            lifetime: false,
            expires_at: at(30 * 86_400),
            term_started_at: T0,
            devices: DeviceLimit::Limited { included: 2, purchased: 0 },
            reminders: TermReminders::default(),
            link_rotated_at: None,
            traffic: None,
        },
        link_token: token.into(),
        revision: 1,
        panel_revision: 1,
        auto_renew: false,
        panel_name: None,
    }
}

/// An account with one client (`c-1`, partner id `alice`) committed.
async fn seed(store: &Arc<dyn Store>, account_id: &str) {
    let mut tx = begin(store).await;
    tx.insert_account(&account(account_id)).await.unwrap();
    tx.insert_client(&client(&format!("{account_id}-c1"), account_id, "alice", T0)).await.unwrap();
    tx.commit().await.unwrap();
}

fn invoice(payment_id: &str, account_id: &str, client_ref: &str, purpose: Purpose) -> InvoiceRecord {
    InvoiceRecord {
        payment_id: PaymentId::issued(payment_id.into()),
        account_id: AccountId::issued(account_id.into()),
        client_ref: cref(client_ref),
        client_id: cid("alice"),
        status: InvoiceStatus::Pending,
        purpose,
        method: "card".into(),
        rail: Rail::Gateway(GatewayRoute { gateway: GatewayName::YooKassa, method: Some("bank_card".into()) }),
        amounts: PriceBreakdown {
            customer: Money::from_kopecks(112_500),
            platform: Money::from_kopecks(100_000),
            partner_share: Money::from_kopecks(12_500),
        },
        return_url: Some("https://partner.example/back".into()),
        payment_url: None,
        gateway_payment_id: None,
        created_at: T0,
        expires_at: at(1800),
        paid_at: None,
        receipt: None,
        promo: None,
    }
}

fn idem(account_id: &str, key: &str, point: RecoveryPoint, locked_until: Option<OffsetDateTime>) -> IdempotencyRecord {
    IdempotencyRecord {
        account_id: AccountId::issued(account_id.into()),
        key: key.into(),
        request_fingerprint: "client_id=alice;purpose=subscription;plan_id=1".into(),
        payment_id: PaymentId::issued(format!("pay-{key}")),
        recovery_point: point,
        locked_until,
        created_at: T0,
        gateway_request: Some(format!(r#"{{"description":"pinned for {key}"}}"#)),
    }
}

fn is_conflict<T: std::fmt::Debug>(result: &Result<T, StoreError>) -> bool {
    matches!(result, Err(StoreError::Conflict(_)))
}

/// How a write that returns nothing ended its unit: its own failure, or the commit's (a store
/// may send the write with the unit's next statement; `Tx::commit`).
async fn written_and_committed(tx: Box<dyn Tx>, written: Result<(), StoreError>) -> Result<(), StoreError> {
    match written {
        Ok(()) => tx.commit().await,
        Err(e) => {
            tx.rollback().await.expect("rollback");
            Err(e)
        }
    }
}

/// Starts waiting on `store` for deliveries, up to `max`; answers how long it waited.
fn waiting(store: Arc<dyn Store>, max: StdDuration) -> tokio::task::JoinHandle<StdDuration> {
    tokio::spawn(async move {
        let started = std::time::Instant::now();
        store.wait_for_deliveries(max).await;
        started.elapsed()
    })
}

/// `Tx::below_daily_limit` for a window starting at `since`.
async fn below(tx: &mut Box<dyn Tx>, account: &str, quota: DailyQuota, since: OffsetDateTime, limit: u32) -> bool {
    tx.below_daily_limit(account, &DailyLimit { quota, since, limit }).await.unwrap()
}

mod accounts;
mod bots;
mod clients;
mod events;
mod gifts;
mod invoice_work;
mod invoices;
mod ledger;
mod mail;
mod notices;
mod offer;
mod panel;
mod referrals;
mod reminders;
mod renewals;
mod sales;
mod settings;
mod shop;
mod stars;
mod units;
