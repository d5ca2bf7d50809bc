//! Secrets the service must use again (partners' bot tokens and webhook signing secrets) are
//! stored sealed: AES-256-GCM under the key `VP_SECRETS_KEY`, with a random 96-bit
//! nonce per value and the value's purpose as associated data, so a sealed value copied into
//! another row does not open. Each sealed value names its key (`v1.<key id>.<data>`), so a key
//! can be rotated: values sealed under the previous key still open while both are configured,
//! and `vp-api secrets rotate-key` seals them again under the current one.

mod at_rest;

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::digest::{SHA256, digest};
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use thiserror::Error;
use vp_domain::{AccountId, EndpointId};

pub use at_rest::Secrets;

/// Bytes of a key.
pub const KEY_LEN: usize = 32;
const VERSION: &str = "v1";

/// What the derived secrets' key is made with, so it is never the sealing key itself.
const DERIVE_LABEL: &[u8] = b"vp-secrets derived tokens v1";

#[derive(Debug, Error, PartialEq, Eq)]
pub enum SecretsError {
    #[error("must be {KEY_LEN} random bytes in base64 (`openssl rand -base64 32`)")]
    MalformedKey,
    /// The value was sealed under a key that is not configured.
    #[error("sealed under key {0}, which is not configured (VP_SECRETS_KEY, VP_SECRETS_KEY_PREVIOUS)")]
    UnknownKey(String),
    /// Not a sealed value, or altered, or sealed for another purpose.
    #[error("a sealed secret does not open: it was altered or belongs elsewhere")]
    Corrupt,
}

/// What a sealed or derived secret is for, and whose: the associated data a sealed value is
/// bound to (so a value copied into another row does not open) and what a derived secret is
/// made of. One enum, so a purpose is never spelled twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretPurpose<'a> {
    /// A partner bot's token, sealed for its account.
    PartnerBotToken { account_id: &'a AccountId },
    /// A webhook endpoint's signing secret (current or previous), sealed for the endpoint.
    WebhookSecret { endpoint_id: &'a EndpointId },
    /// The secret Telegram sends with a bot's webhook posts, derived for the bot.
    TelegramWebhook { bot_id: i64 },
    /// The gateway's id of a customer's saved payment method, sealed for its consent.
    SavedPaymentMethod { consent_id: &'a str },
    /// A gift's code, derived for the invoice that pays for it (only its hash is stored).
    GiftCode { payment_id: &'a str },
}

impl SecretPurpose<'_> {
    /// The bytes the purpose binds to, as stored values were sealed with since the beginning.
    fn label(&self) -> String {
        match self {
            SecretPurpose::PartnerBotToken { account_id } => format!("partner-bot-token:{account_id}"),
            SecretPurpose::WebhookSecret { endpoint_id } => format!("webhook-secret:{endpoint_id}"),
            SecretPurpose::TelegramWebhook { bot_id } => format!("telegram-webhook:{bot_id}"),
            SecretPurpose::SavedPaymentMethod { consent_id } => format!("saved-payment-method:{consent_id}"),
            SecretPurpose::GiftCode { payment_id } => format!("gift-code:{payment_id}"),
        }
    }
}

/// One key: its id (the first 8 hex digits of its SHA-256), the AES-256-GCM key, and an
/// HMAC-SHA256 key derived from it (never the AES key itself) for `derive`.
struct Key {
    id: String,
    aead: LessSafeKey,
    mac: hmac::Key,
}

impl Key {
    fn new(bytes: &[u8]) -> Result<Key, SecretsError> {
        let unbound = UnboundKey::new(&AES_256_GCM, bytes).map_err(|_| SecretsError::MalformedKey)?;
        let id = digest(&SHA256, bytes).as_ref()[..4].iter().map(|b| format!("{b:02x}")).collect();
        let mac = hmac::Key::new(
            hmac::HMAC_SHA256,
            hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, bytes), DERIVE_LABEL).as_ref(),
        );
        Ok(Key { id, aead: LessSafeKey::new(unbound), mac })
    }
}

/// The configured keys: the current one seals, it and the previous one (during a rotation) open.
pub struct SecretKeys {
    current: Key,
    previous: Option<Key>,
    random: SystemRandom,
}

impl fmt::Debug for SecretKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let previous = self.previous.as_ref().map(|k| k.id.as_str());
        f.debug_struct("SecretKeys").field("current", &self.current.id).field("previous", &previous).finish()
    }
}

impl SecretKeys {
    /// Keys as `VP_SECRETS_KEY` (and `VP_SECRETS_KEY_PREVIOUS`) give them: 32 bytes in base64.
    pub fn from_base64(current: &str, previous: Option<&str>) -> Result<SecretKeys, SecretsError> {
        let decode = |text: &str| {
            let bytes = STANDARD.decode(text.trim()).map_err(|_| SecretsError::MalformedKey)?;
            if bytes.len() != KEY_LEN {
                return Err(SecretsError::MalformedKey);
            }
            Key::new(&bytes)
        };
        Ok(SecretKeys {
            current: decode(current)?,
            previous: previous.map(decode).transpose()?,
            random: SystemRandom::new(),
        })
    }

