//! The `Partner` extractor: `Authorization: Bearer <key>` resolved to an account, then the
//! account's per-minute limits (both windows at once for `POST /payments`, one round trip to
//! the shared windows). Every authentication failure is the same `401 UNAUTHORIZED`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::Method;
use actix_web::{FromRequest, HttpRequest, web};
use vp_app::App;
use vp_domain::limits::AccountLimits;
use vp_ports::{AccountRecord, RequestWindow, WindowCheck};

use crate::API_PREFIX;
use crate::error::{ApiError, ErrorCode};
use crate::rate_limit::Limiter;

/// The authenticated account of a partner request.
pub struct Partner(pub AccountRecord);

/// The token of an `Authorization: Bearer <token>` header.
pub(crate) fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get("authorization")?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_owned())
}

impl FromRequest for Partner {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Partner, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let app = req.app_data::<web::Data<App>>().cloned();
        let limiter = req.app_data::<web::Data<Limiter>>().cloned();
        let key = bearer(req);
        let is_payment = is_payment_creation(req);
        Box::pin(async move {
            let (Some(app), Some(limiter)) = (app, limiter) else {
                return Err(ApiError::new(ErrorCode::InternalError));
            };
            let account = app.authenticate(key.as_deref()).await?;
            admit(&app, &limiter, &account, is_payment).await?;
            Ok(Partner(account))
        })
    }
}

/// `POST /payments` also counts against the payment window.
fn is_payment_creation(req: &HttpRequest) -> bool {
    req.method() == Method::POST && req.match_pattern().is_some_and(|p| p.strip_prefix(API_PREFIX) == Some("/payments"))
}

/// One request against the account's per-minute limits (with its overrides): every request
/// against the account window, a payment creation then against the payment window.
async fn admit(app: &App, limiter: &Limiter, account: &AccountRecord, is_payment: bool) -> Result<(), ApiError> {
    let limits = AccountLimits::with_overrides(&account.limits);
    let all =
        WindowCheck { account_id: &account.id, window: RequestWindow::AllRequests, limit: limits.requests_per_minute };
    let payments =
        WindowCheck { account_id: &account.id, window: RequestWindow::Payments, limit: limits.payments_per_minute };
    let checks = if is_payment { &[all, payments][..] } else { &[all][..] };
    limiter.admit(checks, app.clock.now()).await.map_err(|r| ApiError::retry_after(ErrorCode::RateLimited, r.0))
}
