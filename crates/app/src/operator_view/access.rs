//! Getting into the operator's view: `vp-api operator invite|revoke|list`, and the shared way
//! in through the operators' door (`operators`, `operator_links`, `operator_sessions`), whose
//! audit is `operator_audit`.

use std::ops::Deref;

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::OperatorId;
use vp_domain::audit::OperatorAction;
use vp_domain::cabinet::Email;
use vp_ports::store::StoreResult;
use vp_ports::{CabinetLink, CabinetLinkPurpose, CabinetSession, OperatorAuditEntry, OperatorRecord, Tx};

use super::LINK_PATH;
use crate::entrance::{Door, Entered, Entrance, Person};
use crate::error::{AppError, AppResult};
use crate::stamp::Stamp;

/// A set-password link for an operator; shown once.
#[derive(Debug, Clone)]
pub struct OperatorInvitation {
    pub operator: OperatorRecord,
    pub purpose: CabinetLinkPurpose,
    pub link: String,
    pub expires_at: OffsetDateTime,
    /// The message carrying the link (`vp-api mail show`).
    pub mail_id: String,
}

/// An operator signed in, as every `/operator` request sees them.
#[derive(Debug, Clone)]
pub struct OperatorActor {
    pub operator: OperatorRecord,
    /// The session's form token: every state-changing form must carry it.
    pub csrf_token: String,
    /// The session (SHA-256 of the cookie), to end it.
    pub session: String,
}

impl Person for OperatorRecord {
    fn id(&self) -> &str {
        self.id.as_str()
    }
    fn email(&self) -> &str {
        &self.email
    }
    fn password_hash(&self) -> Option<&str> {
        self.password_hash.as_deref()
    }
    fn revoked(&self) -> bool {
        self.revoked_at.is_some()
    }
    fn set_password_hash(&mut self, hash: String) {
        self.password_hash = Some(hash);
    }
    fn let_in_again(&mut self) {
        self.revoked_at = None;
        self.password_hash = None;
    }
}

/// The operators' door.
pub struct OperatorDoor {
    pub(crate) stamp: Stamp,
}

impl OperatorDoor {
    /// Writes one line of the operators' audit in the caller's unit of work; `operator` is
    /// `None` for `vp-api`.
    pub(crate) async fn audit(
        &self,
        tx: &mut dyn Tx,
        operator: Option<&OperatorRecord>,
        action: OperatorAction,
        detail: String,
    ) -> AppResult<()> {
        let entry = OperatorAuditEntry {
            id: self.stamp.id("opa"),
            operator_id: operator.map(|o| o.id.clone()),
            actor: operator.map_or_else(|| "vp-api".to_owned(), |o| o.email.clone()),
            action,
            detail,
            at: self.stamp.now(),
        };
        tx.insert_operator_audit(&entry).await?;
        Ok(())
    }
}

#[async_trait]
impl Door for OperatorDoor {
    type Person = OperatorRecord;

    async fn person(&self, tx: &mut dyn Tx, id: &str) -> StoreResult<Option<OperatorRecord>> {
        tx.operator(id).await
    }
    async fn person_by_email(&self, tx: &mut dyn Tx, email: &str) -> StoreResult<Option<OperatorRecord>> {
        tx.operator_by_email(email).await
    }
    async fn save_person(&self, tx: &mut dyn Tx, operator: &OperatorRecord) -> StoreResult<()> {
        tx.update_operator(operator).await
    }
    async fn insert_link(&self, tx: &mut dyn Tx, link: &CabinetLink) -> StoreResult<()> {
        tx.insert_operator_link(link).await
    }
    async fn link(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
        tx.operator_link(token_hash).await
    }
    async fn spend_links(&self, tx: &mut dyn Tx, operator_id: &str, at: OffsetDateTime) -> StoreResult<()> {
        tx.spend_operator_links(operator_id, at).await
    }
    async fn insert_session(&self, tx: &mut dyn Tx, session: &CabinetSession) -> StoreResult<()> {
        tx.insert_operator_session(session).await
    }
    async fn session(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
        tx.operator_session(token_hash).await
    }
    async fn touch_session(&self, tx: &mut dyn Tx, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        tx.touch_operator_session(token_hash, at).await
    }
    async fn delete_session(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<()> {
        tx.delete_operator_session(token_hash).await
    }
    async fn delete_sessions(&self, tx: &mut dyn Tx, operator_id: &str) -> StoreResult<u64> {
        tx.delete_operator_sessions(operator_id).await
    }
    async fn record(&self, tx: &mut dyn Tx, operator: &OperatorRecord, what: Entered, detail: String) -> AppResult<()> {
        let action = match what {
            Entered::PasswordSet => OperatorAction::PasswordSet,
            Entered::SignedIn => OperatorAction::SignedIn,
            Entered::SignedOut => OperatorAction::SignedOut,
        };
        self.audit(tx, Some(operator), action, detail).await
    }
}

/// Getting into the operator's view: invitations and revocations (`vp-api`), and the way in
/// (`Entrance`, which this derefs to).
pub struct OperatorAccess {
    pub(crate) entrance: Entrance<OperatorDoor>,
    pub(crate) public_base_url: String,
    pub(crate) mail: crate::mail::MailQueue,
}

impl Deref for OperatorAccess {
    type Target = Entrance<OperatorDoor>;
    fn deref(&self) -> &Entrance<OperatorDoor> {
        &self.entrance
    }
}

impl OperatorAccess {
    /// Whether the view is served over https, so its cookies are `Secure`.
    pub fn secure_cookies(&self) -> bool {
        self.public_base_url.starts_with("https://")
    }

