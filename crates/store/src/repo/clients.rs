//! Clients with their subscriptions, trial grants and panel synchronisation.

use async_trait::async_trait;
use vp_ports::{ClientRepo, DailyLimit};

use crate::tx::StoreTx;
use diesel::dsl::max;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl};
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use vp_domain::ClientId;
use vp_ports::DailyQuota;
use vp_ports::records::{ClientFilter, ClientRecord, SubscriptionRecord};
use vp_ports::store::StoreResult;

use crate::convert::{self, db_time};
use crate::errors::db;
use crate::models::{ClientRow, SubscriptionRow};
use crate::pool::{DbConn, db_run, upsert};
use crate::repo::quotas;
use crate::schema::{clients, subscriptions, trial_grants};

pub(crate) type ClientRows = Vec<(ClientRow, Option<SubscriptionRow>)>;

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

fn into_records(rows: ClientRows) -> StoreResult<Vec<ClientRecord>> {
    rows.into_iter().map(|(client, sub)| convert::client(client, sub)).collect()
}

pub(crate) fn first(rows: ClientRows) -> StoreResult<Option<ClientRecord>> {
    Ok(into_records(rows)?.into_iter().next())
}

pub(crate) async fn insert_client(conn: &mut DbConn, client: &ClientRecord) -> StoreResult<()> {
    let row = convert::client_row(client);
    db_run!(conn, c => diesel::insert_into(clients::table).values(&row).execute(c).await).map_err(db)?;
    quotas::bump(conn, &client.account_id, DailyQuota::NewClients, client.created_at, &client.id).await?;
    if let Some(sub) = &client.subscription {
        save_subscription(conn, &client.id, sub).await?;
    }
    Ok(())
}

