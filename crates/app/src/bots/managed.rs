//! Bots created through the platform's bot, with no token to copy (Telegram's managed bots,
//! docs/telegram.md "Managed bots"). A partner asks for a "Create my bot" link (the cabinet, or
//! `vp-api bot create-link`); the platform's bot answers its `/start` with the button that
//! creates a bot it manages; when Telegram says the bot exists, the platform asks for its token
//! and connects it as a pasted one is (`PartnerBots::keep_bot`). Its token is replaced the same
//! way (`rotate_token`), and the sender asks for the current one when a managed bot's token is
//! refused.

use time::OffsetDateTime;
use vp_domain::AccountId;
use vp_domain::Lang;
use vp_domain::managed_bot::{self, CREATE_CODE_PREFIX, CREATE_LINK_VALID_FOR};
use vp_ports::{BotCreateCode, ManagedBotRequest, ManagedBotShared, PartnerBotRecord, Tx};

use super::language_of;
use super::sender::ActiveBot;
use super::{PartnerBots, PlatformBot, connected_bot, require_account};
use crate::audit::{AuditAction, Who};
use crate::error::{AppError, AppResult, Declined};
use crate::keys;

/// A "Create my bot" link and until when it works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotCreateLink {
    pub url: String,
    pub expires_at: OffsetDateTime,
}

/// What the platform's bot answers a `/start` with a "Create my bot" code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotCreateStart {
    /// The button that creates the bot, suggesting the brand's name and a username.
    Offer { brand: String, request: ManagedBotRequest },
    /// No such code, or it expired.
    CodeUnknown,
    /// Someone else opened the link first: it is theirs.
    CodeTaken,
    /// The account has a bot already (`username`).
    AlreadyConnected { brand: String, username: String },
}

/// What came of a bot the person created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotCreated {
    /// Connected to the account of `brand`.
    Connected { brand: String, username: String },
    /// The person has no link of theirs waiting (never opened one, it expired, or was used).
    NoLink,
    /// The account got another bot meanwhile.
    AlreadyConnected { brand: String, username: String },
    /// Another account has this bot.
    Taken,
}

impl PartnerBots {
    /// Whether the platform has a bot of its own to create partners' bots with.
    pub fn creates_bots(&self) -> bool {
        self.platform_bot.is_some()
    }

    /// A one-time "Create my bot" link for the account (24 hours, for the first person who
    /// opens it). Refused when the account has a bot, when the platform has no bot, and when
    /// the platform's bot may not create bots (Bot Management Mode off in BotFather).
    pub async fn bot_create_link(&self, account_id: &AccountId, who: Who<'_>, lang: Lang) -> AppResult<BotCreateLink> {
        let platform = self.platform_bot.as_ref().ok_or(Declined::NoPlatformBot)?;
        require_account(self.store.as_ref(), account_id).await?;
        // Even one Telegram stopped accepting: it is replaced by its own new token, or
        // disconnected first (as for a pasted token).
        if let Some(bot) = read!(self.store, |tx| tx.partner_bot(account_id)) {
            return Err(Declined::BotAlreadyConnected(bot.username).into());
        }
        let me = self
            .sender
            .identify(&platform.active())
            .await
            .map_err(|e| AppError::External(format!("cannot ask Telegram about the platform's bot: {e}")))?;
        if !me.can_manage_bots {
            return Err(Declined::BotManagementOff(me.username).into());
        }
        let code = format!("{CREATE_CODE_PREFIX}{}", self.tokens.random());
        let code_hash = keys::hash(&code);
        let expires_at = self.clock.now() + CREATE_LINK_VALID_FOR;
        let (requested_by_user, requested_by) = match who {
            Who::User { id, email } => (Some(id.to_owned()), email.to_owned()),
            Who::Operator => (None, "operator".to_owned()),
        };
        let mut tx = self.store.begin().await?;
        tx.insert_bot_create_code(&BotCreateCode {
            request_id: managed_bot::request_id(seed(&code_hash)),
            code_hash,
            account_id: account_id.clone(),
            requested_by_user,
            requested_by,
            lang,
            expires_at,
            opened_by: None,
        })
        .await?;
        tx.commit().await?;
        Ok(BotCreateLink { url: format!("https://t.me/{}?start={code}", me.username), expires_at })
    }

