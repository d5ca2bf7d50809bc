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
    DailyQuota, DeliveryBacklog, InvoiceOpening, InvoiceRecorded, InvoiceWrite, LocalPanelStore, PartnerBotRecord,
    ReminderKind, ReminderSend, Store, StoreError, Tx,
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

/// Generates `sqlite::<name>` and `postgres::<name>` tests for each contract test.
macro_rules! contract_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::run_sqlite(super::$name).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    super::run_postgres(super::$name).await;
                }
            )*
        }
    };
}

contract_tests!(
    referrals_keep_one_code_per_client_one_invitation_per_person_and_count_rewards_not_taken_back,
    bot_customers_are_counted_from_their_start_and_device_lists_replace_each_other,
    migrations_go_up_down_and_up_again,
    accounts_and_api_keys_round_trip,
    client_ids_are_unique_per_account_and_case_sensitive,
    subscriptions_round_trip_every_field,
    clients_filter_by_subscription_and_page_in_order,
    clients_created_since_are_counted,
    daily_counts_leave_the_window_and_are_pruned,
    plans_get_increasing_ids_and_can_be_retired,
    device_settings_are_set_replaced_and_read,
    payment_methods_are_upserted_and_ordered,
    settings_are_put_and_read,
    mail_is_queued_claimed_by_one_worker_and_kept_as_sent,
    a_shop_slug_is_one_accounts_and_accounts_without_one_are_found,
    a_shop_customer_links_one_email_to_one_client_and_the_first_link_stands,
    a_newer_shop_sign_in_code_spends_the_older_and_sessions_are_kept_until_pruned,
    partner_bots_are_one_per_account_with_unique_bots_and_tokens,
    a_bot_create_code_is_its_first_openers_until_it_expires_or_is_deleted,
    a_bot_update_is_claimed_once_and_forgotten_when_old,
    a_lease_is_held_by_one_holder_until_it_runs_out_or_is_given_up,
    customers_link_a_chat_once_per_client_and_a_chat_holds_a_family,
    a_reminder_is_queued_once_per_kind_and_term_and_claimed_once,
    a_consent_is_kept_as_given_and_a_terms_renewal_charge_is_recorded_and_claimed_once,
    stars_rates_invoices_charges_and_subscriptions_round_trip,
    invoices_round_trip_and_stay_within_their_account,
    pending_invoices_due_are_oldest_first,
    invoices_pending_at_the_gateway_are_claimed_once_for_a_re_read,
    idempotency_keys_are_unique_per_account,
    unfinished_idempotency_keys_are_the_expired_locks,
    ledger_is_unique_per_invoice_and_kind_and_sums,
    withdrawal_steps_are_one_entry_each_and_the_balance_sums_both_columns,
    withdrawals_list_by_account_and_status_newest_first,
    notices_their_sends_and_linked_chats,
    trials_are_counted_and_one_per_client,
    panel_sync_queue_follows_revisions,
    a_refused_panel_push_is_counted_and_held_back_until_its_retry_time,
    local_panel_users_and_devices,
    commit_persists,
    rollback_leaves_no_trace,
    dropped_unit_of_work_leaves_no_trace,
    concurrent_writers_both_succeed,
    a_client_lock_waits_for_the_same_client_and_the_whole_account_and_not_for_another_client,
    a_unit_begun_with_an_invoice_reads_it_under_its_clients_lock,
    reads_made_ahead_answer_their_next_call_once_then_the_database_does,
    a_unit_committing_asynchronously_keeps_its_write_only_at_its_commit_and_wakes_the_dispatcher,
    a_store_serves_every_runtime_that_uses_it_even_after_one_on_the_same_thread_ended,
    writes_answering_nothing_are_read_back_by_their_unit_and_kept_only_whole_by_its_commit,
    the_daily_limit_guard_lets_one_of_two_racing_writers_take_the_last_place,
    webhook_endpoints_round_trip_every_field,
    events_and_deliveries_are_claimed_once_under_a_lease,
    claims_skip_busy_endpoints_and_give_back_and_batches_load_in_one_go,
    committed_deliveries_wake_a_waiting_dispatcher_and_a_rollback_does_not,
    a_delivery_per_event_and_endpoint_and_its_attempt_log,
    term_event_candidates_are_the_unreminded_and_the_ended,
    the_delivery_backlog_counts_pending_ones_and_dates_the_longest_waiting_due_one,
    the_pool_reports_its_size_and_use,
    opening_an_invoice_records_a_new_key_and_reads_the_client,
    opening_an_invoice_with_a_known_key_writes_nothing,
    recording_an_invoice_writes_the_client_the_invoice_and_the_finished_key_together,
    recording_an_invoice_for_a_client_created_meanwhile_or_twice_writes_nothing,
    recording_a_new_client_past_the_daily_limit_writes_nothing,
    racing_new_clients_never_pass_the_daily_limit,
    openings_of_one_key_at_once_record_it_once,
    new_clients_of_two_accounts_at_once_fill_each_accounts_places_exactly,
    new_clients_far_below_a_raised_limit_are_all_recorded_and_counted,
    invoices_recorded_at_once_keep_their_own_outcomes,
);

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
        id: id.into(),
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

fn client(id: &str, account_id: &str, client_id: &str, created_at: OffsetDateTime) -> ClientRecord {
    ClientRecord {
        id: id.into(),
        account_id: account_id.into(),
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
        },
        link_token: token.into(),
        revision: 1,
        panel_revision: 1,
        auto_renew: false,
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
        payment_id: payment_id.into(),
        account_id: account_id.into(),
        client_ref: client_ref.into(),
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
        account_id: account_id.into(),
        key: key.into(),
        request_fingerprint: "client_id=alice;purpose=subscription;plan_id=1".into(),
        payment_id: format!("pay-{key}"),
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

// ---------------------------------------------------------------------------------------------
// Contract tests
// ---------------------------------------------------------------------------------------------

async fn a_bot_update_is_claimed_once_and_forgotten_when_old(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_bot_update(111, 7, at(10)).await.unwrap());
    assert!(!tx.claim_bot_update(111, 7, at(11)).await.unwrap(), "a redelivery");
    assert!(tx.claim_bot_update(222, 7, at(11)).await.unwrap(), "numbered per bot");
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_bot_update(111, 8, at(12)).await.unwrap());
    tx.rollback().await.unwrap();
    // Two instances receive the same update at once: one handles it (the rolled-back claim
    // above did not count).
    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let claimed = tx.claim_bot_update(111, 8, at(13)).await.unwrap();
        tx.commit().await.unwrap();
        claimed
    };
    let (first, second) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    assert!(first ^ second, "exactly one: {first} / {second}");
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.prune_bot_updates(at(12)).await.unwrap(), 2);
    assert!(!tx.claim_bot_update(111, 8, at(20)).await.unwrap(), "the newer one is kept");
    tx.commit().await.unwrap();
}

async fn customers_link_a_chat_once_per_client_and_a_chat_holds_a_family(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    for id in ["c-mum", "c-dad"] {
        tx.insert_client(&client(id, "acc-1", &id[2..], at(0))).await.unwrap();
    }
    let code = ClientLinkCode { code_hash: "h-1".into(), client_ref: "c-mum".into(), expires_at: at(100) };
    tx.insert_client_link_code(&code).await.unwrap();
    tx.insert_client_link_code(&ClientLinkCode { code_hash: "h-old".into(), expires_at: at(5), ..code.clone() })
        .await
        .unwrap();
    assert_eq!(tx.take_client_link_code("h-1").await.unwrap(), Some(code));
    assert_eq!(tx.take_client_link_code("h-1").await.unwrap(), None, "a code works once");
    assert_eq!(tx.prune_client_link_codes(at(10)).await.unwrap(), 1);
    assert_eq!(tx.take_client_link_code("h-old").await.unwrap(), None);

    let linked = |client_ref: &str, chat_id: i64, s: i64| ClientChat {
        client_ref: client_ref.into(),
        account_id: "acc-1".into(),
        chat_id,
        linked_at: at(s),
    };
    tx.link_client_chat(&linked("c-mum", 77, 1)).await.unwrap();
    tx.link_client_chat(&linked("c-dad", 77, 2)).await.unwrap();
    let family: Vec<String> = tx.chat_clients("acc-1", 77).await.unwrap().into_iter().map(|c| c.client_ref).collect();
    assert_eq!(family, ["c-mum", "c-dad"], "oldest link first");
    tx.link_client_chat(&linked("c-dad", 78, 3)).await.unwrap();
    assert_eq!(tx.client_chat("c-dad").await.unwrap(), Some(linked("c-dad", 78, 3)), "a client is in one chat");
    let mut chats = tx.client_chats(&["c-dad".into(), "c-mum".into(), "c-none".into()]).await.unwrap();
    chats.sort_by(|a, b| a.client_ref.cmp(&b.client_ref));
    assert_eq!(chats, [linked("c-dad", 78, 3), linked("c-mum", 77, 1)], "the chats of several clients at once");
    assert_eq!(tx.chat_clients("acc-1", 77).await.unwrap().len(), 1);
    assert_eq!(tx.unlink_chat("acc-1", 77).await.unwrap(), 1);
    assert_eq!(tx.client_chat("c-mum").await.unwrap(), None);

    assert_eq!(tx.chat_language("acc-1", 77).await.unwrap(), None);
    tx.set_chat_language("acc-1", 77, vp_domain::Lang::Ru).await.unwrap();
    tx.set_chat_language("acc-1", 77, vp_domain::Lang::En).await.unwrap();
    assert_eq!(tx.chat_language("acc-1", 77).await.unwrap(), Some(vp_domain::Lang::En));
    tx.commit().await.unwrap();
}

async fn stars_rates_invoices_charges_and_subscriptions_round_trip(ctx: Ctx) {
    use vp_domain::stars::StarsRate;
    use vp_ports::{StarsCharge, StarsInvoice, StarsSubscription};
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_client(&client("c-1", "acc-1", "one", at(0))).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), None, "no rate, no Stars");
    let rate = StarsRate::parse("1.79").unwrap();
    tx.set_stars_rate("acc-1", Some(rate), at(1)).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), Some(rate));
    let changed = StarsRate::parse("2").unwrap();
    tx.set_stars_rate("acc-1", Some(changed), at(2)).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), Some(changed), "set again, replaced");
    tx.set_stars_rate("acc-1", None, at(3)).await.unwrap();
    assert_eq!(tx.stars_rate("acc-1").await.unwrap(), None, "off");

    let stars_invoice = StarsInvoice {
        payment_id: "pay_1".into(),
        account_id: "acc-1".into(),
        stars: 150,
        subscription: true,
        created_at: at(4),
    };
    tx.insert_stars_invoice(&stars_invoice).await.unwrap();
    tx.insert_stars_invoice(&StarsInvoice { stars: 999, ..stars_invoice.clone() }).await.unwrap();
    assert_eq!(tx.stars_invoice("pay_1").await.unwrap(), Some(stars_invoice), "the first record stays");
    tx.insert_invoice(&invoice("pay_1", "acc-1", "c-1", Purpose::Subscription { plan_id: 1 })).await.unwrap();

    let charge = StarsCharge {
        charge_id: "stx1".into(),
        account_id: "acc-1".into(),
        payment_id: "pay_1".into(),
        user_id: 42,
        stars: 150,
        renewal: false,
        paid_at: at(5),
        refunded_at: None,
    };
    tx.insert_stars_charge(&charge).await.unwrap();
    assert_eq!(tx.stars_charge("stx1").await.unwrap(), Some(charge.clone()));
    assert_eq!(tx.stars_charge_of_invoice("pay_1").await.unwrap(), Some(charge.clone()));
    let refunded = StarsCharge { refunded_at: Some(at(6)), ..charge };
    tx.update_stars_charge(&refunded).await.unwrap();
    assert_eq!(tx.stars_charge("stx1").await.unwrap(), Some(refunded));

    let subscription = StarsSubscription {
        charge_id: "stx1".into(),
        account_id: "acc-1".into(),
        client_ref: "c-1".into(),
        payment_id: "pay_1".into(),
        user_id: 42,
        stars: 150,
        paid_until: at(30),
        canceled_at: None,
    };
    tx.insert_stars_subscription(&subscription).await.unwrap();
    assert_eq!(tx.stars_subscription_of_client("c-1").await.unwrap(), Some(subscription.clone()));
    let canceled = StarsSubscription { paid_until: at(60), canceled_at: Some(at(40)), ..subscription };
    tx.update_stars_subscription(&canceled).await.unwrap();
    assert_eq!(tx.stars_subscription("stx1").await.unwrap(), Some(canceled));
    assert_eq!(tx.stars_subscription_of_client("c-2").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn a_consent_is_kept_as_given_and_a_terms_renewal_charge_is_recorded_and_claimed_once(ctx: Ctx) {
    use vp_ports::{RenewalCharge, RenewalChargeState, RenewalConsent};
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_client(&client("c-1", "acc-1", "one", at(0))).await.unwrap();
    let bought = invoice("pay_1", "acc-1", "c-1", Purpose::Subscription { plan_id: 1 });
    tx.insert_invoice(&bought).await.unwrap();
    let consent = RenewalConsent {
        id: "ren-1".into(),
        account_id: "acc-1".into(),
        client_ref: "c-1".into(),
        payment_id: "pay_1".into(),
        plan_id: 1,
        method: "card".into(),
        consented_at: at(5),
        text: "Продлевать автоматически: 299,00 ₽".into(),
        lang: vp_domain::Lang::Ru,
        price: bought.amounts,
        price_told_at: at(5),
        saved_method_sealed: None,
        saved_method_title: None,
        turned_off_at: None,
        turned_off_by: None,
    };
    tx.insert_consent(&consent).await.unwrap();
    assert_eq!(tx.current_consent("c-1").await.unwrap(), None, "not in effect before its method is saved");
    assert_eq!(tx.consent_of_invoice("pay_1").await.unwrap(), Some(consent.clone()));
    assert_eq!(tx.consent("ren-1").await.unwrap(), Some(consent.clone()));
    assert_eq!(tx.consent("ren-2").await.unwrap(), None);
    assert!(!consent.chargeable(), "nothing to charge before a method is saved");
    let saved = RenewalConsent {
        saved_method_sealed: Some("v1.0a1b2c3d.sealed".into()),
        saved_method_title: Some("Bank card *4444".into()),
        ..consent.clone()
    };
    tx.update_consent(&saved).await.unwrap();
    assert_eq!(tx.current_consent("c-1").await.unwrap(), Some(saved.clone()));
    assert!(saved.chargeable());
    let outside = |prefixes: &[&str]| prefixes.iter().map(|p| (*p).to_owned()).collect::<Vec<String>>();
    assert!(tx.consents_sealed_outside(&outside(&["v1.0a1b2c3d."]), 10).await.unwrap().is_empty());
    assert!(tx.consents_sealed_outside(&outside(&["v1.ffffffff.", "v1.0a1b2c3d."]), 10).await.unwrap().is_empty());
    assert_eq!(tx.consents_sealed_outside(&outside(&["v1.ffffffff."]), 10).await.unwrap(), vec![saved.clone()]);
    assert_eq!(tx.consents_sealed_outside(&outside(&["v1.%"]), 10).await.unwrap().len(), 1, "a prefix is literal");

    let charge = RenewalCharge {
        client_ref: "c-1".into(),
        term_ends_at: at(1000),
        account_id: "acc-1".into(),
        consent_id: "ren-1".into(),
        attempt: 1,
        payment_id: "pay_r1".into(),
        state: RenewalChargeState::Due,
        next_try_at: Some(at(10)),
        last_error: None,
        created_at: at(10),
    };
    assert!(tx.insert_renewal_charge(&charge).await.unwrap());
    let again = RenewalCharge { payment_id: "pay_r2".into(), ..charge.clone() };
    assert!(!tx.insert_renewal_charge(&again).await.unwrap(), "one charge per client and term");
    let next_term = RenewalCharge { term_ends_at: at(2000), next_try_at: Some(at(500)), ..charge.clone() };
    assert!(tx.insert_renewal_charge(&next_term).await.unwrap(), "a new term has its own");
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let got = tx.claim_renewal_charges(Claim { now: at(30), lease_until: at(150), limit: 10 }).await.unwrap();
        tx.commit().await.unwrap();
        got
    };
    let (a, b) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    let claimed = [a, b].concat();
    assert_eq!(claimed.len(), 1, "claimed by exactly one: {claimed:?}");
    assert_eq!(claimed[0], RenewalCharge { next_try_at: Some(at(150)), ..charge.clone() }, "held for the lease");
    let mut tx = begin(&ctx.store).await;
    assert!(
        tx.claim_renewal_charges(Claim { now: at(149), lease_until: at(300), limit: 10 }).await.unwrap().is_empty()
    );
    let done = RenewalCharge { state: RenewalChargeState::Succeeded, next_try_at: None, ..charge.clone() };
    tx.update_renewal_charge(&done).await.unwrap();
    assert_eq!(tx.renewal_charges_of_client("c-1").await.unwrap(), vec![next_term, done], "newest term first");
    let off = RenewalConsent { turned_off_at: Some(at(40)), turned_off_by: Some("customer".into()), ..saved };
    tx.update_consent(&off).await.unwrap();
    assert!(!tx.current_consent("c-1").await.unwrap().unwrap().chargeable());
    tx.commit().await.unwrap();
}

