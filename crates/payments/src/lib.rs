//! Payment gateway adapters. YooKassa (API v3) takes real payments. The sandbox is the
//! embedded default: it issues a payment whose page is served by this service
//! (`/sandbox/pay/{payment_id}`), where the customer pays or declines. Further gateways
//! (T-Bank, CryptoBot) plug in behind the same port.

mod sandbox;
pub mod yookassa;

pub use sandbox::{SANDBOX_PAGE_PREFIX, SAVED_CARDS_DECLINE, SandboxGateway};
pub use yookassa::{YooKassaGateway, YooKassaSettings};
