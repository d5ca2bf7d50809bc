//! The term-event check (spec: Events, rules for term events), run every 5 minutes:
//! `subscription.expiring` at the 72 and 24 hour thresholds and `subscription.expired` when a
//! term ended. Each client is handled in its own unit of work, under its account's lock, so a
//! payment renewing the term at the same moment is seen or waits.

use serde_json::json;
use time::{Duration, OffsetDateTime};
use vp_domain::term_events::{Threshold, due_threshold, mark_sent};
use vp_ports::ReminderKind;

use super::types;
use crate::App;
use crate::error::AppResult;

/// Candidates are read in pages of this many.
const PAGE: u32 = 200;
/// Clients checked at once: each is its own unit of work under its account's lock, so clients
/// of different accounts go in parallel and one account's wait their turn.
const CONCURRENT: usize = 16;

/// What one check did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TermCheck {
    /// `subscription.expiring` events queued to at least one endpoint.
    pub expiring_events: usize,
    pub expired_subscriptions: usize,
    /// `subscription.expired` events queued to at least one endpoint.
    pub expired_events: usize,
}

impl TermCheck {
    fn add(&mut self, other: TermCheck) {
        self.expiring_events += other.expiring_events;
        self.expired_subscriptions += other.expired_subscriptions;
        self.expired_events += other.expired_events;
    }
}

impl App {
    pub async fn check_terms(&self) -> AppResult<TermCheck> {
        let now = self.clock.now();
        let horizon = now + Duration::hours(i64::from(Threshold::Hours72.hours()));
        let mut done = TermCheck::default();
        let mut after = None;
        loop {
            let mut tx = self.store.read().await?;
            let page = tx.term_event_candidates(now, horizon, after.clone(), PAGE).await?;
            tx.commit().await?;
            let Some(last) = page.last() else { break };
            after = last.subscription.as_ref().map(|s| (s.subscription.expires_at, last.id.clone()));
            let mut running = tokio::task::JoinSet::new();
            for client in &page {
                while running.len() >= CONCURRENT {
                    if let Some(checked) = running.join_next().await {
                        collect(checked, &mut done);
                    }
                }
                let (app, client_ref) = (self.clone(), client.id.clone());
                running.spawn(async move {
                    let checked = app.check_term(&client_ref, now).await;
                    (client_ref, checked)
                });
            }
            while let Some(checked) = running.join_next().await {
                collect(checked, &mut done);
            }
            if page.len() < PAGE as usize {
                break;
            }
        }
        Ok(done)
    }

    async fn check_term(&self, client_ref: &str, now: OffsetDateTime) -> AppResult<TermCheck> {
        let mut done = TermCheck::default();
        let mut tx = self.store.begin().await?;
        let Some(client) = tx.client_by_ref(client_ref).await? else { return Ok(done) };
        tx.lock_account(&client.account_id).await?;
        // Re-read under the lock: a renewal may have just moved the end of term.
        let Some(mut client) = tx.client_by_ref(client_ref).await? else { return Ok(done) };
        let Some(mut record) = client.subscription.take() else { return Ok(done) };
        let event = if let Some(ended_at) = record.subscription.expire_if_ended(now) {
            done.expired_subscriptions += 1;
            Some((types::SUBSCRIPTION_EXPIRED, ended_at, None))
        } else if let Some(threshold) = due_threshold(&record.subscription, client.blocked, now) {
            mark_sent(&mut record.subscription, threshold);
            Some((types::SUBSCRIPTION_EXPIRING, now, Some(threshold.hours())))
        } else {
            None
        };
        let Some((event_type, occurred_at, threshold_hours)) = event else { return Ok(done) };
        tx.save_subscription(&client.id, &record).await?;
        // Rule 6: the platform's own reminder, when the client is reachable in the messenger.
        let reminder = match threshold_hours {
            Some(72) => ReminderKind::Expiring72,
            Some(_) => ReminderKind::Expiring24,
            None => ReminderKind::Expired,
        };
        self.queue_reminder(tx.as_mut(), &client, reminder, record.subscription.expires_at).await?;
        client.subscription = Some(record);
        // Rule 5: nothing is sent for blocked clients (their term still ends).
        let targets = match client.blocked {
            true => vec![],
            false => self.event_targets(tx.as_mut(), &client.account_id, event_type).await?,
        };
        if !targets.is_empty() {
            let account = tx.account(&client.account_id).await?.ok_or(crate::AppError::NotFound("account"))?;
            let app_list = self.load_app_list(tx.as_mut()).await?;
            let view = self.with_views(&account, app_list.as_ref(), |v| v.client(&client));
            let rendered = self.events.client(view);
            let data = match threshold_hours {
                Some(hours) => json!({"threshold_hours": hours, "client": rendered}),
                None => json!({"client": rendered}),
            };
            self.record_event(tx.as_mut(), &client.account_id, event_type, occurred_at, &data, &targets).await?;
            match threshold_hours {
                Some(_) => done.expiring_events += 1,
                None => done.expired_events += 1,
            }
        }
        tx.commit().await?;
        Ok(done)
    }
}

/// Adds one client's check to the round's, or logs why it failed (it is tried at the next check).
fn collect(checked: Result<(String, AppResult<TermCheck>), tokio::task::JoinError>, done: &mut TermCheck) {
    match checked {
        Ok((_, Ok(one))) => done.add(one),
        Ok((client, Err(e))) => tracing::warn!(%client, error = %e, "term check failed; retried at the next check"),
        Err(e) => tracing::error!(error = %e, "a term check stopped"),
    }
}
