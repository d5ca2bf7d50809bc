//! The accounts' web shops.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::StoreResult;

#[async_trait]
pub trait ShopRepo: Send {
    /// The account's shop slug, if it has one yet.
    async fn shop_slug(&mut self, account_id: &str) -> StoreResult<Option<String>>;
    /// The account whose shop has this slug.
    async fn shop_account(&mut self, slug: &str) -> StoreResult<Option<String>>;
    /// Sets or replaces the account's slug; `Conflict` when another account's shop has it.
    async fn put_shop_slug(&mut self, account_id: &str, slug: &str, at: OffsetDateTime) -> StoreResult<()>;
    /// Accounts without a shop slug yet (made before shops existed), at most `limit`.
    async fn accounts_without_shop(&mut self, limit: u32) -> StoreResult<Vec<String>>;
}
