//! A self-hosted shop bot's database, read by an import (`import bedolaga`): its customers with
//! their subscriptions and the panel users those hold, in the bot's own terms. The import
//! decides what becomes of them; the adapter only reads, and never writes to the bot's database.

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;

/// A person the shop bot knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopBotCustomer {
    /// The bot's own id of the person (not a Telegram id).
    pub id: i64,
    pub telegram_id: Option<i64>,
    /// The language the bot speaks to them in, as the bot writes it (`ru`, `en`, `ua`, ...).
    pub language: Option<String>,
    /// `active`, `blocked` (they blocked the bot) or `deleted`.
    pub status: String,
    /// What the bot holds for them, in minor units (kopeks): the partner's record, not money
    /// the platform holds.
    pub balance_minor: i64,
    /// The bot's id of the person who invited them.
    pub invited_by: Option<i64>,
    /// Their own invitation code in the bot's links.
    pub referral_code: Option<String>,
    /// They paid the bot before (a top-up or a paid subscription).
    pub has_paid: bool,
    pub created_at: OffsetDateTime,
    pub subscriptions: Vec<ShopBotSubscription>,
}

/// A subscription the shop bot sold, and the panel user it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopBotSubscription {
    /// The bot's own id of the subscription.
    pub id: i64,
    /// The bot's status: `active`, `trial`, `limited`, `disabled`, `expired` or `pending` (an
    /// unpaid draft).
    pub status: String,
    pub is_trial: bool,
    pub ends_at: OffsetDateTime,
    /// The panel's id of its user (Remnawave 3.x numeric id), when the bot recorded it.
    pub panel_id: Option<String>,
    /// The panel user's `shortUuid`: the token of the link its apps hold.
    pub panel_short_uuid: Option<String>,
}

/// A promo code of the shop bot, in its terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopBotPromoCode {
    pub code: String,
    /// Bedolaga: `discount`, `balance`, `subscription_days`, `trial_subscription`,
    /// `promo_group` or `balance_and_days`.
    pub kind: String,
    /// What it gives: kopeks of balance, or for `discount` the percent off.
    pub value: i64,
    /// Days it adds, or for `discount` the hours the discount lasts once taken.
    pub days: i64,
    /// Uses allowed in all; `None` or 0: as the bot counts, none left.
    pub max_uses: Option<i64>,
    pub uses: i64,
    pub valid_until: Option<OffsetDateTime>,
    pub active: bool,
    pub first_purchase_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShopBotError {
    /// The database could not be reached or read.
    #[error("the shop bot's database cannot be read: {0}")]
    Unreadable(String),
    /// The database is not one this import reads (another bot, or a version it does not know).
    #[error("the shop bot's database is not one this import reads: {0}")]
    Unsupported(String),
}

/// Reading a shop bot's database.
#[async_trait]
pub trait ShopBotDatabase: Send + Sync {
    /// Which bot and schema version it is, as the report names it (`bedolaga 0106`).
    fn source(&self) -> String;
    /// Up to `size` customers with their subscriptions, after the customer `after` in the
    /// order of the bot's ids (`None`: from the first).
    async fn customers_page(&self, after: Option<i64>, size: u32) -> Result<Vec<ShopBotCustomer>, ShopBotError>;
    /// Every promo code of the bot, in the order of its ids.
    async fn promo_codes(&self) -> Result<Vec<ShopBotPromoCode>, ShopBotError>;
}
