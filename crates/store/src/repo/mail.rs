//! The mail outbox: `MailRepo` for the unit of work. The content is kept as the port's JSON.

use async_trait::async_trait;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use vp_domain::{Lang, MailId};
use vp_ports::store::StoreResult;
use vp_ports::{Claim, DeliveryBacklog, MailRecord, MailRepo};

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::{corrupt, db};
use crate::models::MailRow;
use crate::pool::{DbConn, db_run, load_for_claim};
use crate::schema::mail_outbox;
use crate::tx::StoreTx;

fn row(m: &MailRecord) -> StoreResult<MailRow> {
    Ok(MailRow {
        id: m.id.to_string(),
        account_id: m.account_id.clone(),
        to_address: m.to.clone(),
        lang: m.lang.code().to_owned(),
        content: serde_json::to_string(&m.content).map_err(|e| corrupt(format!("mail content: {e}")))?,
        created_at: db_time(m.created_at),
        attempts: i32::try_from(m.attempts).unwrap_or(i32::MAX),
        next_attempt_at: db_time_opt(m.next_attempt_at),
        sent_at: db_time_opt(m.sent_at),
        given_up_at: db_time_opt(m.given_up_at),
        last_error: m.last_error.clone(),
    })
}

fn record(r: MailRow) -> StoreResult<MailRecord> {
    Ok(MailRecord {
        lang: Lang::from_code(&r.lang).ok_or_else(|| corrupt(format!("mail {} language {}", r.id, r.lang)))?,
        content: serde_json::from_str(&r.content).map_err(|e| corrupt(format!("mail {} content: {e}", r.id)))?,
        id: MailId::issued(r.id),
        account_id: r.account_id,
        to: r.to_address,
        created_at: utc(r.created_at),
        attempts: u32::try_from(r.attempts).unwrap_or(0),
        next_attempt_at: r.next_attempt_at.map(utc),
        sent_at: r.sent_at.map(utc),
        given_up_at: r.given_up_at.map(utc),
        last_error: r.last_error,
    })
}

#[async_trait]
impl MailRepo for StoreTx {
    async fn insert_mail(&mut self, mail: &MailRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = row(mail)?;
        db_run!(conn, c => diesel::insert_into(mail_outbox::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn claim_mail(&mut self, claim: Claim) -> StoreResult<Vec<MailRecord>> {
        let Claim { now, lease_until, limit } = claim;
        use mail_outbox::dsl as m;
        let conn = self.conn().await?;
        let now = db_time(now);
        let rows: Vec<MailRow> = load_for_claim!(
            conn,
            m::mail_outbox
                .filter(m::next_attempt_at.le(now))
                .order((m::next_attempt_at, m::id))
                .limit(i64::from(limit))
                .select(MailRow::as_select())
        )
        .map_err(db)?;
        let ids: Vec<String> = rows.iter().map(|row| row.id.clone()).collect();
        let lease = db_time(lease_until);
        db_run!(conn, c => {
            diesel::update(m::mail_outbox.filter(m::id.eq_any(&ids)))
                .set(m::next_attempt_at.eq(Some(lease)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(record).collect()
    }

    async fn update_mail(&mut self, mail: &MailRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = row(mail)?;
        db_run!(conn, c => diesel::update(mail_outbox::table.find(mail.id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn mail(&mut self, id: &str) -> StoreResult<Option<MailRecord>> {
        let conn = self.conn().await?;
        let row: Option<MailRow> = db_run!(conn, c => {
            mail_outbox::table.find(id).select(MailRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(record).transpose()
    }
}

/// Mail neither sent nor given up (a due time is kept only until then), and when the
/// longest-waiting message of those due now fell due, both from the `next_attempt_at` index.
/// Run by `Store::mail_backlog` on a pooled connection, outside any unit of work.
pub(crate) async fn mail_backlog(conn: &mut DbConn, now: time::OffsetDateTime) -> StoreResult<DeliveryBacklog> {
    let n: i64 = db_run!(conn, c => {
        mail_outbox::table
            .filter(mail_outbox::next_attempt_at.is_not_null())
            .select(diesel::dsl::count_star())
            .first(c)
            .await
    })
    .map_err(db)?;
    let oldest: Option<time::PrimitiveDateTime> = db_run!(conn, c => {
        mail_outbox::table
            .filter(mail_outbox::next_attempt_at.le(db_time(now)))
            .select(diesel::dsl::min(mail_outbox::next_attempt_at))
            .first(c)
            .await
    })
    .map_err(db)?;
    Ok(DeliveryBacklog {
        pending: u64::try_from(n).map_err(|_| corrupt("negative count"))?,
        oldest_due_at: oldest.map(utc),
    })
}
