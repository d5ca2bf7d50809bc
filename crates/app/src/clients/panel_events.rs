//! What the panel tells us about its users (Remnawave's webhooks): the user it names is read
//! back and compared with the client's subscription, as `panel reconcile` does, and a difference
//! is reported to the operator. Nothing is pushed back: a user disabled or deleted by hand in the
//! panel is the operator's to settle, and the periodic sync stays the safety net for what we owe
//! the panel. So that the partner's client shows the truth, an active subscription whose user
//! the panel holds without access (disabled, expired or deleted by hand) is suspended, as the
//! panel already has it: the operator gives access back with `subscription resume`.

use async_trait::async_trait;
use vp_ports::{PanelEventError, PanelEvents, PanelUserChange, PanelUserChecked};

use super::panel_sync::{PanelSync, panel_user};
use crate::error::AppResult;

#[async_trait]
impl PanelEvents for PanelSync {
    async fn panel_user_changed(&self, change: &PanelUserChange) -> Result<PanelUserChecked, PanelEventError> {
        self.user_changed(change).await.map_err(|e| PanelEventError::Retry(e.to_string()))
    }
}

impl PanelSync {
    async fn user_changed(&self, change: &PanelUserChange) -> AppResult<PanelUserChecked> {
        // The panel users we create are named after the client reference itself (the
        // adapter's `username`); an adopted one keeps its own name, stored with the client.
        let name = change.username.as_str();
        let mut tx = self.store.read().await?;
        let client = match tx.client_by_ref(name).await? {
            Some(client) => Some(client),
            None => tx.client_by_panel_name(name).await?,
        };
        tx.commit().await?;
        let Some(client) = client else { return Ok(PanelUserChecked::Unknown) };
        let Some(found) = self.reconcile_client(&client, false).await? else { return Ok(PanelUserChecked::InStep) };
        let should_serve = panel_user(&client, self.clock.now()).is_some_and(|user| user.enabled);
        let access_taken = should_serve && found.drift.iter().any(|d| d.field == "user" || d.field == "enabled");
        let suspended = access_taken && self.suspend_as_the_panel_holds(&client).await?;
        tracing::warn!(
            account_id = %found.account_id,
            client_id = %found.client_id,
            event = %change.event,
            drift = ?found.drift,
            suspended,
            "the panel differs from the subscription after a change made in the panel; for the operator \
             (`vp-api panel reconcile --fix` pushes the subscription back; a subscription suspended \
             because the panel took its access is given back with `vp-api subscription resume`)"
        );
        Ok(PanelUserChecked::Drifted(found.drift))
    }

    /// Suspends the client's subscription, recorded as already in step with the panel (which
    /// holds the user without access, or not at all: nothing to push, nothing re-created).
    /// `false` when it is no longer active.
    async fn suspend_as_the_panel_holds(&self, seen: &vp_ports::ClientRecord) -> AppResult<bool> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        // Read again under the client's lock: a payment or the operator may have changed it.
        tx.lock_client(&seen.account_id, &seen.id).await?;
        let suspended = tx.client_by_ref(&seen.id).await?.and_then(|mut client| {
            let record = client.subscription.as_mut()?;
            (!client.blocked && record.subscription.suspend(now).is_ok()).then(|| {
                record.revision += 1;
                (client.id.clone(), record.clone())
            })
        });
        let Some((client_ref, record)) = suspended else {
            tx.rollback().await?;
            return Ok(false);
        };
        tx.save_subscription(&client_ref, &record).await?;
        tx.mark_panel_synced(&client_ref, record.revision).await?;
        tx.commit().await?;
        Ok(true)
    }
}
