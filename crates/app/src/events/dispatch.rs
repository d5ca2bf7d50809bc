//! The dispatcher: claims due deliveries under a lease, makes one attempt each and records
//! the outcome with the next attempt on the spec's schedule. A killed worker loses nothing:
//! its lease runs out and another worker (or the restarted one) takes the delivery again.

use time::{Duration, OffsetDateTime};
use vp_domain::webhook_schedule::{AttemptResult, EndpointHealth, next_attempt_delay};
use vp_ports::{
    AttemptRecord, DeliveryRecord, DeliveryStatus, OutgoingWebhook, WebhookEndpointRecord, WebhookResponse,
};

use super::types;
use crate::App;
use crate::error::{AppError, AppResult};

/// How long a claimed delivery is reserved: longer than one attempt can take (15 s).
pub const DELIVERY_LEASE: Duration = Duration::seconds(60);
/// The previous secret still signs for this long after a rotation.
const PREVIOUS_SECRET_VALID_FOR: Duration = Duration::hours(24);

impl App {
    /// Makes one attempt for each delivery due now (at most `limit`); returns how many.
    pub async fn deliver_due_events(&self, limit: u32) -> AppResult<usize> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        // Attempts run one after another, so the lease covers the whole batch: no delivery of
        // it can be claimed by another worker while this one is still on its way to it.
        let lease = DELIVERY_LEASE * limit.max(1);
        let claimed = tx.claim_due_deliveries(now, now + lease, limit).await?;
        tx.commit().await?;
        let count = claimed.len();
        for delivery in claimed {
            if let Err(e) = self.attempt_delivery(delivery).await {
                // The lease runs out and the delivery is tried again: nothing is lost.
                tracing::warn!(error = %e, "could not record a delivery attempt");
            }
        }
        Ok(count)
    }

    /// One attempt of a claimed delivery, recorded with its consequences in one unit of work.
    pub(crate) async fn attempt_delivery(&self, delivery: DeliveryRecord) -> AppResult<AttemptRecord> {
        let mut tx = self.store.read().await?;
        let event = tx.event(&delivery.event_id).await?.ok_or(AppError::NotFound("event"))?;
        let endpoint = tx.webhook_endpoint(&delivery.endpoint_id).await?.ok_or(AppError::NotFound("endpoint"))?;
        tx.commit().await?;

        let started = self.clock.now();
        let response = if endpoint.enabled {
            let webhook = OutgoingWebhook {
                url: &endpoint.url,
                webhook_id: &event.id,
                body: &event.body,
                secrets: signing_secrets(&endpoint, started),
            };
            self.webhooks.send(&webhook).await
        } else {
            WebhookResponse {
                status_code: None,
                retry_after: None,
                duration: Duration::ZERO,
                error: Some("the endpoint is disabled".into()),
            }
        };
        let is_test = event.event_type == types::WEBHOOK_TEST;
        self.record_attempt(delivery, endpoint, &response, is_test, started).await
    }

    async fn record_attempt(
        &self,
        mut delivery: DeliveryRecord,
        mut endpoint: WebhookEndpointRecord,
        response: &WebhookResponse,
        is_test: bool,
        started: OffsetDateTime,
    ) -> AppResult<AttemptRecord> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        tx.lock_account(&endpoint.account_id).await?;
        // Re-read under the lock: the operator may have changed the endpoint meanwhile.
        endpoint = tx.webhook_endpoint(&endpoint.id).await?.unwrap_or(endpoint);
        delivery.attempts += 1;
        let attempt = AttemptRecord {
            id: self.ids.new_id("att"),
            delivery_id: delivery.id.clone(),
            attempt: delivery.attempts,
            attempted_at: started,
            status_code: response.status_code,
            duration_ms: u32::try_from(response.duration.whole_milliseconds()).unwrap_or(u32::MAX),
            error: response.error.clone(),
        };
        tx.insert_attempt(&attempt).await?;
        delivery.locked_until = None;

        let mut disabled_now = None;
        if response.accepted() {
            delivery.status = DeliveryStatus::Delivered;
            delivery.delivered_at = Some(now);
        } else if is_test || !endpoint.enabled {
            // A test is one attempt; an event for a disabled endpoint waits for a replay.
            delivery.status = DeliveryStatus::Failed;
        } else {
            let jitter = self.jitter_permille();
            match next_attempt_delay(delivery.attempts, jitter, response.retry_after) {
                Some(delay) => delivery.next_attempt_at = now + delay,
                None => delivery.status = DeliveryStatus::Failed,
            }
        }
        // The endpoint's health counts real events only: the test button must not disable it.
        if !is_test && endpoint.enabled {
            let result = match response.status_code {
                _ if response.accepted() => AttemptResult::Accepted,
                Some(410) => AttemptResult::Gone,
                _ => AttemptResult::Failed,
            };
            let mut health = EndpointHealth { failing_since: endpoint.failing_since };
            let disable = health.record(result, started);
            endpoint.failing_since = health.failing_since;
            if disable {
                let reason = if result == AttemptResult::Gone { "gone" } else { "failing" };
                endpoint.enabled = false;
                endpoint.disabled_reason = Some(reason.into());
                delivery.status = DeliveryStatus::Failed;
                disabled_now = Some(reason);
            }
            tx.update_webhook_endpoint(&endpoint).await?;
        }
        tx.update_delivery(&delivery).await?;
        if disabled_now.is_some() {
            self.fail_pending_deliveries(tx.as_mut(), &endpoint.id).await?;
        }
        tx.commit().await?;
        if let Some(reason) = disabled_now {
            self.notifier.endpoint_disabled(&endpoint, reason);
        }
        Ok(attempt)
    }

    /// Pending deliveries of a disabled endpoint become undelivered (replayable later).
    pub(crate) async fn fail_pending_deliveries(&self, tx: &mut dyn vp_ports::Tx, endpoint_id: &str) -> AppResult<()> {
        let pending =
            tx.endpoint_deliveries_since(endpoint_id, DeliveryStatus::Pending, OffsetDateTime::UNIX_EPOCH).await?;
        for mut d in pending {
            d.status = DeliveryStatus::Failed;
            d.locked_until = None;
            tx.update_delivery(&d).await?;
        }
        Ok(())
    }

    /// A uniform draw in -100..=100 per mille (the spec's +-10 % spread).
    fn jitter_permille(&self) -> i32 {
        let bytes = self.ids.random_bytes(2);
        let n = u16::from_le_bytes([bytes.first().copied().unwrap_or(0), bytes.get(1).copied().unwrap_or(0)]);
        i32::from(n % 201) - 100
    }
}

/// The current secret, and the previous one during 24 hours after a rotation.
fn signing_secrets(endpoint: &WebhookEndpointRecord, now: OffsetDateTime) -> Vec<&str> {
    let mut secrets = vec![endpoint.secret.as_str()];
    if let (Some(previous), Some(rotated_at)) = (&endpoint.previous_secret, endpoint.secret_rotated_at) {
        if now - rotated_at < PREVIOUS_SECRET_VALID_FOR {
            secrets.push(previous);
        }
    }
    secrets
}
