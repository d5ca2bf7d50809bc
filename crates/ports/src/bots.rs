//! A partner's own messenger bot, run by the platform under the partner's brand: how it is
//! kept, and the messenger's side of it (`BotApi`).

use std::time::Duration;

use async_trait::async_trait;
use thiserror::Error;
use time::OffsetDateTime;
use vp_domain::{AccountId, ClientId, ClientRef};

use vp_domain::Lang;
use vp_domain::term_events::Threshold;
use vp_domain::traffic::TrafficNotice;

use crate::records::ClientRecord;

/// A connected bot. Its token is never kept as given: `token_sealed` is the token sealed under
/// the secrets key, `token_hash` its SHA-256 (to find a token another account connected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnerBotRecord {
    pub account_id: AccountId,
    /// The bot's Telegram user id (the number before `:` in its token).
    pub bot_id: i64,
    pub username: String,
    pub token_hash: String,
    pub token_sealed: String,
    pub connected_at: OffsetDateTime,
    /// When Telegram stopped accepting the token (revoked in BotFather); `None` while it works.
    pub disconnected_at: Option<OffsetDateTime>,
    /// The bot's profile (name, descriptions, commands, menu) to show: raised by every change
    /// of the brand or the support address; in sync when `profile_synced` reached it.
    pub profile_revision: i64,
    pub profile_synced: i64,
    /// Failed syncs in a row, when the next may start, and the last failure.
    pub profile_attempts: u32,
    pub profile_retry_at: Option<OffsetDateTime>,
    pub profile_error: Option<String>,
    /// What the messenger was last told about the bot's updates; `None` while they are polled.
    pub webhook: Option<WebhookRegistration>,
    /// Created through the platform's bot (Telegram's managed bots): the platform gets and
    /// replaces its token itself. `false` for a bot connected with a pasted token.
    pub managed: bool,
}

impl PartnerBotRecord {
    /// A bot connected at `at` with a pasted token: its profile still to be shown (revision 1),
    /// its updates polled until a webhook is registered.
    pub fn connected(
        account_id: AccountId,
        bot_id: i64,
        username: String,
        (token_hash, token_sealed): (String, String),
        at: OffsetDateTime,
    ) -> PartnerBotRecord {
        PartnerBotRecord {
            account_id,
            bot_id,
            username,
            token_hash,
            token_sealed,
            connected_at: at,
            disconnected_at: None,
            profile_revision: 1,
            profile_synced: 0,
            profile_attempts: 0,
            profile_retry_at: None,
            profile_error: None,
            webhook: None,
            managed: false,
        }
    }
}

/// Which kinds of updates the bots ask for (the adapter's `allowed_updates`), as a number raised
/// whenever the list grows: a webhook set under a lower one is set again, or Telegram would
/// never post the new kinds. 1: messages, button presses, pre-checkout queries; 2: and managed
/// bots; 3: and Stars subscriptions' changes.
pub const UPDATE_KINDS: u32 = 3;

/// What Telegram was last told about a bot's updates, when they do not wait to be polled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookRegistration {
    /// Telegram posts them to `url`, with the secret derived under the secrets key `key_id`, of
    /// the kinds `UPDATE_KINDS` named then (a new key, address or list means registering
    /// again).
    Webhook { url: String, key_id: String, kinds: u32 },
    /// Telegram refused to hand them out to a poll (a webhook this service did not record, left
    /// by another deployment): the next registration round removes it.
    Unknown,
}

impl WebhookRegistration {
    /// As kept in a text column or setting.
    pub fn to_stored(&self) -> String {
        match self {
            WebhookRegistration::Webhook { url, key_id, kinds } => format!("{url} key:{key_id} kinds:{kinds}"),
            WebhookRegistration::Unknown => "unknown".into(),
        }
    }

