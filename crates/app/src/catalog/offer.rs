//! What `POST /payments` prices with: the plans on sale, the payment methods and the device
//! offer, read in one unit of work and kept for `OFFER_TTL`, so an invoice reads nothing
//! of them from the database. An operator's change takes effect on every instance within that
//! time, and at once in the process that made it (docs/decisions.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use vp_domain::DeviceSettings;
use vp_ports::{PaymentMethodRecord, PlanRecord, Store};

use crate::error::AppResult;

pub const OFFER_TTL: Duration = Duration::from_secs(1);

pub(crate) struct Offer {
    /// Plans not retired, by id.
    plans: HashMap<i32, PlanRecord>,
    /// Every method, enabled or not, by code.
    methods: HashMap<String, PaymentMethodRecord>,
    pub device_settings: Option<DeviceSettings>,
}

impl Offer {
    pub(crate) fn plan(&self, plan_id: i32) -> Option<&PlanRecord> {
        self.plans.get(&plan_id)
    }

    /// An enabled method.
    pub(crate) fn method(&self, code: &str) -> Option<&PaymentMethodRecord> {
        self.methods.get(code).filter(|m| m.enabled)
    }

    /// The plans on sale in `GET /plans`' order.
    pub(crate) fn plans_on_sale(&self) -> Vec<PlanRecord> {
        let mut plans: Vec<PlanRecord> = self.plans.values().cloned().collect();
        plans.sort_by_key(|p| p.plan_id);
        plans
    }

    /// The enabled methods in `GET /payment-methods`' order.
    pub(crate) fn enabled_methods(&self) -> Vec<PaymentMethodRecord> {
        let mut methods: Vec<PaymentMethodRecord> = self.methods.values().filter(|m| m.enabled).cloned().collect();
        methods.sort_by(|a, b| (a.position, &a.code).cmp(&(b.position, &b.code)));
        methods
    }
}

#[derive(Default)]
struct OfferCache {
    current: Mutex<Option<(Arc<Offer>, Instant)>>,
}

impl OfferCache {
    fn get(&self) -> Option<Arc<Offer>> {
        let current = self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        current.as_ref().filter(|(_, at)| at.elapsed() < OFFER_TTL).map(|(c, _)| c.clone())
    }

    fn put(&self, offer: Arc<Offer>) {
        *self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some((offer, Instant::now()));
    }

    fn forget(&self) {
        *self.current.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}

/// The offer as it stands, read at most `OFFER_TTL` ago.
pub(crate) struct Offers {
    store: Arc<dyn Store>,
    cache: OfferCache,
}

impl Offers {
    pub(crate) fn new(store: Arc<dyn Store>) -> Offers {
        Offers { store, cache: OfferCache::default() }
    }

    /// Drops the kept copy after a change made by this process, so it shows at once here.
    pub(crate) fn forget(&self) {
        self.cache.forget();
    }

    pub(crate) async fn current(&self) -> AppResult<Arc<Offer>> {
        if let Some(offer) = self.cache.get() {
            return Ok(offer);
        }
        let mut tx = self.store.read().await?;
        let plans = tx.plans(false).await?;
        let methods = tx.payment_methods().await?;
        let device_settings = tx.device_settings().await?;
        tx.commit().await?;
        let offer = Arc::new(Offer {
            plans: plans.into_iter().filter(|p| p.retired_at.is_none()).map(|p| (p.plan_id, p)).collect(),
            methods: methods.into_iter().map(|m| (m.code.clone(), m)).collect(),
            device_settings,
        });
        self.cache.put(offer.clone());
        Ok(offer)
    }
}
