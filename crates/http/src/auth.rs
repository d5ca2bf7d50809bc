//! The `Partner` extractor: `Authorization: Bearer <key>` resolved to an account, then the
//! account's per-minute limits (both windows at once for `POST /payments`, one round trip to
//! the shared windows). Every authentication failure is the same `401 UNAUTHORIZED`.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use vp_app::App;
use vp_domain::limits::AccountLimits;
use vp_ports::{AccountRecord, RequestWindow, WindowCheck};

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
        let admitted = admitted(req, false);
        Box::pin(async move { admitted.await.map(Partner) })
    }
}

/// The partner of a `POST /payments`: the handler's type says it, so the payment window is
/// counted without matching the request's path again.
pub struct PayingPartner(pub AccountRecord);

impl FromRequest for PayingPartner {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<PayingPartner, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let admitted = admitted(req, true);
        Box::pin(async move { admitted.await.map(PayingPartner) })
    }
}

/// The request's account once its key is valid and its windows admit it.
fn admitted(req: &HttpRequest, is_payment: bool) -> impl Future<Output = Result<AccountRecord, ApiError>> + use<> {
    let app = req.app_data::<web::Data<App>>().cloned();
    let limiter = req.app_data::<web::Data<Limiter>>().cloned();
    let key = bearer(req);
    async move {
        let (Some(app), Some(limiter)) = (app, limiter) else {
            return Err(ApiError::new(ErrorCode::InternalError));
        };
        let account = app.authenticate(key.as_deref()).await?;
        admit(&app, &limiter, &account, is_payment).await?;
        Ok(account)
    }
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