    /// A new random key in base64, for a key file or the operator.
    pub fn generate_base64() -> String {
        let mut bytes = [0u8; KEY_LEN];
        // The system's CSPRNG does not fail on the platforms we run on; if it ever did,
        // starting with a predictable key would be worse than stopping.
        SystemRandom::new().fill(&mut bytes).expect("the system random source works");
        STANDARD.encode(bytes)
    }

    /// Random keys that live as long as the process (tests, `Settings::default`).
    pub fn ephemeral() -> SecretKeys {
        SecretKeys::from_base64(&SecretKeys::generate_base64(), None).expect("a generated key is well formed")
    }

    /// The id of the key that seals.
    pub fn current_id(&self) -> &str {
        &self.current.id
    }

    /// Whether a value sealed under `key_id` opens with these keys.
    pub fn knows(&self, key_id: &str) -> bool {
        self.key(key_id).is_some()
    }

    fn key(&self, key_id: &str) -> Option<&Key> {
        std::iter::once(&self.current).chain(&self.previous).find(|k| k.id == key_id)
    }

    /// Seals `secret` for `purpose` (what it is and whose).
    pub fn seal(&self, purpose: SecretPurpose<'_>, secret: &str) -> String {
        let purpose = purpose.label();
        let mut nonce = [0u8; NONCE_LEN];
        self.random.fill(&mut nonce).expect("the system random source works");
        let mut data = secret.as_bytes().to_vec();
        self.current
            .aead
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(purpose.as_bytes()), &mut data)
            .expect("AES-GCM seals any value shorter than 64 GiB");
        let mut out = nonce.to_vec();
        out.extend_from_slice(&data);
        format!("{VERSION}.{}.{}", self.current.id, URL_SAFE_NO_PAD.encode(out))
    }

    /// Opens a value `seal` made for the same `purpose`.
    pub fn open(&self, purpose: SecretPurpose<'_>, sealed: &str) -> Result<String, SecretsError> {
        let purpose = purpose.label();
        let mut parts = sealed.splitn(3, '.');
        let (Some(VERSION), Some(key_id), Some(data)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(SecretsError::Corrupt);
        };
        let key = self.key(key_id).ok_or_else(|| SecretsError::UnknownKey(key_id.to_owned()))?;
        let mut bytes = URL_SAFE_NO_PAD.decode(data).map_err(|_| SecretsError::Corrupt)?;
        if bytes.len() < NONCE_LEN {
            return Err(SecretsError::Corrupt);
        }
        let mut body = bytes.split_off(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(&bytes).map_err(|_| SecretsError::Corrupt)?;
        let plain = key
            .aead
            .open_in_place(nonce, Aad::from(purpose.as_bytes()), &mut body)
            .map_err(|_| SecretsError::Corrupt)?;
        String::from_utf8(plain.to_vec()).map_err(|_| SecretsError::Corrupt)
    }

    /// A secret for `purpose` that only the holder of the current key can make, so it need
    /// not be stored (a bot's webhook secret): 43 URL-safe characters, the HMAC-SHA256 of the
    /// purpose under a key derived from the current one.
    pub fn derive(&self, purpose: SecretPurpose<'_>) -> String {
        URL_SAFE_NO_PAD.encode(hmac::sign(&self.current.mac, purpose.label().as_bytes()))
    }

    /// Whether `given` is what `derive(purpose)` gives under the current or the previous key
    /// (so a rotation does not cut off what was handed out under the old one); compared in
    /// constant time.
    pub fn derived_matches(&self, purpose: SecretPurpose<'_>, given: &str) -> bool {
        let Ok(tag) = URL_SAFE_NO_PAD.decode(given) else { return false };
        let purpose = purpose.label();
        std::iter::once(&self.current)
            .chain(&self.previous)
            .any(|k| hmac::verify(&k.mac, purpose.as_bytes(), &tag).is_ok())
    }

    /// How a value sealed under the current key begins; a store can tell by it, without the
    /// key, which values a rotation must seal again.
    pub fn current_prefix(&self) -> String {
        format!("{VERSION}.{}.", self.current.id)
    }

    /// How values sealed under a configured key (current or previous) begin.
    pub fn known_prefixes(&self) -> Vec<String> {
        std::iter::once(&self.current).chain(&self.previous).map(|k| format!("{VERSION}.{}.", k.id)).collect()
    }

    /// The key id a sealed value names (`None` for something that is not a sealed value).
    pub fn key_id_of(sealed: &str) -> Option<&str> {
        let mut parts = sealed.splitn(3, '.');
        (parts.next() == Some(VERSION)).then(|| parts.next()).flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static ACC_1: std::sync::LazyLock<AccountId> = std::sync::LazyLock::new(|| AccountId::issued("acc_1".into()));

    fn purpose(account_id: &AccountId) -> SecretPurpose<'_> {
        SecretPurpose::PartnerBotToken { account_id }
    }
    const WEBHOOK_42: SecretPurpose<'static> = SecretPurpose::TelegramWebhook { bot_id: 42 };

    #[test]
    fn each_purpose_binds_to_the_label_values_were_sealed_with_before_it_was_a_type() {
        assert_eq!(purpose(&ACC_1).label(), "partner-bot-token:acc_1");
        assert_eq!(
            SecretPurpose::WebhookSecret { endpoint_id: &EndpointId::issued("we_1".into()) }.label(),
            "webhook-secret:we_1"
        );
        assert_eq!(WEBHOOK_42.label(), "telegram-webhook:42");
    }

    #[test]
    fn a_sealed_secret_opens_with_its_key_and_purpose_and_does_not_show_in_the_stored_text() {
        let keys = SecretKeys::ephemeral();
        let sealed = keys.seal(purpose(&ACC_1), "123456:AAF-secret-token");
        assert!(!sealed.contains("AAF-secret-token"));
        assert_eq!(SecretKeys::key_id_of(&sealed), Some(keys.current_id()));
        assert_eq!(keys.open(purpose(&ACC_1), &sealed).unwrap(), "123456:AAF-secret-token");
        assert_ne!(keys.seal(purpose(&ACC_1), "same"), keys.seal(purpose(&ACC_1), "same"), "a fresh nonce each time");
    }

    #[test]
    fn a_sealed_secret_does_not_open_for_another_purpose_or_when_altered() {
        let keys = SecretKeys::ephemeral();
        let sealed = keys.seal(purpose(&ACC_1), "token");
        assert_eq!(keys.open(purpose(&AccountId::issued("acc_2".into())), &sealed), Err(SecretsError::Corrupt));
        let mut altered = sealed.clone();
        let last = altered.pop().unwrap();
        altered.push(if last == 'A' { 'B' } else { 'A' });
        assert_eq!(keys.open(purpose(&ACC_1), &altered), Err(SecretsError::Corrupt));
        assert_eq!(keys.open(purpose(&ACC_1), "plain text"), Err(SecretsError::Corrupt));
    }

    #[test]
    fn during_a_rotation_both_keys_open_and_the_new_one_seals() {
        let old = SecretKeys::generate_base64();
        let new = SecretKeys::generate_base64();
        let before = SecretKeys::from_base64(&old, None).unwrap();
        let sealed_before = before.seal(purpose(&ACC_1), "token");
        let rotating = SecretKeys::from_base64(&new, Some(&old)).unwrap();
        assert_eq!(rotating.open(purpose(&ACC_1), &sealed_before).unwrap(), "token");
        assert_ne!(SecretKeys::key_id_of(&rotating.seal(purpose(&ACC_1), "token")), Some(before.current_id()));
        let after = SecretKeys::from_base64(&new, None).unwrap();
        let key_id = before.current_id().to_owned();
        assert_eq!(after.open(purpose(&ACC_1), &sealed_before), Err(SecretsError::UnknownKey(key_id)));
    }

    #[test]
    fn a_key_must_be_32_bytes_of_base64() {
        assert!(SecretKeys::from_base64(&STANDARD.encode([7u8; 32]), None).is_ok());
        assert_eq!(SecretKeys::from_base64(&STANDARD.encode([7u8; 16]), None).unwrap_err(), SecretsError::MalformedKey);
        assert_eq!(SecretKeys::from_base64("not base64!", None).unwrap_err(), SecretsError::MalformedKey);
        let good = STANDARD.encode([7u8; 32]);
        assert!(SecretKeys::from_base64(&good, Some("short")).is_err(), "the previous key is checked too");
    }

    #[test]
    fn a_derived_secret_is_the_same_for_its_purpose_differs_for_another_and_survives_a_rotation() {
        let old = SecretKeys::generate_base64();
        let keys = SecretKeys::from_base64(&old, None).unwrap();
        let secret = keys.derive(WEBHOOK_42);
        assert_eq!(secret.len(), 43);
        assert!(secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(keys.derive(WEBHOOK_42), secret);
        assert!(keys.derived_matches(WEBHOOK_42, &secret));
        assert!(!keys.derived_matches(SecretPurpose::TelegramWebhook { bot_id: 43 }, &secret), "bound to its purpose");
        assert!(!keys.derived_matches(WEBHOOK_42, ""));
        assert!(!keys.derived_matches(WEBHOOK_42, "not base64 at all!"));
        let rotated = SecretKeys::from_base64(&SecretKeys::generate_base64(), Some(&old)).unwrap();
        assert_ne!(rotated.derive(WEBHOOK_42), secret, "the new key makes new secrets");
        assert!(rotated.derived_matches(WEBHOOK_42, &secret), "the old ones hold during the rotation");
        let after = SecretKeys::from_base64(&SecretKeys::generate_base64(), None).unwrap();
        assert!(!after.derived_matches(WEBHOOK_42, &secret));
    }

    #[test]
    fn the_debug_form_names_keys_by_id_only() {
        let text = STANDARD.encode([9u8; 32]);
        let keys = SecretKeys::from_base64(&text, None).unwrap();
        assert!(!format!("{keys:?}").contains(&text));
    }
}
