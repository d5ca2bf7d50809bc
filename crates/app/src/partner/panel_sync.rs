//! Keeping the VPN panel in step with subscriptions. Changes are committed first and pushed to
//! the panel afterwards (never inside a transaction); a push that fails is owed, and the
//! background sync retries it until the panel confirms the revision.

use vp_ports::{ClientRecord, PanelUser, SubscriptionRecord};

use crate::App;
use crate::error::AppResult;

/// What the panel must hold for a client with a subscription.
pub(crate) fn panel_user(client: &ClientRecord, now: time::OffsetDateTime) -> Option<PanelUser> {
    let record = client.subscription.as_ref()?;
    Some(subscription_panel_user(&client.id, record, client.blocked, now))
}

/// What the panel must hold for one subscription: access only while active and not blocked.
pub(crate) fn subscription_panel_user(
    user_ref: &str,
    record: &SubscriptionRecord,
    blocked: bool,
    now: time::OffsetDateTime,
) -> PanelUser {
    let s = &record.subscription;
    PanelUser {
        user_ref: user_ref.to_owned(),
        link_token: record.link_token.clone(),
        expires_at: s.expires_at,
        device_limit: s.devices.limit(),
        enabled: !blocked && s.is_active_at(now),
    }
}

impl App {
    /// Pushes one client's subscription to the panel, best effort: a failure is logged and
    /// left to the background sync.
    pub(crate) async fn sync_panel_for(&self, client_ref: &str) {
        if let Err(e) = self.try_sync(client_ref).await {
            tracing::warn!(client_ref, error = %e, "panel sync deferred");
        }
    }

    async fn try_sync(&self, client_ref: &str) -> AppResult<bool> {
        let mut tx = self.store.read().await?;
        let client = tx.client_by_ref(client_ref).await?;
        tx.commit().await?;
        let Some(client) = client else { return Ok(false) };
        self.push(&client).await
    }

    async fn push(&self, client: &ClientRecord) -> AppResult<bool> {
        let (Some(user), Some(record)) = (panel_user(client, self.clock.now()), client.subscription.as_ref()) else {
            return Ok(false);
        };
        if record.panel_revision >= record.revision {
            return Ok(false);
        }
        self.panel.put_user(&user).await.map_err(|_| crate::Refusal::ServiceUnavailable)?;
        let mut tx = self.store.begin().await?;
        tx.mark_panel_synced(&client.id, record.revision).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The background sync: pushes every owed subscription. Returns how many the panel took.
    pub async fn sync_panel(&self, limit: u32) -> AppResult<usize> {
        let mut tx = self.store.read().await?;
        let owed = tx.subscriptions_owing_panel_sync(limit).await?;
        tx.commit().await?;
        let mut pushed = 0;
        for client in owed {
            match self.push(&client).await {
                Ok(true) => pushed += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(client_ref = %client.id, error = %e, "panel sync failed; will retry");
                    break; // the panel is down: stop hammering it until the next round
                }
            }
        }
        Ok(pushed)
    }
}