    /// The platform's bot's `/start <code>` from Telegram user `user_id`, in the unit of work
    /// the update is handled in: the offer to create the bot (the code is the person's from
    /// now on), or why not, with the language to say it in.
    pub(crate) async fn start_bot_create(
        &self,
        tx: &mut (impl Tx + ?Sized),
        user_id: i64,
        code: &str,
        app_language: Option<&str>,
    ) -> AppResult<(Lang, BotCreateStart)> {
        let person = language_of(None, app_language);
        let now = self.clock.now();
        let code_hash = keys::hash(code);
        let Some(found) = tx.bot_create_code(&code_hash).await?.filter(|c| c.expires_at > now) else {
            return Ok((person, BotCreateStart::CodeUnknown));
        };
        if found.opened_by.is_some_and(|opener| opener != user_id) {
            return Ok((person, BotCreateStart::CodeTaken));
        }
        let Some(account) = tx.account(&found.account_id).await? else {
            return Ok((person, BotCreateStart::CodeUnknown));
        };
        let brand = account.brand_name.as_str().to_owned();
        if let Some(bot) = tx.partner_bot(&found.account_id).await? {
            return Ok((found.lang, BotCreateStart::AlreadyConnected { brand, username: bot.username }));
        }
        tx.open_bot_create_code(&code_hash, user_id).await?;
        let request = ManagedBotRequest {
            request_id: found.request_id,
            suggested_name: managed_bot::suggested_name(&brand),
            suggested_username: managed_bot::suggested_username(&brand, u32::from_be_bytes(seed(&code_hash))),
        };
        Ok((found.lang, BotCreateStart::Offer { brand, request }))
    }

    /// Telegram says a bot the platform's bot manages was created, or its token or owner
    /// changed (update `update_id` of the platform's bot). A bot the platform runs already gets
    /// its current token; a new one is connected to the account whose link its creator opened.
    /// `None` when the update was handled before. The token is asked for before the unit of
    /// work, so a failure leaves the update to come again.
    pub(crate) async fn managed_bot_shared(
        &self,
        platform: &ActiveBot,
        update_id: i64,
        shared: &ManagedBotShared,
    ) -> AppResult<Option<(Lang, Option<BotCreated>)>> {
        let now = self.clock.now();
        let person = language_of(None, shared.language.as_deref());
        let (known, code) = {
            let mut tx = self.store.read().await?;
            let known = tx.partner_bot_by_id(shared.bot_id).await?;
            let code = tx.bot_create_code_opened_by(shared.user_id, now).await?;
            tx.commit().await?;
            (known, code)
        };
        if let Some(known) = known.filter(|b| b.managed && b.disconnected_at.is_none()) {
            // A new token or owner (BotFather), or news of a bot connected by a link already:
            // the current token is kept.
            let token = self.managed_token(platform, shared.bot_id).await?;
            let mut tx = self.store.begin().await?;
            if !tx.claim_bot_update(platform.bot_id, update_id, now).await? {
                return Ok(None);
            }
            tx.commit().await?;
            if keys::hash(&token) != known.token_hash {
                self.sender.store_token(&known, &token).await?;
            }
            return Ok(Some((person, None)));
        }
        let Some(_) = code else {
            let mut tx = self.store.begin().await?;
            let claimed = tx.claim_bot_update(platform.bot_id, update_id, now).await?;
            tx.commit().await?;
            return Ok(claimed.then_some((person, Some(BotCreated::NoLink))));
        };
        let token = self.managed_token(platform, shared.bot_id).await?;
        let identity = self.identify_token(&token).await?;
        let mut tx = self.store.begin().await?;
        if !tx.claim_bot_update(platform.bot_id, update_id, now).await? {
            return Ok(None);
        }
        let Some(code) = tx.bot_create_code_opened_by(shared.user_id, now).await? else {
            tx.commit().await?;
            return Ok(Some((person, Some(BotCreated::NoLink))));
        };
        // Used once: whatever comes of it, the code is gone with this unit of work. Gone
        // already: the other news of the same creation (update or message) used it.
        if !tx.delete_bot_create_code(&code.code_hash).await? {
            tx.commit().await?;
            return Ok(Some((person, None)));
        }
        let Some(account) = tx.account(&code.account_id).await? else {
            tx.commit().await?;
            return Ok(Some((person, Some(BotCreated::NoLink))));
        };
        let brand = account.brand_name.as_str().to_owned();
        let who = match &code.requested_by_user {
            Some(id) => Who::User { id, email: &code.requested_by },
            None => Who::Operator,
        };
        let kept = self.keep_bot(tx.as_mut(), &code.account_id, &identity, &token, who, true).await;
        let outcome = match kept {
            Ok(bot) => BotCreated::Connected { brand, username: bot.username },
            Err(AppError::Declined(Declined::BotAlreadyConnected(username))) => {
                BotCreated::AlreadyConnected { brand, username }
            }
            Err(AppError::Declined(Declined::BotTaken)) => BotCreated::Taken,
            Err(e) => return Err(e),
        };
        tx.commit().await?;
        if let BotCreated::Connected { username, .. } = &outcome {
            tracing::info!(account_id = %code.account_id, bot_id = shared.bot_id, %username, "managed bot connected");
        }
        Ok(Some((code.lang, Some(outcome))))
    }

