//! Customer-facing pages served without a key: the sandbox payment page, the payment result
//! page, the legal documents, the open-in-app page behind `connect_url`, the start page and the
//! not-found page of every path outside the partner API, all built with the page kit.

mod assets;
pub mod connect;
pub mod documents;
pub mod home;
pub mod kit;
pub(crate) mod order;
mod qr;
mod reminders;
mod renewal;
pub mod result;
pub mod sandbox;
mod shop;
mod shop_account;
mod shop_gift;
mod shop_several;

use actix_web::guard::{Guard, GuardContext};
use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(home::show))
        .route("/favicon.ico", web::get().to(assets::favicon))
        .route("/assets/copy.js", web::get().to(assets::copy_js))
        .route("/sandbox/pay/{payment_id}", web::get().to(sandbox::show))
        .route("/sandbox/pay/{payment_id}", web::post().to(sandbox::act))
        .route("/documents/{account_id}/{doc_type}", web::get().to(documents::show))
        .route(&format!("{}{{slug}}", vp_app::shop::SHOP_PATH), web::get().to(shop::show))
        .route(&format!("{}{{slug}}", vp_app::shop::SHOP_PATH), web::post().to(shop::buy))
        .route(&format!("{}{{slug}}/account", vp_app::shop::SHOP_PATH), web::get().to(shop_account::show))
        .route(&format!("{}{{slug}}/account", vp_app::shop::SHOP_PATH), web::post().to(shop_account::sign_in))
        .route(
            &format!("{}{{slug}}/sign-in/{{token}}", vp_app::shop::SHOP_PATH),
            web::get().to(shop_account::enter_link),
        )
        .route(&format!("{}{{slug}}/sign-out", vp_app::shop::SHOP_PATH), web::post().to(shop_account::sign_out))
        .route(
            &format!("{}{{slug}}/account/remove-device", vp_app::shop::SHOP_PATH),
            web::post().to(shop_account::remove_device),
        )
        .route(&format!("{}{{slug}}/account/new-link", vp_app::shop::SHOP_PATH), web::post().to(shop_account::new_link))
        .route(&format!("{}{{slug}}/account/trial", vp_app::shop::SHOP_PATH), web::post().to(shop_account::start_trial))
        .route(&format!("{}{{slug}}/account/buy", vp_app::shop::SHOP_PATH), web::post().to(shop_several::buy))
        .route(&format!("{}{{slug}}/gift/{{code}}", vp_app::shop::SHOP_PATH), web::get().to(shop_gift::show))
        .route(&format!("{}{{slug}}/gift/{{code}}", vp_app::shop::SHOP_PATH), web::post().to(shop_gift::redeem))
        .route(vp_ports::pages::CONNECT_ROUTE, web::get().to(connect::list))
        .route("/reminders/{token}", web::post().to(reminders::link))
        .route("/renewal/{token}/off", web::post().to(renewal::turn_off))
        // Registered before the panel's `/sub/{token}`, which answers everything else.
        .service(web::resource("/sub/{token}").guard(BrowserPage).route(web::get().to(connect::list)))
        .route(vp_ports::pages::CONNECT_APP_ROUTE, web::get().to(connect::for_app))
        .route(&format!("{}{{payment_id}}", vp_app::payments::PAYMENT_RESULT_PREFIX), web::get().to(result::show))
        .route(&format!("{}{{payment_id}}", vp_app::payments::PAYMENT_RESULT_PREFIX), web::post().to(result::consent));
}

/// A person opening a subscription link in a browser: HTML asked for, and none of the headers
/// VPN apps send (they ask for `*/*` or nothing, and send `x-hwid` when they register devices).
pub struct BrowserPage;

const APP_HEADERS: [&str; 4] = ["x-hwid", "x-device-os", "x-ver-os", "x-device-model"];

impl Guard for BrowserPage {
    fn check(&self, ctx: &GuardContext<'_>) -> bool {
        let headers = ctx.head().headers();
        let wants_html = headers
            .get("accept")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|accept| accept.split(',').any(|t| t.trim().starts_with("text/html")));
        wants_html && !APP_HEADERS.iter().any(|h| headers.contains_key(*h))
    }
}
