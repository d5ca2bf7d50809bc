//! Partners' own bots.

use async_trait::async_trait;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use vp_ports::store::StoreResult;
use vp_ports::{BotRepo, PartnerBotRecord};

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::db;
use crate::models::PartnerBotRow;
use crate::pool::{DbConn, db_run};
use crate::schema::partner_bots;
use crate::tx::StoreTx;

fn row(b: &PartnerBotRecord) -> PartnerBotRow {
    PartnerBotRow {
        account_id: b.account_id.clone(),
        bot_id: b.bot_id,
        username: b.username.clone(),
        token_hash: b.token_hash.clone(),
        token_sealed: b.token_sealed.clone(),
        connected_at: db_time(b.connected_at),
        disconnected_at: db_time_opt(b.disconnected_at),
    }
}

fn record(r: PartnerBotRow) -> PartnerBotRecord {
    PartnerBotRecord {
        account_id: r.account_id,
        bot_id: r.bot_id,
        username: r.username,
        token_hash: r.token_hash,
        token_sealed: r.token_sealed,
        connected_at: utc(r.connected_at),
        disconnected_at: r.disconnected_at.map(utc),
    }
}

pub(crate) async fn insert(conn: &mut DbConn, bot: &PartnerBotRecord) -> StoreResult<()> {
    let row = row(bot);
    db_run!(conn, c => diesel::insert_into(partner_bots::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn update(conn: &mut DbConn, bot: &PartnerBotRecord) -> StoreResult<()> {
    let row = row(bot);
    db_run!(conn, c => diesel::update(partner_bots::table.find(&bot.account_id)).set(&row).execute(c).await)
        .map_err(db)?;
    Ok(())
}

pub(crate) async fn by_account(conn: &mut DbConn, account_id: &str) -> StoreResult<Option<PartnerBotRecord>> {
    let found: Option<PartnerBotRow> = db_run!(conn, c => {
        partner_bots::table.find(account_id).select(PartnerBotRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(found.map(record))
}

pub(crate) async fn by_token(
    conn: &mut DbConn,
    token_hash: &str,
    bot_id: i64,
) -> StoreResult<Option<PartnerBotRecord>> {
    use partner_bots::dsl as b;
    let found: Option<PartnerBotRow> = db_run!(conn, c => {
        b::partner_bots
            .filter(b::token_hash.eq(token_hash).or(b::bot_id.eq(bot_id)))
            .select(PartnerBotRow::as_select())
            .first(c)
            .await
            .optional()
    })
    .map_err(db)?;
    Ok(found.map(record))
}

pub(crate) async fn delete(conn: &mut DbConn, account_id: &str) -> StoreResult<bool> {
    let gone = db_run!(conn, c => diesel::delete(partner_bots::table.find(account_id)).execute(c).await).map_err(db)?;
    Ok(gone > 0)
}

pub(crate) async fn all(conn: &mut DbConn) -> StoreResult<Vec<PartnerBotRecord>> {
    let rows: Vec<PartnerBotRow> = db_run!(conn, c => {
        partner_bots::table.select(PartnerBotRow::as_select()).order(partner_bots::account_id).load(c).await
    })
    .map_err(db)?;
    Ok(rows.into_iter().map(record).collect())
}

#[async_trait]
impl BotRepo for StoreTx {
    async fn insert_partner_bot(&mut self, bot: &PartnerBotRecord) -> StoreResult<()> {
        insert(self.conn()?, bot).await
    }

    async fn update_partner_bot(&mut self, bot: &PartnerBotRecord) -> StoreResult<()> {
        update(self.conn()?, bot).await
    }

    async fn partner_bot(&mut self, account_id: &str) -> StoreResult<Option<PartnerBotRecord>> {
        by_account(self.conn()?, account_id).await
    }

    async fn partner_bot_by_token(&mut self, token_hash: &str, bot_id: i64) -> StoreResult<Option<PartnerBotRecord>> {
        by_token(self.conn()?, token_hash, bot_id).await
    }

    async fn delete_partner_bot(&mut self, account_id: &str) -> StoreResult<bool> {
        delete(self.conn()?, account_id).await
    }

    async fn partner_bots(&mut self) -> StoreResult<Vec<PartnerBotRecord>> {
        all(self.conn()?).await
    }
}
