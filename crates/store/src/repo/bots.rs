//! Partners' own bots and the updates they received: `BotRepo` for the unit of work.

use async_trait::async_trait;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use vp_domain::AccountId;
use vp_ports::store::StoreResult;
use vp_ports::{BotCreateCode, BotRepo, PartnerBotRecord, WebhookRegistration};

use crate::convert::{db_time, db_time_opt, utc};
use crate::errors::db;
use crate::models::{BotCreateCodeRow, PartnerBotRow};
use crate::pool::{db_run, load_for_claim};
use crate::schema::{bot_create_codes, bot_updates, partner_bots};
use crate::tx::StoreTx;

fn row(b: &PartnerBotRecord) -> PartnerBotRow {
    PartnerBotRow {
        account_id: b.account_id.to_string(),
        bot_id: b.bot_id,
        username: b.username.clone(),
        token_hash: b.token_hash.clone(),
        token_sealed: b.token_sealed.clone(),
        connected_at: db_time(b.connected_at),
        disconnected_at: db_time_opt(b.disconnected_at),
        profile_revision: b.profile_revision,
        profile_synced: b.profile_synced,
        profile_attempts: i32::try_from(b.profile_attempts).unwrap_or(i32::MAX),
        profile_retry_at: db_time_opt(b.profile_retry_at),
        profile_error: b.profile_error.clone(),
        webhook: b.webhook.as_ref().map(WebhookRegistration::to_stored),
        managed: b.managed,
    }
}

fn record(r: PartnerBotRow) -> PartnerBotRecord {
    PartnerBotRecord {
        account_id: AccountId::issued(r.account_id),
        bot_id: r.bot_id,
        username: r.username,
        token_hash: r.token_hash,
        token_sealed: r.token_sealed,
        connected_at: utc(r.connected_at),
        disconnected_at: r.disconnected_at.map(utc),
        profile_revision: r.profile_revision,
        profile_synced: r.profile_synced,
        profile_attempts: u32::try_from(r.profile_attempts).unwrap_or(0),
        profile_retry_at: r.profile_retry_at.map(utc),
        profile_error: r.profile_error,
        webhook: r.webhook.as_deref().and_then(WebhookRegistration::from_stored),
        managed: r.managed,
    }
}

