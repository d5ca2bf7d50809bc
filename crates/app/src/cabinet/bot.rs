//! The partner's own bot from the cabinet: connecting and disconnecting it, and the renewal link
//! its reminders offer customers who did not buy in the bot.

use vp_domain::Lang;
use vp_ports::PartnerBotRecord;

use super::{Actor, Cabinet};
use crate::audit::AuditAction;
use crate::bots::managed::BotCreateLink;
use crate::error::{AppError, AppResult, FieldErrors};

impl Cabinet {
    /// The signed-in person's account's bot.
    pub async fn bot(&self, actor: &Actor) -> AppResult<Option<PartnerBotRecord>> {
        self.services.bots.partner_bot(actor.account_id()).await
    }

    pub async fn connect_bot(&self, actor: &Actor, token: &str) -> AppResult<PartnerBotRecord> {
        self.services.bots.connect_bot(actor.account_id(), token, actor.into()).await
    }

    pub async fn disconnect_bot(&self, actor: &Actor) -> AppResult<PartnerBotRecord> {
        self.services.bots.disconnect_bot(actor.account_id(), actor.into()).await
    }

    /// Whether the platform has a bot of its own to create partners' bots with.
    pub fn creates_bots(&self) -> bool {
        self.services.bots.creates_bots()
    }

    /// A "Create my bot" link, for the platform's bot to speak in `lang`.
    pub async fn bot_create_link(&self, actor: &Actor, lang: Lang) -> AppResult<BotCreateLink> {
        self.services.bots.bot_create_link(actor.account_id(), actor.into(), lang).await
    }

    /// A new token for the account's managed bot.
    pub async fn rotate_bot_token(&self, actor: &Actor) -> AppResult<PartnerBotRecord> {
        self.services.bots.rotate_token(actor.account_id(), actor.into()).await
    }

    /// The account's renewal link, where reminders send a customer.
    pub async fn renewal_url(&self, actor: &Actor) -> AppResult<Option<String>> {
        Ok(read!(self.store, |tx| tx.renewal_url(actor.account_id())))
    }

    /// Sets (an https address) or clears (empty) the account's renewal link.
    pub async fn set_renewal_url(&self, actor: &Actor, url: &str) -> AppResult<Option<String>> {
        let url = url.trim();
        let url = match url {
            "" => None,
            given => Some(crate::style::https_url(given).map_err(|why| {
                let mut errors = FieldErrors::new();
                errors.insert("renewal_url".to_owned(), why);
                AppError::Validation(errors)
            })?),
        };
        let mut tx = self.store.begin().await?;
        tx.set_renewal_url(actor.account_id(), url.as_deref()).await?;
        let detail = url.clone().unwrap_or_else(|| "cleared".into());
        self.audit.record(tx.as_mut(), actor.account_id(), actor.into(), AuditAction::RenewalLinkSet, detail).await?;
        tx.commit().await?;
        Ok(url)
    }
}
