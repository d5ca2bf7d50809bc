//! `serve`: the HTTP server and the background jobs.

use std::sync::Arc;
use std::time::Duration;

use actix_web::middleware::from_fn;
use actix_web::{HttpServer, web};
use vp_app::{App, AppError};
use vp_http::HttpState;
use vp_panel::LocalPanel;

use crate::commands::CommandError;
use crate::config::Config;
use crate::output;

/// How often the background jobs run: invoice expiry, completion of requests cut off by a
/// crash, and the panel sync.
const JOB_INTERVAL: Duration = Duration::from_secs(30);
const JOB_BATCH: u32 = 200;

pub async fn serve(app: App, panel: Arc<LocalPanel>, config: &Config, demo: bool) -> Result<(), CommandError> {
    if demo {
        seed_demo_if_empty(&app).await?;
    }
    let state = HttpState::new(app.clone());
    let server = HttpServer::new(move || {
        actix_web::App::new()
            .wrap(from_fn(vp_http::localize))
            .configure(vp_http::configure(state.clone()))
            .configure(vp_panel::routes(panel.clone()))
            .default_service(web::to(vp_http::fallback))
    })
    .bind(config.bind)
    .map_err(|e| CommandError::BadInput(format!("cannot listen on {}: {e}", config.bind)))?
    .run();
    let jobs = tokio::spawn(run_jobs(app));
    tracing::info!(bind = %config.bind, public_base_url = %config.public_base_url, "listening");
    let result = server.await.map_err(|e| CommandError::Failed(format!("server stopped: {e}")));
    jobs.abort();
    result
}

/// The background jobs, one round every `JOB_INTERVAL`; a failing job is logged and retried
/// next round, never fatal.
async fn run_jobs(app: App) {
    let mut tick = tokio::time::interval(JOB_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        run_jobs_once(&app).await;
    }
}

pub async fn run_jobs_once(app: &App) {
    match app.expire_overdue_invoices(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(expired = n, "expired overdue invoices"),
        Err(e) => tracing::warn!(error = %e, "invoice expiry failed"),
    }
    match app.complete_unfinished_invoices(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(completed = n, "completed invoices left unfinished by a crash"),
        Err(e) => tracing::warn!(error = %e, "invoice completion failed"),
    }
    match app.sync_panel(JOB_BATCH).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(synced = n, "pushed subscriptions to the VPN panel"),
        Err(e) => tracing::warn!(error = %e, "panel sync failed"),
    }
}

async fn seed_demo_if_empty(app: &App) -> Result<(), CommandError> {
    match app.seed_demo().await {
        Ok((account, key)) => {
            let shown =
                serde_json::json!({ "demo_account": output::account(&account), "api_key": output::issued_key(&key) });
            println!("{}", serde_json::to_string_pretty(&shown).unwrap_or_default());
            Ok(())
        }
        Err(AppError::Conflict(_)) => {
            tracing::info!("database already has data; demo seed skipped (use `key issue` for a new key)");
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}
