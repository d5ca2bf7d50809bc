//! Test-only tools: loopback emulators of the external systems we plug in, speaking their
//! published protocols (Remnawave's `@remnawave/backend-contract`, YooKassa's API v3, Platega's and Crypto Pay's
//! SDK models, Telegram's Bot API), and the
//! ports' shared test suites that every adapter must pass, and bulk data written through the
//! storage port (`seed`). Never linked into the binary.

pub mod cryptopay;
mod faults;
pub mod fixtures;
pub mod gateway_contract;
pub mod http;
pub mod panel_suite;
pub mod platega;
pub mod remnawave;
pub mod seed;
pub mod services;
pub mod telegram;
pub mod yookassa;
