//! Mail to people (docs/decisions.md, "Mail"): a use case queues what a message is about
//! (`MailContent`) in its own unit of work; the mail worker later words it in the reader's
//! language (`MailRenderer`) and hands it to the outside (`Mailer`), once.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use time::OffsetDateTime;
use vp_domain::{Lang, MailId, TimeZone};

use crate::records::AccountStyle;

/// What a message says, as facts; the words come from the catalogues when it is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MailContent {
    /// The operator's check that mail from this service reaches an address (`vp-api mail test`).
    Test,
    /// A cabinet invitation or password reset: the one-time link and until when it holds.
    CabinetInvitation { link: String, expires_at: OffsetDateTime, reset: bool },
    /// An invitation to the platform's operator's view, or its password reset.
    OperatorInvitation { link: String, expires_at: OffsetDateTime, reset: bool },
    /// A customer's one-time code and link to sign in to a web shop's account.
    ShopSignIn { code: String, link: String, expires_at: OffsetDateTime },
    /// A web shop purchase was paid: the order and where to connect.
    ShopOrderPaid {
        payment_id: String,
        /// What the customer paid, in kopecks.
        amount: i64,
        item: OrderItem,
        paid_at: OffsetDateTime,
        /// The term's end after this payment; `None` for a lifetime plan.
        expires_at: Option<OffsetDateTime>,
        /// The connect page of the subscription, as it was when the payment arrived.
        connect_url: String,
        /// The shop, where the customer signs in to their account.
        shop_url: String,
    },
    /// A web shop customer started the free trial on their account page: until when, and
    /// where to connect.
    ShopTrialStarted {
        expires_at: OffsetDateTime,
        /// The connect page of the trial's subscription.
        connect_url: String,
        /// The shop, where the customer signs in to their account.
        shop_url: String,
    },
    /// A gift was paid: where it is redeemed and until when. The buyer gets it to pass on;
    /// the recipient (`for_recipient`), when the buyer gave their address, to redeem it.
    GiftPaid {
        for_recipient: bool,
        /// The plan's months; 0 for a lifetime plan.
        months: u32,
        /// The bot's gift link while the account's bot is connected.
        bot_url: Option<String>,
        /// The web shop's gift page.
        web_url: String,
        lapses_at: OffsetDateTime,
    },
}

/// What an invoice buys, as pages and mail describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OrderItem {
    /// A subscription term of `months` months; 0 for a lifetime plan.
    Subscription {
        months: u32,
    },
    Devices {
        count: u32,
    },
}

impl MailContent {
    /// The kind's name, for logs and the operator's list.
    pub fn kind(&self) -> &'static str {
        match self {
            MailContent::Test => "test",
            MailContent::CabinetInvitation { .. } => "cabinet_invitation",
            MailContent::OperatorInvitation { .. } => "operator_invitation",
            MailContent::ShopSignIn { .. } => "shop_sign_in",
            MailContent::ShopOrderPaid { .. } => "shop_order_paid",
            MailContent::ShopTrialStarted { .. } => "shop_trial_started",
            MailContent::GiftPaid { for_recipient: false, .. } => "gift_bought",
            MailContent::GiftPaid { for_recipient: true, .. } => "gift_received",
        }
    }
}

/// One message of the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRecord {
    /// Also the local part of its `Message-ID`, the same on every attempt.
    pub id: MailId,
    /// The account whose brand signs it; `None` for the platform's own mail.
    pub account_id: Option<String>,
    /// The address, checked when the message was queued.
    pub to: String,
    pub lang: Lang,
    pub content: MailContent,
    pub created_at: OffsetDateTime,
    pub attempts: u32,
    /// When the worker tries next; `None` once sent or given up.
    pub next_attempt_at: Option<OffsetDateTime>,
    pub sent_at: Option<OffsetDateTime>,
    /// Set when the message will never be sent (refused for good, or retried too long).
    pub given_up_at: Option<OffsetDateTime>,
    pub last_error: Option<String>,
}

/// A message worded, ready to leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedMail {
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The `List-Unsubscribe` address, for mail a reader can stop; `None` for mail they asked for.
    pub list_unsubscribe: Option<String>,
}

/// A message as the mailer sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub id: String,
    pub to: String,
    /// The display name beside the service's address: the partner's brand, or the platform's.
    pub from_name: String,
    pub mail: RenderedMail,
}

/// Who a message comes from, as its reader sees it: the account's brand and style, and the
/// zone its times are read in (the platform's name and the default zone for its own mail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSigner {
    pub brand: String,
    pub style: AccountStyle,
    pub time_zone: TimeZone,
}

/// Words a queued message in its language.
pub trait MailRenderer: Send + Sync {
    fn render(&self, content: &MailContent, lang: Lang, signer: &MailSigner) -> RenderedMail;
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MailError {
    /// The server refused this message for good (a 5xx for the recipient or the content).
    #[error("refused: {0}")]
    Refused(String),
    /// Not sent this time (no connection, a 4xx, TLS not offered): try again later.
    #[error("not sent: {0}")]
    Unavailable(String),
}

/// Hands messages to the outside: an SMTP server, or files in the embedded default.
#[async_trait]
pub trait Mailer: Send + Sync {
    /// Returns where it went (the server's answer or the file written), for the log.
    async fn send(&self, mail: &OutgoingMail) -> Result<String, MailError>;
}
