//! Invoices and idempotency keys.

use async_trait::async_trait;
use vp_ports::InvoiceRepo;

use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::InvoiceStatus;
use vp_ports::records::{GatewayCheck, IdempotencyRecord, InvoiceRecord};
use vp_ports::store::StoreResult;

use crate::convert::{self, db_time, recovery_point_text};
use crate::errors::db;
use crate::models::{IdempotencyRow, InvoiceRow};
use crate::pool::{DbConn, db_run, load_for_claim};
use crate::schema::{clients, idempotency_keys, invoices};
use vp_ports::records::RecoveryPoint;

/// Invoices joined with their client for the partner's `client_id`.
macro_rules! invoice_query {
    () => {
        invoices::table.inner_join(clients::table).select((InvoiceRow::as_select(), clients::client_id)).into_boxed()
    };
}

fn into_records(rows: Vec<(InvoiceRow, String)>) -> StoreResult<Vec<InvoiceRecord>> {
    rows.into_iter().map(|(row, client_id)| convert::invoice(row, &client_id)).collect()
}

fn first(rows: Vec<(InvoiceRow, String)>) -> StoreResult<Option<InvoiceRecord>> {
    Ok(into_records(rows)?.into_iter().next())
}

pub(crate) async fn insert_invoice(conn: &mut DbConn, invoice: &InvoiceRecord) -> StoreResult<()> {
    let row = convert::invoice_row(invoice)?;
    db_run!(conn, c => diesel::insert_into(invoices::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn update_invoice(conn: &mut DbConn, invoice: &InvoiceRecord) -> StoreResult<()> {
    let row = convert::invoice_row(invoice)?;
    db_run!(conn, c => {
        diesel::update(invoices::table.find(&invoice.payment_id)).set(&row).execute(c).await
    })
    .map_err(db)?;
    Ok(())
}

pub(crate) async fn invoice(
    conn: &mut DbConn,
    account_id: &str,
    payment_id: &str,
) -> StoreResult<Option<InvoiceRecord>> {
    let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
        invoice_query!()
            .filter(invoices::payment_id.eq(payment_id))
            .filter(invoices::account_id.eq(account_id))
            .limit(1)
            .load(c)
            .await
    })
    .map_err(db)?;
    first(rows)
}

pub(crate) async fn invoice_by_id(conn: &mut DbConn, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
    let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
        invoice_query!().filter(invoices::payment_id.eq(payment_id)).limit(1).load(c).await
    })
    .map_err(db)?;
    first(rows)
}

pub(crate) async fn pending_invoices_due(
    conn: &mut DbConn,
    now: OffsetDateTime,
    limit: u32,
) -> StoreResult<Vec<InvoiceRecord>> {
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
    into_records(rows)
}

