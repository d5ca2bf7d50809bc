//! The web surfaces for people, beside the partner API: the customer pages (start page,
//! sandbox payment page, payment result, documents, connect pages) and the partner cabinet
//! under `/cabinet`. Like the partner API they only translate HTTP to use-case calls; what they
//! add is the page kit the pages are built with.

pub mod cabinet;
pub mod mail;
pub mod operator;
pub mod pages;

use actix_web::web;
use vp_app::Services;
use vp_ports::TrustedProxies;

pub use pages::kit::not_found_page;

/// Shared state of the web surfaces, built once per process: the services the pages call, the
/// proxies they trust.
#[derive(Clone)]
pub struct WebState {
    pub services: Services,
    pub proxies: web::Data<TrustedProxies>,
}

impl WebState {
    /// The default trusts no proxy: a client's address is its peer's.
    pub fn new(services: Services) -> WebState {
        WebState { services, proxies: web::Data::new(TrustedProxies::default()) }
    }

    /// How the client's address is found behind trusted proxies.
    pub fn with_trusted_proxies(self, proxies: TrustedProxies) -> WebState {
        WebState { proxies: web::Data::new(proxies), ..self }
    }
}

/// Registers the customer pages and the cabinet. Register after the partner API: routing tries
/// resources in order, and the pages' patterns are regular expressions.
pub fn configure(state: WebState) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        let s = &state.services;
        let cookies = cabinet::session::Cookies { secure: s.cabinet_access.secure_cookies() };
        cfg.app_data(web::Data::from(s.payments.clone()))
            .app_data(web::Data::from(s.clients.clone()))
            .app_data(web::Data::from(s.catalog.clone()))
            .app_data(web::Data::from(s.bot_shop.clone()))
            .app_data(web::Data::from(s.cabinet_access.clone()))
            .app_data(web::Data::from(s.cabinet.clone()))
            .app_data(web::Data::from(s.notices.clone()))
            .app_data(web::Data::from(s.renewals.clone()))
            .app_data(web::Data::from(s.shop.clone()))
            .app_data(web::Data::from(s.promotions.clone()))
            .app_data(web::Data::from(s.referrals.clone()))
            .app_data(web::Data::from(s.broadcasts.clone()))
            .app_data(web::Data::from(s.gifts.clone()))
            .app_data(web::Data::from(s.sales.clone()))
            .app_data(web::Data::from(s.operator_access.clone()))
            .app_data(web::Data::from(s.operator_view.clone()))
            .app_data(web::Data::new(cookies))
            .app_data(state.proxies.clone())
            .configure(pages::routes)
            .configure(cabinet::routes)
            .configure(operator::routes);
    }
}
