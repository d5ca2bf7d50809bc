//! HTTP to the external systems the adapters call: the payment gateway, the VPN panel and the
//! partners' webhook receivers. One client setup (TLS with ring only, no proxies from the
//! environment, no redirects, a limit on every request), one wording of what went wrong on the
//! wire, and one log line for a request the other side refused.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;

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
