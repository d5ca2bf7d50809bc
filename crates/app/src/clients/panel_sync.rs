//! Keeping the VPN panel in step with subscriptions. Changes are committed first and pushed to
//! the panel afterwards (never inside a transaction); a push that fails is owed, and the
//! background sync retries it until the panel confirms the revision: at once when the panel
//! was down, with backoff when it refused the push.

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::ClientId;
use vp_domain::backoff::panel_retry_delay;
use vp_ports::{
    ClientFilter, ClientRecord, Clock, Cursor, PanelDrift, PanelError, PanelInfo, PanelUser, Store, SubscriptionRecord,
    VpnPanel,
};

use crate::error::{AppError, AppResult, Refusal};

/// What the panel must hold for a client with a subscription.
pub(crate) fn panel_user(client: &ClientRecord, now: OffsetDateTime) -> Option<PanelUser> {
    let record = client.subscription.as_ref()?;
    Some(subscription_panel_user(&client.id, &client.account_id, &client.client_id, record, client.blocked, now))
}

/// What the panel must hold for one subscription: access only while active and not blocked.
pub(crate) fn subscription_panel_user(
    user_ref: &str,
    account_id: &str,
    client_id: &ClientId,
    record: &SubscriptionRecord,
    blocked: bool,
    now: OffsetDateTime,
) -> PanelUser {
    let s = &record.subscription;
    PanelUser {
        user_ref: user_ref.to_owned(),
        account_id: account_id.to_owned(),
        client_id: client_id.as_str().to_owned(),
        link_token: record.link_token.clone(),
        expires_at: s.expires_at,
        device_limit: s.devices.limit(),
        enabled: !blocked && s.is_active_at(now),
    }
}

/// A panel failure as the partner API reports it: the spec's 503 when the panel did not
/// answer; an internal error (already logged by the adapter) when it refused.
pub(crate) fn panel_failure(e: PanelError) -> AppError {
    match e {
        PanelError::Unavailable(_) => Refusal::ServiceUnavailable.into(),
        PanelError::Rejected(reason) => AppError::External(reason),
    }
}

/// The panel in step with the stored subscriptions: a push after each change, the background
/// sync of what is owed, and the operator's comparison.
pub struct PanelSync {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) panel: Arc<dyn VpnPanel>,
}

impl PanelSync {
    /// Pushes one client's subscription to the panel, best effort: a failure is logged and
    /// left to the background sync.
    pub(crate) async fn sync_client(&self, client_ref: &str) {
        if let Err(e) = self.try_sync(client_ref).await {
            tracing::warn!(client_ref, error = %e, "panel sync deferred");
        }
    }

    /// Pushes `client` as the unit of work that changed it has just committed it, without
    /// reading it back (a settlement's panel sync: one round trip less). A change committed
    /// since is pushed by its own unit's sync, as with `sync_client`.
    pub(crate) async fn sync_saved(&self, client: &ClientRecord) {
        if let Err(e) = self.push(client).await {
            tracing::warn!(client_ref = %client.id, error = %e, "panel sync deferred");
        }
    }

    async fn try_sync(&self, client_ref: &str) -> AppResult<bool> {
        let client = read!(self.store, |tx| tx.client_by_ref(client_ref));
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
        if let Err(e) = self.panel.put_user(&user).await {
            if let PanelError::Rejected(reason) = &e {
                let now = self.clock.now();
                let mut tx = self.store.begin_async_commit().await?;
                let refusals = tx.defer_panel_sync(&client.id, &|n| now + panel_retry_delay(n)).await?;
                tx.commit().await?;
                tracing::error!(client_ref = %client.id, refusals, %reason, "the panel refused a push; retrying with backoff");
            }
            return Err(panel_failure(e));
        }
        let mut tx = self.store.begin_async_commit().await?;
        tx.mark_panel_synced(&client.id, record.revision).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The background sync: pushes every owed subscription, oldest change first. Returns how
    /// many the panel took. A panel that does not answer ends the round (it is retried at the
    /// next one); a refused push is held back with backoff and the round goes on.
    pub async fn sync_panel(&self, limit: u32) -> AppResult<usize> {
        let owed = read!(self.store, |tx| tx.subscriptions_owing_panel_sync(self.clock.now(), limit));
        let mut pushed = 0;
        for client in owed {
            match self.push(&client).await {
                Ok(true) => pushed += 1,
                Ok(false) | Err(AppError::External(_)) => {}
                Err(e) => {
                    tracing::warn!(client_ref = %client.id, error = %e, "panel sync failed; will retry");
                    break; // the panel is down: stop hammering it until the next round
                }
            }
        }
        Ok(pushed)
    }
}

/// One client whose panel user differs from what its subscription needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientDrift {
    pub account_id: String,
    pub client_id: String,
    pub client_ref: String,
    pub drift: Vec<PanelDrift>,
    /// With `--fix`: whether the push went through, or the panel's refusal.
    pub fixed: Option<Result<(), String>>,
}

/// What `panel reconcile` found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PanelReconciliation {
    /// Clients with a subscription that were compared.
    pub checked: usize,
    pub drifted: Vec<ClientDrift>,
}

/// Clients are read this many at a time.
const RECONCILE_PAGE: u32 = 200;

impl PanelSync {
    /// `panel check`: the panel answers with our credentials.
    pub async fn panel_check(&self) -> AppResult<PanelInfo> {
        self.panel.check().await.map_err(|e| AppError::External(e.to_string()))
    }

    /// `panel reconcile [--fix]`: compares every client's stored subscription with its panel
    /// user and, with `fix`, pushes the stored state where they differ. A panel that stops
    /// answering ends the run with an error; a refused push is reported and the run goes on.
    pub async fn reconcile_panel(&self, fix: bool) -> AppResult<PanelReconciliation> {
        let mut report = PanelReconciliation::default();
        let accounts = read!(self.store, |tx| tx.accounts());
        for account in accounts {
            let mut after = None;
            loop {
                let filter = ClientFilter { subscription_status: None, after: after.clone(), limit: RECONCILE_PAGE };
                let page = read!(self.store, |tx| tx.clients(&account.id, &filter));
                let Some(last) = page.last() else { break };
                after = Some(Cursor { at: last.created_at, id: last.id.clone() });
                for client in &page {
                    if let Some(found) = self.reconcile_client(client, fix).await? {
                        report.drifted.push(found);
                    }
                    report.checked += usize::from(client.subscription.is_some());
                }
            }
        }
        Ok(report)
    }

    async fn reconcile_client(&self, client: &ClientRecord, fix: bool) -> AppResult<Option<ClientDrift>> {
        let (Some(user), Some(record)) = (panel_user(client, self.clock.now()), client.subscription.as_ref()) else {
            return Ok(None);
        };
        let unreachable = |e: PanelError| AppError::External(format!("reconciliation stopped: {e}"));
        let drift = self.panel.drift(&user).await.map_err(unreachable)?;
        if drift.is_empty() {
            return Ok(None);
        }
        let fixed = if fix {
            Some(match self.panel.put_user(&user).await {
                Ok(()) => {
                    let mut tx = self.store.begin().await?;
                    tx.mark_panel_synced(&client.id, record.revision).await?;
                    tx.commit().await?;
                    Ok(())
                }
                Err(PanelError::Rejected(reason)) => Err(reason),
                Err(e) => return Err(unreachable(e)),
            })
        } else {
            None
        };
        Ok(Some(ClientDrift {
            account_id: client.account_id.clone(),
            client_id: client.client_id.as_str().to_owned(),
            client_ref: client.id.clone(),
            drift,
            fixed,
        }))
    }
}
