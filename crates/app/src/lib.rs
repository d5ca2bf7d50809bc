//! Use cases of the platform. Adapters (HTTP, CLI) call these; these call the ports. No
//! business rule lives in an adapter: the rules come from `vp_domain`, the orchestration is here.

pub mod balance;
pub mod bot_pace;
pub mod bot_shop;
pub mod bot_updates;
pub mod bots;
pub mod cabinet;
pub mod content;
pub mod customer_bot;
pub mod demo;
pub mod error;
pub mod events;
pub mod keys;
pub mod metrics;
pub mod notices;
pub mod operator;
pub mod partner;
pub mod qr_png;
pub mod reminders;
pub mod request_limits;
pub mod secrets;
pub mod secrets_at_rest;
pub mod shifted_clock;
pub mod style;
pub mod system;
pub mod views;

use std::sync::Arc;

use time::Duration;
use vp_ports::{BotApi, Clock, IdGenerator, Metrics, PaymentGateway, Store, VpnPanel, WebhookSender};

use crate::events::EventRenderer;

pub use error::{AppError, AppResult, Declined, FieldErrors, Refusal};
pub use vp_domain::Lang;

/// The adapters the use cases run on, wired once by the binary.
#[derive(Clone)]
pub struct Adapters {
    pub store: Arc<dyn Store>,
    pub clock: Arc<dyn Clock>,
    pub ids: Arc<dyn IdGenerator>,
    pub gateway: Arc<dyn PaymentGateway>,
    pub panel: Arc<dyn VpnPanel>,
    /// Event data in the partner API's shapes.
    pub events: Arc<dyn EventRenderer>,
    pub webhooks: Arc<dyn WebhookSender>,
    /// The messenger's API for the platform's notice bot and partners' own bots.
    pub bots: Arc<dyn BotApi>,
    /// What the operators' dashboards show (`vp_ports::NoMetrics` where no one looks).
    pub metrics: Arc<dyn Metrics>,
}

/// `Settings::platform_name` unless the operator sets `VP_PLATFORM_NAME`.
pub const DEFAULT_PLATFORM_NAME: &str = "VPN";

/// Platform settings the use cases need.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Public address of this service, for the pages it links to (no trailing slash).
    pub public_base_url: String,
    /// Length of a trial (the spec: "the whole trial is" under 72 hours of reminders).
    pub trial_length: Duration,
    /// The brand name of an account created without one (spec: "the platform default name
    /// applies until changed"); passes the `brand_name` rules.
    pub platform_name: String,
    /// The keys secrets are sealed with at rest (`VP_SECRETS_KEY`).
    pub secrets: Arc<secrets::SecretKeys>,
    /// The platform's own bot, which carries notices to partners' chats
    /// (`VP_TELEGRAM_BOT_TOKEN`); without it notices stay in the cabinet.
    pub platform_bot: Option<bot_updates::PlatformBot>,
    /// Failed authentications a source address gets a minute before it waits
    /// (`VP_FAILED_AUTH_PER_MINUTE`; docs/limits.md).
    pub failed_auth_per_minute: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            public_base_url: "http://127.0.0.1:8080".into(),
            trial_length: Duration::hours(72),
            platform_name: DEFAULT_PLATFORM_NAME.into(),
            secrets: Arc::new(secrets::SecretKeys::ephemeral()),
            platform_bot: None,
            failed_auth_per_minute: vp_domain::limits::UNKNOWN_CREDENTIALS_PER_MINUTE,
        }
    }
}

/// The use cases: every method of the app layer is on `App`. It reads its adapters as its
/// own fields (`self.store`, `self.clock`, ...) through `Deref`, so the list of adapters is
/// written once, in `Adapters`.
#[derive(Clone)]
pub struct App {
    adapters: Adapters,
    pub settings: Arc<Settings>,
    auth_cache: Arc<partner::AuthCache>,
    offer_cache: Arc<partner::OfferCache>,
    /// One for the process: every adapter's requests count in the same windows.
    limiter: Arc<request_limits::Limiter>,
    /// One for the process: a bot's answers and its outbox share Telegram's pace.
    bot_pace: Arc<bot_pace::BotPace>,
}

impl App {
    /// The per-minute windows are this process's own until `share_request_windows`.
    pub fn new(adapters: Adapters, settings: Settings) -> App {
        App {
            adapters,
            settings: Arc::new(settings),
            auth_cache: Arc::default(),
            offer_cache: Arc::default(),
            limiter: Arc::new(request_limits::Limiter::local()),
            bot_pace: Arc::default(),
        }
    }

    /// Counts requests in windows every instance shares (Redis), this process's as the fallback.
    pub fn share_request_windows(mut self, windows: Arc<dyn vp_ports::SharedWindows>) -> App {
        self.limiter = Arc::new(request_limits::Limiter::shared(windows, self.adapters.metrics.clone()));
        self
    }
}

impl std::ops::Deref for App {
    type Target = Adapters;

    fn deref(&self) -> &Adapters {
        &self.adapters
    }
}
