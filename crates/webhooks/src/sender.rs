//! Sends one attempt over HTTPS: never follows redirects, ignores proxies from the
//! environment, gives up after 15 seconds, and connects only to addresses vetted at that very
//! moment (the resolver below refuses a name if any of its addresses is not public), so a DNS
//! answer that changes after registration cannot point an event inside our network.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use time::Duration;
use url::{Host, Url};
use vp_ports::{AddressRefused, OutgoingWebhook, WebhookResponse, WebhookSender};

use crate::address::is_public;
use crate::signature::signature_header;

/// A response after this long is a failure (spec: "2xx within 15 seconds").
pub const ATTEMPT_TIMEOUT: std::time::Duration =
    std::time::Duration::from_secs(vp_domain::limits::WEBHOOK_RESPONSE_TIMEOUT.whole_seconds().unsigned_abs());

/// Which addresses events may reach. `allowed` is the operator-only escape hatch for tests
/// and local receivers: listed addresses are accepted over plain http on any port. Empty by
/// default; the binary logs loudly when it is not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    pub allowed: Vec<IpAddr>,
}

impl AddressPolicy {
    fn admits(&self, ip: IpAddr) -> bool {
        is_public(ip) || self.allowed.contains(&ip)
    }

    fn vet_addresses(&self, host: &str, addrs: &[IpAddr]) -> Result<(), AddressRefused> {
        if addrs.is_empty() {
            return Err(AddressRefused::NoAddress { host: host.to_owned() });
        }
        match addrs.iter().find(|ip| !self.admits(**ip)) {
            Some(ip) => Err(AddressRefused::NotPublic { host: host.to_owned(), ip: *ip }),
            None => Ok(()),
        }
    }
}

struct VettedResolver {
    policy: Arc<AddressPolicy>,
}

async fn lookup(host: &str) -> Result<Vec<IpAddr>, AddressRefused> {
    let found = tokio::net::lookup_host((host, 443))
        .await
        .map_err(|e| AddressRefused::DoesNotResolve { host: host.to_owned(), reason: e.to_string() })?;
    Ok(found.map(|a| a.ip()).collect())
}

impl Resolve for VettedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let ips = lookup(&host).await?;
            policy.vet_addresses(&host, &ips)?;
            let addrs: Addrs =
                Box::new(ips.into_iter().map(|ip| SocketAddr::new(ip, 0)).collect::<Vec<_>>().into_iter());
            Ok(addrs)
        })
    }
}

pub struct HttpsSender {
    client: reqwest::Client,
    policy: Arc<AddressPolicy>,
}

impl HttpsSender {
    pub fn new(policy: AddressPolicy) -> Result<HttpsSender, String> {
        let policy = Arc::new(policy);
        let client = vp_outbound::builder(ATTEMPT_TIMEOUT)
            .dns_resolver(VettedResolver { policy: policy.clone() })
            .user_agent(concat!("vpn-partner-webhooks/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the webhook HTTP client: {e}"))?;
        Ok(HttpsSender { client, policy })
    }

    /// The form of the address, then what its host resolves to now.
    async fn check(&self, url: &str) -> Result<Url, AddressRefused> {
        let parsed = Url::parse(url).map_err(|e| AddressRefused::NotAUrl(e.to_string()))?;
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(AddressRefused::Credentials);
        }
        let ips = match parsed.host() {
            Some(Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(Host::Domain(name)) => lookup(name).await?,
            None => return Err(AddressRefused::NoHost),
        };
        let host = parsed.host_str().unwrap_or_default().to_owned();
        let allow_listed = !ips.is_empty() && ips.iter().all(|ip| self.policy.allowed.contains(ip));
        if !allow_listed {
            if parsed.scheme() != "https" {
                return Err(AddressRefused::NotHttps);
            }
            if parsed.port_or_known_default() != Some(443) {
                return Err(AddressRefused::NotPort443);
            }
        } else if !matches!(parsed.scheme(), "https" | "http") {
            return Err(AddressRefused::NotHttps);
        }
        self.policy.vet_addresses(&host, &ips)?;
        Ok(parsed)
    }
}

fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)).unwrap_or(0)
}

/// `Retry-After` in delta-seconds (what receivers send in practice); other forms are ignored.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let seconds: i64 = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim().parse().ok()?;
    (seconds >= 0).then(|| Duration::seconds(seconds))
}

