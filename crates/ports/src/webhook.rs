//! Events and their delivery: the outbox records (written in the same unit of work as the
//! change that causes them) and the port through which an attempt leaves the service.

use crate::Cursor;
use async_trait::async_trait;
use time::{Duration, OffsetDateTime};
use vp_domain::{AccountId, EndpointId};

/// An address of a partner that receives events (the spec's "subscription address").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEndpointRecord {
    pub id: EndpointId,
    pub account_id: AccountId,
    pub url: String,
    /// Event types it receives, in the order given.
    pub event_types: Vec<String>,
    /// The signing secret (`whsec_` + base64 of 32 random bytes), sealed under the secrets
    /// key (`App` seals and opens it; the purpose is `webhook-secret:<id>`).
    pub secret_sealed: String,
    /// The secret before the last rotation, sealed; events are signed with both for 24 hours.
    pub previous_secret_sealed: Option<String>,
    pub secret_rotated_at: Option<OffsetDateTime>,
    pub enabled: bool,
    /// Why it was disabled (`operator`, `gone`, `failing`); `None` while enabled.
    pub disabled_reason: Option<String>,
    /// When it was disabled; `None` while enabled.
    pub disabled_at: Option<OffsetDateTime>,
    /// Since when no attempt was accepted; `None` after an accepted one.
    pub failing_since: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
}

impl WebhookEndpointRecord {
    /// An endpoint just added: enabled, with one secret, failing nowhere yet.
    pub fn added(
        id: EndpointId,
        account_id: AccountId,
        url: String,
        event_types: Vec<String>,
        secret_sealed: String,
        at: OffsetDateTime,
    ) -> WebhookEndpointRecord {
        WebhookEndpointRecord {
            id,
            account_id,
            url,
            event_types,
            secret_sealed,
            previous_secret_sealed: None,
            secret_rotated_at: None,
            enabled: true,
            disabled_reason: None,
            disabled_at: None,
            failing_since: None,
            created_at: at,
        }
    }

    /// Until when the previous secret still signs (a second signature) after a rotation.
    pub fn previous_secret_valid_until(&self) -> Option<OffsetDateTime> {
        self.secret_rotated_at.map(|at| at + vp_domain::limits::WEBHOOK_SECRET_OVERLAP)
    }
}

/// One event, its body serialised once: every attempt sends these exact bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRecord {
    /// Sent as `webhook-id`.
    pub id: String,
    pub account_id: AccountId,
    pub event_type: String,
    /// `{type, timestamp, data}` as sent.
    pub body: String,
    /// The body's `timestamp`: when it happened.
    pub occurred_at: OffsetDateTime,
    pub created_at: OffsetDateTime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStatus {
    /// Attempts remain; the next is due at `next_attempt_at`.
    Pending,
    /// A `2xx` was received.
    Delivered,
    /// Undelivered for good: attempts spent, the endpoint disabled, or a test that failed.
    Failed,
}

impl DeliveryStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Delivered => "delivered",
            DeliveryStatus::Failed => "failed",
        }
    }

    pub fn parse(text: &str) -> Option<DeliveryStatus> {
        match text {
            "pending" => Some(DeliveryStatus::Pending),
            "delivered" => Some(DeliveryStatus::Delivered),
            "failed" => Some(DeliveryStatus::Failed),
            _ => None,
        }
    }
}

/// One event on its way to one endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRecord {
    pub id: String,
    pub event_id: String,
    pub endpoint_id: EndpointId,
    pub status: DeliveryStatus,
    /// Attempts made so far.
    pub attempts: u32,
    pub next_attempt_at: OffsetDateTime,
    /// A worker holds it until then; a crashed worker's lease simply runs out.
    pub locked_until: Option<OffsetDateTime>,
    pub delivered_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
}

/// The log line of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRecord {
    pub id: String,
    pub delivery_id: String,
    /// 1 for the first attempt of the delivery's current schedule (a replay starts again).
    pub attempt: u32,
    pub attempted_at: OffsetDateTime,
    /// The response status; `None` when no response came (timeout, refused address, ...).
    pub status_code: Option<u16>,
    pub duration_ms: u32,
    pub error: Option<String>,
}

/// An attempt as the operator's delivery list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptLogEntry {
    pub attempt: AttemptRecord,
    pub event_id: String,
    pub event_type: String,
}

/// Which attempts of an endpoint a delivery log shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AttemptFilter {
    /// Only attempts without a `2xx` (error statuses and no response).
    pub failed_only: bool,
    pub event_type: Option<String>,
    /// Attempts strictly older than this cursor `(attempted_at, attempt id)`.
    pub before: Option<Cursor>,
    pub limit: u32,
}

/// What the sender needs for one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingWebhook<'a> {
    pub url: &'a str,
    pub webhook_id: &'a str,
    pub body: &'a str,
    /// Signing secrets, the current one first. The sender stamps `webhook-timestamp` with the
    /// real send time (not the operator's shifted clock), so receivers' 5-minute check holds.
    pub secrets: Vec<&'a str>,
}

/// How an attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookResponse {
    /// `None`: no response (timeout, connection refused or dropped, address refused).
    pub status_code: Option<u16>,
    /// The receiver's `Retry-After`, if it sent a usable one.
    pub retry_after: Option<Duration>,
    pub duration: Duration,
    /// Why it failed, for the delivery log.
    pub error: Option<String>,
}

impl WebhookResponse {
    /// Delivered: a `2xx` (redirects are never followed, so a `3xx` is a failure).
    pub fn accepted(&self) -> bool {
        self.status_code.is_some_and(|s| (200..300).contains(&s))
    }
}

/// Why an endpoint address is refused; pages and bots show each in their own words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressRefused {
    #[error("not a valid URL: {0}")]
    NotAUrl(String),
    #[error("credentials in the URL are not accepted")]
    Credentials,
    #[error("the URL has no host")]
    NoHost,
    #[error("only https:// addresses are accepted")]
    NotHttps,
    #[error("only port 443 is accepted")]
    NotPort443,
    #[error("{host} does not resolve: {reason}")]
    DoesNotResolve { host: String, reason: String },
    #[error("{host} does not resolve to any address")]
    NoAddress { host: String },
    #[error("{host} resolves to {ip}, which is not a publicly reachable address")]
    NotPublic { host: String, ip: std::net::IpAddr },
}

/// Where events leave the service. Implementations vet the address (https, port 443, only
/// publicly reachable IPs, checked again at every attempt) and sign the body.
#[async_trait]
pub trait WebhookSender: Send + Sync {
    /// Checks an address at registration: its form and what its host resolves to now.
    async fn vet(&self, url: &str) -> Result<(), AddressRefused>;
    async fn send(&self, webhook: &OutgoingWebhook<'_>) -> WebhookResponse;
}
