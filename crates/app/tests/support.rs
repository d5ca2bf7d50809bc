//! The use cases on a real SQLite store with a hand-moved clock and in-memory stand-ins for the
//! gateway and the panel that can be told to fail.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};
use vp_app::secrets::SecretKeys;
use vp_app::system::SystemIds;
use vp_app::{Adapters, Services, Settings};
use vp_domain::AccountId;
use vp_domain::{GatewayName, GatewayState, Money};
use vp_ports::store::StoreResult;
use vp_ports::*;

pub struct ManualClock(Mutex<OffsetDateTime>);

impl ManualClock {
    pub fn now_for_test(&self) -> OffsetDateTime {
        *self.0.lock().unwrap()
    }

    pub fn advance(&self, d: Duration) {
        *self.0.lock().unwrap() += d;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap()
    }
}

/// The real store, with the units of work that may write counted as the services start them.
pub struct CountedStore {
    inner: Arc<dyn Store>,
    /// Units of work that may write (`begin`, `begin_async_commit`, `begin_with_invoice`,
    /// `open_invoice`, `record_invoice`) started so far.
    pub writing_units: AtomicU32,
}

impl CountedStore {
    fn count(&self) {
        self.writing_units.fetch_add(1, Ordering::SeqCst);
    }

    pub fn writing_units(&self) -> u32 {
        self.writing_units.load(Ordering::SeqCst)
    }
}

#[async_trait]
impl Store for CountedStore {
    async fn begin(&self) -> StoreResult<Box<dyn Tx>> {
        self.count();
        self.inner.begin().await
    }
    async fn read(&self) -> StoreResult<Box<dyn Tx>> {
        self.inner.read().await
    }
    async fn begin_async_commit(&self) -> StoreResult<Box<dyn Tx>> {
        self.count();
        self.inner.begin_async_commit().await
    }
    async fn begin_with_invoice(&self, payment_id: &str) -> StoreResult<(Box<dyn Tx>, Option<InvoiceRecord>)> {
        self.count();
        self.inner.begin_with_invoice(payment_id).await
    }
    async fn account_by_key_hash(&self, key_hash: &str) -> StoreResult<Option<(ApiKeyRecord, AccountRecord)>> {
        self.inner.account_by_key_hash(key_hash).await
    }
    async fn ping(&self) -> StoreResult<()> {
        self.inner.ping().await
    }
    async fn wait_for_deliveries(&self, max: std::time::Duration) {
        self.inner.wait_for_deliveries(max).await;
    }
    async fn open_invoice(&self, opening: InvoiceOpening<'_>) -> StoreResult<OpenedInvoice> {
        self.count();
        self.inner.open_invoice(opening).await
    }
    async fn record_invoice(&self, write: &InvoiceWrite) -> StoreResult<InvoiceRecorded> {
        self.count();
        self.inner.record_invoice(write).await
    }
    async fn delivery_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog> {
        self.inner.delivery_backlog(now).await
    }
    async fn mail_backlog(&self, now: OffsetDateTime) -> StoreResult<DeliveryBacklog> {
        self.inner.mail_backlog(now).await
    }
    fn pool_state(&self) -> PoolState {
        self.inner.pool_state()
    }
    async fn scrub_overwritten(&self) -> StoreResult<()> {
        self.inner.scrub_overwritten().await
    }
    async fn backup_to(&self, path: &str) -> StoreResult<()> {
        self.inner.backup_to(path).await
    }
    async fn release_leases(&self) -> StoreResult<u64> {
        self.inner.release_leases().await
    }
}

#[derive(Default)]
pub struct FakeGateway {
    pub down: AtomicBool,
    pub calls: AtomicU32,
    pub keys: Mutex<Vec<String>>,
    /// Every create request, in order.
    pub requests: Mutex<Vec<GatewayPaymentRequest>>,
    /// What the gateway says about each payment (by gateway payment id); pending when absent.
    pub states: Mutex<HashMap<String, GatewayState>>,
    /// The next create fails with this.
    pub fail_next: Mutex<Option<GatewayError>>,
    /// A gateway whose outcomes can be lost, so pending invoices are reconciled.
    pub reconciling: AtomicBool,
    /// Every charge of a saved method, in order, the repeated ones (same key) too.
    pub saved_charges: Mutex<Vec<SavedMethodCharge>>,
    /// Charges of saved methods are declined.
    pub decline_saved: AtomicBool,
}

