//! Everything a bot sends goes through the one `BotSender`: the platform's notices, the
//! reminders and paid messages, the shop's answers and the bots' profiles. It keeps one pace
//! per bot for all of them (`BotPace`), reads a failed Bot API call one way (`BotFailure`), and
//! acts on a revoked token in one place: a partner's bot is marked disconnected and the
//! partner told, in one unit of work.

use std::sync::Arc;
use std::time::Duration;

use vp_ports::{
    BotApi, BotApiError, BotMessage, BotProfile, BotRepo, BotUpdate, Clock, NoticeKind, NoticeRepo, PartnerBotRecord,
    StarsInvoiceLink, Store,
};

use super::PlatformBot;
use super::pace::BotPace;
use crate::error::AppResult;
use crate::keys;
use crate::notifier::Notifier;
use crate::secrets::SecretKeys;

/// Which bot sends: the platform's notice bot (`VP_TELEGRAM_BOT_TOKEN`) or a partner's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    Platform,
    Partner(Box<PartnerBotRecord>),
}

/// A bot the platform runs now, with its token opened for the call.
#[derive(Clone)]
pub struct ActiveBot {
    pub bot_id: i64,
    pub token: String,
    pub kind: BotKind,
}

impl ActiveBot {
    /// The partner's bot record, `None` for the notice bot.
    pub fn partner(&self) -> Option<&PartnerBotRecord> {
        match &self.kind {
            BotKind::Partner(bot) => Some(bot),
            BotKind::Platform => None,
        }
    }
}

/// What a failed Bot API call means for what was being sent: the one reading of
/// `BotApiError` every sender shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotFailure {
    /// Telegram asked this bot to wait this long before calling again (429).
    RetryAfter(Duration),
    /// No answer, or a failure that may pass: try again after the caller's backoff.
    Retry(String),
    /// Telegram no longer takes the bot's token (revoked in BotFather). A partner's bot has
    /// been marked disconnected and the partner told by the time this is returned.
    BotRevoked,
    /// The chat does not take the bot's messages however often it is tried (blocked, gone).
    ChatGone(String),
}

impl BotFailure {
    /// The one classification of the Bot API's failures.
    pub fn of(e: BotApiError) -> BotFailure {
        match e {
            BotApiError::Throttled(wait) => BotFailure::RetryAfter(wait),
            BotApiError::Rejected => BotFailure::BotRevoked,
            BotApiError::ChatGone(reason) => BotFailure::ChatGone(reason),
            BotApiError::Unavailable(reason) | BotApiError::Conflict(reason) | BotApiError::Refused(reason) => {
                BotFailure::Retry(reason)
            }
        }
    }
}

impl std::fmt::Display for BotFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotFailure::RetryAfter(_) => f.write_str("Telegram asked to wait"),
            BotFailure::Retry(reason) => write!(f, "the messenger is unavailable: {reason}"),
            BotFailure::BotRevoked => f.write_str("the bot's token was revoked"),
            BotFailure::ChatGone(reason) => write!(f, "the chat is gone: {reason}"),
        }
    }
}

/// How a message waits for its slot in the bot's pace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// An answer to a person, who is waiting for it: the bot's next slot.
    Answer,
    /// What the platform sends on its own (a notice, a reminder, a paid message) to this
    /// chat: also a second after the chat's last one.
    Outbox { chat_id: i64 },
}

/// Why a bot's updates could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PollRefused {
    /// Telegram hands them out elsewhere (a webhook is still set, or another process polls).
    TakenElsewhere(String),
    Failed(BotFailure),
}

/// A message to a chat (a notice or a reminder) is tried this many times (over about a day)
/// before it is given up.
pub const SEND_ATTEMPTS: u32 = 12;

/// The pause before the next try after `attempts` failed ones: 30 s doubling, at most 4 h
/// (12 tries span about a day).
pub(crate) fn send_retry_delay(attempts: u32) -> time::Duration {
    vp_domain::backoff::doubling(attempts, time::Duration::seconds(30), time::Duration::hours(4))
}

/// What becomes of a queued message (a notice, a reminder) whose send failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NextTry {
    Later(time::OffsetDateTime),
    /// Never: why.
    GiveUp(String),
}

