//! The term-event check (spec: Events, rules for term events), run every 5 minutes:
//! `subscription.expiring` at the 72 and 24 hour thresholds and `subscription.expired` when a
//! term ended. The clients of one account are handled together in one unit of work, under the
//! account's lock, so a payment renewing a term at the same moment is seen or waits; different
//! accounts go in parallel, on at most half the connection pool.

use std::collections::HashMap;

use serde_json::json;
use std::sync::Arc;
use time::OffsetDateTime;
use vp_domain::term_events::{Threshold, due_threshold, mark_sent};
use vp_domain::{AccountId, ClientRef};

use vp_ports::{
    AccountRecord, AccountRepo, ClientRecord, ClientRepo, Cursor, EventRepo, OfferRepo, ReminderKind, ReminderRepo,
    RenewalRepo, SettingsRepo, StarsRepo, TermCandidate, WebhookEndpointRecord,
};

use super::{Events, types};
use crate::bots::connected_bot;
use crate::consents::{renews_in_telegram, schedule_charge, tell_price};
use crate::content::{AppList, load_app_list};
use crate::error::AppResult;
use crate::events::outbox::targets_of;

/// Candidates are read in pages of this many.
const PAGE: u32 = 1_000;
/// At most this many clients of one account in one unit of work: the account's lock is held
/// for a group's time only.
const GROUP: usize = 50;

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

/// What a group's unit of work reads once for its account.
struct AccountScope {
    account_id: AccountId,
    endpoints: Vec<WebhookEndpointRecord>,
    /// For rendering the client in an event; read at the first event.
    rendering: Option<(AccountRecord, Option<AppList>)>,
}

