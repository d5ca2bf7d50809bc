//! The outbox: webhook endpoints, events, deliveries and the attempt log: `EventRepo` for the
//! unit of work. The delivery backlog and the freeing of every delivery lease stay functions on
//! a connection, for `Store` in `tx.rs`.

use async_trait::async_trait;
use vp_domain::AccountId;
use vp_domain::EndpointId;
use vp_ports::{Claim, EventRepo};

use crate::tx::StoreTx;
use diesel::dsl::count_star;
use diesel::{
    AsChangeset, BoolExpressionMethods, ExpressionMethods, Insertable, OptionalExtension, QueryDsl, Queryable,
    Selectable, SelectableHelper,
};
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use vp_ports::store::{DeliveryBacklog, StoreResult};
use vp_ports::webhook::*;

use crate::convert::{count, db_time, db_time_opt, int, utc};
use crate::errors::{corrupt, db};
use crate::pool::{DbConn, db_run, load_for_claim};
use crate::repo::{page_before, page_cursor};
use crate::schema::{events, webhook_attempts, webhook_deliveries, webhook_endpoints};

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = webhook_endpoints, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct EndpointRow {
    pub id: String,
    pub account_id: String,
    pub url: String,
    pub event_types: String,
    pub secret_sealed: String,
    pub previous_secret_sealed: Option<String>,
    pub secret_rotated_at: Option<PrimitiveDateTime>,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub disabled_at: Option<PrimitiveDateTime>,
    pub failing_since: Option<PrimitiveDateTime>,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = events)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct EventRow {
    pub id: String,
    pub account_id: String,
    pub event_type: String,
    pub body: String,
    pub occurred_at: PrimitiveDateTime,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = webhook_deliveries, treat_none_as_null = true)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct DeliveryRow {
    pub id: String,
    pub event_id: String,
    pub endpoint_id: String,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: PrimitiveDateTime,
    pub locked_until: Option<PrimitiveDateTime>,
    pub delivered_at: Option<PrimitiveDateTime>,
    pub created_at: PrimitiveDateTime,
}

#[derive(Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhook_attempts)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub(crate) struct AttemptRow {
    pub id: String,
    pub delivery_id: String,
    pub attempt: i32,
    pub attempted_at: PrimitiveDateTime,
    pub status_code: Option<i32>,
    pub duration_ms: i32,
    pub error: Option<String>,
}

fn endpoint_row(e: &WebhookEndpointRecord) -> EndpointRow {
    EndpointRow {
        id: e.id.to_string(),
        account_id: e.account_id.to_string(),
        url: e.url.clone(),
        event_types: e.event_types.join(" "),
        secret_sealed: e.secret_sealed.clone(),
        previous_secret_sealed: e.previous_secret_sealed.clone(),
        secret_rotated_at: db_time_opt(e.secret_rotated_at),
        enabled: e.enabled,
        disabled_reason: e.disabled_reason.clone(),
        disabled_at: db_time_opt(e.disabled_at),
        failing_since: db_time_opt(e.failing_since),
        created_at: db_time(e.created_at),
    }
}

/// Endpoints, oldest first, as a boxed query to add an account's filter to (`read_ahead`
/// makes it too).
macro_rules! endpoints_query {
    () => {
        $crate::schema::webhook_endpoints::table
            .select(<$crate::repo::events::EndpointRow as diesel::SelectableHelper<_>>::as_select())
            .order(($crate::schema::webhook_endpoints::created_at, $crate::schema::webhook_endpoints::id))
            .into_boxed()
    };
}
pub(crate) use endpoints_query;

pub(crate) fn endpoint(r: EndpointRow) -> WebhookEndpointRecord {
    WebhookEndpointRecord {
        id: EndpointId::issued(r.id),
        account_id: AccountId::issued(r.account_id),
        url: r.url,
        event_types: r.event_types.split_whitespace().map(str::to_owned).collect(),
        secret_sealed: r.secret_sealed,
        previous_secret_sealed: r.previous_secret_sealed,
        secret_rotated_at: r.secret_rotated_at.map(utc),
        enabled: r.enabled,
        disabled_reason: r.disabled_reason,
        disabled_at: r.disabled_at.map(utc),
        failing_since: r.failing_since.map(utc),
        created_at: utc(r.created_at),
    }
}

