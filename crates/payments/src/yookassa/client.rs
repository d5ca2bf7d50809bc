//! HTTP to YooKassa: Basic auth with the shop id and secret key, the `Idempotence-Key` of every
//! POST, a 10-second limit, and the one place that sorts answers into objects, unknown
//! outcomes and refusals.

use std::time::Duration;

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;
use vp_ports::GatewayError;

use super::wire::ApiError;

pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) struct Client {
    http: reqwest::Client,
    /// `https://api.yookassa.ru/v3` without a trailing slash.
    api: String,
    shop_id: String,
    secret_key: String,
    refused: vp_outbound::Refusals,
}

/// A 200 or a 4xx (unknown outcomes never get here; YooKassa documents no other 2xx).
pub(crate) use vp_outbound::Answer;

/// What YooKassa's answers carry: an object, or its error.
pub(crate) trait YooKassaAnswer {
    fn object<T: DeserializeOwned>(&self, what: &str) -> Result<T, GatewayError>;
    fn error(&self) -> ApiError;
}

impl YooKassaAnswer for Answer {
    fn object<T: DeserializeOwned>(&self, what: &str) -> Result<T, GatewayError> {
        self.read(None).map_err(|e| {
            tracing::error!(what, error = %e, "a YooKassa answer does not have the documented shape");
            GatewayError::Rejected(format!("{what}: YooKassa's answer does not have the documented shape: {e}"))
        })
    }

    fn error(&self) -> ApiError {
        self.read(None).unwrap_or_default()
    }
}

impl Client {
    pub fn new(api_url: &str, shop_id: &str, secret_key: &str, timeout: Duration) -> Result<Client, String> {
        let http =
            vp_outbound::builder(timeout).build().map_err(|e| format!("cannot build the YooKassa HTTP client: {e}"))?;
        Ok(Client {
            http,
            api: api_url.trim_end_matches('/').to_owned(),
            shop_id: shop_id.to_owned(),
            secret_key: secret_key.to_owned(),
            refused: vp_outbound::Refusals::new("yookassa"),
        })
    }

    pub fn api_url(&self) -> &str {
        &self.api
    }

    /// One request. `path` starts after `/v3`; every POST carries an `Idempotence-Key`.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        idempotence_key: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Answer, GatewayError> {
        let mut request = self
            .http
            .request(method.clone(), format!("{}{path}", self.api))
            .basic_auth(&self.shop_id, Some(&self.secret_key));
        if let Some(key) = idempotence_key {
            request = request.header("idempotence-key", key);
        }
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body.to_string());
        }
        let unknown =
            |e: &reqwest::Error| GatewayError::Unavailable(format!("{method} {path}: {}", vp_outbound::failure(e)));
        let response = request.send().await.map_err(|e| unknown(&e))?;
        let status = response.status().as_u16();
        let bytes = response.bytes().await.map_err(|e| unknown(&e))?;
        let answer = Answer::new(status, &bytes);
        // 202 (the SDKs' "processing") and 500 (the documented "result unknown", often with
        // `retry_after`) both mean: ask again with the same key and body.
        if status == 202 || status >= 500 {
            let retry_after = answer.body.as_ref().and_then(|b| b.get("retry_after")).and_then(Value::as_u64);
            let hint = retry_after.map_or_else(String::new, |ms| format!(", retry after {ms} ms"));
            return Err(GatewayError::Unavailable(format!("{method} {path}: YooKassa answered {status}{hint}")));
        }
        Ok(answer)
    }

    /// A 4xx: our request was wrong, or the shop's settings drifted. Logged with the request
    /// (no secret travels in our bodies) and YooKassa's answer, counted, and returned.
    pub fn refused(&self, method: &Method, path: &str, request: Option<&Value>, answer: &Answer) -> GatewayError {
        self.refused.record(method.as_str(), path, request, answer.status, answer.body.as_ref());
        let error = answer.error();
        let why = match answer.status {
            401 => {
                "the shop id or secret key is wrong (check VP_YOOKASSA_SHOP_ID and VP_YOOKASSA_SECRET_KEY)".to_owned()
            }
            _ => format!(
                "{} {}{}",
                error.code.as_deref().unwrap_or("error"),
                error.description.as_deref().unwrap_or(""),
                error.parameter.as_deref().map_or_else(String::new, |p| format!(" (parameter {p})"))
            ),
        };
        GatewayError::Rejected(format!("{method} {path}: {} {why}", answer.status))
    }
}
