//! What the panel tells us about its users (Remnawave's webhooks): the user it names is read
//! back and compared with the client's subscription, as `panel reconcile` does, and a difference
//! is reported to the operator. Nothing is pushed back: a user disabled or deleted by hand in the
//! panel is the operator's to settle (`panel reconcile --fix`), and the periodic sync stays the
//! safety net for what we owe the panel.

use async_trait::async_trait;
use vp_ports::{PanelEventError, PanelEvents, PanelUserChange, PanelUserChecked};

use super::panel_sync::PanelSync;
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
        tracing::warn!(
            account_id = %found.account_id,
            client_id = %found.client_id,
            event = %change.event,
            drift = ?found.drift,
            "the panel differs from the subscription after a change made in the panel; for the operator \
             (`vp-api panel reconcile --fix` pushes the subscription back)"
        );
        Ok(PanelUserChecked::Drifted(found.drift))
    }
}
