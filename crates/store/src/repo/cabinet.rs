//! The partner cabinet: users, set-password links, sessions, failed sign-ins, the audit log:
//! `CabinetRepo` for the unit of work.

use async_trait::async_trait;
use vp_domain::{AccountId, CabinetUserId};
use vp_ports::{CabinetRepo, Cursor};

use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::cabinet::*;
use vp_ports::store::StoreResult;

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::{AuditRow, CabinetLinkRow, CabinetSessionRow, CabinetUserRow};
use crate::pool::db_run;
use crate::repo::{page_before, page_cursor};
use crate::schema::{cabinet_audit, cabinet_links, cabinet_sessions, cabinet_sign_in_failures, cabinet_users};

fn user_row(u: &CabinetUser) -> CabinetUserRow {
    CabinetUserRow {
        id: u.id.to_string(),
        account_id: u.account_id.to_string(),
        email: u.email.clone(),
        password_hash: u.password_hash.clone(),
        created_at: db_time(u.created_at),
        revoked_at: db_time_opt(u.revoked_at),
    }
}

fn user(r: CabinetUserRow) -> CabinetUser {
    CabinetUser {
        id: CabinetUserId::issued(r.id),
        account_id: AccountId::issued(r.account_id),
        email: r.email,
        password_hash: r.password_hash,
        created_at: utc(r.created_at),
        revoked_at: r.revoked_at.map(utc),
    }
}

/// A link as read, from the cabinet's table or the operators' (the same columns in order).
pub(crate) fn link_of(r: CabinetLinkRow) -> StoreResult<CabinetLink> {
    let purpose = CabinetLinkPurpose::parse(&r.purpose)
        .ok_or_else(|| corrupt(format!("stored link purpose {:?} is not valid", r.purpose)))?;
    Ok(CabinetLink {
        token_hash: r.token_hash,
        user_id: r.user_id,
        purpose,
        created_at: utc(r.created_at),
        expires_at: utc(r.expires_at),
        used_at: r.used_at.map(utc),
    })
}

/// A session as read, from the cabinet's table or the operators' (the same columns in order).
pub(crate) fn session_of(r: CabinetSessionRow) -> CabinetSession {
    CabinetSession {
        token_hash: r.token_hash,
        user_id: r.user_id,
        csrf_token: r.csrf_token,
        created_at: utc(r.created_at),
        last_seen_at: utc(r.last_seen_at),
    }
}