async fn a_reminder_is_queued_once_per_kind_and_term_and_claimed_once(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_client(&client("c-1", "acc-1", "one", at(0))).await.unwrap();
    let reminder = ReminderSend {
        id: "rmd-1".into(),
        account_id: "acc-1".into(),
        client_ref: "c-1".into(),
        chat_id: 77,
        kind: ReminderKind::Expiring(vp_domain::term_events::Threshold::Hours72),
        term_ends_at: at(1000),
        payment_id: None,
        created_at: at(10),
        attempts: 0,
        next_attempt_at: Some(at(10)),
        sent_at: None,
        last_error: None,
    };
    assert!(tx.insert_reminder(&reminder).await.unwrap());
    assert!(
        !tx.insert_reminder(&ReminderSend { id: "rmd-2".into(), ..reminder.clone() }).await.unwrap(),
        "once per term"
    );
    let renewed =
        ReminderSend { id: "rmd-3".into(), term_ends_at: at(2000), next_attempt_at: Some(at(20)), ..reminder.clone() };
    assert!(tx.insert_reminder(&renewed).await.unwrap(), "a new term counts again");
    let template = reminder.clone();
    let paid = move |id: &str, payment: &str| ReminderSend {
        id: id.into(),
        kind: ReminderKind::Paid,
        payment_id: Some(payment.into()),
        next_attempt_at: None,
        ..template.clone()
    };
    assert!(tx.insert_reminder(&paid("rmd-p1", "pay_1")).await.unwrap());
    assert!(tx.insert_reminder(&paid("rmd-p2", "pay_2")).await.unwrap(), "once per invoice, not per term");
    assert!(!tx.insert_reminder(&paid("rmd-p3", "pay_1")).await.unwrap());
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let got = tx.claim_reminders("acc-1", Claim { now: at(30), lease_until: at(150), limit: 10 }).await.unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|r| r.id).collect::<Vec<_>>()
    };
    let (a, b) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    let mut all = [a.clone(), b.clone()].concat();
    all.sort();
    assert_eq!(all, ["rmd-1", "rmd-3"], "each claimed by exactly one: {a:?} / {b:?}");
    let mut tx = begin(&ctx.store).await;
    assert!(
        tx.claim_reminders("acc-1", Claim { now: at(149), lease_until: at(300), limit: 10 }).await.unwrap().is_empty(),
        "held until the lease ends"
    );
    assert!(tx.accounts_with_due_reminders(at(149), 10).await.unwrap().is_empty());
    assert_eq!(tx.accounts_with_due_reminders(at(150), 10).await.unwrap(), ["acc-1"]);
    assert!(
        tx.claim_reminders("acc-2", Claim { now: at(150), lease_until: at(300), limit: 10 }).await.unwrap().is_empty(),
        "by account"
    );
    let mut sent = ReminderSend { attempts: 1, next_attempt_at: None, sent_at: Some(at(40)), ..reminder };
    tx.update_reminder(&sent).await.unwrap();
    assert!(
        tx.claim_reminders("acc-1", Claim { now: at(150), lease_until: at(300), limit: 10 })
            .await
            .unwrap()
            .iter()
            .all(|r| r.id == "rmd-3")
    );
    sent.last_error = Some("x".into());
    tx.update_reminder(&sent).await.unwrap();
    let of_client = tx.reminders_of_client("c-1").await.unwrap();
    assert_eq!(of_client[0], sent);
    assert!(of_client.contains(&paid("rmd-p2", "pay_2")), "a paid message keeps its invoice");

    let unlinked = tx.reminder_recipient(&sent).await.unwrap().unwrap();
    assert_eq!((unlinked.client.id.as_str(), unlinked.linked_chat, unlinked.language), ("c-1", None, None));
    let chat = ClientChat { client_ref: "c-1".into(), account_id: "acc-1".into(), chat_id: 78, linked_at: at(1) };
    tx.link_client_chat(&chat).await.unwrap();
    tx.set_chat_language("acc-1", 77, vp_domain::Lang::Ru).await.unwrap();
    let moved = tx.reminder_recipient(&sent).await.unwrap().unwrap();
    assert_eq!(
        (moved.linked_chat, moved.language),
        (Some(78), Some(vp_domain::Lang::Ru)),
        "the chat now, the reminder's chat's language"
    );
    let gone = ReminderSend { client_ref: "c-gone".into(), ..sent.clone() };
    assert_eq!(tx.reminder_recipient(&gone).await.unwrap(), None);

    assert_eq!(tx.renewal_url("acc-1").await.unwrap(), None);
    tx.set_renewal_url("acc-1", Some("https://renew.example")).await.unwrap();
    assert_eq!(tx.renewal_url("acc-1").await.unwrap().as_deref(), Some("https://renew.example"));
    assert_eq!(tx.account("acc-1").await.unwrap(), Some(account("acc-1")), "the account itself is unchanged");
    tx.commit().await.unwrap();
}

async fn bot_customers_are_counted_from_their_start_and_device_lists_replace_each_other(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_account(&account("acc-2")).await.unwrap();
    assert!(tx.touch_bot_customer("acc-1", 501, 501, at(10)).await.unwrap(), "the first touch is the start");
    assert!(!tx.touch_bot_customer("acc-1", 501, 501, at(20)).await.unwrap());
    assert!(tx.touch_bot_customer("acc-1", 502, 502, at(30)).await.unwrap());
    assert!(tx.touch_bot_customer("acc-2", 501, 501, at(30)).await.unwrap(), "by account");
    let seen = tx.bot_customers("acc-1", &[501, 999]).await.unwrap();
    let started = BotCustomer {
        account_id: "acc-1".into(),
        user_id: 501,
        chat_id: 501,
        started_at: at(10),
        last_seen_at: at(20),
        client_ref: None,
        receipt_email: None,
        promo_code: None,
        promo_asked_at: None,
    };
    assert_eq!(seen, std::slice::from_ref(&started));
    tx.set_bot_customer_promo("acc-1", 501, Some("SPRING"), Some(at(21))).await.unwrap();
    let with_promo = tx.bot_customers("acc-1", &[501]).await.unwrap();
    assert_eq!((with_promo[0].promo_code.as_deref(), with_promo[0].promo_asked_at), (Some("SPRING"), Some(at(21))));
    tx.set_bot_customer_promo("acc-1", 501, None, None).await.unwrap();
    assert_eq!(tx.bot_customers("acc-1", &[501]).await.unwrap(), std::slice::from_ref(&started), "cleared");
    // 501 paid twice since its start, 502 never; a partner's own clients do not count, even one
    // whose id looks like a bot customer's: only the link makes one.
    tx.insert_client(&client("c-501", "acc-1", "telegram:501", at(11))).await.unwrap();
    tx.insert_client(&client("c-own", "acc-1", "alice", at(11))).await.unwrap();
    tx.insert_client(&client("c-lookalike", "acc-1", "telegram:502", at(11))).await.unwrap();
    tx.link_bot_customer("acc-1", 501, "c-501").await.unwrap();
    tx.link_bot_customer("acc-1", 501, "c-own").await.unwrap();
    let linked = BotCustomer { client_ref: Some("c-501".into()), ..started };
    assert_eq!(tx.bot_customers("acc-1", &[501]).await.unwrap(), std::slice::from_ref(&linked), "the first link stays");
    assert_eq!(tx.bot_customer_of_client("c-501").await.unwrap(), Some(linked));
    assert_eq!(tx.bot_customer_of_client("c-lookalike").await.unwrap(), None);
    tx.set_bot_customer_email("acc-1", 501, "buyer@example.com").await.unwrap();
    let with_email = tx.bot_customers("acc-1", &[501]).await.unwrap().remove(0);
    assert_eq!(with_email.receipt_email.as_deref(), Some("buyer@example.com"));
    assert_eq!(tx.bot_customers("acc-2", &[501]).await.unwrap()[0].receipt_email, None, "by account");
    let among = ["telegram:501".to_owned(), "telegram:502".to_owned(), "alice".to_owned()];
    assert_eq!(tx.bot_customers_among("acc-1", &among).await.unwrap(), ["telegram:501"]);
    assert!(tx.bot_customers_among("acc-2", &among).await.unwrap().is_empty(), "by account");
    for (id, client_ref) in [("pay_1", "c-501"), ("pay_2", "c-501"), ("pay_3", "c-own"), ("pay_4", "c-lookalike")] {
        let mut paid = invoice(id, "acc-1", client_ref, Purpose::Subscription { plan_id: 1 });
        paid.status = InvoiceStatus::Succeeded;
        paid.paid_at = Some(at(40));
        tx.insert_invoice(&paid).await.unwrap();
    }
    tx.link_client_chat(&ClientChat {
        client_ref: "c-501".into(),
        account_id: "acc-1".into(),
        chat_id: 501,
        linked_at: at(12),
    })
    .await
    .unwrap();
    let stats = tx.bot_stats("acc-1", at(0)).await.unwrap();
    assert_eq!(stats, BotStats { started: 2, linked: 1, purchases: 2, started_and_paid: 1 });
    let later = tx.bot_stats("acc-1", at(25)).await.unwrap();
    assert_eq!((later.started, later.purchases, later.started_and_paid), (1, 2, 0), "only what happened since");

    assert_eq!(tx.device_list("acc-1", 501).await.unwrap(), None);
    let list = BotDeviceList {
        account_id: "acc-1".into(),
        chat_id: 501,
        nonce: "n1".into(),
        device_ids: vec!["hw-1".into(), "hw:2".into()],
        listed_at: at(50),
    };
    tx.save_device_list(&list).await.unwrap();
    let newer = BotDeviceList { nonce: "n2".into(), device_ids: vec![], listed_at: at(60), ..list.clone() };
    tx.save_device_list(&newer).await.unwrap();
    assert_eq!(tx.device_list("acc-1", 501).await.unwrap(), Some(newer), "a chat has one current list");
    tx.commit().await.unwrap();
}

async fn a_lease_is_held_by_one_holder_until_it_runs_out_or_is_given_up(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    assert!(tx.take_lease("poll", "a", at(0), at(15)).await.unwrap());
    assert!(!tx.take_lease("poll", "b", at(5), at(20)).await.unwrap());
    assert!(tx.take_lease("poll", "a", at(10), at(25)).await.unwrap(), "renewed by its holder");
    assert!(!tx.take_lease("poll", "b", at(24), at(39)).await.unwrap());
    assert!(tx.take_lease("other", "b", at(24), at(39)).await.unwrap(), "leases are by name");
    assert!(tx.take_lease("poll", "b", at(25), at(40)).await.unwrap(), "run out: taken over");
    assert!(!tx.take_lease("poll", "a", at(26), at(41)).await.unwrap());
    tx.release_lease("poll", "a").await.unwrap();
    assert!(!tx.take_lease("poll", "a", at(27), at(42)).await.unwrap(), "only the holder gives it up");
    tx.release_lease("poll", "b").await.unwrap();
    assert!(tx.take_lease("poll", "a", at(28), at(43)).await.unwrap());
    tx.commit().await.unwrap();
}

