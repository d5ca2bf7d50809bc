//! The partner cabinet: people of a partner who sign in with an email and a password to manage
//! the account's webhook addresses, balance and withdrawals, and to look at its clients. Every
//! use case here takes the signed-in `Actor`, so an object of another account is never reached.

mod access;
mod account;
pub mod audit;
mod clients;
mod endpoints;
mod money;
mod password;

use vp_ports::{AccountRecord, CabinetUser};

pub use access::{Invitation, LinkView, SignInRefusal, SignedIn};
pub use clients::{CLIENT_INVOICES, ClientDetail};
pub use endpoints::DELIVERY_LOG_PAGE;
pub use money::WITHDRAWAL_PAGE;

/// Where a set-password link points (under the public base URL).
pub const LINK_PATH: &str = "/cabinet/welcome/";

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
    pub fn account_id(&self) -> &str {
        &self.account.id
    }
}
