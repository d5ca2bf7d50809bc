//! A partner's own Telegram bot, run by the platform (docs/telegram.md): connecting it with its
//! BotFather token, reading and disconnecting it, and keeping its profile (name, descriptions,
//! commands) in step with the brand. The token is checked with the messenger first, then kept
//! only sealed under the secrets key and as its hash; it is never shown again.

use time::Duration;
use vp_domain::{Lang, backoff};
use vp_i18n::{text, text_with};
use vp_ports::bots::is_bot_token;
use vp_ports::{AccountRecord, BotApiError, BotProfile, BotProfileLanguage, NoticeKind, PartnerBotRecord, Tx};

use crate::App;
use crate::cabinet::Actor;
use crate::cabinet::audit::{self, Who};
use crate::error::{AppError, AppResult, Declined};
use crate::keys;

/// The account's bot the platform runs now: connected and not disconnected since.
pub(crate) async fn connected_bot(tx: &mut dyn Tx, account_id: &str) -> AppResult<Option<PartnerBotRecord>> {
    Ok(tx.partner_bot(account_id).await?.filter(|b| b.disconnected_at.is_none()))
}

/// What a bot's token is sealed for: the account it belongs to.
pub fn token_purpose(account_id: &str) -> String {
    format!("partner-bot-token:{account_id}")
}

impl App {
    /// Connects the account's bot: the token must be one Telegram accepts, of a bot no other
    /// account has. Connecting the same bot again (a token renewed in BotFather) replaces its
    /// token; another bot while one is connected is refused.
    pub async fn connect_bot(&self, account_id: &str, token: &str) -> AppResult<PartnerBotRecord> {
        self.connect_bot_by(account_id, token, Who::Operator).await
    }

    /// `connect_bot`, by a cabinet user (who is recorded in the account's activity).
    pub async fn cabinet_connect_bot(&self, actor: &Actor, token: &str) -> AppResult<PartnerBotRecord> {
        self.connect_bot_by(actor.account_id(), token, actor.into()).await
    }

    /// The signed-in person's account's bot.
    pub async fn cabinet_bot(&self, actor: &Actor) -> AppResult<Option<PartnerBotRecord>> {
        self.partner_bot(actor.account_id()).await
    }

    /// `disconnect_bot`, by a cabinet user.
    pub async fn cabinet_disconnect_bot(&self, actor: &Actor) -> AppResult<PartnerBotRecord> {
        self.disconnect_bot_by(actor.account_id(), actor.into()).await
    }

    async fn connect_bot_by(&self, account_id: &str, token: &str, who: Who<'_>) -> AppResult<PartnerBotRecord> {
        let token = token.trim();
        if !is_bot_token(token) {
            return Err(Declined::BotTokenMalformed.into());
        }
        self.require_account(account_id).await?;
        let identity = self.bots.identify(token).await.map_err(|e| match e {
            BotApiError::Rejected => AppError::Declined(Declined::BotTokenRejected),
            BotApiError::Unavailable(reason) | BotApiError::ChatGone(reason) | BotApiError::Conflict(reason) => {
                AppError::External(format!("Telegram did not answer: {reason}"))
            }
            BotApiError::Throttled(wait) => {
                AppError::External(format!("Telegram asks to wait {} s; try again then", wait.as_secs().max(1)))
            }
        })?;
        let token_hash = keys::hash(token);
        let mut tx = self.store.begin().await?;
        tx.lock_account(account_id).await?;
        if let Some(other) = tx.partner_bot_by_token(&token_hash, identity.bot_id).await?
            && other.account_id != account_id
        {
            return Err(Declined::BotTaken.into());
        }
        let existing = tx.partner_bot(account_id).await?;
        if let Some(held) = existing.as_ref().filter(|b| b.bot_id != identity.bot_id) {
            return Err(Declined::BotAlreadyConnected(held.username.clone()).into());
        }
        let bot = PartnerBotRecord {
            account_id: account_id.to_owned(),
            bot_id: identity.bot_id,
            username: identity.username,
            token_hash,
            token_sealed: self.settings.secrets.seal(&token_purpose(account_id), token),
            connected_at: self.clock.now(),
            disconnected_at: None,
            // A new token (or a bot coming back) shows its profile again.
            profile_revision: existing.as_ref().map_or(1, |b| b.profile_revision + 1),
            profile_synced: existing.as_ref().map_or(0, |b| b.profile_synced),
            profile_attempts: 0,
            profile_retry_at: None,
            profile_error: None,
            // The same bot keeps its webhook; a new one is registered by the next round.
            webhook: existing.as_ref().and_then(|b| b.webhook.clone()),
        };
        match existing {
            Some(_) => tx.update_partner_bot(&bot).await?,
            None => tx.insert_partner_bot(&bot).await.map_err(|e| match e {
                // Another account connected the same bot meanwhile.
                vp_ports::StoreError::Conflict(_) => AppError::Declined(Declined::BotTaken),
                other => AppError::Store(other),
            })?,
        }
        self.audit(tx.as_mut(), account_id, who, audit::BOT_CONNECTED, format!("@{}", bot.username)).await?;
        tx.commit().await?;
        tracing::info!(account_id, bot_id = bot.bot_id, username = %bot.username, "partner bot connected");
        Ok(bot)
    }

