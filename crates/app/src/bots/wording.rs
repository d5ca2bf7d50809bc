//! What the bots say on the platform's own initiative (a notice, a reminder, "payment
//! received", the bot's profile) is decided here and worded by the bot adapter (`vp-bots`),
//! which holds the catalogue keys and the screens: the application layer hands it typed content.

use time::Date;
use vp_domain::term_events::Threshold;
use vp_domain::traffic::{TrafficLimit, TrafficNotice};
use vp_domain::{Lang, Money};
use vp_ports::{AccountRecord, BotMessage, BotProfile, NoticeKind};

use crate::views::SubscriptionView;

/// Words what the platform sends through bots.
pub trait BotWording: Send + Sync {
    /// How a partner's bot presents itself under the account's brand.
    fn profile(&self, account: &AccountRecord) -> BotProfile;
    /// A notice to a chat the partner linked, in the linker's language.
    fn notice(&self, chat_id: i64, notice: &NoticeKind, brand: &str, lang: Lang) -> BotMessage;
    /// A reminder or "payment received" to a customer's chat.
    fn reminder(&self, reminder: &ReminderMessage) -> BotMessage;
}

/// A message of the reminders' outbox as it goes now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderMessage {
    pub chat_id: i64,
    pub lang: Lang,
    pub brand: String,
    /// The name of the person's further subscription this is about (docs/decisions.md,
    /// "Several subscriptions per person"); `None` for their first or a linked client.
    pub subscription: Option<String>,
    pub content: ReminderContent,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReminderContent {
    /// The term ends in `threshold` (on `ends_on`); with automatic renewal on, what will be
    /// charged and when.
    Expiring { threshold: Threshold, ends_on: Date, renew: Renew, auto_renewal: Option<AutoRenewal> },
    /// An automatic renewal's charge of `amount` was declined: tried again on `retry_on`, or
    /// (`None`) the term ends on `ends_on` unless the customer renews.
    RenewalDeclined { amount: Money, retry_on: Option<Date>, ends_on: Date, renew: Renew },
    /// The term ended.
    Expired { renew: Renew },
    /// An invoice was paid: the subscription it bought and how to connect; `None` when the
    /// client has no subscription to show (a lifetime one the views do not describe).
    Paid(Option<Connect>),
    /// An invited friend paid for the first time: `days` were added to the subscription, now
    /// ending on `ends_on`, or (`None`) kept for the next purchase.
    Referral { days: u32, ends_on: Option<Date> },
    /// Most (`MostUsed`) or all of the traffic `limit` is used: the count starts again on
    /// `resets_on`, or (`None`, a limit that never resets) with a renewal.
    Traffic { notice: TrafficNotice, limit: TrafficLimit, resets_on: Option<Date>, renew: Renew },
    /// A gift the customer bought was paid: its links to pass on (the bot's, while the bot is
    /// connected, and the web shop's), redeemable until `until`.
    GiftPaid { months: u32, bot_url: Option<String>, web_url: String, until: Date },
}

/// The charge automatic renewal will make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutoRenewal {
    pub amount: Money,
    pub on: Date,
}

/// Where a reminder sends the customer to renew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Renew {
    /// The shop's plans in the bot (the chat's own bot customer), for the subscription
    /// `target` names (0: their first, else a further one's number).
    InShop {
        target: u32,
    },
    /// The partner's renewal link.
    Link(String),
    /// No renewal link: the partner's support address.
    Support(String),
    Nowhere,
}

/// A subscription and where to connect it: its connect page and what its QR code carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connect {
    pub subscription: SubscriptionView,
    pub page_url: String,
}

impl Connect {
    /// What the QR code carries: the first application's connect page, else the connect page
    /// (the same `qr_payload` the connect page draws).
    pub fn qr_payload(&self) -> &str {
        self.subscription.connect.first().map_or(self.page_url.as_str(), |c| c.qr_payload.as_str())
    }
}