impl FakeGateway {
    fn answer(&self) -> Result<(), GatewayError> {
        if self.down.load(Ordering::SeqCst) { Err(GatewayError::Unavailable("down".into())) } else { Ok(()) }
    }

    pub fn set_state(&self, payment_id: &str, state: GatewayState) {
        self.states.lock().unwrap().insert(format!("gw_{payment_id}"), state);
    }
}

#[async_trait]
impl PaymentGateway for FakeGateway {
    fn name(&self) -> GatewayName {
        GatewayName::Sandbox
    }

    async fn create_payment(&self, r: &GatewayPaymentRequest) -> Result<GatewayPayment, GatewayError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.answer()?;
        self.requests.lock().unwrap().push(r.clone());
        if let Some(e) = self.fail_next.lock().unwrap().take() {
            return Err(e);
        }
        self.keys.lock().unwrap().push(r.idempotency_key.clone());
        Ok(GatewayPayment {
            gateway_payment_id: format!("gw_{}", r.idempotency_key),
            payment_url: format!("https://pay.example/{}", r.idempotency_key),
        })
    }

    async fn payment_state(&self, gateway_payment_id: &str) -> Result<GatewayState, GatewayError> {
        self.answer()?;
        Ok(self.states.lock().unwrap().get(gateway_payment_id).copied().unwrap_or(GatewayState::Pending))
    }

    async fn refund(
        &self,
        gateway_payment_id: &str,
        _: Money,
        _: &str,
        _: Option<&vp_domain::receipt::Receipt>,
    ) -> Result<RefundState, GatewayError> {
        self.answer()?;
        self.states.lock().unwrap().insert(gateway_payment_id.to_owned(), GatewayState::Refunded);
        Ok(RefundState::Succeeded)
    }

    fn refunds(&self) -> bool {
        true
    }

    fn reconciles(&self) -> bool {
        self.reconciling.load(Ordering::SeqCst)
    }

    fn saves_methods(&self) -> bool {
        true
    }

    async fn saved_method(&self, gateway_payment_id: &str) -> Result<Option<SavedMethod>, GatewayError> {
        self.answer()?;
        Ok(Some(SavedMethod { id: format!("pm_{gateway_payment_id}"), title: "Bank card *4444".into() }))
    }

    /// Idempotent like a real gateway: the same key gets the first answer's payment.
    async fn charge_saved_method(&self, charge: &SavedMethodCharge) -> Result<SavedMethodPayment, GatewayError> {
        self.answer()?;
        self.saved_charges.lock().unwrap().push(charge.clone());
        let id = format!("gw_{}", charge.idempotency_key);
        let mut states = self.states.lock().unwrap();
        let declined = self.decline_saved.load(Ordering::SeqCst);
        let state = *states.entry(id.clone()).or_insert(if declined {
            GatewayState::Declined
        } else {
            GatewayState::Succeeded
        });
        Ok(SavedMethodPayment { gateway_payment_id: id, state })
    }

    async fn check(&self) -> Result<GatewayInfo, GatewayError> {
        self.answer()?;
        Ok(GatewayInfo {
            gateway: GatewayName::Sandbox,
            address: "memory".into(),
            account: None,
            test: Some(true),
            enabled: Some(true),
            methods: vec![],
        })
    }
}

#[derive(Default)]
pub struct FakePanel {
    pub down: AtomicBool,
    /// Answers every call with a refusal (a 4xx of a real panel).
    pub refuse: AtomicBool,
    pub users: Mutex<HashMap<String, PanelUser>>,
    pub devices: Mutex<HashMap<String, Vec<PanelDevice>>>,
    /// How many users each `put_users` call carried, in order.
    pub batches: Mutex<Vec<usize>>,
    /// Held by a test, keeps every `put_users` call waiting.
    pub gate: tokio::sync::Mutex<()>,
}

impl FakePanel {
    fn answer(&self) -> Result<(), PanelError> {
        if self.down.load(Ordering::SeqCst) {
            return Err(PanelError::Unavailable("down".into()));
        }
        if self.refuse.load(Ordering::SeqCst) {
            return Err(PanelError::Rejected("400 refused".into()));
        }
        Ok(())
    }