    /// A one-time link (72 hours) where the person sets a password, also mailed to them in
    /// `lang`. A new email becomes an operator; for an operator with a password it is a reset
    /// link; a revoked operator gets access again once they set a new password. Earlier links
    /// stop working.
    pub async fn invite(&self, email: &str, lang: vp_domain::Lang) -> AppResult<OperatorInvitation> {
        let email = Email::parse(email).map_err(|e| AppError::field("email", e))?;
        let mut tx = self.store.begin().await?;
        let (operator, purpose) = match tx.operator_by_email(email.as_str()).await? {
            Some(mut operator) => {
                let purpose = self.link_purpose(tx.as_mut(), &mut operator).await?;
                (operator, purpose)
            }
            None => {
                let operator = OperatorRecord {
                    id: OperatorId::issued(self.ids.new_id("opr")),
                    email: email.as_str().to_owned(),
                    password_hash: None,
                    created_at: self.clock.now(),
                    revoked_at: None,
                };
                tx.insert_operator(&operator).await?;
                (operator, CabinetLinkPurpose::Invite)
            }
        };
        let (token, link) = self.issue_link(tx.as_mut(), operator.id.as_str(), purpose).await?;
        let action = match purpose {
            CabinetLinkPurpose::Invite => OperatorAction::Invited,
            CabinetLinkPurpose::Reset => OperatorAction::ResetLink,
        };
        self.door.audit(tx.as_mut(), None, action, operator.email.clone()).await?;
        let url = format!("{}{LINK_PATH}{token}", self.public_base_url);
        let reset = purpose == CabinetLinkPurpose::Reset;
        let content =
            vp_ports::MailContent::OperatorInvitation { link: url.clone(), expires_at: link.expires_at, reset };
        let mail = self.mail.queue(tx.as_mut(), None, &email, lang, content).await?;
        tx.commit().await?;
        Ok(OperatorInvitation { operator, purpose, link: url, expires_at: link.expires_at, mail_id: mail.id.into() })
    }

    /// Every operator, oldest first.
    pub async fn operators(&self) -> AppResult<Vec<OperatorRecord>> {
        Ok(read!(self.store, |tx| tx.operators()))
    }

    /// Ends an operator's access (named by email): their sessions end now and their links stop
    /// working. Returns the operator and how many sessions ended.
    pub async fn revoke(&self, email: &str) -> AppResult<(OperatorRecord, u64)> {
        let email = Email::parse(email).map_err(|e| AppError::field("email", e))?;
        let mut tx = self.store.begin().await?;
        let mut operator = tx.operator_by_email(email.as_str()).await?.ok_or(AppError::NotFound("operator"))?;
        if operator.revoked_at.is_some() {
            return Err(AppError::Conflict(format!("operator {email} is already revoked")));
        }
        operator.revoked_at = Some(self.clock.now());
        tx.update_operator(&operator).await?;
        let ended = self.shut_out(tx.as_mut(), operator.id.as_str()).await?;
        self.door.audit(tx.as_mut(), None, OperatorAction::Revoked, operator.email.clone()).await?;
        tx.commit().await?;
        Ok((operator, ended))
    }

    /// The operator behind a session cookie, or `None` when the session is unknown, ended,
    /// expired or its operator was revoked.
    pub async fn actor(&self, token: &str) -> AppResult<Option<OperatorActor>> {
        Ok(self.session(token).await?.map(|(operator, session)| OperatorActor {
            operator,
            csrf_token: session.csrf_token,
            session: session.token_hash,
        }))
    }

    /// Ends the actor's session.
    pub async fn sign_out(&self, actor: &OperatorActor) -> AppResult<()> {
        self.entrance.sign_out(&actor.operator, &actor.session).await
    }
}
