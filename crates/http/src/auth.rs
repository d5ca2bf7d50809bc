//! The `Partner` extractor: `Authorization: Bearer <key>` resolved to an account, then the
//! account's request limit. Every authentication failure is the same `401 UNAUTHORIZED`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use vp_app::App;
use vp_domain::limits::AccountLimits;
use vp_ports::AccountRecord;

use crate::error::{ApiError, ErrorCode};
use crate::rate_limit::{Bucket, RateLimiter};

/// The authenticated account of a partner request.
pub struct Partner(pub AccountRecord);

fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_owned())
}

impl FromRequest for Partner {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Partner, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let app = req.app_data::<web::Data<App>>().cloned();
        let limiter = req.app_data::<web::Data<RateLimiter>>().cloned();
        let key = bearer(req);
        Box::pin(async move {
            let (Some(app), Some(limiter)) = (app, limiter) else {
                return Err(ApiError::new(ErrorCode::InternalError));
            };
            let account = app.authenticate(key.as_deref()).await?;
            admit(&app, &limiter, &account, Bucket::AllRequests)?;
            Ok(Partner(account))
        })
    }
}

/// The extra `POST /payments` limit, checked after the account-wide one.
pub fn admit_payment(app: &App, limiter: &RateLimiter, account: &AccountRecord) -> Result<(), ApiError> {
    admit(app, limiter, account, Bucket::Payments)
}

/// One request against the account's per-minute limit of `bucket` (with its overrides).
fn admit(app: &App, limiter: &RateLimiter, account: &AccountRecord, bucket: Bucket) -> Result<(), ApiError> {
    let limits = AccountLimits::with_overrides(&account.limits);
    let limit = match bucket {
        Bucket::AllRequests => limits.requests_per_minute,
        Bucket::Payments => limits.payments_per_minute,
    };
    limiter
        .admit(&account.id, bucket, limit, app.clock.now())
        .map_err(|r| ApiError::retry_after(ErrorCode::RateLimited, r.0))
}
