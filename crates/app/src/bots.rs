//! A partner's own Telegram bot, run by the platform (docs/telegram.md): connecting it with its
//! BotFather token, reading and disconnecting it. The token is checked with the messenger
//! first, then kept only sealed under the secrets key and as its hash; it is never shown again.

use vp_ports::{BotApiError, PartnerBotRecord};

use crate::App;
use crate::error::{AppError, AppResult, Declined};
use crate::keys;

/// What a bot's token is sealed for: the account it belongs to.
pub fn token_purpose(account_id: &str) -> String {
    format!("partner-bot-token:{account_id}")
}

/// A token as BotFather gives it: the bot's numeric id, a colon, and its secret part.
fn token_shape_ok(token: &str) -> bool {
    let Some((id, secret)) = token.split_once(':') else { return false };
    (1..=20).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_digit())
        && (20..=100).contains(&secret.len())
        && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl App {
    /// Connects the account's bot: the token must be one Telegram accepts, of a bot no other
    /// account has. Connecting the same bot again (a token renewed in BotFather) replaces its
    /// token; another bot while one is connected is refused.
    pub async fn connect_bot(&self, account_id: &str, token: &str) -> AppResult<PartnerBotRecord> {
        let token = token.trim();
        if !token_shape_ok(token) {
            return Err(Declined::BotTokenMalformed.into());
        }
        self.require_account(account_id).await?;
        let identity = self.bots.identify(token).await.map_err(|e| match e {
            BotApiError::Rejected => AppError::Declined(Declined::BotTokenRejected),
            BotApiError::Unavailable(reason) => AppError::External(format!("Telegram did not answer: {reason}")),
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
        };
        match existing {
            Some(_) => tx.update_partner_bot(&bot).await?,
            None => tx.insert_partner_bot(&bot).await.map_err(|e| match e {
                // Another account connected the same bot meanwhile.
                vp_ports::StoreError::Conflict(_) => AppError::Declined(Declined::BotTaken),
                other => AppError::Store(other),
            })?,
        }
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
        let mut tx = self.store.begin().await?;
        let bot = tx.partner_bot(account_id).await?.ok_or(AppError::NotFound("bot"))?;
        tx.delete_partner_bot(account_id).await?;
        tx.commit().await?;
        tracing::info!(account_id, bot_id = bot.bot_id, "partner bot disconnected");
        Ok(bot)
    }

    async fn require_account(&self, account_id: &str) -> AppResult<()> {
        let mut tx = self.store.read().await?;
        let found = tx.account(account_id).await?;
        tx.commit().await?;
        found.map(|_| ()).ok_or(AppError::NotFound("account"))
    }

    /// The token of a connected bot, opened for a call to the messenger.
    pub fn bot_token(&self, bot: &PartnerBotRecord) -> AppResult<String> {
        self.settings
            .secrets
            .open(&token_purpose(&bot.account_id), &bot.token_sealed)
            .map_err(|e| AppError::External(format!("the token of bot {}: {e}", bot.bot_id)))
    }

    /// Refuses to go on when a stored secret was sealed under a key that is not configured:
    /// run at start, so a wrong `VP_SECRETS_KEY` stops the service before anything uses it.
    pub async fn check_secrets_key(&self) -> AppResult<()> {
        let mut tx = self.store.read().await?;
        let bots = tx.partner_bots().await?;
        tx.commit().await?;
        let unknown: Vec<&str> = bots
            .iter()
            .filter_map(|b| crate::secrets::SecretKeys::key_id_of(&b.token_sealed))
            .filter(|id| !self.settings.secrets.knows(id))
            .collect();
        match unknown.first() {
            None => Ok(()),
            Some(id) => Err(AppError::External(format!(
                "stored secrets are sealed under key {id}, which is not configured: set VP_SECRETS_KEY to the key \
                 they were sealed with (or, while rotating, VP_SECRETS_KEY_PREVIOUS)"
            ))),
        }
    }

    /// Seals every stored secret again under the current key (after a rotation: the new key in
    /// `VP_SECRETS_KEY`, the old one in `VP_SECRETS_KEY_PREVIOUS`); returns how many changed.
    pub async fn reseal_secrets(&self) -> AppResult<usize> {
        let secrets = &self.settings.secrets;
        let mut tx = self.store.begin().await?;
        let mut changed = 0;
        for mut bot in tx.partner_bots().await? {
            if crate::secrets::SecretKeys::key_id_of(&bot.token_sealed) == Some(secrets.current_id()) {
                continue;
            }
            let purpose = token_purpose(&bot.account_id);
            let token = secrets
                .open(&purpose, &bot.token_sealed)
                .map_err(|e| AppError::External(format!("the token of bot {}: {e}", bot.bot_id)))?;
            bot.token_sealed = secrets.seal(&purpose, &token);
            tx.update_partner_bot(&bot).await?;
            changed += 1;
        }
        tx.commit().await?;
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::token_shape_ok;

    #[test]
    fn a_token_has_the_shape_botfather_gives() {
        assert!(token_shape_ok("123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs"));
        assert!(!token_shape_ok("123456789"), "no secret part");
        assert!(!token_shape_ok("abc:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-bs"), "the id is a number");
        assert!(!token_shape_ok("123:short"));
        assert!(!token_shape_ok("123:AAEhBOweik6ad9r QXMENQjcrGbqCr4K-bs"), "no spaces");
        assert!(!token_shape_ok("123:AAEhBOweik6ad9r/QXMENQjcrGbqCr4K-bs"), "nothing that changes a URL path");
    }
}
