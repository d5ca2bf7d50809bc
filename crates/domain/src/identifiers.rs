//! Validated values the partner sends: client id, brand name, idempotency key, method code,
//! return URL. Each constructor states the spec's rule once; `patterns` states the same rules
//! in the regular-expression syntax of JSON Schema for the OpenAPI document, and a property test
//! below holds each pattern and its constructor together.

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

/// The rules as JSON Schema patterns (ECMA-262, also valid for Rust's `regex`). Lengths are
/// separate (`minLength`/`maxLength` from `limits`).
pub mod patterns {
    /// The spec's own pattern.
    pub const CLIENT_ID: &str = r"^[A-Za-z0-9._:@+-]*[A-Za-z0-9_:@+-][A-Za-z0-9._:@+-]*$";
    /// No control characters; something other than whitespace.
    pub const BRAND_NAME: &str =
        r"^[^\u0000-\u001f\u007f-\u009f]*[^\s\u0000-\u001f\u007f-\u009f][^\u0000-\u001f\u007f-\u009f]*$";
    /// No control characters.
    pub const METHOD: &str = r"^[^\u0000-\u001f\u007f-\u009f]*$";
    /// `https://` in any letter case, a host, no whitespace or control characters.
    pub const RETURN_URL: &str =
        r"^[Hh][Tt][Tt][Pp][Ss]://[^/?#\s\u0000-\u001f\u007f-\u009f][^\s\u0000-\u001f\u007f-\u009f]*$";
    /// Printable ASCII, no space at either end (HTTP drops those from a header value).
    pub const IDEMPOTENCY_KEY: &str = r"^[!-~]([ -~]*[!-~])?$";
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

/// So a command line's argument parses as one.
impl std::str::FromStr for ClientId {
    type Err = InvalidValue;
    fn from_str(raw: &str) -> Result<Self, InvalidValue> {
        ClientId::parse(raw)
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The service name shown to customers: 1 to 64 characters as sent, kept with surrounding
/// spaces trimmed (docs/decisions.md).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BrandName(String);

impl BrandName {
    pub fn parse(raw: &str) -> Result<Self, InvalidValue> {
        let len = raw.chars().count();
        let trimmed = raw.trim();
        if len == 0 || len > limits::BRAND_NAME_MAX_CHARS || trimmed.is_empty() {
            return Err(InvalidValue::Length { max: limits::BRAND_NAME_MAX_CHARS });
        }
        // Shown in documents and VPN apps: a line break or NUL there would break the display.
        if raw.chars().any(char::is_control) {
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
    #[error("the Idempotency-Key header must be printable ASCII without spaces at either end")]
    NotPrintable,
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
        let printable = |b: &u8| (b' '..=b'~').contains(b);
        if !raw.bytes().all(|b| printable(&b)) || raw.starts_with(' ') || raw.ends_with(' ') {
            return Err(IdempotencyKeyError::NotPrintable);
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
    fn brand_name_is_1_to_64_characters_as_sent_and_kept_trimmed() {
        assert_eq!(BrandName::parse("  Fast VPN ").unwrap().as_str(), "Fast VPN");
        assert!(BrandName::parse(&"я".repeat(64)).is_ok());
        assert_eq!(BrandName::parse("   "), Err(InvalidValue::Length { max: 64 }));
        assert_eq!(BrandName::parse(""), Err(InvalidValue::Length { max: 64 }));
        assert_eq!(BrandName::parse(&"я".repeat(65)), Err(InvalidValue::Length { max: 64 }));
        let padded = format!("  {}  ", "я".repeat(62));
        assert_eq!(BrandName::parse(&padded), Err(InvalidValue::Length { max: 64 }), "66 characters as sent");
        assert_eq!(BrandName::parse("a\nb"), Err(InvalidValue::ControlCharacters));
        assert_eq!(BrandName::parse("\tName"), Err(InvalidValue::ControlCharacters), "even where trimmed away");
    }

    #[test]
    fn idempotency_key_is_required_and_at_most_200_characters() {
        assert_eq!(IdempotencyKey::parse(None), Err(IdempotencyKeyError::Missing));
        assert_eq!(IdempotencyKey::parse(Some("")), Err(IdempotencyKeyError::Missing));
        assert!(IdempotencyKey::parse(Some(&"k".repeat(200))).is_ok());
        assert_eq!(IdempotencyKey::parse(Some(&"k".repeat(201))), Err(IdempotencyKeyError::TooLong));
        for bad in ["a\tb", "ключ", " lead", "trail ", "nul\0"] {
            assert_eq!(IdempotencyKey::parse(Some(bad)), Err(IdempotencyKeyError::NotPrintable), "{bad:?}");
        }
        assert!(IdempotencyKey::parse(Some("order 42/a")).is_ok(), "inner spaces and any printable ASCII");
    }

    mod patterns_agree {
        use super::*;
        use proptest::prelude::*;

        /// Characters where the rules differ: the client id alphabet, dots, spaces and other
        /// whitespace, controls (C0, DEL, C1), URL punctuation, non-Latin letters, a BOM.
        fn text() -> impl Strategy<Value = String> {
            let pick = prop::sample::select(vec![
                'a', 'Z', '0', '9', '.', '_', ':', '@', '+', '-', '/', '?', '#', ' ', '\t', '\n', '\r', '\u{0}',
                '\u{1f}', '\u{7f}', '\u{85}', '\u{9f}', '\u{a0}', '\u{2003}', '\u{3000}', '\u{feff}', 'я', 'é', '!',
                '~', '%', 'h', 't', 'p', 's', 'H', 'T', 'P', 'S',
            ]);
            let https = prop::sample::select(vec!["", "https://", "HTTPS://", "hTtPs://", "http://"]);
            (https, prop::collection::vec(pick, 0..12))
                .prop_map(|(p, cs)| format!("{p}{}", cs.into_iter().collect::<String>()))
        }

        fn agrees(pattern: &str, max: usize, raw: &str, accepted: bool) -> Result<(), TestCaseError> {
            let len = raw.chars().count();
            let by_schema = regex::Regex::new(pattern).unwrap().is_match(raw) && (1..=max).contains(&len);
            prop_assert_eq!(accepted, by_schema, "{:?}", raw);
            Ok(())
        }

        proptest! {
            #[test]
            fn each_pattern_accepts_exactly_what_its_constructor_accepts(raw in text()) {
                agrees(patterns::CLIENT_ID, limits::CLIENT_ID_MAX_CHARS, &raw, ClientId::parse(&raw).is_ok())?;
                agrees(patterns::BRAND_NAME, limits::BRAND_NAME_MAX_CHARS, &raw, BrandName::parse(&raw).is_ok())?;
                agrees(patterns::METHOD, limits::METHOD_MAX_CHARS, &raw, MethodCode::parse(&raw).is_ok())?;
                agrees(patterns::RETURN_URL, limits::RETURN_URL_MAX_CHARS, &raw, ReturnUrl::parse(&raw).is_ok())?;
                let key = IdempotencyKey::parse(Some(&raw)).is_ok();
                agrees(patterns::IDEMPOTENCY_KEY, limits::IDEMPOTENCY_KEY_MAX_CHARS, &raw, key)?;
            }
        }
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
