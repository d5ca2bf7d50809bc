//! Payment gateway adapters. The sandbox is the embedded default: it issues a payment whose
//! page is served by this service (`/sandbox/pay/{payment_id}`), where the customer pays or
//! declines; real gateways (YooKassa, T-Bank, CryptoBot) plug in behind the same port.

mod sandbox;

pub use sandbox::{SANDBOX_PAGE_PREFIX, SandboxGateway};
