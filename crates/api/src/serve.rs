//! `serve`: the HTTP server, with the background work beside it (`workers`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::{Next, from_fn};
use actix_web::{HttpServer, web};
use vp_app::operator::shifted_clock::ShiftedClock;
use vp_app::{AppError, Services};
use vp_http::{HttpState, MetricsAccess};
use vp_panel::LocalPanel;
use vp_ports::{BotUpdates, GatewayEvents};
use vp_web::WebState;

use crate::commands::CommandError;
use crate::config::Config;
use crate::output;
use crate::stopping::Stopping;

/// The adapters that serve routes of their own beside the partner API.
pub struct Served {
    /// The local panel's subscription links.
    pub local_panel: Option<Arc<LocalPanel>>,
    /// The gateways' notifications.
    pub gateway_routes: crate::wiring::GatewayRoutes,
}

pub async fn serve(
    services: Services,
    served: Served,
    config: &Config,
    demo: bool,
    shifted_clock: Option<Arc<ShiftedClock>>,
) -> Result<(), CommandError> {
    if let crate::config::SecretsKeySource::KeyFile(path) = &config.secrets_key {
        tracing::warn!(
            path = %path.display(),
            "SECRETS KEY FROM A FILE: secrets are sealed with the key in this file, generated on the first start; \
             back it up with the database, and set VP_SECRETS_KEY in production (docs/operations.md)"
        );
    }
    if demo {
        seed_demo_if_empty(&services).await?;
    }
    if let Some(url) = &config.redis_url {
        let windows = vp_limits::RedisWindows::new(url)
            .map_err(|reason| CommandError::BadInput(format!("VP_REDIS_URL: {reason}")))?;
        tracing::info!("request limits: per-minute windows shared through Redis");
        services.access.share_request_windows(Arc::new(windows));
    }
    let state = HttpState::new(services.clone()).with_trusted_proxies(config.trusted_proxies.clone());
    let web_state = WebState::new(services.clone()).with_trusted_proxies(config.trusted_proxies.clone());
    let Served { local_panel, gateway_routes } = served;
    let events: Arc<dyn GatewayEvents> = services.payments.clone();
    // Remnawave's webhooks, received when the operator gave the panel's secret.
    let panel_webhook = match &config.panel {
        crate::config::PanelChoice::Remnawave(settings) => settings.webhook_secret.clone(),
        crate::config::PanelChoice::Local => None,
    };
    let panel_events: Arc<dyn vp_ports::PanelEvents> = services.panel_sync.clone();
    let conversations: Arc<dyn BotUpdates> = Arc::new(vp_bots::Conversations::new(&services));
    let in_flight = web::Data::new(InFlight::default());
    let counted = in_flight.clone();
    let metrics_access = MetricsAccess { token: config.metrics_token.clone() };
    let on_main_listener = config.metrics_token.is_some().then(|| metrics_access.clone());
    let server = HttpServer::new(move || {
        actix_web::App::new()
            .app_data(counted.clone())
            .wrap(from_fn(vp_http::localize))
            .wrap(from_fn(count_in_flight))
            .wrap(from_fn(vp_http::track_requests))
            .configure(vp_http::configure(state.clone()))
            .configure(vp_web::configure(web_state.clone()))
            .configure(|cfg| {
                if let Some(local) = &local_panel {
                    vp_panel::routes(local.clone())(cfg);
                }
                gateway_routes.configure(&events, cfg);
                if let Some(secret) = &panel_webhook {
                    vp_panel::remnawave::webhook::webhook_routes(secret.clone(), panel_events.clone())(cfg);
                }
                vp_telegram::routes(conversations.clone())(cfg);
                if let Some(access) = &on_main_listener {
                    vp_http::metrics::routes(access.clone())(cfg);
                }
            })
            .default_service(web::to(fallback))
    })
    // Signals are ours (below): actix's own graceful stop relies on per-worker connection
    // counts and was seen to drop a request in flight.
    .disable_signals()
    .shutdown_timeout(config.shutdown_after.as_secs())
    .bind(config.bind)
    .map_err(|e| CommandError::BadInput(format!("cannot listen on {}: {e}", config.bind)))?
    .run();
    let metrics_server = match config.metrics_bind {
        Some(bind) => Some(metrics_listener(&services, metrics_access, bind)?),
        None => None,
    };
    let handle = server.handle();
    let metrics_handle = metrics_server.as_ref().map(actix_web::dev::Server::handle);
    let allowance = config.shutdown_after;
    let drain = config.drain_after;
    let observability = services.observability.clone();
    // The stop's steps, begun by the signal (or by the server's own end, should it come first).
    let stopping = Arc::new(OnceLock::<Stopping>::new());
    let on_signal = stopping.clone();
    tokio::spawn(async move {
        crate::workers::terminated().await;
        // Draining, then requests in flight, then actix's own graceful stop, then the deliveries.
        let steps = on_signal.get_or_init(|| Stopping::begin(drain + allowance * 3));
        // The proxy's health checks see 503 on /ready and take the instance out while it
        // still serves what comes meanwhile.
        observability.start_draining();
        tracing::info!(seconds = drain.as_secs(), "stopping: /ready answers 503");
        steps.step("serving while the proxy takes this instance out");
        tokio::time::sleep(drain).await;
        steps.step("no new connections; finishing the requests in flight");
        handle.pause().await;
        let deadline = tokio::time::Instant::now() + allowance;
        while in_flight.count() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        steps.step("closing the connections");
        handle.stop(true).await;
        if let Some(metrics) = metrics_handle {
            steps.step("closing the metrics listener");
            metrics.stop(true).await;
        }
    });
    if let Some(metrics) = metrics_server {
        tokio::spawn(metrics);
    }
    let background = crate::workers::spawn_all(&services, config, shifted_clock);
    tracing::info!(bind = %config.bind, public_base_url = %config.public_base_url, "listening");
    // On SIGTERM or SIGINT the server stops accepting and lets requests in flight finish (up
    // to VP_SHUTDOWN_SECONDS) before this returns.
    let result = server.await.map_err(|e| CommandError::Failed(format!("server stopped: {e}")));
    let steps = stopping.get_or_init(|| Stopping::begin(allowance * 2));
    background.shut_down(steps).await;
    result
}

