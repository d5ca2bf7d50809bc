//! The use cases on a real store, one module per area, linked as one test binary (one link
//! instead of one per file; nextest still runs each test in its own process).

mod support;

mod balance;
mod bot_updates;
mod bots;
mod cabinet;
mod customer_bot;
mod events;
mod gateway_flows;
mod mail;
mod operator_view;
mod partner_flows;
mod reminders;
mod renewals;
mod sales;
mod stars;
