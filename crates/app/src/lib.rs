//! The application layer: use cases grouped into services by the spec's areas, each holding only
//! the ports it uses. Drivers (the partner API, the web, the bots, the CLI) call these services;
//! the services call the ports. No business rule lives in an adapter: the rules come from
//! `vp_domain`, the orchestration is here. `Services` wires them once, from the adapters.

/// One read in a unit of work of its own: starts a read-only unit of work on `$store`, runs
/// the query with it as `$tx`, commits, and gives the query's value (`?` on either failure).
macro_rules! read {
    ($store:expr, |$tx:ident| $query:expr) => {{
        let mut $tx = $store.read().await?;
        let value = $query.await?;
        $tx.commit().await?;
        value
    }};
}

pub mod access;
pub mod accounts;
pub mod actor;
pub mod audit;
pub mod bot_shop;
pub mod bot_updates;
pub mod bots;
pub mod broadcasts;
pub mod cabinet;
pub mod catalog;
pub mod clients;
pub mod consents;
pub mod content;
pub mod entrance;
pub mod error;
pub mod events;
pub mod exports;
pub mod gateways;
pub mod gift_links;
pub mod gifts;
pub mod keys;
pub mod ledger;
pub mod mail;
pub mod notices;
mod notifier;
pub mod observability;
pub mod operator;
pub mod operator_view;
pub mod payments;
pub mod promotions;
pub mod referrals;
pub mod reminders;
pub mod renewals;
mod retry;
pub mod sales;
pub mod secrets;
mod services;
mod setting;
pub mod shop;
mod stamp;
pub mod stars;
pub mod style;
pub mod system;
mod tokens;
pub mod views;

pub use error::{AppError, AppResult, Declined, FieldErrors, Refusal};
pub use services::{Adapters, DEFAULT_PLATFORM_NAME, Services, Settings};
pub use vp_domain::Lang;

/// Where the partner API is served (spec: `{base_url}` is the host followed by this prefix).
pub const API_PREFIX: &str = "/api/partner/v1";
