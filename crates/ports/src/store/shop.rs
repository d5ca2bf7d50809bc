//! The accounts' web shops: their addresses and the customers who buy in them by email.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::Lang;
use vp_domain::{AccountId, ClientId, ClientRef};

use super::StoreResult;

/// A person who bought in an account's web shop: the client the shop serves them as, linked by
/// the email they gave (compared without regard to case), the way a bot customer is linked by
/// their Telegram user. One email per client and one client per email in an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopCustomer {
    pub account_id: AccountId,
    pub email: String,
    pub client_ref: ClientRef,
    /// The language they bought in: their mail is written in it.
    pub lang: Lang,
    /// The purchase that made the link. Its result page may show the connect link; a later
    /// purchase by someone who only typed the email may not (it is mailed instead). `None`
    /// when a trial started on the signed-in account page made it.
    pub first_payment_id: Option<String>,
    pub created_at: OffsetDateTime,
}

/// A further subscription of a web shop customer (docs/decisions.md, "Several subscriptions per
/// person"): its own client of the account, numbered from 1 (the customer's first is the client
/// `ShopCustomer::client_ref` links), under the name the customer gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopSubscription {
    pub account_id: AccountId,
    pub email: String,
    pub position: u32,
    /// The partner's id of its client: the client exists once its first invoice made it.
    pub client_id: ClientId,
    pub name: String,
    pub created_at: OffsetDateTime,
}

/// A one-time code (and link) sent to sign in to a shop's customer account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopSignIn {
    pub id: String,
    pub account_id: AccountId,
    pub email: String,
    /// SHA-256 of the id and the code: six digits alone would be found by trying them all.
    pub code_hash: String,
    /// SHA-256 of the link's token.
    pub link_hash: String,
    /// Who asked for it (the client's IP), for the per-source limit.
    pub source: String,
    pub tries_left: u32,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
}

/// A signed-in shop customer's session: the cookie holds the token, this its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopSession {
    pub token_hash: String,
    pub account_id: AccountId,
    pub email: String,
    /// Every form of the account page repeats it.
    pub csrf_token: String,
    pub created_at: OffsetDateTime,
    pub last_seen_at: OffsetDateTime,
}

#[async_trait]
pub trait ShopRepo: Send {
    /// The account's shop slug, if it has one yet.
    async fn shop_slug(&mut self, account_id: &str) -> StoreResult<Option<String>>;
    /// The account whose shop has this slug.
    async fn shop_account(&mut self, slug: &str) -> StoreResult<Option<AccountId>>;
    /// Sets or replaces the account's slug; `Conflict` when another account's shop has it.
    async fn put_shop_slug(&mut self, account_id: &str, slug: &str, at: OffsetDateTime) -> StoreResult<()>;
    /// Accounts without a shop slug yet (made before shops existed), at most `limit`.
    async fn accounts_without_shop(&mut self, limit: u32) -> StoreResult<Vec<AccountId>>;
    /// The account's shop customer with this email (lower case).
    async fn shop_customer(&mut self, account_id: &str, email: &str) -> StoreResult<Option<ShopCustomer>>;
    /// The shop customer a client is, if it is one.
    async fn shop_customer_of_client(&mut self, client_ref: &str) -> StoreResult<Option<ShopCustomer>>;
    /// Links an email to a client unless the email or the client is linked already (then the
    /// existing link stands); returns whether this call made the link.
    async fn add_shop_customer(&mut self, customer: &ShopCustomer) -> StoreResult<bool>;
    /// The customer's further subscriptions, by position.
    async fn shop_subscriptions(&mut self, account_id: &str, email: &str) -> StoreResult<Vec<ShopSubscription>>;
    /// Records a further subscription, or its new name at the same position.
    async fn put_shop_subscription(&mut self, subscription: &ShopSubscription) -> StoreResult<()>;
    /// Of these clients of the account (by the partner's `client_id`), those the web shop
    /// serves (an address's first subscription or a further one), in no particular order.
    async fn shop_customers_among(&mut self, account_id: &str, client_ids: &[String]) -> StoreResult<Vec<String>>;
    /// The further subscription whose client has this `client_id`, if it is one.
    async fn shop_subscription_of_client(
        &mut self,
        account_id: &str,
        client_id: &str,
    ) -> StoreResult<Option<ShopSubscription>>;
    /// Records a sign-in code; codes sent to the address before it stop working.
    async fn insert_shop_sign_in(&mut self, sign_in: &ShopSignIn) -> StoreResult<()>;
    /// The newest code sent to the address in the account's shop.
    async fn latest_shop_sign_in(&mut self, account_id: &str, email: &str) -> StoreResult<Option<ShopSignIn>>;
    async fn shop_sign_in_by_link(&mut self, link_hash: &str) -> StoreResult<Option<ShopSignIn>>;
    /// Writes a code's tries left and use.
    async fn update_shop_sign_in(&mut self, sign_in: &ShopSignIn) -> StoreResult<()>;
    /// Codes sent since `since` to the address in the account's shop, and asked for by the
    /// source in any shop.
    async fn shop_sign_ins_since(
        &mut self,
        account_id: &str,
        email: &str,
        source: &str,
        since: OffsetDateTime,
    ) -> StoreResult<(u64, u64)>;
    async fn insert_shop_session(&mut self, session: &ShopSession) -> StoreResult<()>;
    async fn shop_session(&mut self, token_hash: &str) -> StoreResult<Option<ShopSession>>;
    async fn touch_shop_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn delete_shop_session(&mut self, token_hash: &str) -> StoreResult<()>;
    /// Forgets codes created before `codes_before` and sessions idle since `idle_before` or
    /// begun before `begun_before`.
    async fn prune_shop_sign_ins(
        &mut self,
        codes_before: OffsetDateTime,
        idle_before: OffsetDateTime,
        begun_before: OffsetDateTime,
    ) -> StoreResult<u64>;
}
