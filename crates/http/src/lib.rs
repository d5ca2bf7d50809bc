//! The actix-web adapter of the partner API. Handlers translate HTTP to use-case calls and
//! errors back, nothing more: the partner API under `/api/partner/v1`, its OpenAPI document,
//! the probes and the metrics route. The pages for people are `vp-web`.

pub mod api;
pub mod auth;
pub mod body;
pub mod dto;
pub mod error;
pub mod event_shapes;
pub mod fallback;
pub mod health;
pub mod localize;
mod messages;
pub mod metrics;
pub mod openapi;
mod reference;
pub mod requests;

use actix_web::web;
use utoipa_actix_web::service_config::ServiceConfig as DocumentedConfig;
use vp_app::Services;
use vp_ports::TrustedProxies;

pub use event_shapes::ApiShapes;
pub use fallback::fallback;
pub use localize::localize;
pub use metrics::MetricsAccess;
pub use requests::track_requests;

pub use vp_app::API_PREFIX;

/// Shared state built once per process: the services the partner API calls, its OpenAPI
/// document, the proxies it trusts.
#[derive(Clone)]
pub struct HttpState {
    pub services: Services,
    pub openapi_json: web::Data<openapi::OpenApiJson>,
    pub proxies: web::Data<TrustedProxies>,
}

impl HttpState {
    /// The default trusts no proxy: a client's address is its peer's.
    pub fn new(services: Services) -> HttpState {
        HttpState {
            services,
            openapi_json: web::Data::new(openapi::OpenApiJson::build()),
            proxies: web::Data::new(TrustedProxies::default()),
        }
    }

    /// How the client's address is found behind trusted proxies (`VP_TRUSTED_PROXIES`).
    pub fn with_trusted_proxies(self, proxies: TrustedProxies) -> HttpState {
        HttpState { proxies: web::Data::new(proxies), ..self }
    }
}

/// The client's address behind the proxies the operator trusts, for the limits per source.
pub(crate) fn client_address(req: &actix_web::HttpRequest) -> String {
    let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let peer = req.peer_addr().map(|p| p.ip());
    match req.app_data::<web::Data<TrustedProxies>>() {
        Some(proxies) => proxies.client_address(peer, forwarded),
        None => TrustedProxies::default().client_address(peer, forwarded),
    }
}

/// Registers every route of this adapter. Wrap the actix `App` with `localize` and send unknown
/// `/api/...` paths to `fallback`, so that every error (even an unknown route) is an envelope.
pub fn configure(state: HttpState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let s = &state.services;
        cfg.app_data(web::Data::from(s.access.clone()))
            .app_data(web::Data::from(s.catalog.clone()))
            .app_data(web::Data::from(s.clients.clone()))
            .app_data(web::Data::from(s.payments.clone()))
            .app_data(web::Data::from(s.observability.clone()))
            .app_data(state.openapi_json.clone())
            .app_data(state.proxies.clone())
            .app_data(web::PayloadConfig::new(body::BODY_LIMIT))
            .configure(health::routes)
            // The partner API before the pages: routing (and the route label of every request)
            // tries resources in this order, and the pages' patterns are regular expressions.
            .service(
                web::scope(API_PREFIX)
                    .route("/openapi.json", web::get().to(openapi::serve))
                    .configure(reference::routes)
                    .configure(|scope_cfg| api::endpoints(&mut DocumentedConfig::new(scope_cfg))),
            );
    }
}