    /// The account's bot, if it has one.
    pub async fn partner_bot(&self, account_id: &str) -> AppResult<Option<PartnerBotRecord>> {
        self.require_account(account_id).await?;
        let mut tx = self.store.read().await?;
        let bot = tx.partner_bot(account_id).await?;
        tx.commit().await?;
        Ok(bot)
    }

    /// Disconnects the account's bot: the platform forgets its token.
    pub async fn disconnect_bot(&self, account_id: &str) -> AppResult<PartnerBotRecord> {
        self.disconnect_bot_by(account_id, Who::Operator).await
    }

    async fn disconnect_bot_by(&self, account_id: &str, who: Who<'_>) -> AppResult<PartnerBotRecord> {
        let known = self.partner_bot(account_id).await?.ok_or(AppError::NotFound("bot"))?;
        // Telegram stops posting the bot's updates here (asked outside the unit of work: it is
        // a call over the network); if it cannot be told, the posts that still come are
        // answered as for a bot the platform does not run.
        if known.webhook.is_some()
            && known.disconnected_at.is_none()
            && let Ok(token) = self.bot_token(&known)
            && let Err(e) = self.bots.delete_webhook(&token).await
        {
            tracing::info!(account_id, error = %e, "could not remove the webhook of a bot being disconnected");
        }
        let mut tx = self.store.begin().await?;
        let bot = tx.partner_bot(account_id).await?.ok_or(AppError::NotFound("bot"))?;
        tx.delete_partner_bot(account_id).await?;
        self.audit(tx.as_mut(), account_id, who, audit::BOT_DISCONNECTED, format!("@{}", bot.username)).await?;
        tx.commit().await?;
        tracing::info!(account_id, bot_id = bot.bot_id, "partner bot disconnected");
        Ok(bot)
    }

