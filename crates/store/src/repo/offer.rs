//! What is on sale: plans, the device offer and payment methods: `OfferRepo` for the unit of work.

use async_trait::async_trait;
use vp_ports::OfferRepo;

use crate::tx::StoreTx;
use diesel::{ExpressionMethods, OptionalExtension, QueryDsl, SelectableHelper};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use vp_domain::DeviceSettings;
use vp_ports::records::{NewPlan, PaymentMethodRecord, PlanRecord};
use vp_ports::store::StoreResult;

use crate::convert::{self, db_time};
use crate::errors::db;
use crate::models::{DeviceSettingsRow, PaymentMethodRow, PlanRow};
use crate::pool::{db_run, upsert};
use crate::schema::{device_settings, payment_methods, plans};

/// `plan`'s query (`read_ahead` makes it too).
macro_rules! plan_by_id {
    ($plan_id:expr) => {
        $crate::schema::plans::table
            .find($plan_id)
            .select(<$crate::models::PlanRow as diesel::SelectableHelper<_>>::as_select())
    };
}
pub(crate) use plan_by_id;

/// `device_settings`' query (`read_ahead` makes it too): the one row of the device offer.
macro_rules! the_device_settings {
    () => {
        $crate::schema::device_settings::table
            .find(1)
            .select(<$crate::models::DeviceSettingsRow as diesel::SelectableHelper<_>>::as_select())
    };
}
pub(crate) use the_device_settings;

#[async_trait]
impl OfferRepo for StoreTx {
    async fn insert_plan(&mut self, plan: &NewPlan) -> StoreResult<PlanRecord> {
        let conn = self.conn().await?;
        let row = convert::new_plan_row(plan)?;
        let stored: PlanRow = db_run!(conn, c => {
            diesel::insert_into(plans::table).values(&row).returning(PlanRow::as_returning()).get_result(c).await
        })
        .map_err(db)?;
        convert::plan(stored)
    }

    async fn plan(&mut self, plan_id: i32) -> StoreResult<Option<PlanRecord>> {
        if let Some(ahead) = self.ahead.plan.take(&plan_id) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let row: Option<PlanRow> = db_run!(conn, c => plan_by_id!(plan_id).first(c).await.optional()).map_err(db)?;
        row.map(convert::plan).transpose()
    }

    async fn plans(&mut self, include_retired: bool) -> StoreResult<Vec<PlanRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<PlanRow> = db_run!(conn, c => {
            let mut query = plans::table.select(PlanRow::as_select()).order(plans::plan_id).into_boxed();
            if !include_retired {
                query = query.filter(plans::retired_at.is_null());
            }
            query.load(c).await
        })
        .map_err(db)?;
        rows.into_iter().map(convert::plan).collect()
    }

    async fn retire_plan(&mut self, plan_id: i32, at: OffsetDateTime) -> StoreResult<bool> {
        let conn = self.conn().await?;
        let at = db_time(at);
        let changed = db_run!(conn, c => {
            diesel::update(plans::table.find(plan_id).filter(plans::retired_at.is_null()))
                .set(plans::retired_at.eq(Some(at)))
                .execute(c)
                .await
        })
        .map_err(db)?;
        Ok(changed == 1)
    }

    async fn device_settings(&mut self) -> StoreResult<Option<DeviceSettings>> {
        if let Some(ahead) = self.ahead.device_settings.take(&()) {
            return Ok(ahead);
        }
        let conn = self.conn().await?;
        let row: Option<DeviceSettingsRow> =
            db_run!(conn, c => the_device_settings!().first(c).await.optional()).map_err(db)?;
        row.map(convert::device_settings).transpose()
    }

    async fn set_device_settings(&mut self, settings: &DeviceSettings) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::device_settings_row(settings)?;
        upsert!(conn, device_settings::table, device_settings::id, &row)
    }

    async fn upsert_payment_method(&mut self, method: &PaymentMethodRecord) -> StoreResult<()> {
        let conn = self.conn().await?;
        let row = convert::payment_method_row(method);
        upsert!(conn, payment_methods::table, payment_methods::code, &row)
    }

    async fn payment_method(&mut self, code: &str) -> StoreResult<Option<PaymentMethodRecord>> {
        let conn = self.conn().await?;
        let row: Option<PaymentMethodRow> = db_run!(conn, c => {
            payment_methods::table.find(code).select(PaymentMethodRow::as_select()).first(c).await.optional()
        })
        .map_err(db)?;
        row.map(convert::payment_method).transpose()
    }

    async fn payment_methods(&mut self) -> StoreResult<Vec<PaymentMethodRecord>> {
        let conn = self.conn().await?;
        let rows: Vec<PaymentMethodRow> = db_run!(conn, c => {
            payment_methods::table
                .select(PaymentMethodRow::as_select())
                .order((payment_methods::position, payment_methods::code))
                .load(c)
                .await
        })
        .map_err(db)?;
        rows.into_iter().map(convert::payment_method).collect()
    }
}
