//! The partner cabinet: users, set-password links, sessions, failed sign-ins, the audit log.

use async_trait::async_trait;
use vp_ports::CabinetRepo;

use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::cabinet::*;
use vp_ports::store::StoreResult;

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::{AuditRow, CabinetLinkRow, CabinetSessionRow, CabinetUserRow};
use crate::pool::{DbConn, db_run};
use crate::repo::page_cursor;
use crate::schema::{cabinet_audit, cabinet_links, cabinet_sessions, cabinet_sign_in_failures, cabinet_users};

fn user_row(u: &CabinetUser) -> CabinetUserRow {
    CabinetUserRow {
        id: u.id.clone(),
        account_id: u.account_id.clone(),
        email: u.email.clone(),
        password_hash: u.password_hash.clone(),
        created_at: db_time(u.created_at),
        revoked_at: db_time_opt(u.revoked_at),
    }
}

fn user(r: CabinetUserRow) -> CabinetUser {
    CabinetUser {
        id: r.id,
        account_id: r.account_id,
        email: r.email,
        password_hash: r.password_hash,
        created_at: utc(r.created_at),
        revoked_at: r.revoked_at.map(utc),
    }
}

pub(crate) async fn insert_user(conn: &mut DbConn, u: &CabinetUser) -> StoreResult<()> {
    let row = user_row(u);
    db_run!(conn, c => diesel::insert_into(cabinet_users::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn update_user(conn: &mut DbConn, u: &CabinetUser) -> StoreResult<()> {
    let row = user_row(u);
    db_run!(conn, c => diesel::update(cabinet_users::table.find(&u.id)).set(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn user_by_id(conn: &mut DbConn, id: &str) -> StoreResult<Option<CabinetUser>> {
    let row: Option<CabinetUserRow> = db_run!(conn, c => {
        cabinet_users::table.find(id).select(CabinetUserRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(row.map(user))
}

pub(crate) async fn user_by_email(conn: &mut DbConn, email: &str) -> StoreResult<Option<CabinetUser>> {
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

pub(crate) async fn users(conn: &mut DbConn, account_id: &str) -> StoreResult<Vec<CabinetUser>> {
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

pub(crate) async fn insert_link(conn: &mut DbConn, l: &CabinetLink) -> StoreResult<()> {
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

pub(crate) async fn link(conn: &mut DbConn, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
    let row: Option<CabinetLinkRow> = db_run!(conn, c => {
        cabinet_links::table.find(token_hash).select(CabinetLinkRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    row.map(|r| {
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
    })
    .transpose()
}

pub(crate) async fn spend_links(conn: &mut DbConn, user_id: &str, at: OffsetDateTime) -> StoreResult<()> {
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

pub(crate) async fn insert_session(conn: &mut DbConn, s: &CabinetSession) -> StoreResult<()> {
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

pub(crate) async fn session(conn: &mut DbConn, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
    let row: Option<CabinetSessionRow> = db_run!(conn, c => {
        cabinet_sessions::table.find(token_hash).select(CabinetSessionRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(row.map(|r| CabinetSession {
        token_hash: r.token_hash,
        user_id: r.user_id,
        csrf_token: r.csrf_token,
        created_at: utc(r.created_at),
        last_seen_at: utc(r.last_seen_at),
    }))
}

pub(crate) async fn touch_session(conn: &mut DbConn, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
    let at = db_time(at);
    db_run!(conn, c => {
        diesel::update(cabinet_sessions::table.find(token_hash)).set(cabinet_sessions::last_seen_at.eq(at)).execute(c).await
    })
    .map_err(db)?;
    Ok(())
}

pub(crate) async fn delete_session(conn: &mut DbConn, token_hash: &str) -> StoreResult<()> {
    db_run!(conn, c => diesel::delete(cabinet_sessions::table.find(token_hash)).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn delete_user_sessions(conn: &mut DbConn, user_id: &str) -> StoreResult<u64> {
    let n = db_run!(conn, c => {
        diesel::delete(cabinet_sessions::table.filter(cabinet_sessions::user_id.eq(user_id))).execute(c).await
    })
    .map_err(db)?;
    Ok(n as u64)
}

/// Sessions no request can revive: idle since `idle_before` or signed in before `created_before`.
pub(crate) async fn prune_sessions(
    conn: &mut DbConn,
    idle_before: OffsetDateTime,
    created_before: OffsetDateTime,
) -> StoreResult<u64> {
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

pub(crate) async fn insert_failure(
    conn: &mut DbConn,
    id: &str,
    email: &str,
    address: &str,
    at: OffsetDateTime,
) -> StoreResult<()> {
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

pub(crate) async fn failures(
    conn: &mut DbConn,
    source: SignInSource<'_>,
    limit: u32,
) -> StoreResult<Vec<OffsetDateTime>> {
    use cabinet_sign_in_failures::dsl as f;
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

pub(crate) async fn clear_failures(conn: &mut DbConn, email: &str) -> StoreResult<()> {
    db_run!(conn, c => {
        diesel::delete(cabinet_sign_in_failures::table.filter(cabinet_sign_in_failures::email.eq(email))).execute(c).await
    })
    .map_err(db)?;
    Ok(())
}

pub(crate) async fn prune_failures(conn: &mut DbConn, before: OffsetDateTime) -> StoreResult<u64> {
    let before = db_time(before);
    let n = db_run!(conn, c => {
        diesel::delete(cabinet_sign_in_failures::table.filter(cabinet_sign_in_failures::at.lt(before))).execute(c).await
    })
    .map_err(db)?;
    Ok(n as u64)
}

pub(crate) async fn insert_audit(conn: &mut DbConn, e: &AuditEntry) -> StoreResult<()> {
    let row = AuditRow {
        id: e.id.clone(),
        account_id: e.account_id.clone(),
        user_id: e.user_id.clone(),
        actor: e.actor.clone(),
        action: e.action.clone(),
        detail: e.detail.clone(),
        at: db_time(e.at),
    };
    db_run!(conn, c => diesel::insert_into(cabinet_audit::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn audit(
    conn: &mut DbConn,
    account_id: &str,
    before: Option<(OffsetDateTime, String)>,
    limit: u32,
) -> StoreResult<Vec<AuditEntry>> {
    use cabinet_audit::dsl as a;
    let (at, id) = page_cursor(before);
    let rows: Vec<AuditRow> = db_run!(conn, c => {
        a::cabinet_audit
            .filter(a::account_id.eq(account_id))
            .filter(a::at.lt(at).or(a::at.eq(at).and(a::id.lt(&id))))
            .select(AuditRow::as_select())
            .order((a::at.desc(), a::id.desc()))
            .limit(i64::from(limit))
            .load(c)
            .await
    })
    .map_err(db)?;
    Ok(rows
        .into_iter()
        .map(|r| AuditEntry {
            id: r.id,
            account_id: r.account_id,
            user_id: r.user_id,
            actor: r.actor,
            action: r.action,
            detail: r.detail,
            at: utc(r.at),
        })
        .collect())
}

#[async_trait]
impl CabinetRepo for StoreTx {
    async fn insert_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()> {
        insert_user(self.conn()?, user).await
    }

    async fn update_cabinet_user(&mut self, user: &CabinetUser) -> StoreResult<()> {
        update_user(self.conn()?, user).await
    }

    async fn cabinet_user(&mut self, id: &str) -> StoreResult<Option<CabinetUser>> {
        user_by_id(self.conn()?, id).await
    }

    async fn cabinet_user_by_email(&mut self, email: &str) -> StoreResult<Option<CabinetUser>> {
        user_by_email(self.conn()?, email).await
    }

    async fn cabinet_users(&mut self, account_id: &str) -> StoreResult<Vec<CabinetUser>> {
        users(self.conn()?, account_id).await
    }

    async fn insert_cabinet_link(&mut self, link: &CabinetLink) -> StoreResult<()> {
        insert_link(self.conn()?, link).await
    }

    async fn cabinet_link(&mut self, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
        link(self.conn()?, token_hash).await
    }

    async fn spend_cabinet_links(&mut self, user_id: &str, at: OffsetDateTime) -> StoreResult<()> {
        spend_links(self.conn()?, user_id, at).await
    }

    async fn insert_cabinet_session(&mut self, session: &CabinetSession) -> StoreResult<()> {
        insert_session(self.conn()?, session).await
    }

    async fn cabinet_session(&mut self, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
        session(self.conn()?, token_hash).await
    }

    async fn touch_cabinet_session(&mut self, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        touch_session(self.conn()?, token_hash, at).await
    }

    async fn delete_cabinet_session(&mut self, token_hash: &str) -> StoreResult<()> {
        delete_session(self.conn()?, token_hash).await
    }

    async fn delete_cabinet_sessions(&mut self, user_id: &str) -> StoreResult<u64> {
        delete_user_sessions(self.conn()?, user_id).await
    }

    async fn prune_cabinet_sessions(
        &mut self,
        idle_before: OffsetDateTime,
        created_before: OffsetDateTime,
    ) -> StoreResult<u64> {
        prune_sessions(self.conn()?, idle_before, created_before).await
    }

    async fn insert_sign_in_failure(
        &mut self,
        id: &str,
        email: &str,
        address: &str,
        at: OffsetDateTime,
    ) -> StoreResult<()> {
        insert_failure(self.conn()?, id, email, address, at).await
    }

    async fn sign_in_failures(&mut self, source: SignInSource<'_>, limit: u32) -> StoreResult<Vec<OffsetDateTime>> {
        failures(self.conn()?, source, limit).await
    }

    async fn clear_sign_in_failures(&mut self, email: &str) -> StoreResult<()> {
        clear_failures(self.conn()?, email).await
    }

    async fn prune_sign_in_failures(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        prune_failures(self.conn()?, before).await
    }

    async fn insert_audit_entry(&mut self, entry: &AuditEntry) -> StoreResult<()> {
        insert_audit(self.conn()?, entry).await
    }

    async fn audit_entries(
        &mut self,
        account_id: &str,
        before: Option<(OffsetDateTime, String)>,
        limit: u32,
    ) -> StoreResult<Vec<AuditEntry>> {
        audit(self.conn()?, account_id, before, limit).await
    }
}
