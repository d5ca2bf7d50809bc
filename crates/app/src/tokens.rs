//! Random tokens the use cases hand out: subscription-link tokens, session, form and link
//! tokens, one-time codes.

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use vp_ports::IdGenerator;

/// Makes tokens from the id port's random bytes.
#[derive(Clone)]
pub(crate) struct Tokens {
    ids: Arc<dyn IdGenerator>,
}

impl Tokens {
    pub(crate) fn new(ids: Arc<dyn IdGenerator>) -> Tokens {
        Tokens { ids }
    }

    /// 32 random bytes, URL-safe base64 (43 characters): session, link and form tokens,
    /// one-time codes (a Telegram start parameter allows 64 of `[A-Za-z0-9_-]`).
    pub(crate) fn random(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.ids.random_bytes(32))
    }

    /// A new personal referral code: 9 random bytes.
    pub(crate) fn referral_code(&self) -> vp_domain::referral::ReferralCode {
        let mut bytes = [0u8; 9];
        for (b, r) in bytes.iter_mut().zip(self.ids.random_bytes(9)) {
            *b = r;
        }
        vp_domain::referral::ReferralCode::from_random(bytes)
    }

    /// A new secret subscription-link token (24 random bytes, URL-safe).
    pub(crate) fn link_token(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.ids.random_bytes(24))
    }
}
