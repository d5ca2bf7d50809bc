//! Endpoint management (what the spec calls the partner's cabinet): the use cases behind the
//! operator CLI and the web cabinet (`cabinet/endpoints.rs`) alike.

use time::Duration;
use vp_domain::limits::{MINUTE_WINDOW, WEBHOOK_ENDPOINTS_MAX, WEBHOOK_REPLAY_DAYS, WEBHOOK_TESTS_PER_MINUTE};
use vp_domain::{AccountId, EndpointId};
use vp_ports::{AttemptFilter, AttemptLogEntry, AttemptRecord, DeliveryStatus, Tx, WebhookEndpointRecord};

use super::{Events, types};
use crate::audit::{AuditAction, Who};
use crate::error::{AppError, AppResult, Declined};

/// What the test button did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestOutcome {
    /// `webhook.test` was sent once; how the attempt ended.
    Sent(AttemptRecord),
    /// Five tests in the last minute already; the next may go after this wait.
    TooSoon { retry_after: Duration },
}

fn parse_types(types: &[String]) -> AppResult<Vec<String>> {
    if types.is_empty() {
        return Err(Declined::NoEventTypes.into());
    }
    let mut chosen: Vec<String> = Vec::new();
    for t in types {
        if !types::SUBSCRIBABLE.contains(&t.as_str()) {
            return Err(Declined::UnknownEventType(t.clone()).into());
        }
        if !chosen.contains(t) {
            chosen.push(t.clone());
        }
    }
    Ok(chosen)
}

