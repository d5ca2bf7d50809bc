//! Authentication: a presented key is looked up by its hash. Every failure is the same
//! `Unauthorized`, so nobody can tell whether a key ever existed.
//!
//! Every partner request authenticates, so a successful lookup is kept in memory for
//! `AUTH_CACHE_TTL`: a revoked key, disabled API access or a changed account setting takes
//! effect on every instance within that time (docs/decisions.md).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use vp_ports::AccountRecord;

use crate::error::{AppResult, Refusal};
use crate::{App, keys};

pub const AUTH_CACHE_TTL: Duration = Duration::from_secs(1);
/// Entries beyond this are dropped wholesale; the cache only ever saves lookups.
const AUTH_CACHE_MAX: usize = 10_000;

#[derive(Default)]
pub struct AuthCache {
    entries: Mutex<HashMap<String, (AccountRecord, Instant)>>,
}

impl AuthCache {
    fn get(&self, hash: &str) -> Option<AccountRecord> {
        let entries = self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        entries.get(hash).filter(|(_, at)| at.elapsed() < AUTH_CACHE_TTL).map(|(a, _)| a.clone())
    }

    fn put(&self, hash: String, account: AccountRecord) {
        let mut entries = self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if entries.len() >= AUTH_CACHE_MAX {
            entries.clear();
        }
        entries.insert(hash, (account, Instant::now()));
    }

    /// Forgets an account changed by this process, so its own changes show at once.
    pub fn forget_account(&self, account_id: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        entries.retain(|_, (a, _)| a.id != account_id);
    }
}

impl App {
    pub async fn authenticate(&self, presented_key: Option<&str>) -> AppResult<AccountRecord> {
        let Some(key) = presented_key.filter(|k| !k.is_empty() && k.len() <= 256) else {
            return Err(Refusal::Unauthorized.into());
        };
        let hash = keys::hash(key);
        if let Some(account) = self.auth_cache.get(&hash) {
            return Ok(account);
        }
        match self.store.account_by_key_hash(&hash).await? {
            Some((k, account)) if k.revoked_at.is_none() && account.api_enabled => {
                self.auth_cache.put(hash, account.clone());
                Ok(account)
            }
            _ => Err(Refusal::Unauthorized.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn account(id: &str) -> AccountRecord {
        AccountRecord {
            id: id.into(),
            brand_name: vp_domain::BrandName::parse("B").unwrap(),
            markup: vp_domain::MarkupPercent::default(),
            trial_enabled: true,
            api_enabled: true,
            limits: vp_domain::limits::LimitOverrides::default(),
            style: Default::default(),
            created_at: datetime!(2026-01-01 00:00 UTC),
        }
    }

    #[test]
    fn entries_expire_and_can_be_forgotten_per_account() {
        let c = AuthCache::default();
        c.put("h1".into(), account("a"));
        c.put("h2".into(), account("b"));
        assert_eq!(c.get("h1").map(|a| a.id), Some("a".into()));
        c.forget_account("a");
        assert!(c.get("h1").is_none());
        assert!(c.get("h2").is_some());
        c.entries.lock().unwrap().get_mut("h2").unwrap().1 -= AUTH_CACHE_TTL;
        assert!(c.get("h2").is_none(), "stale after the TTL");
    }
}
