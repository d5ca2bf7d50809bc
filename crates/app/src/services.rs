//! The one place the services are built: from the adapters the binary chose and the platform's
//! settings, each service gets exactly the ports and the other services it uses.

use std::sync::Arc;

use vp_ports::{
    BotApi, Clock, IdGenerator, MailRenderer, Mailer, Metrics, PanelDirectory, Store, VpnPanel, WebhookSender,
};

use crate::access::{AuthCache, Limiter, PartnerAccess};
use crate::audit::Audit;
use crate::bot_shop::BotShop;
use crate::bot_updates::Updates;
use crate::bots::sender::BotSender;
use crate::bots::wording::BotWording;
use crate::bots::{PartnerBots, PlatformBot};
use crate::broadcasts::Broadcasts;
use crate::cabinet::{Cabinet, CabinetAccess, CabinetDoor, CabinetServices};
use crate::catalog::{Catalog, Offers};
use crate::clients::{Clients, PanelImport, PanelSync};
use crate::entrance::Entrance;
use crate::events::{EventOutbox, EventRenderer, Events};
use crate::exports::Exports;
use crate::gifts::{GiftNotices, Gifts};
use crate::ledger::Ledger;
use crate::mail::{Mail, MailQueue};
use crate::notices::{Notices, Notifier};
use crate::observability::Observability;
use crate::operator::Operator;
use crate::operator_view::{OperatorAccess, OperatorDoor, OperatorView};
use crate::payments::StarsRail;
use crate::payments::{Gateways, Payments, Settled};
use crate::promotions::Promotions;
use crate::referrals::{ReferralRewards, Referrals};
use crate::reminders::{ReminderQueue, Reminders};
use crate::renewals::{Consents, Renewals};
use crate::sales::Sales;
use crate::secrets::{SecretKeys, Secrets};
use crate::shop::{Shop, ShopOrders};
use crate::stamp::Stamp;
use crate::stars::Stars;
use crate::tokens::Tokens;
use crate::views::Views;

/// The adapters the services run on, chosen once by the binary.
#[derive(Clone)]
pub struct Adapters {
    pub store: Arc<dyn Store>,
    pub clock: Arc<dyn Clock>,
    pub ids: Arc<dyn IdGenerator>,
    /// The payment gateways that are on, and the default one.
    pub gateways: Gateways,
    pub panel: Arc<dyn VpnPanel>,
    /// The same panel's list of its users, for an import; `None` when it cannot list them
    /// (the local panel holds only ours).
    pub panel_directory: Option<Arc<dyn PanelDirectory>>,
    /// Event data in the partner API's shapes.
    pub events: Arc<dyn EventRenderer>,
    pub webhooks: Arc<dyn WebhookSender>,
    /// The messenger's API for the platform's notice bot and partners' own bots.
    pub bots: Arc<dyn BotApi>,
    /// What the operators' dashboards show (`vp_ports::NoMetrics` where no one looks).
    pub metrics: Arc<dyn Metrics>,
    /// What the bots say on the platform's own initiative, worded by the bot adapter.
    pub wording: Arc<dyn BotWording>,
    /// Mail worded in the reader's language (the web adapter's page kit) ...
    pub mail_renderer: Arc<dyn MailRenderer>,
    /// ... and sent: SMTP, or `.eml` files in the embedded default.
    pub mailer: Arc<dyn Mailer>,
}

/// `Settings::platform_name` unless the operator sets `VP_PLATFORM_NAME`.
pub const DEFAULT_PLATFORM_NAME: &str = "VPN";

/// Platform settings the services need.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Public address of this service, for the pages it links to (no trailing slash).
    pub public_base_url: String,
    /// The brand name of an account created without one (spec: "the platform default name
    /// applies until changed"); passes the `brand_name` rules.
    pub platform_name: String,
    /// The keys secrets are sealed with at rest (`VP_SECRETS_KEY`).
    pub secrets: Arc<SecretKeys>,
    /// The platform's own bot, which carries notices to partners' chats
    /// (`VP_TELEGRAM_BOT_TOKEN`); without it notices stay in the cabinet.
    pub platform_bot: Option<PlatformBot>,
    /// Failed authentications a source address gets a minute before it waits
    /// (`VP_FAILED_AUTH_PER_MINUTE`; docs/limits.md).
    pub failed_auth_per_minute: u32,
    /// Fiscal receipts to buyers (`VP_RECEIPTS=on`, docs/decisions.md "Fiscal receipts").
    pub receipts: Option<vp_domain::receipt::ReceiptSettings>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            public_base_url: "http://127.0.0.1:8080".into(),
            platform_name: DEFAULT_PLATFORM_NAME.into(),
            secrets: Arc::new(SecretKeys::ephemeral()),
            platform_bot: None,
            failed_auth_per_minute: vp_domain::limits::UNKNOWN_CREDENTIALS_PER_MINUTE,
            receipts: None,
        }
    }
}