async fn a_bot_create_code_is_its_first_openers_until_it_expires_or_is_deleted(ctx: Ctx) {
    let code = |hash: &str, expires: i64| BotCreateCode {
        code_hash: hash.into(),
        account_id: "acc-1".into(),
        request_id: 7,
        requested_by_user: None,
        requested_by: "operator".into(),
        lang: vp_domain::Lang::Ru,
        expires_at: at(expires),
        opened_by: None,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_bot_create_code(&code("older", 50)).await.unwrap();
    tx.insert_bot_create_code(&code("newer", 60)).await.unwrap();
    assert_eq!(tx.bot_create_code("newer").await.unwrap(), Some(code("newer", 60)));
    assert_eq!(tx.bot_create_code_opened_by(42, at(10)).await.unwrap(), None, "opened by nobody yet");
    tx.open_bot_create_code("older", 42).await.unwrap();
    tx.open_bot_create_code("newer", 42).await.unwrap();
    tx.open_bot_create_code("newer", 43).await.unwrap();
    assert_eq!(tx.bot_create_code("newer").await.unwrap().unwrap().opened_by, Some(42), "the first opener's");
    assert_eq!(tx.bot_create_code_opened_by(43, at(10)).await.unwrap(), None);
    let newest = tx.bot_create_code_opened_by(42, at(10)).await.unwrap().unwrap();
    assert_eq!((newest.code_hash.as_str(), newest.lang, newest.request_id), ("newer", vp_domain::Lang::Ru, 7));
    assert_eq!(tx.bot_create_code_opened_by(42, at(55)).await.unwrap().unwrap().code_hash, "newer");
    assert_eq!(tx.bot_create_code_opened_by(42, at(60)).await.unwrap(), None, "expired");
    assert!(tx.delete_bot_create_code("newer").await.unwrap());
    assert!(!tx.delete_bot_create_code("newer").await.unwrap(), "used once");
    assert_eq!(tx.bot_create_code_opened_by(42, at(10)).await.unwrap().unwrap().code_hash, "older");
    assert_eq!(tx.prune_bot_create_codes(at(51)).await.unwrap(), 1);
    assert_eq!(tx.bot_create_code("older").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn partner_bots_are_one_per_account_with_unique_bots_and_tokens(ctx: Ctx) {
    let bot = |account: &str, bot_id: i64, hash: &str| PartnerBotRecord {
        account_id: account.into(),
        bot_id,
        username: format!("bot{bot_id}"),
        token_hash: hash.into(),
        token_sealed: format!("v1.00000000.sealed-{hash}"),
        connected_at: at(10),
        disconnected_at: None,
        profile_revision: 1,
        profile_synced: 0,
        profile_attempts: 0,
        profile_retry_at: None,
        profile_error: None,
        webhook: None,
        managed: bot_id == 111,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.insert_account(&account("acc-2")).await.unwrap();
    tx.insert_partner_bot(&bot("acc-1", 111, "hash-a")).await.unwrap();
    assert!(tx.partner_bot("acc-1").await.unwrap().unwrap().managed, "kept as the platform's bot created it");
    tx.commit().await.unwrap();

    for (clash, what) in
        [(bot("acc-2", 111, "hash-b"), "the same bot"), (bot("acc-2", 222, "hash-a"), "the same token")]
    {
        let mut tx = begin(&ctx.store).await;
        assert!(is_conflict(&tx.insert_partner_bot(&clash).await), "{what} on another account");
        tx.rollback().await.unwrap();
    }
    let mut tx = begin(&ctx.store).await;
    assert!(is_conflict(&tx.insert_partner_bot(&bot("acc-1", 333, "hash-c")).await), "one bot per account");
    tx.rollback().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.partner_bot_by_token("hash-a", 0).await.unwrap().map(|b| b.account_id), Some("acc-1".into()));
    assert_eq!(tx.partner_bot_by_token("other", 111).await.unwrap().map(|b| b.bot_id), Some(111));
    assert_eq!(tx.partner_bot_by_token("other", 0).await.unwrap(), None);
    tx.commit().await.unwrap();
    // A profile sync owed: claimed by one of two claimers at once (held for the lease),
    // deferred, then marked synced.
    let claim = |store: Arc<dyn Store>| async move {
        let mut tx = store.begin().await.unwrap();
        let got = tx.claim_bot_profiles(at(10), at(70), 10).await.unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|b| b.account_id).collect::<Vec<_>>()
    };
    let (a, b) = tokio::join!(claim(ctx.store.clone()), claim(ctx.store.clone()));
    assert_eq!([a.clone(), b.clone()].concat(), ["acc-1"], "claimed by exactly one: {a:?} / {b:?}");
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_bot_profiles(at(11), at(71), 10).await.unwrap().is_empty(), "held until the lease ends");
    tx.defer_bot_profile("acc-1", at(100), "Telegram did not answer").await.unwrap();
    let deferred = tx.partner_bot("acc-1").await.unwrap().unwrap();
    assert_eq!((deferred.profile_attempts, deferred.profile_retry_at), (1, Some(at(100))));
    assert!(tx.claim_bot_profiles(at(99), at(159), 10).await.unwrap().is_empty());
    assert_eq!(tx.claim_bot_profiles(at(100), at(160), 10).await.unwrap().len(), 1);
    assert!(tx.bump_bot_profile("acc-1").await.unwrap(), "the brand changed meanwhile");
    tx.mark_bot_profile_synced("acc-1", 1).await.unwrap();
    let behind = tx.partner_bot("acc-1").await.unwrap().unwrap();
    assert_eq!((behind.profile_revision, behind.profile_synced, behind.profile_in_sync()), (2, 1, false));
    assert_eq!((behind.profile_attempts, behind.profile_error), (0, None));
    tx.mark_bot_profile_synced("acc-1", 2).await.unwrap();
    tx.mark_bot_profile_synced("acc-1", 1).await.unwrap();
    assert!(tx.partner_bot("acc-1").await.unwrap().unwrap().profile_in_sync(), "never lowered");
    assert!(!tx.bump_bot_profile("acc-2").await.unwrap(), "no bot, nothing to show");

    let hook = vp_ports::WebhookRegistration::Webhook {
        url: "https://vpn.example/telegram/111/updates".into(),
        key_id: "0a1b2c3d".into(),
        kinds: vp_ports::bots::UPDATE_KINDS,
    };
    tx.set_partner_bot_webhook("acc-1", Some(&hook)).await.unwrap();
    let hooked = tx.partner_bot_by_id(111).await.unwrap().unwrap();
    assert_eq!((hooked.account_id.as_str(), hooked.webhook.as_ref()), ("acc-1", Some(&hook)));
    assert_eq!(tx.partner_bot_by_id(222).await.unwrap(), None);
    let mut revoked = tx.partner_bot("acc-1").await.unwrap().unwrap();
    revoked.disconnected_at = Some(at(20));
    tx.update_partner_bot(&revoked).await.unwrap();
    assert_eq!(tx.partner_bot("acc-1").await.unwrap(), Some(revoked.clone()));
    assert_eq!(tx.partner_bots().await.unwrap(), vec![revoked]);
    assert!(tx.delete_partner_bot("acc-1").await.unwrap());
    assert!(!tx.delete_partner_bot("acc-1").await.unwrap());
    assert_eq!(tx.partner_bot("acc-1").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn migrations_go_up_down_and_up_again(ctx: Ctx) {
    assert_eq!(migrate(&ctx.url).await.unwrap(), Vec::<String>::new(), "a second migrate is a no-op");
    revert_all(&ctx.url).await.unwrap();
    {
        let mut tx = begin(&ctx.store).await;
        assert!(tx.accounts().await.is_err(), "tables are gone after revert_all");
        tx.rollback().await.unwrap();
    }
    assert_eq!(
        migrate(&ctx.url).await.unwrap(),
        [
            "20261123000001",
            "20261123000002",
            "20261123000003",
            "20261123000004",
            "20261123000005",
            "20261123000006",
            "20261123000007",
            "20261123000008",
            "20261125000009",
            "20261125000010",
            "20261125000011",
            "20261125000012",
            "20261125000013",
            "20261125000014",
            "20261125000015",
            "20261125000016",
            "20261125000017",
            "20261126000018",
            "20261126000019",
            "20261126000020",
            "20261126000021",
            "20261126000022",
            "20261127000023",
            "20261127000024",
            "20261127000025",
            "20261127000026",
            "20261127000027",
            "20261127000028",
            "20261127000029",
            "20261127000030",
            "20261127000031",
            "20261127000032",
            "20261127000033",
            "20261127000034",
            "20261127000035",
            "20261127000036",
            "20261127000037",
            "20261128000038",
            "20261128000039",
            "20261128000040",
            "20261128000041",
            "20261128000042",
            "20261128000043",
            "20261129000044",
            "20261129000045",
        ]
    );
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-1")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.account("acc-1").await.unwrap(), Some(account("acc-1")));
    tx.rollback().await.unwrap();
}

async fn accounts_and_api_keys_round_trip(ctx: Ctx) {
    let s = &ctx.store;
    let mut tx = begin(s).await;
    let mut a = account("acc-a");
    let mut b = account("acc-b");
    b.created_at = at(-10);
    b.limits = LimitOverrides::default();
    tx.insert_account(&a).await.unwrap();
    tx.insert_account(&b).await.unwrap();
    tx.lock_account("acc-a").await.unwrap();
    tx.lock_account("missing").await.unwrap();
    assert_eq!(tx.account("acc-a").await.unwrap(), Some(a.clone()));
    assert_eq!(tx.account("missing").await.unwrap(), None);
    assert_eq!(tx.accounts().await.unwrap(), vec![b.clone(), a.clone()], "ordered by created_at");

    a.brand_name = BrandName::parse("Other Brand").unwrap();
    a.markup = MarkupPercent::from_basis_points(0).unwrap();
    a.trial_enabled = false;
    a.api_enabled = false;
    a.limits =
        LimitOverrides { payments_per_minute: Some(5), new_clients_per_day: Some(9), ..LimitOverrides::default() };
    a.style = vp_ports::AccountStyle {
        logo_url: None,
        accent_color: Some("#7a1fa2".into()),
        support_url: Some("https://t.me/brand_support".into()),
    };
    tx.update_account(&a).await.unwrap();
    assert_eq!(tx.account("acc-a").await.unwrap(), Some(a.clone()));

    let key = |id: &str, hash: &str, created: i64| ApiKeyRecord {
        id: id.into(),
        account_id: "acc-a".into(),
        key_hash: hash.into(),
        prefix: "vp_live_ab".into(),
        created_at: at(created),
        revoked_at: None,
    };
    tx.insert_api_key(&key("k2", "hash-2", 5)).await.unwrap();
    tx.insert_api_key(&key("k1", "hash-1", 1)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.api_key("k1").await.unwrap(), Some(key("k1", "hash-1", 1)));
    assert_eq!(tx.api_keys("acc-a").await.unwrap(), vec![key("k1", "hash-1", 1), key("k2", "hash-2", 5)]);
    assert_eq!(tx.api_keys("acc-b").await.unwrap(), vec![]);
    assert!(tx.revoke_api_key("k1", at(100)).await.unwrap());
    assert!(!tx.revoke_api_key("k1", at(200)).await.unwrap(), "already revoked");
    assert!(!tx.revoke_api_key("missing", at(200)).await.unwrap());
    let revoked = tx.api_key("k1").await.unwrap().unwrap();
    assert_eq!(revoked.revoked_at, Some(at(100)), "the first revocation time stays");
    tx.commit().await.unwrap();

    // Lookup by hash (the only one authentication uses) outside a unit of work: key and
    // account in one statement.
    let (k, acc) = s.account_by_key_hash("hash-2").await.unwrap().expect("key found");
    assert_eq!((k, acc), (key("k2", "hash-2", 5), a.clone()));
    let (k, _) = s.account_by_key_hash("hash-1").await.unwrap().expect("revoked keys are still found");
    assert_eq!(k.revoked_at, Some(at(100)));
    assert_eq!(s.account_by_key_hash("nope").await.unwrap(), None);

    let mut tx = begin(s).await;
    let mut dup = key("k3", "hash-2", 9);
    dup.account_id = "acc-b".into();
    assert!(is_conflict(&tx.insert_api_key(&dup).await), "key hashes are unique");
    tx.rollback().await.unwrap();
}

async fn client_ids_are_unique_per_account_and_case_sensitive(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await; // acc-b also has "alice"

    let mut tx = begin(s).await;
    let dup = tx.insert_client(&client("c-dup", "acc-a", "alice", at(1))).await;
    assert!(is_conflict(&dup), "{dup:?}");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    tx.insert_client(&client("c-upper", "acc-a", "Alice", at(2))).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let lower = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap();
    let upper = tx.client("acc-a", &cid("Alice")).await.unwrap().unwrap();
    let other = tx.client("acc-b", &cid("alice")).await.unwrap().unwrap();
    assert_eq!((lower.id.as_str(), upper.id.as_str(), other.id.as_str()), ("acc-a-c1", "c-upper", "acc-b-c1"));
    assert_eq!(lower, client("acc-a-c1", "acc-a", "alice", T0));
    assert_eq!(tx.client("acc-b", &cid("Alice")).await.unwrap(), None);
    assert_eq!(tx.client_by_ref("c-upper").await.unwrap(), Some(upper));
    tx.set_client_blocked("c-upper", true).await.unwrap();
    assert!(tx.client_by_ref("c-upper").await.unwrap().unwrap().blocked);
    tx.commit().await.unwrap();
}

async fn subscriptions_round_trip_every_field(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let full = SubscriptionRecord {
        subscription: Subscription {
            status: SubscriptionStatus::Suspended,
            is_trial: true,
            lifetime: false,
            expires_at: datetime!(2027-01-31 23:59:59.999999 UTC),
            term_started_at: datetime!(2026-12-31 00:00:00.000001 UTC),
            devices: DeviceLimit::Limited { included: 3, purchased: 4 },
            reminders: TermReminders { sent_72: true, sent_24: false },
            link_rotated_at: Some(at(77)),
        },
        link_token: "tok-1".into(),
        revision: 7,
        panel_revision: 5,
        auto_renew: true,
    };
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &full).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let loaded = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap();
    assert_eq!(loaded.subscription, Some(full.clone()));
    assert_eq!(tx.client_by_link_token("tok-1").await.unwrap(), Some(loaded));
    // Saving the term leaves automatic renewal as stored; only its own write changes it.
    tx.save_subscription("acc-a-c1", &SubscriptionRecord { auto_renew: false, revision: 8, ..full.clone() })
        .await
        .unwrap();
    let kept = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap().subscription.unwrap();
    assert!(kept.auto_renew);
    tx.set_auto_renew("acc-a-c1", false).await.unwrap();
    let off = tx.client("acc-a", &cid("alice")).await.unwrap().unwrap().subscription.unwrap();
    assert_eq!(off, SubscriptionRecord { auto_renew: false, revision: 8, ..full.clone() });

    let lifetime = SubscriptionRecord {
        subscription: Subscription {
            status: SubscriptionStatus::Active,
            is_trial: false,
            lifetime: true,
            expires_at: vp_domain::subscription::LIFETIME_END,
            term_started_at: at(5),
            devices: DeviceLimit::Unlimited,
            reminders: TermReminders { sent_72: false, sent_24: true },
            link_rotated_at: None,
        },
        link_token: "tok-2".into(),
        revision: 8,
        panel_revision: 8,
        auto_renew: false,
    };
    tx.save_subscription("acc-a-c1", &lifetime).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let loaded = tx.client_by_ref("acc-a-c1").await.unwrap().unwrap();
    assert_eq!(loaded.subscription, Some(lifetime));
    assert_eq!(tx.client_by_link_token("tok-1").await.unwrap(), None, "the old link is gone");
    assert_eq!(tx.client_by_link_token("tok-2").await.unwrap().map(|c| c.id), Some("acc-a-c1".into()));

    tx.insert_client(&client("c-2", "acc-a", "bob", at(1))).await.unwrap();
    let clash = tx.save_subscription("c-2", &subscription(SubscriptionStatus::Active, "tok-2")).await;
    let clash = written_and_committed(tx, clash).await;
    assert!(is_conflict(&clash), "link tokens are unique: {clash:?}");
}

async fn clients_filter_by_subscription_and_page_in_order(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    // Two clients share a created_at: the id breaks the tie.
    let rows = [
        ("c-e", at(3), Some(SubscriptionStatus::Active)),
        ("c-a", at(1), Some(SubscriptionStatus::Active)),
        ("c-c", at(2), None),
        ("c-b", at(2), Some(SubscriptionStatus::Expired)),
        ("c-d", at(4), Some(SubscriptionStatus::Suspended)),
    ];
    for (id, created, status) in rows {
        tx.insert_client(&client(id, "acc-a", &format!("p-{id}"), created)).await.unwrap();
        if let Some(status) = status {
            tx.save_subscription(id, &subscription(status, &format!("tok-{id}"))).await.unwrap();
        }
    }
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let ids = |list: Vec<ClientRecord>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    let all = ClientFilter { limit: 100, ..ClientFilter::default() };
    assert_eq!(ids(tx.clients("acc-a", &all).await.unwrap()), ["c-a", "c-b", "c-c", "c-e", "c-d"]);
    let active = ClientFilter { subscription_status: Some(Some(SubscriptionStatus::Active)), ..all.clone() };
    assert_eq!(ids(tx.clients("acc-a", &active).await.unwrap()), ["c-a", "c-e"]);
    let expired = ClientFilter { subscription_status: Some(Some(SubscriptionStatus::Expired)), ..all.clone() };
    assert_eq!(ids(tx.clients("acc-a", &expired).await.unwrap()), ["c-b"]);
    let none = ClientFilter { subscription_status: Some(None), ..all.clone() };
    let without = tx.clients("acc-a", &none).await.unwrap();
    assert_eq!(without.iter().map(|c| (c.id.as_str(), c.subscription.is_none())).collect::<Vec<_>>(), [("c-c", true)]);

    // Page through two at a time with the (created_at, id) cursor.
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page =
            tx.clients("acc-a", &ClientFilter { after: after.clone(), limit: 2, ..ClientFilter::default() }).await;
        let page = page.unwrap();
        assert!(page.len() <= 2);
        let Some(last) = page.last() else { break };
        after = Some(Cursor { at: last.created_at, id: last.id.clone() });
        seen.extend(ids(page));
    }
    assert_eq!(seen, ["c-a", "c-b", "c-c", "c-e", "c-d"]);
    let after_b =
        ClientFilter { after: Some(Cursor { at: at(2), id: "c-b".into() }), limit: 100, ..ClientFilter::default() };
    assert_eq!(ids(tx.clients("acc-a", &after_b).await.unwrap()), ["c-c", "c-e", "c-d"]);
    let zero = ClientFilter { limit: 0, ..ClientFilter::default() };
    assert!(tx.clients("acc-a", &zero).await.unwrap().is_empty());
    assert_eq!(ids(tx.clients("acc-b", &all).await.unwrap()), ["acc-b-c1"], "other accounts stay apart");
    tx.rollback().await.unwrap();
}

/// `Tx::below_daily_limit` for a window starting at `since`.
async fn below(tx: &mut Box<dyn Tx>, account: &str, quota: DailyQuota, since: OffsetDateTime, limit: u32) -> bool {
    tx.below_daily_limit(account, &DailyLimit { quota, since, limit }).await.unwrap()
}

async fn clients_created_since_are_counted(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await; // created at T0
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", at(60))).await.unwrap();
    tx.insert_client(&client("c-3", "acc-a", "carol", at(120))).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let nc = DailyQuota::NewClients;
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 3).await && below(&mut tx, "acc-a", nc, at(-1), 4).await);
    assert!(!below(&mut tx, "acc-a", nc, at(59), 2).await && below(&mut tx, "acc-a", nc, at(59), 3).await);
    // All three share an hour, so the buckets say 3: the records themselves decide.
    assert!(below(&mut tx, "acc-a", nc, at(60), 2).await, "since itself is outside the window");
    assert!(!below(&mut tx, "acc-a", nc, at(60), 1).await);
    assert!(!below(&mut tx, "acc-b", nc, at(-1), 1).await && below(&mut tx, "acc-b", nc, at(-1), 2).await);
    assert!(below(&mut tx, "nobody", nc, at(-1), 1).await);
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 0).await, "a limit of 0 admits nothing");
    tx.commit().await.unwrap();
}

async fn daily_counts_leave_the_window_and_are_pruned(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await; // created at T0
    let mut tx = begin(s).await;
    for i in 0..5 {
        tx.insert_client(&client(&format!("old-{i}"), "acc-a", &format!("old-{i}"), at(-30 * 3600))).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let nc = DailyQuota::NewClients;
    assert!(below(&mut tx, "acc-a", nc, at(-24 * 3600), 2).await, "clients of 30 hours ago are outside the day");
    assert!(!below(&mut tx, "acc-a", nc, at(-31 * 3600), 6).await, "and inside a longer window");
    assert!(tx.prune_daily_counts(at(-25 * 3600)).await.unwrap() >= 1, "their bucket is pruned");
    assert!(below(&mut tx, "acc-a", nc, at(-24 * 3600), 2).await);
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 1).await, "the client of T0 still counts");
    tx.commit().await.unwrap();
}

async fn plans_get_increasing_ids_and_can_be_retired(ctx: Ctx) {
    let s = &ctx.store;
    let new = |months: u32, lifetime: bool, limited: bool, price: i64| NewPlan {
        months,
        lifetime,
        device_limited: limited,
        platform_price: Money::from_kopecks(price),
        created_at: at(i64::from(months)),
    };
    let mut tx = begin(s).await;
    let p1 = tx.insert_plan(&new(1, false, true, 29_900)).await.unwrap();
    let p2 = tx.insert_plan(&new(0, true, false, 999_900)).await.unwrap();
    let p3 = tx.insert_plan(&new(12, false, true, 249_900)).await.unwrap();
    assert!(p1.plan_id < p2.plan_id && p2.plan_id < p3.plan_id, "{p1:?} {p2:?} {p3:?}");
    assert_eq!(
        p2,
        PlanRecord {
            plan_id: p2.plan_id,
            months: 0,
            lifetime: true,
            device_limited: false,
            platform_price: Money::from_kopecks(999_900),
            created_at: at(0),
            retired_at: None,
        }
    );
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.plan(p1.plan_id).await.unwrap(), Some(p1.clone()));
    assert_eq!(tx.plan(p3.plan_id + 100).await.unwrap(), None);
    assert!(tx.retire_plan(p2.plan_id, at(500)).await.unwrap());
    assert!(!tx.retire_plan(p2.plan_id, at(600)).await.unwrap(), "already retired");
    assert!(!tx.retire_plan(p3.plan_id + 100, at(600)).await.unwrap(), "missing");
    let ids = |plans: Vec<PlanRecord>| plans.into_iter().map(|p| p.plan_id).collect::<Vec<_>>();
    assert_eq!(ids(tx.plans(false).await.unwrap()), [p1.plan_id, p3.plan_id]);
    let with = tx.plans(true).await.unwrap();
    assert_eq!(ids(with.clone()), [p1.plan_id, p2.plan_id, p3.plan_id]);
    assert_eq!(with[1].retired_at, Some(at(500)));
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let p4 = tx.insert_plan(&new(3, false, true, 79_900)).await.unwrap();
    assert!(p4.plan_id > p3.plan_id);
    tx.commit().await.unwrap();
}

async fn device_settings_are_set_replaced_and_read(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.device_settings().await.unwrap(), None);
    let first = DeviceSettings::new(2, 5, Some(Money::from_kopecks(9_900))).unwrap();
    tx.set_device_settings(&first).await.unwrap();
    assert_eq!(tx.device_settings().await.unwrap(), Some(first));
    let second = DeviceSettings::new(1, 10, None).unwrap();
    tx.set_device_settings(&second).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.device_settings().await.unwrap(), Some(second));
    tx.commit().await.unwrap();
}

