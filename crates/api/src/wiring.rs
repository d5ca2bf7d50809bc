//! Builds the use cases on their adapters: one place decides which store, gateway and panel
//! run. The embedded defaults (sandbox gateway, local panel) unless configured otherwise.

use std::sync::Arc;

use vp_app::observability::{GatewayWithMetrics, PanelWithMetrics};
use vp_app::operator::shifted_clock::{ShiftedClock, read_offset};
use vp_app::payments::Gateways;
use vp_app::system::{SystemClock, SystemIds};
use vp_app::{Adapters, Services, Settings};
use vp_panel::{LocalPanel, RemnawavePanel};
use vp_payments::yookassa::NotifyPolicy;
use vp_payments::{CryptoPayGateway, PlategaGateway, SandboxGateway, YooKassaGateway};
use vp_ports::{Clock, GatewayEvents, Metrics, PanelDirectory, PaymentGateway, VpnPanel};
use vp_telegram::TelegramBots;

use crate::commands::CommandError;
use crate::config::{Config, GatewaySettings, PanelChoice};

/// The adapters of the gateways that post notifications, when they are on: their routes are
/// served.
#[derive(Clone, Default)]
pub struct GatewayRoutes {
    /// YooKassa, and who may post its notifications.
    yookassa: Option<(Arc<YooKassaGateway>, NotifyPolicy)>,
    platega: Option<Arc<PlategaGateway>>,
    cryptopay: Option<Arc<CryptoPayGateway>>,
}

impl GatewayRoutes {
    /// Each gateway's notification route, every one settling through `events`.
    pub fn configure(&self, events: &Arc<dyn GatewayEvents>, cfg: &mut actix_web::web::ServiceConfig) {
        if let Some((gateway, policy)) = &self.yookassa {
            vp_payments::yookassa::routes(gateway.clone(), events.clone(), policy.clone())(cfg);
        }
        if let Some(gateway) = &self.platega {
            vp_payments::platega::routes(gateway.clone(), events.clone())(cfg);
        }
        if let Some(gateway) = &self.cryptopay {
            vp_payments::cryptopay::routes(gateway.clone(), events.clone())(cfg);
        }
    }
}

pub struct Wired {
    pub services: Services,
    /// The embedded panel, whose subscription links this service serves; `None` when a real
    /// panel serves them.
    pub local_panel: Option<Arc<LocalPanel>>,
    pub gateway_routes: GatewayRoutes,
    /// Present when the operator started with `VP_SHIFTED_CLOCK=on`.
    pub shifted_clock: Option<Arc<ShiftedClock>>,
}

pub async fn wire(config: &Config) -> Result<Wired, CommandError> {
    // Every command brings the schema up to date first, so a fresh SQLite file just works.
    vp_store::migrate(&config.database_url)
        .await
        .map_err(|e| CommandError::Failed(format!("migration failed: {e}")))?;
    let options =
        vp_store::StoreOptions { max_connections: config.db_max_connections, legacy_gateway: config.gateways.default };
    let store = vp_store::connect(&config.database_url, &options)
        .await
        .map_err(|e| CommandError::Failed(format!("cannot open the database: {e}")))?;
    let shifted_clock = if config.shifted_clock {
        tracing::warn!("SHIFTED CLOCK ON: time is moved by `vp-api clock advance`; never use this in production");
        let offset = read_offset(store.as_ref()).await.map_err(CommandError::from)?;
        Some(Arc::new(ShiftedClock::new(offset)))
    } else {
        None
    };
    let clock: Arc<dyn Clock> = match &shifted_clock {
        Some(c) => c.clone(),
        None => Arc::new(SystemClock),
    };
    if !config.webhook_allow_addresses.is_empty() {
        tracing::warn!(
            addresses = ?config.webhook_allow_addresses,
            "WEBHOOK ALLOW-LIST ON: events may go to these non-public addresses over plain http; for tests only"
        );
    }
    let policy = vp_webhooks::AddressPolicy { allowed: config.webhook_allow_addresses.clone() };
    let webhooks = Arc::new(vp_webhooks::HttpsSender::new(policy).map_err(CommandError::Failed)?);
    let (panel, local_panel, panel_directory): (Arc<dyn VpnPanel>, _, Option<Arc<dyn PanelDirectory>>) =
        match &config.panel {
            PanelChoice::Local => {
                let local = Arc::new(LocalPanel::new(store.clone(), clock.clone(), &config.public_base_url));
                (local.clone(), Some(local), None)
            }
            PanelChoice::Remnawave(settings) => {
                let remnawave = Arc::new(RemnawavePanel::new(settings).map_err(CommandError::Failed)?);
                (remnawave.clone(), None, Some(remnawave))
            }
        };
    // Every call to a gateway and the panel is timed and counted, whichever adapter runs.
    let metrics: Arc<dyn Metrics> = Arc::new(vp_metrics::PrometheusMetrics::new());
    let (gateways, gateway_routes) = gateways(config, &config.gateways, store.clone(), &metrics)?;
    let panel = Arc::new(PanelWithMetrics { inner: panel, metrics: metrics.clone() });
    let adapters = Adapters {
        store,
        clock,
        ids: Arc::new(SystemIds::new()),
        gateways,
        panel,
        panel_directory,
        metrics,
        events: Arc::new(vp_http::ApiShapes),
        webhooks,
        bots: Arc::new(TelegramBots::new(&config.telegram_api_url).map_err(CommandError::Failed)?),
        wording: Arc::new(vp_bots::Wording),
        mail_renderer: Arc::new(vp_web::mail::MailTexts),
        mailer: mailer(config)?,
    };
    let settings = Settings {
        public_base_url: config.public_base_url.clone(),
        platform_name: config.platform_name.clone(),
        secrets: Arc::new(crate::secrets_key::load(&config.secrets_key)?),
        platform_bot: config.telegram_bot.clone(),
        failed_auth_per_minute: config.failed_auth_per_minute,
        receipts: config.receipts,
    };
    let services = Services::new(adapters, settings);
    // A wrong key would fail later, at the first use of a sealed secret: stop here instead.
    // Secrets a database still holds in plain text are sealed now.
    services.secrets.prepare_secrets().await.map_err(|e| match e {
        vp_app::AppError::External(reason) => CommandError::BadInput(reason),
        other => other.into(),
    })?;
    // Accounts made before shops existed get their shop's address.
    services.shop.assign_missing_slugs().await?;
    Ok(Wired { services, local_panel, gateway_routes, shifted_clock })
}

