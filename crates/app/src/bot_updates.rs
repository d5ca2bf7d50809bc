//! Bots' updates (docs/telegram.md), the same for the platform's notice bot and partners'
//! bots. With an https public address every bot gets a webhook at
//! `{base}/telegram/{bot_id}/updates`, whose secret only this service can make (derived from
//! the secrets key, so nothing more is stored), and any instance takes the posts. Otherwise
//! (`cargo xtask run` on plain http) updates are polled by one process at a time: the holder of
//! a lease in the database, taken over once its holder stops renewing it. Either way an update
//! is handled once: its number is recorded in the unit of work that handles it.

use std::fmt;
use std::time::Duration as StdDuration;

use time::Duration;
use vp_ports::{BotApiError, BotMessage, BotUpdate, BotUpdates, PartnerBotRecord};

use crate::App;
use crate::error::{AppError, AppResult};

/// The lease whose holder polls every bot's updates.
pub const POLL_LEASE: &str = "telegram-updates";
/// How long a poller holds the lease without renewing it: a poller that died is replaced
/// within this (plus the waiting one's pause).
pub const POLL_LEASE_FOR: Duration = Duration::seconds(15);
/// Telegram keeps an update at most a day; the record of handled ones is kept twice that.
const UPDATES_KEPT: Duration = Duration::days(2);
/// Where the notice bot's next update number is kept (as before the lease).
const PLATFORM_OFFSET_KEY: &str = "messenger.update_offset";
/// What the messenger was last told about the notice bot's updates.
const PLATFORM_WEBHOOK_KEY: &str = "messenger.webhook";

/// The platform's own notice bot (`VP_TELEGRAM_BOT_TOKEN`): its token, and its id (the number
/// before the colon).
#[derive(Clone, PartialEq, Eq)]
pub struct PlatformBot {
    token: String,
    bot_id: i64,
}

impl PlatformBot {
    /// `None` for a token not in BotFather's shape.
    pub fn new(token: &str) -> Option<PlatformBot> {
        if !vp_ports::bots::is_bot_token(token) {
            return None;
        }
        let bot_id = token.split_once(':')?.0.parse().ok()?;
        Some(PlatformBot { token: token.to_owned(), bot_id })
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    pub fn bot_id(&self) -> i64 {
        self.bot_id
    }
}

impl fmt::Debug for PlatformBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlatformBot").field("token", &"<redacted>").field("bot_id", &self.bot_id).finish()
    }
}

/// A bot whose updates the platform handles: the notice bot, or a connected partner's bot.
#[derive(Clone)]
struct ActiveBot {
    bot_id: i64,
    token: String,
    /// `None` for the notice bot.
    partner: Option<PartnerBotRecord>,
}

/// What a bot's webhook secret is derived for.
fn webhook_purpose(bot_id: i64) -> String {
    format!("telegram-webhook:{bot_id}")
}

impl App {
    /// Whether bots' updates come by webhook (an https public address) rather than polling.
    pub fn bot_updates_by_webhook(&self) -> bool {
        self.settings.public_base_url.starts_with("https://")
    }

    fn webhook_url(&self, bot_id: i64) -> String {
        format!("{}/telegram/{bot_id}/updates", self.settings.public_base_url)
    }

    /// What the messenger should have been told for a bot: the webhook address and the key
    /// its secret is derived under, or nothing (polling).
    fn wanted_webhook(&self, bot_id: i64) -> Option<String> {
        self.bot_updates_by_webhook()
            .then(|| format!("{} key:{}", self.webhook_url(bot_id), self.settings.secrets.current_id()))
    }

    /// The notice bot and every connected partner's bot whose token opens.
    async fn active_bots(&self) -> AppResult<Vec<ActiveBot>> {
        let mut bots: Vec<ActiveBot> = self
            .settings
            .platform_bot
            .iter()
            .map(|p| ActiveBot { bot_id: p.bot_id, token: p.token.clone(), partner: None })
            .collect();
        let mut tx = self.store.read().await?;
        let partners = tx.partner_bots().await?;
        tx.commit().await?;
        for bot in partners.into_iter().filter(|b| b.disconnected_at.is_none()) {
            match self.bot_token(&bot) {
                Ok(token) => bots.push(ActiveBot { bot_id: bot.bot_id, token, partner: Some(bot) }),
                Err(e) => tracing::error!(bot_id = bot.bot_id, error = %e, "a partner bot's token does not open"),
            }
        }
        Ok(bots)
    }

    /// The bot an update posted for `bot_id` belongs to, if the platform still runs it.
    async fn active_bot(&self, bot_id: i64) -> AppResult<Option<ActiveBot>> {
        if let Some(p) = self.settings.platform_bot.as_ref().filter(|p| p.bot_id == bot_id) {
            return Ok(Some(ActiveBot { bot_id, token: p.token.clone(), partner: None }));
        }
        let mut tx = self.store.read().await?;
        let bot = tx.partner_bot_by_id(bot_id).await?.filter(|b| b.disconnected_at.is_none());
        tx.commit().await?;
        Ok(match bot {
            Some(bot) => Some(ActiveBot { bot_id, token: self.bot_token(&bot)?, partner: Some(bot) }),
            None => None,
        })
    }

