//! Telegram Stars payments (docs/decisions.md, "Telegram Stars"): an invoice's price in Stars,
//! the charges Telegram reported, and monthly Stars subscriptions.

use time::OffsetDateTime;
use vp_domain::{AccountId, ClientRef};

/// An invoice to be paid in Stars in the partner's bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsInvoice {
    pub payment_id: String,
    pub account_id: AccountId,
    /// Its price in whole Stars (what the Telegram invoice asks).
    pub stars: i64,
    /// A one-month plan paid in Stars is a Stars subscription, renewed by Telegram.
    pub subscription: bool,
    pub created_at: OffsetDateTime,
}

/// A Stars payment Telegram reported (`successful_payment`), kept once per charge id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsCharge {
    /// Telegram's `telegram_payment_charge_id`.
    pub charge_id: String,
    pub account_id: AccountId,
    /// The invoice it paid (one charge per invoice).
    pub payment_id: String,
    /// Who paid: what `refundStarPayment` names.
    pub user_id: i64,
    pub stars: i64,
    /// A renewal of a Stars subscription (not its first payment).
    pub renewal: bool,
    pub paid_at: OffsetDateTime,
    pub refunded_at: Option<OffsetDateTime>,
}

/// A monthly Stars subscription, named by its first charge (what `editUserStarSubscription`
/// takes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsSubscription {
    pub charge_id: String,
    pub account_id: AccountId,
    pub client_ref: ClientRef,
    /// The invoice of the first payment (its payload comes back with every renewal).
    pub payment_id: String,
    pub user_id: i64,
    pub stars: i64,
    /// Until when Telegram says it is paid (`subscription_expiration_date`).
    pub paid_until: OffsetDateTime,
    /// When the customer cancelled it: Telegram charges no more.
    pub canceled_at: Option<OffsetDateTime>,
}
