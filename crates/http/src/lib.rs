//! The actix-web adapter. Handlers translate HTTP to use-case calls and errors back, nothing
//! more. For now: the operational probes; the partner API mounts here under `/api/partner/v1`.

pub mod health;

use actix_web::web;
use vp_app::App;

/// Registers every route of the service on an actix `App`.
pub fn configure(app: App) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(app)).configure(health::routes);
    }
}
