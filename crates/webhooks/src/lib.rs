//! The webhook adapter: how an event leaves this service. Signatures follow the Standard
//! Webhooks scheme the spec describes; addresses are vetted so an event only ever reaches a
//! publicly reachable HTTPS server.

pub mod address;
mod sender;
pub mod signature;

pub use sender::{AddressPolicy, HttpsSender};
