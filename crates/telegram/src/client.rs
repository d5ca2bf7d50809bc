//! Calls to the Telegram Bot API (docs/telegram.md lists the methods and fields we rely on):
//! `{api_url}/bot{token}/{method}` with a JSON body, or a `multipart/form-data` one when it
//! carries a file. The token is in the path, so no URL ever reaches a log or an error text;
//! only the method, the status and Telegram's description do.

use std::time::Duration;

use reqwest::multipart::Form;
use serde_json::Value;

/// The limit on a request other than a long poll.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// A failed call: no answer (`code` is `None`), or Telegram's refusal (the Bot API reference:
/// `error_code`, `description`, `parameters.retry_after`).
#[derive(Debug)]
pub(crate) struct CallError {
    pub code: Option<u16>,
    pub description: String,
    pub retry_after: Option<Duration>,
    pub answer: Option<Value>,
}

impl CallError {
    fn no_answer(e: &reqwest::Error) -> CallError {
        CallError { code: None, description: vp_outbound::failure(e).to_owned(), retry_after: None, answer: None }
    }
}

pub(crate) struct Client {
    http: reqwest::Client,
    api_url: String,
}

impl Client {
    /// `api_url` like `https://api.telegram.org` (no trailing slash needed).
    pub(crate) fn new(api_url: &str) -> Result<Client, String> {
        let http = vp_outbound::builder(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| format!("cannot set up the Telegram client: {}", vp_outbound::failure(&e)))?;
        Ok(Client { http, api_url: api_url.trim_end_matches('/').to_owned() })
    }

    fn post(&self, token: &str, method: &str, timeout: Duration) -> reqwest::RequestBuilder {
        self.http.post(format!("{}/bot{token}/{method}", self.api_url)).timeout(timeout)
    }

    /// Calls a method of the bot `token` names; the `result` of an `ok` answer.
    pub(crate) async fn call(
        &self,
        token: &str,
        method: &str,
        body: &Value,
        timeout: Duration,
    ) -> Result<Value, CallError> {
        let request =
            self.post(token, method, timeout).header("content-type", "application/json").body(body.to_string());
        answer(request).await
    }

    /// `call` with a form, for methods that upload a file.
    pub(crate) async fn call_form(
        &self,
        token: &str,
        method: &str,
        form: Form,
        timeout: Duration,
    ) -> Result<Value, CallError> {
        answer(self.post(token, method, timeout).multipart(form)).await
    }
}

/// Sends the request and reads Telegram's envelope.
async fn answer(request: reqwest::RequestBuilder) -> Result<Value, CallError> {
    let response = request.send().await.map_err(|e| CallError::no_answer(&e))?;
    let status = response.status().as_u16();
    let bytes = response.bytes().await.map_err(|e| CallError::no_answer(&e))?;
    let answer: Option<Value> = serde_json::from_slice(&bytes).ok();
    match answer {
        Some(a) if status == 200 && a["ok"] == true => Ok(a["result"].clone()),
        answer => {
            let code = answer
                .as_ref()
                .and_then(|a| a["error_code"].as_u64())
                .map_or(status, |c| u16::try_from(c).unwrap_or(status));
            Err(CallError {
                code: Some(code),
                description: answer
                    .as_ref()
                    .and_then(|a| a["description"].as_str())
                    .unwrap_or("no description")
                    .to_owned(),
                retry_after: answer
                    .as_ref()
                    .and_then(|a| a["parameters"]["retry_after"].as_u64())
                    .map(Duration::from_secs),
                answer,
            })
        }
    }
}
