//! Request bodies: JSON objects only, with every bad or unknown field named in `fields`.

use std::collections::BTreeMap;

use actix_web::HttpRequest;
use actix_web::web::Bytes;
use serde_json::{Map, Value};

use crate::error::{ApiError, ErrorCode};

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

impl JsonObject {
    /// A string field; `required` names it missing when absent or null.
    pub fn string(&mut self, name: &str, required: bool) -> Option<String> {
        match self.fields.get(name) {
            None | Some(Value::Null) => {
                if required {
                    self.errors.insert(name.to_owned(), "is required".into());
                }
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
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => match (n.as_i64(), n.is_f64()) {
                (_, true) => {
                    self.errors.insert(name.to_owned(), "must be an integer".into());
                    None
                }
                (Some(v), false) if (min..=max).contains(&v) => Some(v),
                _ => {
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

    pub fn has(&self, name: &str) -> bool {
        self.fields.get(name).is_some_and(|v| !v.is_null())
    }

    pub fn reject(&mut self, name: &str, reason: impl Into<String>) {
        self.errors.insert(name.to_owned(), reason.into());
    }

    /// Fails with every collected field error, or succeeds when there is none.
    pub fn finish(self) -> Result<(), ApiError> {
        if self.errors.is_empty() { Ok(()) } else { Err(ApiError::validation(self.errors)) }
    }
}
