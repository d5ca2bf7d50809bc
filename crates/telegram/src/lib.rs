//! The Telegram Bot API adapter (docs/telegram.md lists the methods and fields we rely on):
//! `TelegramBots`, the `BotApi` for the platform's notice bot and partners' own bots alike,
//! over one client (`client.rs`), and the route Telegram posts bots' updates to (`webhook.rs`).

mod bots;
mod client;
mod updates;
mod webhook;

pub use bots::TelegramBots;
pub use webhook::{UPDATES_PATH, routes};
