//! The dispatcher: claims due deliveries in batches under a lease, sends them concurrently
//! (one endpoint gets at most a quarter of the process's slots, so a slow or dead partner
//! holds only its own share), and records the outcomes in batches, each with the next attempt
//! on the spec's schedule. A killed process loses nothing: its leases run out and another worker (or
//! the restarted one) takes the deliveries again. New deliveries wake it at once
//! (`Store::wait_for_deliveries`); polling is only the fallback, for retries falling due.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use tokio::task::JoinSet;
use vp_domain::webhook_schedule::{AttemptResult, EndpointHealth, next_attempt_delay};
use vp_domain::{AccountId, EndpointId};
use vp_ports::{
    AttemptOutcome, AttemptRecord, Claim, DeliveryRecord, DeliveryStatus, EventRecord, NoticeKind, OutgoingWebhook,
    WebhookEndpointRecord, WebhookResponse,
};

use super::{Events, types};
use crate::error::{AppError, AppResult};

/// How long a claimed delivery is reserved: longer than an attempt can take (15 s) plus its
/// recording, so no delivery is attempted twice at once.
pub const DELIVERY_LEASE: Duration = Duration::seconds(60);
/// Attempts in flight to one endpoint in a one-off `deliver_due_events`.
const PER_ENDPOINT_IN_FLIGHT: usize = 16;
/// Deliveries claimed in one round trip.
const CLAIM_BATCH: usize = 200;
/// Batches recorded at once, beside the claiming and sending.
const RECORDERS: usize = 2;
/// Finished attempts recorded in one unit of work at most ...
const RECORD_BATCH: usize = 64;
/// ... and at the latest this long after the first of them finished.
const RECORD_WITHIN: std::time::Duration = std::time::Duration::from_millis(5);
/// Without a wake-up, due deliveries (retries) are looked for this often.
const POLL_EVERY: std::time::Duration = std::time::Duration::from_secs(1);
/// After a storage failure the dispatcher waits this long before it tries again.
const PAUSE_AFTER_FAILURE: std::time::Duration = std::time::Duration::from_secs(5);

/// A claimed delivery with what sending it needs.
pub(crate) struct Claimed {
    delivery: DeliveryRecord,
    event: Arc<EventRecord>,
    endpoint: Arc<SigningEndpoint>,
}

/// An endpoint with its signing secrets opened once per claim, not once per attempt.
pub(crate) struct SigningEndpoint {
    record: WebhookEndpointRecord,
    /// The current secret, then the previous one when one is stored.
    secrets: Vec<String>,
}

impl std::ops::Deref for SigningEndpoint {
    type Target = WebhookEndpointRecord;
    fn deref(&self) -> &WebhookEndpointRecord {
        &self.record
    }
}

/// What became of one attempt, waiting to be recorded.
pub(crate) struct Outcome {
    delivery: DeliveryRecord,
    account_id: AccountId,
    endpoint_id: EndpointId,
    is_test: bool,
    started: OffsetDateTime,
    response: WebhookResponse,
}

