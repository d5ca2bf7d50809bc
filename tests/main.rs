//! The black-box tests of the `vp-api` binary, one module per area, linked as one test binary
//! (one link of the workspace instead of one per file; nextest still runs each test in its own
//! process).

#[macro_use]
mod support;

mod alerts;
mod backup_restore;
mod broadcasts;
mod browser_cabinet;
mod browser_operator;
mod browser_pages;
mod browser_reference;
mod browser_shop;
mod cabinet;
mod cli;
mod customer_pages;
mod delivery;
mod exports;
mod failed_auth;
mod gateways;
mod hot_queries;
mod http_api;
mod limits;
mod mail;
mod managed_bots;
mod observability;
mod operations;
mod operator_view;
mod promo_codes;
mod referrals;
mod remnawave;
mod renewals;
mod rolling_restart;
mod sales;
mod sdk;
mod secrets_at_rest;
mod shop_bot_import;
mod telegram_bots;
mod telegram_shop;
mod telegram_stars;
mod web_shop;
mod webhook_snippets;
mod yookassa;
