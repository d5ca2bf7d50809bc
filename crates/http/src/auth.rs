//! The `Partner` extractor: `Authorization: Bearer <key>` resolved to an account, then the
//! account's per-minute limits (both windows at once for `POST /payments`, one round trip to
//! the shared windows). Every authentication failure is the same `401 UNAUTHORIZED`.

use std::future::Future;
use std::pin::Pin;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use vp_app::access::PartnerAccess;
use vp_app::{AppError, Refusal};
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
        let access = req.app_data::<web::Data<PartnerAccess>>().cloned();
        let key = bearer(req);
        let source = crate::client_address(req);
        Box::pin(async move {
            let Some(access) = access else {
                return Err(ApiError::new(ErrorCode::InternalError));
            };
            let account = match access.authenticate(key.as_deref(), &source).await {
                Ok(account) => account,
                Err(AppError::Refused(Refusal::TooManyFailedAuthentications { retry_after_secs })) => {
                    let held = hold_back().await;
                    let left = retry_after_secs.saturating_sub(held.as_secs());
                    return Err(ApiError::retry_after(ErrorCode::RateLimited, left));
                }
                Err(e) => return Err(e.into()),
            };
            access
                .admit_request(&account, PAYMENT)
                .await
                .map_err(|r| ApiError::retry_after(ErrorCode::RateLimited, r.0))?;
            Ok(Partner(account))
        })
    }
}

/// How long a refusal for too many failed authentications is held before it is sent: a flood
/// that ignores `Retry-After` then sends a request per connection a second instead of as fast as
/// the service answers, and costs the instance (and the partners it serves) next to nothing.
const HOLD_BACK: Duration = Duration::from_secs(1);
/// At most this many refusals are held at once per process; beyond it they are sent at once,
/// so a flood of connections cannot tie up the connection slots instead.
const HOLD_BACK_MAX: usize = 1_024;

static HELD_BACK: AtomicUsize = AtomicUsize::new(0);

/// Holds the refusal back unless too many are held already; returns how long it held.
async fn hold_back() -> Duration {
    let held = if HELD_BACK.fetch_add(1, Ordering::Relaxed) < HOLD_BACK_MAX {
        actix_web::rt::time::sleep(HOLD_BACK).await;
        HOLD_BACK
    } else {
        Duration::ZERO
    };
    HELD_BACK.fetch_sub(1, Ordering::Relaxed);
    held
}
