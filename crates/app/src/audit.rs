//! The account's activity: every cabinet action and every operator action on cabinet users,
//! written in the unit of work of the change it records.

use vp_domain::AccountId;
pub use vp_domain::audit::AuditAction;
use vp_ports::{AuditEntry, CabinetRepo};

use crate::actor::{Acting, Actor};
use crate::error::AppResult;
use crate::stamp::Stamp;

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

impl<'a> From<Acting<'a>> for Who<'a> {
    fn from(acting: Acting<'a>) -> Who<'a> {
        match acting {
            Acting::Partner(actor) => actor.into(),
            Acting::Operator(_) => Who::Operator,
        }
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
        account_id: &AccountId,
        who: Who<'_>,
        action: AuditAction,
        detail: String,
    ) -> AppResult<()> {
        let (user_id, actor) = match who {
            Who::User { id, email } => (Some(id.to_owned()), email.to_owned()),
            Who::Operator => (None, "operator".to_owned()),
        };
        let entry = AuditEntry {
            id: self.stamp.id("aud"),
            account_id: account_id.clone(),
            user_id,
            actor,
            action,
            detail,
            at: self.stamp.now(),
        };
        tx.insert_audit_entry(&entry).await?;
        Ok(())
    }
}
