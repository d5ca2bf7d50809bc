//! Promo codes and their uses (docs/decisions.md, "Promo codes").

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::promo::PromoCode;

use super::StoreResult;
use crate::promo::{PromoCodeRecord, PromoUsage, PromoUse};

#[async_trait]
pub trait PromoRepo: Send {
    /// A new code; `StoreError::Conflict` when the account has the code already.
    async fn insert_promo_code(&mut self, code: &PromoCodeRecord) -> StoreResult<()>;
    async fn promo_code(&mut self, account_id: &str, code: &PromoCode) -> StoreResult<Option<PromoCodeRecord>>;
    /// The account's codes, newest first.
    async fn promo_codes(&mut self, account_id: &str) -> StoreResult<Vec<PromoCodeRecord>>;
    /// Turns a code off; `false` when the account has no such code.
    async fn disable_promo_code(
        &mut self,
        account_id: &str,
        code: &PromoCode,
        now: OffsetDateTime,
    ) -> StoreResult<bool>;
    /// Serialises the uses of one code until the unit of work ends (PostgreSQL: the code's row
    /// `FOR UPDATE`; SQLite: already serialised by `BEGIN IMMEDIATE`).
    async fn lock_promo_code(&mut self, promo_id: &str) -> StoreResult<()>;
    /// Uses that count: held by an invoice being issued or payable, or spent by a paid one.
    /// Returns (everyone's, this client's).
    async fn promo_uses_taken(&mut self, promo_id: &str, client_id: &str) -> StoreResult<(u64, u64)>;
    /// Records a use for an invoice; `false` (and nothing written) when that invoice holds one.
    async fn insert_promo_use(&mut self, promo_use: &PromoUse) -> StoreResult<bool>;
    /// Gives back the use of an invoice that was never issued.
    async fn release_promo_use(&mut self, payment_id: &str) -> StoreResult<()>;
    /// Uses of a code by the state of their invoices.
    async fn promo_usage(&mut self, promo_id: &str) -> StoreResult<PromoUsage>;
    /// Whether the account's client with this `client_id` has a paid invoice.
    async fn client_paid_before(&mut self, account_id: &str, client_id: &str) -> StoreResult<bool>;
}