/// Every service, by area. A driver takes the ones it calls.
#[derive(Clone)]
pub struct Services {
    /// Partner API keys and the per-minute limits.
    pub access: Arc<PartnerAccess>,
    /// Brand, plans and prices, payment methods, applications, documents.
    pub catalog: Arc<Catalog>,
    /// Invoices from issue to settlement, and the payment pages.
    pub payments: Arc<Payments>,
    /// Automatic renewal: consents, saved methods and the renewal charges.
    pub renewals: Arc<Renewals>,
    /// Telegram Stars in partners' bots: rates, payments, Stars subscriptions.
    pub stars: Arc<Stars>,
    /// Clients and subscriptions, trials, links, devices, the connect page.
    pub clients: Arc<Clients>,
    /// The VPN panel kept in step with the subscriptions.
    pub panel_sync: Arc<PanelSync>,
    /// Clients made from an existing panel's users.
    pub panel_import: Arc<PanelImport>,
    /// Webhook endpoints, the term check and event delivery.
    pub events: Arc<Events>,
    /// The partner's balance and withdrawals.
    pub ledger: Arc<Ledger>,
    /// The account's books as CSV, a page at a time.
    pub exports: Arc<Exports>,
    /// Notices to partners and the chats they read them in.
    pub notices: Arc<Notices>,
    /// Partners' own bots: connecting, profiles, statistics.
    pub bots: Arc<PartnerBots>,
    /// Bots' updates, by webhook or polling.
    pub bot_updates: Arc<Updates>,
    /// The shop and commands in partners' bots.
    pub bot_shop: Arc<BotShop>,
    /// Reminders and paid messages to customers' chats.
    pub reminders: Arc<Reminders>,
    /// Signing in to the cabinet.
    pub cabinet_access: Arc<CabinetAccess>,
    /// What a signed-in person does in the cabinet.
    pub cabinet: Arc<Cabinet>,
    /// The platform operator's use cases.
    pub operator: Arc<Operator>,
    /// Signing in to the operator's view.
    pub operator_access: Arc<OperatorAccess>,
    /// What the operator's view shows, audited.
    pub operator_view: Arc<OperatorView>,
    /// Secrets sealed at rest.
    pub secrets: Arc<Secrets>,
    /// Metrics, readiness, request ids.
    pub observability: Arc<Observability>,
    /// The mail outbox and the operator's test message.
    pub mail: Arc<Mail>,
    /// The account's web shop: its address and its page.
    pub shop: Arc<Shop>,
    /// Promo codes.
    pub promotions: Arc<Promotions>,
    /// The referral program: days for inviters, personal links.
    pub referrals: Arc<Referrals>,
    /// Partners' messages to their bots' customers.
    pub broadcasts: Arc<Broadcasts>,
    /// Gift subscriptions: bought, redeemed, refunded.
    pub gifts: Arc<Gifts>,
    /// The partners' sales figures per day.
    pub sales: Arc<Sales>,
}

