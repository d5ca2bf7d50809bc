//! Referrals as stored (docs/decisions.md, "Referrals").

use time::OffsetDateTime;
use vp_domain::ClientId;
use vp_domain::referral::{ReferralCode, RewardState};
use vp_domain::{AccountId, ClientRef};

/// A customer's personal code, made the first time they ask for their link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferralCodeRecord {
    pub code: ReferralCode,
    pub account_id: AccountId,
    /// The inviter: the client the customer is.
    pub client_ref: ClientRef,
    pub created_at: OffsetDateTime,
}

/// A person of the account's bot who came through a customer's link, and what their first
/// payment gave the inviter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferralRecord {
    pub account_id: AccountId,
    /// The invited person (their Telegram user id in the account's bot).
    pub invited_user_id: i64,
    pub inviter_ref: ClientRef,
    pub invited_at: OffsetDateTime,
    pub reward: Option<ReferralReward>,
}

/// What the invited customer's first payment gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferralReward {
    /// The invited customer's payment that rewarded (its refund takes the reward back).
    pub payment_id: String,
    pub days: u32,
    pub state: RewardState,
    pub rewarded_at: OffsetDateTime,
    /// The inviter's payment a credit was added to.
    pub spent_payment_id: Option<String>,
    pub reversed_at: Option<OffsetDateTime>,
}

/// One inviter's figures: people who came through their link, those who paid, and the days
/// given (rewards not taken back).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviterStats {
    pub client_id: ClientId,
    pub invited: u64,
    pub rewarded: u64,
    pub days_given: u64,
}

/// An account's referral figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReferralTotals {
    pub invited: u64,
    pub rewarded: u64,
    pub days_given: u64,
}
