//! Webhook addresses from the cabinet: the endpoint use cases, reached only for the actor's own
//! account (another account's endpoint or event is "not found"), and recorded as the actor's.

use vp_ports::{AttemptFilter, AttemptLogEntry, EventRecord, WebhookEndpointRecord};

use super::Actor;
use super::audit;
use crate::App;
use crate::error::{AppError, AppResult};
use crate::events::TestOutcome;

/// Attempts a page of the delivery log shows.
pub const DELIVERY_LOG_PAGE: u32 = 50;

impl App {
    /// The actor's endpoint, or `NotFound` (whether it exists in another account or not at all).
    pub async fn own_endpoint(&self, actor: &Actor, endpoint_id: &str) -> AppResult<WebhookEndpointRecord> {
        match self.endpoint(endpoint_id).await {
            Ok(endpoint) if endpoint.account_id == actor.account_id() => Ok(endpoint),
            Ok(_) | Err(AppError::NotFound(_)) => Err(AppError::NotFound("endpoint")),
            Err(e) => Err(e),
        }
    }

    pub async fn cabinet_endpoints(&self, actor: &Actor) -> AppResult<Vec<WebhookEndpointRecord>> {
        self.endpoints(actor.account_id()).await
    }

    pub async fn cabinet_add_endpoint(
        &self,
        actor: &Actor,
        url: &str,
        event_types: &[String],
    ) -> AppResult<WebhookEndpointRecord> {
        self.add_endpoint(actor.account_id(), url, event_types, actor.into()).await
    }

    pub async fn cabinet_set_endpoint_types(
        &self,
        actor: &Actor,
        endpoint_id: &str,
        event_types: &[String],
    ) -> AppResult<WebhookEndpointRecord> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.set_endpoint_types(endpoint_id, event_types, actor.into()).await
    }

    pub async fn cabinet_set_endpoint_enabled(
        &self,
        actor: &Actor,
        endpoint_id: &str,
        enabled: bool,
    ) -> AppResult<WebhookEndpointRecord> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.set_endpoint_enabled(endpoint_id, enabled, actor.into()).await
    }

    /// The endpoint and its signing secret in the clear, shown on request; each showing is in
    /// the account's activity log.
    pub async fn cabinet_endpoint_secret(
        &self,
        actor: &Actor,
        endpoint_id: &str,
    ) -> AppResult<(WebhookEndpointRecord, String)> {
        let endpoint = self.own_endpoint(actor, endpoint_id).await?;
        let secret = self.endpoint_secret(&endpoint)?;
        let mut tx = self.store.begin().await?;
        self.audit(
            tx.as_mut(),
            actor.account_id(),
            actor.into(),
            audit::ENDPOINT_SECRET_REVEALED,
            endpoint.url.clone(),
        )
        .await?;
        tx.commit().await?;
        Ok((endpoint, secret))
    }

    pub async fn cabinet_rotate_secret(&self, actor: &Actor, endpoint_id: &str) -> AppResult<WebhookEndpointRecord> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.rotate_endpoint_secret(endpoint_id, actor.into()).await
    }

    pub async fn cabinet_test_endpoint(&self, actor: &Actor, endpoint_id: &str) -> AppResult<TestOutcome> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.send_test_event(endpoint_id, actor.into()).await
    }

    pub async fn cabinet_replay(&self, actor: &Actor, endpoint_id: &str, days: i64) -> AppResult<usize> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.replay_undelivered(endpoint_id, days, actor.into()).await
    }

    pub async fn cabinet_delivery_log(
        &self,
        actor: &Actor,
        endpoint_id: &str,
        filter: &AttemptFilter,
    ) -> AppResult<Vec<AttemptLogEntry>> {
        self.own_endpoint(actor, endpoint_id).await?;
        self.endpoint_attempts(endpoint_id, filter).await
    }

    /// An event of the actor's account, with the body as it was sent.
    pub async fn cabinet_event(&self, actor: &Actor, event_id: &str) -> AppResult<EventRecord> {
        let mut tx = self.store.read().await?;
        let event = tx.event(event_id).await?;
        tx.commit().await?;
        event.filter(|e| e.account_id == actor.account_id()).ok_or(AppError::NotFound("event"))
    }
}
