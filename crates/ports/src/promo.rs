//! Promo codes as stored (docs/decisions.md, "Promo codes").

use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::ClientId;
use vp_domain::Money;
use vp_domain::promo::{Benefit, PromoCode, Terms};

/// A partner's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoCodeRecord {
    pub id: String,
    pub account_id: AccountId,
    pub code: PromoCode,
    pub benefit: Benefit,
    pub terms: Terms,
    pub created_at: OffsetDateTime,
}

/// One use of a code, by the invoice that holds it: it counts while that invoice is being
/// issued or is payable, and once it is paid; an expired or failed invoice gives it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoUse {
    pub payment_id: String,
    pub promo_id: String,
    pub account_id: AccountId,
    pub client_id: ClientId,
    pub created_at: OffsetDateTime,
}

/// A code's uses by the state of their invoices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PromoUsage {
    /// Invoices being issued or payable.
    pub held: u64,
    /// Paid invoices.
    pub spent: u64,
    /// What the paid invoices' customers did not pay.
    pub discount_given: Money,
}
