//! Keeping the VPN panel in step with subscriptions. Changes are committed first and pushed to
//! the panel afterwards (never inside a transaction); a push that fails is owed, and the
//! background sync retries it until the panel confirms the revision: at once when the panel
//! was down, with backoff when it refused the push.

use std::sync::{Arc, Mutex, PoisonError};

use time::OffsetDateTime;
use tokio::sync::oneshot;
use vp_domain::AccountId;
use vp_domain::backoff::panel_retry_delay;
use vp_domain::{ClientId, ClientRef};
use vp_ports::{
    ClientFilter, ClientRecord, Clock, Cursor, PanelDrift, PanelError, PanelInfo, PanelUser, Store, StoreError,
    SubscriptionRecord, VpnPanel,
};

use crate::error::{AppError, AppResult, Refusal};

/// What the panel must hold for a client with a subscription.
pub(crate) fn panel_user(client: &ClientRecord, now: OffsetDateTime) -> Option<PanelUser> {
    let record = client.subscription.as_ref()?;
    Some(subscription_panel_user(&client.id, &client.account_id, &client.client_id, record, client.blocked, now))
}

/// What the panel must hold for one subscription: access only while active and not blocked.
pub(crate) fn subscription_panel_user(
    client_ref: &str,
    account_id: &AccountId,
    client_id: &ClientId,
    record: &SubscriptionRecord,
    blocked: bool,
    now: OffsetDateTime,
) -> PanelUser {
    let s = &record.subscription;
    PanelUser {
        user_ref: record.panel_user_ref(client_ref).to_owned(),
        account_id: account_id.clone(),
        client_id: client_id.as_str().to_owned(),
        link_token: record.link_token.clone(),
        expires_at: s.expires_at,
        device_limit: s.devices.limit(),
        enabled: !blocked && s.is_active_at(now),
        traffic: s.traffic,
        traffic_counted_from: s.traffic_counted_from(),
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
    /// The pushes after changes, waiting for the batch under way.
    waiting: Mutex<Waiting>,
}

/// The most pushes in one batch: one call to the panel (the local panel: one commit) and one
/// unit of work marking them, whose writes go out in one round trip.
const BATCH_MAX: usize = 16;

/// A subscription revision the panel has not taken yet, as it must be pushed.
#[derive(Clone)]
struct Owed {
    client_ref: ClientRef,
    revision: i64,
    user: PanelUser,
}

impl Owed {
    fn of(client: &ClientRecord, now: OffsetDateTime) -> Option<Owed> {
        let (user, record) = (panel_user(client, now)?, client.subscription.as_ref()?);
        (record.panel_revision < record.revision).then(|| Owed {
            client_ref: client.id.clone(),
            revision: record.revision,
            user,
        })
    }
}

/// The pushes after changes queued while a batch is under way, and whether one is: the task
/// pushing them takes everything queued, up to `BATCH_MAX` at a time, until none is left.
#[derive(Default)]
struct Waiting {
    queued: Vec<(Owed, oneshot::Sender<AppResult<bool>>)>,
    pushing: bool,
}

/// The pushing task's turn. One that ends early (a panic, its runtime shutting down) gives the
/// turn back and drops the queued answers: their callers push alone.
struct Turn<'a> {
    waiting: &'a Mutex<Waiting>,
    over: bool,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if !self.over {
            let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
            waiting.pushing = false;
            waiting.queued.clear();
        }
    }
}

/// Whether `owed[i]` is older than another push of its client in `owed` (the first of equal
/// revisions is the one pushed).
fn superseded(owed: &[Owed], i: usize) -> bool {
    let mine = &owed[i];
    owed.iter().enumerate().any(|(j, other)| {
        other.client_ref == mine.client_ref
            && (other.revision > mine.revision || (other.revision == mine.revision && j < i))
    })
}

