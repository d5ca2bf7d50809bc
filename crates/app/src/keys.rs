//! API keys: shown once, stored only as a SHA-256 hash.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::digest::{SHA256, digest};
use time::OffsetDateTime;
use vp_domain::{AccountId, ApiKeyId};
use vp_ports::{AccountRepo, ApiKeyRecord, IdGenerator};

use crate::error::AppResult;

/// Every key starts with this, so leaked keys are easy to recognise in code and logs.
pub const KEY_PREFIX: &str = "vpk_";
/// Characters of a key kept for display (`vpk_` plus four).
const DISPLAY_PREFIX_CHARS: usize = 8;

/// A freshly issued key: `secret` is shown to the operator once and never stored.
#[derive(Debug, Clone)]
pub struct IssuedKey {
    pub id: ApiKeyId,
    pub secret: String,
    pub prefix: String,
    pub hash: String,
}

pub fn issue(ids: &dyn IdGenerator) -> IssuedKey {
    let secret = format!("{KEY_PREFIX}{}", URL_SAFE_NO_PAD.encode(ids.random_bytes(32)));
    IssuedKey {
        id: ApiKeyId::issued(ids.new_id("key")),
        prefix: secret.chars().take(DISPLAY_PREFIX_CHARS).collect(),
        hash: hash(&secret),
        secret,
    }
}

/// Issues a key for the account and stores its hash in `tx`.
pub(crate) async fn insert_new_key(
    tx: &mut (impl AccountRepo + ?Sized),
    ids: &dyn IdGenerator,
    now: OffsetDateTime,
    account_id: &AccountId,
) -> AppResult<IssuedKey> {
    let key = issue(ids);
    tx.insert_api_key(&ApiKeyRecord {
        id: key.id.clone(),
        account_id: account_id.clone(),
        key_hash: key.hash.clone(),
        prefix: key.prefix.clone(),
        created_at: now,
        revoked_at: None,
    })
    .await?;
    Ok(key)
}

/// Hex SHA-256 of a presented key; lookups compare hashes, so a key's text is never compared.
/// Every partner request computes it, so the digits are written into one string.
pub fn hash(secret: &str) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(64);
    for b in digest(&SHA256, secret.as_bytes()).as_ref() {
        hex.push(char::from(DIGITS[usize::from(b >> 4)]));
        hex.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::SystemIds;

    #[test]
    fn issued_keys_are_random_prefixed_and_stored_only_as_their_hash() {
        let ids = SystemIds::new();
        let a = issue(&ids);
        let b = issue(&ids);
        assert_ne!(a.secret, b.secret);
        assert!(a.secret.starts_with(KEY_PREFIX) && a.secret.len() == 4 + 43);
        assert_eq!(a.hash, hash(&a.secret));
        assert_eq!(a.hash.len(), 64);
        assert!(!a.hash.contains(&a.secret));
        assert_eq!(a.prefix, a.secret[..8]);
    }

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
