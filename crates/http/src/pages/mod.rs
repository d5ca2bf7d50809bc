//! Customer-facing pages served without a key: the sandbox payment page, the payment result
//! page, the legal documents, the open-in-app page behind `connect_url`, the start page and the
//! not-found page of every path outside the partner API, all built with the page kit.

mod assets;
pub mod connect;
pub mod documents;
pub mod home;
pub mod kit;
mod order;
mod qr;
pub mod result;
pub mod sandbox;

use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(home::show))
        .route("/favicon.ico", web::get().to(assets::favicon))
        .route("/assets/copy.js", web::get().to(assets::copy_js))
        .route("/sandbox/pay/{payment_id}", web::get().to(sandbox::show))
        .route("/sandbox/pay/{payment_id}", web::post().to(sandbox::act))
        .route("/documents/{account_id}/{doc_type}", web::get().to(documents::show))
        .route("/connect/{token}", web::get().to(connect::list))
        .route("/connect/{token}/{app_id}", web::get().to(connect::for_app))
        .route(&format!("{}{{payment_id}}", vp_app::partner::PAYMENT_RESULT_PREFIX), web::get().to(result::show));
}
