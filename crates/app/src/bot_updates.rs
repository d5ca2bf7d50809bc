//! Bots' updates (docs/telegram.md), the same for the platform's notice bot and partners'
//! bots. With an https public address every bot gets a webhook at
//! `{base}/telegram/{bot_id}/updates`, whose secret only this service can make (derived from
//! the secrets key, so nothing more is stored), and any instance takes the posts. Otherwise
//! (`cargo xtask run` on plain http) updates are polled by one process at a time: the holder of
//! a lease in the database, taken over once its holder stops renewing it. Either way an update
//! is handled once: its number is recorded in the unit of work that handles it (`record`), with
//! what it changes; the bot adapter (`vp-bots`, the `BotUpdates` driver of both ways) words the
//! answer, which goes out through the bots' one sender (`answer`).

use std::sync::Arc;
use std::time::Duration as StdDuration;

use time::Duration;
use vp_domain::Lang;
use vp_ports::{
    BotCommand, BotMessage, BotUpdate, BotUpdates, ButtonPress, Clock, Lease, PreCheckout, SettingKey, StarsPaid,
    StarsSubscriptionChange, Store, WebhookRegistration,
};

use crate::bot_shop::{BotShop, CustomerReply};
use crate::bots::managed::{BotCreateStart, BotCreated};
use crate::bots::sender::{ActiveBot, BotFailure, BotKind, BotSender, Pace, PollRefused};
use crate::bots::{PartnerBots, PlatformBot, language_of, partner_bot};
use crate::error::AppResult;
use crate::notices::{ChatLinked, Notices};
use crate::secrets::{SecretKeys, SecretPurpose};
use crate::setting;
use crate::stars::{CheckoutRefusal, RenewalInTelegram, StarsPayment};

/// How long a poller holds the lease without renewing it: a poller that died is replaced
/// within this (plus the waiting one's pause).
pub const POLL_LEASE_FOR: Duration = Duration::seconds(15);
/// A poll that came back with nothing sooner than this did not wait: it is not repeated in the
/// round.
const QUICK_POLL: StdDuration = StdDuration::from_millis(200);
/// Telegram keeps an update at most a day; the record of handled ones is kept twice that.
const UPDATES_KEPT: Duration = Duration::days(2);

/// An update recorded as handled, with what its unit of work decided.
pub struct Recorded {
    /// The bot it came to.
    pub bot: ActiveBot,
    pub handled: Handled,
}

/// What an update came to, for the bot adapter to answer.
pub enum Handled {
    /// The notice bot's `/start <code>` in `chat_id`: the chat linked with a good code, or
    /// `None` (its language unknown too).
    PartnerChatLinked { chat_id: i64, linked: Option<ChatLinked> },
    /// The platform's bot's `/start` with a "Create my bot" code in `chat_id`: the offer to
    /// create the bot, or why not, in `lang`.
    BotCreateStarted { chat_id: i64, lang: Lang, answer: BotCreateStart },
    /// A person created a bot through the platform's bot: what came of it, told in their chat.
    BotCreated { chat_id: i64, lang: Lang, outcome: BotCreated },
    /// A customer wrote to the partner's bot.
    Customer { chat_id: i64, reply: CustomerReply },
    /// A customer pressed one of the shop's buttons; answer in `lang`.
    Press { press: ButtonPress, lang: vp_domain::Lang },
    /// Nothing to answer.
    Nothing,
}

/// Where bots' updates come from and who handles them.
pub struct Updates {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) sender: Arc<BotSender>,
    pub(crate) public_base_url: String,
    pub(crate) platform_bot: Option<PlatformBot>,
    pub(crate) notices: Arc<Notices>,
    pub(crate) bots: Arc<PartnerBots>,
    pub(crate) shop: Arc<BotShop>,
    pub(crate) stars: Arc<crate::stars::Stars>,
}

impl Updates {
    /// Whether bots' updates come by webhook (an https public address) rather than polling.
    pub fn by_webhook(&self) -> bool {
        self.public_base_url.starts_with("https://")
    }

    fn webhook_url(&self, bot_id: i64) -> String {
        format!("{}/telegram/{bot_id}/updates", self.public_base_url)
    }

    /// What the messenger should have been told for a bot: the webhook address and the key
    /// its secret is derived under, or nothing (polling).
    fn wanted_webhook(&self, bot_id: i64) -> Option<WebhookRegistration> {
        self.by_webhook().then(|| WebhookRegistration::Webhook {
            url: self.webhook_url(bot_id),
            key_id: self.keys.current_id().to_owned(),
            kinds: vp_ports::bots::UPDATE_KINDS,
        })
    }

