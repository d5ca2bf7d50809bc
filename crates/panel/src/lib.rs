//! VPN panel adapters behind the `VpnPanel` port. Remnawave 3.x is the production panel. The
//! embedded local panel stands in for it in development, demos and tests: like Remnawave it
//! keeps its own users and devices, serves the subscription link (`/sub/{token}`), registers
//! the device of every app that fetches the link with `x-hwid` and enforces the device limit.

mod local;
pub mod remnawave;
mod routes;
mod servers;

pub use local::{DeviceHeaders, FetchRefused, LocalPanel, SubscriptionContent};
pub use remnawave::{RemnawavePanel, RemnawaveSettings};
pub use routes::routes;
pub use servers::ServerList;