impl Events {
    pub async fn check_terms(self: &Arc<Self>) -> AppResult<TermCheck> {
        let now = self.clock.now();
        // Groups checked at once: each holds a connection for its unit of work, so at most half
        // the pool, leaving the rest to requests, deliveries and reminders.
        let concurrent = usize::try_from(self.store.pool_state().max / 2).unwrap_or(1).max(1);
        let mut done = TermCheck::default();
        let mut after = None;
        loop {
            let page = read!(self.store, |tx| tx.term_event_candidates(now, after.clone(), PAGE));
            let Some(last) = page.last() else { break };
            after = Some(Cursor { at: last.check_at, id: last.client.id.to_string() });
            let mut running = tokio::task::JoinSet::new();
            for (account_id, client_refs) in by_account(&page) {
                while running.len() >= concurrent {
                    if let Some(checked) = running.join_next().await {
                        collect(checked, &mut done);
                    }
                }
                let events = self.clone();
                running.spawn(async move {
                    let checked = events.check_account_terms(&account_id, &client_refs, now).await;
                    (account_id, checked)
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

    /// Checks clients of one account in one unit of work under the account's lock; if one
    /// fails, none of the group is recorded and all are tried at the next check.
    async fn check_account_terms(
        &self,
        account_id: &AccountId,
        client_refs: &[ClientRef],
        now: OffsetDateTime,
    ) -> AppResult<TermCheck> {
        let mut done = TermCheck::default();
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        // Reminders go only through a connected bot.
        let bot_connected = connected_bot(tx.as_mut(), account_id).await?.is_some();
        let endpoints = tx.webhook_endpoints(account_id).await?;
        let mut scope = AccountScope { account_id: account_id.clone(), endpoints, rendering: None };
        // Read under the lock: a renewal may have just moved the end of a term.
        let mut clients = tx.clients_by_refs(client_refs).await?;
        clients.sort_by(|a, b| a.id.cmp(&b.id));
        let chats: HashMap<ClientRef, i64> = match bot_connected {
            true => tx.client_chats(client_refs).await?.into_iter().map(|c| (c.client_ref, c.chat_id)).collect(),
            false => HashMap::new(),
        };
        for client in clients {
            let chat = chats.get(&client.id).copied();
            done.add(self.check_term(tx.as_mut(), &mut scope, client, chat, now).await?);
        }
        tx.commit().await?;
        Ok(done)
    }

    /// One client's term, with the chat it is linked to in the account's connected bot.
    async fn check_term(
        &self,
        tx: &mut (
                 impl AccountRepo
                 + ClientRepo
                 + EventRepo
                 + OfferRepo
                 + ReminderRepo
                 + RenewalRepo
                 + SettingsRepo
                 + StarsRepo
                 + ?Sized
             ),
        scope: &mut AccountScope,
        mut client: ClientRecord,
        chat: Option<i64>,
        now: OffsetDateTime,
    ) -> AppResult<TermCheck> {
        let mut done = TermCheck::default();
        let Some(mut record) = client.subscription.take() else { return Ok(done) };
        let event = if let Some(ended_at) = record.subscription.expire_if_ended(now) {
            done.expired_subscriptions += 1;
            Some((types::SUBSCRIPTION_EXPIRED, ended_at, None))
        } else if let Some(threshold) = due_threshold(&record.subscription, client.blocked, now) {
            mark_sent(&mut record.subscription, threshold);
            Some((types::SUBSCRIPTION_EXPIRING, now, Some(threshold)))
        } else {
            None
        };
        let Some((event_type, occurred_at, threshold)) = event else { return Ok(done) };
        tx.save_subscription(&client.id, &record).await?;
        // A consenting customer's term renews by charge at the 24 h threshold, in place of the
        // reminder (docs/decisions.md, "Automatic renewal").
        let renews_by_charge = match threshold {
            Some(Threshold::Hours24) => {
                schedule_charge(tx, self.ids.as_ref(), &client.id, &record.subscription, now).await?
            }
            _ => false,
        };
        // Telegram renews a Stars subscription itself: a reminder would ask to renew by hand.
        let renews_in_telegram = threshold.is_some() && record.auto_renew && renews_in_telegram(tx, &client.id).await?;
        // Rule 6: the platform's own reminder, when the client is reachable in the messenger.
        if let (Some(chat_id), false) = (chat, renews_by_charge || renews_in_telegram) {
            let reminder = threshold.map_or(ReminderKind::Expired, ReminderKind::Expiring);
            self.reminders.queue(tx, &client, chat_id, reminder, record.subscription.expires_at, None).await?;
            // Told at the 72 h reminder: today's price is what automatic renewal charges.
            if threshold == Some(Threshold::Hours72) && !client.blocked {
                tell_price(tx, &client.id, &client.account_id, now).await?;
            }
        }
        client.subscription = Some(record);
        // Rule 5: nothing is sent for blocked clients (their term still ends).
        let targets = match client.blocked {
            true => vec![],
            false => targets_of(&scope.endpoints, event_type),
        };
        if !targets.is_empty() {
            let (account, app_list) = match &scope.rendering {
                Some(read) => read,
                None => {
                    let account = tx.account(&scope.account_id).await?.ok_or(crate::AppError::NotFound("account"))?;
                    let app_list = load_app_list(tx).await?;
                    scope.rendering.insert((account, app_list))
                }
            };
            let view = self.views.render(account, app_list.as_ref(), |v| v.client(&client));
            let rendered = self.renderer.client(view);
            let data = match threshold {
                Some(threshold) => json!({"threshold_hours": threshold.hours(), "client": rendered}),
                None => json!({"client": rendered}),
            };
            self.outbox.record(tx, &client.account_id, event_type, occurred_at, &data, &targets).await?;
            match threshold {
                Some(_) => done.expiring_events += 1,
                None => done.expired_events += 1,
            }
        }
        Ok(done)
    }
}

/// A page's clients by account, in the page's order, in groups of at most `GROUP`.
fn by_account(page: &[TermCandidate]) -> Vec<(AccountId, Vec<ClientRef>)> {
    let mut groups: Vec<(AccountId, Vec<ClientRef>)> = vec![];
    let mut open: HashMap<&str, usize> = HashMap::new();
    for TermCandidate { client, .. } in page {
        let at = match open.get(client.account_id.as_str()) {
            Some(&at) if groups[at].1.len() < GROUP => at,
            _ => {
                groups.push((client.account_id.clone(), vec![]));
                open.insert(&client.account_id, groups.len() - 1);
                groups.len() - 1
            }
        };
        groups[at].1.push(client.id.clone());
    }
    groups
}

/// Adds one group's check to the round's, or logs why it failed (it is tried at the next check).
fn collect(checked: Result<(AccountId, AppResult<TermCheck>), tokio::task::JoinError>, done: &mut TermCheck) {
    match checked {
        Ok((_, Ok(one))) => done.add(one),
        Ok((account, Err(e))) => tracing::warn!(%account, error = %e, "term check failed; retried at the next check"),
        Err(e) => tracing::error!(error = %e, "a term check stopped"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vp_ports::ClientRecord;

    fn client(id: usize, account: &str) -> TermCandidate {
        let client = ClientRecord {
            id: vp_domain::ClientRef::issued(format!("cli_{id}")),
            account_id: AccountId::issued(account.into()),
            client_id: vp_domain::ClientId::parse(&format!("c{id}")).unwrap(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            blocked: false,
            subscription: None,
        };
        TermCandidate { check_at: OffsetDateTime::UNIX_EPOCH, client }
    }

    #[test]
    fn a_page_is_grouped_by_account_in_its_order_and_no_group_exceeds_the_cap() {
        let mut page = vec![client(0, "b"), client(1, "a"), client(2, "b")];
        page.extend((3..3 + GROUP + 1).map(|n| client(n, "a")));
        let groups = by_account(&page);
        let shape: Vec<(&str, usize)> = groups.iter().map(|(a, refs)| (a.as_str(), refs.len())).collect();
        assert_eq!(shape, [("b", 2), ("a", GROUP), ("a", 2)]);
        assert_eq!(groups[0].1, ["cli_0", "cli_2"]);
        assert_eq!(groups[1].1[..2], ["cli_1", "cli_3"]);
        assert_eq!(groups[2].1.last().map(ClientRef::as_str), Some(format!("cli_{}", 3 + GROUP).as_str()));
    }
}