async fn payment_methods_are_upserted_and_ordered(ctx: Ctx) {
    let method = |code: &str, position: i32, enabled: bool| PaymentMethodRecord {
        code: code.into(),
        name_en: format!("{code} en"),
        name_ru: format!("{code} ru"),
        enabled,
        position,
        gateway: (code == "sbp").then_some(GatewayName::Platega),
        gateway_type: (code == "sbp").then(|| "sbp".to_owned()),
    };
    let mut tx = begin(&ctx.store).await;
    tx.upsert_payment_method(&method("sbp", 2, true)).await.unwrap();
    tx.upsert_payment_method(&method("card", 1, true)).await.unwrap();
    tx.upsert_payment_method(&method("bank", 1, false)).await.unwrap();
    let codes = |list: Vec<PaymentMethodRecord>| list.into_iter().map(|m| m.code).collect::<Vec<_>>();
    assert_eq!(codes(tx.payment_methods().await.unwrap()), ["bank", "card", "sbp"]);
    let mut changed = method("sbp", 0, false);
    changed.name_en = "Fast payments".into();
    changed.gateway_type = None; // unmapped: the customer chooses on the gateway's page
    tx.upsert_payment_method(&changed).await.unwrap();
    tx.upsert_payment_method(&method("bank", 1, true)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    assert_eq!(
        tx.payment_methods().await.unwrap(),
        vec![changed.clone(), method("bank", 1, true), method("card", 1, true)]
    );
    assert_eq!(tx.payment_method("sbp").await.unwrap(), Some(changed));
    assert_eq!(tx.payment_method("cash").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn mail_is_queued_claimed_by_one_worker_and_kept_as_sent(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    let mail = |id: &str, due: i64| vp_ports::MailRecord {
        id: id.into(),
        account_id: Some("acc-1".into()),
        to: "buyer@example.com".into(),
        lang: vp_domain::Lang::Ru,
        content: vp_ports::MailContent::CabinetInvitation {
            link: "https://vpn.example/cabinet/invitation/t".into(),
            expires_at: at(3600),
            reset: true,
        },
        created_at: at(0),
        attempts: 0,
        next_attempt_at: Some(at(due)),
        sent_at: None,
        given_up_at: None,
        last_error: None,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_mail(&mail("mail_b", 5)).await.unwrap();
    tx.insert_mail(&mail("mail_a", 5)).await.unwrap();
    tx.insert_mail(&mail("mail_later", 60)).await.unwrap();
    tx.commit().await.unwrap();
    let claim = |now: i64| Claim { now: at(now), lease_until: at(now + 120), limit: 10 };
    let mut tx = begin(&ctx.store).await;
    let taken = tx.claim_mail(claim(10)).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(taken.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["mail_a", "mail_b"], "due ones, in order");
    assert_eq!(taken[0], mail("mail_a", 5), "every field round-trips");
    let mut tx = begin(&ctx.store).await;
    assert!(tx.claim_mail(claim(11)).await.unwrap().is_empty(), "held by the first worker");
    let mut sent = taken[0].clone();
    (sent.attempts, sent.sent_at, sent.next_attempt_at) = (1, Some(at(12)), None);
    tx.update_mail(&sent).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let again = tx.claim_mail(claim(200)).await.unwrap();
    assert_eq!(again.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["mail_later", "mail_b"], "a lease runs out");
    assert_eq!(tx.mail("mail_a").await.unwrap(), Some(sent));
    assert_eq!(tx.mail("mail_none").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn a_shop_slug_is_one_accounts_and_accounts_without_one_are_found(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.accounts_without_shop(10).await.unwrap(), ["acc-1", "acc-2"]);
    tx.put_shop_slug("acc-1", "fast-vpn", at(1)).await.unwrap();
    assert_eq!(tx.accounts_without_shop(10).await.unwrap(), ["acc-2"]);
    assert_eq!(tx.shop_slug("acc-1").await.unwrap().as_deref(), Some("fast-vpn"));
    assert_eq!(tx.shop_account("fast-vpn").await.unwrap().as_deref(), Some("acc-1"));
    tx.put_shop_slug("acc-1", "swift-vpn", at(2)).await.unwrap();
    assert_eq!(tx.shop_account("fast-vpn").await.unwrap(), None, "the old slug is free again");
    assert_eq!(tx.shop_slug("acc-2").await.unwrap(), None);
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let taken = tx.put_shop_slug("acc-2", "swift-vpn", at(3)).await.unwrap_err();
    assert!(matches!(taken, StoreError::Conflict(_)), "{taken:?}");
}

async fn referrals_keep_one_code_per_client_one_invitation_per_person_and_count_rewards_not_taken_back(ctx: Ctx) {
    use vp_domain::referral::{ReferralCode, ReferralDays, RewardState};
    use vp_ports::{ReferralCodeRecord, ReferralRecord, ReferralReward};
    seed(&ctx.store, "acc-1").await;
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.referral_days("acc-1").await.unwrap(), ReferralDays::OFF, "no program until set");
    tx.set_referral_days("acc-1", ReferralDays::new(7).unwrap(), at(0)).await.unwrap();
    tx.set_referral_days("acc-1", ReferralDays::new(5).unwrap(), at(1)).await.unwrap();
    assert_eq!(tx.referral_days("acc-1").await.unwrap().days(), 5, "the newer days stand");
    for (id, client_id) in [("c-1", "anna"), ("c-2", "boris"), ("c-3", "vera")] {
        tx.insert_client(&client(id, "acc-1", client_id, at(0))).await.unwrap();
    }
    let code = |text: &str, client_ref: &str| ReferralCodeRecord {
        code: ReferralCode::parse(text).unwrap(),
        account_id: "acc-1".into(),
        client_ref: client_ref.into(),
        created_at: at(2),
    };
    tx.insert_referral_code(&code("AAAAAAAAAAAA", "c-1")).await.unwrap();
    tx.insert_referral_code(&code("BBBBBBBBBBBB", "c-2")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert!(
        matches!(tx.insert_referral_code(&code("CCCCCCCCCCCC", "c-1")).await, Err(StoreError::Conflict(_))),
        "one code per client"
    );
    drop(tx);
    let mut tx = begin(&ctx.store).await;
    let found = tx.referral_code(&ReferralCode::parse("AAAAAAAAAAAA").unwrap()).await.unwrap();
    assert_eq!(found.map(|c| c.client_ref), Some("c-1".to_owned()));
    assert_eq!(
        tx.referral_code_of("c-2").await.unwrap().map(|c| c.code.as_str().to_owned()),
        Some("BBBBBBBBBBBB".into())
    );
    let invited = |user: i64, inviter: &str| ReferralRecord {
        account_id: "acc-1".into(),
        invited_user_id: user,
        inviter_ref: inviter.into(),
        invited_at: at(3),
        reward: None,
    };
    // Anna brings three, Boris one: Anna's two paid, one refunded since; Boris's one paid.
    for (user, inviter) in [(11, "c-1"), (12, "c-1"), (13, "c-1"), (21, "c-2")] {
        assert!(tx.insert_referral(&invited(user, inviter)).await.unwrap());
    }
    assert!(!tx.insert_referral(&invited(11, "c-2")).await.unwrap(), "one invitation per person");
    let reward = |payment: &str, state: RewardState| ReferralReward {
        payment_id: payment.into(),
        days: 5,
        state,
        rewarded_at: at(4),
        spent_payment_id: None,
        reversed_at: None,
    };
    for (user, inviter, payment, state) in [
        (11, "c-1", "pay_11", RewardState::Days),
        (12, "c-1", "pay_12", RewardState::Reversed),
        (21, "c-2", "pay_21", RewardState::Credit),
    ] {
        let mut r = invited(user, inviter);
        r.reward = Some(reward(payment, state));
        tx.update_referral(&r).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let rewarded = tx.referral_rewarded_by("pay_12").await.unwrap().unwrap();
    assert_eq!((rewarded.invited_user_id, rewarded.reward.unwrap().state), (12, RewardState::Reversed));
    assert_eq!(tx.referral_of_invited("acc-1", 13).await.unwrap().unwrap().reward, None);
    let credits = tx.referral_credits("c-2").await.unwrap();
    assert_eq!(credits.iter().map(|c| c.invited_user_id).collect::<Vec<_>>(), [21], "Boris's credit");
    assert!(tx.referral_credits("c-1").await.unwrap().is_empty(), "days given are no credit");
    let totals = tx.referral_totals("acc-1").await.unwrap();
    assert_eq!((totals.invited, totals.rewarded, totals.days_given), (4, 2, 10), "the refunded one not counted");
    let top = tx.top_inviters("acc-1", 10).await.unwrap();
    let shown: Vec<(&str, u64, u64, u64)> =
        top.iter().map(|i| (i.client_id.as_str(), i.invited, i.rewarded, i.days_given)).collect();
    assert_eq!(shown, [("anna", 3, 1, 5), ("boris", 1, 1, 5)], "rewards first, then invitations");
    assert_eq!(tx.top_inviters("acc-1", 1).await.unwrap().len(), 1, "at most the limit");
    tx.commit().await.unwrap();
}

async fn a_shop_customer_links_one_email_to_one_client_and_the_first_link_stands(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    seed(&ctx.store, "acc-2").await;
    let mut tx = begin(&ctx.store).await;
    for (id, account) in [("c-1", "acc-1"), ("c-2", "acc-1"), ("c-3", "acc-2")] {
        tx.insert_client(&client(id, account, id, at(0))).await.unwrap();
    }
    let customer = |account: &str, email: &str, client_ref: &str, payment: &str| vp_ports::ShopCustomer {
        account_id: account.into(),
        email: email.into(),
        client_ref: client_ref.into(),
        lang: vp_domain::Lang::Ru,
        first_payment_id: payment.into(),
        created_at: at(1),
    };
    let anna = customer("acc-1", "anna@example.com", "c-1", "pay_1");
    assert!(tx.add_shop_customer(&anna).await.unwrap());
    assert!(
        !tx.add_shop_customer(&customer("acc-1", "anna@example.com", "c-2", "pay_2")).await.unwrap(),
        "one client per email"
    );
    assert!(
        !tx.add_shop_customer(&customer("acc-1", "boris@example.com", "c-1", "pay_3")).await.unwrap(),
        "one email per client"
    );
    assert!(tx.add_shop_customer(&customer("acc-2", "anna@example.com", "c-3", "pay_4")).await.unwrap(), "per account");
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.shop_customer("acc-1", "anna@example.com").await.unwrap(), Some(anna.clone()));
    assert_eq!(tx.shop_customer_of_client("c-1").await.unwrap(), Some(anna));
    assert_eq!(tx.shop_customer("acc-1", "boris@example.com").await.unwrap(), None);
    assert_eq!(tx.shop_customer_of_client("c-2").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn a_newer_shop_sign_in_code_spends_the_older_and_sessions_are_kept_until_pruned(ctx: Ctx) {
    seed(&ctx.store, "acc-1").await;
    let code = |id: &str, t: i64, source: &str| vp_ports::ShopSignIn {
        id: id.into(),
        account_id: "acc-1".into(),
        email: "anna@example.com".into(),
        code_hash: format!("code-{id}"),
        link_hash: format!("link-{id}"),
        source: source.into(),
        tries_left: 5,
        created_at: at(t),
        expires_at: at(t + 600),
        used_at: None,
    };
    let mut tx = begin(&ctx.store).await;
    tx.insert_shop_sign_in(&code("ssi_1", 1, "10.0.0.1")).await.unwrap();
    tx.insert_shop_sign_in(&code("ssi_2", 2, "10.0.0.2")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let latest = tx.latest_shop_sign_in("acc-1", "anna@example.com").await.unwrap().unwrap();
    assert_eq!(latest, code("ssi_2", 2, "10.0.0.2"));
    let first = tx.shop_sign_in_by_link("link-ssi_1").await.unwrap().unwrap();
    assert_eq!(first.tries_left, 0, "a newer code spends the older");
    assert_eq!(tx.shop_sign_ins_since("acc-1", "anna@example.com", "10.0.0.1", at(0)).await.unwrap(), (2, 1));
    assert_eq!(tx.shop_sign_ins_since("acc-1", "anna@example.com", "10.0.0.1", at(2)).await.unwrap(), (1, 0));
    let used = vp_ports::ShopSignIn { tries_left: 3, used_at: Some(at(3)), ..latest };
    tx.update_shop_sign_in(&used).await.unwrap();
    assert_eq!(tx.shop_sign_in_by_link("link-ssi_2").await.unwrap(), Some(used));
    assert_eq!(tx.latest_shop_sign_in("acc-1", "boris@example.com").await.unwrap(), None);

    let session = vp_ports::ShopSession {
        token_hash: "th-1".into(),
        account_id: "acc-1".into(),
        email: "anna@example.com".into(),
        csrf_token: "csrf".into(),
        created_at: at(3),
        last_seen_at: at(3),
    };
    tx.insert_shop_session(&session).await.unwrap();
    tx.touch_shop_session("th-1", at(4)).await.unwrap();
    assert_eq!(tx.shop_session("th-1").await.unwrap().unwrap().last_seen_at, at(4));
    assert_eq!(tx.prune_shop_sign_ins(at(2), at(4), at(0)).await.unwrap(), 1, "the code made before 2");
    assert!(tx.shop_session("th-1").await.unwrap().is_some(), "a session seen at 4 stays");
    assert_eq!(tx.prune_shop_sign_ins(at(0), at(5), at(0)).await.unwrap(), 1, "idle since before 5");
    assert_eq!(tx.shop_session("th-1").await.unwrap(), None);
    tx.insert_shop_session(&session).await.unwrap();
    tx.delete_shop_session("th-1").await.unwrap();
    assert_eq!(tx.shop_session("th-1").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn settings_are_put_and_read(ctx: Ctx) {
    let apps = vp_ports::SettingKey::AppList;
    let setting = |value: &str, t: i64| SettingRecord { key: apps, value: value.into(), updated_at: at(t) };
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.setting(apps).await.unwrap(), None);
    tx.put_setting(&setting(r#"{"apps":[]}"#, 1)).await.unwrap();
    assert_eq!(tx.setting(apps).await.unwrap(), Some(setting(r#"{"apps":[]}"#, 1)));
    tx.put_setting(&setting(r#"{"apps":["x"]}"#, 2)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.setting(apps).await.unwrap(), Some(setting(r#"{"apps":["x"]}"#, 2)));
    assert_eq!(tx.setting(vp_ports::SettingKey::Documents).await.unwrap(), None);
    let offset = vp_ports::SettingKey::UpdateOffset { bot_id: 7 };
    tx.put_setting(&SettingRecord { key: offset, value: "42".into(), updated_at: at(3) }).await.unwrap();
    assert_eq!(tx.setting(offset).await.unwrap().map(|s| s.value).as_deref(), Some("42"));
    assert_eq!(tx.setting(vp_ports::SettingKey::UpdateOffset { bot_id: 8 }).await.unwrap(), None, "one per bot");
    tx.commit().await.unwrap();
}

async fn invoices_round_trip_and_stay_within_their_account(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut sub = invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 3 });
    let settings = vp_domain::receipt::ReceiptSettings { tax_system_code: 2, vat_code: 1 };
    sub.receipt = Some(vp_domain::receipt::Receipt::of_purchase(
        settings,
        "buyer@example.com",
        "Fast VPN: 3 months",
        sub.purpose,
        sub.amounts.customer,
    ));
    let mut devices = invoice("pay-2", "acc-a", "acc-a-c1", Purpose::Devices { count: 2 });
    devices.return_url = None;
    let mut tx = begin(s).await;
    tx.insert_invoice(&sub).await.unwrap();
    tx.insert_invoice(&devices).await.unwrap();
    assert!(is_conflict(&tx.insert_invoice(&sub).await), "payment ids are unique");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    tx.insert_invoice(&sub).await.unwrap();
    tx.insert_invoice(&devices).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.invoice("acc-a", "pay-1").await.unwrap(), Some(sub.clone()));
    assert_eq!(tx.invoice("acc-a", "pay-2").await.unwrap(), Some(devices.clone()));
    assert_eq!(tx.invoice("acc-b", "pay-1").await.unwrap(), None, "another account's invoice is invisible");
    assert_eq!(tx.invoice_by_id("pay-2").await.unwrap(), Some(devices));
    assert_eq!(tx.invoice_by_id("pay-9").await.unwrap(), None);

    let mut paid = sub.clone();
    paid.status = InvoiceStatus::Succeeded;
    paid.payment_url = Some("https://pay.example/p/1".into());
    paid.gateway_payment_id = Some("gw-1".into());
    paid.paid_at = Some(at(600));
    tx.update_invoice(&paid).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.invoice("acc-a", "pay-1").await.unwrap(), Some(paid.clone()));
    let mut recalled = paid;
    recalled.status = InvoiceStatus::Failed;
    recalled.paid_at = None;
    recalled.return_url = None;
    tx.update_invoice(&recalled).await.unwrap();
    assert_eq!(tx.invoice_by_id("pay-1").await.unwrap(), Some(recalled), "None fields are written as NULL");
    tx.commit().await.unwrap();
}

async fn pending_invoices_due_are_oldest_first(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let now = at(1000);
    let mut tx = begin(s).await;
    for (id, expires, status) in [
        ("p-late", at(900), InvoiceStatus::Pending),
        ("p-now", now, InvoiceStatus::Pending),
        ("p-early", at(100), InvoiceStatus::Pending),
        ("p-future", at(1001), InvoiceStatus::Pending),
        ("p-paid", at(50), InvoiceStatus::Succeeded),
        ("p-expired", at(60), InvoiceStatus::Expired),
    ] {
        let mut inv = invoice(id, "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 1 });
        inv.expires_at = expires;
        inv.status = status;
        tx.insert_invoice(&inv).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let ids = |list: Vec<InvoiceRecord>| list.into_iter().map(|i| i.payment_id).collect::<Vec<_>>();
    assert_eq!(ids(tx.pending_invoices_due(now, 10).await.unwrap()), ["p-early", "p-late", "p-now"]);
    assert_eq!(ids(tx.pending_invoices_due(now, 2).await.unwrap()), ["p-early", "p-late"]);
    assert!(tx.pending_invoices_due(at(0), 10).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

async fn invoices_pending_at_the_gateway_are_claimed_once_for_a_re_read(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    for (id, check_at, status, expires) in [
        ("g-due", Some(10), InvoiceStatus::Pending, 1800),
        ("g-expired", Some(20), InvoiceStatus::Expired, 1800),
        ("g-later", Some(500), InvoiceStatus::Pending, 1800),
        ("g-paid", Some(0), InvoiceStatus::Succeeded, 1800),
        ("g-never", None, InvoiceStatus::Pending, 1800),
        ("g-old", Some(0), InvoiceStatus::Pending, -8000),
    ] {
        let mut inv = invoice(id, "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 1 });
        inv.status = status;
        inv.expires_at = at(expires);
        inv.gateway_payment_id = Some(format!("yk-{id}"));
        tx.insert_invoice(&inv).await.unwrap();
        tx.schedule_gateway_check(id, check_at.map(at)).await.unwrap();
    }
    assert_eq!(
        tx.invoice_by_gateway_payment_id("yk-g-due").await.unwrap().map(|i| i.payment_id).as_deref(),
        Some("g-due")
    );
    assert_eq!(tx.invoice_by_gateway_payment_id("yk-nothing").await.unwrap(), None);
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>, now: i64| async move {
        let mut tx = store.begin().await.unwrap();
        // The window: payment windows that ended at most 7200 s before `now`.
        let got = tx
            .claim_gateway_checks(Claim { now: at(now), lease_until: at(now + 300), limit: 10 }, at(now - 7200))
            .await
            .unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|c| (c.invoice.payment_id, c.checks)).collect::<Vec<_>>()
    };
    let first = claim(ctx.store.clone(), 100).await;
    assert_eq!(first, [("g-due".to_owned(), 1), ("g-expired".to_owned(), 1)], "due, pending or expired, in the window");
    assert!(claim(ctx.store.clone(), 200).await.is_empty(), "claimed ones wait for their lease");
    let (a, b) = tokio::join!(claim(ctx.store.clone(), 600), claim(ctx.store.clone(), 600));
    let mut all: Vec<_> = [a.clone(), b.clone()].concat().into_iter().map(|(id, _)| id).collect();
    all.sort();
    assert_eq!(all, ["g-due", "g-expired", "g-later"], "each claimed by exactly one: {a:?} / {b:?}");
    assert!([a, b].concat().contains(&("g-due".to_owned(), 2)), "the count goes up with each claim");
    let mut tx = begin(&ctx.store).await;
    tx.schedule_gateway_check("g-due", None).await.unwrap();
    tx.commit().await.unwrap();
    let later: Vec<String> = claim(ctx.store.clone(), 2000).await.into_iter().map(|(id, _)| id).collect();
    assert_eq!(later, ["g-expired", "g-later"], "a payment with a final answer is not re-read");
}

async fn idempotency_keys_are_unique_per_account(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let first = idem("acc-a", "key-1", RecoveryPoint::Started, Some(at(30)));
    let mut tx = begin(s).await;
    tx.insert_idempotency_key(&first).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let again = tx.insert_idempotency_key(&idem("acc-a", "key-1", RecoveryPoint::Started, None)).await;
    assert!(is_conflict(&again), "{again:?}");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    tx.insert_idempotency_key(&idem("acc-b", "key-1", RecoveryPoint::Started, None)).await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "key-1").await.unwrap(), Some(first.clone()));
    let mut finished = first.clone();
    finished.recovery_point = RecoveryPoint::Finished;
    finished.locked_until = None;
    tx.update_idempotency_key(&finished).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.idempotency_key("acc-a", "key-1").await.unwrap(), Some(finished));
    assert_eq!(
        tx.idempotency_key("acc-b", "key-1").await.unwrap().map(|k| k.recovery_point),
        Some(RecoveryPoint::Started),
        "the other account's key is untouched"
    );
    tx.delete_idempotency_key("acc-a", "key-1").await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "key-1").await.unwrap(), None);
    assert!(tx.idempotency_key("acc-b", "key-1").await.unwrap().is_some());
    tx.commit().await.unwrap();
}

async fn unfinished_idempotency_keys_are_the_expired_locks(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    for record in [
        idem("acc-a", "expired-late", RecoveryPoint::Started, Some(at(50))),
        idem("acc-a", "expired-early", RecoveryPoint::Started, Some(at(10))),
        idem("acc-a", "still-locked", RecoveryPoint::Started, Some(at(500))),
        idem("acc-a", "at-boundary", RecoveryPoint::Started, Some(at(100))),
        idem("acc-a", "released", RecoveryPoint::Started, None),
        idem("acc-a", "finished", RecoveryPoint::Finished, Some(at(1))),
    ] {
        tx.insert_idempotency_key(&record).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    let keys = |list: Vec<IdempotencyRecord>| list.into_iter().map(|k| k.key).collect::<Vec<_>>();
    assert_eq!(keys(tx.unfinished_idempotency_keys(at(100), 10).await.unwrap()), ["expired-early", "expired-late"]);
    assert_eq!(keys(tx.unfinished_idempotency_keys(at(100), 1).await.unwrap()), ["expired-early"]);
    tx.commit().await.unwrap();
}

fn ledger_entry(id: &str, subject: LedgerSubject, kind: LedgerKind, amount: i64, held: i64, t: i64) -> LedgerEntry {
    LedgerEntry {
        id: id.into(),
        account_id: "acc-a".into(),
        subject,
        kind,
        amount: Money::from_kopecks(amount),
        held: Money::from_kopecks(held),
        created_at: at(t),
    }
}

fn balance(available: i64, held: i64) -> Balance {
    Balance { available: Money::from_kopecks(available), held: Money::from_kopecks(held) }
}

async fn ledger_is_unique_per_invoice_and_kind_and_sums(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let entry = |id: &str, payment: &str, kind: LedgerKind, amount: i64, t: i64| {
        ledger_entry(id, LedgerSubject::Invoice(payment.into()), kind, amount, 0, t)
    };
    let mut tx = begin(s).await;
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(0, 0));
    let e1 = entry("l1", "pay-1", LedgerKind::PartnerShareCredit, 12_500, 1);
    let e2 = entry("l2", "pay-2", LedgerKind::PartnerShareCredit, 7_000_000_000, 2);
    let e3 = entry("l3", "pay-1", LedgerKind::PartnerShareReversal, -12_500, 3);
    for e in [&e2, &e1, &e3] {
        tx.insert_ledger_entry(e).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let dup = tx.insert_ledger_entry(&entry("l4", "pay-1", LedgerKind::PartnerShareCredit, 12_500, 4)).await;
    let dup = written_and_committed(tx, dup).await;
    assert!(is_conflict(&dup), "one entry per invoice and kind: {dup:?}");

    let mut tx = begin(s).await;
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(7_000_000_000, 0), "beyond i32");
    assert_eq!(tx.partner_balance("acc-b").await.unwrap(), balance(0, 0));
    assert_eq!(tx.ledger_entries("acc-a", None, 10).await.unwrap(), vec![e3.clone(), e2.clone(), e1.clone()]);
    assert_eq!(
        tx.ledger_entries("acc-a", Some(Cursor { at: e2.created_at, id: e2.id.clone() }), 10).await.unwrap(),
        vec![e1]
    );
    assert_eq!(tx.ledger_entries("acc-a", None, 1).await.unwrap(), vec![e3]);
    assert_eq!(tx.ledger_entries("acc-b", None, 10).await.unwrap(), vec![]);
    tx.commit().await.unwrap();
}

fn withdrawal(id: &str, account: &str, status: WithdrawalStatus, t: i64) -> WithdrawalRecord {
    WithdrawalRecord {
        id: id.into(),
        account_id: account.into(),
        amount: Money::from_kopecks(150_050),
        payout_details: "IBAN DE00 1234\nBank \"Ost\"".into(),
        status,
        note: None,
        requested_by: "money@example.com".into(),
        created_at: at(t),
        updated_at: at(t),
    }
}

async fn withdrawal_steps_are_one_entry_each_and_the_balance_sums_both_columns(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let wd = |id: &str| LedgerSubject::Withdrawal(id.into());
    let mut tx = begin(s).await;
    let mut w = withdrawal("wd-1", "acc-a", WithdrawalStatus::Requested, 1);
    tx.insert_withdrawal(&w).await.unwrap();
    let credit =
        ledger_entry("l0", LedgerSubject::Invoice("pay-1".into()), LedgerKind::PartnerShareCredit, 200_000, 0, 0);
    let hold = ledger_entry("l1", wd("wd-1"), LedgerKind::WithdrawalHold, -150_050, 150_050, 1);
    let approval = ledger_entry("l2", wd("wd-1"), LedgerKind::WithdrawalApproval, 0, 0, 2);
    let payout = ledger_entry("l3", wd("wd-1"), LedgerKind::WithdrawalPayout, 0, -150_050, 3);
    for e in [&credit, &hold, &approval] {
        tx.insert_ledger_entry(e).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(49_950, 150_050));
    let twice = tx.insert_ledger_entry(&ledger_entry("l9", wd("wd-1"), LedgerKind::WithdrawalHold, -1, 1, 4)).await;
    let twice = written_and_committed(tx, twice).await;
    assert!(is_conflict(&twice), "one entry per withdrawal and kind: {twice:?}");

    let mut tx = begin(s).await;
    w.status = WithdrawalStatus::Paid;
    w.note = Some("transfer 77".into());
    w.updated_at = at(3);
    tx.update_withdrawal(&w).await.unwrap();
    tx.insert_ledger_entry(&payout).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.withdrawal("wd-1").await.unwrap(), Some(w));
    assert_eq!(tx.withdrawal("wd-2").await.unwrap(), None);
    assert_eq!(tx.withdrawal_ledger("wd-1").await.unwrap(), vec![hold, approval, payout]);
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(49_950, 0), "the payout left the balance");
    tx.commit().await.unwrap();
}

async fn withdrawals_list_by_account_and_status_newest_first(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    let a1 = withdrawal("wd-a1", "acc-a", WithdrawalStatus::Paid, 1);
    let a2 = withdrawal("wd-a2", "acc-a", WithdrawalStatus::Requested, 2);
    let a3 = withdrawal("wd-a3", "acc-a", WithdrawalStatus::Requested, 3);
    let b1 = withdrawal("wd-b1", "acc-b", WithdrawalStatus::Requested, 4);
    for w in [&a1, &a2, &a3, &b1] {
        tx.insert_withdrawal(w).await.unwrap();
    }
    let ids = |list: Vec<WithdrawalRecord>| list.into_iter().map(|w| w.id).collect::<Vec<_>>();
    let all = WithdrawalFilter { limit: 10, ..WithdrawalFilter::default() };
    assert_eq!(ids(tx.withdrawals(&all).await.unwrap()), ["wd-b1", "wd-a3", "wd-a2", "wd-a1"]);
    let requested = WithdrawalFilter { status: Some(WithdrawalStatus::Requested), ..all.clone() };
    assert_eq!(ids(tx.withdrawals(&requested).await.unwrap()), ["wd-b1", "wd-a3", "wd-a2"]);
    let ours = WithdrawalFilter { account_id: Some("acc-a".into()), limit: 2, ..all.clone() };
    assert_eq!(ids(tx.withdrawals(&ours).await.unwrap()), ["wd-a3", "wd-a2"]);
    let next = WithdrawalFilter { before: Some(Cursor { at: a2.created_at, id: a2.id.clone() }), ..ours };
    assert_eq!(ids(tx.withdrawals(&next).await.unwrap()), ["wd-a1"]);
    tx.commit().await.unwrap();
}

async fn notices_their_sends_and_linked_chats(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    let disabled = NoticeRecord {
        id: "ntc-1".into(),
        account_id: "acc-a".into(),
        kind: NoticeKind::EndpointDisabled {
            endpoint_id: "we-1".into(),
            url: "https://a.example/h".into(),
            reason: "gone".into(),
        },
        created_at: at(1),
    };
    let paid = NoticeRecord {
        id: "ntc-2".into(),
        account_id: "acc-a".into(),
        kind: NoticeKind::WithdrawalPaid { withdrawal_id: "wd-1".into(), amount: Money::from_kopecks(99) },
        created_at: at(2),
    };
    tx.insert_notice(&disabled).await.unwrap();
    tx.insert_notice(&paid).await.unwrap();
    assert_eq!(tx.notices("acc-a", None, 10).await.unwrap(), vec![paid.clone(), disabled.clone()]);
    assert_eq!(
        tx.notices("acc-a", Some(Cursor { at: paid.created_at, id: paid.id.clone() }), 10).await.unwrap(),
        vec![disabled.clone()]
    );
    assert_eq!(tx.notice("ntc-2").await.unwrap(), Some(paid));
    let bot = NoticeRecord {
        id: "ntc-3".into(),
        account_id: "acc-a".into(),
        kind: NoticeKind::BotDisconnected { bot_id: 5550001, username: "fast_vpn_bot".into() },
        created_at: at(3),
    };
    tx.insert_notice(&bot).await.unwrap();
    assert_eq!(tx.notice("ntc-3").await.unwrap(), Some(bot));

    let chat = PartnerChat {
        account_id: "acc-a".into(),
        chat_id: -100_123_456_789,
        linked_by: "a@example.com".into(),
        lang: vp_domain::Lang::Ru,
        linked_at: at(0),
    };
    tx.insert_partner_chat(&chat).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    assert!(is_conflict(&tx.insert_partner_chat(&chat).await), "a chat is linked once per account");
    tx.rollback().await.unwrap();

    let mut tx = begin(s).await;
    assert_eq!(tx.partner_chats("acc-a").await.unwrap(), vec![chat.clone()]);
    let send = NoticeSend {
        notice_id: "ntc-1".into(),
        chat_id: chat.chat_id,
        attempts: 0,
        next_attempt_at: Some(at(1)),
        sent_at: None,
        last_error: None,
    };
    tx.insert_notice_sends(std::slice::from_ref(&send)).await.unwrap();
    assert!(tx.notice_sends_due(at(0), 10).await.unwrap().is_empty(), "not due yet");
    assert_eq!(tx.notice_sends_due(at(1), 10).await.unwrap(), vec![send.clone()]);
    assert!(tx.claim_notice_send(&send, at(120)).await.unwrap(), "the first claim takes it");
    assert!(!tx.claim_notice_send(&send, at(120)).await.unwrap(), "a second claim with the old time does not");
    assert!(tx.notice_sends_due(at(60), 10).await.unwrap().is_empty(), "claimed for the lease");
    let done = NoticeSend { attempts: 1, next_attempt_at: None, sent_at: Some(at(5)), ..send };
    tx.update_notice_send(&done).await.unwrap();
    assert!(tx.notice_sends_due(at(10_000), 10).await.unwrap().is_empty(), "a sent one is never due");

    let user = CabinetUser {
        id: "cu-1".into(),
        account_id: "acc-a".into(),
        email: "a@example.com".into(),
        password_hash: None,
        created_at: at(0),
        revoked_at: None,
    };
    tx.insert_cabinet_user(&user).await.unwrap();
    let code = ChatLinkCode {
        code_hash: "h1".into(),
        account_id: "acc-a".into(),
        user_id: "cu-1".into(),
        linked_by: "a@example.com".into(),
        lang: vp_domain::Lang::En,
        expires_at: at(3600),
    };
    tx.insert_chat_link_code(&code).await.unwrap();
    assert_eq!(tx.take_chat_link_code("h1").await.unwrap(), Some(code.clone()));
    assert_eq!(tx.take_chat_link_code("h1").await.unwrap(), None, "a code works once");
    tx.insert_chat_link_code(&code).await.unwrap();
    assert_eq!(tx.prune_chat_link_codes(at(3600)).await.unwrap(), 0, "not expired before its time");
    assert_eq!(tx.prune_chat_link_codes(at(3601)).await.unwrap(), 1);
    assert!(tx.delete_partner_chat("acc-a", chat.chat_id).await.unwrap());
    assert!(!tx.delete_partner_chat("acc-a", chat.chat_id).await.unwrap());
    tx.commit().await.unwrap();
}

async fn trials_are_counted_and_one_per_client(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    seed(s, "acc-b").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", T0)).await.unwrap();
    tx.insert_trial_grant("acc-a", "acc-a-c1", at(10)).await.unwrap();
    tx.insert_trial_grant("acc-a", "c-2", at(20)).await.unwrap();
    tx.insert_trial_grant("acc-b", "acc-b-c1", at(20)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let tr = DailyQuota::Trials;
    assert!(!below(&mut tx, "acc-a", tr, at(0), 2).await && below(&mut tx, "acc-a", tr, at(0), 3).await);
    assert!(!below(&mut tx, "acc-a", tr, at(19), 1).await && below(&mut tx, "acc-a", tr, at(19), 2).await);
    assert!(below(&mut tx, "acc-a", tr, at(20), 1).await, "since itself is outside the window");
    assert!(!below(&mut tx, "acc-b", tr, at(0), 1).await && below(&mut tx, "acc-b", tr, at(0), 2).await);
    let second = tx.insert_trial_grant("acc-a", "acc-a-c1", at(100_000)).await;
    assert!(is_conflict(&second), "a client gets one trial ever: {second:?}");
    tx.rollback().await.unwrap();
}

async fn panel_sync_queue_follows_revisions(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", T0)).await.unwrap();
    tx.insert_client(&client("c-3", "acc-a", "carol", T0)).await.unwrap();
    let sub = |token: &str, revision: i64, panel_revision: i64| SubscriptionRecord {
        revision,
        panel_revision,
        ..subscription(SubscriptionStatus::Active, token)
    };
    tx.save_subscription("c-3", &sub("t3", 2, 1)).await.unwrap(); // owes, changed first
    tx.save_subscription("acc-a-c1", &sub("t1", 1, 1)).await.unwrap(); // in sync
    tx.save_subscription("c-2", &sub("t2", 4, 0)).await.unwrap(); // owes, changed second
    tx.commit().await.unwrap();

    let mut tx = begin(s).await;
    let ids = |list: Vec<ClientRecord>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    let now = at(0);
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-3", "c-2"]);
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 1).await.unwrap()), ["c-3"]);
    // A new change to c-3 moves it behind c-2.
    tx.save_subscription("c-3", &sub("t3", 3, 1)).await.unwrap();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-2", "c-3"]);
    // A write of the same revision keeps its place.
    tx.save_subscription("c-2", &sub("t2", 4, 0)).await.unwrap();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-2", "c-3"]);
    tx.mark_panel_synced("c-3", 3).await.unwrap();
    tx.mark_panel_synced("c-2", 2).await.unwrap();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap()), ["c-2"]);
    tx.mark_panel_synced("c-3", 1).await.unwrap(); // never lowers
    let c3 = tx.client_by_ref("c-3").await.unwrap().unwrap();
    assert_eq!(c3.subscription.map(|s| (s.revision, s.panel_revision)), Some((3, 3)));
    tx.mark_panel_synced("c-2", 4).await.unwrap();
    assert!(tx.subscriptions_owing_panel_sync(now, 10).await.unwrap().is_empty());
    tx.commit().await.unwrap();
}

async fn a_refused_panel_push_is_counted_and_held_back_until_its_retry_time(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.insert_client(&client("c-2", "acc-a", "bob", T0)).await.unwrap();
    let owed = SubscriptionRecord { revision: 2, panel_revision: 1, ..subscription(SubscriptionStatus::Active, "t2") };
    tx.save_subscription("c-2", &owed).await.unwrap();
    let other = SubscriptionRecord { revision: 3, link_token: "t1".into(), ..owed.clone() };
    tx.save_subscription("acc-a-c1", &other).await.unwrap();
    let retry_in = |minutes: i64| move |n: u32| at(minutes * 60 * i64::from(n));
    assert_eq!(tx.defer_panel_sync("c-2", &retry_in(10)).await.unwrap(), 1);
    assert_eq!(tx.defer_panel_sync("c-2", &retry_in(10)).await.unwrap(), 2, "refusals in a row are counted");
    let ids = |list: Vec<ClientRecord>| list.into_iter().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(at(60), 10).await.unwrap()), ["acc-a-c1"], "held back");
    assert_eq!(ids(tx.subscriptions_owing_panel_sync(at(1200), 10).await.unwrap()), ["c-2", "acc-a-c1"]);
    tx.mark_panel_synced("c-2", 2).await.unwrap();
    assert_eq!(tx.defer_panel_sync("c-2", &retry_in(10)).await.unwrap(), 1, "a confirmed push resets the count");
    tx.commit().await.unwrap();
}

async fn local_panel_users_and_devices(ctx: Ctx) {
    let user = LocalPanelUser {
        user_ref: "u-1".into(),
        link_token: "lt-1".into(),
        expires_at: at(86_400),
        device_limit: Some(3),
        enabled: true,
    };
    let device = |hwid: &str, created: i64, model: Option<&str>| LocalPanelDevice {
        user_ref: "u-1".into(),
        hwid: hwid.into(),
        platform: Some("android".into()),
        os_version: None,
        model: model.map(Into::into),
        user_agent: Some("app/1.0".into()),
        created_at: at(created),
        last_seen_at: at(created),
    };
    let mut tx = ctx.local_panel.begin_local().await.unwrap();
    tx.local_panel_put_user(&user).await.unwrap();
    assert_eq!(tx.local_panel_user("u-1").await.unwrap(), Some(user.clone()));
    let mut changed = user.clone();
    changed.device_limit = None;
    changed.enabled = false;
    changed.link_token = "lt-2".into();
    tx.local_panel_put_user(&changed).await.unwrap();
    assert_eq!(tx.local_panel_user_by_token("lt-2").await.unwrap(), Some(changed));
    assert_eq!(tx.local_panel_user_by_token("lt-1").await.unwrap(), None);
    assert_eq!(tx.local_panel_user("u-9").await.unwrap(), None);

    tx.local_panel_upsert_device(&device("hw-b", 20, Some("Pixel"))).await.unwrap();
    tx.local_panel_upsert_device(&device("hw-a", 10, None)).await.unwrap();
    let mut seen_again = device("hw-b", 99, Some("Pixel 9"));
    seen_again.created_at = at(500); // ignored: the first registration time stays
    tx.local_panel_upsert_device(&seen_again).await.unwrap();
    let devices = tx.local_panel_devices("u-1").await.unwrap();
    let mut expected_b = device("hw-b", 20, Some("Pixel 9"));
    expected_b.last_seen_at = at(99);
    assert_eq!(devices, vec![device("hw-a", 10, None), expected_b]);
    assert!(tx.local_panel_delete_device("u-1", "hw-a").await.unwrap());
    assert!(!tx.local_panel_delete_device("u-1", "hw-a").await.unwrap());
    assert_eq!(tx.local_panel_devices("u-1").await.unwrap().len(), 1);
    tx.commit().await.unwrap();
}

async fn commit_persists(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.account("acc-a").await.unwrap(), Some(account("acc-a")));
    tx.commit().await.unwrap();
}

async fn rollback_leaves_no_trace(ctx: Ctx) {
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    assert!(tx.account("acc-a").await.unwrap().is_some(), "visible inside the unit of work");
    tx.rollback().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.account("acc-a").await.unwrap(), None);
    tx.commit().await.unwrap();
}

async fn dropped_unit_of_work_leaves_no_trace(ctx: Ctx) {
    {
        let mut tx = begin(&ctx.store).await;
        tx.insert_account(&account("acc-a")).await.unwrap();
        drop(tx);
    }
    // The abandoned transaction must neither persist nor block the next writer.
    for _ in 0..3 {
        let mut tx = begin(&ctx.store).await;
        assert_eq!(tx.account("acc-a").await.unwrap(), None);
        tx.insert_account(&account("acc-b")).await.unwrap();
        tx.rollback().await.unwrap();
    }
    let mut tx = begin(&ctx.store).await;
    tx.insert_account(&account("acc-a")).await.unwrap();
    tx.commit().await.unwrap();
}

async fn concurrent_writers_both_succeed(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let writer = |store: Arc<dyn Store>, n: u32| async move {
        let mut tx = store.begin().await?;
        tx.lock_account("acc-a").await?;
        tx.insert_client(&client(&format!("w-{n}"), "acc-a", &format!("writer-{n}"), at(i64::from(n)))).await?;
        tokio::time::sleep(StdDuration::from_millis(100)).await;
        tx.commit().await
    };
    let a = tokio::spawn(writer(ctx.store.clone(), 1));
    let b = tokio::spawn(writer(ctx.store.clone(), 2));
    a.await.unwrap().expect("first writer");
    b.await.unwrap().expect("second writer");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 3).await, "both clients and the seed's count");
    tx.commit().await.unwrap();
}

