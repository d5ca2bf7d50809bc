//! The actix-web adapter. Handlers translate HTTP to use-case calls and errors back, nothing
//! more: the partner API under `/api/partner/v1`, the customer pages, the probes.

pub mod api;
pub mod auth;
pub mod body;
pub mod cabinet;
pub mod dto;
pub mod error;
pub mod event_shapes;
pub mod fallback;
pub mod health;
pub mod localize;
mod messages;
pub mod metrics;
pub mod observe;
pub mod openapi;
pub mod pages;
pub mod rate_limit;

use actix_web::web;
use utoipa_actix_web::service_config::ServiceConfig as DocumentedConfig;
use vp_app::App;

pub use event_shapes::ApiShapes;
pub use fallback::fallback;
pub use localize::localize;
pub use metrics::MetricsAccess;
pub use observe::observe;
pub use rate_limit::Limiter;

/// Base path of the partner API.
pub const API_PREFIX: &str = "/api/partner/v1";

/// Shared state built once per process (the rate limiter must be one for all workers).
#[derive(Clone)]
pub struct HttpState {
    pub app: web::Data<App>,
    pub limiter: web::Data<Limiter>,
    pub openapi_json: web::Data<openapi::OpenApiJson>,
    pub client_address: web::Data<cabinet::ClientAddress>,
}

impl HttpState {
    pub fn new(app: App, limiter: Limiter) -> HttpState {
        HttpState {
            app: web::Data::new(app),
            limiter: web::Data::new(limiter),
            openapi_json: web::Data::new(openapi::OpenApiJson::build()),
            client_address: web::Data::new(cabinet::ClientAddress::peer()),
        }
    }

    /// How the client's address is found behind trusted proxies (the default trusts none).
    pub fn with_client_address(self, client_address: cabinet::ClientAddress) -> HttpState {
        HttpState { client_address: web::Data::new(client_address), ..self }
    }
}

/// Registers every route of this adapter. Wrap the actix `App` with `localize` and give it
/// `fallback` as default service, so that every error (even an unknown route) is an envelope.
pub fn configure(state: HttpState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(state.app.clone())
            .app_data(state.limiter.clone())
            .app_data(state.openapi_json.clone())
            .app_data(state.client_address.clone())
            .app_data(web::PayloadConfig::new(body::BODY_LIMIT))
            .configure(health::routes)
            // The partner API before the pages: routing (and the route label of every request)
            // tries resources in this order, and the pages' patterns are regular expressions.
            .service(
                web::scope(API_PREFIX)
                    .route("/openapi.json", web::get().to(openapi::serve))
                    .configure(|scope_cfg| api::endpoints(&mut DocumentedConfig::new(scope_cfg))),
            )
            .configure(pages::routes)
            .configure(cabinet::routes);
    }
}
