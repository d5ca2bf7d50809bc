//! Automatic renewal's records: the customer's consent (kept as given, so it can be shown and
//! proven) and the renewal charge of one term (one per client and term, so a charge is never
//! made twice across restarts, instances and retries).

use time::OffsetDateTime;
use vp_domain::renewal::TurnedOffBy;
use vp_domain::{AccountId, ClientRef};
use vp_domain::{Lang, PriceBreakdown};

/// A customer's consent to automatic renewal, given with an invoice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalConsent {
    pub id: String,
    pub account_id: AccountId,
    pub client_ref: ClientRef,
    /// The invoice the consent came with.
    pub payment_id: String,
    /// The plan each renewal buys.
    pub plan_id: i32,
    /// Our payment method code renewals are invoiced with.
    pub method: String,
    pub consented_at: OffsetDateTime,
    /// The sentence shown next to the tick, word for word, and its language.
    pub text: String,
    pub lang: Lang,
    /// The price the customer was last told (when consenting, or at a 72 h reminder): what the
    /// next renewal charges.
    pub price: PriceBreakdown,
    pub price_told_at: OffsetDateTime,
    /// The gateway's saved payment method, sealed at rest; `None` until the consent's payment
    /// succeeded and the gateway said which method it saved.
    pub saved_method_sealed: Option<String>,
    /// How the gateway names the saved method ("Bank card *4444"), for the customer's pages.
    pub saved_method_title: Option<String>,
    /// When automatic renewal was turned off, and by whom; `None` while it is on.
    pub turned_off_at: Option<OffsetDateTime>,
    pub turned_off_by: Option<TurnedOffBy>,
}

impl RenewalConsent {
    /// On, with a saved method to charge.
    pub fn chargeable(&self) -> bool {
        self.turned_off_at.is_none() && self.saved_method_sealed.is_some()
    }
}

/// Where the renewal charge of a term got to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenewalChargeState {
    /// Waiting for its (next) try at `next_try_at`.
    Due,
    /// The renewal invoice is issued and its payment asked of the gateway; a try after a crash
    /// asks again with the same key and gets the same payment.
    Charging,
    /// Paid: the term moved on.
    Succeeded,
    /// Declined on every try: the term ends as usual.
    Failed,
    /// Not charged: the customer turned renewal off, or the term changed before the try.
    Dropped,
}

impl RenewalChargeState {
    pub const fn code(self) -> &'static str {
        match self {
            RenewalChargeState::Due => "due",
            RenewalChargeState::Charging => "charging",
            RenewalChargeState::Succeeded => "succeeded",
            RenewalChargeState::Failed => "failed",
            RenewalChargeState::Dropped => "dropped",
        }
    }

    pub fn from_code(code: &str) -> Option<RenewalChargeState> {
        [Self::Due, Self::Charging, Self::Succeeded, Self::Failed, Self::Dropped].into_iter().find(|s| s.code() == code)
    }
}

/// The renewal charge of one client's term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalCharge {
    pub client_ref: ClientRef,
    /// The end of the term being renewed: with the client, the charge's identity.
    pub term_ends_at: OffsetDateTime,
    pub account_id: AccountId,
    pub consent_id: String,
    /// The try under way or next (1 is the first charge).
    pub attempt: u32,
    /// The renewal invoice of this try, reserved before the gateway is asked: its id is the
    /// gateway's idempotency key.
    pub payment_id: String,
    pub state: RenewalChargeState,
    /// When to try (again); a claimed charge is held here until its lease ends. `None` once
    /// settled.
    pub next_try_at: Option<OffsetDateTime>,
    pub last_error: Option<String>,
    pub created_at: OffsetDateTime,
}
