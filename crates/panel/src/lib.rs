//! The embedded local panel: a stand-in for Remnawave behind the `VpnPanel` port, for
//! development, demos and tests. Like Remnawave it keeps its own users and devices, serves the
//! subscription link (`/sub/{token}`), registers the device of every app that fetches the link
//! with `x-hwid` and enforces the device limit there.

mod local;
mod routes;
mod servers;

pub use local::{DeviceHeaders, FetchRefused, LocalPanel, SubscriptionContent};
pub use routes::routes;
pub use servers::{SERVERS_KEY, ServerList};
