//! Who acts in the cabinet: the signed-in person of a partner, scoped to their account. The
//! cabinet's own use cases take the `Actor`; the areas' services a page calls directly take it
//! as `Acting`, so an object of another account is never reached.

use vp_domain::AccountId;
use vp_ports::{AccountRecord, CabinetUser};

/// Someone signed in to the cabinet, as every cabinet request sees them.
#[derive(Debug, Clone)]
pub struct Actor {
    pub user: CabinetUser,
    pub account: AccountRecord,
    /// The session's form token: every state-changing form must carry it.
    pub csrf_token: String,
    /// The session (SHA-256 of the cookie), to end it.
    pub session: String,
}

impl Actor {
    pub fn account_id(&self) -> &AccountId {
        &self.account.id
    }
}

/// Who acts, on which account: a signed-in person of a partner on their own account, or the
/// platform's operator (the CLI) on the account it names. A service that shows or changes an
/// account's objects takes this instead of an account id and an actor apart, so a cabinet page,
/// which holds only its `Actor`, cannot name another account.
#[derive(Debug, Clone, Copy)]
pub enum Acting<'a> {
    Partner(&'a Actor),
    Operator(&'a AccountId),
}

impl<'a> Acting<'a> {
    /// The account acted on.
    pub fn account_id(&self) -> &'a AccountId {
        match self {
            Acting::Partner(actor) => &actor.account.id,
            Acting::Operator(account_id) => account_id,
        }
    }
}

impl<'a> From<&'a Actor> for Acting<'a> {
    fn from(actor: &'a Actor) -> Acting<'a> {
        Acting::Partner(actor)
    }
}