fn event(r: EventRow) -> EventRecord {
    EventRecord {
        id: r.id,
        account_id: AccountId::issued(r.account_id),
        event_type: r.event_type,
        body: r.body,
        occurred_at: utc(r.occurred_at),
        created_at: utc(r.created_at),
    }
}

fn delivery_row(d: &DeliveryRecord) -> StoreResult<DeliveryRow> {
    Ok(DeliveryRow {
        id: d.id.clone(),
        event_id: d.event_id.clone(),
        endpoint_id: d.endpoint_id.to_string(),
        status: d.status.as_str().to_owned(),
        attempts: int(d.attempts, "attempts")?,
        next_attempt_at: db_time(d.next_attempt_at),
        locked_until: db_time_opt(d.locked_until),
        delivered_at: db_time_opt(d.delivered_at),
        created_at: db_time(d.created_at),
    })
}

fn delivery(r: DeliveryRow) -> StoreResult<DeliveryRecord> {
    Ok(DeliveryRecord {
        status: DeliveryStatus::parse(&r.status).ok_or_else(|| corrupt(format!("delivery status {:?}", r.status)))?,
        attempts: count(r.attempts, "attempts")?,
        id: r.id,
        event_id: r.event_id,
        endpoint_id: EndpointId::issued(r.endpoint_id),
        next_attempt_at: utc(r.next_attempt_at),
        locked_until: r.locked_until.map(utc),
        delivered_at: r.delivered_at.map(utc),
        created_at: utc(r.created_at),
    })
}

fn attempt(r: AttemptRow) -> StoreResult<AttemptRecord> {
    Ok(AttemptRecord {
        attempt: count(r.attempt, "attempt")?,
        status_code: r
            .status_code
            .map(|s| u16::try_from(s).map_err(|_| corrupt(format!("status code {s}"))))
            .transpose()?,
        duration_ms: count(r.duration_ms, "duration")?,
        id: r.id,
        delivery_id: r.delivery_id,
        attempted_at: utc(r.attempted_at),
        error: r.error,
    })
}

/// The endpoints of `account_id`, or of every account; oldest first. Kept apart: the query of
/// both `webhook_endpoints` and `all_webhook_endpoints`.
async fn endpoints(conn: &mut DbConn, account_id: Option<&str>) -> StoreResult<Vec<WebhookEndpointRecord>> {
    let rows: Vec<EndpointRow> = db_run!(conn, c => {
        let mut query = endpoints_query!();
        if let Some(account_id) = account_id {
            query = query.filter(webhook_endpoints::account_id.eq(account_id));
        }
        query.load(c).await
    })
    .map_err(db)?;
    Ok(rows.into_iter().map(endpoint).collect())
}

/// Frees the lease of every claimed delivery (for a restored database, whose claimers are
/// gone); returns how many. Run by `Store::release_leases`, not a port method of this area.
pub(crate) async fn release_delivery_leases(conn: &mut DbConn) -> StoreResult<u64> {
    let freed = db_run!(conn, c => {
        diesel::update(webhook_deliveries::table.filter(webhook_deliveries::locked_until.is_not_null()))
            .set(webhook_deliveries::locked_until.eq(None::<PrimitiveDateTime>))
            .execute(c)
            .await
    })
    .map_err(db)?;
    Ok(u64::try_from(freed).unwrap_or(0))
}