/// A path no route took: the envelope under `/api/`, the not-found page for people elsewhere.
async fn fallback(req: actix_web::HttpRequest) -> Result<actix_web::HttpResponse, vp_http::error::ApiError> {
    if vp_http::fallback::is_api_path(req.path()) {
        vp_http::fallback(req).await
    } else {
        Ok(vp_web::not_found_page(&req))
    }
}

/// `GET /metrics` alone on its own listener (`VP_METRICS_BIND`), for a private network.
fn metrics_listener(
    services: &Services,
    access: MetricsAccess,
    bind: std::net::SocketAddr,
) -> Result<actix_web::dev::Server, CommandError> {
    let observability = web::Data::from(services.observability.clone());
    let server = HttpServer::new(move || {
        actix_web::App::new()
            .app_data(observability.clone())
            .wrap(from_fn(vp_http::localize))
            .configure(vp_http::metrics::routes(access.clone()))
            .default_service(web::to(vp_http::fallback::not_found))
    })
    .workers(1)
    .disable_signals()
    .bind(bind)
    .map_err(|e| CommandError::BadInput(format!("cannot listen on {bind} (VP_METRICS_BIND): {e}")))?
    .run();
    tracing::info!(%bind, "metrics listening");
    Ok(server)
}

async fn seed_demo_if_empty(services: &Services) -> Result<(), CommandError> {
    match services.operator.seed_demo().await {
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

/// Requests being answered now, so a shutdown can wait for them.
#[derive(Default)]
struct InFlight(AtomicUsize);

impl InFlight {
    fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// Decrements when the request's handling ends, however it ends.
struct InFlightGuard(web::Data<InFlight>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn count_in_flight(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let guard = req.app_data::<web::Data<InFlight>>().cloned().map(|counter| {
        counter.0.fetch_add(1, Ordering::SeqCst);
        InFlightGuard(counter)
    });
    let response = next.call(req).await;
    drop(guard);
    response
}
