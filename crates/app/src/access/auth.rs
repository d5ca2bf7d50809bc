//! Authentication: a presented key is looked up by its hash. Every failure is the same
//! `Unauthorized`, so nobody can tell whether a key ever existed.
//!
//! Every partner request authenticates, so this process remembers (docs/decisions.md,
//! "Failed authentication"):
//! - keys that authenticated, for `AUTH_CACHE_TTL`: a revoked key, disabled API access or a
//!   changed account setting takes effect on every instance within that time;
//! - keys that failed, for the same time, so a repeated wrong key costs no lookup and a key
//!   that becomes valid elsewhere (issued by the CLI, access turned on) works within it;
//! - keys that authenticated in the last `RECENTLY_AUTHENTICATED`: they pass the per-source
//!   limit on unknown keys (and are still checked), so a flood from a partner's address, or its
//!   servers still sending a revoked key, never locks out its own working key.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use vp_domain::AccountId;
use vp_ports::AccountRecord;

use super::PartnerAccess;
use crate::error::{AppResult, Refusal};
use crate::keys;

pub const AUTH_CACHE_TTL: Duration = Duration::from_secs(1);
/// How long a key that authenticated passes the per-source limit on unknown keys.
pub const RECENTLY_AUTHENTICATED: Duration = Duration::from_secs(10 * 60);
/// Entries beyond this are dropped wholesale; the caches only ever save lookups.
const AUTH_CACHE_MAX: usize = 10_000;

#[derive(Default)]
pub struct AuthCache {
    entries: Mutex<HashMap<String, (AccountRecord, Instant)>>,
    /// Hashes of keys that failed, and when.
    failed: Mutex<HashMap<String, Instant>>,
    /// Hashes of keys that authenticated, and when last.
    recent: Mutex<HashMap<String, Instant>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means another request panicked mid-update; the maps stay valid.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Records `hash` at now, dropping entries older than `keep` first when the map is full.
fn remember(map: &Mutex<HashMap<String, Instant>>, hash: &str, keep: Duration) {
    let mut map = lock(map);
    if map.len() >= AUTH_CACHE_MAX {
        map.retain(|_, at| at.elapsed() < keep);
        if map.len() >= AUTH_CACHE_MAX {
            map.clear();
        }
    }
    map.insert(hash.to_owned(), Instant::now());
}

fn seen_within(map: &Mutex<HashMap<String, Instant>>, hash: &str, within: Duration) -> bool {
    lock(map).get(hash).is_some_and(|at| at.elapsed() < within)
}

impl AuthCache {
    fn get(&self, hash: &str) -> Option<AccountRecord> {
        let entries = lock(&self.entries);
        entries.get(hash).filter(|(_, at)| at.elapsed() < AUTH_CACHE_TTL).map(|(a, _)| a.clone())
    }

    fn put(&self, hash: String, account: AccountRecord) {
        remember(&self.recent, &hash, RECENTLY_AUTHENTICATED);
        lock(&self.failed).remove(&hash);
        let mut entries = lock(&self.entries);
        if entries.len() >= AUTH_CACHE_MAX {
            entries.clear();
        }
        entries.insert(hash, (account, Instant::now()));
    }

    fn failed(&self, hash: &str) {
        remember(&self.failed, hash, AUTH_CACHE_TTL);
    }

    fn failed_recently(&self, hash: &str) -> bool {
        seen_within(&self.failed, hash, AUTH_CACHE_TTL)
    }

    fn authenticated_recently(&self, hash: &str) -> bool {
        seen_within(&self.recent, hash, RECENTLY_AUTHENTICATED)
    }

    /// Forgets an account changed by this process, so its own changes show at once; failed
    /// keys are forgotten too, since a change (access turned on, a key issued) may make one work.
    pub fn forget_account(&self, account_id: &AccountId) {
        lock(&self.entries).retain(|_, (a, _)| a.id != account_id);
        lock(&self.failed).clear();
    }
}

impl PartnerAccess {
    /// The account of `presented_key`, presented from `source` (the client's address). A
    /// failure with a key that did not authenticate recently (or with none) counts against the
    /// source's limit on unknown credentials; past it, such requests get
    /// `TooManyFailedAuthentications` without a lookup until the wait ends.
    pub async fn authenticate(&self, presented_key: Option<&str>, source: &str) -> AppResult<AccountRecord> {
        let hash = presented_key.filter(|k| !k.is_empty() && k.len() <= 256).map(keys::hash);
        if let Some(account) = hash.as_deref().and_then(|h| self.auth_cache.get(h)) {
            return Ok(account);
        }
        let known = hash.as_deref().is_some_and(|h| self.auth_cache.authenticated_recently(h));
        let now = self.clock.now();
        if !known {
            if let Some(wait) = self.limiter.credentials_blocked(source, now) {
                return Err(Refusal::TooManyFailedAuthentications { retry_after_secs: wait.0 }.into());
            }
        }
        let account = match &hash {
            Some(hash) if !self.auth_cache.failed_recently(hash) => self.look_up_key(hash).await?,
            _ => None,
        };
        match account {
            Some(account) => Ok(account),
            None if known => Err(Refusal::Unauthorized.into()),
            None => match self.limiter.count_unknown_credentials(source, self.failed_auth_per_minute, now).await {
                Ok(()) => Err(Refusal::Unauthorized.into()),
                Err(wait) => Err(Refusal::TooManyFailedAuthentications { retry_after_secs: wait.0 }.into()),
            },
        }
    }

    /// The usable key with this hash, from the database; remembered either way.
    async fn look_up_key(&self, hash: &str) -> AppResult<Option<AccountRecord>> {
        let found = self.store.account_by_key_hash(hash).await?;
        let usable = found.filter(|(k, account)| k.revoked_at.is_none() && account.api_enabled).map(|(_, a)| a);
        self.metrics.key_lookup(usable.is_some());
        match &usable {
            Some(account) => self.auth_cache.put(hash.to_owned(), account.clone()),
            None => self.auth_cache.failed(hash),
        }
        Ok(usable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn account(id: &str) -> AccountRecord {
        AccountRecord {
            id: vp_domain::AccountId::issued(id.into()),
            brand_name: vp_domain::BrandName::parse("B").unwrap(),
            markup: vp_domain::MarkupPercent::default(),
            trial_enabled: true,
            api_enabled: true,
            limits: vp_domain::limits::LimitOverrides::default(),
            style: Default::default(),
            time_zone: Default::default(),
            created_at: datetime!(2026-01-01 00:00 UTC),
        }
    }

    #[test]
    fn entries_expire_and_can_be_forgotten_per_account() {
        let c = AuthCache::default();
        c.put("h1".into(), account("a"));
        c.put("h2".into(), account("b"));
        assert_eq!(c.get("h1").map(|a| a.id), Some(AccountId::issued("a".into())));
        c.forget_account(&AccountId::issued("a".into()));
        assert!(c.get("h1").is_none());
        assert!(c.get("h2").is_some());
        c.entries.lock().unwrap().get_mut("h2").unwrap().1 -= AUTH_CACHE_TTL;
        assert!(c.get("h2").is_none(), "stale after the TTL");
    }
}
