//! HTTP to the panel: the API token, the reverse-proxy headers Remnawave wants on plain http,
//! a 10-second limit, and the one place that sorts answers into data, outages and refusals.

use std::time::Duration;

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;
use vp_ports::PanelError;

/// Timeouts, connection errors and 5xx are outages; the sync retries them.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) struct Client {
    http: reqwest::Client,
    /// `{url}/api` without a trailing slash.
    api: String,
    token: String,
    /// The panel is reached over plain http (same host, no reverse proxy in between).
    plain_http: bool,
    refused: vp_outbound::Refusals,
}

/// An answer the caller reads: 2xx or 4xx (outages never get here).
pub(crate) use vp_outbound::Answer;

/// What the panel's answers carry beyond a status: its envelope.
pub(crate) trait PanelAnswer {
    /// The panel's business error code (`A063`, `A204`, ...), when it sent one.
    fn error_code(&self) -> Option<&str>;
    /// The `response` of the envelope, typed.
    fn response<T: DeserializeOwned>(&self, what: &str) -> Result<T, PanelError>;
}

impl PanelAnswer for Answer {
    fn error_code(&self) -> Option<&str> {
        self.text("errorCode")
    }

    fn response<T: DeserializeOwned>(&self, what: &str) -> Result<T, PanelError> {
        self.read(Some("response")).map_err(|e| {
            tracing::error!(what, error = %e, "the Remnawave answer does not have the contract's shape");
            PanelError::Rejected(format!("{what}: the panel's answer does not have the contract's shape: {e}"))
        })
    }
}

impl Client {
    pub fn new(url: &str, token: &str, timeout: Duration) -> Result<Client, String> {
        let http = vp_outbound::builder(timeout)
            .build()
            .map_err(|e| format!("cannot build the Remnawave HTTP client: {e}"))?;
        let base = url.trim_end_matches('/');
        Ok(Client {
            http,
            api: format!("{base}/api"),
            token: token.to_owned(),
            plain_http: base.to_ascii_lowercase().starts_with("http://"),
            refused: vp_outbound::Refusals::new("remnawave"),
        })
    }

    /// One request. `path` starts after `/api`.
    pub async fn call(&self, method: Method, path: &str, body: Option<&Value>) -> Result<Answer, PanelError> {
        let mut request = self.http.request(method.clone(), format!("{}{path}", self.api)).bearer_auth(&self.token);
        if self.plain_http {
            // Remnawave drops plain-http requests that did not come through its reverse proxy.
            request = request.header("x-forwarded-for", "127.0.0.1").header("x-forwarded-proto", "https");
        }
        if let Some(body) = body {
            request = request.header("content-type", "application/json").body(body.to_string());
        }
        let response = request
            .send()
            .await
            .map_err(|e| PanelError::Unavailable(format!("{method} /api{path}: {}", vp_outbound::failure(&e))))?;
        let status = response.status().as_u16();
        let bytes = response
            .bytes()
            .await
            .map_err(|e| PanelError::Unavailable(format!("{method} /api{path}: {}", vp_outbound::failure(&e))))?;
        if status >= 500 {
            return Err(PanelError::Unavailable(format!("{method} /api{path}: the panel answered {status}")));
        }
        Ok(Answer::new(status, &bytes))
    }

    /// A 4xx the caller did not expect: our bug or a drift. Logged with the request (which
    /// carries no secret), counted, and returned as a refusal.
    pub fn refused(&self, method: &Method, path: &str, request: Option<&Value>, answer: &Answer) -> PanelError {
        let path = format!("/api{path}");
        self.refused.record(method.as_str(), &path, request, answer.status, answer.body.as_ref());
        let why = match answer.status {
            401 | 403 => "the panel refused the API token (check VP_REMNAWAVE_TOKEN and its scopes)".to_owned(),
            _ => answer.body.as_ref().map_or_else(|| "(no body)".to_owned(), Value::to_string),
        };
        PanelError::Rejected(format!("{method} {path}: {} {why}", answer.status))
    }
}
