//! The partner cabinet's records: its users, their set-password links, sessions, failed
//! sign-ins and the audit log. Tokens are stored only as hashes.

use time::OffsetDateTime;
use vp_domain::audit::AuditAction;
use vp_domain::{AccountId, CabinetUserId};

/// A person who signs in to an account's cabinet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CabinetUser {
    pub id: CabinetUserId,
    pub account_id: AccountId,
    /// Lower case (`vp_domain::cabinet::Email`); unique across the platform.
    pub email: String,
    /// Argon2id PHC string; `None` until the invitation is accepted.
    pub password_hash: Option<String>,
    pub created_at: OffsetDateTime,
    /// Access ended by the operator; such a user never signs in again.
    pub revoked_at: Option<OffsetDateTime>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CabinetLinkPurpose {
    /// The first password of a new user.
    Invite,
    /// A new password for a user who had one.
    Reset,
}

impl CabinetLinkPurpose {
    pub const fn as_str(self) -> &'static str {
        match self {
            CabinetLinkPurpose::Invite => "invite",
            CabinetLinkPurpose::Reset => "reset",
        }
    }

    pub fn parse(text: &str) -> Option<CabinetLinkPurpose> {
        match text {
            "invite" => Some(CabinetLinkPurpose::Invite),
            "reset" => Some(CabinetLinkPurpose::Reset),
            _ => None,
        }
    }
}

/// A one-time link where a user sets a password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CabinetLink {
    /// SHA-256 of the token in the link, hex.
    pub token_hash: String,
    pub user_id: String,
    pub purpose: CabinetLinkPurpose,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
}

/// A signed-in browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CabinetSession {
    /// SHA-256 of the cookie's token, hex.
    pub token_hash: String,
    pub user_id: String,
    /// Every state-changing form of this session carries it.
    pub csrf_token: String,
    pub created_at: OffsetDateTime,
    pub last_seen_at: OffsetDateTime,
}

/// Whose failed sign-ins are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInSource<'a> {
    Email(&'a str),
    Address(&'a str),
}

/// One line of an account's activity: who did what, when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: String,
    pub account_id: AccountId,
    /// The cabinet user, or `None` for the platform's operator.
    pub user_id: Option<String>,
    /// The user's email (or "operator") as it was then.
    pub actor: String,
    /// What was done, stored by its code (`endpoint.added`).
    pub action: AuditAction,
    /// The object and what changed, never a secret.
    pub detail: String,
    pub at: OffsetDateTime,
}
