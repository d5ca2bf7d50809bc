//! Events, webhook endpoints and deliveries (the outbox).

use super::Claim;
use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::EndpointId;

use crate::webhook::*;

use super::StoreResult;

#[async_trait]
pub trait EventRepo: Send {
    async fn insert_webhook_endpoint(&mut self, endpoint: &WebhookEndpointRecord) -> StoreResult<()>;
    async fn update_webhook_endpoint(&mut self, endpoint: &WebhookEndpointRecord) -> StoreResult<()>;
    async fn webhook_endpoint(&mut self, id: &str) -> StoreResult<Option<WebhookEndpointRecord>>;
    /// Endpoints of an account, oldest first.
    async fn webhook_endpoints(&mut self, account_id: &str) -> StoreResult<Vec<WebhookEndpointRecord>>;
    /// Every account's endpoints (for sealing their secrets again under a new key).
    async fn all_webhook_endpoints(&mut self) -> StoreResult<Vec<WebhookEndpointRecord>>;
    async fn insert_event(&mut self, event: &EventRecord) -> StoreResult<()>;
    async fn event(&mut self, id: &str) -> StoreResult<Option<EventRecord>>;
    /// Fails with `Conflict` when the event already has a delivery to this endpoint.
    async fn insert_delivery(&mut self, delivery: &DeliveryRecord) -> StoreResult<()>;
    async fn update_delivery(&mut self, delivery: &DeliveryRecord) -> StoreResult<()>;
    /// Saves many deliveries' state at once.
    async fn update_deliveries(&mut self, deliveries: &[DeliveryRecord]) -> StoreResult<()>;
    async fn delivery(&mut self, id: &str) -> StoreResult<Option<DeliveryRecord>>;
    /// Pending deliveries due at `now` whose lease is free, oldest due first, leased to the
    /// caller until `lease_until`: no other worker of any process takes them meanwhile
    /// (PostgreSQL skips rows being claimed with `FOR UPDATE SKIP LOCKED`; SQLite's single
    /// write lock serialises claimers). Deliveries to the endpoints in `skip_endpoints` are
    /// left alone.
    async fn claim_due_deliveries(
        &mut self,
        claim: Claim,
        skip_endpoints: &[EndpointId],
    ) -> StoreResult<Vec<DeliveryRecord>>;
    /// Gives claimed deliveries back before their lease runs out.
    async fn release_deliveries(&mut self, ids: &[String]) -> StoreResult<()>;
    async fn events_by_ids(&mut self, ids: &[String]) -> StoreResult<Vec<EventRecord>>;
    async fn webhook_endpoints_by_ids(&mut self, ids: &[EndpointId]) -> StoreResult<Vec<WebhookEndpointRecord>>;
    async fn insert_attempts(&mut self, attempts: &[AttemptRecord]) -> StoreResult<()>;
    /// Attempts to an endpoint that pass the filter, newest first (ties: by id, descending).
    async fn endpoint_attempts(
        &mut self,
        endpoint_id: &str,
        filter: &AttemptFilter,
    ) -> StoreResult<Vec<AttemptLogEntry>>;
    /// Deliveries to an endpoint in `status` created strictly after `since`, oldest first.
    async fn endpoint_deliveries_since(
        &mut self,
        endpoint_id: &str,
        status: DeliveryStatus,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<DeliveryRecord>>;
    /// When events of `event_type` were queued for an endpoint strictly after `since`, oldest
    /// first.
    async fn endpoint_event_times_since(
        &mut self,
        endpoint_id: &str,
        event_type: &str,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<OffsetDateTime>>;
}
