//! HTTP to the external systems the adapters call: the payment gateway, the VPN panel and the
//! partners' webhook receivers. One client setup (TLS with ring only, no proxies from the
//! environment, no redirects, a limit on every request), one wording of what went wrong on the
//! wire, and one log line for a request the other side refused.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub mod signature;

/// A client builder with the platform's defaults; the caller adds what is its own (a DNS
/// resolver) and builds it.
pub fn builder(timeout: Duration) -> reqwest::ClientBuilder {
    // reqwest is built without a TLS crypto provider so that only ring is compiled in.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .user_agent(concat!("vpn-partner-platform/", env!("CARGO_PKG_VERSION")))
}

/// What went wrong on the wire, in words that carry no URL or secret.
pub fn failure(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        "no answer in time"
    } else if e.is_connect() {
        "cannot connect"
    } else {
        // Includes a connection closed without an answer.
        "the connection failed before an answer"
    }
}

/// Requests an external system refused (a 4xx it should not have had to send): each is logged
/// with the request and the answer, and counted.
pub struct Refusals {
    system: &'static str,
    count: AtomicU64,
}

impl Refusals {
    pub const fn new(system: &'static str) -> Refusals {
        Refusals { system, count: AtomicU64::new(0) }
    }

    /// Logs a refusal; the request body must carry no secret (ours never do). Returns how
    /// many this process has seen.
    pub fn record(
        &self,
        method: &str,
        path: &str,
        request: Option<&Value>,
        status: u16,
        answer: Option<&Value>,
    ) -> u64 {
        let total = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        tracing::error!(
            system = self.system,
            method,
            path,
            request = %request.map_or_else(String::new, serde_json::Value::to_string),
            status,
            answer = %answer.map_or_else(|| "(no body)".to_owned(), serde_json::Value::to_string),
            refused_total = total,
            "an external system refused a request"
        );
        total
    }
}

/// An answer that is not an outage (each adapter says which statuses are: a 5xx, YooKassa's
/// 202): its status, and its body when that is JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: Option<Value>,
}

impl Answer {
    pub fn new(status: u16, bytes: &[u8]) -> Answer {
        Answer { status, body: serde_json::from_slice(bytes).ok() }
    }

    /// A 2xx.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body, or its member `field`, as `T` (a missing one reads as `null`).
    pub fn read<T: DeserializeOwned>(&self, field: Option<&str>) -> Result<T, serde_json::Error> {
        let value = match field {
            None => self.body.clone(),
            Some(name) => self.body.as_ref().and_then(|b| b.get(name)).cloned(),
        };
        serde_json::from_value(value.unwrap_or(Value::Null))
    }

    /// The body's text member `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.body.as_ref()?.get(name)?.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reads_its_json_body_or_a_member_and_says_whether_it_is_a_2xx() {
        let answer = Answer::new(201, br#"{"errorCode":"A063","response":{"n":7}}"#);
        assert!(answer.ok());
        assert_eq!(answer.text("errorCode"), Some("A063"));
        assert_eq!(answer.read::<Value>(Some("response")).ok(), Some(serde_json::json!({"n": 7})));
        assert!(answer.read::<u32>(Some("missing")).is_err(), "a missing member is null");
        let refused = Answer::new(404, b"<html>not json</html>");
        assert!(!refused.ok());
        assert_eq!(refused.body, None);
        assert_eq!(refused.read::<Option<u32>>(None).ok(), Some(None));
    }
}
