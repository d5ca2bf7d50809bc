//! Gift subscriptions (docs/decisions.md, "Gift subscriptions"): each is the invoice that
//! pays for it, the hash of its code, and what became of it.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientRef, Lang, PaymentId};

use super::StoreResult;

/// A gift as kept. Its invoice (the buyer's client's, `payment_id`) says whether and when it
/// was paid and what plan it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftRecord {
    pub payment_id: PaymentId,
    pub account_id: AccountId,
    /// SHA-256 of the code, in hex: the code itself is never stored.
    pub code_hash: String,
    /// Whom the buyer asked us to mail the gift to, if anyone.
    pub recipient_email: Option<String>,
    /// The buyer's language: the recipient's mail is written in it.
    pub lang: Lang,
    pub created_at: OffsetDateTime,
    pub redeemed_at: Option<OffsetDateTime>,
    /// The client whose subscription the gift started or extended.
    pub redeemed_by: Option<ClientRef>,
    pub refunded_at: Option<OffsetDateTime>,
}

#[async_trait]
pub trait GiftRepo: Send {
    async fn insert_gift(&mut self, gift: &GiftRecord) -> StoreResult<()>;
    /// The gift an invoice pays for, if it pays for one.
    async fn gift(&mut self, payment_id: &str) -> StoreResult<Option<GiftRecord>>;
    async fn gift_by_code_hash(&mut self, code_hash: &str) -> StoreResult<Option<GiftRecord>>;
    /// Marks the gift redeemed by `client_ref` unless it was redeemed or refunded already;
    /// whether it did (so two redemptions at once redeem it once).
    async fn redeem_gift(&mut self, payment_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<bool>;
    /// Marks the gift refunded unless it was redeemed or refunded already; whether it did.
    async fn refund_gift(&mut self, payment_id: &str, at: OffsetDateTime) -> StoreResult<bool>;
    /// Takes back a `refund_gift` whose refund the gateway then refused.
    async fn unrefund_gift(&mut self, payment_id: &str) -> StoreResult<()>;
    /// The account's gifts, newest first, at most `limit`.
    async fn account_gifts(&mut self, account_id: &str, limit: u32) -> StoreResult<Vec<GiftRecord>>;
}