    /// `None` for nothing registered (an empty value); a value that does not read is taken as
    /// `Unknown`, which only costs one registration call.
    pub fn from_stored(stored: &str) -> Option<WebhookRegistration> {
        if stored.is_empty() {
            return None;
        }
        // Kept before the kinds were: the first list.
        let (rest, kinds) = match stored.rsplit_once(" kinds:").map(|(rest, n)| (rest, n.parse())) {
            Some((rest, Ok(kinds))) => (rest, kinds),
            _ => (stored, 1),
        };
        Some(match rest.rsplit_once(" key:") {
            Some((url, key_id)) if !url.is_empty() && !key_id.is_empty() => {
                WebhookRegistration::Webhook { url: url.to_owned(), key_id: key_id.to_owned(), kinds }
            }
            _ => WebhookRegistration::Unknown,
        })
    }
}

impl PartnerBotRecord {
    /// Whether the messenger shows the bot's current profile.
    pub fn profile_in_sync(&self) -> bool {
        self.profile_synced >= self.profile_revision
    }
}

/// A one-time code carried by a "Get reminders in Telegram" link: `/start <code>` in the
/// partner's bot links the chat to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientLinkCode {
    /// SHA-256 of the code, hex.
    pub code_hash: String,
    /// The client's internal id.
    pub client_ref: ClientRef,
    pub expires_at: OffsetDateTime,
}

/// A client's chat with the partner's bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientChat {
    /// The client's internal id.
    pub client_ref: ClientRef,
    pub account_id: AccountId,
    pub chat_id: i64,
    pub linked_at: OffsetDateTime,
}

/// Which message of the platform's outbox to a customer's chat: a reminder of a term (spec:
/// term events: 72 or 24 hours before its end, or its end), that an invoice was paid, that
/// an automatic renewal's charge was declined (once per declined invoice), or how much of the
/// traffic limit is used (once per period of the count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReminderKind {
    Expiring(Threshold),
    Expired,
    Paid,
    RenewalDeclined,
    /// An invited friend's first payment gave the inviter days or a credit (the reminder's
    /// `payment_id` is the friend's payment).
    Referral,
    /// Most or all of the traffic limit is used (the reminder's `payment_id` is the count's
    /// period, `traffic_period`).
    Traffic(TrafficNotice),
}

impl ReminderKind {
    pub const ALL: [ReminderKind; 8] = [
        ReminderKind::Expiring(Threshold::Hours72),
        ReminderKind::Expiring(Threshold::Hours24),
        ReminderKind::Expired,
        ReminderKind::Paid,
        ReminderKind::RenewalDeclined,
        ReminderKind::Referral,
        ReminderKind::Traffic(TrafficNotice::MostUsed),
        ReminderKind::Traffic(TrafficNotice::UsedUp),
    ];

    pub const fn code(self) -> &'static str {
        match self {
            ReminderKind::Expiring(Threshold::Hours72) => "expiring_72",
            ReminderKind::Expiring(Threshold::Hours24) => "expiring_24",
            ReminderKind::Expired => "expired",
            ReminderKind::Paid => "paid",
            ReminderKind::RenewalDeclined => "renewal_declined",
            ReminderKind::Referral => "referral",
            ReminderKind::Traffic(TrafficNotice::MostUsed) => "traffic_80",
            ReminderKind::Traffic(TrafficNotice::UsedUp) => "traffic_100",
        }
    }

    pub fn from_code(code: &str) -> Option<ReminderKind> {
        ReminderKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// What a traffic notice's `payment_id` holds: the start of the count it is about, so it is
    /// sent once per period (a count started anew is a new period).
    pub fn traffic_period(since: OffsetDateTime) -> String {
        format!("traffic:{}", since.unix_timestamp())
    }

    /// The start of the count a traffic notice's `payment_id` names.
    pub fn traffic_period_start(payment_id: &str) -> Option<OffsetDateTime> {
        let seconds = payment_id.strip_prefix("traffic:")?.parse().ok()?;
        OffsetDateTime::from_unix_timestamp(seconds).ok()
    }
}

