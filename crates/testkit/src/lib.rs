//! Test-only tools: loopback emulators of the external systems we plug in, speaking their
//! published protocols (Remnawave's `@remnawave/backend-contract`, YooKassa's API v3, Telegram's Bot API), and the
//! ports' shared test suites that every adapter must pass, and bulk data written through the
//! storage port (`seed`). Never linked into the binary.

pub mod http;
pub mod panel_suite;
pub mod remnawave;
pub mod seed;
pub mod services;
pub mod telegram;
pub mod yookassa;