/// The outbox's one retry rule, after `attempts` tries (this one included): Telegram's wait is
/// kept to the second and never counts against the message; an outage is retried with backoff
/// up to `SEND_ATTEMPTS`; a gone chat or a partner's revoked bot ends it. The notice bot's
/// refused token is the operator's to fix, so its messages wait like in an outage.
pub(crate) fn next_try(failure: &BotFailure, bot: &BotKind, attempts: u32, now: time::OffsetDateTime) -> NextTry {
    let backoff = |reason: String| {
        if attempts >= SEND_ATTEMPTS {
            NextTry::GiveUp(format!("given up after {attempts} attempts: {reason}"))
        } else {
            NextTry::Later(now + send_retry_delay(attempts))
        }
    };
    match (failure, bot) {
        (BotFailure::RetryAfter(wait), _) => {
            NextTry::Later(now + time::Duration::try_from(*wait).unwrap_or(time::Duration::hours(1)))
        }
        (BotFailure::Retry(_), _) | (BotFailure::BotRevoked, BotKind::Platform) => backoff(failure.to_string()),
        (BotFailure::BotRevoked | BotFailure::ChatGone(_), _) => NextTry::GiveUp(failure.to_string()),
    }
}

pub struct BotSender {
    api: Arc<dyn BotApi>,
    pace: BotPace,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    notifier: Notifier,
    /// The platform's bot, which can ask Telegram for the current token of a bot it manages,
    /// and the keys that token is sealed under.
    platform_bot: Option<PlatformBot>,
    keys: Arc<SecretKeys>,
    metrics: Arc<dyn vp_ports::Metrics>,
}

/// What Telegram says of a managed bot whose token it refused.
enum ManagedToken {
    /// The bot has another token now (replaced here or by its owner): it was stored.
    Replaced,
    /// Telegram gives the same token, or no longer lets the platform manage the bot.
    Gone,
    /// Telegram could not be asked now.
    Unknown(String),
}

impl BotSender {
    pub(crate) fn new(
        api: Arc<dyn BotApi>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        notifier: Notifier,
        platform_bot: Option<PlatformBot>,
        keys: Arc<SecretKeys>,
        metrics: Arc<dyn vp_ports::Metrics>,
    ) -> BotSender {
        BotSender { api, pace: BotPace::default(), store, clock, notifier, platform_bot, keys, metrics }
    }

    /// Sends `message` from `bot` in its turn.
    pub async fn send(&self, bot: &ActiveBot, message: &BotMessage, pace: Pace) -> Result<(), BotFailure> {
        let chat = match pace {
            Pace::Answer => None,
            Pace::Outbox { chat_id } => Some(chat_id),
        };
        self.pace.wait(bot.bot_id, chat).await;
        let sent = self.api.send_message(&bot.token, message).await;
        self.settle(bot, sent).await
    }

    /// Shows the bot's name, descriptions and commands, in its turn (one slot of its pace).
    pub async fn set_profile(&self, bot: &ActiveBot, profile: &BotProfile) -> Result<(), BotFailure> {
        self.pace.wait(bot.bot_id, None).await;
        let set = self.api.set_profile(&bot.token, profile).await;
        self.settle(bot, set).await
    }

    /// Who the bot is, as Telegram says (`getMe`).
    pub async fn identify(&self, bot: &ActiveBot) -> Result<vp_ports::BotIdentity, BotFailure> {
        let me = self.api.identify(&bot.token).await;
        self.settle(bot, me).await
    }

    /// Confirms a button press, so the person's app stops showing it loading.
    pub async fn answer_press(&self, bot: &ActiveBot, press_id: &str) -> Result<(), BotFailure> {
        let answered = self.api.answer_press(&bot.token, press_id, None).await;
        self.settle(bot, answered).await
    }

    /// From now on Telegram posts the bot's updates to `url` with `secret`.
    pub async fn set_webhook(&self, bot: &ActiveBot, url: &str, secret: &str) -> Result<(), BotFailure> {
        let set = self.api.set_webhook(&bot.token, url, secret).await;
        self.settle(bot, set).await
    }

    /// No more posts: the bot's updates wait to be polled.
    pub async fn delete_webhook(&self, bot: &ActiveBot) -> Result<(), BotFailure> {
        let deleted = self.api.delete_webhook(&bot.token).await;
        self.settle(bot, deleted).await
    }

    /// A link to pay an invoice in Stars to the bot.
    pub async fn stars_invoice_link(&self, bot: &ActiveBot, invoice: &StarsInvoiceLink) -> Result<String, BotFailure> {
        let link = self.api.stars_invoice_link(&bot.token, invoice).await;
        self.settle(bot, link).await
    }

