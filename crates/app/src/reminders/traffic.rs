//! Traffic notices (issue: plans with a traffic limit): a customer linked to the partner's bot
//! is told once per period of the count when 80 % of the limit is used and once when all of
//! it is. The check reads each limited subscription's count from the panel (which alone sees
//! the VPN traffic) and queues the notice to the reminders' outbox, whose unique key makes it
//! once: the count's start is part of it, so a count started anew may be told again.

use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use vp_domain::traffic::TrafficNotice;
use vp_ports::{ClientChat, ClientRecord, Clock, Lease, ReminderKind, Store, VpnPanel};

use super::ReminderQueue;
use crate::bots::connected_bot;
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
    /// Notices queued (a notice already sent for the period is not).
    pub queued: u64,
    /// Counts the panel could not give now: read again at the next check.
    pub unread: u64,
}

pub struct TrafficNotices {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) panel: Arc<dyn VpnPanel>,
    pub(crate) queue: ReminderQueue,
}

impl TrafficNotices {
    /// Reads the traffic of every active limited subscription linked to a chat and queues the
    /// notices due, by one process at a time (a lease); `None` when another holds it.
    pub async fn check_traffic(&self, holder: &str) -> AppResult<Option<TrafficChecked>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let held = tx.take_lease(Lease::TrafficCheck, holder, now, now + LEASE_FOR).await?;
        tx.commit().await?;
        if !held {
            return Ok(None);
        }
        let checked = self.check_all().await;
        let mut tx = self.store.begin().await?;
        tx.release_lease(Lease::TrafficCheck, holder).await?;
        tx.commit().await?;
        checked.map(Some)
    }

    async fn check_all(&self) -> AppResult<TrafficChecked> {
        let mut checked = TrafficChecked::default();
        let mut after: Option<String> = None;
        loop {
            let (chats, clients) = {
                let mut tx = self.store.read().await?;
                let chats = tx.chats_with_traffic_limit(after.as_deref(), PAGE).await?;
                let refs: Vec<_> = chats.iter().map(|c| c.client_ref.clone()).collect();
                let clients = tx.clients_by_refs(&refs).await?;
                tx.commit().await?;
                (chats, clients)
            };
            let Some(last) = chats.last() else { break };
            after = Some(last.client_ref.to_string());
            for chat in &chats {
                let Some(client) = clients.iter().find(|c| c.id == chat.client_ref) else { continue };
                match self.check_client(chat, client).await {
                    Ok(None) => {}
                    Ok(Some(queued)) => {
                        checked.read += 1;
                        checked.queued += u64::from(queued);
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

    /// Reads one client's count and queues the notice it calls for: `Some(queued)` once read,
    /// `None` when the client is not to be told (paused, no limit, no bot).
    async fn check_client(&self, chat: &ClientChat, client: &ClientRecord) -> AppResult<Option<bool>> {
        let now = self.clock.now();
        let Some(record) = client.subscription.as_ref() else { return Ok(None) };
        let subscription = &record.subscription;
        let Some(limit) = subscription.traffic.filter(|_| !client.blocked && subscription.is_active_at(now)) else {
            return Ok(None);
        };
        let read = self.panel.traffic_used(record.panel_user_ref(&client.id)).await;
        let Some(count) = read.map_err(|e| AppError::External(e.to_string()))? else {
            return Ok(None);
        };
        // A count from before the term's own start is the old term's (the panel is being reset).
        if subscription.traffic_counted_from().is_some_and(|from| count.since < from) {
            return Ok(Some(false));
        }
        let Some(notice) = TrafficNotice::due(count, limit) else { return Ok(Some(false)) };
        let mut tx = self.store.begin().await?;
        if connected_bot(&mut *tx, &client.account_id).await?.is_none() {
            tx.commit().await?;
            return Ok(None);
        }
        let period = Some(ReminderKind::traffic_period(count.since));
        let queued = self
            .queue
            .queue(&mut *tx, client, chat.chat_id, ReminderKind::Traffic(notice), subscription.expires_at, period)
            .await?;
        tx.commit().await?;
        Ok(Some(queued))
    }
}

/// The moment a traffic notice's count started, from its outbox key.
pub(crate) fn period_start(payment_id: Option<&str>) -> Option<OffsetDateTime> {
    payment_id.and_then(ReminderKind::traffic_period_start)
}