/// A reminder on its way to a customer's chat with the partner's bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderSend {
    pub id: String,
    pub account_id: AccountId,
    pub client_ref: ClientRef,
    pub chat_id: i64,
    pub kind: ReminderKind,
    /// The end of the term it is about: a renewal since makes a reminder stale.
    pub term_ends_at: OffsetDateTime,
    /// What else makes the message once only: the invoice a `Paid` or `RenewalDeclined`
    /// message is about, the friend's payment of a `Referral`, the count's period of a
    /// `Traffic` notice; `None` for the term's reminders.
    pub payment_id: Option<String>,
    pub created_at: OffsetDateTime,
    pub attempts: u32,
    /// When to try (again); `None` once sent or given up.
    pub next_attempt_at: Option<OffsetDateTime>,
    pub sent_at: Option<OffsetDateTime>,
    pub last_error: Option<String>,
}

/// What a reminder's sender reads of its client just before sending: whether it still holds
/// and in which language to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderRecipient {
    pub client: ClientRecord,
    /// The chat the client is linked to now, if any.
    pub linked_chat: Option<i64>,
    /// The language the reminder's chat reads, once the bot kept one for it.
    pub language: Option<Lang>,
    /// The chat of the bot customer the client is, when it is one: a reminder to that chat
    /// speaks to the customer themselves.
    pub bot_customer_chat: Option<i64>,
}

/// Someone who started the partner's bot, and the client record the shop serves them as once
/// it acted for them (their first invoice or trial, or a client the partner made for them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotCustomer {
    pub account_id: AccountId,
    pub user_id: i64,
    pub chat_id: i64,
    pub started_at: OffsetDateTime,
    pub last_seen_at: OffsetDateTime,
    /// The client's internal id; `None` until the shop acted for them.
    pub client_ref: Option<ClientRef>,
    /// Where their fiscal receipts go, given once in the chat while receipts are on.
    pub receipt_email: Option<String>,
    /// The promo code they gave for their next purchase.
    pub promo_code: Option<String>,
    /// When the bot asked them to write a promo code (the next message is read as one).
    pub promo_asked_at: Option<OffsetDateTime>,
}

/// A further subscription of a bot's person (docs/decisions.md, "Several subscriptions per
/// person"): its own client of the account, numbered from 1 (the person's first subscription is
/// the client `BotCustomer::client_ref` links), under the name the person gave it. `name` is
/// `None` while the bot waits for the person to write it (asked at `asked_at`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonSubscription {
    pub account_id: AccountId,
    pub user_id: i64,
    pub position: u32,
    /// The partner's id of its client: the client exists once its first invoice made it.
    pub client_id: ClientId,
    pub name: Option<String>,
    pub asked_at: OffsetDateTime,
}

/// The device list a chat was last shown; its buttons carry `nonce` and an index into
/// `device_ids`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotDeviceList {
    pub account_id: AccountId,
    pub chat_id: i64,
    pub nonce: String,
    pub device_ids: Vec<String>,
    pub listed_at: OffsetDateTime,
}

/// An account's bot over a period (`vp-api bot stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BotStats {
    /// People who started the bot in the period.
    pub started: u64,
    /// Clients linked to a chat with the bot now.
    pub linked: u64,
    /// Paid invoices of bot customers' clients in the period.
    pub purchases: u64,
    /// Of `started`, how many paid an invoice in the period.
    pub started_and_paid: u64,
}

/// How a bot presents itself, in each language Telegram shows it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotProfile {
    /// The bot's name (the brand): at most 64 characters.
    pub name: String,
    /// The first is also the default for languages not listed.
    pub languages: Vec<BotProfileLanguage>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotProfileLanguage {
    /// An IETF language code as Telegram takes it (`en`, `ru`).
    pub code: &'static str,
    /// At most 120 characters.
    pub short_description: String,
    /// At most 512 characters.
    pub description: String,
    /// `(command, description)`: the command 1-32 of `a-z 0-9 _`, the description 1-256.
    pub commands: Vec<(String, String)>,
}

