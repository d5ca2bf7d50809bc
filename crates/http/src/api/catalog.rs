use actix_web::web::Data;
use actix_web::{HttpRequest, HttpResponse, get};
use vp_app::catalog::Catalog;

use crate::auth::Partner;
use crate::dto::{Apps, Documents, PaymentMethods, Plans};
use crate::error::{ApiError, Envelope};
use crate::localize::request_lang;

/// Plans and prices, with the extra-device offer.
#[utoipa::path(
    tag = "catalog",
    security(("PartnerKey" = [])),
    responses((status = 200, body = Plans), (status = 401, description = "UNAUTHORIZED", body = Envelope))
)]
#[get("/plans")]
pub async fn get_plans(partner: Partner, catalog: Data<Catalog>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(Plans::from(catalog.price_list(&partner.0).await?)))
}

/// Available payment methods; names follow `Accept-Language`. Re-read before display.
#[utoipa::path(
    tag = "catalog",
    security(("PartnerKey" = [])),
    params(("Accept-Language" = Option<String>, Header, description = "`ru` or `en` (default)")),
    responses((status = 200, body = PaymentMethods), (status = 401, description = "UNAUTHORIZED", body = Envelope))
)]
#[get("/payment-methods")]
pub async fn get_payment_methods(
    req: HttpRequest,
    _partner: Partner,
    catalog: Data<Catalog>,
) -> Result<HttpResponse, ApiError> {
    let methods = catalog.available_payment_methods().await?;
    Ok(HttpResponse::Ok().json(PaymentMethods::new(methods, request_lang(&req))))
}

/// Application download links, the recommended application and downloads per platform.
#[utoipa::path(
    tag = "catalog",
    security(("PartnerKey" = [])),
    params(("Accept-Language" = Option<String>, Header, description = "`ru` or `en` (default)")),
    responses((status = 200, body = Apps), (status = 401, description = "UNAUTHORIZED", body = Envelope))
)]
#[get("/apps")]
pub async fn get_apps(req: HttpRequest, _partner: Partner, catalog: Data<Catalog>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(Apps::from(catalog.apps(request_lang(&req)).await?)))
}

/// Legal documents to show the customer before payment; the pages need no key.
#[utoipa::path(
    tag = "catalog",
    security(("PartnerKey" = [])),
    params(("Accept-Language" = Option<String>, Header, description = "`ru` or `en` (default)")),
    responses((status = 200, body = Documents), (status = 401, description = "UNAUTHORIZED", body = Envelope))
)]
#[get("/documents")]
pub async fn get_documents(
    req: HttpRequest,
    partner: Partner,
    catalog: Data<Catalog>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(Documents::from(catalog.document_links(&partner.0, request_lang(&req)).await?)))
}
