//! What `POST /payments` prices with: the plans on sale, the payment methods and the device
//! offer, read in one unit of work and kept for `SALE_CATALOG_TTL`, so an invoice reads nothing
//! of them from the database. An operator's change takes effect on every instance within that
//! time, and at once in the process that made it (docs/decisions.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use vp_domain::DeviceSettings;
use vp_ports::{PaymentMethodRecord, PlanRecord};

use crate::App;
use crate::error::AppResult;

pub const SALE_CATALOG_TTL: Duration = Duration::from_secs(1);

pub(crate) struct SaleCatalog {
    /// Plans not withdrawn, by id.
    plans: HashMap<i32, PlanRecord>,
    /// Every method, enabled or not, by code.
    methods: HashMap<String, PaymentMethodRecord>,
    pub device_settings: Option<DeviceSettings>,
}

impl SaleCatalog {
    pub(crate) fn plan(&self, plan_id: i32) -> Option<&PlanRecord> {
        self.plans.get(&plan_id)
    }

    /// An enabled method.
    pub(crate) fn method(&self, code: &str) -> Option<&PaymentMethodRecord> {
        self.methods.get(code).filter(|m| m.enabled)
    }
}

#[derive(Default)]
pub struct SaleCatalogCache {
    current: Mutex<Option<(Arc<SaleCatalog>, Instant)>>,
}

impl SaleCatalogCache {
    fn get(&self) -> Option<Arc<SaleCatalog>> {
        let current = self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        current.as_ref().filter(|(_, at)| at.elapsed() < SALE_CATALOG_TTL).map(|(c, _)| c.clone())
    }

    fn put(&self, catalog: Arc<SaleCatalog>) {
        *self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((catalog, Instant::now()));
    }

    /// Drops the kept copy after a change made by this process.
    pub fn forget(&self) {
        *self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}

impl App {
    pub(crate) async fn sale_catalog(&self) -> AppResult<Arc<SaleCatalog>> {
        if let Some(catalog) = self.sale_cache.get() {
            return Ok(catalog);
        }
        let mut tx = self.store.read().await?;
        let plans = tx.plans(false).await?;
        let methods = tx.payment_methods().await?;
        let device_settings = tx.device_settings().await?;
        tx.commit().await?;
        let catalog = Arc::new(SaleCatalog {
            plans: plans.into_iter().filter(|p| p.withdrawn_at.is_none()).map(|p| (p.plan_id, p)).collect(),
            methods: methods.into_iter().map(|m| (m.code.clone(), m)).collect(),
            device_settings,
        });
        self.sale_cache.put(catalog.clone());
        Ok(catalog)
    }
}
