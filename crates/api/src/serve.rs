//! `serve`: the HTTP server, with the background work beside it (`workers`).

use std::sync::Arc;

use actix_web::middleware::from_fn;
use actix_web::{HttpServer, web};
use vp_app::test_clock::TestClock;
use vp_app::{App, AppError};
use vp_http::HttpState;
use vp_panel::LocalPanel;
use vp_payments::YooKassaGateway;
use vp_payments::yookassa::NotifyPolicy;
use vp_ports::GatewayEvents;

use crate::commands::CommandError;
use crate::config::Config;
use crate::output;

/// The adapters that serve routes of their own beside the partner API.
pub struct Served {
    /// The local panel's subscription links.
    pub local_panel: Option<Arc<LocalPanel>>,
    /// YooKassa's notifications.
    pub yookassa: Option<(Arc<YooKassaGateway>, NotifyPolicy)>,
}

pub async fn serve(
    app: App,
    served: Served,
    config: &Config,
    demo: bool,
    test_clock: Option<Arc<TestClock>>,
) -> Result<(), CommandError> {
    if demo {
        seed_demo_if_empty(&app).await?;
    }
    let state = HttpState::new(app.clone());
    let Served { local_panel, yookassa } = served;
    let events: Arc<dyn GatewayEvents> = Arc::new(app.clone());
    let server = HttpServer::new(move || {
        actix_web::App::new()
            .wrap(from_fn(vp_http::localize))
            .configure(vp_http::configure(state.clone()))
            .configure(|cfg| {
                if let Some(local) = &local_panel {
                    vp_panel::routes(local.clone())(cfg);
                }
                if let Some((gateway, policy)) = &yookassa {
                    vp_payments::yookassa::routes(gateway.clone(), events.clone(), policy.clone())(cfg);
                }
            })
            .default_service(web::to(vp_http::fallback))
    })
    .bind(config.bind)
    .map_err(|e| CommandError::BadInput(format!("cannot listen on {}: {e}", config.bind)))?
    .run();
    let background = crate::workers::spawn_all(&app, config, test_clock);
    tracing::info!(bind = %config.bind, public_base_url = %config.public_base_url, "listening");
    let result = server.await.map_err(|e| CommandError::Failed(format!("server stopped: {e}")));
    for task in background {
        task.abort();
    }
    result
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
