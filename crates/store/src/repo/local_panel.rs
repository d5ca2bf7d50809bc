//! The embedded local panel's own users and devices: `LocalPanelRepo` for the unit of work.

use async_trait::async_trait;
use vp_ports::LocalPanelRepo;

use crate::tx::StoreTx;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use vp_domain::traffic::TrafficCount;
use vp_ports::records::{LocalPanelDevice, LocalPanelUser};
use vp_ports::store::StoreResult;

use crate::convert;
use crate::deferred::write_with_next;
use crate::errors::{corrupt, db};
use crate::models::{LocalPanelDeviceRow, LocalPanelTrafficRow, LocalPanelUserRow};
use crate::pool::{db_run, upsert_statement};
use crate::schema::{local_panel_devices, local_panel_traffic, local_panel_users};

#[async_trait]
impl LocalPanelRepo for StoreTx {
    async fn local_panel_put_user(&mut self, user: &LocalPanelUser) -> StoreResult<()> {
        let row = convert::local_user_row(user)?;
        write_with_next!(self, upsert_statement!(local_panel_users::table, local_panel_users::user_ref, &row))
    }

    async fn local_panel_user(&mut self, user_ref: &str) -> StoreResult<Option<LocalPanelUser>> {
        let conn = self.conn().await?;
        let row: Option<LocalPanelUserRow> = db_run!(conn, c => {
            local_panel_users::table.find(user_ref).select(LocalPanelUserRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(convert::local_user).transpose()
    }

    async fn local_panel_user_by_token(&mut self, link_token: &str) -> StoreResult<Option<LocalPanelUser>> {
        let conn = self.conn().await?;
        let row: Option<LocalPanelUserRow> = db_run!(conn, c => {
            local_panel_users::table
                .filter(local_panel_users::link_token.eq(link_token))
                .select(LocalPanelUserRow::as_select())
                .first(c)
                .await
                .optional()
        })
        .map_err(db)?;
        row.map(convert::local_user).transpose()
    }

    async fn local_panel_devices(&mut self, user_ref: &str) -> StoreResult<Vec<LocalPanelDevice>> {
        let conn = self.conn().await?;
        let rows: Vec<LocalPanelDeviceRow> = db_run!(conn, c => {
            local_panel_devices::table
                .filter(local_panel_devices::user_ref.eq(user_ref))
                .select(LocalPanelDeviceRow::as_select())
                .order((local_panel_devices::created_at, local_panel_devices::hwid))
                .load(c)
                .await
        })
        .map_err(db)?;
        Ok(rows.into_iter().map(convert::local_device).collect())
    }

    /// A known device keeps its `created_at`; its details and `last_seen_at` are replaced.
    async fn local_panel_upsert_device(&mut self, device: &LocalPanelDevice) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::local_device_row(device);
        db_run!(conn, c => {
            diesel::insert_into(local_panel_devices::table)
                .values(&row)
                .on_conflict((local_panel_devices::user_ref, local_panel_devices::hwid))
                .do_update()
                .set((
                    local_panel_devices::platform.eq(&row.platform),
                    local_panel_devices::os_version.eq(&row.os_version),
                    local_panel_devices::model.eq(&row.model),
                    local_panel_devices::user_agent.eq(&row.user_agent),
                    local_panel_devices::last_seen_at.eq(row.last_seen_at),
                ))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(())
    }

    async fn local_panel_delete_device(&mut self, user_ref: &str, hwid: &str) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let deleted = db_run!(conn, c => {
            diesel::delete(local_panel_devices::table.find((user_ref, hwid))).execute(c).await
        })
        .map_err(db)?;
        Ok(deleted == 1)
    }

    async fn local_panel_traffic(&mut self, user_ref: &str) -> StoreResult<Option<TrafficCount>> {
        let conn = self.conn().await?;
        let row: Option<LocalPanelTrafficRow> = db_run!(conn, c => {
            local_panel_traffic::table.find(user_ref).select(LocalPanelTrafficRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(|r| {
            let used =
                u64::try_from(r.used_bytes).map_err(|_| corrupt(format!("stored traffic used {}", r.used_bytes)))?;
            Ok(TrafficCount { used, since: convert::utc(r.counted_since) })
        })
        .transpose()
    }

    async fn local_panel_save_traffic(&mut self, user_ref: &str, count: &TrafficCount) -> StoreResult<()> {
        let row = LocalPanelTrafficRow {
            user_ref: user_ref.to_owned(),
            used_bytes: i64::try_from(count.used).unwrap_or(i64::MAX),
            counted_since: convert::db_time(count.since),
        };
        write_with_next!(self, upsert_statement!(local_panel_traffic::table, local_panel_traffic::user_ref, &row))
    }
}
