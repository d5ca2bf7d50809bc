//! The traffic check (issue: plans with a traffic limit): once per count of a limited
//! subscription, at 80 % of the limit and when all of it is used, the partner hears
//! `subscription.traffic_used` (added within v1, Versioning rule 2) and a customer linked to
//! the partner's bot is told. The check reads each count from the panel, which alone sees the
//! VPN traffic; the thresholds told are recorded with the count's start, so a count started
//! anew (a new period, a renewed `no_reset` term) may be told again.

use std::collections::HashMap;

use serde_json::json;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};
use vp_domain::traffic::{TrafficCount, TrafficNotice};
use vp_domain::{ClientRef, event_types};
use vp_ports::{ClientRecord, Lease, ReminderKind, Tx};

use super::Events;
use crate::bots::connected_bot;
use crate::content::load_app_list;
use crate::error::{AppError, AppResult};

/// Limited subscriptions read per page.
const PAGE: u32 = 200;
/// How long the check's holder keeps the lease without finishing: more than a round of
/// thousands of panel reads.
const LEASE_FOR: Duration = Duration::minutes(10);

/// What a traffic check did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TrafficChecked {
    /// Limited subscriptions whose count was read.
    pub read: u64,
    /// Thresholds reached and told now (one told before for the same count is not).
    pub told: u64,
    /// Of those, the notices queued to customers' chats.
    pub notices: u64,
    /// Of those, the `subscription.traffic_used` events queued to at least one endpoint.
    pub events: u64,
    /// Counts the panel could not give now: read again at the next check.
    pub unread: u64,
}

/// What telling one threshold did.
#[derive(Default)]
struct Told {
    notice: bool,
    event: bool,
}

impl Events {
    /// Reads the traffic of every active limited subscription and tells the thresholds
    /// reached, by one process at a time (a lease); `None` when another holds it.
    pub async fn check_traffic(&self, holder: &str) -> AppResult<Option<TrafficChecked>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let held = tx.take_lease(Lease::TrafficCheck, holder, now, now + LEASE_FOR).await?;
        tx.commit().await?;
        if !held {
            return Ok(None);
        }
        let checked = self.check_all_traffic().await;
        let mut tx = self.store.begin().await?;
        tx.release_lease(Lease::TrafficCheck, holder).await?;
        tx.commit().await?;
        checked.map(Some)
    }

    async fn check_all_traffic(&self) -> AppResult<TrafficChecked> {
        let mut checked = TrafficChecked::default();
        let mut after: Option<ClientRef> = None;
        loop {
            let (refs, clients, chats) = {
                let mut tx = self.store.read().await?;
                let refs = tx.traffic_limited_clients(after.as_ref(), PAGE).await?;
                let clients = tx.clients_by_refs(&refs).await?;
                let chats: HashMap<ClientRef, i64> =
                    tx.client_chats(&refs).await?.into_iter().map(|c| (c.client_ref, c.chat_id)).collect();
                tx.commit().await?;
                (refs, clients, chats)
            };
            let Some(last) = refs.last() else { break };
            after = Some(last.clone());
            for client in &clients {
                let chat = chats.get(&client.id).copied();
                match self.check_client_traffic(client, chat).await {
                    Ok(None) => {}
                    Ok(Some(told)) => {
                        checked.read += 1;
                        if let Some(told) = told {
                            checked.told += 1;
                            checked.notices += u64::from(told.notice);
                            checked.events += u64::from(told.event);
                        }
                    }
                    Err(e) => {
                        checked.unread += 1;
                        tracing::warn!(client = %client.id, error = %e, "a traffic count was not read; again at the next check");
                    }
                }
            }
        }
        Ok(checked)
    }

    /// Reads one client's count and tells the threshold it reached: `Some(told)` once read
    /// (`told` is `None` when nothing new was reached), `None` when the client is not to be
    /// told (blocked, paused, no limit).
    async fn check_client_traffic(&self, client: &ClientRecord, chat: Option<i64>) -> AppResult<Option<Option<Told>>> {
        let now = self.clock.now();
        let Some(record) = client.subscription.as_ref() else { return Ok(None) };
        let subscription = &record.subscription;
        // Rule 5 of the term events, kept here too: nothing for blocked clients.
        let Some(limit) = subscription.traffic.filter(|_| !client.blocked && subscription.is_active_at(now)) else {
            return Ok(None);
        };
        let read = self.panel.traffic_used(record.panel_user_ref(&client.id)).await;
        let Some(count) = read.map_err(|e| AppError::External(e.to_string()))? else {
            return Ok(None);
        };
        // A count from before the term's own start is the old term's (the panel is being reset).
        if subscription.traffic_counted_from().is_some_and(|from| count.since < from) {
            return Ok(Some(None));
        }
        let Some(notice) = TrafficNotice::due(count, limit) else { return Ok(Some(None)) };
        let mut tx = self.store.begin().await?;
        if !tx.mark_traffic_threshold(&client.id, count.since, notice.percent(), now).await? {
            tx.commit().await?;
            return Ok(Some(None));
        }
        let mut told = Told::default();
        if let Some(chat_id) = chat
            && connected_bot(&mut *tx, &client.account_id).await?.is_some()
        {
            let kind = ReminderKind::Traffic(notice);
            let period = Some(ReminderKind::traffic_period(count.since));
            told.notice =
                self.reminders.queue(&mut *tx, client, chat_id, kind, subscription.expires_at, period).await?;
        }
        told.event = self.record_traffic_used(&mut *tx, client, notice, count, now).await?;
        tx.commit().await?;
        Ok(Some(Some(told)))
    }

    /// Records `subscription.traffic_used` for the endpoints that take it; `false` when none.
    async fn record_traffic_used(
        &self,
        tx: &mut dyn Tx,
        client: &ClientRecord,
        notice: TrafficNotice,
        count: TrafficCount,
        now: OffsetDateTime,
    ) -> AppResult<bool> {
        let event_type = event_types::SUBSCRIPTION_TRAFFIC_USED;
        let targets = self.outbox.targets(&mut *tx, &client.account_id, event_type).await?;
        if targets.is_empty() {
            return Ok(false);
        }
        let account = tx.account(&client.account_id).await?.ok_or(AppError::NotFound("account"))?;
        let app_list = load_app_list(&mut *tx).await?;
        let view = self.views.render(&account, app_list.as_ref(), |v| v.client(client));
        let since = count.since.to_offset(time::UtcOffset::UTC).replace_nanosecond(0).unwrap_or(count.since);
        let data = json!({
            "threshold_percent": notice.percent(),
            "used_bytes": count.used,
            "counted_since": since.format(&Rfc3339).unwrap_or_default(),
            "client": self.renderer.client(view),
        });
        self.outbox.record(&mut *tx, &client.account_id, event_type, now, &data, &targets).await?;
        Ok(true)
    }
}
