//! What is on sale: plans, the device offer and payment methods.

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::DeviceSettings;

use crate::records::{NewPlan, PaymentMethodRecord, PlanRecord};

use super::StoreResult;

#[async_trait]
pub trait OfferRepo: Send {
    async fn insert_plan(&mut self, plan: &NewPlan) -> StoreResult<PlanRecord>;
    async fn plan(&mut self, plan_id: i32) -> StoreResult<Option<PlanRecord>>;
    /// All plans, ordered by id; retired ones only when asked.
    async fn plans(&mut self, include_retired: bool) -> StoreResult<Vec<PlanRecord>>;
    /// Returns false when the plan does not exist or was already retired.
    async fn retire_plan(&mut self, plan_id: i32, at: OffsetDateTime) -> StoreResult<bool>;
    async fn device_settings(&mut self) -> StoreResult<Option<DeviceSettings>>;
    async fn set_device_settings(&mut self, settings: &DeviceSettings) -> StoreResult<()>;
    async fn upsert_payment_method(&mut self, method: &PaymentMethodRecord) -> StoreResult<()>;
    async fn payment_method(&mut self, code: &str) -> StoreResult<Option<PaymentMethodRecord>>;
    /// All methods ordered by position, then code.
    async fn payment_methods(&mut self) -> StoreResult<Vec<PaymentMethodRecord>>;
}
