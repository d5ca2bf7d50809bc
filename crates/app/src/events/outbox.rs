//! Recording an event: the body is serialised once, here, and one delivery is queued for each
//! enabled endpoint subscribed to the type at this moment.

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use vp_domain::{AccountId, EndpointId};
use vp_ports::{DeliveryRecord, DeliveryStatus, EventRecord, EventRepo, WebhookEndpointRecord};

use crate::error::AppResult;
use crate::stamp::Stamp;

/// `{type, timestamp, data}`; `timestamp` is ISO 8601 UTC with microseconds.
pub fn event_body(event_type: &str, occurred_at: OffsetDateTime, data: &Value) -> String {
    let utc = occurred_at.to_offset(time::UtcOffset::UTC);
    let micros = utc.nanosecond() / 1_000 * 1_000;
    let utc = utc.replace_nanosecond(micros).unwrap_or(utc);
    // RFC 3339 prints only the digits it needs; the spec asks for fractions of a second always.
    let base = utc.replace_nanosecond(0).unwrap_or(utc).format(&Rfc3339).unwrap_or_default();
    let timestamp = format!("{}.{:06}Z", base.trim_end_matches('Z'), micros / 1_000);
    // Written out so the keys keep the spec's order (serde_json sorts map keys).
    format!(r#"{{"type":{},"timestamp":"{timestamp}","data":{data}}}"#, Value::from(event_type))
}

/// Of an account's endpoints, those that take `event_type`: enabled and subscribed to it.
pub(crate) fn targets_of(endpoints: &[WebhookEndpointRecord], event_type: &str) -> Vec<EndpointId> {
    endpoints
        .iter()
        .filter(|e| e.enabled && e.event_types.iter().any(|t| t == event_type))
        .map(|e| e.id.clone())
        .collect()
}

/// Records events and queues their deliveries, in the unit of work of their cause.
#[derive(Clone)]
pub(crate) struct EventOutbox {
    pub(crate) stamp: Stamp,
}

impl EventOutbox {
    /// The endpoints of `account_id` that take `event_type` now: enabled and subscribed to it
    /// (spec: "subscribed to that type at the moment of the event"). Callers skip rendering
    /// and recording an event nobody takes.
    pub(crate) async fn targets(
        &self,
        tx: &mut (impl EventRepo + ?Sized),
        account_id: &AccountId,
        event_type: &str,
    ) -> AppResult<Vec<EndpointId>> {
        Ok(targets_of(&tx.webhook_endpoints(account_id).await?, event_type))
    }

    /// Records an event of `account_id` in `tx` and queues one delivery to each of `targets`
    /// (from `targets`, read in the same unit of work; none for the test button, which queues
    /// its own held delivery). Returns the event.
    pub(crate) async fn record(
        &self,
        tx: &mut (impl EventRepo + ?Sized),
        account_id: &AccountId,
        event_type: &str,
        occurred_at: OffsetDateTime,
        data: &Value,
        targets: &[EndpointId],
    ) -> AppResult<EventRecord> {
        let now = self.stamp.now();
        let event = EventRecord {
            id: self.stamp.id("msg"),
            account_id: account_id.clone(),
            event_type: event_type.to_owned(),
            body: event_body(event_type, occurred_at, data),
            occurred_at,
            created_at: now,
        };
        tx.insert_event(&event).await?;
        for endpoint_id in targets {
            tx.insert_delivery(&self.new_delivery(&event.id, endpoint_id, now)).await?;
        }
        Ok(event)
    }

    pub(crate) fn new_delivery(&self, event_id: &str, endpoint_id: &EndpointId, now: OffsetDateTime) -> DeliveryRecord {
        DeliveryRecord {
            id: self.stamp.id("dlv"),
            event_id: event_id.to_owned(),
            endpoint_id: endpoint_id.to_owned(),
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: now,
            locked_until: None,
            delivered_at: None,
            created_at: now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use time::macros::datetime;

    #[test]
    fn the_body_is_type_timestamp_with_fractions_and_data() {
        let body = event_body("webhook.test", datetime!(2026-11-23 10:00:05 UTC), &json!({}));
        assert_eq!(body, r#"{"type":"webhook.test","timestamp":"2026-11-23T10:00:05.000000Z","data":{}}"#);
        let body = event_body("x", datetime!(2026-11-23 10:00:05.1234567 +03:00), &json!({"a": 1}));
        assert!(body.contains(r#""timestamp":"2026-11-23T07:00:05.123456Z""#), "{body}");
    }
}
