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
        // Our panel users are named after the client reference itself (the adapter's
        // `username`), so the name is the reference to look up.
        let Some(client) = read!(self.store, |tx| tx.client_by_ref(&change.username)) else {
            return Ok(PanelUserChecked::Unknown);
        };
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