    /// Answers a pre-checkout query at once: Telegram waits at most 10 seconds for it.
    pub async fn answer_pre_checkout(
        &self,
        bot: &ActiveBot,
        query_id: &str,
        refusal: Option<&str>,
    ) -> Result<(), BotFailure> {
        let answered = self.api.answer_pre_checkout(&bot.token, query_id, refusal).await;
        self.settle(bot, answered).await
    }

    /// Gives a Stars charge back.
    pub async fn refund_stars(&self, bot: &ActiveBot, user_id: i64, charge_id: &str) -> Result<(), BotFailure> {
        let refunded = self.api.refund_stars(&bot.token, user_id, charge_id).await;
        self.settle(bot, refunded).await
    }

    /// Cancels a Stars subscription (named by its first charge).
    pub async fn cancel_stars_subscription(
        &self,
        bot: &ActiveBot,
        user_id: i64,
        charge_id: &str,
    ) -> Result<(), BotFailure> {
        let canceled = self.api.cancel_stars_subscription(&bot.token, user_id, charge_id).await;
        self.settle(bot, canceled).await
    }

    /// The bot's updates after `offset`, waiting up to `wait` for the first.
    pub async fn updates(&self, bot: &ActiveBot, offset: i64, wait: Duration) -> Result<Vec<BotUpdate>, PollRefused> {
        match self.api.updates(&bot.token, offset, wait).await {
            Ok(updates) => Ok(updates),
            Err(BotApiError::Conflict(reason)) => Err(PollRefused::TakenElsewhere(reason)),
            Err(e) => Err(PollRefused::Failed(self.failure(bot, e).await)),
        }
    }

    async fn settle<T>(&self, bot: &ActiveBot, result: Result<T, BotApiError>) -> Result<T, BotFailure> {
        match result {
            Ok(value) => Ok(value),
            Err(e) => Err(self.failure(bot, e).await),
        }
    }

    /// The classified failure, after acting on a revoked token.
    async fn failure(&self, bot: &ActiveBot, e: BotApiError) -> BotFailure {
        let failure = BotFailure::of(e);
        if failure == BotFailure::BotRevoked {
            match &bot.kind {
                // A managed bot's token may have been replaced (by a rotation, or by its owner in
                // BotFather): the platform's bot asks Telegram for the current one first.
                BotKind::Partner(partner) if partner.managed => match self.current_managed_token(partner).await {
                    ManagedToken::Replaced => return BotFailure::Retry("the bot's token was replaced".into()),
                    ManagedToken::Unknown(reason) => {
                        return BotFailure::Retry(format!(
                            "the bot's token was refused; cannot ask for the current one: {reason}"
                        ));
                    }
                    ManagedToken::Gone => {
                        if let Err(e) = self.disconnect_revoked(partner).await {
                            tracing::warn!(bot_id = bot.bot_id, error = %e, "could not record a revoked bot; trying at its next call");
                        }
                    }
                },
                BotKind::Partner(partner) => {
                    if let Err(e) = self.disconnect_revoked(partner).await {
                        tracing::warn!(bot_id = bot.bot_id, error = %e, "could not record a revoked bot; trying at its next call");
                    }
                }
                BotKind::Platform => {
                    self.metrics.bot_token_refused(vp_ports::BotRole::Platform);
                    tracing::error!("Telegram refused the notice bot's token; check VP_TELEGRAM_BOT_TOKEN");
                }
            }
        }
        failure
    }

    /// Asks Telegram, through the platform's bot, for the current token of the managed bot
    /// whose token was refused, and keeps it when it is another.
    async fn current_managed_token(&self, bot: &PartnerBotRecord) -> ManagedToken {
        let Some(platform) = &self.platform_bot else { return ManagedToken::Gone };
        let token = match self.api.managed_bot_token(platform.token(), bot.bot_id).await {
            Ok(token) => token,
            // No longer the platform's to manage (given to another owner's bot, or deleted).
            Err(BotApiError::Refused(_) | BotApiError::ChatGone(_)) => return ManagedToken::Gone,
            // The platform's own token is refused: the operator's to fix, not the partner's bot.
            Err(BotApiError::Rejected) => {
                return ManagedToken::Unknown(
                    "Telegram refuses the platform bot's token (VP_TELEGRAM_BOT_TOKEN)".into(),
                );
            }
            Err(e) => return ManagedToken::Unknown(e.to_string()),
        };
        if keys::hash(&token) == bot.token_hash {
            return ManagedToken::Gone;
        }
        match self.store_token(bot, &token).await {
            Ok(()) => ManagedToken::Replaced,
            Err(e) => ManagedToken::Unknown(e.to_string()),
        }
    }

