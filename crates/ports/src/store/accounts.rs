//! Accounts (with the link their customers renew at) and their API keys.

use async_trait::async_trait;
use time::OffsetDateTime;

use crate::records::{AccountRecord, ApiKeyRecord};

use super::StoreResult;

#[async_trait]
pub trait AccountRepo: Send {
    async fn insert_account(&mut self, account: &AccountRecord) -> StoreResult<()>;
    async fn update_account(&mut self, account: &AccountRecord) -> StoreResult<()>;
    async fn account(&mut self, id: &str) -> StoreResult<Option<AccountRecord>>;
    async fn accounts(&mut self) -> StoreResult<Vec<AccountRecord>>;
    async fn insert_api_key(&mut self, key: &ApiKeyRecord) -> StoreResult<()>;
    async fn api_key(&mut self, id: &str) -> StoreResult<Option<ApiKeyRecord>>;
    async fn api_keys(&mut self, account_id: &str) -> StoreResult<Vec<ApiKeyRecord>>;
    /// Marks a key revoked; returns false when it does not exist or was already revoked.
    async fn revoke_api_key(&mut self, id: &str, at: OffsetDateTime) -> StoreResult<bool>;
    /// The account's renewal link (`None`: not set).
    async fn renewal_url(&mut self, account_id: &str) -> StoreResult<Option<String>>;
    async fn set_renewal_url(&mut self, account_id: &str, url: Option<&str>) -> StoreResult<()>;
}