impl PanelSync {
    pub(crate) fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, panel: Arc<dyn VpnPanel>) -> PanelSync {
        PanelSync { store, clock, panel, waiting: Mutex::default() }
    }

    /// Pushes one client's subscription to the panel, best effort: a failure is logged and
    /// left to the background sync.
    pub(crate) async fn sync_client(self: &Arc<Self>, client_ref: &str) {
        let pushed = async {
            let client = read!(self.store, |tx| tx.client_by_ref(client_ref));
            match client {
                Some(client) => self.push_with_others(&client).await,
                None => Ok(false),
            }
        };
        if let Err(e) = pushed.await {
            tracing::warn!(client_ref, error = %e, "panel sync deferred");
        }
    }

    /// Pushes `client` as the unit of work that changed it has just committed it, without
    /// reading it back (a settlement's panel sync: one round trip less). A change committed
    /// since is pushed by its own unit's sync, as with `sync_client`.
    pub(crate) async fn sync_saved(self: &Arc<Self>, client: &ClientRecord) {
        if let Err(e) = self.push_with_others(client).await {
            tracing::warn!(client_ref = %client.id, error = %e, "panel sync deferred");
        }
    }

    /// Pushes `client` in a batch with the pushes of other changes made meanwhile, and answers
    /// once its batch is done: many customers paying at once cost the panel one call and the
    /// database one unit of work a batch, not one each.
    async fn push_with_others(self: &Arc<Self>, client: &ClientRecord) -> AppResult<bool> {
        let Some(owed) = Owed::of(client, self.clock.now()) else { return Ok(false) };
        let (answer, answered) = oneshot::channel();
        let start = {
            let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
            waiting.queued.push((owed.clone(), answer));
            !std::mem::replace(&mut waiting.pushing, true)
        };
        if start {
            let sync = self.clone();
            tokio::spawn(async move { sync.push_queued().await });
        }
        match answered.await {
            Ok(result) => result,
            Err(_) => self.push_alone(owed).await,
        }
    }

    /// The pushing task: batches of what is queued until nothing is.
    async fn push_queued(&self) {
        let mut turn = Turn { waiting: &self.waiting, over: false };
        loop {
            let batch: Vec<_> = {
                let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
                if waiting.queued.is_empty() {
                    // Given back under the lock: a push queued after this starts a new task.
                    waiting.pushing = false;
                    turn.over = true;
                    return;
                }
                let n = waiting.queued.len().min(BATCH_MAX);
                waiting.queued.drain(..n).collect()
            };
            let (owed, answers): (Vec<Owed>, Vec<_>) = batch.into_iter().unzip();
            for (answer, result) in answers.into_iter().zip(self.push_batch(owed).await) {
                let _ = answer.send(result);
            }
        }
    }

    /// Pushes `owed` and marks what the panel took, answering each in order: true once pushed.
    /// Of one client's revisions only the newest is pushed; the older ones answer false.
    async fn push_batch(&self, owed: Vec<Owed>) -> Vec<AppResult<bool>> {
        let pushed: Vec<usize> = (0..owed.len()).filter(|&i| !superseded(&owed, i)).collect();
        let users: Vec<PanelUser> = pushed.iter().map(|&i| owed[i].user.clone()).collect();
        let mut results: Vec<AppResult<bool>> = owed.iter().map(|_| Ok(false)).collect();
        let mut taken = vec![];
        for (&i, result) in pushed.iter().zip(self.panel.put_users(&users).await) {
            match result {
                Ok(()) => taken.push(i),
                Err(e) => {
                    if let PanelError::Rejected(reason) = &e {
                        self.hold_back(&owed[i].client_ref, reason).await;
                    }
                    results[i] = Err(panel_failure(e));
                }
            }
        }
        if taken.is_empty() {
            return results;
        }
        let marked = async {
            let mut tx = self.store.begin_async_commit().await?;
            for &i in &taken {
                tx.mark_panel_synced(&owed[i].client_ref, owed[i].revision).await?;
            }
            tx.commit().await
        };
        match marked.await {
            Ok(()) => taken.iter().for_each(|&i| results[i] = Ok(true)),
            Err(e) => {
                let why = e.to_string();
                taken.iter().for_each(|&i| results[i] = Err(StoreError::Unavailable(why.clone()).into()));
            }
        }
        results
    }

    /// A push the panel refused: counted, and the next try held back with backoff.
    async fn hold_back(&self, client_ref: &str, reason: &str) {
        let now = self.clock.now();
        let counted = async {
            let mut tx = self.store.begin_async_commit().await?;
            let refusals = tx.defer_panel_sync(client_ref, &|n| now + panel_retry_delay(n)).await?;
            tx.commit().await?;
            Ok::<_, StoreError>(refusals)
        };
        match counted.await {
            Ok(refusals) => {
                tracing::error!(client_ref, refusals, %reason, "the panel refused a push; retrying with backoff")
            }
            Err(e) => tracing::error!(client_ref, %reason, error = %e, "the panel refused a push; could not count it"),
        }
    }

    /// Pushes one owed client alone (the background sync's pace).
    async fn push(&self, client: &ClientRecord) -> AppResult<bool> {
        match Owed::of(client, self.clock.now()) {
            Some(owed) => self.push_alone(owed).await,
            None => Ok(false),
        }
    }

    /// A batch of one.
    async fn push_alone(&self, owed: Owed) -> AppResult<bool> {
        self.push_batch(vec![owed]).await.pop().unwrap_or(Ok(false))
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
    pub account_id: AccountId,
    pub client_id: String,
    pub client_ref: ClientRef,
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
                after = Some(Cursor { at: last.created_at, id: last.id.to_string() });
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

    pub(crate) async fn reconcile_client(&self, client: &ClientRecord, fix: bool) -> AppResult<Option<ClientDrift>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn owed(client_ref: &str, revision: i64) -> Owed {
        Owed {
            client_ref: ClientRef::issued(client_ref.to_owned()),
            revision,
            user: PanelUser {
                user_ref: client_ref.to_owned(),
                account_id: AccountId::issued("acc".into()),
                client_id: client_ref.to_owned(),
                link_token: format!("tok-{revision}"),
                expires_at: OffsetDateTime::UNIX_EPOCH,
                device_limit: None,
                enabled: true,
                traffic: None,
                traffic_counted_from: None,
            },
        }
    }

    #[test]
    fn of_one_clients_revisions_in_a_batch_only_the_newest_is_pushed() {
        let batch = [owed("c1", 2), owed("c2", 1), owed("c1", 3), owed("c1", 3)];
        let pushed: Vec<usize> = (0..batch.len()).filter(|&i| !superseded(&batch, i)).collect();
        assert_eq!(pushed, [1, 2], "c1's revision 3 once, and c2");
    }
}
