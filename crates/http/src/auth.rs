//! The `Partner` extractor: `Authorization: Bearer <key>` resolved to an account, then the
//! account's per-minute limits (both windows at once for `POST /payments`, one round trip to
//! the shared windows). Every authentication failure is the same `401 UNAUTHORIZED`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use vp_app::App;
use vp_ports::AccountRecord;

use crate::error::{ApiError, ErrorCode};

/// The authenticated account of a partner request. `PAYMENT` is the handler's word that the
/// request creates a payment and counts against the payment window too (`PayingPartner`), so
/// no route is matched again to find out.
pub struct Partner<const PAYMENT: bool = false>(pub AccountRecord);

/// The partner of a `POST /payments`.
pub type PayingPartner = Partner<true>;

/// The token of an `Authorization: Bearer <token>` header.
pub(crate) fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_owned())
}

impl<const PAYMENT: bool> FromRequest for Partner<PAYMENT> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let app = req.app_data::<web::Data<App>>().cloned();
        let key = bearer(req);
        let source = crate::client_address(req);
        Box::pin(async move {
            let Some(app) = app else {
                return Err(ApiError::new(ErrorCode::InternalError));
            };
            let account = app.authenticate(key.as_deref(), &source).await?;
            app.admit_request(&account, PAYMENT)
                .await
                .map_err(|r| ApiError::retry_after(ErrorCode::RateLimited, r.0))?;
            Ok(Partner(account))
        })
    }
}