    /// Keeps `token` as the bot's, sealed, unless the account has another bot by now.
    pub(crate) async fn store_token(&self, bot: &PartnerBotRecord, token: &str) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.lock_account(&bot.account_id).await?;
        if let Some(mut current) = tx.partner_bot(&bot.account_id).await?.filter(|b| b.bot_id == bot.bot_id) {
            current.token_hash = keys::hash(token);
            current.token_sealed = self.keys.seal_bot_token(&bot.account_id, token);
            tx.update_partner_bot(&current).await?;
        }
        tx.commit().await?;
        tracing::info!(account_id = %bot.account_id, bot_id = bot.bot_id, "a managed bot's new token kept");
        Ok(())
    }

    async fn disconnect_revoked(&self, bot: &PartnerBotRecord) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        self.mark_revoked(tx.as_mut(), bot).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Telegram no longer accepts the bot's token: the bot is marked disconnected and the
    /// partner is told, in the same unit of work (once: a bot already disconnected, or
    /// replaced by another, is left as it is).
    pub(crate) async fn mark_revoked(
        &self,
        tx: &mut (impl BotRepo + NoticeRepo + ?Sized),
        bot: &PartnerBotRecord,
    ) -> AppResult<()> {
        let Some(mut current) = tx.partner_bot(&bot.account_id).await? else { return Ok(()) };
        // Another bot, one disconnected already, or a token replaced since the refused call.
        if current.bot_id != bot.bot_id || current.disconnected_at.is_some() || current.token_hash != bot.token_hash {
            return Ok(());
        }
        current.disconnected_at = Some(self.clock.now());
        current.profile_retry_at = None;
        tx.update_partner_bot(&current).await?;
        let notice = NoticeKind::BotDisconnected { bot_id: current.bot_id, username: current.username.clone() };
        self.notifier.notify(tx, &bot.account_id, notice).await?;
        self.metrics.bot_token_refused(vp_ports::BotRole::Partner);
        tracing::warn!(account_id = %bot.account_id, bot_id = bot.bot_id, "Telegram refused the bot's token; disconnected");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: time::OffsetDateTime = datetime!(2026-01-01 00:00 UTC);

    #[test]
    fn a_queued_message_waits_as_telegram_asks_retries_an_outage_with_backoff_and_ends_for_a_gone_chat() {
        let account_id = vp_domain::AccountId::issued("acc".into());
        let bot = PartnerBotRecord::connected(account_id, 7, "b".into(), (String::new(), String::new()), NOW);
        let partner = BotKind::Partner(Box::new(bot));
        let wait = BotFailure::RetryAfter(Duration::from_secs(5));
        assert_eq!(next_try(&wait, &partner, SEND_ATTEMPTS, NOW), NextTry::Later(NOW + time::Duration::seconds(5)));
        let outage = BotFailure::Retry("502".into());
        assert_eq!(next_try(&outage, &partner, 1, NOW), NextTry::Later(NOW + send_retry_delay(1)));
        assert!(matches!(next_try(&outage, &partner, SEND_ATTEMPTS, NOW), NextTry::GiveUp(_)));
        assert!(matches!(next_try(&BotFailure::ChatGone("blocked".into()), &partner, 1, NOW), NextTry::GiveUp(_)));
        assert!(matches!(next_try(&BotFailure::BotRevoked, &partner, 1, NOW), NextTry::GiveUp(_)));
        assert_eq!(
            next_try(&BotFailure::BotRevoked, &BotKind::Platform, 1, NOW),
            NextTry::Later(NOW + send_retry_delay(1)),
            "the notice bot's token is the operator's to fix"
        );
    }

    #[test]
    fn each_bot_api_failure_is_read_one_way() {
        let wait = Duration::from_secs(3);
        assert_eq!(BotFailure::of(BotApiError::Throttled(wait)), BotFailure::RetryAfter(wait));
        assert_eq!(BotFailure::of(BotApiError::Rejected), BotFailure::BotRevoked);
        assert_eq!(BotFailure::of(BotApiError::ChatGone("blocked".into())), BotFailure::ChatGone("blocked".into()));
        assert_eq!(BotFailure::of(BotApiError::Unavailable("502".into())), BotFailure::Retry("502".into()));
        assert_eq!(BotFailure::of(BotApiError::Conflict("409".into())), BotFailure::Retry("409".into()));
    }
}
