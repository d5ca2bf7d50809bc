//! The app layer's one error type. Adapters map it once: the CLI to a message and exit code,
//! the HTTP adapter to a status and the error envelope.

use std::collections::BTreeMap;

use thiserror::Error;
use vp_domain::limits::{WEBHOOK_ENDPOINTS_MAX, WEBHOOK_REPLAY_DAYS};
use vp_domain::withdrawal::WithdrawalRefused;
use vp_ports::{AddressRefused, StoreError};

/// Field name to reason, as in the envelope's `fields`.
pub type FieldErrors = BTreeMap<String, String>;

#[derive(Debug, Error)]
pub enum AppError {
    /// Input of the wrong shape; every bad field is named.
    #[error("invalid input: {}", describe(.0))]
    Validation(FieldErrors),
    /// The named thing does not exist (in this account).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// A partner request the spec's rules refuse; each maps to one error code.
    #[error("{0}")]
    Refused(Refusal),
    /// A request of the cabinet or the operator that a rule refuses, with a typed reason a
    /// page or a bot words in its own language.
    #[error("{}", declined_text(.0))]
    Declined(Declined),
    /// An external system (payment gateway, VPN panel) refused a request it should have taken:
    /// our bug or a drift on its side. Logged where it happens; the partner sees an internal
    /// error and may retry.
    #[error("{0}")]
    External(String),
    /// One of the service's own rules broke: a price beyond what money holds, a value it
    /// wrote that does not read back, a task that panicked. Our bug, not the caller's: logged
    /// where it is answered, an internal error to whoever asked.
    #[error("{0}")]
    Internal(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Business refusals of the partner API, in the spec's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Refusal {
    #[error("the API key is missing, wrong or revoked, or API access is disabled")]
    Unauthorized,
    #[error("the plan does not exist or is retired")]
    PlanNotFound,
    #[error("no such invoice in the account")]
    PaymentNotFound,
    #[error("no such client in the account")]
    ClientNotFound,
    #[error("the client is blocked by the platform")]
    ClientBlocked,
    #[error("the operation needs an active subscription")]
    NoActiveSubscription,
    #[error("the client's device ceiling would be exceeded")]
    DeviceSlotLimitExceeded,
    #[error("the client's devices are unlimited")]
    DeviceSlotsNotApplicable,
    #[error("extra devices are not sold now")]
    DevicesNotForSale,
    #[error("the client has no such device")]
    DeviceNotFound,
    #[error("the payment method is not available")]
    UnsupportedPaymentMethod,
    #[error("the daily new-client limit is used up")]
    NewClientsDailyLimit,
    #[error("trials are not enabled for the account")]
    TrialDisabled,
    #[error("the client already had a subscription")]
    TrialAlreadyUsed,
    #[error("the daily trial limit is used up")]
    TrialDailyLimit,
    #[error("the link was rotated less than an hour ago")]
    LinkRotateTooSoon { retry_after_secs: u64 },
    #[error("the idempotency key is already bound to an invoice with other fields")]
    IdempotencyKeyReuse,
    #[error("the invoice for this idempotency key is still being issued")]
    OperationInProgress,
    #[error("the payment service did not answer; no invoice was issued")]
    PaymentUnavailable,
    #[error("the VPN service did not answer; nothing was changed")]
    ServiceUnavailable,
    #[error("the client already has a lifetime subscription")]
    LifetimeSubscription,
    /// The invoice's promo code cannot be used (docs/decisions.md, "Promo codes").
    #[error("{0}")]
    Promo(vp_domain::promo::PromoRefused),
    /// The account's per-minute window is full (a request of the partner's bot counts as the
    /// API request it stands for).
    #[error("too many requests; retry in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// The source failed to authenticate too often in the last minute (docs/limits.md).
    #[error("too many failed authentications from this address; retry in {retry_after_secs} s")]
    TooManyFailedAuthentications { retry_after_secs: u64 },
}

/// Why a cabinet or operator request was refused. The English text is the CLI's; pages match
/// on the variant, never on the text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Declined {
    #[error("{0}")]
    Withdrawal(#[from] WithdrawalRefused),
    #[error("{0}")]
    EndpointAddress(#[from] AddressRefused),
    #[error("the account already has {WEBHOOK_ENDPOINTS_MAX} endpoints, the most allowed")]
    TooManyEndpoints,
    #[error("choose at least one event type")]
    NoEventTypes,
    #[error("unknown event type {0:?}; one of {types}", types = vp_domain::event_types::SUBSCRIBABLE.join(", "))]
    UnknownEventType(String),
    #[error("one of {}", replay_days())]
    ReplayDays,
    #[error("the endpoint is disabled; enable it first")]
    EndpointDisabled,
    #[error("a bot token looks like 123456789:AAE… as BotFather gives it")]
    BotTokenMalformed,
    #[error("Telegram does not accept this token; copy it again from BotFather")]
    BotTokenRejected,
    #[error("this bot is connected to another account")]
    BotTaken,
    #[error("the account already has the bot @{0}; disconnect it first")]
    BotAlreadyConnected(String),
    #[error("{}", vp_domain::promo::PromoCodeMalformed)]
    PromoCodeMalformed,
    #[error("the account already has the code {0}")]
    PromoCodeTaken(String),
    #[error("there is no plan {0} on sale")]
    PromoPlanUnknown(i32),
    #[error(
        "the discount takes plan {plan_id} {by} RUB below the platform's price; make it smaller or raise the markup"
    )]
    PromoBelowPlatformPrice { plan_id: i32, by: vp_domain::Money },
    #[error("the last day has passed already")]
    PromoExpiresInThePast,
    #[error("a limit of uses is at least 1")]
    PromoUsesZero,
    #[error("{0}")]
    Broadcast(#[from] vp_domain::broadcast::BroadcastRefused),
    #[error("{0}")]
    BroadcastAction(#[from] vp_domain::broadcast::BroadcastActionRefused),
    #[error("the account has no connected bot to send through")]
    BroadcastNoBot,
    #[error("the platform has no Telegram bot of its own (VP_TELEGRAM_BOT_TOKEN) to create bots with")]
    NoPlatformBot,
    #[error(
        "the platform's bot @{0} cannot create bots: switch on Bot Management Mode for it in BotFather's Mini App \
         (Bot Settings), then ask for the link again"
    )]
    BotManagementOff(String),
    #[error(
        "this bot was connected with a token pasted from BotFather, so only BotFather can replace it: send /revoke \
         to @BotFather, then connect the new token"
    )]
    BotNotManaged,
    #[error("the configured panel cannot list its users: an import reads a Remnawave panel (VP_PANEL=remnawave)")]
    PanelCannotList,
}

