//! Invoices, their gateway checks and idempotency keys: `InvoiceRepo` for the unit of work (the
//! grouped writes of `POST /payments` are `invoice_work/`'s).

use async_trait::async_trait;
use vp_ports::{Claim, InvoiceRepo};

use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use time::OffsetDateTime;
use vp_domain::{GatewayName, InvoiceStatus};
use vp_ports::records::{Cursor, GatewayCheck, IdempotencyRecord, InvoiceRecord};
use vp_ports::store::StoreResult;

use crate::cached::by_sql;
use crate::convert::{self, db_time, recovery_point_text};
use crate::deferred::write_with_next;
use crate::errors::db;
use crate::invoice_work::Begin;
use crate::models::{IdempotencyRow, InvoiceRow};
use crate::pool::{DbConn, SqliteConn, db_run, load_for_claim};
use crate::repo::{page_after, range_cursor};
use crate::schema::{clients, idempotency_keys, invoices};
use vp_ports::records::RecoveryPoint;

/// Invoices joined with their client for the partner's `client_id`.
macro_rules! invoice_query {
    () => {
        invoices::table.inner_join(clients::table).select((InvoiceRow::as_select(), clients::client_id)).into_boxed()
    };
}

fn into_records(rows: Vec<(InvoiceRow, String)>, legacy: GatewayName) -> StoreResult<Vec<InvoiceRecord>> {
    rows.into_iter().map(|(row, client_id)| convert::invoice(row, &client_id, legacy)).collect()
}

fn first(rows: Vec<(InvoiceRow, String)>, legacy: GatewayName) -> StoreResult<Option<InvoiceRecord>> {
    Ok(into_records(rows, legacy)?.into_iter().next())
}

/// `Store::begin_with_invoice` (`tx.rs`) on a unit whose block is open on SQLite, and not yet
/// on PostgreSQL. On PostgreSQL the BEGIN, the share of the invoice's account, the lock of its
/// client (as `clients::lock_client`, each found through the invoice: an invoice never changes
/// hands) and the read go out pipelined, and the server runs them in that order. On SQLite
/// `BEGIN IMMEDIATE` already serialises every writer: a read is all it takes.
pub(crate) async fn begin_with_invoice(
    conn: &mut DbConn,
    payment_id: &str,
    legacy: GatewayName,
) -> StoreResult<Option<InvoiceRecord>> {
    let rows: Vec<(InvoiceRow, String)> = match conn {
        DbConn::Sqlite(object) => {
            let c: &mut SqliteConn = object;
            invoice_query!().filter(invoices::payment_id.eq(payment_id)).limit(1).load(c).await
        }
        DbConn::Postgres(object) => {
            let c: &AsyncPgConnection = object;
            let of_invoice = |sql| by_sql(diesel::sql_query(sql).bind::<diesel::sql_types::Text, _>(payment_id));
            let (begun, shared, locked, rows) = tokio::join!(
                Begin.execute(&mut &*c),
                of_invoice(
                    "SELECT 1 FROM accounts WHERE id = (SELECT account_id FROM invoices WHERE payment_id = $1) FOR SHARE"
                )
                .execute(&mut &*c),
                of_invoice(
                    "SELECT 1 FROM clients WHERE id = (SELECT client_ref FROM invoices WHERE payment_id = $1) FOR UPDATE"
                )
                .execute(&mut &*c),
                invoice_query!().filter(invoices::payment_id.eq(payment_id)).limit(1).load(&mut &*c),
            );
            begun.and(shared).and(locked).and(rows)
        }
    }
    .map_err(db)?;
    first(rows, legacy)
}

