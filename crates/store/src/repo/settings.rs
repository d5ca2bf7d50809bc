//! Operator settings: named values (applications, documents, stand-in modes, the shifted clock).

use async_trait::async_trait;
use vp_ports::SettingsRepo;

use crate::tx::StoreTx;
use diesel::{OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use vp_ports::records::SettingRecord;
use vp_ports::store::StoreResult;

use crate::convert;
use crate::errors::db;
use crate::models::SettingRow;
use crate::pool::{DbConn, db_run, upsert};
use crate::schema::settings;

pub(crate) async fn setting(conn: &mut DbConn, key: &str) -> StoreResult<Option<SettingRecord>> {
    let row: Option<SettingRow> = db_run!(conn, c => {
        settings::table.find(key).select(SettingRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(row.map(convert::setting))
}

pub(crate) async fn put_setting(conn: &mut DbConn, setting: &SettingRecord) -> StoreResult<()> {
    let row = convert::setting_row(setting);
    upsert!(conn, settings::table, settings::key, &row)
}

#[async_trait]
impl SettingsRepo for StoreTx {
    async fn setting(&mut self, key: &str) -> StoreResult<Option<SettingRecord>> {
        setting(self.conn()?, key).await
    }

    async fn put_setting(&mut self, setting: &SettingRecord) -> StoreResult<()> {
        put_setting(self.conn()?, setting).await
    }
}