/// A lock of account `acc-a` a test unit of work takes.
#[derive(Clone, Copy)]
enum Lock {
    Client(&'static str),
    Account,
}

/// A unit of work that takes `lock`, then gives the unit back.
fn take(store: &Arc<dyn Store>, lock: Lock) -> tokio::task::JoinHandle<Result<(), StoreError>> {
    let store = store.clone();
    tokio::spawn(async move {
        let mut tx = store.begin().await?;
        match lock {
            Lock::Client(client_ref) => tx.lock_client("acc-a", client_ref).await?,
            Lock::Account => tx.lock_account("acc-a").await?,
        }
        tx.rollback().await
    })
}

/// Whether `task` is still waiting after `for_`.
async fn still_waiting(task: &mut tokio::task::JoinHandle<Result<(), StoreError>>, for_: StdDuration) -> bool {
    match tokio::time::timeout(for_, &mut *task).await {
        Ok(done) => {
            done.unwrap().expect("the lock");
            false
        }
        Err(_) => true,
    }
}

async fn finishes(task: tokio::task::JoinHandle<Result<(), StoreError>>) {
    tokio::time::timeout(StdDuration::from_secs(10), task)
        .await
        .expect("the lock is taken")
        .unwrap()
        .expect("the lock");
}

async fn a_client_lock_waits_for_the_same_client_and_the_whole_account_and_not_for_another_client(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-a-c2", "acc-a", "bob", T0)).await.unwrap();
    tx.commit().await.unwrap();
    let held = StdDuration::from_millis(400);

    let mut first = begin(&ctx.store).await;
    first.lock_client("acc-a", "acc-a-c1").await.unwrap();
    let mut same = take(&ctx.store, Lock::Client("acc-a-c1"));
    assert!(still_waiting(&mut same, held).await, "one unit of work per client");
    let mut other = take(&ctx.store, Lock::Client("acc-a-c2"));
    let mut waiting = vec![same];
    if ctx.url.starts_with("postgres") {
        assert!(!still_waiting(&mut other, StdDuration::from_secs(10)).await, "another client of the account goes on");
    } else {
        assert!(still_waiting(&mut other, held).await, "SQLite has one writer at all");
        waiting.push(other);
    }
    let mut whole = take(&ctx.store, Lock::Account);
    assert!(still_waiting(&mut whole, held).await, "the whole account waits for its clients");
    waiting.push(whole);
    first.commit().await.unwrap();
    for task in waiting {
        finishes(task).await;
    }

    let mut account = begin(&ctx.store).await;
    account.lock_account("acc-a").await.unwrap();
    let mut client = take(&ctx.store, Lock::Client("acc-a-c2"));
    assert!(still_waiting(&mut client, held).await, "a client waits for the whole account");
    account.commit().await.unwrap();
    finishes(client).await;
}

async fn a_unit_begun_with_an_invoice_reads_it_under_its_clients_lock(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_client(&client("acc-a-c2", "acc-a", "bob", T0)).await.unwrap();
    let bought = invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: 1 });
    tx.insert_invoice(&bought).await.unwrap();
    tx.commit().await.unwrap();
    let held = StdDuration::from_millis(400);

    let (first, read) = ctx.store.begin_with_invoice("pay-1").await.unwrap();
    assert_eq!(read, Some(bought.clone()));
    let mut same = take(&ctx.store, Lock::Client("acc-a-c1"));
    assert!(still_waiting(&mut same, held).await, "the invoice's client is locked");
    let mut whole = take(&ctx.store, Lock::Account);
    assert!(still_waiting(&mut whole, held).await, "the whole account waits for the invoice's client");
    let mut waiting = vec![same, whole];
    let mut other = take(&ctx.store, Lock::Client("acc-a-c2"));
    if ctx.url.starts_with("postgres") {
        assert!(!still_waiting(&mut other, StdDuration::from_secs(10)).await, "another client of the account goes on");
    } else {
        waiting.push(other);
    }
    first.commit().await.unwrap();
    for task in waiting {
        finishes(task).await;
    }

    let (tx, read) = ctx.store.begin_with_invoice("pay-2").await.unwrap();
    assert_eq!(read, None, "no such invoice");
    tx.rollback().await.unwrap();
    let mut other = take(&ctx.store, Lock::Account);
    assert!(!still_waiting(&mut other, StdDuration::from_secs(10)).await, "a missing invoice locked nothing");
}

