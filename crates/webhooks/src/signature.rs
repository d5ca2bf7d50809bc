//! `webhook-signature` (spec: Events, Signature check): `v1,` + base64 of HMAC-SHA256 over
//! `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded secret after its
//! `whsec_` prefix.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::hmac;

pub const SECRET_PREFIX: &str = "whsec_";

/// A stored secret that does not decode: never produced by this service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSecret;

/// The key bytes of a `whsec_` secret.
pub fn secret_key(secret: &str) -> Result<Vec<u8>, BadSecret> {
    let encoded = secret.strip_prefix(SECRET_PREFIX).ok_or(BadSecret)?;
    STANDARD.decode(encoded).map_err(|_| BadSecret).and_then(|k| if k.is_empty() { Err(BadSecret) } else { Ok(k) })
}

/// One signature, `v1,<base64>`.
pub fn sign(secret: &str, webhook_id: &str, timestamp: i64, body: &[u8]) -> Result<String, BadSecret> {
    let key = hmac::Key::new(hmac::HMAC_SHA256, &secret_key(secret)?);
    let mut ctx = hmac::Context::with_key(&key);
    ctx.update(webhook_id.as_bytes());
    ctx.update(b".");
    ctx.update(timestamp.to_string().as_bytes());
    ctx.update(b".");
    ctx.update(body);
    Ok(format!("v1,{}", STANDARD.encode(ctx.sign().as_ref())))
}

/// The header value: one signature per secret, separated by a space (the new secret first
/// during the 24 hours after a rotation).
pub fn signature_header(secrets: &[&str], webhook_id: &str, timestamp: i64, body: &[u8]) -> Result<String, BadSecret> {
    let signatures: Result<Vec<String>, BadSecret> =
        secrets.iter().map(|s| sign(s, webhook_id, timestamp, body)).collect();
    Ok(signatures?.join(" "))
}

/// What a receiver does (spec steps 1 to 4): true when any `v1` signature of the header
/// matches, compared in constant time. Used by our tests and documented for partners.
pub fn verify(secret: &str, webhook_id: &str, timestamp: i64, body: &[u8], header: &str) -> bool {
    let Ok(key_bytes) = secret_key(secret) else { return false };
    let key = hmac::Key::new(hmac::HMAC_SHA256, &key_bytes);
    let message = [webhook_id.as_bytes(), b".", timestamp.to_string().as_bytes(), b".", body].concat();
    header
        .split(' ')
        .filter_map(|s| s.strip_prefix("v1,"))
        .any(|sig| STANDARD.decode(sig).is_ok_and(|tag| hmac::verify(&key, &message, &tag).is_ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A secret as the app issues them (`whsec_` + base64 of 32 random bytes), from fixed bytes.
    fn encode_secret(random: &[u8; 32]) -> String {
        format!("{SECRET_PREFIX}{}", STANDARD.encode(random))
    }

    // The Standard Webhooks reference test vector.
    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const TIMESTAMP: i64 = 1_614_265_330;
    const BODY: &[u8] = br#"{"test": 2432232314}"#;
    const EXPECTED: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn the_standard_webhooks_test_vector_signs_as_published() {
        assert_eq!(sign(SECRET, ID, TIMESTAMP, BODY).unwrap(), EXPECTED);
    }

    #[test]
    fn the_published_signature_verifies_and_any_change_breaks_it() {
        assert!(verify(SECRET, ID, TIMESTAMP, BODY, EXPECTED));
        assert!(!verify(SECRET, ID, TIMESTAMP + 1, BODY, EXPECTED), "another timestamp");
        assert!(!verify(SECRET, "msg_other", TIMESTAMP, BODY, EXPECTED), "another id");
        assert!(!verify(SECRET, ID, TIMESTAMP, br#"{"test": 2432232315}"#, EXPECTED), "another body");
        assert!(!verify("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", ID, TIMESTAMP, BODY, EXPECTED), "another secret");
    }

    #[test]
    fn during_rotation_the_header_carries_both_signatures_and_each_secret_verifies() {
        let new = encode_secret(&[7; 32]);
        let header = signature_header(&[&new, SECRET], ID, TIMESTAMP, BODY).unwrap();
        let parts: Vec<&str> = header.split(' ').collect();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1], EXPECTED, "the previous secret's signature is the second");
        assert!(verify(&new, ID, TIMESTAMP, BODY, &header));
        assert!(verify(SECRET, ID, TIMESTAMP, BODY, &header));
    }

    #[test]
    fn secrets_are_whsec_and_32_random_bytes() {
        let s = encode_secret(&[1; 32]);
        assert!(s.starts_with("whsec_"));
        assert_eq!(secret_key(&s).unwrap(), vec![1; 32]);
        assert_eq!(secret_key("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), Err(BadSecret), "prefix required");
        assert_eq!(secret_key("whsec_!!"), Err(BadSecret));
        assert!(sign("whsec_", ID, TIMESTAMP, BODY).is_err());
    }
}
