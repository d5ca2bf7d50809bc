//! Clients with their subscriptions, trial grants, daily limits, panel synchronisation and the
//! term-event scan: `ClientRepo` for the unit of work. The daily limits' counts and locks are
//! the protocol of `quotas`, put together here; the client query (`client_query!`, `ClientRows`,
//! `first`) is shared with `invoice_work/`.

use async_trait::async_trait;
use vp_ports::{ClientRepo, Cursor, DailyLimit};

use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::{OffsetDateTime, PrimitiveDateTime};
use vp_domain::{ClientId, ClientRef};
use vp_ports::DailyQuota;
use vp_ports::records::{ClientFilter, ClientRecord, SubscriptionRecord, TermCandidate};
use vp_ports::store::StoreResult;

use crate::cached::by_sql;
use crate::convert::{self, db_time, utc};
use crate::deferred::write_with_next;
use crate::errors::{corrupt, db};
use crate::models::{ClientRow, SubscriptionRow};
use crate::pool::{DbConn, db_run};
use crate::repo::subscription_write::SaveSubscription;
use crate::repo::{page_after, quotas, range_cursor};
use crate::schema::{accounts, clients, daily_counts, subscriptions, traffic_thresholds, trial_grants};

pub(crate) type ClientRows = Vec<(ClientRow, Option<SubscriptionRow>)>;

/// `Tx::lock_client` (`tx.rs`): the share of the client's account (it keeps `lock_account`'s
/// holders out, and not other sharers), then the client's row. On PostgreSQL both go out
/// pipelined, one round trip: the server runs them in order, so the share is still taken
/// first. On SQLite `BEGIN IMMEDIATE` already serialises every writer.
pub(crate) async fn lock_client(conn: &mut DbConn, account_id: &str, client_ref: &str) -> StoreResult<()> {
    let DbConn::Postgres(object) = conn else { return Ok(()) };
    let c: &AsyncPgConnection = object;
    let (shared, locked) = tokio::join!(
        accounts::table.find(account_id).select(accounts::id).for_share().first::<String>(&mut &*c),
        clients::table.find(client_ref).select(clients::id).for_update().first::<String>(&mut &*c),
    );
    // A missing row locks nothing.
    shared.optional().map_err(db)?;
    locked.optional().map_err(db)?;
    Ok(())
}

/// Clients left-joined with their subscription, as a boxed query to add filters to.
macro_rules! client_query {
    () => {
        $crate::schema::clients::table
            .left_join($crate::schema::subscriptions::table)
            .select((
                <$crate::models::ClientRow as diesel::SelectableHelper<_>>::as_select(),
                <Option<$crate::models::SubscriptionRow> as diesel::SelectableHelper<_>>::as_select(),
            ))
            .into_boxed()
    };
}
pub(crate) use client_query;

/// `client_by_ref`'s query (`read_ahead` makes it too).
macro_rules! client_by_ref {
    ($id:expr) => {
        $crate::repo::clients::client_query!().filter($crate::schema::clients::id.eq($id)).limit(1)
    };
}
pub(crate) use client_by_ref;

fn into_records(rows: ClientRows) -> StoreResult<Vec<ClientRecord>> {
    rows.into_iter().map(|(client, sub)| convert::client(client, sub)).collect()
}

pub(crate) fn first(rows: ClientRows) -> StoreResult<Option<ClientRecord>> {
    Ok(into_records(rows)?.into_iter().next())
}

#[async_trait]
impl ClientRepo for StoreTx {
    async fn insert_client(&mut self, client: &ClientRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::client_row(client);
        db_run!(conn, c => diesel::insert_into(clients::table).values(&row).execute(c).await).map_err(db)?;
        quotas::bump(conn, &client.account_id, DailyQuota::NewClients, client.created_at, &client.id).await?;
        if let Some(sub) = &client.subscription {
            self.save_subscription(&client.id, sub).await?;
        }
        Ok(())
    }

    async fn client(&mut self, account_id: &str, id: &ClientId) -> StoreResult<Option<ClientRecord>> {
        let conn = self.conn().await?;
        let rows: ClientRows = db_run!(conn, c => {
            client_query!()
                .filter(clients::account_id.eq(account_id))
                .filter(clients::client_id.eq(id.as_str()))
                .limit(1)
                .load(c)
                .await
        })
        .map_err(db)?;
        first(rows)
    }

    async fn client_by_ref(&mut self, id: &str) -> StoreResult<Option<ClientRecord>> {
        if let Some(ahead) = self.ahead.client.take(id) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let rows: ClientRows = db_run!(conn, c => client_by_ref!(id).load(c).await).map_err(db)?;
        first(rows)
    }