impl Services {
    pub fn new(adapters: Adapters, settings: Settings) -> Services {
        let Adapters {
            store,
            clock,
            ids,
            gateways,
            panel,
            panel_directory,
            events: renderer,
            webhooks,
            bots: bot_api,
            metrics,
            wording,
            mail_renderer,
            mailer,
        } = adapters;
        let Settings { public_base_url, platform_name, secrets: keys, platform_bot, failed_auth_per_minute, receipts } =
            settings;
        // The parts several services share.
        let tokens = Tokens::new(ids.clone());
        let views = Views::new(clock.clone(), panel.clone(), &public_base_url);
        let stamp = Stamp { clock: clock.clone(), ids: ids.clone() };
        let audit = Audit { stamp: stamp.clone() };
        let outbox = EventOutbox { stamp: stamp.clone() };
        let notifier = Notifier { stamp: stamp.clone(), messenger: platform_bot.is_some() };
        let reminder_queue = ReminderQueue { stamp: stamp.clone() };
        let mail_queue = MailQueue { stamp: stamp.clone() };
        let offers = Arc::new(Offers::new(store.clone()));
        let auth_cache = Arc::new(AuthCache::default());
        let referrals = Arc::new(Referrals {
            store: store.clone(),
            clock: clock.clone(),
            tokens: tokens.clone(),
            audit: audit.clone(),
        });
        // One for the process: every driver's requests count in the same windows.
        let limiter = Arc::new(Limiter::new(metrics.clone()));
        // One for the process: everything a bot sends shares its pace.
        let sender = Arc::new(BotSender::new(
            bot_api.clone(),
            store.clone(),
            clock.clone(),
            notifier.clone(),
            platform_bot.clone(),
            keys.clone(),
            metrics.clone(),
        ));

        let access = Arc::new(PartnerAccess {
            store: store.clone(),
            clock: clock.clone(),
            metrics: metrics.clone(),
            auth_cache: auth_cache.clone(),
            limiter: limiter.clone(),
            failed_auth_per_minute,
        });
        let catalog = Arc::new(Catalog {
            store: store.clone(),
            audit: audit.clone(),
            auth_cache: auth_cache.clone(),
            public_base_url: public_base_url.clone(),
            gateways: gateways.clone(),
        });
        let panel_sync = Arc::new(PanelSync::new(store.clone(), clock.clone(), panel.clone()));
        let clients = Arc::new(Clients {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            panel: panel.clone(),
            tokens: tokens.clone(),
            views: views.clone(),
            panel_sync: panel_sync.clone(),
        });
        let panel_import = Arc::new(PanelImport {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            panel: panel.clone(),
            directory: panel_directory,
        });
        let consents = Arc::new(Consents {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            gateways: gateways.clone(),
            keys: keys.clone(),
        });
        let stars_rail = Arc::new(StarsRail { store: store.clone(), keys: keys.clone(), sender: sender.clone() });
        let payments = Arc::new(Payments {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            tokens: tokens.clone(),
            gateways: gateways.clone(),
            stars: stars_rail.clone(),
            metrics: metrics.clone(),
            offers: offers.clone(),
            views: views.clone(),
            catalog: catalog.clone(),
            settled: Settled {
                outbox: outbox.clone(),
                events: renderer.clone(),
                reminders: reminder_queue.clone(),
                panel_sync: panel_sync.clone(),
                consents: consents.clone(),
                access_granted: vec![Arc::new(ShopOrders {
                    queue: mail_queue.clone(),
                    public_base_url: public_base_url.clone(),
                })],
                referrals: ReferralRewards { stamp: stamp.clone(), reminders: reminder_queue.clone() },
                gift_paid: Arc::new(GiftNotices {
                    keys: keys.clone(),
                    reminders: reminder_queue.clone(),
                    mail: mail_queue.clone(),
                    public_base_url: public_base_url.clone(),
                }),
            },
            public_base_url: public_base_url.clone(),
            receipts,
        });
        let gifts = Arc::new(Gifts {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            keys: keys.clone(),
            payments: payments.clone(),
            panel_sync: panel_sync.clone(),
            audit: audit.clone(),
            public_base_url: public_base_url.clone(),
        });
        let stars = Arc::new(Stars {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            payments: payments.clone(),
            rail: stars_rail,
            consents: consents.clone(),
            audit: audit.clone(),
        });
        let renewals = Arc::new(Renewals {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            gateways,
            payments: payments.clone(),
            consents,
            stars: stars.clone(),
            reminders: reminder_queue.clone(),
        });
        let events = Arc::new(Events {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            webhooks,
            metrics: metrics.clone(),
            keys: keys.clone(),
            renderer,
            views: views.clone(),
            audit: audit.clone(),
            outbox,
            notifier: notifier.clone(),
            reminders: reminder_queue,
            panel: panel.clone(),
        });
        let ledger = Arc::new(Ledger {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            audit: audit.clone(),
            notifier,
        });
        let notices = Arc::new(Notices {
            store: store.clone(),
            clock: clock.clone(),
            tokens: tokens.clone(),
            audit: audit.clone(),
            sender: sender.clone(),
            wording: wording.clone(),
            platform_bot: platform_bot.clone(),
        });
        let bots = Arc::new(PartnerBots {
            store: store.clone(),
            clock: clock.clone(),
            api: bot_api,
            keys: keys.clone(),
            audit: audit.clone(),
            sender: sender.clone(),
            wording: wording.clone(),
            platform_bot: platform_bot.clone(),
            tokens: tokens.clone(),
        });
        let bot_shop = Arc::new(BotShop {
            store: store.clone(),
            clock: clock.clone(),
            tokens: tokens.clone(),
            views: views.clone(),
            offers: offers.clone(),
            access: access.clone(),
            catalog: catalog.clone(),
            clients: clients.clone(),
            payments: payments.clone(),
            renewals: renewals.clone(),
            stars: stars.clone(),
            referrals: referrals.clone(),
            gifts: gifts.clone(),
            public_base_url: public_base_url.clone(),
        });
        let bot_updates = Arc::new(Updates {
            store: store.clone(),
            clock: clock.clone(),
            keys: keys.clone(),
            sender: sender.clone(),
            public_base_url: public_base_url.clone(),
            platform_bot,
            notices: notices.clone(),
            bots: bots.clone(),
            shop: bot_shop.clone(),
            stars: stars.clone(),
        });
        let broadcasts = Arc::new(Broadcasts {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            keys: keys.clone(),
            sender: sender.clone(),
            audit: audit.clone(),
        });
        let reminders = Arc::new(Reminders {
            store: store.clone(),
            clock: clock.clone(),
            keys: keys.clone(),
            views: views.clone(),
            sender,
            wording,
            public_base_url: public_base_url.clone(),
        });
        let shop = Arc::new(Shop {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            tokens: tokens.clone(),
            access: access.clone(),
            limiter: limiter.clone(),
            failed_auth_per_minute,
            catalog: catalog.clone(),
            offers: offers.clone(),
            clients: clients.clone(),
            payments: payments.clone(),
            mail: mail_queue.clone(),
            referrals: referrals.clone(),
            gifts: gifts.clone(),
            public_base_url: public_base_url.clone(),
        });
        // Both doors count failed sign-ins alike, against the limit API keys share.
        let cabinet_entrance = Entrance {
            door: CabinetDoor { audit: audit.clone() },
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            tokens: tokens.clone(),
            limiter: limiter.clone(),
            failed_auth_per_minute,
        };
        let operator_entrance = cabinet_entrance.beside(OperatorDoor { stamp: stamp.clone() });
        let cabinet_access = Arc::new(CabinetAccess {
            entrance: cabinet_entrance,
            public_base_url: public_base_url.clone(),
            mail: mail_queue.clone(),
        });
        let operator_access =
            Arc::new(OperatorAccess { entrance: operator_entrance, public_base_url, mail: mail_queue.clone() });
        let operator_view = Arc::new(OperatorView {
            store: store.clone(),
            clock: clock.clone(),
            audit: OperatorDoor { stamp: stamp.clone() },
        });
        let promotions = Arc::new(Promotions {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            offers: offers.clone(),
            audit: audit.clone(),
        });
        let exports = Arc::new(Exports { store: store.clone(), clock: clock.clone() });
        let sales = Arc::new(Sales { store: store.clone(), clock: clock.clone() });
        let cabinet = Arc::new(Cabinet {
            store: store.clone(),
            panel,
            keys: keys.clone(),
            views,
            audit,
            services: CabinetServices {
                events: events.clone(),
                ledger: ledger.clone(),
                catalog: catalog.clone(),
                clients: clients.clone(),
                bots: bots.clone(),
                renewals: renewals.clone(),
                exports: exports.clone(),
            },
        });
        let operator = Arc::new(Operator {
            store: store.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            auth_cache,
            offers: offers.clone(),
            panel_sync: panel_sync.clone(),
            platform_name: platform_name.clone(),
        });
        let mail =
            Arc::new(Mail { store: store.clone(), queue: mail_queue, renderer: mail_renderer, mailer, platform_name });
        let secrets = Arc::new(Secrets { store: store.clone(), keys });
        let observability = Arc::new(Observability { store, clock, ids, metrics, draining: Default::default() });
        Services {
            access,
            catalog,
            payments,
            renewals,
            stars,
            clients,
            panel_sync,
            panel_import,
            events,
            ledger,
            exports,
            notices,
            bots,
            bot_updates,
            bot_shop,
            reminders,
            cabinet_access,
            cabinet,
            operator,
            operator_access,
            operator_view,
            secrets,
            observability,
            mail,
            shop,
            promotions,
            referrals,
            broadcasts,
            gifts,
            sales,
        }
    }
}