    /// The notice bot and every connected partner's bot whose token opens.
    async fn active_bots(&self) -> AppResult<Vec<ActiveBot>> {
        let mut bots: Vec<ActiveBot> = self.platform_bot.iter().map(PlatformBot::active).collect();
        let partners = read!(self.store, |tx| tx.partner_bots());
        for bot in partners.into_iter().filter(|b| b.disconnected_at.is_none()) {
            let bot_id = bot.bot_id;
            match partner_bot(&self.keys, bot) {
                Ok(active) => bots.push(active),
                Err(e) => tracing::error!(bot_id, error = %e, "a partner bot's token does not open"),
            }
        }
        Ok(bots)
    }

    /// The bot an update posted for `bot_id` belongs to, if the platform still runs it.
    async fn active_bot(&self, bot_id: i64) -> AppResult<Option<ActiveBot>> {
        if let Some(p) = self.platform_bot.as_ref().filter(|p| p.bot_id() == bot_id) {
            return Ok(Some(p.active()));
        }
        let mut tx = self.store.read().await?;
        let bot = tx.partner_bot_by_id(bot_id).await?.filter(|b| b.disconnected_at.is_none());
        tx.commit().await?;
        bot.map(|bot| partner_bot(&self.keys, bot)).transpose()
    }

    /// What the messenger was last told about the bot's updates.
    async fn told(&self, bot: &ActiveBot) -> AppResult<Option<WebhookRegistration>> {
        match &bot.kind {
            BotKind::Partner(p) => Ok(p.webhook.clone()),
            BotKind::Platform => Ok(setting::read(self.store.as_ref(), SettingKey::PlatformBotWebhook)
                .await?
                .and_then(|stored| WebhookRegistration::from_stored(&stored))),
        }
    }

    /// Tells the messenger where each bot's updates go, where that changed (a new bot, a new
    /// public address, a new secrets key, a switch between webhook and polling). Returns how
    /// many bots were set; a failure is retried on the next round.
    pub async fn register_bot_webhooks(&self) -> AppResult<usize> {
        let mut set = 0;
        for bot in self.active_bots().await? {
            let wanted = self.wanted_webhook(bot.bot_id);
            if self.told(&bot).await? == wanted {
                continue;
            }
            let outcome = match &wanted {
                Some(WebhookRegistration::Webhook { url, .. }) => {
                    let secret = self.keys.derive(SecretPurpose::TelegramWebhook { bot_id: bot.bot_id });
                    self.sender.set_webhook(&bot, url, &secret).await
                }
                Some(WebhookRegistration::Unknown) | None => self.sender.delete_webhook(&bot).await,
            };
            match outcome {
                Ok(()) => {
                    self.record_webhook(&bot, wanted.as_ref()).await?;
                    set += 1;
                }
                // A revoked partner bot is disconnected by the sender; anything else waits.
                Err(BotFailure::BotRevoked) => {}
                Err(e) => {
                    tracing::warn!(bot_id = bot.bot_id, error = %e, "setting where a bot's updates go failed; trying again later")
                }
            }
        }
        Ok(set)
    }

    async fn record_webhook(&self, bot: &ActiveBot, webhook: Option<&WebhookRegistration>) -> AppResult<()> {
        match &bot.kind {
            BotKind::Partner(p) => {
                let mut tx = self.store.begin().await?;
                tx.set_partner_bot_webhook(&p.account_id, webhook).await?;
                tx.commit().await?;
                Ok(())
            }
            BotKind::Platform => {
                let stored = webhook.map(WebhookRegistration::to_stored).unwrap_or_default();
                setting::write(self.store.as_ref(), SettingKey::PlatformBotWebhook, &stored, self.clock.now()).await
            }
        }
    }

    /// One round of polling, by the holder of the poll lease only: takes or renews the lease
    /// for `holder`, then reads and handles every bot's updates for `wait`, each bot long
    /// polling on its own. `None` when another process holds the lease.
    /// `handler` is the bot adapter, as for updates posted by webhook.
    pub async fn poll_bot_updates_once(
        self: &Arc<Self>,
        holder: &str,
        wait: StdDuration,
        handler: Arc<dyn BotUpdates>,
    ) -> AppResult<Option<usize>> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let held = tx.take_lease(Lease::BotUpdates, holder, now, now + POLL_LEASE_FOR).await?;
        tx.commit().await?;
        if !held {
            return Ok(None);
        }
        let mut polls = tokio::task::JoinSet::new();
        let round_ends = tokio::time::Instant::now() + wait;
        for bot in self.active_bots().await? {
            let (updates, handler) = (self.clone(), handler.clone());
            polls.spawn(async move { updates.poll_bot_until(&bot, round_ends, handler.as_ref()).await });
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
        crate::setting::release_lease(self.store.as_ref(), Lease::BotUpdates, holder).await
    }

