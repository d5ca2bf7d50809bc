//! Request bodies: JSON objects only, with every bad or unknown field named in `fields`. A field
//! is either absent or a value of its type: `null` is refused too (docs/decisions.md), as the
//! OpenAPI document says.

use std::collections::BTreeMap;

use actix_web::HttpRequest;
use actix_web::web::Bytes;
use serde_json::{Map, Value};

use crate::error::{ApiError, ErrorCode};

const NOT_NULL: &str = "must not be null; leave the field out instead";

/// Largest accepted body.
pub const BODY_LIMIT: usize = 16 * 1024;

/// A JSON object body and the fields found wrong while reading it.
pub struct JsonObject {
    fields: Map<String, Value>,
    pub errors: BTreeMap<String, String>,
}

/// Reads `body` as a JSON object sent as `application/json`.
pub fn json_object(
    req: &HttpRequest,
    body: Result<Bytes, actix_web::Error>,
    allowed: &[&str],
) -> Result<JsonObject, ApiError> {
    let body = body.map_err(|e| {
        if e.as_response_error().status_code() == actix_web::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(ErrorCode::PayloadTooLarge)
        } else {
            ApiError::field("body", "could not be read")
        }
    })?;
    let content_type = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("");
    let mime = content_type.split(';').next().unwrap_or("").trim();
    if !mime.eq_ignore_ascii_case("application/json") {
        return Err(ApiError::new(ErrorCode::UnsupportedMediaType));
    }
    let value: Value =
        serde_json::from_slice(&body).map_err(|e| ApiError::field("body", format!("is not valid JSON: {e}")))?;
    let Value::Object(fields) = value else {
        return Err(ApiError::field("body", "must be a JSON object"));
    };
    let errors = fields
        .keys()
        .filter(|k| !allowed.contains(&k.as_str()))
        .map(|k| (k.clone(), "unknown field".to_owned()))
        .collect();
    Ok(JsonObject { fields, errors })
}

/// The value of a JSON number without a fractional part (`3` or `3.0`, as JSON Schema counts
/// integers), saturated far outside any range we accept.
fn whole_number(n: &serde_json::Number) -> Option<i128> {
    if let Some(v) = n.as_i64() {
        return Some(i128::from(v));
    }
    if let Some(v) = n.as_u64() {
        return Some(i128::from(v));
    }
    let f = n.as_f64()?;
    // `as` saturates: a whole number beyond i128 stays beyond every range.
    (f.is_finite() && f.fract() == 0.0).then_some(f as i128)
}

impl JsonObject {
    /// A string field; `required` names it missing when absent.
    pub fn string(&mut self, name: &str, required: bool) -> Option<String> {
        match self.fields.get(name) {
            None => {
                if required {
                    self.errors.insert(name.to_owned(), "is required".into());
                }
                None
            }
            Some(Value::Null) => {
                self.errors.insert(name.to_owned(), NOT_NULL.into());
                None
            }
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                self.errors.insert(name.to_owned(), "must be a string".into());
                None
            }
        }
    }

    /// A string field parsed into a domain value; a parse error is the field's reason.
    pub fn parsed<T, E: std::fmt::Display>(
        &mut self,
        name: &str,
        required: bool,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Option<T> {
        let raw = self.string(name, required)?;
        parse(&raw).map_err(|e| self.reject(name, e.to_string())).ok()
    }

    /// An integer field within `min..=max`.
    pub fn integer(&mut self, name: &str, min: i64, max: i64) -> Option<i64> {
        match self.fields.get(name) {
            None => None,
            Some(Value::Null) => {
                self.errors.insert(name.to_owned(), NOT_NULL.into());
                None
            }
            Some(Value::Number(n)) => match whole_number(n) {
                None => {
                    self.errors.insert(name.to_owned(), "must be an integer".into());
                    None
                }
                Some(v) if (i128::from(min)..=i128::from(max)).contains(&v) => i64::try_from(v).ok(),
                Some(_) => {
                    self.errors.insert(name.to_owned(), format!("must be between {min} and {max}"));
                    None
                }
            },
            Some(_) => {
                self.errors.insert(name.to_owned(), "must be an integer".into());
                None
            }
        }
    }

    /// Whether the field is present (with any value, `null` included).
    pub fn has(&self, name: &str) -> bool {
        self.fields.contains_key(name)
    }

    pub fn reject(&mut self, name: &str, reason: impl Into<String>) {
        self.errors.insert(name.to_owned(), reason.into());
    }

    /// Fails with every collected field error, or succeeds when there is none.
    pub fn finish(self) -> Result<(), ApiError> {
        if self.errors.is_empty() { Ok(()) } else { Err(ApiError::validation(self.errors)) }
    }
}

#[cfg(test)]
mod tests {
    use super::whole_number;

    #[test]
    fn whole_numbers_are_integers_in_any_notation_and_fractions_are_not() {
        let n = |text: &str| whole_number(&serde_json::from_str(text).unwrap());
        assert_eq!(n("977"), Some(977));
        assert_eq!(n("977.0"), Some(977));
        assert_eq!(n("9.77e2"), Some(977));
        assert_eq!(n("-1"), Some(-1));
        assert_eq!(n("18446744073709551615"), Some(18_446_744_073_709_551_615));
        assert_eq!(n("1.5"), None);
        assert!(n("1e300").is_some_and(|v| v > i128::from(i64::MAX)), "whole, and beyond every range");
    }
}