    async fn clients_by_refs(&mut self, ids: &[ClientRef]) -> StoreResult<Vec<ClientRecord>> {
        let ids: Vec<&str> = ids.iter().map(ClientRef::as_str).collect();
        let conn = self.conn().await?;
        let rows: ClientRows =
            db_run!(conn, c => client_query!().filter(clients::id.eq_any(ids)).load(c).await).map_err(db)?;
        into_records(rows)
    }

    async fn set_client_blocked(&mut self, id: &str, blocked: bool) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(clients::table.find(id)).set(clients::blocked.eq(blocked)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn set_auto_renew(&mut self, client_ref: &str, on: bool) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(subscriptions::table.find(client_ref)).set(subscriptions::auto_renew.eq(on)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    /// Creates or replaces the subscription. `change_seq` moves forward whenever `revision`
    /// changes, which orders the panel sync queue oldest change first.
    async fn save_subscription(&mut self, client_ref: &str, sub: &SubscriptionRecord) -> StoreResult<()> {
        let save = SaveSubscription(convert::subscription_row(client_ref, sub)?);
        write_with_next!(self, save)
    }

    async fn clients(&mut self, account_id: &str, filter: &ClientFilter) -> StoreResult<Vec<ClientRecord>> {
        let conn = self.conn().await?;
        let limit = i64::from(filter.limit);
        let after = filter.after.as_ref().map(|c| (db_time(c.at), c.id.as_str()));
        let rows: ClientRows = db_run!(conn, c => {
            let mut query = client_query!()
                .filter(clients::account_id.eq(account_id))
                .order((clients::created_at, clients::id))
                .limit(limit);
            match filter.subscription_status {
                None => {}
                Some(None) => query = query.filter(subscriptions::client_ref.is_null()),
                Some(Some(status)) => query = query.filter(subscriptions::status.eq(status.as_str())),
            }
            if let Some((at, id)) = after {
                query = query
                    .filter(clients::created_at.gt(at).or(clients::created_at.eq(at).and(clients::id.gt(id))));
            }
            query.load(c).await
        })
        .map_err(db)?;
        into_records(rows)
    }

    async fn clients_created_between(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>> {
        let conn = self.conn().await?;
        let (cursor, to) = (range_cursor(from, after), db_time(to));
        // The (account_id, created_at, id) index finds the range in order.
        let rows: ClientRows = db_run!(conn, c => {
            let clients = client_query!().filter(clients::account_id.eq(account_id));
            page_after!(clients, clients::created_at, clients::id, cursor, to, limit).load(c).await
        })
        .map_err(db)?;
        into_records(rows)
    }

    async fn client_by_link_token(&mut self, token: &str) -> StoreResult<Option<ClientRecord>> {
        let conn = self.conn().await?;
        let rows: ClientRows = db_run!(conn, c => {
            client_query!().filter(subscriptions::link_token.eq(token)).limit(1).load(c).await
        })
        .map_err(db)?;
        first(rows)
    }

    async fn insert_trial_grant(&mut self, account_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::insert_into(trial_grants::table)
                .values((
                    trial_grants::client_ref.eq(client_ref),
                    trial_grants::account_id.eq(account_id),
                    trial_grants::granted_at.eq(db_time(at)),
                ))
                .execute(c)
                .await
        })
        .map_err(db)?;
        quotas::bump(conn, account_id, DailyQuota::Trials, at, client_ref).await
    }

    async fn had_trial(&mut self, client_ref: &str) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let found = db_run!(conn, c => {
            trial_grants::table.find(client_ref).select(trial_grants::client_ref).first::<String>(c).await.optional()
        })
        .map_err(db)?;
        Ok(found.is_some())
    }

    /// The daily limits' protocol of `quotas`: the exclusive guard, then the bound, then (near
    /// the limit) the count.
    async fn below_daily_limit(&mut self, account_id: &str, limit: &DailyLimit) -> StoreResult<bool> {
        let conn = self.conn().await?;
        quotas::lock(conn, account_id, limit.quota, true).await?;
        if quotas::upper_bound(conn, account_id, limit).await? < u64::from(limit.limit) {
            return Ok(true);
        }
        quotas::exactly_below(conn, account_id, limit).await
    }