/// A bot token as BotFather issues it: the bot's numeric id, a colon, and a secret of 30 to 100
/// letters, digits, `_` and `-` (so nothing in it changes the URL path it travels in).
pub fn is_bot_token(token: &str) -> bool {
    let Some((id, secret)) = token.split_once(':') else { return false };
    (1..=20).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_digit())
        && (30..=100).contains(&secret.len())
        && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Who a token belongs to, as the messenger says (`getMe`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotIdentity {
    pub bot_id: i64,
    pub username: String,
    /// Bot Management Mode is on (BotFather's Mini App): the bot may ask people to create bots
    /// it then manages (`getMe`'s `can_manage_bots`).
    pub can_manage_bots: bool,
}

/// A code carried by a "Create my bot" link: `/start <code>` in the platform's bot offers the
/// button that creates a managed bot, which is then connected to the code's account. One
/// Telegram user may use it (the first to open it), once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotCreateCode {
    /// SHA-256 of the code, hex.
    pub code_hash: String,
    pub account_id: AccountId,
    /// The button's `request_id` (a signed 32-bit number, positive here).
    pub request_id: i32,
    /// Who asked for the link: a cabinet user's id and email, or `None` and "operator".
    pub requested_by_user: Option<String>,
    pub requested_by: String,
    /// The language the platform's bot speaks to the person who opens it.
    pub lang: Lang,
    pub expires_at: OffsetDateTime,
    /// The Telegram user who opened the link first; only they can use it.
    pub opened_by: Option<i64>,
}

#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum BotApiError {
    /// The messenger does not accept the token (wrong, or revoked in BotFather).
    #[error("the messenger does not accept the bot token")]
    Rejected,
    /// The messenger did not answer or failed; trying again later may work.
    #[error("the messenger is unavailable: {0}")]
    Unavailable(String),
    /// The messenger asks to wait this long before calling again.
    #[error("the messenger asks to wait {0:?}")]
    Throttled(Duration),
    /// The chat will not take messages from the bot however often it is tried: the person
    /// blocked the bot, or the chat is gone.
    #[error("the chat does not take messages from the bot: {0}")]
    ChatGone(String),
    /// Updates cannot be polled now: a webhook is set for the bot, or another process polls it.
    #[error("the messenger refuses to hand out updates: {0}")]
    Conflict(String),
    /// The messenger refused the call as made (a 4xx answer of no kind above): asking the
    /// same again gets the same answer.
    #[error("the messenger refused the call: {0}")]
    Refused(String),
}

/// A message from a bot to a chat: plain text (the caption when it carries a photo), and
/// buttons under it, one per row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotMessage {
    pub chat_id: i64,
    pub text: String,
    pub buttons: Vec<Button>,
    /// A PNG image sent with the text as its caption (at most 1,024 characters).
    pub photo: Option<Vec<u8>>,
}

impl BotMessage {
    pub fn text(chat_id: i64, text: impl Into<String>) -> BotMessage {
        BotMessage { chat_id, text: text.into(), buttons: vec![], photo: None }
    }

    pub fn with_buttons(mut self, buttons: Vec<Button>) -> BotMessage {
        self.buttons = buttons;
        self
    }
}

/// A button under a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    pub text: String,
    pub action: ButtonAction,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ButtonAction {
    /// Opens a link (https, or a `t.me` link).
    Url(String),
    /// Comes back to the bot as a `ButtonPress` carrying this (1 to 64 bytes).
    Press(String),
    /// A keyboard button (private chats only) that asks the person to create a bot the
    /// sending bot will manage; the result comes as a `ManagedBotShared`.
    RequestManagedBot(ManagedBotRequest),
}

/// What a "create a managed bot" button suggests (Telegram's `KeyboardButtonRequestManagedBot`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedBotRequest {
    pub request_id: i32,
    pub suggested_name: String,
    pub suggested_username: String,
}

/// A person created (or changed the token or owner of) a bot the platform's bot manages:
/// Telegram's `managed_bot` update, or a message's `managed_bot_created`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedBotShared {
    /// The person who created it (their private chat with the platform's bot has this id).
    pub user_id: i64,
    pub language: Option<String>,
    pub bot_id: i64,
    pub bot_username: String,
}

impl Button {
    pub fn link(text: impl Into<String>, url: impl Into<String>) -> Button {
        Button { text: text.into(), action: ButtonAction::Url(url.into()) }
    }