    pub(crate) async fn require_account(&self, account_id: &str) -> AppResult<()> {
        let mut tx = self.store.read().await?;
        crate::operator::load_account(tx.as_mut(), account_id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The token of a connected bot, opened for a call to the messenger.
    pub fn bot_token(&self, bot: &PartnerBotRecord) -> AppResult<String> {
        self.settings
            .secrets
            .open(&token_purpose(&bot.account_id), &bot.token_sealed)
            .map_err(|e| AppError::External(format!("the token of bot {}: {e}", bot.bot_id)))
    }
}

/// How long a claimed profile sync is not taken by another worker.
const PROFILE_LEASE: Duration = Duration::minutes(2);

/// The pause after `attempts` failed syncs: 30 s doubling, at most an hour.
fn profile_retry_delay(attempts: u32) -> Duration {
    backoff::doubling(attempts, Duration::seconds(30), Duration::hours(1))
}

/// The commands the bot answers, in the order Telegram lists them.
const COMMANDS: [(&str, &str); 6] = [
    ("start", "bot-command-start"),
    ("status", "bot-command-status"),
    ("connect", "bot-command-connect"),
    ("help", "bot-command-help"),
    ("language", "bot-command-language"),
    ("stop", "bot-command-stop"),
];

/// At most `max` characters of `text` (Telegram's limits count characters).
fn at_most(text: String, max: usize) -> String {
    if text.chars().count() <= max { text } else { text.chars().take(max).collect() }
}

/// How the account's bot presents itself: the brand as its name, and in each language a short
/// description and a description naming the brand (and the support address, when set) and
/// the command list. English first: it is the default for other languages.
pub fn bot_profile(account: &AccountRecord) -> BotProfile {
    let brand = account.brand_name.as_str();
    let languages = [(Lang::En, "en"), (Lang::Ru, "ru")]
        .into_iter()
        .map(|(lang, code)| {
            let description = match &account.style.support_url {
                Some(support) => text_with(
                    lang,
                    "bot-profile-description-support",
                    &[("brand", brand.into()), ("support", support.as_str().into())],
                ),
                None => text_with(lang, "bot-profile-description", &[("brand", brand.into())]),
            };
            BotProfileLanguage {
                code,
                short_description: at_most(text_with(lang, "bot-profile-short", &[("brand", brand.into())]), 120),
                description: at_most(description, 512),
                commands: COMMANDS.iter().map(|(command, key)| ((*command).to_owned(), text(lang, key))).collect(),
            }
        })
        .collect();
    BotProfile { name: at_most(brand.to_owned(), 64), languages }
}

impl App {
    /// Brings the profiles of up to `limit` bots in step with their accounts; returns how many
    /// are now in sync. Telegram's throttling and failures put a bot back with a pause; a token
    /// Telegram no longer accepts disconnects the bot and tells the partner.
    pub async fn sync_bot_profiles(&self, limit: u32) -> AppResult<usize> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let due = tx.claim_bot_profiles(now, now + PROFILE_LEASE, limit).await?;
        tx.commit().await?;
        let mut synced = 0;
        for bot in due {
            let outcome = match self.profile_of(&bot).await {
                Ok((profile, token)) => self.bots.set_profile(&token, &profile).await,
                Err(e) => Err(BotApiError::Unavailable(e.to_string())),
            };
            let mut tx = self.store.begin().await?;
            match outcome {
                Ok(()) => {
                    tx.mark_bot_profile_synced(&bot.account_id, bot.profile_revision).await?;
                    synced += 1;
                }
                Err(BotApiError::Rejected) => self.bot_token_revoked(tx.as_mut(), &bot).await?,
                Err(BotApiError::Throttled(wait)) => {
                    let wait = Duration::try_from(wait).unwrap_or(Duration::hours(1));
                    tx.defer_bot_profile(&bot.account_id, now + wait, "Telegram asked to wait").await?;
                }
                Err(
                    BotApiError::Unavailable(reason) | BotApiError::ChatGone(reason) | BotApiError::Conflict(reason),
                ) => {
                    let retry_at = now + profile_retry_delay(bot.profile_attempts + 1);
                    tracing::info!(account_id = %bot.account_id, %reason, "bot profile sync failed; retrying later");
                    tx.defer_bot_profile(&bot.account_id, retry_at, &reason).await?;
                }
            }
            tx.commit().await?;
        }
        Ok(synced)
    }

    /// The profile to show and the token to show it with.
    async fn profile_of(&self, bot: &PartnerBotRecord) -> AppResult<(BotProfile, String)> {
        let mut tx = self.store.read().await?;
        let account = tx.account(&bot.account_id).await?.ok_or(AppError::NotFound("account"))?;
        tx.commit().await?;
        Ok((bot_profile(&account), self.bot_token(bot)?))
    }

    /// Telegram no longer accepts the bot's token (revoked in BotFather): the bot is marked
    /// disconnected and the partner is told, in the same unit of work.
    pub(crate) async fn bot_token_revoked(&self, tx: &mut dyn Tx, bot: &PartnerBotRecord) -> AppResult<()> {
        let Some(mut current) = tx.partner_bot(&bot.account_id).await? else { return Ok(()) };
        if current.bot_id != bot.bot_id || current.disconnected_at.is_some() {
            return Ok(());
        }
        current.disconnected_at = Some(self.clock.now());
        current.profile_retry_at = None;
        tx.update_partner_bot(&current).await?;
        let notice = NoticeKind::BotDisconnected { bot_id: current.bot_id, username: current.username.clone() };
        self.notify(tx, &bot.account_id, notice).await?;
        tracing::warn!(account_id = %bot.account_id, bot_id = bot.bot_id, "Telegram refused the bot's token; disconnected");
        Ok(())
    }
}
