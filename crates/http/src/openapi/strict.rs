//! What every operation of the partner API shares, stated once and written into the generated
//! document: the named value schemas (`values`), and the statuses and headers no handler
//! annotation repeats:
//! - `401 UNAUTHORIZED`, `429 RATE_LIMITED` and `500 INTERNAL_ERROR` on every operation;
//! - `422 VALIDATION_ERROR` where a parameter with rules or a body can be malformed;
//! - `413 PAYLOAD_TOO_LARGE` and `415 UNSUPPORTED_MEDIA_TYPE` where a body is read;
//! - `X-Request-Id` on every response, and `Retry-After` on a 429 whenever each code it can
//!   carry comes with one (spec: Errors; the daily limits have none);
//! - the optional `Accept-Language` header, which localizes every error message.

use serde_json::{Map, Value, json};

use super::values;

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/// The codes a `429` answers with together with `Retry-After` (spec: Errors).
const CODES_WITH_RETRY_AFTER: [&str; 2] = ["RATE_LIMITED", "LINK_ROTATE_TOO_SOON"];

pub fn apply(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    for (name, schema) in values::components() {
        schemas[name] = schema;
    }
    let Some(paths) = doc["paths"].as_object_mut() else { return };
    for item in paths.values_mut() {
        for method in METHODS {
            if let Some(op) = item.get_mut(method).and_then(Value::as_object_mut) {
                complete_operation(op);
            }
        }
    }
}

fn complete_operation(op: &mut Map<String, Value>) {
    let has_body = op.contains_key("requestBody");
    let parameters = op.entry("parameters").or_insert_with(|| json!([]));
    let has_rules = parameters
        .as_array()
        .is_some_and(|ps| ps.iter().any(|p| p["in"] == "query" || p["schema"].get("$ref").is_some()));
    let parameters = parameters.as_array_mut().filter(|ps| !ps.iter().any(|p| p["name"] == "Accept-Language"));
    if let Some(ps) = parameters {
        ps.push(json!({
            "name": "Accept-Language",
            "in": "header",
            "required": false,
            "description": "`ru` or `ru-*` for Russian; anything else, or none, for English. Applies to names, labels, titles and error messages.",
            "schema": { "type": "string" },
        }));
    }
    let responses = op.entry("responses").or_insert_with(|| json!({}));
    let Some(responses) = responses.as_object_mut() else { return };
    let mut shared = vec![("401", "UNAUTHORIZED"), ("429", "RATE_LIMITED"), ("500", "INTERNAL_ERROR")];
    if has_rules || has_body {
        shared.push(("422", "VALIDATION_ERROR: what is wrong is named in `fields`"));
    }
    if has_body {
        shared.push(("413", "PAYLOAD_TOO_LARGE: the body is over 16 KiB"));
        shared.push(("415", "UNSUPPORTED_MEDIA_TYPE: the body must be `application/json`"));
    }
    for (status, description) in shared {
        responses.entry(status).or_insert_with(|| error_response(description));
    }
    for (status, response) in responses.iter_mut() {
        let Some(response) = response.as_object_mut() else { continue };
        let retry_after = status == "429" && every_code_retries(response);
        let headers = response.entry("headers").or_insert_with(|| json!({}));
        headers["X-Request-Id"] = json!({
            "description": "The request's id: the caller's own `X-Request-Id` when it is 1 to 128 characters of `[A-Za-z0-9._:-]`, else a new one. Quote it to support.",
            "required": true,
            "schema": { "type": "string", "pattern": "^[A-Za-z0-9._:-]{1,128}$" },
        });
        if status == "429" {
            headers["Retry-After"] = json!({
                "description": "Whole seconds to wait, at least 1; sent with RATE_LIMITED and LINK_ROTATE_TOO_SOON, not with the daily limits.",
                "required": retry_after,
                "schema": { "type": "integer", "minimum": 1 },
            });
        }
    }
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Envelope" } } },
    })
}

/// Whether each error code a 429's description names is one that carries `Retry-After`.
fn every_code_retries(response: &Map<String, Value>) -> bool {
    let description = response.get("description").and_then(Value::as_str).unwrap_or("");
    let codes: Vec<&str> = description
        .split(|c: char| !(c.is_ascii_uppercase() || c == '_'))
        .filter(|word| word.len() > 3 && word.contains('_'))
        .collect();
    !codes.is_empty() && codes.iter().all(|c| CODES_WITH_RETRY_AFTER.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_promised_only_where_every_code_carries_it() {
        let with = |d: &str| every_code_retries(json!({ "description": d }).as_object().unwrap());
        assert!(with("RATE_LIMITED"));
        assert!(with("RATE_LIMITED, LINK_ROTATE_TOO_SOON (with Retry-After)"));
        assert!(!with("RATE_LIMITED (with Retry-After), NEW_CLIENTS_DAILY_LIMIT"));
        assert!(!with("TRIAL_DAILY_LIMIT"));
        assert!(!with("Too many"));
    }
}