    pub fn press(text: impl Into<String>, data: impl Into<String>) -> Button {
        Button { text: text.into(), action: ButtonAction::Press(data.into()) }
    }
}

/// One update from the messenger, reduced to what the platform acts on. Updates of other
/// kinds keep only their number, so they are confirmed and skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotUpdate {
    /// The messenger's number for it: increasing per bot, the same on a redelivery.
    pub update_id: i64,
    /// A text message in a chat with the bot.
    pub message: Option<ChatText>,
    /// A press on one of the bot's buttons.
    pub press: Option<ButtonPress>,
    /// Someone is about to pay one of the bot's invoices: it must be answered within 10 s.
    pub pre_checkout: Option<PreCheckout>,
    /// A payment to the bot went through.
    pub payment: Option<StarsPaid>,
    /// A bot the platform's bot manages was created or changed.
    pub managed_bot: Option<ManagedBotShared>,
    /// A person's Stars subscription to the bot changed in Telegram.
    pub subscription: Option<StarsSubscriptionChange>,
}

impl BotUpdate {
    /// An update with nothing in it but its number (of a kind the platform does not act on).
    pub fn numbered(update_id: i64) -> BotUpdate {
        BotUpdate {
            update_id,
            message: None,
            press: None,
            pre_checkout: None,
            payment: None,
            managed_bot: None,
            subscription: None,
        }
    }
}

/// Telegram's `subscription` update (Bot API 10.2, `BotSubscriptionUpdated`): a person's Stars
/// subscription to the bot was canceled, enabled again or could not be charged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsSubscriptionChange {
    pub user_id: i64,
    pub language: Option<String>,
    /// The invoice payload of the subscription (our first invoice's id).
    pub payload: String,
    pub state: StarsSubscriptionState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StarsSubscriptionState {
    /// The person canceled it: Telegram charges no more.
    Canceled,
    /// The person enabled a canceled one again.
    Active,
    /// Telegram could not charge the next period.
    Failed,
}

/// Telegram's `pre_checkout_query`: the person confirmed the payment form; the bot says
/// whether the invoice may be paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreCheckout {
    /// What `answer_pre_checkout` names it by.
    pub id: String,
    pub user_id: i64,
    pub language: Option<String>,
    pub currency: String,
    /// In the currency's smallest units: Stars are whole.
    pub total_amount: i64,
    /// The invoice's `payload`: our invoice id.
    pub payload: String,
}

/// A `message` carrying `successful_payment`: the money (Stars) is the bot's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsPaid {
    pub chat_id: i64,
    pub user_id: i64,
    pub currency: String,
    pub total_amount: i64,
    pub payload: String,
    /// `telegram_payment_charge_id`: the payment, once however often it is reported.
    pub charge_id: String,
    /// A payment of a Stars subscription (`is_recurring`)...
    pub recurring: bool,
    /// ...and its first one (`is_first_recurring`), not a renewal.
    pub first_recurring: bool,
    /// `subscription_expiration_date`: until when a subscription is paid (Unix seconds).
    pub paid_until: Option<i64>,
}

/// An invoice in Telegram Stars, as a link that opens Telegram's payment form
/// (`createInvoiceLink`, currency `XTR`, no payment provider).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarsInvoiceLink {
    /// 1 to 32 characters.
    pub title: String,
    /// 1 to 255 characters.
    pub description: String,
    /// Our invoice id: it comes back in the pre-checkout query and the payment.
    pub payload: String,
    pub label: String,
    pub stars: i64,
    /// A Stars subscription, renewed by Telegram every 30 days.
    pub subscription: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatText {
    pub chat_id: i64,
    /// The sender's messenger user id (the same as `chat_id` in a private chat).
    pub user_id: i64,
    /// The sender's language as their messenger app is set (`en`, `ru`, `pt-br`), if it says.
    pub language: Option<String>,
    pub text: String,
}

/// A person pressed a button the bot sent (Telegram's `callback_query`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ButtonPress {
    /// What `answer_press` names it by.
    pub id: String,
    pub chat_id: i64,
    pub user_id: i64,
    /// The message the button was under.
    pub message_id: i64,
    pub language: Option<String>,
    /// The button's `ButtonAction::Press` data.
    pub data: String,
}

