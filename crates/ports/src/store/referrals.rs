//! Referral programs, personal codes and invitations (docs/decisions.md, "Referrals").

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::referral::{ReferralCode, ReferralDays};

use super::StoreResult;
use crate::referral::{InviterStats, ReferralCodeRecord, ReferralRecord, ReferralTotals};

#[async_trait]
pub trait ReferralRepo: Send {
    /// The account's days per invited customer (`OFF` when never set).
    async fn referral_days(&mut self, account_id: &str) -> StoreResult<ReferralDays>;
    async fn set_referral_days(&mut self, account_id: &str, days: ReferralDays, now: OffsetDateTime)
    -> StoreResult<()>;
    /// The personal code of the client, if they were given one.
    async fn referral_code_of(&mut self, client_ref: &str) -> StoreResult<Option<ReferralCodeRecord>>;
    /// A new personal code; `StoreError::Conflict` when the code or the client has one.
    async fn insert_referral_code(&mut self, code: &ReferralCodeRecord) -> StoreResult<()>;
    async fn referral_code(&mut self, code: &ReferralCode) -> StoreResult<Option<ReferralCodeRecord>>;
    /// Records an invitation; `false` (and nothing written) when the person has one already.
    async fn insert_referral(&mut self, referral: &ReferralRecord) -> StoreResult<bool>;
    async fn referral_of_invited(&mut self, account_id: &str, user_id: i64) -> StoreResult<Option<ReferralRecord>>;
    /// The invitation the payment rewarded, if any.
    async fn referral_rewarded_by(&mut self, payment_id: &str) -> StoreResult<Option<ReferralRecord>>;
    /// The inviter's rewards kept as credits (not spent, not taken back), oldest first.
    async fn referral_credits(&mut self, inviter_ref: &str) -> StoreResult<Vec<ReferralRecord>>;
    /// Writes the invitation's reward.
    async fn update_referral(&mut self, referral: &ReferralRecord) -> StoreResult<()>;
    /// The account's inviters with the most invited customers who paid, then the most
    /// invited, at most `limit`.
    async fn top_inviters(&mut self, account_id: &str, limit: u32) -> StoreResult<Vec<InviterStats>>;
    async fn referral_totals(&mut self, account_id: &str) -> StoreResult<ReferralTotals>;
}
