//! The accounts' web shops: `ShopRepo` for the unit of work.

use async_trait::async_trait;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, upsert::excluded};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::ShopRepo;
use vp_ports::store::StoreResult;

use crate::convert::db_time;
use crate::errors::db;
use crate::pool::db_run;
use crate::schema::{accounts, shop_slugs};
use crate::tx::StoreTx;

#[async_trait]
impl ShopRepo for StoreTx {
    async fn shop_slug(&mut self, account_id: &str) -> StoreResult<Option<String>> {
        let conn = self.conn()?;
        db_run!(conn, c => {
            shop_slugs::table.find(account_id).select(shop_slugs::slug).first::<String>(c).await.optional()
        })
        .map_err(db)
    }

    async fn shop_account(&mut self, slug: &str) -> StoreResult<Option<String>> {
        let conn = self.conn()?;
        db_run!(conn, c => {
            shop_slugs::table
                .filter(shop_slugs::slug.eq(slug))
                .select(shop_slugs::account_id)
                .first::<String>(c)
                .await
                .optional()
        })
        .map_err(db)
    }

    async fn put_shop_slug(&mut self, account_id: &str, slug: &str, at: OffsetDateTime) -> StoreResult<()> {
        let conn = self.conn()?;
        let at = db_time(at);
        db_run!(conn, c => {
            diesel::insert_into(shop_slugs::table)
                .values((shop_slugs::account_id.eq(account_id), shop_slugs::slug.eq(slug), shop_slugs::updated_at.eq(at)))
                .on_conflict(shop_slugs::account_id)
                .do_update()
                .set((shop_slugs::slug.eq(excluded(shop_slugs::slug)), shop_slugs::updated_at.eq(excluded(shop_slugs::updated_at))))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn accounts_without_shop(&mut self, limit: u32) -> StoreResult<Vec<String>> {
        let conn = self.conn()?;
        db_run!(conn, c => {
            accounts::table
                .filter(accounts::id.ne_all(shop_slugs::table.select(shop_slugs::account_id)))
                .order(accounts::id)
                .select(accounts::id)
                .limit(i64::from(limit))
                .load::<String>(c)
                .await
        })
        .map_err(db)
    }
}