    /// Drops buckets no window reaching back from `now` can touch any more.
    async fn prune_daily_counts(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let hour = quotas::hour_of(before);
        let n = db_run!(conn, c => {
            diesel::delete(daily_counts::table.filter(daily_counts::hour.lt(hour))).execute(c).await
        })
        .map_err(db)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    async fn subscriptions_owing_panel_sync(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>> {
        let conn = self.conn().await?;
        let limit = i64::from(limit);
        let now = db_time(now);
        let rows: ClientRows = db_run!(conn, c => {
            client_query!()
                .filter(subscriptions::revision.gt(subscriptions::panel_revision))
                .filter(subscriptions::panel_retry_at.is_null().or(subscriptions::panel_retry_at.le(now)))
                .order((subscriptions::change_seq, clients::id))
                .limit(limit)
                .load(c)
                .await
        })
        .map_err(db)?;
        into_records(rows)
    }

    async fn mark_panel_synced(&mut self, client_ref: &str, revision: i64) -> StoreResult<()> {
        let client_ref = client_ref.to_owned();
        write_with_next!(
            self,
            by_sql(
                diesel::update(
                    subscriptions::table.find(&client_ref).filter(subscriptions::panel_revision.lt(revision))
                )
                .set((
                    subscriptions::panel_revision.eq(revision),
                    subscriptions::panel_failures.eq(0),
                    subscriptions::panel_retry_at.eq(None::<PrimitiveDateTime>),
                )),
            )
        )
    }

    /// Counts a push the panel refused and holds the next try back until `retry_at`; returns how
    /// many pushes in a row it has refused.
    async fn defer_panel_sync(
        &mut self,
        client_ref: &str,
        retry_at: &(dyn Fn(u32) -> OffsetDateTime + Sync),
    ) -> StoreResult<u32> {
        let conn = self.conn().await?;
        let failures: Option<i32> = db_run!(conn, c => {
            diesel::update(subscriptions::table.find(client_ref))
                .set(subscriptions::panel_failures.eq(subscriptions::panel_failures + 1))
                .returning(subscriptions::panel_failures)
                .get_result(c)
                .await
                .optional()
        })
        .map_err(db)?;
        let failures = u32::try_from(failures.unwrap_or(0)).unwrap_or(0);
        let at = db_time(retry_at(failures));
        db_run!(conn, c => {
            diesel::update(subscriptions::table.find(client_ref))
                .set(subscriptions::panel_retry_at.eq(Some(at)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(failures)
    }

    async fn term_event_candidates(
        &mut self,
        now: OffsetDateTime,
        after: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<TermCandidate>> {
        let conn = self.conn().await?;
        let (now, limit) = (db_time(now), i64::from(limit));
        let rows: Vec<(ClientRow, SubscriptionRow)> = db_run!(conn, c => {
            let mut q = clients::table
                .inner_join(subscriptions::table)
                .filter(subscriptions::next_check_at.le(now))
                // A blocked client gets no reminders; only the end of the term is due for it.
                .filter(subscriptions::expires_at.le(now).or(clients::blocked.eq(false)))
                .select((ClientRow::as_select(), SubscriptionRow::as_select()))
                .into_boxed();
            if let Some(Cursor { at, id }) = &after {
                // `>=` first: the index range starts at the cursor, not at the oldest moment.
                let at = db_time(*at);
                let past = subscriptions::next_check_at.gt(at).or(subscriptions::client_ref.gt(id.clone()));
                q = q.filter(subscriptions::next_check_at.ge(at).and(past));
            }
            q.order((subscriptions::next_check_at, subscriptions::client_ref)).limit(limit).load(c).await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|(client, sub)| {
                let check_at =
                    sub.next_check_at.map(utc).ok_or_else(|| corrupt("a candidate without a check moment"))?;
                Ok(TermCandidate { check_at, client: convert::client(client, Some(sub))? })
            })
            .collect()
    }

    async fn traffic_limited_clients(&mut self, after: Option<&ClientRef>, limit: u32) -> StoreResult<Vec<ClientRef>> {
        use subscriptions::dsl as s;
        let after = after.map_or("", ClientRef::as_str).to_owned();
        let conn = self.conn().await?;
        let refs: Vec<String> = db_run!(conn, c => {
            s::subscriptions
                .filter(s::traffic_limit_bytes.is_not_null())
                .filter(s::status.eq(vp_domain::SubscriptionStatus::Active.as_str()))
                .filter(s::client_ref.gt(&after))
                .order(s::client_ref)
                .limit(i64::from(limit))
                .select(s::client_ref)
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(refs.into_iter().map(ClientRef::issued).collect())
    }

    async fn mark_traffic_threshold(
        &mut self,
        client_ref: &ClientRef,
        counted_since: OffsetDateTime,
        threshold_percent: u8,
        at: OffsetDateTime,
    ) -> StoreResult<bool> {
        use traffic_thresholds::dsl as t;
        let row = (
            t::client_ref.eq(client_ref.as_str()),
            t::counted_since.eq(db_time(counted_since)),
            t::threshold_percent.eq(i16::from(threshold_percent)),
            t::told_at.eq(db_time(at)),
        );
        let conn = self.conn().await?;
        let inserted = db_run!(conn, c => {
            diesel::insert_into(t::traffic_thresholds).values(row).on_conflict_do_nothing().execute(c).await
        })
        .map_err(db)?;
        Ok(inserted > 0)
    }
}