    /// Tells the messenger where each bot's updates go, where that changed (a new bot, a new
    /// public address, a new secrets key, a switch between webhook and polling). Returns how
    /// many bots were set; a failure is retried on the next round.
    pub async fn register_bot_webhooks(&self) -> AppResult<usize> {
        let mut set = 0;
        for bot in self.active_bots().await? {
            let told = match &bot.partner {
                Some(p) => p.webhook.clone(),
                None => self.raw_setting(PLATFORM_WEBHOOK_KEY).await?.filter(|v| !v.is_empty()),
            };
            let wanted = self.wanted_webhook(bot.bot_id);
            if told == wanted {
                continue;
            }
            let outcome = match &wanted {
                Some(_) => {
                    let secret = self.settings.secrets.derive(&webhook_purpose(bot.bot_id));
                    self.bots.set_webhook(&bot.token, &self.webhook_url(bot.bot_id), &secret).await
                }
                None => self.bots.delete_webhook(&bot.token).await,
            };
            match outcome {
                Ok(()) => {
                    self.record_webhook(&bot, wanted.as_deref()).await?;
                    set += 1;
                }
                Err(e) => self.bot_call_failed(&bot, "setting where its updates go", e).await?,
            }
        }
        Ok(set)
    }

    async fn record_webhook(&self, bot: &ActiveBot, webhook: Option<&str>) -> AppResult<()> {
        match &bot.partner {
            Some(p) => {
                let mut tx = self.store.begin().await?;
                tx.set_partner_bot_webhook(&p.account_id, webhook).await?;
                tx.commit().await?;
                Ok(())
            }
            None => self.set_raw_setting(PLATFORM_WEBHOOK_KEY, webhook.unwrap_or_default()).await,
        }
    }

    /// A call for a bot failed: a partner's token Telegram no longer accepts disconnects the
    /// bot; anything else waits for the next round.
    async fn bot_call_failed(&self, bot: &ActiveBot, doing: &str, e: BotApiError) -> AppResult<()> {
        match (&bot.partner, e) {
            (Some(partner), BotApiError::Rejected) => {
                let mut tx = self.store.begin().await?;
                self.bot_token_revoked(tx.as_mut(), partner).await?;
                tx.commit().await?;
            }
            (None, BotApiError::Rejected) => {
                tracing::error!(doing, "Telegram refused the notice bot's token; check VP_TELEGRAM_BOT_TOKEN");
            }
            (_, e) => tracing::warn!(bot_id = bot.bot_id, doing, error = %e, "a bot call failed; trying again later"),
        }
        Ok(())
    }