/// The commands a partner's bot answers, in the order Telegram lists them: the one list the
/// bot's profile shows (`setMyCommands`) and what a person's message is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotCommand {
    Start,
    Status,
    Connect,
    Help,
    Language,
    Stop,
}

impl BotCommand {
    pub const ALL: [BotCommand; 6] = [
        BotCommand::Start,
        BotCommand::Status,
        BotCommand::Connect,
        BotCommand::Help,
        BotCommand::Language,
        BotCommand::Stop,
    ];

    /// The command as typed, without its slash.
    pub const fn name(self) -> &'static str {
        match self {
            BotCommand::Start => "start",
            BotCommand::Status => "status",
            BotCommand::Connect => "connect",
            BotCommand::Help => "help",
            BotCommand::Language => "language",
            BotCommand::Stop => "stop",
        }
    }

    pub fn parse(name: &str) -> Option<BotCommand> {
        BotCommand::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl ChatText {
    /// The bot's command the text is and its argument, when it is one of `BotCommand::ALL`.
    pub fn bot_command(&self) -> Option<(BotCommand, &str)> {
        let (name, argument) = self.command()?;
        Some((BotCommand::parse(name)?, argument))
    }

    /// The command and its argument when the text is a command (`/start abc` or
    /// `/start@some_bot abc`): the command without its slash and bot name, and the rest trimmed.
    pub fn command(&self) -> Option<(&str, &str)> {
        let text = self.text.trim();
        let rest = text.strip_prefix('/')?;
        let (head, argument) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let command = head.split_once('@').map_or(head, |(c, _)| c);
        let shaped = !command.is_empty()
            && command.len() <= 32
            && command.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        shaped.then_some((command, argument.trim()))
    }
}

/// The messenger's API for bots: every call names the bot by its token (the platform's own
/// notice bot and partners' bots alike).
#[async_trait]
pub trait BotApi: Send + Sync {
    /// The bot a token belongs to.
    async fn identify(&self, token: &str) -> Result<BotIdentity, BotApiError>;
    /// Sets the bot's name, descriptions and commands in every language of `profile`, and its
    /// menu button to the command list. Calling it again with the same profile changes nothing.
    async fn set_profile(&self, token: &str, profile: &BotProfile) -> Result<(), BotApiError>;
    async fn send_message(&self, token: &str, message: &BotMessage) -> Result<(), BotApiError>;
    /// Confirms a button press (the person's app stops waiting), with a short notice shown
    /// over the chat when given.
    async fn answer_press(&self, token: &str, press_id: &str, notice: Option<&str>) -> Result<(), BotApiError>;
    /// The updates after `offset` (which also confirms every one before it), waiting up to
    /// `wait` for the first (long polling).
    async fn updates(&self, token: &str, offset: i64, wait: Duration) -> Result<Vec<BotUpdate>, BotApiError>;
    /// From now on the messenger posts the bot's updates to `url`, with `secret` in a header.
    async fn set_webhook(&self, token: &str, url: &str, secret: &str) -> Result<(), BotApiError>;
    /// No more posts: the bot's updates wait to be polled.
    async fn delete_webhook(&self, token: &str) -> Result<(), BotApiError>;
    /// A link to pay `invoice` in Stars.
    async fn stars_invoice_link(&self, token: &str, invoice: &StarsInvoiceLink) -> Result<String, BotApiError>;
    /// Answers a pre-checkout query: the invoice may be paid (`refusal` is `None`), or not,
    /// with the reason the person is shown.
    async fn answer_pre_checkout(&self, token: &str, query_id: &str, refusal: Option<&str>) -> Result<(), BotApiError>;
    /// Gives the Stars of a charge back to the person who paid. A charge refunded before
    /// counts as refunded.
    async fn refund_stars(&self, token: &str, user_id: i64, charge_id: &str) -> Result<(), BotApiError>;
    /// Cancels a person's Stars subscription (named by its first charge): Telegram charges no
    /// more; the month paid runs to its end.
    async fn cancel_stars_subscription(&self, token: &str, user_id: i64, charge_id: &str) -> Result<(), BotApiError>;
    /// The token of bot `bot_id`, which the bot of `token` manages.
    async fn managed_bot_token(&self, token: &str, bot_id: i64) -> Result<String, BotApiError>;
    /// Revokes the token of bot `bot_id`, which the bot of `token` manages, and returns its
    /// new one: the old one is refused from now on.
    async fn replace_managed_bot_token(&self, token: &str, bot_id: i64) -> Result<String, BotApiError>;
}

/// The driving side: what the webhook route calls when the messenger posts a bot's update.
#[async_trait]
pub trait BotUpdates: Send + Sync {
    /// Whether `secret` is the one the platform gave the messenger for bot `bot_id`'s
    /// webhook (compared in constant time).
    fn webhook_secret_ok(&self, bot_id: i64, secret: &str) -> bool;
    /// Handles an update once, however often it comes (posted or polled): whether it was
    /// handled now (`false` for a repeat, or a bot the platform no longer runs). An error asks
    /// the messenger to post it again later.
    async fn receive(&self, bot_id: i64, update: BotUpdate) -> Result<bool, String>;
}

#[cfg(test)]
mod tests {
    use super::{ChatText, is_bot_token};

    fn said(text: &str) -> ChatText {
        ChatText { chat_id: 1, user_id: 1, language: None, text: text.to_owned() }
    }

    #[test]
    fn a_command_is_a_slash_word_with_an_optional_bot_name_and_argument() {
        assert_eq!(said("/start abc_DEF-1").command(), Some(("start", "abc_DEF-1")));
        assert_eq!(said("/start@brand_bot abc").command(), Some(("start", "abc")));
        assert_eq!(said("  /status  ").command(), Some(("status", "")));
        assert_eq!(said("/start   ").command(), Some(("start", "")));
        assert_eq!(said("hello /start abc").command(), None);
        assert_eq!(said("/").command(), None);
        assert_eq!(said("/при вет").command(), None);
    }

    #[test]
    fn a_webhook_registration_reads_back_as_it_was_kept() {
        use super::WebhookRegistration;
        let set = WebhookRegistration::Webhook {
            url: "https://vpn.example/telegram/7/updates".into(),
            key_id: "ab12".into(),
            kinds: super::UPDATE_KINDS,
        };
        assert_eq!(WebhookRegistration::from_stored(&set.to_stored()), Some(set));
        let older = WebhookRegistration::from_stored("https://vpn.example/telegram/7/updates key:ab12");
        assert!(
            matches!(older, Some(WebhookRegistration::Webhook { kinds: 1, .. })),
            "kept before the kinds were: set again for the new ones"
        );
        let unknown = WebhookRegistration::Unknown;
        assert_eq!(WebhookRegistration::from_stored(&unknown.to_stored()), Some(unknown));
        assert_eq!(WebhookRegistration::from_stored(""), None);
        assert_eq!(WebhookRegistration::from_stored("garbage"), Some(WebhookRegistration::Unknown));
    }

    #[test]
    fn a_bot_command_is_one_of_the_listed_ones_by_its_name() {
        use super::BotCommand;
        for command in BotCommand::ALL {
            assert_eq!(BotCommand::parse(command.name()), Some(command));
        }
        assert_eq!(said("/language ru").bot_command(), Some((BotCommand::Language, "ru")));
        assert_eq!(said("/shop").bot_command(), None, "not a command of the bot");
    }

    #[test]
    fn a_token_has_the_shape_botfather_gives() {
        assert!(is_bot_token("123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs"));
        assert!(!is_bot_token("123456789"), "no secret part");
        assert!(!is_bot_token("abc:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs"), "the id is a number");
        assert!(!is_bot_token("123:short"));
        assert!(!is_bot_token("123:AAEhBOweik6ad9r QXMENQjcrGbqCr4K-bs"), "no spaces");
        assert!(!is_bot_token("123:AAEhBOweik6ad9r/QXMENQjcrGbqCr4K-bs"), "nothing that changes a URL path");
    }
}
