//! The platform's operators, their set-password links, sessions and audit: `OperatorRepo` for
//! the unit of work. Links and sessions have the cabinet's columns in the same order, so they
//! read through the cabinet's rows and conversions.

use async_trait::async_trait;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::OperatorId;
use vp_ports::store::StoreResult;
use vp_ports::{CabinetLink, CabinetSession, Cursor, OperatorAuditEntry, OperatorRecord, OperatorRepo};

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::{CabinetLinkRow, CabinetSessionRow, OperatorAuditRow, OperatorRow};
use crate::pool::db_run;
use crate::repo::cabinet::{link_of, session_of};
use crate::repo::{page_before, page_cursor};
use crate::schema::{operator_audit, operator_links, operator_sessions, operators};
use crate::tx::StoreTx;

fn operator_row(o: &OperatorRecord) -> OperatorRow {
    OperatorRow {
        id: o.id.to_string(),
        email: o.email.clone(),
        password_hash: o.password_hash.clone(),
        created_at: db_time(o.created_at),
        revoked_at: db_time_opt(o.revoked_at),
    }
}

fn operator_of(r: OperatorRow) -> OperatorRecord {
    OperatorRecord {
        id: OperatorId::issued(r.id),
        email: r.email,
        password_hash: r.password_hash,
        created_at: utc(r.created_at),
        revoked_at: r.revoked_at.map(utc),
    }
}

#[async_trait]
impl OperatorRepo for StoreTx {
    async fn insert_operator(&mut self, o: &OperatorRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = operator_row(o);
        db_run!(conn, c => diesel::insert_into(operators::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_operator(&mut self, o: &OperatorRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = operator_row(o);
        db_run!(conn, c => diesel::update(operators::table.find(o.id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn operator(&mut self, id: &str) -> StoreResult<Option<OperatorRecord>> {
        let conn = self.conn().await?;
        let row: Option<OperatorRow> = db_run!(conn, c => {
            operators::table.find(id).select(OperatorRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(operator_of))
    }

    async fn operator_by_email(&mut self, email: &str) -> StoreResult<Option<OperatorRecord>> {
        let conn = self.conn().await?;
        let row: Option<OperatorRow> = db_run!(conn, c => {
            operators::table.filter(operators::email.eq(email)).select(OperatorRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(operator_of))
    }

    async fn operators(&mut self) -> StoreResult<Vec<OperatorRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<OperatorRow> = db_run!(conn, c => {
            operators::table.select(OperatorRow::as_select()).order((operators::created_at, operators::id)).load(c).await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(operator_of).collect())
    }

    async fn insert_operator_link(&mut self, l: &CabinetLink) -> StoreResult<()> {
        let conn = self.conn().await?;
        let values = (
            operator_links::token_hash.eq(&l.token_hash),
            operator_links::operator_id.eq(&l.user_id),
            operator_links::purpose.eq(l.purpose.as_str()),
            operator_links::created_at.eq(db_time(l.created_at)),
            operator_links::expires_at.eq(db_time(l.expires_at)),
            operator_links::used_at.eq(db_time_opt(l.used_at)),
        );
        db_run!(conn, c => diesel::insert_into(operator_links::table).values(values).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn operator_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
        let conn = self.conn().await?;
        let row: Option<CabinetLinkRow> = db_run!(conn, c => {
            operator_links::table.find(token_hash).select(operator_links::all_columns).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(link_of).transpose()
    }

    async fn spend_operator_links(&mut self, operator_id: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::update(operator_links::table.filter(operator_links::operator_id.eq(operator_id).and(operator_links::used_at.is_null())))
                .set(operator_links::used_at.eq(at))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn insert_operator_session(&mut self, s: &CabinetSession) -> StoreResult<()> {
        let conn = self.conn().await?;
        let values = (
            operator_sessions::token_hash.eq(&s.token_hash),
            operator_sessions::operator_id.eq(&s.user_id),
            operator_sessions::csrf_token.eq(&s.csrf_token),
            operator_sessions::created_at.eq(db_time(s.created_at)),
            operator_sessions::last_seen_at.eq(db_time(s.last_seen_at)),
        );
        db_run!(conn, c => diesel::insert_into(operator_sessions::table).values(values).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn operator_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
        let conn = self.conn().await?;
        let row: Option<CabinetSessionRow> = db_run!(conn, c => {
            operator_sessions::table.find(token_hash).select(operator_sessions::all_columns).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(session_of))
    }

    async fn touch_operator_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::update(operator_sessions::table.find(token_hash)).set(operator_sessions::last_seen_at.eq(at)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn delete_operator_session(&mut self, token_hash: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::delete(operator_sessions::table.find(token_hash)).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn delete_operator_sessions(&mut self, operator_id: &str) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let n = db_run!(conn, c => {
            diesel::delete(operator_sessions::table.filter(operator_sessions::operator_id.eq(operator_id))).execute(c).await
        })
        .map_err(db)?;
        Ok(n as u64)
    }

    async fn prune_operator_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let (idle_before, created_before) = (db_time(idle_before), db_time(created_before));
        let n = db_run!(conn, c => {
            diesel::delete(operator_sessions::table.filter(
                operator_sessions::last_seen_at.lt(idle_before).or(operator_sessions::created_at.lt(created_before)),
            ))
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(n as u64)
    }

    async fn insert_operator_audit(&mut self, e: &OperatorAuditEntry) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = OperatorAuditRow {
            id: e.id.clone(),
            operator_id: e.operator_id.as_ref().map(ToString::to_string),
            actor: e.actor.clone(),
            action: e.action.as_str().to_owned(),
            detail: e.detail.clone(),
            at: db_time(e.at),
        };
        db_run!(conn, c => diesel::insert_into(operator_audit::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn operator_audit(&mut self, before: Option<Cursor>, limit: u32) -> StoreResult<Vec<OperatorAuditEntry>> {
        use operator_audit::dsl as a;
        let conn = self.conn().await?;
        let cursor = page_cursor(before);
        let rows: Vec<OperatorAuditRow> = db_run!(conn, c => {
            let entries = a::operator_audit.select(OperatorAuditRow::as_select());
            page_before!(entries, a::at, a::id, cursor, limit).load(c).await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|r| {
                Ok(OperatorAuditEntry {
                    action: r
                        .action
                        .parse()
                        .map_err(|_| corrupt(format!("operator audit entry {} action {:?}", r.id, r.action)))?,
                    id: r.id,
                    operator_id: r.operator_id.map(OperatorId::issued),
                    actor: r.actor,
                    detail: r.detail,
                    at: utc(r.at),
                })
            })
            .collect()
    }
}
