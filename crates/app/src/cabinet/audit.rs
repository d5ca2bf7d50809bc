//! The account's activity: every cabinet action and every operator action on cabinet users,
//! written in the unit of work of the change it records.

use vp_ports::{AuditEntry, CabinetRepo};

use super::Actor;
use crate::error::AppResult;
use crate::stamp::Stamp;

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
pub const BOT_TOKEN_REPLACED: &str = "bot.token_replaced";
pub const RENEWAL_LINK_SET: &str = "bot.renewal_link_set";
pub const AUTO_RENEW_OFF: &str = "client.auto_renew_off";
pub const PROMO_CREATED: &str = "promo.created";
pub const PROMO_DISABLED: &str = "promo.disabled";
pub const REFERRALS_SET: &str = "referrals.set";
pub const BROADCAST_SENT: &str = "broadcast.sent";
pub const BROADCAST_PAUSED: &str = "broadcast.paused";
pub const BROADCAST_RESUMED: &str = "broadcast.resumed";
pub const BROADCAST_CANCELLED: &str = "broadcast.cancelled";

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

/// Writes the account's activity, in the unit of work of the change it records.
#[derive(Clone)]
pub(crate) struct Audit {
    pub(crate) stamp: Stamp,
}

impl Audit {
    pub(crate) async fn record(
        &self,
        tx: &mut (impl CabinetRepo + ?Sized),
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
            id: self.stamp.id("aud"),
            account_id: account_id.to_owned(),
            user_id,
            actor,
            action: action.to_owned(),
            detail,
            at: self.stamp.now(),
        };
        tx.insert_audit_entry(&entry).await?;
        Ok(())
    }
}
