//! Validated values the partner sends: client id, brand name, idempotency key, method code,
//! return URL. Each constructor states the spec's rule once.

use std::fmt;

use thiserror::Error;

use crate::limits;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InvalidValue {
    #[error("must be 1 to {max} characters")]
    Length { max: usize },
    #[error("may contain only Latin letters, digits and . _ : @ + - and must not be . or ..")]
    ClientIdCharacters,
    #[error("must not contain control characters")]
    ControlCharacters,
    #[error("must be an https URL")]
    NotHttps,
}

/// The partner's id of a client (spec: Client identifier). Case-sensitive.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClientId(String);

impl ClientId {
    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let len = raw.chars().count();
        if len == 0 || len > limits::CLIENT_ID_MAX_CHARS {
            return Err(InvalidValue::Length { max: limits::CLIENT_ID_MAX_CHARS });
        }
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '@' | '+' | '-');
        // The spec's pattern needs one character other than '.', which rules out "." and "..".
        if !raw.chars().all(allowed) || raw.chars().all(|c| c == '.') {
            return Err(InvalidValue::ClientIdCharacters);
        }
        Ok(ClientId(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The service name shown to customers: trimmed, 1 to 64 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BrandName(String);

impl BrandName {
    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let trimmed = raw.trim();
        let len = trimmed.chars().count();
        if len == 0 || len > limits::BRAND_NAME_MAX_CHARS {
            return Err(InvalidValue::Length { max: limits::BRAND_NAME_MAX_CHARS });
        }
        // Shown in documents and VPN apps: a line break or NUL there would break the display.
        if trimmed.chars().any(char::is_control) {
            return Err(InvalidValue::ControlCharacters);
        }
        Ok(BrandName(trimmed.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BrandName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why an `Idempotency-Key` header was refused; each maps to its own error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IdempotencyKeyError {
    #[error("the Idempotency-Key header is required")]
    Missing,
    #[error("the Idempotency-Key header must be at most 200 characters")]
    TooLong,
}

/// The `Idempotency-Key` of `POST /payments`: 1 to 200 characters, unique inside the account.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// `None` (no header) and an empty header are both "missing".
    pub fn parse(raw: Option<&str>) -> Result<Self, IdempotencyKeyError> {
        let raw = raw.filter(|r| !r.is_empty()).ok_or(IdempotencyKeyError::Missing)?;
        if raw.chars().count() > limits::IDEMPOTENCY_KEY_MAX_CHARS {
            return Err(IdempotencyKeyError::TooLong);
        }
        Ok(IdempotencyKey(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A payment method code as sent in an invoice request: 1 to 32 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MethodCode(String);

impl MethodCode {
    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let len = raw.chars().count();
        if len == 0 || len > limits::METHOD_MAX_CHARS {
            return Err(InvalidValue::Length { max: limits::METHOD_MAX_CHARS });
        }
        if raw.chars().any(char::is_control) {
            return Err(InvalidValue::ControlCharacters);
        }
        Ok(MethodCode(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Where the customer returns after payment: https only, up to 500 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReturnUrl(String);

impl ReturnUrl {
    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let len = raw.chars().count();
        if len == 0 || len > limits::RETURN_URL_MAX_CHARS {
            return Err(InvalidValue::Length { max: limits::RETURN_URL_MAX_CHARS });
        }
        let rest = raw
            .get(..8)
            .filter(|scheme| scheme.eq_ignore_ascii_case("https://"))
            .map(|_| &raw[8..])
            .ok_or(InvalidValue::NotHttps)?;
        // A host must follow the scheme, and no whitespace or control characters anywhere.
        let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if host_end == 0 || raw.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(InvalidValue::NotHttps);
        }
        Ok(ReturnUrl(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_id_accepts_the_spec_alphabet() {
        for ok in ["a", "user-42", "tg:123456", "mail@example.com", "a.b_c:d@e+f-g", "...x", "x..", "_"] {
            assert!(ClientId::parse(ok).is_ok(), "{ok}");
        }
        assert!(ClientId::parse(&"a".repeat(128)).is_ok());
    }

    #[test]
    fn client_id_refuses_dots_only_other_characters_and_bad_length() {
        assert_eq!(ClientId::parse("."), Err(InvalidValue::ClientIdCharacters));
        assert_eq!(ClientId::parse(".."), Err(InvalidValue::ClientIdCharacters));
        assert_eq!(ClientId::parse("..."), Err(InvalidValue::ClientIdCharacters));
        for bad in ["a b", "a/b", "ä", "a#", "a%20", "a?b", "a\n"] {
            assert_eq!(ClientId::parse(bad), Err(InvalidValue::ClientIdCharacters), "{bad:?}");
        }
        assert_eq!(ClientId::parse(""), Err(InvalidValue::Length { max: 128 }));
        assert_eq!(ClientId::parse(&"a".repeat(129)), Err(InvalidValue::Length { max: 128 }));
    }

    #[test]
    fn client_id_is_case_sensitive() {
        assert_ne!(ClientId::parse("Alice").unwrap(), ClientId::parse("alice").unwrap());
    }

    #[test]
    fn brand_name_is_trimmed_and_1_to_64_characters() {
        assert_eq!(BrandName::parse("  Fast VPN ").unwrap().as_str(), "Fast VPN");
        assert!(BrandName::parse(&"я".repeat(64)).is_ok());
        assert_eq!(BrandName::parse("   "), Err(InvalidValue::Length { max: 64 }));
        assert_eq!(BrandName::parse(""), Err(InvalidValue::Length { max: 64 }));
        assert_eq!(BrandName::parse(&"я".repeat(65)), Err(InvalidValue::Length { max: 64 }));
        assert_eq!(BrandName::parse("a\nb"), Err(InvalidValue::ControlCharacters));
    }

    #[test]
    fn idempotency_key_is_required_and_at_most_200_characters() {
        assert_eq!(IdempotencyKey::parse(None), Err(IdempotencyKeyError::Missing));
        assert_eq!(IdempotencyKey::parse(Some("")), Err(IdempotencyKeyError::Missing));
        assert!(IdempotencyKey::parse(Some(&"k".repeat(200))).is_ok());
        assert_eq!(IdempotencyKey::parse(Some(&"k".repeat(201))), Err(IdempotencyKeyError::TooLong));
    }

    #[test]
    fn method_is_1_to_32_characters() {
        assert!(MethodCode::parse("sbp").is_ok());
        assert!(MethodCode::parse(&"m".repeat(32)).is_ok());
        assert_eq!(MethodCode::parse(""), Err(InvalidValue::Length { max: 32 }));
        assert_eq!(MethodCode::parse(&"m".repeat(33)), Err(InvalidValue::Length { max: 32 }));
    }

    #[test]
    fn return_url_is_https_only_and_at_most_500_characters() {
        assert!(ReturnUrl::parse("https://shop.example/after-pay?order=1").is_ok());
        assert!(ReturnUrl::parse("HTTPS://shop.example").is_ok());
        for bad in ["http://shop.example", "ftp://x", "https://", "https:///path", "shop.example", "https://a b"] {
            assert_eq!(ReturnUrl::parse(bad), Err(InvalidValue::NotHttps), "{bad}");
        }
        let long = format!("https://e.example/{}", "a".repeat(500));
        assert_eq!(ReturnUrl::parse(&long), Err(InvalidValue::Length { max: 500 }));
    }
}
