//! How the services we call sign what they send back to us (Crypto Pay's updates, Remnawave's
//! webhooks): an HMAC-SHA256 of the raw body, in hex.

use ring::hmac;

/// The hex (lower case) HMAC-SHA256 of `body` under `key`.
pub fn hex_hmac(key: &hmac::Key, body: &[u8]) -> String {
    hmac::sign(key, body).as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `signature` (hex, either case, nothing around it) is the HMAC-SHA256 of `body` under
/// `key`, compared in constant time by `hmac::verify`.
pub fn hex_hmac_verifies(key: &hmac::Key, body: &[u8], signature: &str) -> bool {
    let Some(tag) = hex_bytes(signature) else { return false };
    hmac::verify(key, body, &tag).is_ok()
}

/// A SHA-256 tag's 64 hex digits as bytes; anything else is no tag.
fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hex_signature_verifies_only_for_its_body_and_key() {
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"s3cret");
        let body = br#"{"event":"user.disabled"}"#;
        let tag = hex_hmac(&key, body);
        assert_eq!(tag.len(), 64);
        assert!(hex_hmac_verifies(&key, body, &tag));
        assert!(hex_hmac_verifies(&key, body, &tag.to_ascii_uppercase()), "hex in either case");
        assert!(!hex_hmac_verifies(&hmac::Key::new(hmac::HMAC_SHA256, b"other"), body, &tag), "another key");
        assert!(!hex_hmac_verifies(&key, b"{}", &tag), "another body");
        for bad in ["", "zz", &tag[..62], &format!("{tag}00"), &format!(" {tag}")] {
            assert!(!hex_hmac_verifies(&key, body, bad), "{bad:?}");
        }
    }
}
