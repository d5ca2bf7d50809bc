//! The account's activity: every cabinet action and every operator action on cabinet users,
//! written in the unit of work of the change it records.

use time::OffsetDateTime;
use vp_ports::{AuditEntry, Tx};

use super::Actor;
use crate::App;
use crate::error::AppResult;

pub const USER_INVITED: &str = "user.invited";
pub const USER_RESET_LINK: &str = "user.reset_link_issued";
pub const USER_REVOKED: &str = "user.revoked";
pub const PASSWORD_SET: &str = "user.password_set";
pub const SIGNED_IN: &str = "user.signed_in";
pub const SIGNED_OUT: &str = "user.signed_out";
pub const BRAND_RENAMED: &str = "account.brand_renamed";
pub const ENDPOINT_ADDED: &str = "endpoint.added";
pub const ENDPOINT_TYPES_CHANGED: &str = "endpoint.types_changed";
pub const ENDPOINT_ENABLED: &str = "endpoint.enabled";
pub const ENDPOINT_DISABLED: &str = "endpoint.disabled";
pub const ENDPOINT_SECRET_REVEALED: &str = "endpoint.secret_revealed";
pub const ENDPOINT_SECRET_ROTATED: &str = "endpoint.secret_rotated";
pub const ENDPOINT_TESTED: &str = "endpoint.tested";
pub const ENDPOINT_REPLAYED: &str = "endpoint.replayed";
pub const WITHDRAWAL_REQUESTED: &str = "withdrawal.requested";
pub const WITHDRAWAL_APPROVED: &str = "withdrawal.approved";
pub const WITHDRAWAL_REJECTED: &str = "withdrawal.rejected";
pub const WITHDRAWAL_PAID: &str = "withdrawal.paid";
pub const CHAT_LINKED: &str = "chat.linked";
pub const CHAT_UNLINKED: &str = "chat.unlinked";
pub const BOT_CONNECTED: &str = "bot.connected";
pub const BOT_DISCONNECTED: &str = "bot.disconnected";
pub const RENEWAL_LINK_SET: &str = "bot.renewal_link_set";

/// Who did it: a cabinet user, or the platform's operator (CLI).
pub enum Who<'a> {
    User { id: &'a str, email: &'a str },
    Operator,
}

impl<'a> From<&'a Actor> for Who<'a> {
    fn from(actor: &'a Actor) -> Who<'a> {
        Who::User { id: &actor.user.id, email: &actor.user.email }
    }
}

/// Newest first, at most this many a page.
pub const ACTIVITY_PAGE: u32 = 50;

impl App {
    pub(crate) async fn audit(
        &self,
        tx: &mut dyn Tx,
        account_id: &str,
        who: Who<'_>,
        action: &str,
        detail: String,
    ) -> AppResult<()> {
        let (user_id, actor) = match who {
            Who::User { id, email } => (Some(id.to_owned()), email.to_owned()),
            Who::Operator => (None, "operator".to_owned()),
        };
        let entry = AuditEntry {
            id: self.ids.new_id("aud"),
            account_id: account_id.to_owned(),
            user_id,
            actor,
            action: action.to_owned(),
            detail,
            at: self.clock.now(),
        };
        tx.insert_audit_entry(&entry).await?;
        Ok(())
    }

    /// A page of the account's activity, newest first, before the cursor `(at, id)`.
    pub async fn activity(
        &self,
        actor: &Actor,
        before: Option<(OffsetDateTime, String)>,
    ) -> AppResult<Vec<AuditEntry>> {
        let mut tx = self.store.read().await?;
        let entries = tx.audit_entries(actor.account_id(), before, ACTIVITY_PAGE).await?;
        tx.commit().await?;
        Ok(entries)
    }
}