    pub fn user(&self, user_ref: &str) -> Option<PanelUser> {
        self.users.lock().unwrap().get(user_ref).cloned()
    }
}

#[async_trait]
impl VpnPanel for FakePanel {
    async fn put_user(&self, user: &PanelUser) -> Result<(), PanelError> {
        self.answer()?;
        self.users.lock().unwrap().insert(user.user_ref.clone(), user.clone());
        Ok(())
    }
    async fn put_users(&self, users: &[PanelUser]) -> Vec<Result<(), PanelError>> {
        self.batches.lock().unwrap().push(users.len());
        let _open = self.gate.lock().await;
        let mut results = vec![];
        for user in users {
            results.push(self.put_user(user).await);
        }
        results
    }
    async fn devices(&self, user_ref: &str) -> Result<Vec<PanelDevice>, PanelError> {
        self.answer()?;
        Ok(self.devices.lock().unwrap().get(user_ref).cloned().unwrap_or_default())
    }
    async fn delete_device(&self, user_ref: &str, hwid: &str) -> Result<bool, PanelError> {
        self.answer()?;
        let mut all = self.devices.lock().unwrap();
        let list = all.entry(user_ref.to_owned()).or_default();
        let before = list.len();
        list.retain(|d| d.hwid != hwid);
        Ok(list.len() < before)
    }
    fn subscription_url(&self, token: &str) -> String {
        format!("https://sub.example/{token}")
    }
    /// The fake counts no traffic: a user it holds used none.
    async fn traffic_used(&self, user_ref: &str) -> Result<Option<vp_ports::TrafficCount>, PanelError> {
        self.answer()?;
        let at = time::OffsetDateTime::UNIX_EPOCH;
        Ok(self.user(user_ref).map(|_| vp_ports::TrafficCount { used: 0, since: at }))
    }
    async fn drift(&self, user: &PanelUser) -> Result<Vec<PanelDrift>, PanelError> {
        self.answer()?;
        Ok(match self.user(&user.user_ref) {
            Some(held) if held == *user => vec![],
            Some(held) => vec![PanelDrift::new("user", format!("{user:?}"), format!("{held:?}"))],
            None => vec![PanelDrift::missing_user()],
        })
    }
    async fn check(&self) -> Result<PanelInfo, PanelError> {
        self.answer()?;
        Ok(PanelInfo { kind: "fake", address: "memory".into(), version: None })
    }
}

/// A sent webhook as the receiver saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub url: String,
    pub webhook_id: String,
    pub body: String,
    pub secrets: Vec<String>,
}

/// Receives webhooks in memory; answers with the queued responses, then 200.
#[derive(Default)]
pub struct FakeWebhooks {
    pub received: Mutex<Vec<Received>>,
    pub answers: Mutex<Vec<WebhookResponse>>,
}

