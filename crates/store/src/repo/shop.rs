//! The accounts' web shops: `ShopRepo` for the unit of work.

use async_trait::async_trait;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, upsert::excluded};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::store::StoreResult;
use vp_ports::{ShopCustomer, ShopRepo};

use crate::convert::{db_time, lang, utc};
use crate::errors::db;
use crate::pool::db_run;
use crate::schema::{accounts, shop_customers, shop_slugs};
use crate::tx::StoreTx;

type CustomerRow = (String, String, String, String, String, time::PrimitiveDateTime);

const CUSTOMER_COLUMNS: (
    shop_customers::account_id,
    shop_customers::email,
    shop_customers::client_ref,
    shop_customers::lang,
    shop_customers::first_payment_id,
    shop_customers::created_at,
) = (
    shop_customers::account_id,
    shop_customers::email,
    shop_customers::client_ref,
    shop_customers::lang,
    shop_customers::first_payment_id,
    shop_customers::created_at,
);

fn customer(row: Option<CustomerRow>) -> StoreResult<Option<ShopCustomer>> {
    let Some((account_id, email, client_ref, code, first_payment_id, created_at)) = row else { return Ok(None) };
    Ok(Some(ShopCustomer {
        account_id,
        email,
        client_ref,
        lang: lang(&code)?,
        first_payment_id,
        created_at: utc(created_at),
    }))
}

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

    async fn shop_customer(&mut self, account_id: &str, email: &str) -> StoreResult<Option<ShopCustomer>> {
        let conn = self.conn()?;
        let row = db_run!(conn, c => {
            shop_customers::table.find((account_id, email)).select(CUSTOMER_COLUMNS).first::<CustomerRow>(c).await.optional()
        })
        .map_err(db)?;
        customer(row)
    }

    async fn shop_customer_of_client(&mut self, client_ref: &str) -> StoreResult<Option<ShopCustomer>> {
        let conn = self.conn()?;
        let row = db_run!(conn, c => {
            shop_customers::table
                .filter(shop_customers::client_ref.eq(client_ref))
                .select(CUSTOMER_COLUMNS)
                .first::<CustomerRow>(c)
                .await
                .optional()
        })
        .map_err(db)?;
        customer(row)
    }

    async fn add_shop_customer(&mut self, customer: &ShopCustomer) -> StoreResult<bool> {
        let conn = self.conn()?;
        let at = db_time(customer.created_at);
        let inserted = db_run!(conn, c => {
            diesel::insert_into(shop_customers::table)
                .values((
                    shop_customers::account_id.eq(&customer.account_id),
                    shop_customers::email.eq(&customer.email),
                    shop_customers::client_ref.eq(&customer.client_ref),
                    shop_customers::lang.eq(customer.lang.code()),
                    shop_customers::first_payment_id.eq(&customer.first_payment_id),
                    shop_customers::created_at.eq(at),
                ))
                .on_conflict_do_nothing()
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(inserted == 1)
    }
}
