//! Accounts and their API keys.

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

pub(crate) async fn lock_account(conn: &mut DbConn, account_id: &str) -> StoreResult<()> {
    match conn {
        // `BEGIN IMMEDIATE` already serialises every writer.
        DbConn::Sqlite(_) => Ok(()),
        DbConn::Postgres(object) => {
            let c: &mut crate::pool::PgConn = object;
            accounts::table
                .find(account_id)
                .select(accounts::id)
                .for_update()
                .first::<String>(c)
                .await
                .optional()
                .map(|_| ())
                .map_err(db)
        }
    }
}

pub(crate) async fn insert_account(conn: &mut DbConn, account: &AccountRecord) -> StoreResult<()> {
    let row = convert::account_row(account)?;
    db_run!(conn, c => diesel::insert_into(accounts::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn update_account(conn: &mut DbConn, account: &AccountRecord) -> StoreResult<()> {
    let row = convert::account_row(account)?;
    db_run!(conn, c => diesel::update(accounts::table.find(&account.id)).set(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn account(conn: &mut DbConn, id: &str) -> StoreResult<Option<AccountRecord>> {
    let row: Option<AccountRow> = db_run!(conn, c => {
        accounts::table.find(id).select(AccountRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    row.map(convert::account).transpose()
}

pub(crate) async fn accounts(conn: &mut DbConn) -> StoreResult<Vec<AccountRecord>> {
    let rows: Vec<AccountRow> = db_run!(conn, c => {
        accounts::table.select(AccountRow::as_select()).order((accounts::created_at, accounts::id)).load(c).await
    })
    .map_err(db)?;
    rows.into_iter().map(convert::account).collect()
}

pub(crate) async fn insert_api_key(conn: &mut DbConn, key: &ApiKeyRecord) -> StoreResult<()> {
    let row = convert::api_key_row(key);
    db_run!(conn, c => diesel::insert_into(api_keys::table).values(&row).execute(c).await).map_err(db)?;
    Ok(())
}

pub(crate) async fn api_key(conn: &mut DbConn, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
    let row: Option<ApiKeyRow> = db_run!(conn, c => {
        api_keys::table.find(id).select(ApiKeyRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(row.map(convert::api_key))
}

/// The key and its account in one statement: the hot path of every partner request.
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

pub(crate) async fn api_keys(conn: &mut DbConn, account_id: &str) -> StoreResult<Vec<ApiKeyRecord>> {
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

pub(crate) async fn revoke_api_key(conn: &mut DbConn, id: &str, at: OffsetDateTime) -> StoreResult<bool> {
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

#[async_trait]
impl AccountRepo for StoreTx {
    async fn insert_account(&mut self, account: &AccountRecord) -> StoreResult<()> {
        insert_account(self.conn()?, account).await
    }

    async fn update_account(&mut self, account: &AccountRecord) -> StoreResult<()> {
        update_account(self.conn()?, account).await
    }

    async fn account(&mut self, id: &str) -> StoreResult<Option<AccountRecord>> {
        account(self.conn()?, id).await
    }

    async fn accounts(&mut self) -> StoreResult<Vec<AccountRecord>> {
        accounts(self.conn()?).await
    }

    async fn insert_api_key(&mut self, key: &ApiKeyRecord) -> StoreResult<()> {
        insert_api_key(self.conn()?, key).await
    }

    async fn api_key(&mut self, id: &str) -> StoreResult<Option<ApiKeyRecord>> {
        api_key(self.conn()?, id).await
    }

    async fn api_keys(&mut self, account_id: &str) -> StoreResult<Vec<ApiKeyRecord>> {
        api_keys(self.conn()?, account_id).await
    }

    async fn revoke_api_key(&mut self, id: &str, at: OffsetDateTime) -> StoreResult<bool> {
        revoke_api_key(self.conn()?, id, at).await
    }
}
