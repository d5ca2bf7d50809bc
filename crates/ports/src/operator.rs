//! The platform's operators, who sign in at `/operator` (the operator's view), and what they
//! did there. Their set-password links and sessions are `CabinetLink` and `CabinetSession`
//! records kept in tables of their own, the link's and session's `user_id` naming the operator.

use time::OffsetDateTime;
use vp_domain::OperatorId;
use vp_domain::audit::OperatorAction;

/// A person of the platform who signs in to the operator's view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorRecord {
    pub id: OperatorId,
    /// Lower case (`vp_domain::cabinet::Email`); unique among operators.
    pub email: String,
    /// Argon2id PHC string; `None` until the invitation is accepted.
    pub password_hash: Option<String>,
    pub created_at: OffsetDateTime,
    /// Access ended (`vp-api operator revoke`) until a new invitation.
    pub revoked_at: Option<OffsetDateTime>,
}

/// One line of the operators' audit: who did or looked at what, when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorAuditEntry {
    pub id: String,
    /// The operator, or `None` for `vp-api` (the invitation and revocation commands).
    pub operator_id: Option<OperatorId>,
    /// The operator's email (or "vp-api") as it was then.
    pub actor: String,
    pub action: OperatorAction,
    /// What the page showed or the command did, never a secret.
    pub detail: String,
    pub at: OffsetDateTime,
}
