//! The partner API under `/api/partner/v1`: one file per resource, each handler translating
//! HTTP to one use case and its result (or error) back.

pub mod account;
pub mod catalog;
pub mod clients;
pub mod payments;

use utoipa_actix_web::service_config::ServiceConfig;

/// Every partner endpoint, registered once for routing and for the OpenAPI document.
pub fn endpoints(cfg: &mut ServiceConfig<'_>) {
    cfg.service(account::get_account)
        .service(account::update_account)
        .service(catalog::get_plans)
        .service(catalog::get_payment_methods)
        .service(catalog::get_apps)
        .service(catalog::get_documents)
        .service(payments::create_payment)
        .service(payments::get_payment)
        .service(clients::list_clients)
        .service(clients::get_client)
        .service(clients::get_devices)
        .service(clients::delete_device)
        .service(clients::start_trial)
        .service(clients::rotate_link);
}

/// (method, path template) of every partner endpoint, for 405 answers and the route test.
pub const ROUTES: [(&str, &str); 14] = [
    ("GET", "/account"),
    ("PATCH", "/account"),
    ("GET", "/plans"),
    ("GET", "/payment-methods"),
    ("POST", "/payments"),
    ("GET", "/payments/{payment_id}"),
    ("GET", "/clients"),
    ("GET", "/clients/{client_id}"),
    ("GET", "/clients/{client_id}/devices"),
    ("DELETE", "/clients/{client_id}/devices/{device_id}"),
    ("POST", "/clients/{client_id}/trial"),
    ("POST", "/clients/{client_id}/rotate-link"),
    ("GET", "/apps"),
    ("GET", "/documents"),
];