#[async_trait]
impl CabinetRepo for StoreTx {
    async fn insert_cabinet_user(&mut self, u: &CabinetUser) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = user_row(u);
        db_run!(conn, c => diesel::insert_into(cabinet_users::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_cabinet_user(&mut self, u: &CabinetUser) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = user_row(u);
        db_run!(conn, c => diesel::update(cabinet_users::table.find(u.id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn cabinet_user(&mut self, id: &str) -> StoreResult<Option<CabinetUser>> {
        let conn = self.conn().await?;
        let row: Option<CabinetUserRow> = db_run!(conn, c => {
            cabinet_users::table.find(id).select(CabinetUserRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(user))
    }

    async fn cabinet_user_by_email(&mut self, email: &str) -> StoreResult<Option<CabinetUser>> {
        let conn = self.conn().await?;
        let row: Option<CabinetUserRow> = db_run!(conn, c => {
            cabinet_users::table
                .filter(cabinet_users::email.eq(email))
                .select(CabinetUserRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        Ok(row.map(user))
    }

    async fn cabinet_users(&mut self, account_id: &str) -> StoreResult<Vec<CabinetUser>> {
        let conn = self.conn().await?;
        let rows: Vec<CabinetUserRow> = db_run!(conn, c => {
            cabinet_users::table
                .filter(cabinet_users::account_id.eq(account_id))
                .select(CabinetUserRow::as_select())
                .order((cabinet_users::created_at, cabinet_users::id))
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(user).collect())
    }

    async fn insert_cabinet_link(&mut self, l: &CabinetLink) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = CabinetLinkRow {
            token_hash: l.token_hash.clone(),
            user_id: l.user_id.clone(),
            purpose: l.purpose.as_str().to_owned(),
            created_at: db_time(l.created_at),
            expires_at: db_time(l.expires_at),
            used_at: db_time_opt(l.used_at),
        };
        db_run!(conn, c => diesel::insert_into(cabinet_links::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn cabinet_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
        let conn = self.conn().await?;
        let row: Option<CabinetLinkRow> = db_run!(conn, c => {
            cabinet_links::table.find(token_hash).select(CabinetLinkRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(link_of).transpose()
    }

    async fn spend_cabinet_links(&mut self, user_id: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::update(cabinet_links::table.filter(cabinet_links::user_id.eq(user_id).and(cabinet_links::used_at.is_null())))
                .set(cabinet_links::used_at.eq(at))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn insert_cabinet_session(&mut self, s: &CabinetSession) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = CabinetSessionRow {
            token_hash: s.token_hash.clone(),
            user_id: s.user_id.clone(),
            csrf_token: s.csrf_token.clone(),
            created_at: db_time(s.created_at),
            last_seen_at: db_time(s.last_seen_at),
        };
        db_run!(conn, c => diesel::insert_into(cabinet_sessions::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn cabinet_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
        let conn = self.conn().await?;
        let row: Option<CabinetSessionRow> = db_run!(conn, c => {
            cabinet_sessions::table.find(token_hash).select(CabinetSessionRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(session_of))
    }

    async fn touch_cabinet_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::update(cabinet_sessions::table.find(token_hash)).set(cabinet_sessions::last_seen_at.eq(at)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn delete_cabinet_session(&mut self, token_hash: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::delete(cabinet_sessions::table.find(token_hash)).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn delete_cabinet_sessions(&mut self, user_id: &str) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let n = db_run!(conn, c => {
            diesel::delete(cabinet_sessions::table.filter(cabinet_sessions::user_id.eq(user_id))).execute(c).await
        })
        .map_err(db)?;
        Ok(n as u64)
    }

    /// Sessions no request can revive: idle since `idle_before` or signed in before `created_before`.
    async fn prune_cabinet_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let (idle_before, created_before) = (db_time(idle_before), db_time(created_before));
        let n = db_run!(conn, c => {
            diesel::delete(cabinet_sessions::table.filter(
                cabinet_sessions::last_seen_at.lt(idle_before).or(cabinet_sessions::created_at.lt(created_before)),
            ))
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(n as u64)
    }

    async fn insert_sign_in_failure(
        &mut self,
        id: &str,
        email: &str,
        address: &str,
        at: OffsetDateTime,
    ) -> StoreResult<()> {
        let conn = self.conn().await?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::insert_into(cabinet_sign_in_failures::table)
                .values((
                    cabinet_sign_in_failures::id.eq(id),
                    cabinet_sign_in_failures::email.eq(email),
                    cabinet_sign_in_failures::address.eq(address),
                    cabinet_sign_in_failures::at.eq(at),
                ))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn sign_in_failures(&mut self, source: SignInSource<'_>, limit: u32) -> StoreResult<Vec<OffsetDateTime>> {
        use cabinet_sign_in_failures::dsl as f;
        let conn = self.conn().await?;
        let limit = i64::from(limit);
        let rows: Vec<time::PrimitiveDateTime> = match source {
            SignInSource::Email(email) => db_run!(conn, c => {
                f::cabinet_sign_in_failures.filter(f::email.eq(email)).select(f::at).order(f::at.desc()).limit(limit).load(c).await
            }),
            SignInSource::Address(address) => db_run!(conn, c => {
                f::cabinet_sign_in_failures.filter(f::address.eq(address)).select(f::at).order(f::at.desc()).limit(limit).load(c).await
            }),
        }
        .map_err(db)?;
        Ok(rows.into_iter().map(utc).collect())
    }

    async fn clear_sign_in_failures(&mut self, email: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::delete(cabinet_sign_in_failures::table.filter(cabinet_sign_in_failures::email.eq(email))).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn prune_sign_in_failures(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let before = db_time(before);
        let n = db_run!(conn, c => {
            diesel::delete(cabinet_sign_in_failures::table.filter(cabinet_sign_in_failures::at.lt(before))).execute(c).await
        })
        .map_err(db)?;
        Ok(n as u64)
    }

    async fn insert_audit_entry(&mut self, e: &AuditEntry) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = AuditRow {
            id: e.id.clone(),
            account_id: e.account_id.to_string(),
            user_id: e.user_id.clone(),
            actor: e.actor.clone(),
            action: e.action.as_str().to_owned(),
            detail: e.detail.clone(),
            at: db_time(e.at),
        };
        db_run!(conn, c => diesel::insert_into(cabinet_audit::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn audit_entries(
        &mut self,
        account_id: &str,
        before: Option<Cursor>,
        limit: u32,
    ) -> StoreResult<Vec<AuditEntry>> {
        use cabinet_audit::dsl as a;
        let conn = self.conn().await?;
        let cursor = page_cursor(before);
        let rows: Vec<AuditRow> = db_run!(conn, c => {
            let entries = a::cabinet_audit.filter(a::account_id.eq(account_id)).select(AuditRow::as_select());
            page_before!(entries, a::at, a::id, cursor, limit).load(c).await
        })
        .map_err(db)?;
        rows.into_iter()
            .map(|r| {
                Ok(AuditEntry {
                    action: r
                        .action
                        .parse()
                        .map_err(|_| corrupt(format!("audit entry {} action {:?}", r.id, r.action)))?,
                    id: r.id,
                    account_id: AccountId::issued(r.account_id),
                    user_id: r.user_id,
                    actor: r.actor,
                    detail: r.detail,
                    at: utc(r.at),
                })
            })
            .collect()
    }
}