impl Declined {
    /// The input field the refusal is about, when it is about one.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Declined::Withdrawal(w) => match w {
                WithdrawalRefused::Amount(_) | WithdrawalRefused::MoreThanAvailable { .. } => Some("amount"),
                WithdrawalRefused::NoPayoutDetails | WithdrawalRefused::PayoutDetailsTooLong => Some("payout_details"),
                WithdrawalRefused::NoteTooLong => Some("note"),
                WithdrawalRefused::Step { .. } => None,
            },
            Declined::EndpointAddress(_) => Some("url"),
            Declined::NoEventTypes | Declined::UnknownEventType(_) => Some("event_types"),
            Declined::ReplayDays => Some("days"),
            Declined::BotTokenMalformed | Declined::BotTokenRejected | Declined::BotTaken => Some("token"),
            Declined::TooManyEndpoints | Declined::EndpointDisabled | Declined::BotAlreadyConnected(_) => None,
            Declined::PromoCodeMalformed | Declined::PromoCodeTaken(_) => Some("code"),
            Declined::PromoPlanUnknown(_) => Some("plans"),
            Declined::PromoBelowPlatformPrice { .. } => Some("discount"),
            Declined::PromoExpiresInThePast => Some("expires"),
            Declined::PromoUsesZero => Some("max_uses"),
            Declined::Broadcast(r) => match r {
                vp_domain::broadcast::BroadcastRefused::EmptyText
                | vp_domain::broadcast::BroadcastRefused::TextTooLong { .. } => Some("text"),
                _ => Some("button"),
            },
            Declined::BroadcastAction(_)
            | Declined::BroadcastNoBot
            | Declined::NoPlatformBot
            | Declined::BotManagementOff(_)
            | Declined::BotNotManaged
            | Declined::PanelCannotList => None,
        }
    }
}

fn replay_days() -> String {
    let days: Vec<String> = WEBHOOK_REPLAY_DAYS.iter().map(i64::to_string).collect();
    match days.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => days.concat(),
    }
}

/// As the CLI has always said it: a refusal about a field reads like invalid input.
fn declined_text(d: &Declined) -> String {
    match d.field() {
        Some(field) => format!("invalid input: {field}: {d}"),
        None => d.to_string(),
    }
}

impl From<Declined> for AppError {
    fn from(d: Declined) -> Self {
        AppError::Declined(d)
    }
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> Self {
        AppError::Refused(r)
    }
}

fn describe(fields: &FieldErrors) -> String {
    fields.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ")
}

impl AppError {
    pub fn field(name: &str, reason: impl ToString) -> AppError {
        AppError::Validation(BTreeMap::from([(name.to_owned(), reason.to_string())]))
    }
}

pub type AppResult<T> = Result<T, AppError>;
