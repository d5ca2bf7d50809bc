//! The gateways that are on (docs/decisions.md, "Payment rails"): each adapter the binary built
//! from its settings, by name, and the default one (`VP_GATEWAY`) that methods naming no gateway
//! go through. A method's payments go through its gateway while that gateway is on; while it is
//! off the method is not offered, unless the sandbox stands in for gateways that are off (a
//! development setting, `VP_SANDBOX_STANDS_IN`).

use std::sync::Arc;

use vp_domain::{GatewayName, GatewayRoute, Rail};
use vp_ports::{PaymentGateway, PaymentMethodRecord};

use crate::error::{AppError, AppResult, Refusal};

#[derive(Clone)]
pub struct Gateways {
    /// Every gateway that is on, one per name.
    on: Vec<Arc<dyn PaymentGateway>>,
    default: GatewayName,
    stand_in: bool,
}

impl Gateways {
    /// `default` is the gateway methods naming none go through; it is on.
    pub fn new(default: Arc<dyn PaymentGateway>) -> Gateways {
        Gateways { default: default.name(), on: vec![default], stand_in: false }
    }

    /// Turns `gateway` on (replacing one of the same name).
    pub fn with(mut self, gateway: Arc<dyn PaymentGateway>) -> Gateways {
        self.on.retain(|g| g.name() != gateway.name());
        self.on.push(gateway);
        self
    }

    /// The sandbox (which must be on) takes the payments of methods whose gateway is off.
    pub fn sandbox_standing_in(mut self) -> Gateways {
        self.stand_in = true;
        self
    }

    pub fn default_name(&self) -> GatewayName {
        self.default
    }

    /// The gateway of that name, while it is on.
    pub fn get(&self, name: GatewayName) -> Option<&Arc<dyn PaymentGateway>> {
        self.on.iter().find(|g| g.name() == name)
    }

    /// Every gateway that is on, in the order of their names.
    pub fn all(&self) -> Vec<&Arc<dyn PaymentGateway>> {
        let mut all: Vec<&Arc<dyn PaymentGateway>> = self.on.iter().collect();
        all.sort_by_key(|g| g.name());
        all
    }

    /// Where a method's payments go now; `None` while its gateway is off.
    pub fn route(&self, method: &PaymentMethodRecord) -> Option<GatewayRoute> {
        let gateway = method.gateway.unwrap_or(self.default);
        let route = GatewayRoute { gateway, method: method.gateway_type.clone() };
        match self.get(gateway) {
            Some(_) => Some(route),
            None if self.stand_in && self.get(GatewayName::Sandbox).is_some() => {
                Some(GatewayRoute { gateway: GatewayName::Sandbox, ..route })
            }
            None => None,
        }
    }

    /// The gateway an invoice's rail names. One turned off since the invoice was issued cannot
    /// be asked now: `PAYMENT_UNAVAILABLE`, as for any gateway that does not answer.
    pub(crate) fn of_rail(&self, rail: &Rail) -> AppResult<&Arc<dyn PaymentGateway>> {
        match rail {
            Rail::Gateway(route) => self.get(route.gateway).ok_or_else(|| {
                tracing::warn!(gateway = %route.gateway, "an invoice's gateway is off; its payment cannot be read");
                AppError::from(Refusal::PaymentUnavailable)
            }),
            Rail::Stars => Err(AppError::NotFound("gateway payment")),
        }
    }

    /// Whether an invoice on `rail` is re-read by the reconciliation job: its gateway's word
    /// may be lost.
    pub fn reconciles(&self, rail: &Rail) -> bool {
        rail.gateway().and_then(|name| self.get(name)).is_some_and(|g| g.reconciles())
    }

    /// Whether a payment on `rail` can save the customer's method for automatic renewal.
    pub fn saves_methods(&self, rail: &Rail) -> bool {
        rail.gateway().and_then(|name| self.get(name)).is_some_and(|g| g.saves_methods())
    }

    /// Whether any gateway that is on may lose its word (the result page offers to check).
    pub fn any_reconciles(&self) -> bool {
        self.on.iter().any(|g| g.reconciles())
    }
}
