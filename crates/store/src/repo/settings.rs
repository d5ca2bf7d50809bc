//! Operator settings: named values (applications, documents, stand-in modes, the shifted
//! clock), and leases: `SettingsRepo` for the unit of work. Freeing every named lease stays a
//! function on a connection, for `Store::release_leases` in `tx.rs`.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_ports::{Lease, SettingKey, SettingsRepo};

use crate::convert::db_time;
use crate::schema::leases;
use crate::tx::StoreTx;
use diesel::{BoolExpressionMethods, ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use vp_ports::records::SettingRecord;
use vp_ports::store::StoreResult;

use crate::convert;
use crate::errors::db;
use crate::models::SettingRow;
use crate::pool::{DbConn, db_run, upsert};
use crate::schema::settings;

/// Forgets every named lease (for a restored database, whose holders are gone). Run by
/// `Store::release_leases`, not a port method of this area.
pub(crate) async fn release_named_leases(conn: &mut DbConn) -> StoreResult<()> {
    use leases::dsl as l;
    db_run!(conn, c => diesel::delete(l::leases).execute(c).await).map_err(db)?;
    Ok(())
}

#[async_trait]
impl SettingsRepo for StoreTx {
    async fn setting(&mut self, key: SettingKey) -> StoreResult<Option<SettingRecord>> {
        let conn = self.conn().await?;
        let name = key.name();
        let row: Option<SettingRow> = db_run!(conn, c => {
            settings::table.find(&name).select(SettingRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        Ok(row.map(|r| convert::setting(key, r)))
    }

    async fn put_setting(&mut self, setting: &SettingRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::setting_row(setting);
        upsert!(conn, settings::table, settings::key, &row)
    }

    /// The row is made if missing (taken at once), then updated only where `holder` may take it:
    /// under PostgreSQL's row lock and SQLite's single writer the update's condition is checked
    /// against the latest holder, so two takers never both see a row changed.
    async fn take_lease(
        &mut self,
        lease: Lease,
        holder: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> StoreResult<bool> {
        use leases::dsl as l;
        let name = lease.name();
        let conn = self.conn().await?;
        let (now, until) = (db_time(now), db_time(until));
        db_run!(conn, c => {
            diesel::insert_into(l::leases)
                .values((l::name.eq(name), l::holder.eq(holder), l::expires_at.eq(until)))
                .on_conflict_do_nothing()
                .execute(c)
                .await
        })
        .map_err(db)?;
        let taken = db_run!(conn, c => {
            diesel::update(l::leases.find(name).filter(l::holder.eq(holder).or(l::expires_at.le(now))))
                .set((l::holder.eq(holder), l::expires_at.eq(until)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(taken > 0)
    }

    async fn release_lease(&mut self, lease: Lease, holder: &str) -> StoreResult<()> {
        use leases::dsl as l;
        let name = lease.name();
        let conn = self.conn().await?;
        db_run!(conn, c => diesel::delete(l::leases.find(name).filter(l::holder.eq(holder))).execute(c).await)
            .map_err(db)?;
        Ok(())
    }
}
