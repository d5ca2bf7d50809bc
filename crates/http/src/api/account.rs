use actix_web::web::{Bytes, Data};
use actix_web::{HttpRequest, HttpResponse, get, patch};
use vp_app::catalog::Catalog;
use vp_domain::BrandName;

use crate::auth::Partner;
use crate::body::json_object;
use crate::dto::Account;
use crate::error::{ApiError, Envelope};
use crate::openapi::values::AccountUpdate;

/// Read the account; also serves to check the key.
#[utoipa::path(
    tag = "account",
    security(("PartnerKey" = [])),
    responses(
        (status = 200, body = Account),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 429, description = "RATE_LIMITED", body = Envelope),
    )
)]
#[get("/account")]
pub async fn get_account(partner: Partner) -> HttpResponse {
    HttpResponse::Ok().json(Account::from(&partner.0))
}

/// Change the service name.
#[utoipa::path(
    tag = "account",
    security(("PartnerKey" = [])),
    request_body = AccountUpdate,
    responses(
        (status = 200, body = Account),
        (status = 401, description = "UNAUTHORIZED", body = Envelope),
        (status = 422, description = "VALIDATION_ERROR", body = Envelope),
        (status = 429, description = "RATE_LIMITED", body = Envelope),
    )
)]
#[patch("/account")]
pub async fn update_account(
    req: HttpRequest,
    partner: Partner,
    catalog: Data<Catalog>,
    body: Result<Bytes, actix_web::Error>,
) -> Result<HttpResponse, ApiError> {
    let mut body = json_object(&req, body, &["brand_name"])?;
    let brand = body.parsed("brand_name", true, BrandName::parse);
    body.finish()?;
    let Some(brand) = brand else { return Err(ApiError::field("brand_name", "is required")) };
    let account = catalog.rename_brand(&partner.0, brand).await?;
    Ok(HttpResponse::Ok().json(Account::from(&account)))
}
