//! The bots' driving adapter, beside the partner API (`vp-http`) and the web (`vp-web`): it
//! handles the updates of the platform's notice bot and of partners' own bots (`Conversations`,
//! the `BotUpdates` driver of Telegram's webhook posts and of the poller), calls the use cases
//! of the application layer, and words what they return from the catalogues: the shop's screens
//! and buttons (`shop`), the answers to a customer's commands (`commands`), and what the
//! platform sends on its own (`Wording`: notices, reminders, "payment received", the bots'
//! profiles). The application layer decides what is said; this crate says it.

mod choice;
mod commands;
mod connect;
mod conversations;
mod creating;
mod qr_png;
mod shop;
mod wording;

pub use conversations::Conversations;
pub use wording::Wording;
