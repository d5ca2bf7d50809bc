//! Broadcasts and their chats: `BroadcastRepo` for the unit of work. A broadcast's chats are
//! written with it, in chunks (a statement binds at most 65,535 values on PostgreSQL), and taken
//! by claims like every outbox.

use std::collections::HashSet;

use async_trait::async_trait;
use diesel::dsl::sql;
use diesel::sql_types::BigInt;
use diesel::{
    BoolExpressionMethods, ExpressionMethods, JoinOnDsl, NullableExpressionMethods, OptionalExtension, QueryDsl,
    SelectableHelper,
};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::InvoiceStatus;
use vp_domain::broadcast::{BroadcastButton, BroadcastState, BroadcastText, RecipientState};
use vp_ports::store::StoreResult;
use vp_ports::{BotAudienceMember, BroadcastChat, BroadcastCounts, BroadcastRecord, BroadcastRepo, Claim};

use crate::convert::{count, db_time, db_time_opt, int, lang, utc};
use crate::errors::{corrupt, db};
use crate::models::{BroadcastChatRow, BroadcastRow, ClientRow, SubscriptionRow};
use crate::pool::{db_run, insert_rows, load_for_claim};
use crate::schema::{bot_chat_languages, bot_customers, broadcast_chats, broadcasts, clients, invoices, subscriptions};
use crate::tx::StoreTx;

/// Chats written per statement: 8 values each.
const CHATS_PER_INSERT: usize = 1000;

fn row(b: &BroadcastRecord) -> BroadcastRow {
    BroadcastRow {
        id: b.id.clone(),
        account_id: b.account_id.to_string(),
        text: b.text.as_str().to_owned(),
        text_ru: b.text_ru.as_ref().map(|t| t.as_str().to_owned()),
        button_text: b.button.as_ref().map(|x| x.text.clone()),
        button_url: b.button.as_ref().map(|x| x.url.clone()),
        audience: b.audience.as_str().to_owned(),
        state: b.state.as_str().to_owned(),
        created_at: db_time(b.created_at),
        finished_at: db_time_opt(b.finished_at),
    }
}

fn record(r: BroadcastRow) -> StoreResult<BroadcastRecord> {
    let bad = |what: String| corrupt(format!("broadcast {}: {what}", r.id));
    let text = |t: &str| BroadcastText::parse(t).map_err(|e| bad(e.to_string()));
    let button =
        BroadcastButton::parse(r.button_text.as_deref(), r.button_url.as_deref()).map_err(|e| bad(e.to_string()))?;
    Ok(BroadcastRecord {
        text: text(&r.text)?,
        text_ru: r.text_ru.as_deref().map(text).transpose()?,
        button,
        audience: r.audience.parse().map_err(|_| bad(format!("audience {:?}", r.audience)))?,
        state: BroadcastState::from_code(&r.state).ok_or_else(|| bad(format!("state {:?}", r.state)))?,
        created_at: utc(r.created_at),
        finished_at: r.finished_at.map(utc),
        id: r.id,
        account_id: AccountId::issued(r.account_id),
    })
}

fn chat_row(c: &BroadcastChat) -> StoreResult<BroadcastChatRow> {
    Ok(BroadcastChatRow {
        broadcast_id: c.broadcast_id.clone(),
        chat_id: c.chat_id,
        lang: c.lang.code().to_owned(),
        state: c.state.as_str().to_owned(),
        attempts: int(c.attempts, "attempts")?,
        next_attempt_at: db_time_opt(c.next_attempt_at),
        sent_at: db_time_opt(c.sent_at),
        last_error: c.last_error.clone(),
    })
}

fn chat(r: BroadcastChatRow) -> StoreResult<BroadcastChat> {
    Ok(BroadcastChat {
        lang: lang(&r.lang)?,
        state: RecipientState::from_code(&r.state)
            .ok_or_else(|| corrupt(format!("broadcast chat state {:?}", r.state)))?,
        attempts: count(r.attempts, "attempts")?,
        next_attempt_at: r.next_attempt_at.map(utc),
        sent_at: r.sent_at.map(utc),
        last_error: r.last_error,
        broadcast_id: r.broadcast_id,
        chat_id: r.chat_id,
    })
}

#[async_trait]
impl BroadcastRepo for StoreTx {
    async fn bot_audience(&mut self, account_id: &str) -> StoreResult<Vec<BotAudienceMember>> {
        use bot_chat_languages as l;
        use bot_customers as b;
        type Row = (i64, Option<ClientRow>, Option<SubscriptionRow>, Option<String>);
        let conn = self.conn().await?;
        let account = account_id.to_owned();
        let rows: Vec<Row> = db_run!(conn, c => {
            b::table
                .left_join(clients::table.on(clients::id.nullable().eq(b::client_ref)))
                .left_join(subscriptions::table.on(subscriptions::client_ref.eq(clients::id)))
                .left_join(l::table.on(l::account_id.eq(b::account_id).and(l::chat_id.eq(b::chat_id))))
                .filter(b::account_id.eq(&account))
                .filter(b::refused_at.is_null())
                .order(b::user_id)
                .select((
                    b::chat_id,
                    Option::<ClientRow>::as_select(),
                    Option::<SubscriptionRow>::as_select(),
                    l::lang.nullable(),
                ))
                .load(c)
                .await
        })
        .map_err(db)?;
        let paid = InvoiceStatus::Succeeded.as_str();
        let payers: Vec<String> = db_run!(conn, c => {
            invoices::table
                .inner_join(b::table.on(b::client_ref.eq(invoices::client_ref.nullable())))
                .filter(b::account_id.eq(&account))
                .filter(invoices::status.eq(paid))
                .select(invoices::client_ref)
                .distinct()
                .load(c)
                .await
        })
        .map_err(db)?;
        let payers: HashSet<String> = payers.into_iter().collect();
        rows.into_iter()
            .map(|(chat_id, client, sub, language)| {
                let client = client.map(|c| crate::convert::client(c, sub)).transpose()?;
                Ok(BotAudienceMember {
                    chat_id,
                    lang: language.as_deref().map(lang).transpose()?,
                    paid_ever: client.as_ref().is_some_and(|c| payers.contains(c.id.as_str())),
                    client,
                })
            })
            .collect()
    }