/// Pending deliveries, and when the longest-waiting one of those due now fell due (both from
/// the `(status, next_attempt_at)` index). Run by `Store::delivery_backlog` on a pooled
/// connection, outside any unit of work.
pub(crate) async fn delivery_backlog(conn: &mut DbConn, now: OffsetDateTime) -> StoreResult<DeliveryBacklog> {
    let pending = DeliveryStatus::Pending.as_str();
    let n: i64 = db_run!(conn, c => {
        webhook_deliveries::table.filter(webhook_deliveries::status.eq(pending)).select(count_star()).first(c).await
    })
    .map_err(db)?;
    let oldest: Option<PrimitiveDateTime> = db_run!(conn, c => {
        webhook_deliveries::table
            .filter(webhook_deliveries::status.eq(pending))
            .filter(webhook_deliveries::next_attempt_at.le(db_time(now)))
            .select(diesel::dsl::min(webhook_deliveries::next_attempt_at))
            .first(c)
            .await
    })
    .map_err(db)?;
    Ok(DeliveryBacklog {
        pending: u64::try_from(n).map_err(|_| corrupt("negative count"))?,
        oldest_due_at: oldest.map(utc),
    })
}

/// An endpoint's attempts with their event, filtered, as a boxed query of the backend it is
/// expanded for.
macro_rules! attempts_query {
    ($endpoint_id:expr, $filter:expr, $cursor:expr) => {{
        let all = webhook_attempts::table
            .inner_join(webhook_deliveries::table.inner_join(events::table))
            .filter(webhook_deliveries::endpoint_id.eq($endpoint_id))
            .select((AttemptRow::as_select(), events::id, events::event_type));
        let mut query = page_before!(all, webhook_attempts::attempted_at, webhook_attempts::id, $cursor, $filter.limit)
            .into_boxed();
        if $filter.failed_only {
            query = query.filter(
                webhook_attempts::status_code
                    .is_null()
                    .or(webhook_attempts::status_code.lt(200))
                    .or(webhook_attempts::status_code.ge(300)),
            );
        }
        if let Some(t) = &$filter.event_type {
            query = query.filter(events::event_type.eq(t.clone()));
        }
        query
    }};
}

