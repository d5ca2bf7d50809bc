//! Accounts (with the link their customers renew at) and their API keys: `AccountRepo` for the
//! unit of work. The account lock and the key lookup stay functions on a connection, for `tx.rs`.

use async_trait::async_trait;
use vp_ports::AccountRepo;

use crate::tx::StoreTx;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_ports::records::{AccountRecord, ApiKeyRecord};
use vp_ports::store::StoreResult;

use crate::convert::{self, db_time};
use crate::errors::db;
use crate::models::{AccountRow, ApiKeyRow};
use crate::pool::{DbConn, db_run};
use crate::schema::{accounts, api_keys};

/// `Tx::lock_account` (`tx.rs`): the unit of work's own method, not a port of this area's.
/// The account's lock (docs/decisions.md, "Lock order"): `FOR NO KEY UPDATE` on PostgreSQL,
/// which excludes every other unit taking the account (`FOR SHARE` beside one client's lock
/// included) but not the `FOR KEY SHARE` a new client's foreign key takes, so an insert of a
/// client never waits for an account-wide unit, which may be waiting for that insert's quota
/// lock. Nothing on SQLite, whose `BEGIN IMMEDIATE` serialises every writer.
pub(crate) async fn lock_account(conn: &mut DbConn, account_id: &str) -> StoreResult<()> {
    let DbConn::Postgres(object) = conn else { return Ok(()) };
    let c: &mut crate::pool::PgConn = object;
    accounts::table
        .find(account_id)
        .select(accounts::id)
        .for_no_key_update()
        .first::<String>(c)
        .await
        .optional()
        .map(|_| ())
        .map_err(crate::errors::db)
}

/// The key and its account in one statement: the hot path of every partner request. Run by
/// `Store::account_by_key_hash` on a pooled connection, outside any unit of work.
pub(crate) async fn account_by_key_hash(
    conn: &mut DbConn,
    key_hash: &str,
) -> StoreResult<Option<(ApiKeyRecord, AccountRecord)>> {
    let row: Option<(ApiKeyRow, AccountRow)> = db_run!(conn, c => {
        api_keys::table
            .inner_join(accounts::table)
            .filter(api_keys::key_hash.eq(key_hash))
            .select((ApiKeyRow::as_select(), AccountRow::as_select()))
            .first(c)
            .await
            .optional()
    })
    .map_err(db)?;
    row.map(|(k, a)| Ok((convert::api_key(k), convert::account(a)?))).transpose()
}

#[async_trait]
impl AccountRepo for StoreTx {
    async fn insert_account(&mut self, account: &AccountRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::account_row(account)?;
        db_run!(conn, c => diesel::insert_into(accounts::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn update_account(&mut self, account: &AccountRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::account_row(account)?;
        db_run!(conn, c => diesel::update(accounts::table.find(account.id.as_str())).set(&row).execute(c).await)
            .map_err(db)?;
        Ok(())
    }

    async fn account(&mut self, id: &str) -> StoreResult<Option<AccountRecord>> {
        let conn = self.conn().await?;
        let row: Option<AccountRow> = db_run!(conn, c => {
            accounts::table.find(id).select(AccountRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(convert::account).transpose()
    }

    async fn accounts(&mut self) -> StoreResult<Vec<AccountRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<AccountRow> = db_run!(conn, c => {
            accounts::table.select(AccountRow::as_select()).order((accounts::created_at, accounts::id)).load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(convert::account).collect()
    }

    async fn insert_api_key(&mut self, key: &ApiKeyRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::api_key_row(key);
        db_run!(conn, c => diesel::insert_into(api_keys::table).values(&row).execute(c).await).map_err(db)?;
        Ok(())
    }

    async fn api_key(&mut self, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
        let conn = self.conn().await?;
        let row: Option<ApiKeyRow> = db_run!(conn, c => {
            api_keys::table.find(id).select(ApiKeyRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(convert::api_key))
    }

    async fn api_keys(&mut self, account_id: &str) -> StoreResult<Vec<ApiKeyRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<ApiKeyRow> = db_run!(conn, c => {
            api_keys::table
                .filter(api_keys::account_id.eq(account_id))
                .select(ApiKeyRow::as_select())
                .order((api_keys::created_at, api_keys::id))
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(convert::api_key).collect())
    }

    async fn revoke_api_key(&mut self, id: &str, at: OffsetDateTime) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let at = db_time(at);
        let changed = db_run!(conn, c => {
            diesel::update(api_keys::table.find(id).filter(api_keys::revoked_at.is_null()))
                .set(api_keys::revoked_at.eq(Some(at)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(changed == 1)
    }

    async fn renewal_url(&mut self, account_id: &str) -> StoreResult<Option<String>> {
        let conn = self.conn().await?;
        let found: Option<Option<String>> = db_run!(conn, c => {
            accounts::table.find(account_id).select(accounts::renewal_url).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(found.flatten())
    }

    async fn set_renewal_url(&mut self, account_id: &str, url: Option<&str>) -> StoreResult<()> {
        let conn = self.conn().await?;
        db_run!(conn, c => {
            diesel::update(accounts::table.find(account_id)).set(accounts::renewal_url.eq(url)).execute(c).await
        })
        .map_err(db)?;
        Ok(())
    }
}
