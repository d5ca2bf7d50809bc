//! Partners' own Telegram bots, run by the platform (docs/telegram.md): connecting one with its
//! BotFather token, reading and disconnecting it, keeping its profile (name, descriptions,
//! commands) in step with the brand, and its statistics. The token is checked with the
//! messenger first, then kept only sealed under the secrets key and as its hash; it is never
//! shown again. Everything a bot sends goes through `sender`; its updates are `updates`.

mod customers;
pub mod managed;
mod pace;
pub mod sender;
pub mod wording;

use std::fmt;
use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use vp_domain::AccountId;
use vp_domain::backoff;
use vp_ports::bots::is_bot_token;
use vp_ports::{BotApi, BotIdentity, BotProfile, BotRepo, BotStats, Clock, PartnerBotRecord, Store};

use crate::audit::{Audit, AuditAction, Who};
use crate::error::{AppError, AppResult, Declined};
use crate::keys;
use crate::secrets::SecretKeys;
pub(crate) use customers::language_of;
pub use customers::new_bot_client_id;
use sender::{ActiveBot, BotFailure, BotKind, BotSender};
use wording::BotWording;

/// The account's bot the platform runs now: connected and not disconnected since.
pub(crate) async fn connected_bot(
    tx: &mut (impl BotRepo + ?Sized),
    account_id: &AccountId,
) -> AppResult<Option<PartnerBotRecord>> {
    Ok(tx.partner_bot(account_id).await?.filter(|b| b.disconnected_at.is_none()))
}

/// A partner's bot ready for calls, its token opened.
pub(crate) fn partner_bot(keys: &SecretKeys, bot: PartnerBotRecord) -> AppResult<ActiveBot> {
    Ok(ActiveBot { bot_id: bot.bot_id, token: keys.bot_token(&bot)?, kind: BotKind::Partner(Box::new(bot)) })
}

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
        if !is_bot_token(token) {
            return None;
        }
        let bot_id = token.split_once(':')?.0.parse().ok()?;
        Some(PlatformBot { token: token.to_owned(), bot_id })
    }

    pub fn bot_id(&self) -> i64 {
        self.bot_id
    }

    /// The token, for the log filter that keeps it out of every line.
    pub fn token(&self) -> &str {
        &self.token
    }

    pub(crate) fn active(&self) -> ActiveBot {
        ActiveBot { bot_id: self.bot_id, token: self.token.clone(), kind: BotKind::Platform }
    }
}

impl fmt::Debug for PlatformBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlatformBot").field("token", &"<redacted>").field("bot_id", &self.bot_id).finish()
    }
}

/// What `vp-api bot stats` reports: the account's bot over the last `STATS_DAYS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotReport {
    pub since: OffsetDateTime,
    pub stats: BotStats,
}

/// The period `vp-api bot stats` covers.
pub const STATS_DAYS: i64 = 30;

impl BotReport {
    /// Of the people who started the bot in the period, the share who paid, in percent with two
    /// decimals (rounded down; exact integers, no floats); "0.00" when nobody started it.
    pub fn conversion_percent(&self) -> String {
        let basis_points = (self.stats.started_and_paid * 10_000).checked_div(self.stats.started).unwrap_or(0);
        format!("{}.{:02}", basis_points / 100, basis_points % 100)
    }
}

/// Connecting, reading and disconnecting partners' bots, and keeping their profiles.
pub struct PartnerBots {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    /// To ask the messenger whose a pasted token is, before the bot is ours to send with.
    pub(crate) api: Arc<dyn BotApi>,
    pub(crate) keys: Arc<SecretKeys>,
    pub(crate) audit: Audit,
    pub(crate) sender: Arc<BotSender>,
    pub(crate) wording: Arc<dyn BotWording>,
    /// The platform's bot, which creates managed bots; without it only pasted tokens connect.
    pub(crate) platform_bot: Option<PlatformBot>,
    pub(crate) tokens: crate::tokens::Tokens,
}

impl PartnerBots {
    /// Connects the account's bot: the token must be one Telegram accepts, of a bot no other
    /// account has. Connecting the same bot again (a token renewed in BotFather) replaces its
    /// token; another bot while one is connected is refused. `who` is recorded in the
    /// account's activity.
    pub async fn connect_bot(&self, account_id: &AccountId, token: &str, who: Who<'_>) -> AppResult<PartnerBotRecord> {
        let token = token.trim();
        if !is_bot_token(token) {
            return Err(Declined::BotTokenMalformed.into());
        }
        require_account(self.store.as_ref(), account_id).await?;
        let identity = self.identify_token(token).await?;
        let mut tx = self.store.begin().await?;
        let bot = self.keep_bot(tx.as_mut(), account_id, &identity, token, who, false).await?;
        tx.commit().await?;
        tracing::info!(%account_id, bot_id = bot.bot_id, username = %bot.username, "partner bot connected");
        Ok(bot)
    }