    /// Polls one bot again as soon as its poll ends, until `round_ends`: an update of one bot
    /// never waits for another bot's long poll to end. A poll that comes back at once with
    /// nothing (a failure, a webhook held elsewhere, a round with no time left) ends the bot's
    /// round, so nothing spins.
    async fn poll_bot_until(
        &self,
        bot: &ActiveBot,
        round_ends: tokio::time::Instant,
        handler: &dyn BotUpdates,
    ) -> AppResult<usize> {
        let mut handled = 0;
        loop {
            let polled_at = tokio::time::Instant::now();
            let n = self.poll_bot(bot, round_ends.saturating_duration_since(polled_at), handler).await?;
            handled += n;
            let now = tokio::time::Instant::now();
            if now >= round_ends || (n == 0 && now - polled_at < QUICK_POLL) {
                return Ok(handled);
            }
        }
    }

    async fn poll_bot(&self, bot: &ActiveBot, wait: StdDuration, handler: &dyn BotUpdates) -> AppResult<usize> {
        let offset_key = SettingKey::UpdateOffset { bot_id: bot.bot_id };
        let offset = setting::read(self.store.as_ref(), offset_key).await?.and_then(|v| v.parse().ok()).unwrap_or(0);
        let updates = match self.sender.updates(bot, offset, wait).await {
            Ok(updates) => updates,
            // A webhook the messenger still has (from an https deployment, or a registration
            // not yet recorded): the next registration round removes it.
            Err(PollRefused::TakenElsewhere(reason)) => {
                tracing::warn!(bot_id = bot.bot_id, %reason, "the messenger holds this bot's updates elsewhere");
                self.record_webhook(bot, Some(&WebhookRegistration::Unknown)).await?;
                return Ok(0);
            }
            Err(PollRefused::Failed(BotFailure::BotRevoked)) => return Ok(0),
            Err(PollRefused::Failed(e)) => {
                tracing::warn!(bot_id = bot.bot_id, error = %e, "reading a bot's updates failed; trying again later");
                return Ok(0);
            }
        };
        let mut next = offset;
        let mut handled = 0;
        for update in updates {
            next = next.max(update.update_id + 1);
            if handler.receive(bot.bot_id, update).await.map_err(crate::AppError::External)? {
                handled += 1;
            }
        }
        if next != offset {
            setting::write(self.store.as_ref(), offset_key, &next.to_string(), self.clock.now()).await?;
        }
        Ok(handled)
    }

    /// Records an update of bot `bot_id` as handled, with what it changes, unless it was
    /// before (a redelivery, or another instance got it) or the platform does not run the bot
    /// (disconnected since its webhook was set): `None` then. `switches_language` is whether a
    /// press is the shop's language switch, as the adapter reads the button.
    pub async fn record(
        &self,
        bot_id: i64,
        update: &BotUpdate,
        switches_language: bool,
    ) -> AppResult<Option<Recorded>> {
        let Some(bot) = self.active_bot(bot_id).await? else { return Ok(None) };
        if let (BotKind::Platform, Some(shared)) = (&bot.kind, &update.managed_bot) {
            // Its own units of work: the bot's token is asked for before the update is claimed.
            let created = self.bots.managed_bot_shared(&bot, update.update_id, shared).await?;
            let Some((lang, outcome)) = created else { return Ok(None) };
            let handled = match outcome {
                Some(outcome) => Handled::BotCreated { chat_id: shared.user_id, lang, outcome },
                None => Handled::Nothing,
            };
            return Ok(Some(Recorded { bot, handled }));
        }
        let mut tx = self.store.begin().await?;
        if !tx.claim_bot_update(bot.bot_id, update.update_id, self.clock.now()).await? {
            tx.commit().await?;
            return Ok(None);
        }
        let handled = match (bot.partner(), &update.message, &update.press) {
            (None, Some(said), _) => match said.bot_command() {
                Some((BotCommand::Start, code)) if PlatformBot::is_create_code(code) => {
                    let language = said.language.as_deref();
                    let (lang, answer) = self.bots.start_bot_create(tx.as_mut(), said.user_id, code, language).await?;
                    Handled::BotCreateStarted { chat_id: said.chat_id, lang, answer }
                }
                Some((BotCommand::Start, code)) if !code.is_empty() => {
                    let linked = self.notices.link_partner_chat(tx.as_mut(), said.chat_id, code).await?;
                    Handled::PartnerChatLinked { chat_id: said.chat_id, linked }
                }
                _ => Handled::Nothing,
            },
            (Some(partner), Some(said), _) => {
                let reply = self.shop.customer_said(tx.as_mut(), partner, said).await?;
                Handled::Customer { chat_id: said.chat_id, reply }
            }
            (Some(partner), None, Some(press)) => {
                let lang = self.shop.customer_pressed(tx.as_mut(), partner, press, switches_language).await?;
                Handled::Press { press: press.clone(), lang }
            }
            _ => Handled::Nothing,
        };
        tx.commit().await?;
        Ok(Some(Recorded { bot, handled }))
    }