async fn reads_made_ahead_answer_their_next_call_once_then_the_database_does(ctx: Ctx) {
    use vp_ports::{ReadAhead, ShopCustomer};
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &subscription(SubscriptionStatus::Active, "t1")).await.unwrap();
    let plan = tx
        .insert_plan(&NewPlan {
            months: 3,
            lifetime: false,
            device_limited: true,
            platform_price: Money::from_kopecks(79_900),
            created_at: T0,
        })
        .await
        .unwrap();
    tx.set_device_settings(&DeviceSettings::new(2, 5, Some(Money::from_kopecks(9_900))).unwrap()).await.unwrap();
    tx.insert_invoice(&invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Subscription { plan_id: plan.plan_id }))
        .await
        .unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    let chat = ClientChat { client_ref: "acc-a-c1".into(), account_id: "acc-a".into(), chat_id: 77, linked_at: T0 };
    tx.link_client_chat(&chat).await.unwrap();
    let customer = ShopCustomer {
        account_id: "acc-a".into(),
        email: "anna@example.com".into(),
        client_ref: "acc-a-c1".into(),
        lang: vp_domain::Lang::Ru,
        first_payment_id: "pay-1".into(),
        created_at: T0,
    };
    assert!(tx.add_shop_customer(&customer).await.unwrap());
    tx.commit().await.unwrap();

    let ahead = ReadAhead {
        client: Some("acc-a-c1"),
        plan: Some(plan.plan_id),
        device_settings: true,
        consent_of_invoice: Some("pay-1"),
        webhook_endpoints: Some("acc-a"),
    };
    let mut tx = begin(s).await;
    // What each read returns from the database, then the same read answered from ahead.
    let client = tx.client_by_ref("acc-a-c1").await.unwrap();
    let credits = tx.referral_credits("acc-a-c1").await.unwrap();
    let bot_customer = tx.bot_customer_of_client("acc-a-c1").await.unwrap();
    let settings = tx.device_settings().await.unwrap();
    let consent = tx.consent_of_invoice("pay-1").await.unwrap();
    let endpoints = tx.webhook_endpoints("acc-a").await.unwrap();
    assert!(client.as_ref().is_some_and(|c| c.subscription.is_some()) && settings.is_some());
    assert_eq!(endpoints.len(), 1);
    tx.read_ahead(ahead).await.unwrap();
    assert_eq!(tx.client_by_ref("acc-a-c1").await.unwrap(), client);
    assert_eq!(tx.referral_credits("acc-a-c1").await.unwrap(), credits);
    assert_eq!(tx.bot_customer_of_client("acc-a-c1").await.unwrap(), bot_customer);
    assert_eq!(tx.client_chat("acc-a-c1").await.unwrap(), Some(chat.clone()));
    assert_eq!(tx.shop_customer_of_client("acc-a-c1").await.unwrap(), Some(customer.clone()));
    assert_eq!(tx.plan(plan.plan_id).await.unwrap(), Some(plan.clone()));
    assert_eq!(tx.device_settings().await.unwrap(), settings);
    assert_eq!(tx.consent_of_invoice("pay-1").await.unwrap(), consent);
    assert_eq!(tx.webhook_endpoints("acc-a").await.unwrap(), endpoints);

    // Once: after the unit writes, the next call reads what it wrote.
    tx.read_ahead(ahead).await.unwrap();
    assert!(tx.client_by_ref("acc-a-c1").await.unwrap().is_some(), "answered from ahead");
    let mut renewed = client.and_then(|c| c.subscription).unwrap();
    renewed.revision += 1;
    tx.save_subscription("acc-a-c1", &renewed).await.unwrap();
    let read = tx.client_by_ref("acc-a-c1").await.unwrap().and_then(|c| c.subscription);
    assert_eq!(read.map(|r| r.revision), Some(renewed.revision), "the second call reads the database");
    assert_eq!(tx.device_settings().await.unwrap(), settings);
    tx.set_device_settings(&DeviceSettings::new(1, 10, None).unwrap()).await.unwrap();
    assert_eq!(tx.device_settings().await.unwrap(), Some(DeviceSettings::new(1, 10, None).unwrap()));
    // A read for another argument is not answered from ahead.
    assert_eq!(tx.plan(plan.plan_id + 1).await.unwrap(), None);
    assert_eq!(tx.webhook_endpoints("acc-b").await.unwrap(), []);
    tx.rollback().await.unwrap();
}

/// A runtime of one thread (an actix worker, this test's) opens connections of its own, driven
/// there; one that ended leaves them dead, and the next on that thread opens new ones.
async fn a_store_serves_every_runtime_that_uses_it_even_after_one_on_the_same_thread_ended(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let store = ctx.store.clone();
    let found = std::thread::spawn(move || {
        let read_in_a_new_runtime = || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                let mut tx = store.begin().await.unwrap();
                let found = tx.account("acc-a").await.unwrap().is_some();
                tx.commit().await.unwrap();
                found
            })
        };
        [read_in_a_new_runtime(), read_in_a_new_runtime()]
    })
    .join()
    .unwrap();
    assert_eq!(found, [true, true]);
    let mut tx = begin(&ctx.store).await;
    assert!(tx.account("acc-a").await.unwrap().is_some(), "and still on this test's runtime");
    tx.commit().await.unwrap();
}

