//! Webhook addresses from the cabinet: the endpoint use cases, reached only for the actor's own
//! account (another account's endpoint or event is "not found"), and recorded as the actor's.

use vp_domain::{EndpointId, EventId};
use vp_ports::{AttemptFilter, AttemptLogEntry, EventRecord, WebhookEndpointRecord};

use super::{Actor, Cabinet};
use crate::audit::AuditAction;
use crate::error::{AppError, AppResult};
use crate::events::TestOutcome;

/// Attempts a page of the delivery log shows.
pub const DELIVERY_LOG_PAGE: u32 = 50;

impl Cabinet {
    /// The actor's endpoint, or `NotFound` (whether it exists in another account or not at all).
    pub async fn own_endpoint(&self, actor: &Actor, endpoint_id: &EndpointId) -> AppResult<WebhookEndpointRecord> {
        match self.services.events.endpoint(endpoint_id).await {
            Ok(endpoint) if endpoint.account_id == actor.account_id() => Ok(endpoint),
            Ok(_) | Err(AppError::NotFound(_)) => Err(AppError::NotFound("endpoint")),
            Err(e) => Err(e),
        }
    }

    pub async fn endpoints(&self, actor: &Actor) -> AppResult<Vec<WebhookEndpointRecord>> {
        self.services.events.endpoints(actor.account_id()).await
    }

    pub async fn add_endpoint(
        &self,
        actor: &Actor,
        url: &str,
        event_types: &[String],
    ) -> AppResult<WebhookEndpointRecord> {
        self.services.events.add_endpoint(actor.account_id(), url, event_types, actor.into()).await
    }

    pub async fn set_endpoint_types(
        &self,
        actor: &Actor,
        endpoint_id: &EndpointId,
        event_types: &[String],
    ) -> AppResult<WebhookEndpointRecord> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.services.events.set_endpoint_types(endpoint_id, event_types, actor.into()).await
    }

    pub async fn set_endpoint_enabled(
        &self,
        actor: &Actor,
        endpoint_id: &EndpointId,
        enabled: bool,
    ) -> AppResult<WebhookEndpointRecord> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.services.events.set_endpoint_enabled(endpoint_id, enabled, actor.into()).await
    }

    /// The endpoint and its signing secret in the clear, shown on request; each showing is in
    /// the account's activity log.
    pub async fn endpoint_secret(
        &self,
        actor: &Actor,
        endpoint_id: &EndpointId,
    ) -> AppResult<(WebhookEndpointRecord, String)> {
        let endpoint = self.own_endpoint(actor, endpoint_id).await?;
        let secret = self.keys.endpoint_secret(&endpoint)?;
        let mut tx = self.store.begin().await?;
        self.audit
            .record(
                tx.as_mut(),
                actor.account_id(),
                actor.into(),
                AuditAction::EndpointSecretRevealed,
                endpoint.url.clone(),
            )
            .await?;
        tx.commit().await?;
        Ok((endpoint, secret))
    }

    pub async fn rotate_secret(&self, actor: &Actor, endpoint_id: &EndpointId) -> AppResult<WebhookEndpointRecord> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.services.events.rotate_endpoint_secret(endpoint_id, actor.into()).await
    }

    pub async fn test_endpoint(&self, actor: &Actor, endpoint_id: &EndpointId) -> AppResult<TestOutcome> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.services.events.send_test_event(endpoint_id, actor.into()).await
    }

    pub async fn replay(&self, actor: &Actor, endpoint_id: &EndpointId, days: i64) -> AppResult<usize> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.services.events.replay_undelivered(endpoint_id, days, actor.into()).await
    }

    pub async fn delivery_log(
        &self,
        actor: &Actor,
        endpoint_id: &EndpointId,
        filter: &AttemptFilter,
    ) -> AppResult<Vec<AttemptLogEntry>> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.services.events.endpoint_attempts(endpoint_id, filter).await
    }

    /// An event of the actor's account, with the body as it was sent.
    pub async fn event(&self, actor: &Actor, event_id: &EventId) -> AppResult<EventRecord> {
        let event = read!(self.store, |tx| tx.event(event_id));
        event.filter(|e| e.account_id == actor.account_id()).ok_or(AppError::NotFound("event"))
    }
}