pub(crate) async fn insert_idempotency_key(conn: &mut DbConn, record: &IdempotencyRecord) -> StoreResult<()> {
    let row = convert::idempotency_row(record);
    db_run!(conn, c => diesel::insert_into(idempotency_keys::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn idempotency_key(
    conn: &mut DbConn,
    account_id: &str,
    key: &str,
) -> StoreResult<Option<IdempotencyRecord>> {
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

pub(crate) async fn update_idempotency_key(conn: &mut DbConn, record: &IdempotencyRecord) -> StoreResult<()> {
    let row = convert::idempotency_row(record);
    db_run!(conn, c => {
        diesel::update(idempotency_keys::table.find((&record.account_id, &record.key))).set(&row).execute(c).await
    })
    .map_err(db)?;
    Ok(())
}

pub(crate) async fn delete_idempotency_key(conn: &mut DbConn, account_id: &str, key: &str) -> StoreResult<()> {
    db_run!(conn, c => diesel::delete(idempotency_keys::table.find((account_id, key))).execute(c).await).map_err(db)?;
    Ok(())
}

/// Keys still at `started` whose lock ran out before `before`; released keys (no lock) are
/// left to the partner's retry.
pub(crate) async fn unfinished_idempotency_keys(
    conn: &mut DbConn,
    before: OffsetDateTime,
    limit: u32,
) -> StoreResult<Vec<IdempotencyRecord>> {
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

pub(crate) async fn client_invoices(
    conn: &mut DbConn,
    client_ref: &str,
    limit: u32,
) -> StoreResult<Vec<InvoiceRecord>> {
    let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
        invoice_query!()
            .filter(invoices::client_ref.eq(client_ref))
            .order((invoices::created_at.desc(), invoices::payment_id.desc()))
            .limit(i64::from(limit))
            .load(c)
            .await
    })
    .map_err(db)?;
    into_records(rows)
}

pub(crate) async fn invoice_by_gateway_payment_id(
    conn: &mut DbConn,
    gateway_payment_id: &str,
) -> StoreResult<Option<InvoiceRecord>> {
    let rows: Vec<(InvoiceRow, String)> = db_run!(conn, c => {
        invoice_query!().filter(invoices::gateway_payment_id.eq(gateway_payment_id)).limit(1).load(c).await
    })
    .map_err(db)?;
    first(rows)
}

pub(crate) async fn schedule_gateway_check(
    conn: &mut DbConn,
    payment_id: &str,
    at: Option<OffsetDateTime>,
) -> StoreResult<()> {
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
pub(crate) async fn claim_gateway_checks(
    conn: &mut DbConn,
    now: OffsetDateTime,
    window_start: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: u32,
) -> StoreResult<Vec<GatewayCheck>> {
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
            Ok(GatewayCheck { invoice: convert::invoice(row, &client_id)?, checks: u32::try_from(checks).unwrap_or(0) })
        })
        .collect()
}

#[async_trait]
impl InvoiceRepo for StoreTx {
    async fn insert_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()> {
        insert_invoice(self.conn()?, invoice).await
    }

    async fn update_invoice(&mut self, invoice: &InvoiceRecord) -> StoreResult<()> {
        update_invoice(self.conn()?, invoice).await
    }

    async fn invoice(&mut self, account_id: &str, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        invoice(self.conn()?, account_id, payment_id).await
    }

    async fn client_invoices(&mut self, client_ref: &str, limit: u32) -> StoreResult<Vec<InvoiceRecord>> {
        client_invoices(self.conn()?, client_ref, limit).await
    }

    async fn invoice_by_id(&mut self, payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        invoice_by_id(self.conn()?, payment_id).await
    }

    async fn pending_invoices_due(&mut self, now: OffsetDateTime, limit: u32) -> StoreResult<Vec<InvoiceRecord>> {
        pending_invoices_due(self.conn()?, now, limit).await
    }

    async fn invoice_by_gateway_payment_id(&mut self, gateway_payment_id: &str) -> StoreResult<Option<InvoiceRecord>> {
        invoice_by_gateway_payment_id(self.conn()?, gateway_payment_id).await
    }

    async fn schedule_gateway_check(&mut self, payment_id: &str, at: Option<OffsetDateTime>) -> StoreResult<()> {
        schedule_gateway_check(self.conn()?, payment_id, at).await
    }

    async fn claim_gateway_checks(
        &mut self,
        now: OffsetDateTime,
        window_start: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<GatewayCheck>> {
        claim_gateway_checks(self.conn()?, now, window_start, lease_until, limit).await
    }

    async fn insert_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()> {
        insert_idempotency_key(self.conn()?, record).await
    }

    async fn idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>> {
        idempotency_key(self.conn()?, account_id, key).await
    }

    async fn update_idempotency_key(&mut self, record: &IdempotencyRecord) -> StoreResult<()> {
        update_idempotency_key(self.conn()?, record).await
    }

    async fn delete_idempotency_key(&mut self, account_id: &str, key: &str) -> StoreResult<()> {
        delete_idempotency_key(self.conn()?, account_id, key).await
    }

    async fn unfinished_idempotency_keys(
        &mut self,
        before: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<IdempotencyRecord>> {
        unfinished_idempotency_keys(self.conn()?, before, limit).await
    }
}