fn failure(started: Instant, error: String) -> WebhookResponse {
    WebhookResponse { status_code: None, retry_after: None, duration: elapsed(started), error: Some(error) }
}

fn elapsed(started: Instant) -> Duration {
    Duration::try_from(started.elapsed()).unwrap_or(Duration::MAX)
}

#[async_trait]
impl WebhookSender for HttpsSender {
    async fn vet(&self, url: &str) -> Result<(), AddressRefused> {
        self.check(url).await.map(|_| ())
    }

    async fn send(&self, webhook: &OutgoingWebhook<'_>) -> WebhookResponse {
        let started = Instant::now();
        let url = match self.check(webhook.url).await {
            Ok(url) => url,
            Err(refused) => return failure(started, format!("address refused: {refused}")),
        };
        let timestamp = unix_now();
        let signature = match signature_header(&webhook.secrets, webhook.webhook_id, timestamp, webhook.body.as_bytes())
        {
            Ok(s) => s,
            Err(_) => return failure(started, "the endpoint's secret does not decode".into()),
        };
        let sent = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("webhook-id", webhook.webhook_id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(webhook.body.to_owned())
            .send()
            .await;
        match sent {
            Ok(response) => {
                let status = response.status();
                let error = (!status.is_success()).then(|| match status.is_redirection() {
                    true => format!("HTTP {status}: redirects are not followed"),
                    false => format!("HTTP {status}"),
                });
                WebhookResponse {
                    status_code: Some(status.as_u16()),
                    retry_after: retry_after(response.headers()),
                    duration: elapsed(started),
                    error,
                }
            }
            Err(e) if e.is_timeout() => failure(started, "no response within 15 seconds".into()),
            Err(e) => failure(started, format!("request failed: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(allowed: &[&str]) -> HttpsSender {
        HttpsSender::new(AddressPolicy { allowed: allowed.iter().map(|a| a.parse().unwrap()).collect() }).unwrap()
    }

    async fn refused(s: &HttpsSender, url: &str) -> String {
        s.vet(url).await.expect_err(url).to_string()
    }

    #[tokio::test]
    async fn only_https_on_port_443_to_public_addresses_is_accepted() {
        let s = sender(&[]);
        assert!(s.vet("https://1.1.1.1/hooks").await.is_ok());
        assert!(s.vet("https://1.1.1.1:443/hooks").await.is_ok());
        assert!(refused(&s, "http://1.1.1.1/hooks").await.contains("https"));
        assert!(refused(&s, "https://1.1.1.1:8443/hooks").await.contains("443"));
        assert!(refused(&s, "https://127.0.0.1/hooks").await.contains("not a publicly reachable"));
        assert!(refused(&s, "https://[::ffff:10.0.0.1]/hooks").await.contains("not a publicly reachable"));
        assert!(refused(&s, "https://169.254.169.254/latest").await.contains("not a publicly reachable"));
        assert!(refused(&s, "https://user:pw@1.1.1.1/").await.contains("credentials"));
        assert!(refused(&s, "not a url").await.contains("not a valid URL"));
        // `localhost` resolves to loopback: refused after resolving, whatever the name says.
        assert!(refused(&s, "https://localhost/hooks").await.contains("not a publicly reachable"));
    }

    #[tokio::test]
    async fn the_allow_list_admits_only_the_listed_addresses() {
        let s = sender(&["127.0.0.1"]);
        assert!(s.vet("http://127.0.0.1:9999/hooks").await.is_ok());
        assert!(refused(&s, "http://127.0.0.2:9999/hooks").await.contains("https"));
        assert!(refused(&s, "https://10.0.0.1/hooks").await.contains("not a publicly reachable"));
    }

    #[tokio::test]
    async fn a_refused_address_is_a_failed_attempt_without_a_request() {
        let s = sender(&[]);
        let r = s
            .send(&OutgoingWebhook {
                url: "https://127.0.0.1/hooks",
                webhook_id: "msg_1",
                body: "{}",
                secrets: vec!["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
            })
            .await;
        assert_eq!(r.status_code, None);
        assert!(!r.accepted());
        assert!(r.error.unwrap().starts_with("address refused"));
    }
}
