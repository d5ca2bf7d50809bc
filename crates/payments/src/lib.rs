//! Payment gateway adapters, each behind the `PaymentGateway` port with its own wire types,
//! status mapping and notification route: YooKassa (API v3), Platega (SBP and cards) and Crypto
//! Pay (crypto, priced in rubles) take real payments. The sandbox is
//! the embedded default: it issues a payment whose page is served by this service
//! (`/sandbox/pay/{payment_id}`), where the customer pays or declines.

pub mod cryptopay;
mod notified;
pub mod platega;
mod sandbox;
pub mod yookassa;

pub use cryptopay::{CryptoPayGateway, CryptoPaySettings};
pub use platega::{PlategaGateway, PlategaSettings};
pub use sandbox::{SANDBOX_PAGE_PREFIX, SAVED_CARDS_DECLINE, SandboxGateway};
pub use yookassa::{YooKassaGateway, YooKassaSettings};

use vp_domain::{GatewayName, GatewayRoute};

/// Whether a route names one of its gateway's own methods (`yookassa:bank_card`,
/// `platega:sbp`); a gateway with one way to pay takes none. The sandbox stands for any
/// gateway, so it takes any method name.
pub fn check_gateway_method(route: &GatewayRoute) -> Result<(), String> {
    let known: &[&str] = match route.gateway {
        GatewayName::Sandbox => return Ok(()),
        GatewayName::YooKassa => &yookassa::METHOD_TYPES,
        GatewayName::Platega => &platega::METHODS,
        GatewayName::CryptoPay => &[],
    };
    match &route.method {
        None => Ok(()),
        Some(method) if known.contains(&method.as_str()) => Ok(()),
        Some(method) if known.is_empty() => Err(format!("{} has one way to pay, not {method:?}", route.gateway)),
        Some(method) => Err(format!("{method:?} is not one of {}'s methods: {}", route.gateway, known.join(", "))),
    }
}