impl FakeWebhooks {
    pub fn answer(&self, status: Option<u16>, retry_after: Option<Duration>) {
        self.answers.lock().unwrap().push(WebhookResponse {
            status_code: status,
            retry_after,
            duration: Duration::milliseconds(12),
            error: None,
        });
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

#[async_trait]
impl WebhookSender for FakeWebhooks {
    async fn vet(&self, url: &str) -> Result<(), AddressRefused> {
        if url.starts_with("https://") { Ok(()) } else { Err(AddressRefused::NotHttps) }
    }
    async fn send(&self, w: &OutgoingWebhook<'_>) -> WebhookResponse {
        self.received.lock().unwrap().push(Received {
            url: w.url.to_owned(),
            webhook_id: w.webhook_id.to_owned(),
            body: w.body.to_owned(),
            secrets: w.secrets.iter().map(|s| (*s).to_owned()).collect(),
        });
        let mut answers = self.answers.lock().unwrap();
        if answers.is_empty() {
            WebhookResponse {
                status_code: Some(200),
                retry_after: None,
                duration: Duration::milliseconds(5),
                error: None,
            }
        } else {
            answers.remove(0)
        }
    }
}

/// Renders the fields the tests look at.
pub struct TestShapes;

impl vp_app::events::EventRenderer for TestShapes {
    fn payment(&self, v: vp_app::views::InvoiceView) -> serde_json::Value {
        serde_json::json!({
            "payment_id": v.invoice.payment_id,
            "status": format!("{:?}", v.invoice.status).to_lowercase(),
            "client": v.client.map(|c| c.client_id),
        })
    }
    fn client(&self, v: vp_app::views::ClientView) -> serde_json::Value {
        serde_json::json!({
            "client_id": v.client_id,
            "status": v.subscription.map(|s| format!("{:?}", s.status).to_lowercase()),
        })
    }
}

/// A webhook as set: its URL and secret.
pub type Webhook = (String, String);

/// A partner's own bot (`@demo_vpn_bot`), known to the fake Telegram once connected.
pub const PARTNER_BOT_TOKEN: &str = "5550001:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs";
pub const PARTNER_BOT_ID: i64 = 5550001;

/// The notice bot's token in every world (`@test_bot`).
pub const PLATFORM_BOT_TOKEN: &str = "4242:AAHplatform_0123456789abcdefghijklmnop";

/// An in-memory Telegram: `getMe` by token (a token not listed is refused, as a revoked one;
/// `unavailable` makes every call fail as if Telegram did not answer), the messages sent and
/// updates waiting by token, and sends failing on request.
#[derive(Default)]
pub struct FakeBots {
    pub known: Mutex<Vec<(String, BotIdentity)>>,
    pub unavailable: AtomicBool,
    /// Profiles set, by token, in order.
    pub profiles: Mutex<Vec<(String, BotProfile)>>,
    /// The next `set_profile` is answered with this wait.
    pub throttle_next: Mutex<Option<std::time::Duration>>,
    /// Messages sent, by token, in order.
    pub sent: Mutex<Vec<(String, BotMessage)>>,
    /// Updates not yet confirmed, by token.
    pub updates: Mutex<Vec<(String, BotUpdate)>>,
    /// Sends still to fail, with what (the last first).
    pub send_failures: Mutex<Vec<BotApiError>>,
    /// Webhooks set (`Some((url, secret))`) or deleted (`None`), by token, in order.
    pub webhooks: Mutex<Vec<(String, Option<Webhook>)>>,
    /// Stars calls, in order: `answer <query> <refusal|ok>`, `refund <user> <charge>`,
    /// `cancel <user> <charge>`.
    pub stars_calls: Mutex<Vec<String>>,
    next_update: AtomicI64,
}

impl FakeBots {
    pub fn add(&self, token: &str, bot_id: i64, username: &str) {
        self.known
            .lock()
            .unwrap()
            .push((token.to_owned(), BotIdentity { bot_id, username: username.to_owned(), can_manage_bots: false }));
    }

    /// Someone wrote `text` to the bot of `token` in `chat_id`.
    pub fn said(&self, token: &str, chat_id: i64, text: &str) -> BotUpdate {
        let update_id = 100 + self.next_update.fetch_add(1, Ordering::Relaxed);
        let said = ChatText { chat_id, user_id: chat_id, language: None, text: text.to_owned() };
        let update = BotUpdate { message: Some(said), ..BotUpdate::numbered(update_id) };
        self.updates.lock().unwrap().push((token.to_owned(), update.clone()));
        update
    }

    /// Someone opened the notice bot's chat link in `chat_id`.
    pub fn start(&self, chat_id: i64, code: &str) -> BotUpdate {
        self.said(PLATFORM_BOT_TOKEN, chat_id, &format!("/start {code}"))
    }

    /// The texts the notice bot sent: chat and text.
    pub fn platform_sent(&self) -> Vec<(i64, String)> {
        let sent = self.sent.lock().unwrap();
        sent.iter().filter(|(t, _)| t == PLATFORM_BOT_TOKEN).map(|(_, m)| (m.chat_id, m.text.clone())).collect()
    }
}

#[async_trait]
impl BotApi for FakeBots {
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError> {
        if self.unavailable.load(Ordering::Relaxed) {
            return Err(BotApiError::Unavailable("no answer".into()));
        }
        let known = self.known.lock().unwrap();
        known.iter().find(|(t, _)| t == token).map(|(_, who)| who.clone()).ok_or(BotApiError::Rejected)
    }

    async fn set_profile(&self, token: &str, profile: &BotProfile) -> Result<(), BotApiError> {
        if let Some(wait) = self.throttle_next.lock().unwrap().take() {
            return Err(BotApiError::Throttled(wait));
        }
        self.identify(token).await?;
        self.profiles.lock().unwrap().push((token.to_owned(), profile.clone()));
        Ok(())
    }

    async fn send_message(&self, token: &str, message: &BotMessage) -> Result<(), BotApiError> {
        self.identify(token).await?;
        if let Some(e) = self.send_failures.lock().unwrap().pop() {
            return Err(e);
        }
        self.sent.lock().unwrap().push((token.to_owned(), message.clone()));
        Ok(())
    }

    async fn answer_press(&self, token: &str, _press_id: &str, _notice: Option<&str>) -> Result<(), BotApiError> {
        self.identify(token).await.map(|_| ())
    }

    async fn updates(
        &self,
        token: &str,
        offset: i64,
        _wait: std::time::Duration,
    ) -> Result<Vec<BotUpdate>, BotApiError> {
        self.identify(token).await?;
        let mut updates = self.updates.lock().unwrap();
        updates.retain(|(t, u)| t != token || u.update_id >= offset);
        Ok(updates.iter().filter(|(t, _)| t == token).map(|(_, u)| u.clone()).collect())
    }

    async fn set_webhook(&self, token: &str, url: &str, secret: &str) -> Result<(), BotApiError> {
        self.identify(token).await?;
        self.webhooks.lock().unwrap().push((token.to_owned(), Some((url.to_owned(), secret.to_owned()))));
        Ok(())
    }

    async fn delete_webhook(&self, token: &str) -> Result<(), BotApiError> {
        self.identify(token).await?;
        self.webhooks.lock().unwrap().push((token.to_owned(), None));
        Ok(())
    }

    async fn stars_invoice_link(&self, token: &str, invoice: &StarsInvoiceLink) -> Result<String, BotApiError> {
        self.identify(token).await?;
        Ok(format!("https://t.me/$stars-{}", invoice.payload))
    }

    async fn answer_pre_checkout(&self, token: &str, query_id: &str, refusal: Option<&str>) -> Result<(), BotApiError> {
        self.identify(token).await?;
        self.stars_calls.lock().unwrap().push(format!("answer {query_id} {}", refusal.unwrap_or("ok")));
        Ok(())
    }

    async fn refund_stars(&self, token: &str, user_id: i64, charge_id: &str) -> Result<(), BotApiError> {
        self.identify(token).await?;
        self.stars_calls.lock().unwrap().push(format!("refund {user_id} {charge_id}"));
        Ok(())
    }

    async fn cancel_stars_subscription(&self, token: &str, user_id: i64, charge_id: &str) -> Result<(), BotApiError> {
        self.identify(token).await?;
        self.stars_calls.lock().unwrap().push(format!("cancel {user_id} {charge_id}"));
        Ok(())
    }

    /// The bots here are made in BotFather: no bot manages them (the managed ones are tested
    /// against the emulator, tests/managed_bots.rs).
    async fn managed_bot_token(&self, token: &str, _bot_id: i64) -> Result<String, BotApiError> {
        self.identify(token).await?;
        Err(BotApiError::Refused("getManagedBotToken: 400 Bad Request: BOT_NOT_MANAGED".into()))
    }

    async fn replace_managed_bot_token(&self, token: &str, _bot_id: i64) -> Result<String, BotApiError> {
        self.identify(token).await?;
        Err(BotApiError::Refused("replaceManagedBotToken: 400 Bad Request: BOT_NOT_MANAGED".into()))
    }
}

/// A mail server in memory: the messages it took, in order, and answers to give first.
#[derive(Default)]
pub struct FakeMailer {
    pub sent: Mutex<Vec<OutgoingMail>>,
    /// Answers still to give instead of taking a message (the last first).
    pub failures: Mutex<Vec<MailError>>,
}

#[async_trait]
impl Mailer for FakeMailer {
    async fn send(&self, mail: &OutgoingMail) -> Result<String, MailError> {
        if let Some(e) = self.failures.lock().unwrap().pop() {
            return Err(e);
        }
        self.sent.lock().unwrap().push(mail.clone());
        Ok("250 OK".into())
    }
}

pub struct World {
    pub app: Services,
    /// What the services run on, to build another instance's over the same database.
    pub adapters: Adapters,
    /// The database, for what a test checks or arranges below the use cases.
    pub store: Arc<dyn Store>,
    /// The keys secrets are sealed with, to open what the store holds.
    pub keys: Arc<SecretKeys>,
    pub bots: Arc<FakeBots>,
    pub mailer: Arc<FakeMailer>,
    pub webhooks: Arc<FakeWebhooks>,
    pub clock: Arc<ManualClock>,
    pub gateway: Arc<FakeGateway>,
    pub panel: Arc<FakePanel>,
    pub account: AccountRecord,
    /// The services' store, counting their units of work (`store` is the same database, for
    /// what a test reads or arranges without being counted).
    pub counted: Arc<CountedStore>,
    dir: std::path::PathBuf,
    /// The real Prometheus adapter, so tests read what an operator's scrape would show.
    pub metrics: Arc<vp_metrics::PrometheusMetrics>,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

impl World {
    /// A demo-seeded database at 2026-01-01 00:00 UTC.
    pub async fn new() -> World {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("vp-app-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("db.sqlite").display());
        vp_store::migrate(&url).await.unwrap();
        let store = vp_store::connect(&url, &vp_store::StoreOptions::default()).await.unwrap();
        let clock = Arc::new(ManualClock(Mutex::new(time::macros::datetime!(2026-01-01 00:00 UTC))));
        let gateway = Arc::new(FakeGateway::default());
        let panel = Arc::new(FakePanel::default());
        let webhooks = Arc::new(FakeWebhooks::default());
        let bots = Arc::new(FakeBots::default());
        bots.add(PLATFORM_BOT_TOKEN, 4242, "test_bot");
        let metrics = Arc::new(vp_metrics::PrometheusMetrics::new());
        let keys = Arc::new(SecretKeys::ephemeral());
        let mailer = Arc::new(FakeMailer::default());
        let counted = Arc::new(CountedStore { inner: store.clone(), writing_units: AtomicU32::new(0) });
        let adapters = Adapters {
            store: counted.clone(),
            clock: clock.clone(),
            ids: Arc::new(SystemIds::new()),
            // It stands in the sandbox's place: its invoices are paid on the sandbox's page.
            gateways: vp_app::payments::Gateways::new(gateway.clone()),
            panel: panel.clone(),
            panel_directory: None,
            events: Arc::new(TestShapes),
            webhooks: webhooks.clone(),
            bots: bots.clone(),
            metrics: metrics.clone(),
            wording: Arc::new(vp_bots::Wording),
            mail_renderer: Arc::new(vp_web::mail::MailTexts),
            mailer: mailer.clone(),
        };
        let app = Services::new(
            adapters.clone(),
            Settings {
                platform_bot: vp_app::bots::PlatformBot::new(PLATFORM_BOT_TOKEN),
                secrets: keys.clone(),
                ..Settings::default()
            },
        );
        let (account, _) = app.operator.seed_demo().await.unwrap();
        World {
            app,
            adapters,
            store,
            keys,
            bots,
            mailer,
            webhooks,
            clock,
            gateway,
            panel,
            account,
            counted,
            dir,
            metrics,
        }
    }

    pub async fn account(&self) -> AccountRecord {
        let mut tx = self.store.begin().await.unwrap();
        let a = tx.account(&self.account.id).await.unwrap().unwrap();
        tx.commit().await.unwrap();
        a
    }

    /// Creates and pays a one-month invoice of the account for `client`.
    pub async fn pay(&self, account: &AccountRecord, client: &str) -> InvoiceRecord {
        let request = order(client, 1, "card");
        let key = vp_domain::IdempotencyKey::parse(Some(&format!("k-{client}-{}", self.clock.now_for_test()))).unwrap();
        let inv = self.app.payments.create_invoice(account, key, request).await.unwrap();
        self.app.payments.apply_payment_outcome(&inv.invoice.payment_id, vp_domain::PaymentOutcome::Paid).await.unwrap()
    }

    /// The services on this database under other secrets keys (`VP_SECRETS_KEY` and, while
    /// rotating, `VP_SECRETS_KEY_PREVIOUS`), with the keys.
    pub fn with_keys(&self, current: &str, previous: Option<&str>) -> (Services, Arc<SecretKeys>) {
        let keys = Arc::new(SecretKeys::from_base64(current, previous).unwrap());
        (Services::new(self.adapters.clone(), Settings { secrets: keys.clone(), ..Settings::default() }), keys)
    }

    /// A signed-in cabinet user of `account_id`.
    pub async fn actor(&self, account_id: &str, email: &str) -> vp_app::actor::Actor {
        let invitation = self
            .app
            .cabinet_access
            .invite_user(&AccountId::issued(account_id.into()), email, vp_domain::Lang::En)
            .await
            .unwrap();
        let token = invitation.link.rsplit('/').next().unwrap();
        let signed_in = self.app.cabinet_access.set_password(token, "a long enough phrase").await.unwrap();
        self.app.cabinet_access.actor(&signed_in.token).await.unwrap().unwrap()
    }

    /// A world whose demo account has its own bot connected.
    pub async fn with_partner_bot() -> World {
        let w = World::new().await;
        w.connect_partner_bot().await;
        w
    }

    /// Connects the demo account's own bot, `@demo_vpn_bot`.
    pub async fn connect_partner_bot(&self) {
        self.bots.add(PARTNER_BOT_TOKEN, PARTNER_BOT_ID, "demo_vpn_bot");
        self.app.bots.connect_bot(&self.account.id, PARTNER_BOT_TOKEN, vp_app::audit::Who::Operator).await.unwrap();
    }

    /// A client's subscription as stored.
    pub async fn subscription(&self, client: &str) -> SubscriptionRecord {
        let mut tx = self.store.read().await.unwrap();
        let id = vp_domain::ClientId::parse(client).unwrap();
        let record = tx.client(&self.account.id, &id).await.unwrap().unwrap();
        tx.commit().await.unwrap();
        record.subscription.expect("a subscription")
    }

    /// Someone writes `text` to the partner's bot in `chat_id`, their Telegram app set to
    /// `language`; returns what the bot answered.
    pub async fn write_to_partner_bot(&self, chat_id: i64, text: &str, language: Option<&str>) -> Vec<BotMessage> {
        let before = self.bots.sent.lock().unwrap().len();
        let mut update = self.bots.said(PARTNER_BOT_TOKEN, chat_id, text);
        if let Some(message) = update.message.as_mut() {
            message.language = language.map(str::to_owned);
        }
        self.conversations().receive(PARTNER_BOT_ID, update).await.unwrap();
        let sent = self.bots.sent.lock().unwrap();
        sent[before..].iter().filter(|(t, _)| t == PARTNER_BOT_TOKEN).map(|(_, m)| m.clone()).collect()
    }

    /// One round of the update poller (this world is the only process).
    pub async fn poll_updates(&self) -> usize {
        let handler: Arc<dyn BotUpdates> = Arc::new(self.conversations());
        let polled = self.app.bot_updates.poll_bot_updates_once("test", std::time::Duration::ZERO, handler);
        polled.await.unwrap().expect("the only poller")
    }

    /// The bot adapter over this world's services, as Telegram's posts and the poller reach it.
    pub fn conversations(&self) -> vp_bots::Conversations {
        vp_bots::Conversations::new(&self.app)
    }

    pub async fn balance(&self) -> vp_domain::Money {
        let mut tx = self.store.begin().await.unwrap();
        let b = tx.partner_balance(&self.account.id).await.unwrap();
        tx.commit().await.unwrap();
        b.available
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A partner's client id the test writes out.
pub fn cid(c: &str) -> vp_domain::ClientId {
    vp_domain::ClientId::parse(c).unwrap()
}

/// An order of plan `plan_id` for `client`, paid with `method`: no return URL, email or code.
pub fn order(client: &str, plan_id: i32, method: &str) -> vp_domain::InvoiceRequest {
    vp_domain::InvoiceRequest {
        client_id: cid(client),
        purpose: vp_domain::Purpose::Subscription { plan_id },
        method: self::method(method),
        return_url: None,
        customer_email: None,
        promo_code: None,
    }
}

/// A payment method's code the test writes out.
pub fn method(code: &str) -> vp_domain::MethodCode {
    vp_domain::MethodCode::parse(code).unwrap()
}

/// The refusal a use case answered with; anything else fails the test.
pub fn refusal<T: std::fmt::Debug>(r: Result<T, vp_app::AppError>) -> vp_app::Refusal {
    match r {
        Err(vp_app::AppError::Refused(x)) => x,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The declined answer a use case gave; anything else fails the test.
pub fn declined<T: std::fmt::Debug>(r: Result<T, vp_app::AppError>) -> vp_app::Declined {
    match r {
        Err(vp_app::AppError::Declined(d)) => d,
        other => panic!("expected a refusal, got {other:?}"),
    }
}