async fn a_unit_committing_asynchronously_keeps_its_write_only_at_its_commit_and_wakes_the_dispatcher(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let mut tx = begin(s).await;
    tx.save_subscription(
        "acc-a-c1",
        &SubscriptionRecord { revision: 2, ..subscription(SubscriptionStatus::Active, "t1") },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let panel_revision = |s: Arc<dyn Store>| async move {
        let mut tx = s.read().await.unwrap();
        let synced = tx.client_by_ref("acc-a-c1").await.unwrap().and_then(|c| c.subscription);
        tx.commit().await.unwrap();
        synced.map(|r| r.panel_revision)
    };

    // A rolled back or dropped unit keeps nothing; a committed one keeps its write.
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.mark_panel_synced("acc-a-c1", 2).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(panel_revision(s.clone()).await, Some(1));
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.mark_panel_synced("acc-a-c1", 2).await.unwrap();
    drop(tx);
    assert_eq!(panel_revision(s.clone()).await, Some(1));
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.mark_panel_synced("acc-a-c1", 2).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(panel_revision(s.clone()).await, Some(2));

    let mut tx = begin(s).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.insert_event(&event("evt-1", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.commit().await.unwrap();
    // A second store on the same database stands for another process; both listen first.
    let other = connect(&ctx.url, &StoreOptions::default()).await.unwrap();
    s.wait_for_deliveries(StdDuration::from_millis(50)).await;
    other.wait_for_deliveries(StdDuration::from_millis(50)).await;
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    let here = waiting(s.clone(), StdDuration::from_secs(5));
    let there = waiting(other.clone(), StdDuration::from_secs(2));
    tokio::time::sleep(StdDuration::from_millis(100)).await;
    let mut tx = s.begin_async_commit().await.unwrap();
    tx.insert_delivery(&delivery("dl-1", "evt-1", "we-1", 0)).await.unwrap();
    tx.commit().await.unwrap();
    assert!(here.await.unwrap() < StdDuration::from_secs(2), "this process wakes at the commit");
    let there = there.await.unwrap();
    if ctx.url.starts_with("postgres") {
        assert!(there < StdDuration::from_millis(1500), "another process wakes too (NOTIFY at the commit): {there:?}");
    }
}

async fn writes_answering_nothing_are_read_back_by_their_unit_and_kept_only_whole_by_its_commit(ctx: Ctx) {
    let s = &ctx.store;
    seed(s, "acc-a").await;
    let pending = invoice("pay-1", "acc-a", "acc-a-c1", Purpose::Devices { count: 1 });
    let mut tx = begin(s).await;
    tx.insert_invoice(&pending).await.unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.insert_event(&event("evt-1", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.commit().await.unwrap();
    let paid = InvoiceRecord { status: InvoiceStatus::Succeeded, paid_at: Some(at(5)), ..pending.clone() };
    let sub = subscription(SubscriptionStatus::Active, "t1");
    let credit =
        ledger_entry("l1", LedgerSubject::Invoice("pay-1".into()), LedgerKind::PartnerShareCredit, 12_500, 0, 5);
    let kept = |s: Arc<dyn Store>| async move {
        let mut tx = s.begin().await.unwrap();
        let client = tx.client_by_ref("acc-a-c1").await.unwrap().unwrap();
        let invoice = tx.invoice("acc-a", "pay-1").await.unwrap().unwrap();
        let balance = tx.partner_balance("acc-a").await.unwrap();
        tx.rollback().await.unwrap();
        (client.subscription, invoice.status, balance)
    };
    let nothing = (None, InvoiceStatus::Pending, balance(0, 0));

    // The unit's own reads see its writes; a rollback or a drop keeps none of them.
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    let client = tx.client_by_ref("acc-a-c1").await.unwrap().unwrap();
    assert_eq!(client.subscription.as_ref(), Some(&sub));
    assert_eq!(tx.invoice("acc-a", "pay-1").await.unwrap(), Some(paid.clone()));
    tx.insert_ledger_entry(&credit).await.unwrap();
    assert_eq!(tx.partner_balance("acc-a").await.unwrap(), balance(12_500, 0));
    tx.rollback().await.unwrap();
    assert_eq!(kept(s.clone()).await, nothing);
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    drop(tx);
    tokio::time::sleep(StdDuration::from_millis(100)).await;
    assert_eq!(kept(s.clone()).await, nothing);

    // One failing write fails the commit, and the writes beside it are not kept either.
    let mut tx = begin(s).await;
    tx.insert_ledger_entry(&credit).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(s).await;
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    let twice = tx.insert_ledger_entry(&ledger_entry("l2", credit.subject.clone(), credit.kind, 1, 0, 6)).await;
    let twice = written_and_committed(tx, twice).await;
    assert!(is_conflict(&twice), "the second credit of one invoice: {twice:?}");
    assert_eq!(kept(s.clone()).await, (None, InvoiceStatus::Pending, balance(12_500, 0)));

    // A commit keeps them all and wakes the dispatchers, of other processes too, for the
    // deliveries recorded beside them.
    let other = connect(&ctx.url, &StoreOptions::default()).await.unwrap();
    other.wait_for_deliveries(StdDuration::from_millis(50)).await;
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    let there = waiting(other.clone(), StdDuration::from_secs(2));
    tokio::time::sleep(StdDuration::from_millis(100)).await;
    let mut tx = begin(s).await;
    tx.insert_delivery(&delivery("dl-1", "evt-1", "we-1", 0)).await.unwrap();
    tx.save_subscription("acc-a-c1", &sub).await.unwrap();
    tx.update_invoice(&paid).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(kept(s.clone()).await, (Some(sub), InvoiceStatus::Succeeded, balance(12_500, 0)));
    let there = there.await.unwrap();
    if ctx.url.starts_with("postgres") {
        assert!(there < StdDuration::from_millis(1500), "another process wakes at the commit: {there:?}");
    }
}

async fn the_daily_limit_guard_lets_one_of_two_racing_writers_take_the_last_place(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await; // one client already: one place left under a limit of 2
    let writer = |store: Arc<dyn Store>, n: u32| async move {
        let mut tx = store.begin().await?;
        let limit = DailyLimit { quota: DailyQuota::NewClients, since: at(-1), limit: 2 };
        if !tx.below_daily_limit("acc-a", &limit).await? {
            tx.rollback().await?;
            return Ok::<bool, StoreError>(false);
        }
        tokio::time::sleep(StdDuration::from_millis(100)).await;
        tx.insert_client(&client(&format!("w-{n}"), "acc-a", &format!("writer-{n}"), at(i64::from(n)))).await?;
        tx.commit().await?;
        Ok(true)
    };
    let a = tokio::spawn(writer(ctx.store.clone(), 1));
    let b = tokio::spawn(writer(ctx.store.clone(), 2));
    let (a, b) = (a.await.unwrap().expect("first writer"), b.await.unwrap().expect("second writer"));
    assert!(a ^ b, "exactly one took the last place: {a} {b}");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 2).await);
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 3).await, "and no more than that");
    tx.commit().await.unwrap();
}

fn endpoint(id: &str, account_id: &str) -> WebhookEndpointRecord {
    WebhookEndpointRecord {
        id: id.into(),
        account_id: account_id.into(),
        url: "https://hooks.partner.example/vpn".into(),
        event_types: vec!["payment.succeeded".into(), "subscription.expired".into()],
        secret_sealed: "v1.0a1b2c3d.c2VhbGVkIGN1cnJlbnQ".into(),
        previous_secret_sealed: None,
        secret_rotated_at: None,
        enabled: true,
        disabled_reason: None,
        disabled_at: None,
        failing_since: None,
        created_at: T0,
    }
}

fn event(id: &str, account_id: &str, event_type: &str, at_s: i64) -> EventRecord {
    EventRecord {
        id: id.into(),
        account_id: account_id.into(),
        event_type: event_type.into(),
        body: format!(r#"{{"type":"{event_type}","timestamp":"2026-11-23T10:00:00.123456Z","data":{{}}}}"#),
        occurred_at: at(at_s),
        created_at: at(at_s),
    }
}

fn delivery(id: &str, event_id: &str, endpoint_id: &str, due_s: i64) -> DeliveryRecord {
    DeliveryRecord {
        id: id.into(),
        event_id: event_id.into(),
        endpoint_id: endpoint_id.into(),
        status: DeliveryStatus::Pending,
        attempts: 0,
        next_attempt_at: at(due_s),
        locked_until: None,
        delivered_at: None,
        created_at: at(due_s),
    }
}

async fn webhook_endpoints_round_trip_every_field(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    seed(&ctx.store, "acc-b").await;
    let mut tx = begin(&ctx.store).await;
    let mut first = endpoint("we-1", "acc-a");
    tx.insert_webhook_endpoint(&first).await.unwrap();
    tx.insert_webhook_endpoint(&WebhookEndpointRecord { created_at: at(5), ..endpoint("we-2", "acc-a") })
        .await
        .unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-3", "acc-b")).await.unwrap();
    first.previous_secret_sealed = Some(first.secret_sealed.clone());
    first.secret_sealed = "v1.0a1b2c3d.c2VhbGVkIG5ldw".into();
    first.secret_rotated_at = Some(at(60));
    first.enabled = false;
    first.disabled_reason = Some("gone".into());
    first.failing_since = Some(at(30));
    first.event_types = vec!["webhook.test".into()];
    tx.update_webhook_endpoint(&first).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.webhook_endpoint("we-1").await.unwrap(), Some(first));
    let ids: Vec<String> = tx.webhook_endpoints("acc-a").await.unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(ids, ["we-1", "we-2"], "only the account's own, oldest first");
    assert_eq!(tx.webhook_endpoint("we-none").await.unwrap(), None);
    let all: Vec<String> = tx.all_webhook_endpoints().await.unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(all, ["we-1", "we-3", "we-2"], "every account's, oldest first");
    tx.commit().await.unwrap();
}

async fn events_and_deliveries_are_claimed_once_under_a_lease(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    for (n, due) in [(1, 10), (2, 0), (3, 500)] {
        tx.insert_event(&event(&format!("evt-{n}"), "acc-a", "payment.succeeded", 0)).await.unwrap();
        tx.insert_delivery(&delivery(&format!("dl-{n}"), &format!("evt-{n}"), "we-1", due)).await.unwrap();
    }
    tx.commit().await.unwrap();

    let claim = |store: Arc<dyn Store>, now: i64| async move {
        let mut tx = store.begin().await.unwrap();
        let got =
            tx.claim_due_deliveries(Claim { now: at(now), lease_until: at(now + 60), limit: 10 }, &[]).await.unwrap();
        tx.commit().await.unwrap();
        got.into_iter().map(|d| d.id).collect::<Vec<_>>()
    };
    assert_eq!(claim(ctx.store.clone(), 20).await, ["dl-2", "dl-1"], "due ones, oldest due first");
    assert!(claim(ctx.store.clone(), 30).await.is_empty(), "leased ones are not claimed again");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.delivery("dl-1").await.unwrap().unwrap().locked_until, Some(at(80)));
    tx.commit().await.unwrap();
    assert_eq!(claim(ctx.store.clone(), 81).await, ["dl-2", "dl-1"], "an expired lease (a dead worker) frees them");

    // Two claimers at once never get the same delivery.
    let (a, b) = tokio::join!(claim(ctx.store.clone(), 600), claim(ctx.store.clone(), 600));
    let mut all = [a.clone(), b.clone()].concat();
    all.sort();
    assert_eq!(all, ["dl-1", "dl-2", "dl-3"], "each claimed by exactly one: {a:?} / {b:?}");

    let mut tx = begin(&ctx.store).await;
    let mut d = tx.delivery("dl-3").await.unwrap().unwrap();
    d.status = DeliveryStatus::Delivered;
    d.attempts = 1;
    d.delivered_at = Some(at(601));
    d.locked_until = None;
    tx.update_delivery(&d).await.unwrap();
    tx.commit().await.unwrap();
    assert!(claim(ctx.store.clone(), 10_000).await.iter().all(|id| id != "dl-3"), "delivered ones are done");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.delivery("dl-3").await.unwrap(), Some(d));
    assert_eq!(tx.event("evt-3").await.unwrap(), Some(event("evt-3", "acc-a", "payment.succeeded", 0)));
    tx.commit().await.unwrap();
}

async fn claims_skip_busy_endpoints_and_give_back_and_batches_load_in_one_go(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-slow", "acc-a")).await.unwrap();
    tx.insert_webhook_endpoint(&endpoint("we-fast", "acc-a")).await.unwrap();
    for (n, endpoint_id) in [(1, "we-slow"), (2, "we-fast"), (3, "we-slow"), (4, "we-fast")] {
        tx.insert_event(&event(&format!("evt-{n}"), "acc-a", "payment.succeeded", n)).await.unwrap();
        tx.insert_delivery(&delivery(&format!("dl-{n}"), &format!("evt-{n}"), endpoint_id, n)).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    let claimed = tx
        .claim_due_deliveries(Claim { now: at(100), lease_until: at(160), limit: 10 }, &["we-slow".to_owned()])
        .await
        .unwrap();
    assert_eq!(claimed.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["dl-2", "dl-4"], "the busy endpoint waits");
    tx.release_deliveries(&["dl-4".to_owned()]).await.unwrap();
    let again = tx.claim_due_deliveries(Claim { now: at(100), lease_until: at(160), limit: 10 }, &[]).await.unwrap();
    assert_eq!(again.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["dl-1", "dl-3", "dl-4"], "given back");
    let mut events = tx.events_by_ids(&["evt-3".to_owned(), "evt-1".to_owned(), "evt-9".to_owned()]).await.unwrap();
    events.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(
        events,
        [event("evt-1", "acc-a", "payment.succeeded", 1), event("evt-3", "acc-a", "payment.succeeded", 3)]
    );
    let endpoints = tx.webhook_endpoints_by_ids(&["we-fast".to_owned()]).await.unwrap();
    assert_eq!(endpoints, [endpoint("we-fast", "acc-a")]);
    assert!(tx.events_by_ids(&[]).await.unwrap().is_empty());

    // Outcomes are saved in one go: every changing column of every row.
    let mut delivered = claimed[0].clone();
    delivered.status = DeliveryStatus::Delivered;
    delivered.attempts = 1;
    delivered.delivered_at = Some(at(101));
    delivered.locked_until = None;
    let mut retried = again[0].clone();
    retried.attempts = 3;
    retried.next_attempt_at = at(400);
    retried.locked_until = None;
    tx.update_deliveries(&[delivered.clone(), retried.clone()]).await.unwrap();
    tx.update_deliveries(&[]).await.unwrap();
    assert_eq!(tx.delivery("dl-2").await.unwrap(), Some(delivered));
    assert_eq!(tx.delivery("dl-1").await.unwrap(), Some(retried));
    tx.commit().await.unwrap();
}

async fn committed_deliveries_wake_a_waiting_dispatcher_and_a_rollback_does_not(ctx: Ctx) {
    use std::time::Duration;
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.commit().await.unwrap();
    // A second store on the same database stands for another process.
    let other = connect(&ctx.url, &StoreOptions::default()).await.unwrap();
    // Waiting starts listening where the backend can; both do before anything is recorded.
    ctx.store.wait_for_deliveries(Duration::from_millis(50)).await;
    other.wait_for_deliveries(Duration::from_millis(50)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let here = waiting(ctx.store.clone(), Duration::from_secs(5));
    let there = waiting(other.clone(), Duration::from_secs(2));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_event(&event("evt-w", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.insert_delivery(&delivery("dl-w", "evt-w", "we-1", 0)).await.unwrap();
    tx.commit().await.unwrap();
    assert!(here.await.unwrap() < Duration::from_secs(2), "this process wakes at the commit");
    let there = there.await.unwrap();
    if ctx.url.starts_with("postgres") {
        assert!(there < Duration::from_secs(2), "another process on PostgreSQL wakes too (LISTEN/NOTIFY): {there:?}");
    }

    let quiet = waiting(ctx.store.clone(), Duration::from_millis(1500));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_event(&event("evt-r", "acc-a", "payment.succeeded", 0)).await.unwrap();
    tx.insert_delivery(&delivery("dl-r", "evt-r", "we-1", 0)).await.unwrap();
    tx.rollback().await.unwrap();
    assert!(quiet.await.unwrap() >= Duration::from_millis(1400), "nothing was recorded: no wake-up");
}

async fn a_delivery_per_event_and_endpoint_and_its_attempt_log(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    tx.insert_event(&event("evt-1", "acc-a", "webhook.test", 0)).await.unwrap();
    tx.insert_event(&event("evt-2", "acc-a", "payment.expired", 100)).await.unwrap();
    tx.insert_delivery(&delivery("dl-1", "evt-1", "we-1", 0)).await.unwrap();
    tx.insert_delivery(&delivery("dl-2", "evt-2", "we-1", 100)).await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = begin(&ctx.store).await;
    assert!(
        is_conflict(&tx.insert_delivery(&delivery("dl-9", "evt-1", "we-1", 0)).await),
        "one per event and endpoint"
    );
    drop(tx);

    let mut tx = begin(&ctx.store).await;
    let attempt = |n: u32, s: i64, code: Option<u16>| AttemptRecord {
        id: format!("att-{n}"),
        delivery_id: "dl-2".into(),
        attempt: n,
        attempted_at: at(s),
        status_code: code,
        duration_ms: 15_000,
        error: code.is_none().then(|| "timed out".to_owned()),
    };
    tx.insert_attempts(&[attempt(1, 100, None), attempt(2, 105, Some(503))]).await.unwrap();
    let mut failed = tx.delivery("dl-2").await.unwrap().unwrap();
    failed.status = DeliveryStatus::Failed;
    tx.update_delivery(&failed).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = begin(&ctx.store).await;
    let accepted = AttemptRecord { id: "att-9".into(), delivery_id: "dl-1".into(), ..attempt(1, 101, Some(200)) };
    tx.insert_attempts(std::slice::from_ref(&accepted)).await.unwrap();
    tx.commit().await.unwrap();

    let mut tx = ctx.store.read().await.unwrap();
    let filter = |failed_only: bool, event_type: Option<&str>, before: Option<&AttemptRecord>| AttemptFilter {
        failed_only,
        event_type: event_type.map(str::to_owned),
        before: before.map(|a| Cursor { at: a.attempted_at, id: a.id.clone() }),
        limit: 10,
    };
    let log = tx.endpoint_attempts("we-1", &filter(false, None, None)).await.unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(
        (log[0].attempt.clone(), log[0].event_type.as_str(), log[0].event_id.as_str()),
        (attempt(2, 105, Some(503)), "payment.expired", "evt-2"),
        "newest first"
    );
    assert_eq!((log[1].attempt.clone(), log[2].attempt.clone()), (accepted.clone(), attempt(1, 100, None)));
    let one = AttemptFilter { limit: 1, ..filter(false, None, None) };
    assert_eq!(tx.endpoint_attempts("we-1", &one).await.unwrap().len(), 1);
    let attempts = |log: Vec<AttemptLogEntry>| log.into_iter().map(|e| e.attempt.id).collect::<Vec<_>>();
    let failed_only = tx.endpoint_attempts("we-1", &filter(true, None, None)).await.unwrap();
    assert_eq!(attempts(failed_only), ["att-2", "att-1"], "no 2xx: error statuses and no response");
    let tests = tx.endpoint_attempts("we-1", &filter(false, Some("webhook.test"), None)).await.unwrap();
    assert_eq!(attempts(tests), ["att-9"]);
    let older = tx.endpoint_attempts("we-1", &filter(false, None, Some(&accepted))).await.unwrap();
    assert_eq!(attempts(older), ["att-1"], "strictly older than the cursor");
    let ids = |v: Vec<DeliveryRecord>| v.into_iter().map(|d| d.id).collect::<Vec<_>>();
    assert_eq!(ids(tx.endpoint_deliveries_since("we-1", DeliveryStatus::Failed, at(0)).await.unwrap()), ["dl-2"]);
    assert!(
        tx.endpoint_deliveries_since("we-1", DeliveryStatus::Failed, at(100)).await.unwrap().is_empty(),
        "strictly after"
    );
    assert_eq!(ids(tx.endpoint_deliveries_since("we-1", DeliveryStatus::Pending, at(-1)).await.unwrap()), ["dl-1"]);
    assert_eq!(tx.endpoint_event_times_since("we-1", "webhook.test", at(-1)).await.unwrap(), [at(0)]);
    assert!(tx.endpoint_event_times_since("we-1", "webhook.test", at(0)).await.unwrap().is_empty(), "strictly after");
    assert_eq!(tx.endpoint_event_times_since("we-1", "payment.expired", at(-1)).await.unwrap(), [at(100)]);
    tx.commit().await.unwrap();
}

async fn term_event_candidates_are_the_unreminded_and_the_ended(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    let day = 86_400;
    struct Row {
        name: &'static str,
        ends: i64,
        sent: (bool, bool), // (72 h, 24 h)
        status: SubscriptionStatus,
        lifetime: bool,
        trial: bool,
        blocked: bool,
    }
    let row =
        |name, ends, sent, status| Row { name, ends, sent, status, lifetime: false, trial: false, blocked: false };
    use SubscriptionStatus::{Active, Expired, Suspended};
    let rows = [
        row("far", 10 * day, (false, false), Active),
        row("soon", 2 * day, (false, false), Active),
        row("reminded", 10 * 3600, (true, true), Active),
        row("reminded-72", 2 * day, (true, false), Active),
        row("ended", -60, (true, true), Active),
        row("ended-2", -60, (false, false), Active),
        row("already-expired", -day, (false, false), Expired),
        row("suspended", 3600, (false, false), Suspended),
        row("suspended-ended", -30, (false, false), Suspended),
        Row { lifetime: true, ..row("lifetime", 3600, (false, false), Active) },
        Row { trial: true, ..row("trial-2d", 2 * day, (false, false), Active) },
        Row { trial: true, ..row("trial-10h", 10 * 3600, (false, false), Active) },
        Row { blocked: true, ..row("blocked", 3600, (false, false), Active) },
        Row { blocked: true, ..row("blocked-ended", -10, (true, true), Active) },
    ];
    for r in rows {
        let id = format!("c-{}", r.name);
        let mut c = client(&id, "acc-a", r.name, T0);
        c.blocked = r.blocked;
        tx.insert_client(&c).await.unwrap();
        let mut sub = subscription(r.status, &format!("tok-{}", r.name));
        sub.subscription.expires_at = at(r.ends);
        (sub.subscription.reminders.sent_72, sub.subscription.reminders.sent_24) = r.sent;
        sub.subscription.lifetime = r.lifetime;
        sub.subscription.is_trial = r.trial;
        tx.save_subscription(&id, &sub).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut tx = ctx.store.read().await.unwrap();
    let names =
        |v: Vec<TermCandidate>| v.into_iter().map(|c| c.client.client_id.as_str().to_owned()).collect::<Vec<_>>();
    let all = tx.term_event_candidates(T0, None, 20).await.unwrap();
    assert_eq!(
        names(all.clone()),
        ["ended-2", "soon", "trial-10h", "ended", "suspended-ended", "blocked-ended"],
        "ordered by the moment something may be due (the next window, else the end); a term \
         reminded for its window, a suspended or blocked one still running, a trial before its \
         24 and a lifetime are not read"
    );
    assert_eq!(all[1].check_at, at(2 * day - 3 * day), "the 72-hour window of a term ending in 2 days");
    assert_eq!(all[3].check_at, at(-60), "a reminded term is read again at its end");
    let page = tx.term_event_candidates(T0, None, 1).await.unwrap();
    let cursor = Cursor { at: page[0].check_at, id: page[0].client.id.clone() };
    assert_eq!(
        names(tx.term_event_candidates(T0, Some(cursor), 20).await.unwrap()),
        ["soon", "trial-10h", "ended", "suspended-ended", "blocked-ended"]
    );
    tx.commit().await.unwrap();

    // Saving a change moves the moment: the 72 sent, the term is read again in its last day.
    let mut tx = begin(&ctx.store).await;
    let mut some = tx.clients_by_refs(&["c-soon".into(), "c-far".into(), "c-nobody".into()]).await.unwrap();
    some.sort_by(|a, b| a.id.cmp(&b.id));
    let ids: Vec<&str> = some.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c-far", "c-soon"], "several clients at once, those that exist");
    assert!(some.iter().all(|c| c.subscription.is_some()), "with their subscriptions");
    let mut soon = tx.client_by_ref("c-soon").await.unwrap().unwrap().subscription.unwrap();
    soon.subscription.reminders.sent_72 = true;
    tx.save_subscription("c-soon", &soon).await.unwrap();
    assert!(!names(tx.term_event_candidates(T0, None, 20).await.unwrap()).contains(&"soon".to_owned()));
    assert!(names(tx.term_event_candidates(at(day), None, 20).await.unwrap()).contains(&"soon".to_owned()));
    tx.commit().await.unwrap();
}

async fn the_delivery_backlog_counts_pending_ones_and_dates_the_longest_waiting_due_one(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    assert_eq!(ctx.store.delivery_backlog(at(0)).await.unwrap(), DeliveryBacklog::default(), "nothing to deliver");
    let mut tx = begin(&ctx.store).await;
    tx.insert_webhook_endpoint(&endpoint("we-1", "acc-a")).await.unwrap();
    for (n, due) in [(1, 10), (2, 5), (3, 500), (4, 1)] {
        tx.insert_event(&event(&format!("evt-{n}"), "acc-a", "payment.succeeded", 0)).await.unwrap();
        tx.insert_delivery(&delivery(&format!("dl-{n}"), &format!("evt-{n}"), "we-1", due)).await.unwrap();
    }
    let mut done = delivery("dl-4", "evt-4", "we-1", 1);
    done.status = DeliveryStatus::Delivered;
    done.delivered_at = Some(at(2));
    tx.update_delivery(&done).await.unwrap();
    tx.commit().await.unwrap();
    let backlog = ctx.store.delivery_backlog(at(20)).await.unwrap();
    assert_eq!(
        backlog,
        DeliveryBacklog { pending: 3, oldest_due_at: Some(at(5)) },
        "a retry due later counts as pending"
    );
    let early = ctx.store.delivery_backlog(at(3)).await.unwrap();
    assert_eq!(early, DeliveryBacklog { pending: 3, oldest_due_at: None }, "none is due yet");
}

async fn the_pool_reports_its_size_and_use(ctx: Ctx) {
    let idle = ctx.store.pool_state();
    assert_eq!((idle.in_use, idle.waiting), (0, 0));
    assert!(idle.max >= 1 && idle.open <= idle.max, "{idle:?}");
    let tx = ctx.store.read().await.unwrap();
    let busy = ctx.store.pool_state();
    assert_eq!(busy.in_use, 1, "{busy:?}");
    tx.commit().await.unwrap();
    assert_eq!(ctx.store.pool_state().in_use, 0);
}

fn new_clients(limit: u32) -> DailyLimit {
    DailyLimit { quota: DailyQuota::NewClients, since: at(-3600), limit }
}

async fn opening_an_invoice_records_a_new_key_and_reads_the_client(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await; // alice, created at T0
    let key = idem("acc-a", "k-1", RecoveryPoint::Started, Some(at(60)));
    let opening = InvoiceOpening { key: &key, client_id: &cid("alice"), new_clients: &new_clients(500) };
    let opened = ctx.store.open_invoice(opening).await.unwrap();
    assert_eq!(opened.existing_key, None, "a new key is recorded");
    assert_eq!(opened.client.map(|c| c.id), Some("acc-a-c1".to_owned()));
    assert_eq!(opened.new_clients_bound, 1, "alice counts in the window");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "k-1").await.unwrap(), Some(key.clone()));
    tx.commit().await.unwrap();

    let key2 = idem("acc-a", "k-2", RecoveryPoint::Started, Some(at(60)));
    let opening = InvoiceOpening { key: &key2, client_id: &cid("bob"), new_clients: &new_clients(500) };
    let opened = ctx.store.open_invoice(opening).await.unwrap();
    assert_eq!((opened.existing_key, opened.client), (None, None), "bob is not a client yet");
}

async fn opening_an_invoice_with_a_known_key_writes_nothing(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    let first = idem("acc-a", "k-1", RecoveryPoint::Started, Some(at(60)));
    let mut tx = begin(&ctx.store).await;
    tx.insert_idempotency_key(&first).await.unwrap();
    tx.commit().await.unwrap();
    let other = IdempotencyRecord { request_fingerprint: "other fields".into(), ..first.clone() };
    let opening = InvoiceOpening { key: &other, client_id: &cid("alice"), new_clients: &new_clients(500) };
    let opened = ctx.store.open_invoice(opening).await.unwrap();
    assert_eq!(opened.existing_key, Some(first.clone()), "the key as first recorded");
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "k-1").await.unwrap(), Some(first));
    tx.commit().await.unwrap();
}

/// The recording of a new invoice for a new client `client_ref` / `client_id`.
fn recording(key: &str, client_ref: &str, client_id: &str, limit: u32) -> InvoiceWrite {
    recording_of("acc-a", key, client_ref, client_id, limit)
}

fn recording_of(account: &str, key: &str, client_ref: &str, client_id: &str, limit: u32) -> InvoiceWrite {
    let started = idem(account, key, RecoveryPoint::Started, Some(at(60)));
    let mut inv = invoice(&started.payment_id, account, client_ref, Purpose::Subscription { plan_id: 1 });
    inv.client_id = cid(client_id);
    InvoiceWrite {
        invoice: inv,
        new_client: Some((client(client_ref, account, client_id, at(5)), new_clients(limit))),
        key: IdempotencyRecord { recovery_point: RecoveryPoint::Finished, locked_until: None, ..started },
        gateway_check_at: Some(at(600)),
    }
}

async fn open_key(store: &Arc<dyn Store>, key: &str) {
    open_key_of(store, "acc-a", key).await;
}

async fn open_key_of(store: &Arc<dyn Store>, account: &str, key: &str) {
    let mut tx = begin(store).await;
    tx.insert_idempotency_key(&idem(account, key, RecoveryPoint::Started, Some(at(60)))).await.unwrap();
    tx.commit().await.unwrap();
}

async fn recording_an_invoice_writes_the_client_the_invoice_and_the_finished_key_together(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    open_key(&ctx.store, "k-1").await;
    let write = recording("k-1", "c-bob", "bob", 500);
    assert_eq!(ctx.store.record_invoice(&write).await.unwrap(), InvoiceRecorded::Recorded);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.client("acc-a", &cid("bob")).await.unwrap().map(|c| c.id), Some("c-bob".to_owned()));
    assert_eq!(tx.invoice("acc-a", "pay-k-1").await.unwrap(), Some(write.invoice.clone()));
    assert_eq!(tx.idempotency_key("acc-a", "k-1").await.unwrap(), Some(write.key.clone()));
    let nc = DailyQuota::NewClients;
    assert!(!below(&mut tx, "acc-a", nc, at(-1), 2).await, "alice and bob count");
    let due =
        tx.claim_gateway_checks(Claim { now: at(600), lease_until: at(700), limit: 10 }, at(-7200)).await.unwrap();
    assert_eq!(due.iter().map(|c| c.invoice.payment_id.as_str()).collect::<Vec<_>>(), ["pay-k-1"], "check scheduled");
    tx.rollback().await.unwrap();

    // An existing client: the invoice and the key only.
    open_key(&ctx.store, "k-2").await;
    let mut again = recording("k-2", "c-bob", "bob", 500);
    again.new_client = None;
    again.gateway_check_at = None;
    assert_eq!(ctx.store.record_invoice(&again).await.unwrap(), InvoiceRecorded::Recorded);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.invoice("acc-a", "pay-k-2").await.unwrap().map(|i| i.client_ref), Some("c-bob".to_owned()));
    assert!(below(&mut tx, "acc-a", nc, at(-1), 3).await, "no client was added");
    tx.commit().await.unwrap();
}