impl Events {
    /// Makes one attempt for each delivery due now (at most `limit`), concurrently, and
    /// records them; returns how many.
    pub async fn deliver_due_events(self: &Arc<Self>, limit: u32) -> AppResult<usize> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let claimed = self.claim_deliveries(limit, &HashMap::new(), PER_ENDPOINT_IN_FLIGHT).await?;
        let count = claimed.len();
        let mut sending = JoinSet::new();
        for c in claimed {
            let events = self.clone();
            sending.spawn(async move { events.send_delivery(c).await });
        }
        let mut outcomes = Vec::with_capacity(count);
        while let Some(done) = sending.join_next().await {
            outcomes.push(done.map_err(|e| AppError::Internal(format!("a delivery attempt panicked: {e}")))?);
        }
        self.record_outcomes(outcomes).await?;
        Ok(count)
    }

    /// The long-running dispatcher of a process: keeps up to `capacity` attempts in flight,
    /// claiming as slots free up, and records finished attempts in batches. When `stop` turns
    /// true it claims no more, lets the attempts in flight finish for up to `drain_for`,
    /// records them, gives back the leases of any still unfinished, and returns.
    pub async fn run_dispatcher(
        self: &Arc<Self>,
        capacity: usize,
        mut stop: tokio::sync::watch::Receiver<bool>,
        drain_for: std::time::Duration,
    ) {
        let capacity = capacity.max(1);
        let mut in_flight_ids: BTreeSet<String> = BTreeSet::new();
        let per_endpoint = per_endpoint_cap(capacity);
        let mut in_flight: HashMap<EndpointId, usize> = HashMap::new();
        let mut sending: JoinSet<Outcome> = JoinSet::new();
        let mut finished: Vec<Outcome> = Vec::new();
        let mut record_by: Option<tokio::time::Instant> = None;
        // Batches being recorded while the dispatcher goes on claiming and sending.
        let mut recording: JoinSet<()> = JoinSet::new();
        // Claim at once at the start; later after a wake-up, a full batch, or enough freed slots.
        let mut claim_now = true;
        let mut freed = 0;
        while !*stop.borrow() {
            let room = capacity.saturating_sub(sending.len());
            if room > 0 && (claim_now || freed >= claim_after_freed(per_endpoint)) {
                let asked = room.min(CLAIM_BATCH);
                claim_now = false;
                freed = 0;
                match self.claim_deliveries(asked, &in_flight, per_endpoint).await {
                    Ok(claimed) => {
                        claim_now = claimed.len() == asked;
                        for c in claimed {
                            *in_flight.entry(c.endpoint.id.clone()).or_default() += 1;
                            in_flight_ids.insert(c.delivery.id.clone());
                            let events = self.clone();
                            sending.spawn(async move { events.send_delivery(c).await });
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "could not claim deliveries; retrying");
                        tokio::time::sleep(PAUSE_AFTER_FAILURE).await;
                    }
                }
            }
            let room = capacity.saturating_sub(sending.len());
            let mut done = Vec::new();
            if !(claim_now && room > 0) {
                let record_timer = async {
                    match record_by {
                        Some(at) => tokio::time::sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    Some(one) = sending.join_next(), if !sending.is_empty() => done.push(one),
                    () = self.store.wait_for_deliveries(POLL_EVERY), if room > 0 => claim_now = true,
                    () = record_timer => {}
                    _ = stop.changed() => {}
                }
            }
            while let Some(one) = sending.try_join_next() {
                done.push(one);
            }
            for one in done {
                match one {
                    Ok(outcome) => {
                        if let Some(n) = in_flight.get_mut(&outcome.endpoint_id) {
                            *n = n.saturating_sub(1);
                        }
                        in_flight_ids.remove(&outcome.delivery.id);
                        freed += 1;
                        record_by.get_or_insert_with(|| tokio::time::Instant::now() + RECORD_WITHIN);
                        finished.push(outcome);
                    }
                    Err(e) => tracing::error!(error = %e, "a delivery attempt panicked; its lease runs out"),
                }
            }
            in_flight.retain(|_, n| *n > 0);
            let due = record_by.is_some_and(|at| tokio::time::Instant::now() >= at);
            if !finished.is_empty() && (finished.len() >= RECORD_BATCH || due || sending.is_empty()) {
                record_by = None;
                while recording.len() >= RECORDERS {
                    recording.join_next().await;
                }
                let (events, batch) = (self.clone(), std::mem::take(&mut finished));
                recording.spawn(async move {
                    if let Err(e) = events.record_outcomes(batch).await {
                        // The leases run out and the deliveries are tried again: nothing is lost.
                        tracing::warn!(error = %e, "could not record delivery attempts");
                    }
                });
            }
            while recording.try_join_next().is_some() {}
        }
        // Stopping: the attempts under way may finish; what cannot is given back.
        let drained = tokio::time::timeout(drain_for, async {
            while let Some(one) = sending.join_next().await {
                if let Ok(outcome) = one {
                    in_flight_ids.remove(&outcome.delivery.id);
                    finished.push(outcome);
                }
            }
        })
        .await;
        if drained.is_err() {
            sending.abort_all();
        }
        if let Err(e) = self.record_outcomes(finished).await {
            tracing::warn!(error = %e, "could not record the last delivery attempts; their leases run out");
        }
        if !in_flight_ids.is_empty() {
            let unfinished: Vec<String> = in_flight_ids.into_iter().collect();
            let given_back = async {
                let mut tx = self.store.begin().await?;
                tx.release_deliveries(&unfinished).await?;
                tx.commit().await?;
                Ok::<_, AppError>(())
            };
            if let Err(e) = given_back.await {
                tracing::warn!(error = %e, "could not give back unfinished deliveries; their leases run out");
            }
        }
        while recording.join_next().await.is_some() {}
    }

    /// Claims up to `limit` due deliveries under a lease, none to an endpoint that already has
    /// `per_endpoint` attempts in flight (`in_flight`), and loads their events and endpoints.
    /// Deliveries beyond an endpoint's free slots are given back at once.
    async fn claim_deliveries(
        &self,
        limit: usize,
        in_flight: &HashMap<EndpointId, usize>,
        per_endpoint: usize,
    ) -> AppResult<Vec<Claimed>> {
        let now = self.clock.now();
        let busy: Vec<EndpointId> =
            in_flight.iter().filter(|(_, n)| **n >= per_endpoint).map(|(id, _)| id.clone()).collect();
        let mut tx = self.store.begin().await?;
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        let claimed = tx.claim_due_deliveries(Claim { now, lease_until: now + DELIVERY_LEASE, limit }, &busy).await?;
        let mut taken: HashMap<EndpointId, usize> = HashMap::new();
        let (keep, give_back): (Vec<DeliveryRecord>, Vec<DeliveryRecord>) = claimed.into_iter().partition(|d| {
            let n = taken
                .entry(d.endpoint_id.clone())
                .or_insert_with(|| in_flight.get(&d.endpoint_id).copied().unwrap_or(0));
            *n += 1;
            *n <= per_endpoint
        });
        if !give_back.is_empty() {
            let ids: Vec<String> = give_back.into_iter().map(|d| d.id).collect();
            tx.release_deliveries(&ids).await?;
        }
        let event_ids: Vec<String> =
            keep.iter().map(|d| d.event_id.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let endpoint_ids: Vec<EndpointId> =
            keep.iter().map(|d| d.endpoint_id.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let events: HashMap<String, Arc<EventRecord>> = if keep.is_empty() {
            HashMap::new()
        } else {
            tx.events_by_ids(&event_ids).await?.into_iter().map(|e| (e.id.clone(), Arc::new(e))).collect()
        };
        let endpoints: HashMap<EndpointId, Arc<SigningEndpoint>> = if keep.is_empty() {
            HashMap::new()
        } else {
            let mut opened = HashMap::new();
            for record in tx.webhook_endpoints_by_ids(&endpoint_ids).await? {
                // A secret that does not open (altered in the database) leaves its deliveries
                // claimed until the lease ends; the start refuses a key that is not configured.
                match self.signing_endpoint(record) {
                    Ok(endpoint) => {
                        opened.insert(endpoint.id.clone(), Arc::new(endpoint));
                    }
                    Err(e) => tracing::error!(error = %e, "an endpoint's signing secret does not open"),
                }
            }
            opened
        };
        tx.commit().await?;
        Ok(keep
            .into_iter()
            .filter_map(|delivery| {
                let event = events.get(&delivery.event_id)?.clone();
                let endpoint = endpoints.get(&delivery.endpoint_id)?.clone();
                Some(Claimed { delivery, event, endpoint })
            })
            .collect())
    }

    /// One attempt; touches no storage.
    async fn send_delivery(&self, c: Claimed) -> Outcome {
        let started = self.clock.now();
        let response = if c.endpoint.enabled {
            let webhook = OutgoingWebhook {
                url: &c.endpoint.url,
                webhook_id: &c.event.id,
                body: &c.event.body,
                secrets: signing_secrets(&c.endpoint, started),
            };
            let response = self.webhooks.send(&webhook).await;
            self.count_attempt(&c.delivery, &response);
            response
        } else {
            WebhookResponse {
                status_code: None,
                retry_after: None,
                duration: Duration::ZERO,
                error: Some("the endpoint is disabled".into()),
            }
        };
        Outcome {
            is_test: c.event.event_type == types::WEBHOOK_TEST,
            account_id: c.endpoint.account_id.clone(),
            endpoint_id: c.endpoint.id.clone(),
            delivery: c.delivery,
            started,
            response,
        }
    }

    fn count_attempt(&self, delivery: &DeliveryRecord, response: &WebhookResponse) {
        let outcome = match response.status_code {
            _ if response.accepted() => AttemptOutcome::Delivered,
            Some(_) => AttemptOutcome::Refused,
            None => AttemptOutcome::NetworkError,
        };
        self.metrics.webhook_attempt(outcome, response.duration.as_seconds_f64());
        if outcome == AttemptOutcome::Delivered {
            self.metrics.event_delivered((self.clock.now() - delivery.created_at).as_seconds_f64());
        }
    }

    /// One attempt of a claimed delivery (the test button), recorded at once.
    pub(crate) async fn attempt_delivery(&self, delivery: DeliveryRecord) -> AppResult<AttemptRecord> {
        let mut tx = self.store.read().await?;
        let event = tx.event(&delivery.event_id).await?.ok_or(AppError::NotFound("event"))?;
        let endpoint = tx.webhook_endpoint(&delivery.endpoint_id).await?.ok_or(AppError::NotFound("endpoint"))?;
        tx.commit().await?;
        let endpoint = self.signing_endpoint(endpoint)?;
        let claimed = Claimed { delivery, event: Arc::new(event), endpoint: Arc::new(endpoint) };
        let outcome = self.send_delivery(claimed).await;
        let mut attempts = self.record_outcomes(vec![outcome]).await?;
        attempts.pop().ok_or(AppError::NotFound("attempt"))
    }

    /// Records attempts with their consequences in one unit of work: the attempt log, each
    /// delivery's next attempt (or its end), the endpoints' health and, when an endpoint is
    /// disabled by it, its pending deliveries.
    async fn record_outcomes(&self, mut outcomes: Vec<Outcome>) -> AppResult<Vec<AttemptRecord>> {
        if outcomes.is_empty() {
            return Ok(vec![]);
        }
        // Health follows the attempts in the order they were made.
        outcomes.sort_by_key(|o| o.started);
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        // In one order everywhere, so two recorders never wait for each other's locks.
        let accounts: BTreeSet<&str> = outcomes.iter().map(|o| o.account_id.as_str()).collect();
        for account_id in accounts {
            tx.lock_account(account_id).await?;
        }
        // Re-read under the locks: the operator may have changed an endpoint meanwhile.
        let endpoint_ids: Vec<EndpointId> =
            outcomes.iter().map(|o| o.endpoint_id.clone()).collect::<BTreeSet<_>>().into_iter().collect();
        let mut endpoints: HashMap<EndpointId, (WebhookEndpointRecord, bool)> =
            tx.webhook_endpoints_by_ids(&endpoint_ids).await?.into_iter().map(|e| (e.id.clone(), (e, false))).collect();
        let mut attempts = Vec::with_capacity(outcomes.len());
        let mut deliveries = Vec::with_capacity(outcomes.len());
        let mut disabled_now = Vec::new();
        for o in outcomes {
            let Some((endpoint, changed)) = endpoints.get_mut(&o.endpoint_id) else { continue };
            let (attempt, delivery, disabled) = self.settle_attempt(o, endpoint, changed, now);
            if let Some(reason) = disabled {
                disabled_now.push((endpoint.id.clone(), reason));
            }
            attempts.push(attempt);
            deliveries.push(delivery);
        }
        tx.insert_attempts(&attempts).await?;
        tx.update_deliveries(&deliveries).await?;
        for (endpoint, changed) in endpoints.values() {
            if *changed {
                tx.update_webhook_endpoint(endpoint).await?;
            }
        }
        for (endpoint_id, reason) in &disabled_now {
            self.fail_pending_deliveries(tx.as_mut(), endpoint_id).await?;
            if let Some((endpoint, _)) = endpoints.get(endpoint_id) {
                let notice = NoticeKind::EndpointDisabled {
                    endpoint_id: endpoint.id.clone(),
                    url: endpoint.url.clone(),
                    reason: (*reason).to_owned(),
                };
                self.notifier.notify(tx.as_mut(), &endpoint.account_id, notice).await?;
            }
        }
        tx.commit().await?;
        Ok(attempts)
    }

    /// What one attempt means: its log entry, the delivery's next state and the endpoint's
    /// health (`changed` is set when the endpoint must be saved). Returns the reason when the
    /// attempt disables the endpoint.
    fn settle_attempt(
        &self,
        o: Outcome,
        endpoint: &mut WebhookEndpointRecord,
        changed: &mut bool,
        now: OffsetDateTime,
    ) -> (AttemptRecord, DeliveryRecord, Option<&'static str>) {
        let Outcome { mut delivery, is_test, started, response, .. } = o;
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
        delivery.locked_until = None;
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
        let mut disabled = None;
        // The endpoint's health counts real events only: the test button must not disable it.
        if !is_test && endpoint.enabled {
            let result = match response.status_code {
                _ if response.accepted() => AttemptResult::Accepted,
                Some(410) => AttemptResult::Gone,
                _ => AttemptResult::Failed,
            };
            let mut health = EndpointHealth { failing_since: endpoint.failing_since };
            let disable = health.record(result, started);
            *changed |= endpoint.failing_since != health.failing_since;
            endpoint.failing_since = health.failing_since;
            if disable {
                let reason = if result == AttemptResult::Gone { "gone" } else { "failing" };
                endpoint.enabled = false;
                endpoint.disabled_reason = Some(reason.into());
                endpoint.disabled_at = Some(now);
                delivery.status = DeliveryStatus::Failed;
                *changed = true;
                disabled = Some(reason);
            }
        }
        (attempt, delivery, disabled)
    }

    /// Pending deliveries of a disabled endpoint become undelivered (replayable later).
    pub(crate) async fn fail_pending_deliveries(
        &self,
        tx: &mut (impl vp_ports::EventRepo + ?Sized),
        endpoint_id: &EndpointId,
    ) -> AppResult<()> {
        let mut pending =
            tx.endpoint_deliveries_since(endpoint_id, DeliveryStatus::Pending, OffsetDateTime::UNIX_EPOCH).await?;
        for d in &mut pending {
            d.status = DeliveryStatus::Failed;
            d.locked_until = None;
        }
        tx.update_deliveries(&pending).await?;
        Ok(())
    }

    fn signing_endpoint(&self, record: WebhookEndpointRecord) -> AppResult<SigningEndpoint> {
        let secrets = self.keys.endpoint_signing_secrets(&record)?;
        Ok(SigningEndpoint { record, secrets })
    }

    /// A uniform draw in -100..=100 per mille (the spec's +-10 % spread).
    fn jitter_permille(&self) -> i32 {
        let bytes = self.ids.random_bytes(2);
        let n = u16::from_le_bytes([bytes.first().copied().unwrap_or(0), bytes.get(1).copied().unwrap_or(0)]);
        i32::from(n % 201) - 100
    }
}

/// The per-endpoint cap for a process keeping `capacity` attempts in flight: one endpoint
/// never takes more than a quarter of them, so a slow partner leaves the rest to the others.
fn per_endpoint_cap(capacity: usize) -> usize {
    (capacity / 4).max(1)
}

/// Slots freed by finished attempts before the dispatcher claims again without a wake-up:
/// half an endpoint's slots, so claims come in batches rather than one by one.
fn claim_after_freed(per_endpoint: usize) -> usize {
    (per_endpoint / 2).max(1)
}

/// The current secret, and the previous one during 24 hours after a rotation.
fn signing_secrets(endpoint: &SigningEndpoint, now: OffsetDateTime) -> Vec<&str> {
    let recent = endpoint.previous_secret_valid_until().is_some_and(|until| now < until);
    endpoint.secrets.iter().take(if recent { 2 } else { 1 }).map(String::as_str).collect()
}