    /// Answers a pre-checkout query to a partner's bot at once (Telegram waits at most 10 s):
    /// the invoice may be paid, or not, with `word`'s reason in the person's language. `false`
    /// for a bot the platform does not run.
    pub async fn answer_pre_checkout(
        &self,
        bot_id: i64,
        query: &PreCheckout,
        word: impl Fn(CheckoutRefusal, Lang) -> String,
    ) -> AppResult<bool> {
        let Some(bot) = self.active_bot(bot_id).await? else { return Ok(false) };
        let Some(partner) = bot.partner() else { return Ok(false) };
        let refusal = self.stars.pre_checkout(&partner.account_id, query).await?;
        let reason = refusal.map(|r| word(r, language_of(None, query.language.as_deref())));
        if let Err(e) = self.sender.answer_pre_checkout(&bot, &query.id, reason.as_deref()).await {
            // Unanswered, Telegram tells the person the payment did not go through.
            tracing::warn!(bot_id, error = %e, "could not answer a pre-checkout query");
        }
        Ok(true)
    }

    /// A payment to a partner's bot, settled before its update is recorded as handled: a
    /// redelivery after a crash settles it then (once per charge, however often it comes).
    /// The bot may have been disconnected since the payment: the money is the account's still.
    pub async fn stars_paid(&self, bot_id: i64, paid: &StarsPaid) -> AppResult<Option<StarsPayment>> {
        let bot = read!(self.store, |tx| tx.partner_bot_by_id(bot_id));
        let Some(bot) = bot else { return Ok(None) };
        self.stars.paid(&bot.account_id, paid).await.map(Some)
    }

    /// A person's Stars subscription to a partner's bot changed in Telegram: applied before the
    /// update is recorded as handled (a redelivery changes nothing more), with what to tell
    /// them and in which language.
    pub async fn stars_subscription_changed(
        &self,
        bot_id: i64,
        change: &StarsSubscriptionChange,
    ) -> AppResult<Option<(RenewalInTelegram, Lang)>> {
        let bot = read!(self.store, |tx| tx.partner_bot_by_id(bot_id));
        let Some(bot) = bot else { return Ok(None) };
        let changed = self.stars.subscription_changed(&bot.account_id, change).await?;
        Ok(changed.map(|c| (c, language_of(None, change.language.as_deref()))))
    }

    /// Sends the answers to an update at the answer pace; a bot whose token was revoked
    /// meanwhile sends no more of them.
    pub async fn answer(&self, bot: &ActiveBot, messages: &[BotMessage]) {
        for message in messages {
            match self.sender.send(bot, message, Pace::Answer).await {
                Ok(()) => {}
                // Disconnected by the sender: nothing more goes out through this bot.
                Err(BotFailure::BotRevoked) => return,
                Err(e) => {
                    tracing::info!(bot_id = bot.bot_id, chat_id = message.chat_id, error = %e, "could not answer")
                }
            }
        }
    }

    /// Confirms a button press (the person's app shows it loading until then).
    pub async fn confirm_press(&self, bot: &ActiveBot, press: &ButtonPress) {
        if let Err(e) = self.sender.answer_press(bot, &press.id).await {
            tracing::info!(bot_id = bot.bot_id, error = %e, "could not confirm a button press");
        }
    }

    /// Whether `secret` is the one the platform gave Telegram for bot `bot_id`'s webhook
    /// (compared in constant time).
    pub fn webhook_secret_ok(&self, bot_id: i64, secret: &str) -> bool {
        self.keys.derived_matches(SecretPurpose::TelegramWebhook { bot_id }, secret)
    }

    /// Forgets handled updates older than Telegram keeps them, and expired link and "Create my
    /// bot" codes.
    pub async fn prune_bot_updates(&self) -> AppResult<u64> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let gone = tx.prune_bot_updates(now - UPDATES_KEPT).await?
            + tx.prune_client_link_codes(now).await?
            + tx.prune_bot_create_codes(now).await?;
        tx.commit().await?;
        Ok(gone)
    }
}