async fn recording_an_invoice_for_a_client_created_meanwhile_or_twice_writes_nothing(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await;
    open_key(&ctx.store, "k-1").await;
    // Alice exists (as acc-a-c1): a new client "alice" is refused, and nothing is written.
    let write = recording("k-1", "c-alice-2", "alice", 500);
    assert_eq!(ctx.store.record_invoice(&write).await.unwrap(), InvoiceRecorded::ClientExists);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.invoice_by_id("pay-k-1").await.unwrap(), None);
    assert_eq!(
        tx.idempotency_key("acc-a", "k-1").await.unwrap().map(|k| k.recovery_point),
        Some(RecoveryPoint::Started)
    );
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 2).await, "not counted");
    tx.commit().await.unwrap();

    let fresh = recording("k-1", "c-bob", "bob", 500);
    assert_eq!(ctx.store.record_invoice(&fresh).await.unwrap(), InvoiceRecorded::Recorded);
    let twice = InvoiceWrite { new_client: None, ..recording("k-1", "acc-a-c1", "alice", 500) };
    assert_eq!(ctx.store.record_invoice(&twice).await.unwrap(), InvoiceRecorded::AlreadyRecorded);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.invoice_by_id("pay-k-1").await.unwrap().map(|i| i.client_ref), Some("c-bob".to_owned()));
    tx.commit().await.unwrap();
}

async fn recording_a_new_client_past_the_daily_limit_writes_nothing(ctx: Ctx) {
    seed(&ctx.store, "acc-a").await; // alice fills a limit of 1
    open_key(&ctx.store, "k-1").await;
    let write = recording("k-1", "c-bob", "bob", 1);
    assert_eq!(ctx.store.record_invoice(&write).await.unwrap(), InvoiceRecorded::DailyLimitReached);
    let mut tx = begin(&ctx.store).await;
    assert_eq!(tx.client("acc-a", &cid("bob")).await.unwrap(), None);
    assert_eq!(tx.invoice_by_id("pay-k-1").await.unwrap(), None);
    tx.commit().await.unwrap();
    assert_eq!(
        ctx.store.record_invoice(&recording("k-1", "c-bob", "bob", 2)).await.unwrap(),
        InvoiceRecorded::Recorded
    );
}

async fn invoices_recorded_at_once_keep_their_own_outcomes(ctx: Ctx) {
    // Recorded together (on SQLite, in one commit of the group writer), a refused one writes
    // nothing and undoes nothing of the others. Of 45 invoices, 15 ask for a new client named
    // like alice, who exists; 15 were recorded before, so their new client (written before the
    // invoice is refused) must be undone; 15 are new.
    seed(&ctx.store, "acc-a").await;
    for i in (1..45).step_by(3) {
        let key = format!("both-{i}");
        open_key(&ctx.store, &key).await;
        let first = recording(&key, &format!("c-first-{i}"), &format!("first-{i}"), 500);
        assert_eq!(ctx.store.record_invoice(&first).await.unwrap(), InvoiceRecorded::Recorded);
    }
    let mut tasks = Vec::new();
    for i in 0..45 {
        let store = ctx.store.clone();
        let key = format!("both-{i}");
        let name = if i % 3 == 0 { "alice".to_owned() } else { format!("fresh-{i}") };
        tasks.push(tokio::spawn(async move {
            if i % 3 != 1 {
                open_key(&store, &key).await;
            }
            (i, store.record_invoice(&recording(&key, &format!("c-both-{i}"), &name, 500)).await.unwrap())
        }));
    }
    let want = |i: usize| match i % 3 {
        0 => InvoiceRecorded::ClientExists,
        1 => InvoiceRecorded::AlreadyRecorded,
        _ => InvoiceRecorded::Recorded,
    };
    for t in tasks {
        let (i, outcome) = t.await.unwrap();
        assert_eq!(outcome, want(i), "invoice {i}");
    }
    let mut tx = begin(&ctx.store).await;
    for i in 0..45 {
        let invoice = tx.invoice_by_id(&format!("pay-both-{i}")).await.unwrap().map(|inv| inv.client_ref);
        let point = tx.idempotency_key("acc-a", &format!("both-{i}")).await.unwrap().map(|k| k.recovery_point);
        let fresh = tx.client("acc-a", &cid(&format!("fresh-{i}"))).await.unwrap().map(|c| c.id);
        match want(i) {
            InvoiceRecorded::ClientExists => {
                assert_eq!((invoice, point), (None, Some(RecoveryPoint::Started)), "invoice {i} refused");
            }
            InvoiceRecorded::AlreadyRecorded => {
                assert_eq!(invoice, Some(format!("c-first-{i}")), "invoice {i} as first recorded");
                assert_eq!(fresh, None, "the second new client of invoice {i} was undone");
            }
            _ => {
                assert_eq!((invoice, point), (Some(format!("c-both-{i}")), Some(RecoveryPoint::Finished)));
                assert_eq!(fresh, Some(format!("c-both-{i}")));
            }
        }
    }
    // alice, 15 first clients and 15 fresh ones are counted; nothing of the refused ones.
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 32).await);
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-1), 31).await);
    tx.commit().await.unwrap();
}

async fn openings_of_one_key_at_once_record_it_once(ctx: Ctx) {
    // Twelve requests with one key, among twelve with keys of their own, all at once (on
    // PostgreSQL several share a group's transaction): the key is recorded once, as the one
    // request that got no existing key sent it, and every other request of it gets that record.
    seed(&ctx.store, "acc-a").await;
    let mut tasks = Vec::new();
    for i in 0..24 {
        let store = ctx.store.clone();
        tasks.push(tokio::spawn(async move {
            let key_name = if i % 2 == 0 { "k-same".to_owned() } else { format!("k-own-{i}") };
            let key = IdempotencyRecord {
                request_fingerprint: format!("request {i}"),
                ..idem("acc-a", &key_name, RecoveryPoint::Started, Some(at(60)))
            };
            let opening = InvoiceOpening { key: &key, client_id: &cid("alice"), new_clients: &new_clients(500) };
            let opened = store.open_invoice(opening).await.unwrap();
            assert_eq!(opened.client.map(|c| c.id), Some("acc-a-c1".to_owned()), "request {i} reads alice");
            (i, key, opened.existing_key)
        }));
    }
    let mut first = Vec::new();
    let mut others = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            (i, key, None) => first.push((i, key)),
            (i, _, Some(existing)) => others.push((i, existing)),
        }
    }
    let same: Vec<_> = first.iter().filter(|(i, _)| i % 2 == 0).collect();
    assert_eq!(same.len(), 1, "one request recorded the shared key: {first:?}");
    assert_eq!(first.len(), 13, "and each own key was recorded by its request");
    let recorded = &same[0].1;
    assert_eq!(others.len(), 11);
    for (i, existing) in &others {
        assert_eq!(existing, recorded, "request {i} sees the key as first recorded");
    }
    let mut tx = ctx.store.read().await.unwrap();
    assert_eq!(tx.idempotency_key("acc-a", "k-same").await.unwrap().as_ref(), Some(recorded));
    tx.commit().await.unwrap();
}

async fn new_clients_of_two_accounts_at_once_fill_each_accounts_places_exactly(ctx: Ctx) {
    // acc-a has 20 places a day and acc-b 30 (alice takes one of each); 60 new clients of
    // each race, in groups that mix the two accounts.
    seed(&ctx.store, "acc-a").await;
    seed(&ctx.store, "acc-b").await;
    let mut tasks = Vec::new();
    for i in 0..120 {
        let store = ctx.store.clone();
        let (account, limit) = if i % 2 == 0 { ("acc-a", 20) } else { ("acc-b", 30) };
        tasks.push(tokio::spawn(async move {
            let key = format!("{account}-race-{i}");
            open_key_of(&store, account, &key).await;
            let write = recording_of(account, &key, &format!("c-{key}"), &format!("racer-{i}"), limit);
            (account, store.record_invoice(&write).await.unwrap())
        }));
    }
    let mut recorded = std::collections::BTreeMap::<&str, u32>::new();
    for t in tasks {
        match t.await.unwrap() {
            (account, InvoiceRecorded::Recorded) => *recorded.entry(account).or_default() += 1,
            (_, InvoiceRecorded::DailyLimitReached) => {}
            (_, other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(recorded.get("acc-a"), Some(&19), "acc-a's places that were left");
    assert_eq!(recorded.get("acc-b"), Some(&29), "acc-b's places that were left");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 20).await);
    assert!(!below(&mut tx, "acc-b", DailyQuota::NewClients, at(-3600), 30).await);
    tx.commit().await.unwrap();
}

async fn new_clients_far_below_a_raised_limit_are_all_recorded_and_counted(ctx: Ctx) {
    // A raised limit (on PostgreSQL far above the margin, so groups take the shared lock):
    // 150 new clients at once are all recorded, and each is counted once.
    seed(&ctx.store, "acc-a").await;
    let mut tasks = Vec::new();
    for i in 0..150 {
        let store = ctx.store.clone();
        tasks.push(tokio::spawn(async move {
            let key = format!("raised-{i}");
            open_key(&store, &key).await;
            store.record_invoice(&recording(&key, &format!("c-raised-{i}"), &format!("raised-{i}"), 1_000_000)).await
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap(), InvoiceRecorded::Recorded);
    }
    let mut tx = begin(&ctx.store).await;
    assert!(below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 152).await, "alice and 150");
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 151).await, "alice and 150");
    tx.commit().await.unwrap();
}

async fn racing_new_clients_never_pass_the_daily_limit(ctx: Ctx) {
    // 150 places left (alice and 49 more of 200); 200 new clients race for them. On PostgreSQL
    // a limit of 200 is within the margin (max_connections x a group's most clients), so every
    // group takes the exclusive lock and counts exactly; the shared path is raced by
    // new_clients_far_below_a_raised_limit_are_all_recorded_and_counted.
    seed(&ctx.store, "acc-a").await;
    let mut tx = begin(&ctx.store).await;
    for i in 0..49 {
        tx.insert_client(&client(&format!("pre-{i}"), "acc-a", &format!("pre-{i}"), at(1))).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..200 {
        let store = ctx.store.clone();
        tasks.push(tokio::spawn(async move {
            open_key(&store, &format!("race-{i}")).await;
            store
                .record_invoice(&recording(&format!("race-{i}"), &format!("c-race-{i}"), &format!("racer-{i}"), 200))
                .await
        }));
    }
    let mut recorded = 0;
    for t in tasks {
        match t.await.unwrap().unwrap() {
            InvoiceRecorded::Recorded => recorded += 1,
            InvoiceRecorded::DailyLimitReached => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(recorded, 150, "exactly the places that were left");
    let mut tx = begin(&ctx.store).await;
    assert!(!below(&mut tx, "acc-a", DailyQuota::NewClients, at(-3600), 200).await);
    tx.commit().await.unwrap();
}
