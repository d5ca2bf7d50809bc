//! Plans, device settings, payment methods and operator settings.

use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::DeviceSettings;
use vp_ports::records::{NewPlan, PaymentMethodRecord, PlanRecord, SettingRecord};
use vp_ports::store::StoreResult;

use crate::convert::{self, db_time};
use crate::errors::db;
use crate::models::{DeviceSettingsRow, PaymentMethodRow, PlanRow, SettingRow};
use crate::pool::{DbConn, db_run, upsert};
use crate::schema::{device_settings, payment_methods, plans, settings};

pub(crate) async fn insert_plan(conn: &mut DbConn, plan: &NewPlan) -> StoreResult<PlanRecord> {
    let row = convert::new_plan_row(plan)?;
    let stored: PlanRow = db_run!(conn, c => {
        diesel::insert_into(plans::table).values(&row).returning(PlanRow::as_returning()).get_result(c).await
    })
    .map_err(db)?;
    convert::plan(stored)
}

pub(crate) async fn plan(conn: &mut DbConn, plan_id: i32) -> StoreResult<Option<PlanRecord>> {
    let row: Option<PlanRow> = db_run!(conn, c => {
        plans::table.find(plan_id).select(PlanRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    row.map(convert::plan).transpose()
}

pub(crate) async fn plans(conn: &mut DbConn, include_withdrawn: bool) -> StoreResult<Vec<PlanRecord>> {
    let rows: Vec<PlanRow> = db_run!(conn, c => {
        let mut query = plans::table.select(PlanRow::as_select()).order(plans::plan_id).into_boxed();
        if !include_withdrawn {
            query = query.filter(plans::withdrawn_at.is_null());
        }
        query.load(c).await
    })
    .map_err(db)?;
    rows.into_iter().map(convert::plan).collect()
}

pub(crate) async fn withdraw_plan(conn: &mut DbConn, plan_id: i32, at: OffsetDateTime) -> StoreResult<bool> {
    let at = db_time(at);
    let changed = db_run!(conn, c => {
        diesel::update(plans::table.find(plan_id).filter(plans::withdrawn_at.is_null()))
            .set(plans::withdrawn_at.eq(Some(at)))
            .execute(c)
            .await
    })
    .map_err(db)?;
    Ok(changed == 1)
}

pub(crate) async fn device_settings(conn: &mut DbConn) -> StoreResult<Option<DeviceSettings>> {
    let row: Option<DeviceSettingsRow> = db_run!(conn, c => {
        device_settings::table.find(1).select(DeviceSettingsRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    row.map(convert::device_settings).transpose()
}

pub(crate) async fn set_device_settings(conn: &mut DbConn, settings: &DeviceSettings) -> StoreResult<()> {
    let row = convert::device_settings_row(settings)?;
    upsert!(conn, device_settings::table, device_settings::id, &row)
}

pub(crate) async fn upsert_payment_method(conn: &mut DbConn, method: &PaymentMethodRecord) -> StoreResult<()> {
    let row = convert::payment_method_row(method);
    upsert!(conn, payment_methods::table, payment_methods::code, &row)
}

pub(crate) async fn payment_method(conn: &mut DbConn, code: &str) -> StoreResult<Option<PaymentMethodRecord>> {
    let row: Option<PaymentMethodRow> = db_run!(conn, c => {
        payment_methods::table.find(code).select(PaymentMethodRow::as_select()).first(c).await.optional()
    })
    .map_err(db)?;
    Ok(row.map(convert::payment_method))
}

pub(crate) async fn payment_methods(conn: &mut DbConn) -> StoreResult<Vec<PaymentMethodRecord>> {
    let rows: Vec<PaymentMethodRow> = db_run!(conn, c => {
        payment_methods::table
            .select(PaymentMethodRow::as_select())
            .order((payment_methods::position, payment_methods::code))
            .load(c)
            .await
    })
    .map_err(db)?;
    Ok(rows.into_iter().map(convert::payment_method).collect())
}

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