#[async_trait]
impl BotRepo for StoreTx {
    async fn insert_partner_bot(&mut self, bot: &PartnerBotRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = row(bot);
        db_run!(conn, c => diesel::insert_into(partner_bots::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_partner_bot(&mut self, bot: &PartnerBotRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = row(bot);
        db_run!(conn, c => diesel::update(partner_bots::table.find(bot.account_id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn partner_bot(&mut self, account_id: &str) -> StoreResult<Option<PartnerBotRecord>> {
        let conn = self.conn().await?;
        let found: Option<PartnerBotRow> = db_run!(conn, c => {
            partner_bots::table.find(account_id).select(PartnerBotRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(found.map(record))
    }

    async fn partner_bot_by_token(&mut self, token_hash: &str, bot_id: i64) -> StoreResult<Option<PartnerBotRecord>> {
        use partner_bots::dsl as b;
        let conn = self.conn().await?;
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

    async fn delete_partner_bot(&mut self, account_id: &str) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let gone =
            db_run!(conn, c => diesel::delete(partner_bots::table.find(account_id)).execute(c).await).map_err(db)?;
        Ok(gone > 0)
    }

    async fn partner_bots(&mut self) -> StoreResult<Vec<PartnerBotRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<PartnerBotRow> = db_run!(conn, c => {
            partner_bots::table.select(PartnerBotRow::as_select()).order(partner_bots::account_id).load(c).await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(record).collect())
    }

    async fn partner_bot_by_id(&mut self, bot_id: i64) -> StoreResult<Option<PartnerBotRecord>> {
        use partner_bots::dsl as b;
        let conn = self.conn().await?;
        let found: Option<PartnerBotRow> = db_run!(conn, c => {
            b::partner_bots.filter(b::bot_id.eq(bot_id)).select(PartnerBotRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(found.map(record))
    }

    async fn set_partner_bot_webhook(
        &mut self,
        account_id: &str,
        webhook: Option<&WebhookRegistration>,
    ) -> StoreResult<()> {
        use partner_bots::dsl as b;
        let webhook = webhook.map(WebhookRegistration::to_stored);
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(b::partner_bots.find(account_id)).set(b::webhook.eq(webhook)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn claim_bot_update(&mut self, bot_id: i64, update_id: i64, at: OffsetDateTime) -> StoreResult<bool> {
        use bot_updates::dsl as u;
        let conn = self.conn().await?;
        let at = db_time(at);
        let inserted = db_run!(conn, c => {
            diesel::insert_into(u::bot_updates)
                .values((u::bot_id.eq(bot_id), u::update_id.eq(update_id), u::received_at.eq(at)))
                .on_conflict_do_nothing()
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(inserted > 0)
    }

    async fn prune_bot_updates(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        use bot_updates::dsl as u;
        let conn = self.conn().await?;
        let before = db_time(before);
        let gone =
            db_run!(conn, c => diesel::delete(u::bot_updates.filter(u::received_at.lt(before))).execute(c).await)
                .map_err(db)?;
        Ok(u64::try_from(gone).unwrap_or(0))
    }

    async fn bump_bot_profile(&mut self, account_id: &str) -> StoreResult<bool> {
        use partner_bots::dsl as b;
        let conn = self.conn().await?;
        let changed = db_run!(conn, c => {
            diesel::update(b::partner_bots.find(account_id))
                .set((
                    b::profile_revision.eq(b::profile_revision + 1),
                    b::profile_attempts.eq(0),
                    b::profile_retry_at.eq(None::<PrimitiveDateTime>),
                ))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(changed > 0)
    }

    async fn claim_bot_profiles(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: u32,
    ) -> StoreResult<Vec<PartnerBotRecord>> {
        use partner_bots::dsl as b;
        let conn = self.conn().await?;
        let now = db_time(now);
        let rows: Vec<PartnerBotRow> = load_for_claim!(
            conn,
            b::partner_bots
                .filter(b::disconnected_at.is_null())
                .filter(b::profile_synced.lt(b::profile_revision))
                .filter(b::profile_retry_at.is_null().or(b::profile_retry_at.le(now)))
                .order(b::account_id)
                .limit(i64::from(limit))
                .select(PartnerBotRow::as_select())
        )
        .map_err(db)?;
        let ids: Vec<String> = rows.iter().map(|r| r.account_id.clone()).collect();
        let lease = db_time(lease_until);
        db_run!(conn, c => {
            diesel::update(b::partner_bots.filter(b::account_id.eq_any(&ids))).set(b::profile_retry_at.eq(Some(lease))).execute(c).await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(record).collect())
    }

    async fn mark_bot_profile_synced(&mut self, account_id: &str, revision: i64) -> StoreResult<()> {
        use partner_bots::dsl as b;
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(b::partner_bots.find(account_id).filter(b::profile_synced.lt(revision)))
                .set((
                    b::profile_synced.eq(revision),
                    b::profile_attempts.eq(0),
                    b::profile_retry_at.eq(None::<PrimitiveDateTime>),
                    b::profile_error.eq(None::<String>),
                ))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn defer_bot_profile(&mut self, account_id: &str, retry_at: OffsetDateTime, error: &str) -> StoreResult<()> {
        use partner_bots::dsl as b;
        let conn = self.conn().await?;
        let retry_at = db_time(retry_at);
        db_run!(conn, c => {
            diesel::update(b::partner_bots.find(account_id))
                .set((
                    b::profile_attempts.eq(b::profile_attempts + 1),
                    b::profile_retry_at.eq(Some(retry_at)),
                    b::profile_error.eq(Some(error)),
                ))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn insert_bot_create_code(&mut self, code: &BotCreateCode) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = BotCreateCodeRow {
            code_hash: code.code_hash.clone(),
            account_id: code.account_id.to_string(),
            request_id: code.request_id,
            requested_by_user: code.requested_by_user.clone(),
            requested_by: code.requested_by.clone(),
            lang: code.lang.code().to_owned(),
            expires_at: db_time(code.expires_at),
            opened_by: code.opened_by,
        };
        db_run!(conn, c => diesel::insert_into(bot_create_codes::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn bot_create_code(&mut self, code_hash: &str) -> StoreResult<Option<BotCreateCode>> {
        let conn = self.conn().await?;
        let row: Option<BotCreateCodeRow> = db_run!(conn, c => {
            bot_create_codes::table.find(code_hash).select(BotCreateCodeRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(create_code).transpose()
    }

    async fn open_bot_create_code(&mut self, code_hash: &str, user_id: i64) -> StoreResult<()> {
        use bot_create_codes::dsl as k;
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(k::bot_create_codes.find(code_hash).filter(k::opened_by.is_null()))
                .set(k::opened_by.eq(user_id))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn bot_create_code_opened_by(
        &mut self,
        user_id: i64,
        now: OffsetDateTime,
    ) -> StoreResult<Option<BotCreateCode>> {
        use bot_create_codes::dsl as k;
        let conn = self.conn().await?;
        let row: Option<BotCreateCodeRow> = db_run!(conn, c => {
            k::bot_create_codes
                .filter(k::opened_by.eq(user_id))
                .filter(k::expires_at.gt(db_time(now)))
                .order(k::expires_at.desc())
                .select(BotCreateCodeRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(create_code).transpose()
    }

    async fn delete_bot_create_code(&mut self, code_hash: &str) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let gone =
            db_run!(conn, c => diesel::delete(bot_create_codes::table.find(code_hash)).execute(c).await).map_err(db)?;
        Ok(gone > 0)
    }

    async fn prune_bot_create_codes(&mut self, before: OffsetDateTime) -> StoreResult<u64> {
        let conn = self.conn().await?;
        let gone = db_run!(conn, c => {
            diesel::delete(bot_create_codes::table.filter(bot_create_codes::expires_at.lt(db_time(before))))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(gone as u64)
    }
}

fn create_code(r: BotCreateCodeRow) -> StoreResult<BotCreateCode> {
    Ok(BotCreateCode {
        lang: crate::convert::lang(&r.lang)?,
        code_hash: r.code_hash,
        account_id: AccountId::issued(r.account_id),
        request_id: r.request_id,
        requested_by_user: r.requested_by_user,
        requested_by: r.requested_by,
        expires_at: utc(r.expires_at),
        opened_by: r.opened_by,
    })
}