/// Every gateway whose settings are given, and the sandbox, each timed and counted; with the
/// notification routes of those that post them.
fn gateways(
    config: &Config,
    settings: &GatewaySettings,
    store: Arc<vp_store::PoolStore>,
    metrics: &Arc<dyn Metrics>,
) -> Result<(Gateways, GatewayRoutes), CommandError> {
    let timed = |inner: Arc<dyn PaymentGateway>| -> Arc<dyn PaymentGateway> {
        Arc::new(GatewayWithMetrics { inner, metrics: metrics.clone() })
    };
    let mut on: Vec<Arc<dyn PaymentGateway>> =
        vec![timed(Arc::new(SandboxGateway::new(store, &config.public_base_url)))];
    let mut routes = GatewayRoutes::default();
    if let Some(y) = &settings.yookassa {
        let adapter = Arc::new(YooKassaGateway::new(&y.settings).map_err(CommandError::Failed)?);
        on.push(timed(adapter.clone()));
        routes.yookassa = Some((adapter, y.notify.clone()));
    }
    if let Some(p) = &settings.platega {
        let adapter = Arc::new(PlategaGateway::new(p).map_err(CommandError::Failed)?);
        on.push(timed(adapter.clone()));
        routes.platega = Some(adapter);
    }
    if let Some(c) = &settings.cryptopay {
        let adapter = Arc::new(CryptoPayGateway::new(c).map_err(CommandError::Failed)?);
        on.push(timed(adapter.clone()));
        routes.cryptopay = Some(adapter);
    }
    let default = on
        .iter()
        .find(|g| g.name() == settings.default)
        .cloned()
        .ok_or_else(|| CommandError::Failed(format!("the default gateway {} is not on", settings.default)))?;
    let mut gateways = on.into_iter().fold(Gateways::new(default), Gateways::with);
    if settings.sandbox_stands_in {
        tracing::warn!(
            "SANDBOX STANDS IN: payments of gateways that are off go to the sandbox; never use this in production"
        );
        gateways = gateways.sandbox_standing_in();
    }
    Ok((gateways, routes))
}

/// The SMTP server of `VP_SMTP_URL`, or `.eml` files under the data directory.
fn mailer(config: &Config) -> Result<Arc<dyn vp_ports::Mailer>, CommandError> {
    Ok(match &config.mail {
        vp_mail::MailSettings::Smtp { server, from, hello } => {
            Arc::new(vp_mail::SmtpMailer::new(server, from.clone(), hello).map_err(CommandError::BadInput)?)
        }
        vp_mail::MailSettings::Files { dir, from } => Arc::new(vp_mail::FileMailer::new(dir.clone(), from.clone())),
    })
}