    /// Whose `token` is, as Telegram says.
    pub(crate) async fn identify_token(&self, token: &str) -> AppResult<BotIdentity> {
        self.api.identify(token).await.map_err(|e| match BotFailure::of(e) {
            BotFailure::BotRevoked => AppError::Declined(Declined::BotTokenRejected),
            BotFailure::RetryAfter(wait) => {
                AppError::External(format!("Telegram asks to wait {} s; try again then", wait.as_secs().max(1)))
            }
            BotFailure::Retry(reason) | BotFailure::ChatGone(reason) => {
                AppError::External(format!("Telegram did not answer: {reason}"))
            }
        })
    }

    /// Keeps the bot `identity` names, with its token sealed, as the account's, in the unit of
    /// work `tx` (which it locks the account in). Connecting the same bot again (a token renewed
    /// in BotFather) replaces its token; another bot while one is connected is refused, and so
    /// is a bot another account has. `managed`: the platform's bot created it.
    pub(crate) async fn keep_bot(
        &self,
        tx: &mut (impl vp_ports::Tx + ?Sized),
        account_id: &AccountId,
        identity: &BotIdentity,
        token: &str,
        who: Who<'_>,
        managed: bool,
    ) -> AppResult<PartnerBotRecord> {
        let token_hash = keys::hash(token);
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
        let sealed = self.keys.seal_bot_token(account_id, token);
        let new = PartnerBotRecord::connected(
            account_id.clone(),
            identity.bot_id,
            identity.username.clone(),
            (token_hash, sealed),
            self.clock.now(),
        );
        let bot = PartnerBotRecord {
            // A new token (or a bot coming back) shows its profile again.
            profile_revision: existing.as_ref().map_or(1, |b| b.profile_revision + 1),
            profile_synced: existing.as_ref().map_or(0, |b| b.profile_synced),
            // The same bot keeps its webhook; a new one is registered by the next round.
            webhook: existing.as_ref().and_then(|b| b.webhook.clone()),
            // A managed bot given a pasted token stays one: its owner may still replace it.
            managed: managed || existing.as_ref().is_some_and(|b| b.managed),
            ..new
        };
        match existing {
            Some(_) => tx.update_partner_bot(&bot).await?,
            None => tx.insert_partner_bot(&bot).await.map_err(|e| match e {
                // Another account connected the same bot meanwhile.
                vp_ports::StoreError::Conflict(_) => AppError::Declined(Declined::BotTaken),
                other => AppError::Store(other),
            })?,
        }
        self.audit.record(tx, account_id, who, AuditAction::BotConnected, format!("@{}", bot.username)).await?;
        Ok(bot)
    }

    /// The account's bot, if it has one.
    pub async fn partner_bot(&self, account_id: &AccountId) -> AppResult<Option<PartnerBotRecord>> {
        require_account(self.store.as_ref(), account_id).await?;
        Ok(read!(self.store, |tx| tx.partner_bot(account_id)))
    }

    /// Disconnects the account's bot: the platform forgets its token.
    pub async fn disconnect_bot(&self, account_id: &AccountId, who: Who<'_>) -> AppResult<PartnerBotRecord> {
        let known = self.partner_bot(account_id).await?.ok_or(AppError::NotFound("bot"))?;
        // Telegram stops posting the bot's updates here (asked outside the unit of work: it is
        // a call over the network); if it cannot be told, the posts that still come are
        // answered as for a bot the platform does not run.
        if known.webhook.is_some()
            && known.disconnected_at.is_none()
            && let Ok(bot) = partner_bot(&self.keys, known)
            && let Err(e) = self.sender.delete_webhook(&bot).await
        {
            tracing::info!(%account_id, error = %e, "could not remove the webhook of a bot being disconnected");
        }
        let mut tx = self.store.begin().await?;
        let bot = tx.partner_bot(account_id).await?.ok_or(AppError::NotFound("bot"))?;
        tx.delete_partner_bot(account_id).await?;
        self.audit
            .record(tx.as_mut(), account_id, who, AuditAction::BotDisconnected, format!("@{}", bot.username))
            .await?;
        tx.commit().await?;
        tracing::info!(%account_id, bot_id = bot.bot_id, "partner bot disconnected");
        Ok(bot)
    }