impl Events {
    fn new_webhook_secret(&self) -> String {
        use base64::Engine;
        format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(self.ids.random_bytes(32)))
    }

    async fn load_endpoint(&self, endpoint_id: &EndpointId) -> AppResult<WebhookEndpointRecord> {
        let mut tx = self.store.read().await?;
        let endpoint = tx.webhook_endpoint(endpoint_id).await?.ok_or(AppError::NotFound("endpoint"))?;
        tx.commit().await?;
        Ok(endpoint)
    }

    /// A unit of work holding the endpoint's account lock, with the endpoint re-read under it.
    async fn lock_endpoint(&self, endpoint_id: &EndpointId) -> AppResult<(Box<dyn Tx>, WebhookEndpointRecord)> {
        let account_id = self.load_endpoint(endpoint_id).await?.account_id;
        let mut tx = self.store.begin().await?;
        tx.lock_account(&account_id).await?;
        let endpoint = tx.webhook_endpoint(endpoint_id).await?.ok_or(AppError::NotFound("endpoint"))?;
        Ok((tx, endpoint))
    }

    /// Changes an endpoint under its account's lock and records who did it.
    async fn change_endpoint(
        &self,
        endpoint_id: &EndpointId,
        who: Who<'_>,
        action: AuditAction,
        change: impl FnOnce(&mut WebhookEndpointRecord) -> AppResult<()>,
    ) -> AppResult<WebhookEndpointRecord> {
        let (mut tx, mut endpoint) = self.lock_endpoint(endpoint_id).await?;
        change(&mut endpoint)?;
        tx.update_webhook_endpoint(&endpoint).await?;
        let detail = endpoint.url.clone();
        self.audit.record(tx.as_mut(), &endpoint.account_id, who, action, detail).await?;
        tx.commit().await?;
        Ok(endpoint)
    }

    /// Registers an address: https on port 443 to a publicly reachable host (checked now and
    /// at every attempt), with the event types it receives, at most ten per account.
    pub async fn add_endpoint(
        &self,
        account_id: &AccountId,
        url: &str,
        event_types: &[String],
        who: Who<'_>,
    ) -> AppResult<WebhookEndpointRecord> {
        let event_types = parse_types(event_types)?;
        self.webhooks.vet(url).await.map_err(Declined::EndpointAddress)?;
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        if tx.webhook_endpoints(account_id).await?.len() >= WEBHOOK_ENDPOINTS_MAX {
            return Err(Declined::TooManyEndpoints.into());
        }
        let id = EndpointId::issued(self.ids.new_id(EndpointId::PREFIX));
        let secret_sealed = self.keys.seal_endpoint_secret(&id, &self.new_webhook_secret());
        let endpoint = WebhookEndpointRecord::added(
            id,
            account_id.clone(),
            url.to_owned(),
            event_types,
            secret_sealed,
            self.clock.now(),
        );
        tx.insert_webhook_endpoint(&endpoint).await?;
        let detail = format!("{} ({})", endpoint.url, endpoint.event_types.join(", "));
        self.audit.record(tx.as_mut(), account_id, who, AuditAction::EndpointAdded, detail).await?;
        tx.commit().await?;
        Ok(endpoint)
    }

    pub async fn endpoints(&self, account_id: &AccountId) -> AppResult<Vec<WebhookEndpointRecord>> {
        let mut tx = self.store.read().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let all = tx.webhook_endpoints(account_id).await?;
        tx.commit().await?;
        Ok(all)
    }

    pub async fn endpoint(&self, endpoint_id: &EndpointId) -> AppResult<WebhookEndpointRecord> {
        self.load_endpoint(endpoint_id).await
    }

    /// The endpoint's current signing secret, in the clear, for its owner.
    pub async fn endpoint_secret(&self, endpoint_id: &EndpointId) -> AppResult<(WebhookEndpointRecord, String)> {
        let endpoint = self.load_endpoint(endpoint_id).await?;
        let secret = self.keys.endpoint_secret(&endpoint)?;
        Ok((endpoint, secret))
    }

    /// New types apply to events from now on (spec: subscribed "at the moment of the event").
    pub async fn set_endpoint_types(
        &self,
        endpoint_id: &EndpointId,
        event_types: &[String],
        who: Who<'_>,
    ) -> AppResult<WebhookEndpointRecord> {
        let event_types = parse_types(event_types)?;
        self.change_endpoint(endpoint_id, who, AuditAction::EndpointTypesChanged, |e| {
            e.event_types = event_types;
            Ok(())
        })
        .await
    }

    /// Disabling makes its pending deliveries undelivered (replayable); enabling starts the
    /// five-day health count afresh.
    pub async fn set_endpoint_enabled(
        &self,
        endpoint_id: &EndpointId,
        enabled: bool,
        who: Who<'_>,
    ) -> AppResult<WebhookEndpointRecord> {
        let action = if enabled { AuditAction::EndpointEnabled } else { AuditAction::EndpointDisabled };
        let now = self.clock.now();
        if enabled {
            let url = self.load_endpoint(endpoint_id).await?.url;
            self.webhooks.vet(&url).await.map_err(Declined::EndpointAddress)?;
        }
        let endpoint = self
            .change_endpoint(endpoint_id, who, action, |e| {
                e.enabled = enabled;
                e.disabled_reason = (!enabled).then(|| "operator".to_owned());
                e.disabled_at = (!enabled).then_some(now);
                e.failing_since = None;
                Ok(())
            })
            .await?;
        if !enabled {
            let mut tx = self.store.begin().await?;
            tx.lock_account(&endpoint.account_id).await?;
            self.fail_pending_deliveries(tx.as_mut(), endpoint_id).await?;
            tx.commit().await?;
        }
        Ok(endpoint)
    }

    /// A new secret; the previous one keeps signing for 24 hours.
    pub async fn rotate_endpoint_secret(
        &self,
        endpoint_id: &EndpointId,
        who: Who<'_>,
    ) -> AppResult<WebhookEndpointRecord> {
        let secret = self.keys.seal_endpoint_secret(endpoint_id, &self.new_webhook_secret());
        let now = self.clock.now();
        self.change_endpoint(endpoint_id, who, AuditAction::EndpointSecretRotated, |e| {
            e.previous_secret_sealed = Some(std::mem::replace(&mut e.secret_sealed, secret));
            e.secret_rotated_at = Some(now);
            Ok(())
        })
        .await
    }

    /// The test button: sends `webhook.test` now, one attempt, and returns its outcome; at
    /// most five a minute per endpoint.
    pub async fn send_test_event(&self, endpoint_id: &EndpointId, who: Who<'_>) -> AppResult<TestOutcome> {
        let now = self.clock.now();
        let (mut tx, endpoint) = self.lock_endpoint(endpoint_id).await?;
        let account_id = endpoint.account_id;
        if !endpoint.enabled {
            return Err(Declined::EndpointDisabled.into());
        }
        let window = MINUTE_WINDOW;
        let recent = tx.endpoint_event_times_since(endpoint_id, types::WEBHOOK_TEST, now - window).await?;
        let limit = WEBHOOK_TESTS_PER_MINUTE;
        if recent.len() >= limit {
            // The test that frees a place is the one `limit` back from the newest.
            let frees_at = recent[recent.len() - limit] + window;
            return Ok(TestOutcome::TooSoon { retry_after: (frees_at - now).max(Duration::seconds(1)) });
        }
        let empty = serde_json::json!({});
        let event = self.outbox.record(tx.as_mut(), &account_id, types::WEBHOOK_TEST, now, &empty, &[]).await?;
        let mut delivery = self.outbox.new_delivery(&event.id, endpoint_id, now);
        // Held by this call, so no dispatcher takes it meanwhile.
        delivery.locked_until = Some(now + super::DELIVERY_LEASE);
        tx.insert_delivery(&delivery).await?;
        self.audit.record(tx.as_mut(), &account_id, who, AuditAction::EndpointTested, endpoint.url).await?;
        tx.commit().await?;
        Ok(TestOutcome::Sent(self.attempt_delivery(delivery).await?))
    }

    /// Attempts to an endpoint that pass the filter, newest first.
    pub async fn endpoint_attempts(
        &self,
        endpoint_id: &EndpointId,
        filter: &AttemptFilter,
    ) -> AppResult<Vec<AttemptLogEntry>> {
        let mut tx = self.store.read().await?;
        tx.webhook_endpoint(endpoint_id).await?.ok_or(AppError::NotFound("endpoint"))?;
        let log = tx.endpoint_attempts(endpoint_id, filter).await?;
        tx.commit().await?;
        Ok(log)
    }

    /// Resends the endpoint's undelivered events of the last `days` (1, 3, 7 or 30) with a
    /// fresh schedule of ten attempts. Returns how many were queued.
    pub async fn replay_undelivered(&self, endpoint_id: &EndpointId, days: i64, who: Who<'_>) -> AppResult<usize> {
        if !WEBHOOK_REPLAY_DAYS.contains(&days) {
            return Err(Declined::ReplayDays.into());
        }
        let now = self.clock.now();
        let (mut tx, endpoint) = self.lock_endpoint(endpoint_id).await?;
        if !endpoint.enabled {
            return Err(Declined::EndpointDisabled.into());
        }
        let failed =
            tx.endpoint_deliveries_since(endpoint_id, DeliveryStatus::Failed, now - Duration::days(days)).await?;
        let mut queued = 0;
        for mut d in failed {
            let is_test = tx.event(&d.event_id).await?.is_some_and(|e| e.event_type == types::WEBHOOK_TEST);
            if is_test {
                continue;
            }
            d.status = DeliveryStatus::Pending;
            d.attempts = 0;
            d.next_attempt_at = now;
            d.locked_until = None;
            tx.update_delivery(&d).await?;
            queued += 1;
        }
        let detail = format!("{}: {queued} events of the last {days} days", endpoint.url);
        self.audit.record(tx.as_mut(), &endpoint.account_id, who, AuditAction::EndpointReplayed, detail).await?;
        tx.commit().await?;
        Ok(queued)
    }
}