#[async_trait]
impl EventRepo for StoreTx {
    async fn insert_webhook_endpoint(&mut self, e: &WebhookEndpointRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = endpoint_row(e);
        db_run!(conn, c => diesel::insert_into(webhook_endpoints::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_webhook_endpoint(&mut self, e: &WebhookEndpointRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = endpoint_row(e);
        db_run!(conn, c => diesel::update(webhook_endpoints::table.find(e.id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn webhook_endpoint(&mut self, id: &str) -> StoreResult<Option<WebhookEndpointRecord>> {
        let conn = self.conn().await?;
        let row: Option<EndpointRow> = db_run!(conn, c => {
            webhook_endpoints::table.find(id).select(EndpointRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(endpoint))
    }

    async fn webhook_endpoints(&mut self, account_id: &str) -> StoreResult<Vec<WebhookEndpointRecord>> {
        if let Some(ahead) = self.ahead.endpoints.take(account_id) {
            return Ok(ahead);
        }
        endpoints(self.conn().await?, Some(account_id)).await
    }

    async fn all_webhook_endpoints(&mut self) -> StoreResult<Vec<WebhookEndpointRecord>> {
        endpoints(self.conn().await?, None).await
    }

    async fn insert_event(&mut self, e: &EventRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = EventRow {
            id: e.id.clone(),
            account_id: e.account_id.to_string(),
            event_type: e.event_type.clone(),
            body: e.body.clone(),
            occurred_at: db_time(e.occurred_at),
            created_at: db_time(e.created_at),
        };
        db_run!(conn, c => diesel::insert_into(events::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn event(&mut self, id: &str) -> StoreResult<Option<EventRecord>> {
        let conn = self.conn().await?;
        let row: Option<EventRow> = db_run!(conn, c => {
            events::table.find(id).select(EventRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(event))
    }

    async fn insert_delivery(&mut self, d: &DeliveryRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = delivery_row(d)?;
        db_run!(conn, c => diesel::insert_into(webhook_deliveries::table).values(&row).execute(c).await).map_err(db)?;
        self.note_recorded_deliveries();
        Ok(())
    }

    async fn update_delivery(&mut self, d: &DeliveryRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = delivery_row(d)?;
        db_run!(conn, c => diesel::update(webhook_deliveries::table.find(&d.id)).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    /// Saves many deliveries' state: one statement on PostgreSQL (the rows travel as arrays), one
    /// per row on SQLite (in-process).
    async fn update_deliveries(&mut self, all: &[DeliveryRecord]) -> StoreResult<()> {
        let conn = self.conn().await?;
        if all.is_empty() {
            return Ok(());
        }
        let rows = all.iter().map(delivery_row).collect::<StoreResult<Vec<_>>>()?;
        match conn {
            DbConn::Postgres(object) => {
                use diesel::sql_types::{Array, Integer, Nullable, Text, Timestamp};
                let c: &mut crate::pool::PgConn = object;
                diesel::sql_query(
                    "UPDATE webhook_deliveries AS d SET status = v.status, attempts = v.attempts, \
                     next_attempt_at = v.next_attempt_at, locked_until = v.locked_until, delivered_at = v.delivered_at \
                     FROM unnest($1::text[], $2::text[], $3::int4[], $4::timestamp[], $5::timestamp[], $6::timestamp[]) \
                     AS v(id, status, attempts, next_attempt_at, locked_until, delivered_at) WHERE d.id = v.id",
                )
                .bind::<Array<Text>, _>(rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>())
                .bind::<Array<Text>, _>(rows.iter().map(|r| r.status.clone()).collect::<Vec<_>>())
                .bind::<Array<Integer>, _>(rows.iter().map(|r| r.attempts).collect::<Vec<_>>())
                .bind::<Array<Timestamp>, _>(rows.iter().map(|r| r.next_attempt_at).collect::<Vec<_>>())
                .bind::<Array<Nullable<Timestamp>>, _>(rows.iter().map(|r| r.locked_until).collect::<Vec<_>>())
                .bind::<Array<Nullable<Timestamp>>, _>(rows.iter().map(|r| r.delivered_at).collect::<Vec<_>>())
                .execute(c)
                .await
                .map_err(db)?;
            }
            DbConn::Sqlite(object) => {
                let c: &mut crate::pool::SqliteConn = object;
                for row in &rows {
                    diesel::update(webhook_deliveries::table.find(&row.id)).set(row).execute(c).await.map_err(db)?;
                }
            }
        }
        Ok(())
    }

    async fn delivery(&mut self, id: &str) -> StoreResult<Option<DeliveryRecord>> {
        let conn = self.conn().await?;
        let row: Option<DeliveryRow> = db_run!(conn, c => {
            webhook_deliveries::table.find(id).select(DeliveryRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(delivery).transpose()
    }

    async fn claim_due_deliveries(
        &mut self,
        claim: Claim,
        skip_endpoints: &[EndpointId],
    ) -> StoreResult<Vec<DeliveryRecord>> {
        let Claim { now, lease_until, limit } = claim;
        let skip_endpoints: Vec<&str> = skip_endpoints.iter().map(EndpointId::as_str).collect();
        let conn = self.conn().await?;
        let (now_db, limit) = (db_time(now), i64::from(limit));
        let free = webhook_deliveries::locked_until.is_null().or(webhook_deliveries::locked_until.lt(now_db));
        let due = webhook_deliveries::status
            .eq(DeliveryStatus::Pending.as_str())
            .and(webhook_deliveries::next_attempt_at.le(now_db))
            .and(free)
            .and(diesel::dsl::not(webhook_deliveries::endpoint_id.eq_any(&skip_endpoints)));
        let rows: Vec<DeliveryRow> = load_for_claim!(
            conn,
            webhook_deliveries::table
                .filter(due)
                .order((webhook_deliveries::next_attempt_at, webhook_deliveries::id))
                .limit(limit)
                .select(DeliveryRow::as_select())
        )
        .map_err(db)?;
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        let lease = db_time(lease_until);
        db_run!(conn, c => {
            diesel::update(webhook_deliveries::table.filter(webhook_deliveries::id.eq_any(&ids)))
                .set(webhook_deliveries::locked_until.eq(lease))
                .execute(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|mut r| {
                r.locked_until = Some(lease);
                delivery(r)
            })
            .collect()
    }

    async fn release_deliveries(&mut self, ids: &[String]) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(webhook_deliveries::table.filter(webhook_deliveries::id.eq_any(ids)))
                .set(webhook_deliveries::locked_until.eq(None::<PrimitiveDateTime>))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn events_by_ids(&mut self, ids: &[String]) -> StoreResult<Vec<EventRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<EventRow> = db_run!(conn, c => {
            events::table.filter(events::id.eq_any(ids)).select(EventRow::as_select()).load(c).await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(event).collect())
    }

    async fn webhook_endpoints_by_ids(&mut self, ids: &[EndpointId]) -> StoreResult<Vec<WebhookEndpointRecord>> {
        let ids: Vec<&str> = ids.iter().map(EndpointId::as_str).collect();
        let conn = self.conn().await?;
        let rows: Vec<EndpointRow> = db_run!(conn, c => {
            webhook_endpoints::table
                .filter(webhook_endpoints::id.eq_any(&ids))
                .select(EndpointRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(endpoint).collect())
    }

    /// One statement on PostgreSQL; one per row on SQLite (in-process, and diesel's SQLite batch
    /// insert cannot take optional columns).
    async fn insert_attempts(&mut self, attempts: &[AttemptRecord]) -> StoreResult<()> {
        let conn = self.conn().await?;
        if attempts.is_empty() {
            return Ok(());
        }
        let rows = attempts
            .iter()
            .map(|a| {
                Ok(AttemptRow {
                    id: a.id.clone(),
                    delivery_id: a.delivery_id.clone(),
                    attempt: int(a.attempt, "attempt")?,
                    attempted_at: db_time(a.attempted_at),
                    status_code: a.status_code.map(i32::from),
                    duration_ms: int(a.duration_ms, "duration")?,
                    error: a.error.clone(),
                })
            })
            .collect::<StoreResult<Vec<_>>>()?;
        match conn {
            DbConn::Postgres(object) => {
                let c: &mut crate::pool::PgConn = object;
                diesel::insert_into(webhook_attempts::table).values(&rows).execute(c).await.map_err(db)?;
            }
            DbConn::Sqlite(object) => {
                let c: &mut crate::pool::SqliteConn = object;
                for row in &rows {
                    diesel::insert_into(webhook_attempts::table).values(row).execute(c).await.map_err(db)?;
                }
            }
        }
        Ok(())
    }

    async fn endpoint_attempts(
        &mut self,
        endpoint_id: &str,
        filter: &AttemptFilter,
    ) -> StoreResult<Vec<AttemptLogEntry>> {
        let conn = self.conn().await?;
        let cursor = page_cursor(filter.before.clone());
        let rows: Vec<(AttemptRow, String, String)> = db_run!(conn, c => {
            attempts_query!(endpoint_id, filter, cursor).load(c).await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|(a, event_id, event_type)| Ok(AttemptLogEntry { attempt: attempt(a)?, event_id, event_type }))
            .collect()
    }

    async fn endpoint_deliveries_since(
        &mut self,
        endpoint_id: &str,
        status: DeliveryStatus,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<DeliveryRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<DeliveryRow> = db_run!(conn, c => {
            webhook_deliveries::table
                .filter(webhook_deliveries::endpoint_id.eq(endpoint_id))
                .filter(webhook_deliveries::status.eq(status.as_str()))
                .filter(webhook_deliveries::created_at.gt(db_time(since)))
                .order((webhook_deliveries::created_at, webhook_deliveries::id))
                .select(DeliveryRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(delivery).collect()
    }

    async fn endpoint_event_times_since(
        &mut self,
        endpoint_id: &str,
        event_type: &str,
        since: OffsetDateTime,
    ) -> StoreResult<Vec<OffsetDateTime>> {
        let conn = self.conn().await?;
        let rows: Vec<PrimitiveDateTime> = db_run!(conn, c => {
            webhook_deliveries::table
                .inner_join(events::table)
                .filter(webhook_deliveries::endpoint_id.eq(endpoint_id))
                .filter(events::event_type.eq(event_type))
                .filter(webhook_deliveries::created_at.gt(db_time(since)))
                .select(webhook_deliveries::created_at)
                .order(webhook_deliveries::created_at.asc())
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(utc).collect())
    }
}