    /// `vp-api bot stats`: the account's bot over the last 30 days.
    pub async fn bot_stats(&self, account_id: &AccountId) -> AppResult<BotReport> {
        require_account(self.store.as_ref(), account_id).await?;
        let since = self.clock.now() - Duration::days(STATS_DAYS);
        let stats = read!(self.store, |tx| tx.bot_stats(account_id, since));
        Ok(BotReport { since, stats })
    }

    /// Brings the profiles of up to `limit` bots in step with their accounts; returns how many
    /// are now in sync. Telegram's throttling and failures put a bot back with a pause; a token
    /// Telegram no longer accepts disconnects the bot and tells the partner (the sender does).
    pub async fn sync_bot_profiles(&self, limit: u32) -> AppResult<usize> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let due = tx.claim_bot_profiles(now, now + PROFILE_LEASE, limit).await?;
        tx.commit().await?;
        let mut synced = 0;
        for record in due {
            let outcome = match self.profile_of(&record).await {
                Ok((profile, bot)) => self.sender.set_profile(&bot, &profile).await,
                Err(e) => Err(BotFailure::Retry(e.to_string())),
            };
            let mut tx = self.store.begin().await?;
            match outcome {
                Ok(()) => {
                    tx.mark_bot_profile_synced(&record.account_id, record.profile_revision).await?;
                    synced += 1;
                }
                // Marked disconnected by the sender: nothing is owed until a new token comes.
                Err(BotFailure::BotRevoked) => {}
                Err(BotFailure::RetryAfter(wait)) => {
                    let wait = Duration::try_from(wait).unwrap_or(Duration::hours(1));
                    tx.defer_bot_profile(&record.account_id, now + wait, "Telegram asked to wait").await?;
                }
                Err(BotFailure::Retry(reason) | BotFailure::ChatGone(reason)) => {
                    let retry_at = now + profile_retry_delay(record.profile_attempts + 1);
                    tracing::info!(account_id = %record.account_id, %reason, "bot profile sync failed; retrying later");
                    tx.defer_bot_profile(&record.account_id, retry_at, &reason).await?;
                }
            }
            tx.commit().await?;
        }
        Ok(synced)
    }

    /// The profile to show and the bot to show it with.
    async fn profile_of(&self, record: &PartnerBotRecord) -> AppResult<(BotProfile, ActiveBot)> {
        let mut tx = self.store.read().await?;
        let account = tx.account(&record.account_id).await?.ok_or(AppError::NotFound("account"))?;
        tx.commit().await?;
        Ok((self.wording.profile(&account), partner_bot(&self.keys, record.clone())?))
    }
}

/// The account exists (`NotFound` otherwise).
pub(crate) async fn require_account(store: &dyn Store, account_id: &AccountId) -> AppResult<()> {
    let mut tx = store.read().await?;
    tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
    tx.commit().await?;
    Ok(())
}

/// How long a claimed profile sync is not taken by another worker.
const PROFILE_LEASE: Duration = Duration::minutes(2);

/// The pause after `attempts` failed syncs: 30 s doubling, at most an hour.
fn profile_retry_delay(attempts: u32) -> Duration {
    backoff::doubling(attempts, Duration::seconds(30), Duration::hours(1))
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;
    use vp_ports::BotStats;

    use super::{BotReport, PlatformBot};

    fn report(started: u64, started_and_paid: u64) -> BotReport {
        let stats = BotStats { started, linked: 0, purchases: 0, started_and_paid };
        BotReport { since: datetime!(2026-01-01 0:00 UTC), stats }
    }

    #[test]
    fn conversion_is_the_share_of_starters_who_paid_in_exact_hundredths_of_a_percent() {
        assert_eq!(report(0, 0).conversion_percent(), "0.00");
        assert_eq!(report(8, 1).conversion_percent(), "12.50");
        assert_eq!(report(3, 1).conversion_percent(), "33.33");
        assert_eq!(report(7, 7).conversion_percent(), "100.00");
    }

    #[test]
    fn the_notice_bot_is_named_by_the_number_before_its_tokens_colon_and_never_shows_the_token() {
        let bot = PlatformBot::new("123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs").unwrap();
        assert_eq!(bot.bot_id(), 123_456_789);
        assert!(!format!("{bot:?}").contains("AAEh"));
        assert!(PlatformBot::new("not a token").is_none());
    }
}
