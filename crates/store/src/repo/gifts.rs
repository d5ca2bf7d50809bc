//! Gift subscriptions: `GiftRepo` for the unit of work. Redeeming and refunding are one
//! conditional UPDATE each, so of two at once exactly one changes the row.

use async_trait::async_trait;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientRef, PaymentId};
use vp_ports::store::StoreResult;
use vp_ports::{GiftRecord, GiftRepo};

use crate::convert::{db_time, db_time_opt, lang, utc};
use crate::errors::db;
use crate::models::GiftRow;
use crate::pool::db_run;
use crate::schema::gifts;
use crate::tx::StoreTx;

#[async_trait]
impl GiftRepo for StoreTx {
    async fn insert_gift(&mut self, gift: &GiftRecord) -> StoreResult<()> {
        let row = GiftRow {
            payment_id: gift.payment_id.to_string(),
            account_id: gift.account_id.to_string(),
            code_hash: gift.code_hash.clone(),
            recipient_email: gift.recipient_email.clone(),
            lang: gift.lang.code().to_owned(),
            created_at: db_time(gift.created_at),
            redeemed_at: db_time_opt(gift.redeemed_at),
            redeemed_by: gift.redeemed_by.as_ref().map(ToString::to_string),
            refunded_at: db_time_opt(gift.refunded_at),
        };
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::insert_into(gifts::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn gift(&mut self, payment_id: &str) -> StoreResult<Option<GiftRecord>> {
        let conn = self.conn().await?;
        let row: Option<GiftRow> = db_run!(conn, c => {
            gifts::table.find(payment_id).select(GiftRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(gift).transpose()
    }

    async fn gift_by_code_hash(&mut self, code_hash: &str) -> StoreResult<Option<GiftRecord>> {
        let conn = self.conn().await?;
        let row: Option<GiftRow> = db_run!(conn, c => {
            gifts::table
                .filter(gifts::code_hash.eq(code_hash))
                .select(GiftRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(gift).transpose()
    }

    async fn redeem_gift(&mut self, payment_id: &str, client_ref: &str, at: OffsetDateTime) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let changed = db_run!(conn, c => {
            diesel::update(
                gifts::table
                    .find(payment_id)
                    .filter(gifts::redeemed_at.is_null())
                    .filter(gifts::refunded_at.is_null()),
            )
            .set((gifts::redeemed_at.eq(Some(db_time(at))), gifts::redeemed_by.eq(Some(client_ref))))
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(changed == 1)
    }

    async fn refund_gift(&mut self, payment_id: &str, at: OffsetDateTime) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let changed = db_run!(conn, c => {
            diesel::update(
                gifts::table
                    .find(payment_id)
                    .filter(gifts::redeemed_at.is_null())
                    .filter(gifts::refunded_at.is_null()),
            )
            .set(gifts::refunded_at.eq(Some(db_time(at))))
            .execute(c)
            .await
        })
        .map_err(db)?;
        Ok(changed == 1)
    }

    async fn unrefund_gift(&mut self, payment_id: &str) -> StoreResult<()> {
        let conn = self.conn().await?;
        let none: Option<time::PrimitiveDateTime> = None;
        db_run!(conn, c => {
            diesel::update(gifts::table.find(payment_id)).set(gifts::refunded_at.eq(none)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn account_gifts(&mut self, account_id: &str, limit: u32) -> StoreResult<Vec<GiftRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<GiftRow> = db_run!(conn, c => {
            gifts::table
                .filter(gifts::account_id.eq(account_id))
                .order((gifts::created_at.desc(), gifts::payment_id.desc()))
                .limit(i64::from(limit))
                .select(GiftRow::as_select())
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(gift).collect()
    }
}

fn gift(r: GiftRow) -> StoreResult<GiftRecord> {
    Ok(GiftRecord {
        payment_id: PaymentId::issued(r.payment_id),
        account_id: AccountId::issued(r.account_id),
        code_hash: r.code_hash,
        recipient_email: r.recipient_email,
        lang: lang(&r.lang)?,
        created_at: utc(r.created_at),
        redeemed_at: r.redeemed_at.map(utc),
        redeemed_by: r.redeemed_by.map(ClientRef::issued),
        refunded_at: r.refunded_at.map(utc),
    })
}
