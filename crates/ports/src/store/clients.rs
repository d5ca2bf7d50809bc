//! Clients, their subscriptions and trials, the daily limits, the panel sync of subscriptions,
//! the term-event scan over subscriptions, and the traffic thresholds told.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::{ClientId, ClientRef};

use super::DailyLimit;
use crate::records::*;

use super::StoreResult;

#[async_trait]
pub trait ClientRepo: Send {
    /// Fails with `Conflict` when the account already has this `client_id`.
    async fn insert_client(&mut self, client: &ClientRecord) -> StoreResult<()>;
    async fn client(&mut self, account_id: &str, client_id: &ClientId) -> StoreResult<Option<ClientRecord>>;
    async fn client_by_ref(&mut self, id: &str) -> StoreResult<Option<ClientRecord>>;
    /// Records whether automatic renewal is on for the client's subscription (nothing when the
    /// client has none).
    async fn set_auto_renew(&mut self, client_ref: &str, on: bool) -> StoreResult<()>;
    /// The clients of these refs that exist, in no particular order.
    async fn clients_by_refs(&mut self, ids: &[ClientRef]) -> StoreResult<Vec<ClientRecord>>;
    async fn set_client_blocked(&mut self, id: &str, blocked: bool) -> StoreResult<()>;
    /// Creates or replaces the client's subscription.
    async fn save_subscription(&mut self, client_ref: &str, subscription: &SubscriptionRecord) -> StoreResult<()>;
    /// Clients of an account ordered by (created_at, id).
    async fn clients(&mut self, account_id: &str, filter: &ClientFilter) -> StoreResult<Vec<ClientRecord>>;
    async fn client_by_link_token(&mut self, token: &str) -> StoreResult<Option<ClientRecord>>;
    /// Records that a trial was granted, for the daily trial limit.
    /// The account's clients made in `[from, to)`, with their subscriptions, in the order of
    /// (`created_at`, reference), after `after` (a page's last), at most `limit`: an export's
    /// page.
    async fn clients_created_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>>;
    async fn insert_trial_grant(&mut self, account_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<()>;
    /// Whether the client was ever granted a trial.
    async fn had_trial(&mut self, client_ref: &str) -> StoreResult<bool>;
    /// Whether the account recorded fewer than `limit.limit` new clients (or trials) strictly
    /// after `limit.since` (a sliding window excludes its start). Exact, and it stays true until
    /// this unit of work ends: whoever records more waits for it (PostgreSQL: an advisory lock on
    /// the account's quota; SQLite has one writer). Costs O(1) until the count nears the limit.
    async fn below_daily_limit(&mut self, account_id: &str, limit: &DailyLimit) -> StoreResult<bool>;
    /// Forgets the daily counts older than `before` (no window reaches them); returns how many
    /// rows went.
    async fn prune_daily_counts(&mut self, before: OffsetDateTime) -> StoreResult<u64>;

    // The panel sync of subscriptions.
    /// Clients whose subscription `revision` is above its `panel_revision` and whose retry is
    /// not held back past `now`, oldest change first.
    async fn subscriptions_owing_panel_sync(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>>;
    /// Records that the panel confirmed `revision` (never lowers `panel_revision`).
    async fn mark_panel_synced(&mut self, client_ref: &str, revision: i64) -> StoreResult<()>;
    /// Records that the panel refused a push: counts it (reset by `mark_panel_synced`) and
    /// holds the next try back until `retry_at(failures in a row)`; returns that count.
    async fn defer_panel_sync(
        &mut self,
        client_ref: &str,
        retry_at: &(dyn Fn(u32) -> OffsetDateTime + Sync),
    ) -> StoreResult<u32>;

    // The term-event scan.
    /// Clients whose subscription's next check moment (`term_events::next_check_at`, stored
    /// with it) has come by `now`, except a blocked client's whose term has not ended (it gets
    /// no reminders); ordered by (check moment, client ref) and strictly after the cursor
    /// `after`. A term reminded for its window is not read again until the next window opens.
    async fn term_event_candidates(
        &mut self,
        now: OffsetDateTime,
        after: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<TermCandidate>>;
    /// Up to `limit` clients, after `after` in the order of client references, whose
    /// subscription is active with a traffic limit: whose traffic the traffic check reads.
    async fn traffic_limited_clients(&mut self, after: Option<&ClientRef>, limit: u32) -> StoreResult<Vec<ClientRef>>;
    /// Records that the client's traffic count started at `counted_since` reached
    /// `threshold_percent` of its limit; returns `false` when that was recorded before (it was
    /// told already).
    async fn mark_traffic_threshold(
        &mut self,
        client_ref: &ClientRef,
        counted_since: OffsetDateTime,
        threshold_percent: u8,
        at: OffsetDateTime,
    ) -> StoreResult<bool>;
}