    /// One round of polling, by the holder of the poll lease only: takes or renews the lease
    /// for `holder`, then reads every bot's updates (waiting up to `wait` for them) and
    /// handles them. `None` when another process holds the lease.
    pub async fn poll_bot_updates_once(&self, holder: &str, wait: StdDuration) -> AppResult<Option<usize>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let held = tx.take_lease(POLL_LEASE, holder, now, now + POLL_LEASE_FOR).await?;
        tx.commit().await?;
        if !held {
            return Ok(None);
        }
        let mut polls = tokio::task::JoinSet::new();
        for bot in self.active_bots().await? {
            let app = self.clone();
            polls.spawn(async move { app.poll_bot(&bot, wait).await });
        }
        let mut handled = 0;
        while let Some(done) = polls.join_next().await {
            match done {
                Ok(Ok(n)) => handled += n,
                Ok(Err(e)) => tracing::warn!(error = %e, "polling a bot's updates failed"),
                Err(e) => tracing::error!(error = %e, "a bot's poll stopped"),
            }
        }
        Ok(Some(handled))
    }

    /// Gives up the poll lease (a clean stop), so another process polls at once.
    pub async fn release_poll_lease(&self, holder: &str) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.release_lease(POLL_LEASE, holder).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn poll_bot(&self, bot: &ActiveBot, wait: StdDuration) -> AppResult<usize> {
        let offset_key = match bot.partner {
            Some(_) => format!("telegram.update_offset.{}", bot.bot_id),
            None => PLATFORM_OFFSET_KEY.to_owned(),
        };
        let offset = self.raw_setting(&offset_key).await?.and_then(|v| v.parse().ok()).unwrap_or(0);
        let updates = match self.bots.updates(&bot.token, offset, wait).await {
            Ok(updates) => updates,
            // A webhook the messenger still has (from an https deployment, or a registration
            // not yet recorded): the next registration round removes it.
            Err(BotApiError::Conflict(reason)) => {
                tracing::warn!(bot_id = bot.bot_id, %reason, "the messenger holds this bot's updates elsewhere");
                self.record_webhook(bot, Some("unknown")).await?;
                return Ok(0);
            }
            Err(e) => {
                self.bot_call_failed(bot, "reading its updates", e).await?;
                return Ok(0);
            }
        };
        let mut next = offset;
        let mut handled = 0;
        for update in updates {
            next = next.max(update.update_id + 1);
            if self.handle_update(bot, update).await? {
                handled += 1;
            }
        }
        if next != offset {
            self.set_raw_setting(&offset_key, &next.to_string()).await?;
        }
        Ok(handled)
    }

    /// Handles an update unless it was before: the record that it was and what it changes
    /// commit together, then the answer is sent. Returns whether it was handled now.
    async fn handle_update(&self, bot: &ActiveBot, update: BotUpdate) -> AppResult<bool> {
        let mut tx = self.store.begin().await?;
        if !tx.claim_bot_update(bot.bot_id, update.update_id, self.clock.now()).await? {
            tx.commit().await?;
            return Ok(false);
        }
        let answer = match (&bot.partner, &update.message, &update.press) {
            (None, Some(said), _) => match said.command() {
                Some(("start", code)) if !code.is_empty() => {
                    Answer::Text(said.chat_id, self.link_partner_chat(tx.as_mut(), said.chat_id, code).await?)
                }
                _ => Answer::Nothing,
            },
            (Some(partner), Some(said), _) => {
                Answer::Customer(said.chat_id, self.customer_said(tx.as_mut(), partner, said).await?)
            }
            (Some(partner), None, Some(press)) => {
                Answer::Press(self.customer_pressed(tx.as_mut(), partner, press).await?)
            }
            _ => Answer::Nothing,
        };
        tx.commit().await?;
        let messages = match (answer, &bot.partner, &update.press) {
            (Answer::Text(chat_id, text), ..) => vec![BotMessage::text(chat_id, text)],
            (Answer::Customer(chat_id, reply), Some(partner), _) => {
                self.customer_messages(partner, chat_id, &reply).await?
            }
            (Answer::Press(lang), Some(partner), Some(press)) => {
                let answer = match self.shopper(partner, press.chat_id, press.user_id, lang).await? {
                    Some(shopper) => vec![self.shop_pressed(&shopper, press).await],
                    None => vec![],
                };
                // The person's app shows the press loading until it is confirmed.
                if let Err(e) = self.bots.answer_press(&bot.token, &press.id, None).await {
                    tracing::info!(bot_id = bot.bot_id, error = %e, "could not confirm a button press");
                }
                answer
            }
            _ => vec![],
        };
        for message in &messages {
            self.bot_pace.wait(bot.bot_id, None).await;
            match self.bots.send_message(&bot.token, message).await {
                Ok(()) => {}
                Err(e @ BotApiError::Rejected) => {
                    return self.bot_call_failed(bot, "answering", e).await.map(|()| true);
                }
                Err(e) => {
                    tracing::info!(bot_id = bot.bot_id, chat_id = message.chat_id, error = %e, "could not answer")
                }
            }
        }
        Ok(true)
    }

    /// Forgets handled updates older than Telegram keeps them, and expired link codes.
    pub async fn prune_bot_updates(&self) -> AppResult<u64> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let gone = tx.prune_bot_updates(now - UPDATES_KEPT).await? + tx.prune_client_link_codes(now).await?;
        tx.commit().await?;
        Ok(gone)
    }
}

/// What to answer an update with, decided in its unit of work: a text to a chat, a customer's
/// command, or a shop button press (in this language).
enum Answer {
    Nothing,
    Text(i64, String),
    Customer(i64, crate::customer_bot::CustomerReply),
    Press(vp_domain::Lang),
}

#[async_trait::async_trait]
impl BotUpdates for App {
    fn webhook_secret_ok(&self, bot_id: i64, secret: &str) -> bool {
        self.settings.secrets.derived_matches(&webhook_purpose(bot_id), secret)
    }

    async fn receive(&self, bot_id: i64, update: BotUpdate) -> Result<(), String> {
        let handled = async {
            match self.active_bot(bot_id).await? {
                Some(bot) => self.handle_update(&bot, update).await.map(|_| ()),
                // Disconnected since the webhook was set: nothing to do, and Telegram stops.
                None => Ok(()),
            }
        };
        handled.await.map_err(|e: AppError| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::PlatformBot;

    #[test]
    fn the_notice_bot_is_named_by_the_number_before_its_tokens_colon_and_never_shows_the_token() {
        let bot = PlatformBot::new("123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs").unwrap();
        assert_eq!(bot.bot_id(), 123_456_789);
        assert!(!format!("{bot:?}").contains("AAEh"));
        assert!(PlatformBot::new("not a token").is_none());
    }
}
