//! Authentication: a presented key is looked up by its hash. Every failure is the same
//! `Unauthorized`, so nobody can tell whether a key ever existed.

use vp_ports::AccountRecord;

use crate::error::{AppResult, Refusal};
use crate::{App, keys};

impl App {
    pub async fn authenticate(&self, presented_key: Option<&str>) -> AppResult<AccountRecord> {
        let Some(key) = presented_key.filter(|k| !k.is_empty() && k.len() <= 256) else {
            return Err(Refusal::Unauthorized.into());
        };
        let hash = keys::hash(key);
        let mut tx = self.store.read().await?;
        let found = match tx.api_key_by_hash(&hash).await? {
            Some(k) if k.revoked_at.is_none() => tx.account(&k.account_id).await?,
            _ => None,
        };
        tx.commit().await?;
        found.filter(|a| a.api_enabled).ok_or_else(|| Refusal::Unauthorized.into())
    }
}