pub(crate) async fn client(conn: &mut DbConn, account_id: &str, id: &ClientId) -> StoreResult<Option<ClientRecord>> {
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

pub(crate) async fn client_by_ref(conn: &mut DbConn, id: &str) -> StoreResult<Option<ClientRecord>> {
    let rows: ClientRows =
        db_run!(conn, c => client_query!().filter(clients::id.eq(id)).limit(1).load(c).await).map_err(db)?;
    first(rows)
}

pub(crate) async fn clients_by_refs(conn: &mut DbConn, ids: &[String]) -> StoreResult<Vec<ClientRecord>> {
    let rows: ClientRows =
        db_run!(conn, c => client_query!().filter(clients::id.eq_any(ids)).load(c).await).map_err(db)?;
    into_records(rows)
}

pub(crate) async fn client_by_link_token(conn: &mut DbConn, token: &str) -> StoreResult<Option<ClientRecord>> {
    let rows: ClientRows = db_run!(conn, c => {
        client_query!().filter(subscriptions::link_token.eq(token)).limit(1).load(c).await
    })
    .map_err(db)?;
    first(rows)
}

pub(crate) async fn set_client_blocked(conn: &mut DbConn, id: &str, blocked: bool) -> StoreResult<()> {
    db_run!(conn, c => {
        diesel::update(clients::table.find(id)).set(clients::blocked.eq(blocked)).execute(c).await
    })
    .map_err(db)?;
    Ok(())
}

pub(crate) async fn clients(
    conn: &mut DbConn,
    account_id: &str,
    filter: &ClientFilter,
) -> StoreResult<Vec<ClientRecord>> {
    let limit = i64::from(filter.limit);
    let after = filter.after.as_ref().map(|(at, id)| (db_time(*at), id.as_str()));
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

/// Creates or replaces the subscription. `change_seq` moves forward whenever `revision`
/// changes, which orders the panel sync queue oldest change first.
pub(crate) async fn save_subscription(
    conn: &mut DbConn,
    client_ref: &str,
    sub: &SubscriptionRecord,
) -> StoreResult<()> {
    let stored: Option<(i64, i64)> = db_run!(conn, c => {
        subscriptions::table
            .find(client_ref)
            .select((subscriptions::revision, subscriptions::change_seq))
            .first(c)
            .await
            .optional()
    })
    .map_err(db)?;
    let change_seq = match stored {
        Some((revision, seq)) if revision == sub.revision => seq,
        _ => {
            let last: Option<i64> = db_run!(conn, c => {
                subscriptions::table.select(max(subscriptions::change_seq)).get_result(c).await
            })
            .map_err(db)?;
            last.unwrap_or(0).saturating_add(1)
        }
    };
    let row = convert::subscription_row(client_ref, sub, change_seq)?;
    upsert!(conn, subscriptions::table, subscriptions::client_ref, &row)
}

pub(crate) async fn subscriptions_owing_panel_sync(
    conn: &mut DbConn,
    now: OffsetDateTime,
    limit: u32,
) -> StoreResult<Vec<ClientRecord>> {
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

pub(crate) async fn mark_panel_synced(conn: &mut DbConn, client_ref: &str, revision: i64) -> StoreResult<()> {
    db_run!(conn, c => {
        diesel::update(subscriptions::table.find(client_ref).filter(subscriptions::panel_revision.lt(revision)))
            .set((
                subscriptions::panel_revision.eq(revision),
                subscriptions::panel_failures.eq(0),
                subscriptions::panel_retry_at.eq(None::<PrimitiveDateTime>),
            ))
            .execute(c)
            .await
    })
    .map_err(db)?;
    Ok(())
}

/// Counts a push the panel refused and holds the next try back until `retry_at`; returns how
/// many pushes in a row it has refused.
pub(crate) async fn defer_panel_sync(
    conn: &mut DbConn,
    client_ref: &str,
    retry_at: &(dyn Fn(u32) -> OffsetDateTime + Sync),
) -> StoreResult<u32> {
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

pub(crate) async fn insert_trial_grant(
    conn: &mut DbConn,
    account_id: &str,
    client_ref: &str,
    at: OffsetDateTime,
) -> StoreResult<()> {
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

#[async_trait]
impl ClientRepo for StoreTx {
    async fn insert_client(&mut self, client: &ClientRecord) -> StoreResult<()> {
        insert_client(self.conn()?, client).await
    }

    async fn client(&mut self, account_id: &str, client_id: &ClientId) -> StoreResult<Option<ClientRecord>> {
        client(self.conn()?, account_id, client_id).await
    }

    async fn client_by_ref(&mut self, id: &str) -> StoreResult<Option<ClientRecord>> {
        client_by_ref(self.conn()?, id).await
    }

    async fn clients_by_refs(&mut self, ids: &[String]) -> StoreResult<Vec<ClientRecord>> {
        clients_by_refs(self.conn()?, ids).await
    }

    async fn set_client_blocked(&mut self, id: &str, blocked: bool) -> StoreResult<()> {
        set_client_blocked(self.conn()?, id, blocked).await
    }

    async fn save_subscription(&mut self, client_ref: &str, subscription: &SubscriptionRecord) -> StoreResult<()> {
        save_subscription(self.conn()?, client_ref, subscription).await
    }

    async fn clients(&mut self, account_id: &str, filter: &ClientFilter) -> StoreResult<Vec<ClientRecord>> {
        clients(self.conn()?, account_id, filter).await
    }

    async fn client_by_link_token(&mut self, token: &str) -> StoreResult<Option<ClientRecord>> {
        client_by_link_token(self.conn()?, token).await
    }

    async fn insert_trial_grant(&mut self, account_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<()> {
        insert_trial_grant(self.conn()?, account_id, client_ref, at).await
    }

    async fn below_daily_limit(&mut self, account_id: &str, limit: &DailyLimit) -> StoreResult<bool> {
        quotas::below_daily_limit(self.conn()?, account_id, limit).await
    }

    async fn prune_daily_counts(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        quotas::prune(self.conn()?, before).await
    }

    async fn subscriptions_owing_panel_sync(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<ClientRecord>> {
        subscriptions_owing_panel_sync(self.conn()?, now, limit).await
    }

    async fn mark_panel_synced(&mut self, client_ref: &str, revision: i64) -> StoreResult<()> {
        mark_panel_synced(self.conn()?, client_ref, revision).await
    }

    async fn defer_panel_sync(
        &mut self,
        client_ref: &str,
        retry_at: &(dyn Fn(u32) -> OffsetDateTime + Sync),
    ) -> StoreResult<u32> {
        defer_panel_sync(self.conn()?, client_ref, retry_at).await
    }
}