#[async_trait]
impl InvoiceRepo for StoreTx {
    async fn insert_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::invoice_row(invoice)?;
        db_run!(conn, c => diesel::insert_into(invoices::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()> {
        let row = convert::invoice_row(invoice)?;
        let payment_id = invoice.payment_id.to_string();
        write_with_next!(self, by_sql(diesel::update(invoices::table.find(&payment_id)).set(&row)))
    }

    async fn invoice(&mut self, account_id: &str, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            invoice_query!()
                .filter(invoices::payment_id.eq(payment_id))
                .filter(invoices::account_id.eq(account_id))
                .limit(1)
                .load(c)
                .await
        })
        .map_err(db)?;
        first(rows, self.legacy_gateway)
    }

    async fn client_invoices(&mut self, client_ref: &str, limit: u32) -> StoreResult<Vec<InvoiceRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            invoice_query!()
                .filter(invoices::client_ref.eq(client_ref))
                .order((invoices::created_at.desc(), invoices::payment_id.desc()))
                .limit(i64::from(limit))
                .load(c)
                .await
        })
        .map_err(db)?;
        into_records(rows, self.legacy_gateway)
    }

    async fn invoice_by_id(&mut self, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            invoice_query!().filter(invoices::payment_id.eq(payment_id)).limit(1).load(c).await
        })
        .map_err(db)?;
        first(rows, self.legacy_gateway)
    }

    async fn pending_invoices_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<InvoiceRecord>> {
        let conn = self.conn().await?;
        let now = db_time(now);
        let limit = i64::from(limit);
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            invoice_query!()
                .filter(invoices::status.eq(vp_domain::InvoiceStatus::Pending.as_str()))
                .filter(invoices::expires_at.le(now))
                .order((invoices::expires_at, invoices::payment_id))
                .limit(limit)
                .load(c)
                .await
        })
        .map_err(db)?;
        into_records(rows, self.legacy_gateway)
    }

    async fn paid_invoices_since(
        &mut self,
        since: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<InvoiceRecord>> {
        let conn = self.conn().await?;
        let since = db_time(since);
        let after = after.map(|c| (db_time(c.at), c.id.clone()));
        let limit = i64::from(limit);
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            let mut query = invoice_query!()
                .filter(invoices::paid_at.ge(since))
                .filter(invoices::status.eq(vp_domain::InvoiceStatus::Succeeded.as_str()));
            if let Some((at, id)) = &after {
                query = query.filter(
                    invoices::paid_at.gt(*at).or(invoices::paid_at.eq(*at).and(invoices::payment_id.gt(id.clone()))),
                );
            }
            query.order((invoices::paid_at, invoices::payment_id)).limit(limit).load(c).await
        })
        .map_err(db)?;
        into_records(rows, self.legacy_gateway)
    }

    async fn account_invoices(
        &mut self,
        account_id: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
        after: Option<&Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<InvoiceRecord>> {
        let conn = self.conn().await?;
        let (cursor, to) = (range_cursor(from, after), db_time(to));
        // The (account_id, created_at) index finds the range.
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            let invoices = invoice_query!().filter(invoices::account_id.eq(account_id));
            page_after!(invoices, invoices::created_at, invoices::payment_id, cursor, to, limit).load(c).await
        })
        .map_err(db)?;
        into_records(rows, self.legacy_gateway)
    }

    async fn invoice_by_gateway_payment_id(&mut self, gateway_payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
            invoice_query!().filter(invoices::gateway_payment_id.eq(gateway_payment_id)).limit(1).load(c).await
        })
        .map_err(db)?;
        first(rows, self.legacy_gateway)
    }

    async fn schedule_gateway_check(&mut self, payment_id: &str, at: Option<OffsetDateTime>) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = at.map(db_time);
        db_run!(conn, c => {
            diesel::update(invoices::table.find(payment_id)).set(invoices::gateway_check_at.eq(at)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    /// Claims invoices whose re-read is due: pending or expired here, a payment window that ended
    /// no earlier than `window_start`, and `gateway_check_at <= now`. Each
    /// claimed row's next check moves to `lease_until` (a checker that dies leaves it to run again
    /// then) and its count goes up by one.
    async fn claim_gateway_checks(
        &mut self,
        claim: Claim,
        window_start: OffsetDateTime,
    ) -> StoreResult<Vec<GatewayCheck>> {
        let Claim { now, lease_until, limit } = claim;
        let conn = self.conn().await?;
        let (now_db, window_db, limit) = (db_time(now), db_time(window_start), i64::from(limit));
        let open = [InvoiceStatus::Pending.as_str(), InvoiceStatus::Expired.as_str()];
        let due = invoices::gateway_check_at
            .le(now_db)
            .and(invoices::status.eq_any(open))
            .and(invoices::expires_at.ge(window_db));
        let ids: Vec<String> = load_for_claim!(
            conn,
            invoices::table
                .filter(due)
                .order((invoices::gateway_check_at, invoices::payment_id))
                .limit(limit)
                .select(invoices::payment_id)
        )
        .map_err(db)?;
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let lease = db_time(lease_until);
        db_run!(conn, c => {
            diesel::update(invoices::table.filter(invoices::payment_id.eq_any(&ids)))
                .set((invoices::gateway_check_at.eq(lease), invoices::gateway_checks.eq(invoices::gateway_checks + 1)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        let rows: Vec<(InvoiceRow, String, i32)> = db_run!(conn, c => {
            invoices::table
                .inner_join(clients::table)
                .filter(invoices::payment_id.eq_any(&ids))
                .order((invoices::created_at, invoices::payment_id))
                .select((InvoiceRow::as_select(), clients::client_id, invoices::gateway_checks))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|(row, client_id, checks)| {
                Ok(GatewayCheck {
                    invoice: convert::invoice(row, &client_id, self.legacy_gateway)?,
                    checks: u32::try_from(checks).unwrap_or(0),
                })
            })
            .collect()
    }

    async fn insert_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::idempotency_row(record);
        db_run!(conn, c => diesel::insert_into(idempotency_keys::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>> {
        let conn = self.conn().await?;
        let row: Option<IdempotencyRow> = db_run!(conn, c => {
            idempotency_keys::table
                .find((account_id, key))
                .select(IdempotencyRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(convert::idempotency).transpose()
    }

    async fn update_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::idempotency_row(record);
        db_run!(conn, c => {
            diesel::update(idempotency_keys::table.find((record.account_id.as_str(), &record.key))).set(&row).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn extend_idempotency_lock(
        &mut self,
        account_id: &str,
        key: &str,
        payment_id: &str,
        until: OffsetDateTime,
    ) -> StoreResult<bool> {
        use idempotency_keys::dsl as k;
        let conn = self.conn().await?;
        let started = recovery_point_text(RecoveryPoint::Started);
        let until = db_time(until);
        let moved = db_run!(conn, c => {
            diesel::update(
                k::idempotency_keys
                    .filter(k::account_id.eq(account_id))
                    .filter(k::key.eq(key))
                    .filter(k::payment_id.eq(payment_id))
                    .filter(k::recovery_point.eq(started))
                    .filter(k::locked_until.is_not_null()),
            )
            .set(k::locked_until.eq(Some(until)))
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(moved > 0)
    }

    async fn delete_idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::delete(idempotency_keys::table.find((account_id, key))).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    /// Keys still at `started` whose lock ran out before `before`; released keys (no lock) are
    /// left to the partner's retry.
    async fn unfinished_idempotency_keys(
        &mut self,
        before: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<IdempotencyRecord>> {
        let conn = self.conn().await?;
        let before = db_time(before);
        let limit = i64::from(limit);
        let rows: Vec<IdempotencyRow> = db_run!(conn, c => {
            idempotency_keys::table
                .filter(idempotency_keys::recovery_point.eq(recovery_point_text(RecoveryPoint::Started)))
                .filter(idempotency_keys::locked_until.is_not_null())
                .filter(idempotency_keys::locked_until.lt(before))
                .select(IdempotencyRow::as_select())
                .order((idempotency_keys::locked_until, idempotency_keys::account_id, idempotency_keys::key))
                .limit(limit)
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(convert::idempotency).collect()
    }
}