    /// Replaces the token of the account's managed bot: Telegram refuses the old one from now
    /// on, the platform uses the new one. A bot connected with a pasted token is refused (its
    /// owner revokes the token in BotFather and connects the new one).
    pub async fn rotate_token(&self, account_id: &AccountId, who: Who<'_>) -> AppResult<PartnerBotRecord> {
        require_account(self.store.as_ref(), account_id).await?;
        let bot = read!(self.store, |tx| connected_bot(tx.as_mut(), account_id)).ok_or(AppError::NotFound("bot"))?;
        if !bot.managed {
            return Err(Declined::BotNotManaged.into());
        }
        let platform = self.platform_bot.as_ref().ok_or(Declined::NoPlatformBot)?;
        let token = self
            .api
            .replace_managed_bot_token(platform.token(), bot.bot_id)
            .await
            .map_err(|e| AppError::External(format!("Telegram did not replace the token: {e}")))?;
        // Calls still made with the old token meanwhile are refused; the sender then asks
        // Telegram for the current token, so the bot is not taken for revoked.
        self.sender.store_token(&bot, &token).await?;
        let mut tx = self.store.begin().await?;
        let current = connected_bot(tx.as_mut(), account_id).await?.ok_or(AppError::NotFound("bot"))?;
        self.audit
            .record(tx.as_mut(), account_id, who, AuditAction::BotTokenReplaced, format!("@{}", bot.username))
            .await?;
        tx.commit().await?;
        tracing::info!(%account_id, bot_id = bot.bot_id, "managed bot's token replaced");
        Ok(current)
    }

    /// The current token of managed bot `bot_id`; a failure asks for the update again later.
    async fn managed_token(&self, platform: &ActiveBot, bot_id: i64) -> AppResult<String> {
        self.api
            .managed_bot_token(&platform.token, bot_id)
            .await
            .map_err(|e| AppError::External(format!("Telegram did not give the managed bot's token: {e}")))
    }
}

/// Four bytes of a code's hash (hex), for the numbers derived from it.
fn seed(code_hash: &str) -> [u8; 4] {
    let mut seed = [0u8; 4];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = code_hash.get(i * 2..i * 2 + 2).and_then(|h| u8::from_str_radix(h, 16).ok()).unwrap_or(0);
    }
    seed
}

impl PlatformBot {
    /// Whether `/start`'s parameter is a "Create my bot" code rather than a chat link's.
    pub(crate) fn is_create_code(code: &str) -> bool {
        code.starts_with(CREATE_CODE_PREFIX)
    }
}