    async fn insert_broadcast(&mut self, broadcast: &BroadcastRecord, chats: &[BroadcastChat]) -> StoreResult<()> {
        let conn = self.conn().await?;
        let head = row(broadcast);
        db_run!(conn, c => diesel::insert_into(broadcasts::table).values(&head).execute(c).await).map_err(db)?;
        for part in chats.chunks(CHATS_PER_INSERT) {
            let rows = part.iter().map(chat_row).collect::<StoreResult<Vec<_>>>()?;
            insert_rows!(conn, broadcast_chats::table, &rows);
        }
        Ok(())
    }

    async fn broadcast(&mut self, id: &str) -> StoreResult<Option<BroadcastRecord>> {
        let conn = self.conn().await?;
        let found: Option<BroadcastRow> = db_run!(conn, c => {
            broadcasts::table.find(id).select(BroadcastRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        found.map(record).transpose()
    }

    async fn broadcasts(&mut self, account_id: &str, limit: u32) -> StoreResult<Vec<BroadcastRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<BroadcastRow> = db_run!(conn, c => {
            broadcasts::table
                .filter(broadcasts::account_id.eq(account_id))
                .order((broadcasts::created_at.desc(), broadcasts::id.desc()))
                .limit(i64::from(limit))
                .select(BroadcastRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(record).collect()
    }

    async fn set_broadcast_state(
        &mut self,
        id: &str,
        state: BroadcastState,
        finished_at: Option<OffsetDateTime>,
    ) -> StoreResult<()> {
        let conn = self.conn().await?;
        let finished = db_time_opt(finished_at);
        db_run!(conn, c => {
            diesel::update(broadcasts::table.find(id))
                .set((broadcasts::state.eq(state.as_str()), broadcasts::finished_at.eq(finished)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn broadcast_counts(&mut self, id: &str) -> StoreResult<BroadcastCounts> {
        let conn = self.conn().await?;
        let rows: Vec<(String, i64)> = db_run!(conn, c => {
            broadcast_chats::table
                .filter(broadcast_chats::broadcast_id.eq(id))
                .group_by(broadcast_chats::state)
                .select((broadcast_chats::state, sql::<BigInt>("COUNT(*)")))
                .load(c)
                .await
        })
        .map_err(db)?;
        let mut counts = BroadcastCounts::default();
        for (state, n) in rows {
            let n = u64::try_from(n).unwrap_or(0);
            match RecipientState::from_code(&state) {
                Some(RecipientState::Sent) => counts.sent = n,
                Some(RecipientState::Blocked) => counts.blocked = n,
                Some(RecipientState::Failed) => counts.failed = n,
                Some(RecipientState::Left) => counts.left = n,
                None => return Err(corrupt(format!("broadcast chat state {state:?}"))),
            }
        }
        Ok(counts)
    }

    async fn sending_broadcasts(&mut self, limit: u32) -> StoreResult<Vec<BroadcastRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<BroadcastRow> = db_run!(conn, c => {
            broadcasts::table
                .filter(broadcasts::state.eq(BroadcastState::Sending.as_str()))
                .order((broadcasts::created_at, broadcasts::id))
                .limit(i64::from(limit))
                .select(BroadcastRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(record).collect()
    }

    async fn claim_broadcast_chats(&mut self, broadcast_id: &str, claim: Claim) -> StoreResult<Vec<BroadcastChat>> {
        use broadcast_chats::dsl as b;
        let Claim { now, lease_until, limit } = claim;
        let conn = self.conn().await?;
        let now = db_time(now);
        let rows: Vec<BroadcastChatRow> = load_for_claim!(
            conn,
            b::broadcast_chats
                .filter(b::broadcast_id.eq(broadcast_id))
                .filter(b::state.eq(RecipientState::Left.as_str()))
                .filter(b::next_attempt_at.le(now))
                .order((b::next_attempt_at, b::chat_id))
                .limit(i64::from(limit))
                .select(BroadcastChatRow::as_select())
        )
        .map_err(db)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.chat_id).collect();
        let lease = db_time(lease_until);
        db_run!(conn, c => {
            diesel::update(b::broadcast_chats.filter(b::broadcast_id.eq(broadcast_id)).filter(b::chat_id.eq_any(&ids)))
                .set(b::next_attempt_at.eq(Some(lease)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(chat).collect()
    }

    async fn update_broadcast_chat(&mut self, c: &BroadcastChat) -> StoreResult<()> {
        let row = chat_row(c)?;
        let conn = self.conn().await?;
        let key = (c.broadcast_id.as_str(), c.chat_id);
        db_run!(conn, conn => diesel::update(broadcast_chats::table.find(key)).set(&row).execute(conn).await)
            .map_err(db)?;
        Ok(())
    }
}
