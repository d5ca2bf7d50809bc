//! Broadcasts from the cabinet's page: the account's broadcasts with their counts, a preview
//! through the partner's bot to their linked chats, then sending, pausing, resuming and
//! cancelling. Each change is the signed-in person's.

use vp_domain::broadcast::{Audience, BroadcastAction};

use super::{Actor, Cabinet};
use crate::broadcasts::{BroadcastPreview, BroadcastSummary, NewBroadcast};
use crate::error::{AppError, AppResult, FieldErrors};

/// Broadcasts the page lists.
pub const BROADCAST_PAGE: u32 = 20;

/// The page's form as sent: raw text, read here. Empty optional fields mean "none".
#[derive(Debug, Clone, Default)]
pub struct BroadcastForm {
    pub text: String,
    pub text_ru: String,
    pub button_text: String,
    pub button_url: String,
    pub audience: String,
}

fn given(field: &str) -> Option<String> {
    Some(field.to_owned()).filter(|f| !f.trim().is_empty())
}

impl BroadcastForm {
    fn read(&self) -> AppResult<NewBroadcast> {
        let audience: Audience = self.audience.parse().map_err(|e: vp_domain::broadcast::AudienceUnknown| {
            AppError::Validation(FieldErrors::from([("audience".to_owned(), e.to_string())]))
        })?;
        Ok(NewBroadcast {
            text: self.text.clone(),
            text_ru: given(&self.text_ru),
            button_text: given(&self.button_text),
            button_url: given(&self.button_url),
            audience,
        })
    }
}

impl Cabinet {
    /// The account's latest broadcasts, newest first, with their counts.
    pub async fn broadcasts(&self, actor: &Actor) -> AppResult<Vec<BroadcastSummary>> {
        self.services.broadcasts.list(actor.account_id(), BROADCAST_PAGE).await
    }

    /// The latest broadcast, for the overview.
    pub async fn last_broadcast(&self, actor: &Actor) -> AppResult<Option<BroadcastSummary>> {
        Ok(self.services.broadcasts.list(actor.account_id(), 1).await?.into_iter().next())
    }

    /// Sends the form's broadcast to the account's linked chats through its bot.
    pub async fn preview_broadcast(&self, actor: &Actor, form: &BroadcastForm) -> AppResult<BroadcastPreview> {
        self.services.broadcasts.preview(actor.account_id(), &form.read()?).await
    }

    /// Sends the form's broadcast to its audience.
    pub async fn send_broadcast(&self, actor: &Actor, form: &BroadcastForm) -> AppResult<BroadcastSummary> {
        self.services.broadcasts.send(actor.account_id(), form.read()?, actor.into()).await
    }

    /// Pauses, resumes or cancels one of the account's broadcasts.
    pub async fn act_on_broadcast(
        &self,
        actor: &Actor,
        id: &str,
        action: BroadcastAction,
    ) -> AppResult<BroadcastSummary> {
        self.services.broadcasts.act(id, Some(actor.account_id()), action, actor.into()).await
    }
}
