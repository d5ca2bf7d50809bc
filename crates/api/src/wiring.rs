//! Builds the use cases on their adapters: one place decides which store, gateway and panel
//! run. Today the embedded defaults (sandbox gateway, local panel); real gateways and panels
//! plug in here behind the same ports.

use std::sync::Arc;

use time::Duration;
use vp_app::system::{SystemClock, SystemIds};
use vp_app::{Adapters, App, Settings};
use vp_panel::LocalPanel;
use vp_payments::SandboxGateway;
use vp_ports::Clock;

use crate::commands::CommandError;
use crate::config::Config;

pub struct Wired {
    pub app: App,
    pub panel: Arc<LocalPanel>,
}

pub async fn wire(config: &Config) -> Result<Wired, CommandError> {
    // Every command brings the schema up to date first, so a fresh SQLite file just works.
    vp_store::migrate(&config.database_url)
        .await
        .map_err(|e| CommandError::Failed(format!("migration failed: {e}")))?;
    let options = vp_store::StoreOptions { max_connections: config.db_max_connections };
    let store = vp_store::connect(&config.database_url, &options)
        .await
        .map_err(|e| CommandError::Failed(format!("cannot open the database: {e}")))?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let panel = Arc::new(LocalPanel::new(store.clone(), clock.clone(), &config.public_base_url));
    let gateway = Arc::new(SandboxGateway::new(store.clone(), &config.public_base_url));
    let adapters = Adapters { store, clock, ids: Arc::new(SystemIds::new()), gateway, panel: panel.clone() };
    let settings = Settings { public_base_url: config.public_base_url.clone(), trial_length: Duration::hours(72) };
    Ok(Wired { app: App::new(adapters, settings), panel })
}
