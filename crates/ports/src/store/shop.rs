//! The accounts' web shops: their addresses and the customers who buy in them by email.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::Lang;

use super::StoreResult;

/// A person who bought in an account's web shop: the client the shop serves them as, linked by
/// the email they gave (compared without regard to case), the way a bot customer is linked by
/// their Telegram user. One email per client and one client per email in an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopCustomer {
    pub account_id: String,
    pub email: String,
    pub client_ref: String,
    /// The language they bought in: their mail is written in it.
    pub lang: Lang,
    /// The purchase that made the link. Its result page may show the connect link; a later
    /// purchase by someone who only typed the email may not (it is mailed instead).
    pub first_payment_id: String,
    pub created_at: OffsetDateTime,
}

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
    /// The account's shop customer with this email (lower case).
    async fn shop_customer(&mut self, account_id: &str, email: &str) -> StoreResult<Option<ShopCustomer>>;
    /// The shop customer a client is, if it is one.
    async fn shop_customer_of_client(&mut self, client_ref: &str) -> StoreResult<Option<ShopCustomer>>;
    /// Links an email to a client unless the email or the client is linked already (then the
    /// existing link stands); returns whether this call made the link.
    async fn add_shop_customer(&mut self, customer: &ShopCustomer) -> StoreResult<bool>;
}
