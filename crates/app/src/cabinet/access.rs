//! Getting into the cabinet: invitations and reset links (operator), revoking a user, and the
//! shared way in (`Entrance`: set-password links, sign-in with the lockout, sessions) through
//! the cabinet's door, whose people are the accounts' users and whose audit is the account's.

use std::ops::Deref;
use std::sync::Arc;

use async_trait::async_trait;
use time::OffsetDateTime;
use vp_domain::cabinet::Email;
use vp_domain::{AccountId, CabinetUserId};
use vp_ports::store::StoreResult;
use vp_ports::{AccountRecord, CabinetLink, CabinetLinkPurpose, CabinetSession, CabinetUser, IdGenerator, Tx};

use super::{Actor, LINK_PATH};
use crate::audit::{Audit, AuditAction, Who};
use crate::entrance::{Door, Entered, Entrance, Person};
use crate::error::{AppError, AppResult};

pub use crate::entrance::{LinkView, SignInRefusal, SignedIn};

/// A set-password link for the operator to hand over; shown once.
#[derive(Debug, Clone)]
pub struct Invitation {
    pub user: CabinetUser,
    pub purpose: CabinetLinkPurpose,
    pub link: String,
    pub expires_at: OffsetDateTime,
    /// The message carrying the link to the person (`vp-api mail show`).
    pub mail_id: String,
}

/// Who signs in at the cabinet's door: a user with their account, read together so a page's
/// session check is one unit of work.
#[derive(Debug, Clone)]
pub struct CabinetMember {
    pub user: CabinetUser,
    pub account: AccountRecord,
}

impl Person for CabinetMember {
    fn id(&self) -> &str {
        self.user.id.as_str()
    }
    fn email(&self) -> &str {
        &self.user.email
    }
    fn password_hash(&self) -> Option<&str> {
        self.user.password_hash.as_deref()
    }
    fn revoked(&self) -> bool {
        self.user.revoked_at.is_some()
    }
    fn set_password_hash(&mut self, hash: String) {
        self.user.password_hash = Some(hash);
    }
    fn let_in_again(&mut self) {
        self.user.revoked_at = None;
        self.user.password_hash = None;
    }
}

/// The user's account beside them.
async fn member_of(tx: &mut dyn Tx, user: Option<CabinetUser>) -> StoreResult<Option<CabinetMember>> {
    let Some(user) = user else { return Ok(None) };
    Ok(tx.account(&user.account_id).await?.map(|account| CabinetMember { user, account }))
}

/// The cabinet's door: `cabinet_users`, `cabinet_links`, `cabinet_sessions`; getting in is
/// written to the user's account's activity.
pub struct CabinetDoor {
    pub(crate) audit: Audit,
}

#[async_trait]
impl Door for CabinetDoor {
    type Person = CabinetMember;

    async fn person(&self, tx: &mut dyn Tx, id: &str) -> StoreResult<Option<CabinetMember>> {
        let user = tx.cabinet_user(id).await?;
        member_of(tx, user).await
    }
    async fn person_by_email(&self, tx: &mut dyn Tx, email: &str) -> StoreResult<Option<CabinetMember>> {
        let user = tx.cabinet_user_by_email(email).await?;
        member_of(tx, user).await
    }
    async fn save_person(&self, tx: &mut dyn Tx, member: &CabinetMember) -> StoreResult<()> {
        tx.update_cabinet_user(&member.user).await
    }
    async fn insert_link(&self, tx: &mut dyn Tx, link: &CabinetLink) -> StoreResult<()> {
        tx.insert_cabinet_link(link).await
    }
    async fn link(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<Option<CabinetLink>> {
        tx.cabinet_link(token_hash).await
    }
    async fn spend_links(&self, tx: &mut dyn Tx, user_id: &str, at: OffsetDateTime) -> StoreResult<()> {
        tx.spend_cabinet_links(user_id, at).await
    }
    async fn insert_session(&self, tx: &mut dyn Tx, session: &CabinetSession) -> StoreResult<()> {
        tx.insert_cabinet_session(session).await
    }
    async fn session(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<Option<CabinetSession>> {
        tx.cabinet_session(token_hash).await
    }
    async fn touch_session(&self, tx: &mut dyn Tx, token_hash: &str, at: OffsetDateTime) -> StoreResult<()> {
        tx.touch_cabinet_session(token_hash, at).await
    }
    async fn delete_session(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<()> {
        tx.delete_cabinet_session(token_hash).await
    }
    async fn delete_sessions(&self, tx: &mut dyn Tx, user_id: &str) -> StoreResult<u64> {
        tx.delete_cabinet_sessions(user_id).await
    }
    async fn record(&self, tx: &mut dyn Tx, member: &CabinetMember, what: Entered, detail: String) -> AppResult<()> {
        let action = match what {
            Entered::PasswordSet => AuditAction::PasswordSet,
            Entered::SignedIn => AuditAction::SignedIn,
            Entered::SignedOut => AuditAction::SignedOut,
        };
        let user = &member.user;
        let who = Who::User { id: &user.id, email: &user.email };
        self.audit.record(tx, &user.account_id, who, action, detail).await
    }
}

/// Getting into the cabinet: the operator's invitations and revocations, and the way in
/// (`Entrance`, which this derefs to) for passwords, sign-in and sessions.
pub struct CabinetAccess {
    pub(crate) entrance: Entrance<CabinetDoor>,
    pub(crate) public_base_url: String,
    /// The link also goes to the person's address.
    pub(crate) mail: crate::mail::MailQueue,
}

impl Deref for CabinetAccess {
    type Target = Entrance<CabinetDoor>;
    fn deref(&self) -> &Entrance<CabinetDoor> {
        &self.entrance
    }
}

impl CabinetAccess {
    /// Whether the cabinet is served over https, so its cookies are `Secure`.
    pub fn secure_cookies(&self) -> bool {
        self.public_base_url.starts_with("https://")
    }

    fn audit(&self) -> &Audit {
        &self.entrance.door.audit
    }

    fn ids(&self) -> &Arc<dyn IdGenerator> {
        &self.entrance.ids
    }

    /// Operator: a one-time link (72 hours) where the person sets a password. A new email
    /// becomes a user of the account; for an existing user it is a reset link, and a revoked
    /// user gets access again once they set a new password. Earlier links stop working. The
    /// link is also mailed to the address, in `lang`, with the invitation's unit of work.
    pub async fn invite_user(
        &self,
        account_id: &AccountId,
        email: &str,
        lang: vp_domain::Lang,
    ) -> AppResult<Invitation> {
        let email = Email::parse(email).map_err(|e| AppError::field("email", e))?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let account = tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let (user, purpose) = match tx.cabinet_user_by_email(email.as_str()).await? {
            Some(user) if user.account_id != account_id => {
                return Err(AppError::Conflict(format!("{email} is a user of another account")));
            }
            Some(user) => {
                let mut member = CabinetMember { user, account };
                let purpose = self.link_purpose(tx.as_mut(), &mut member).await?;
                (member.user, purpose)
            }
            None => {
                let user = CabinetUser {
                    id: CabinetUserId::issued(self.ids().new_id("usr")),
                    account_id: account_id.clone(),
                    email: email.as_str().to_owned(),
                    password_hash: None,
                    created_at: now,
                    revoked_at: None,
                };
                tx.insert_cabinet_user(&user).await?;
                (user, CabinetLinkPurpose::Invite)
            }
        };
        let (token, link) = self.issue_link(tx.as_mut(), user.id.as_str(), purpose).await?;
        let action = match purpose {
            CabinetLinkPurpose::Invite => AuditAction::UserInvited,
            CabinetLinkPurpose::Reset => AuditAction::UserResetLink,
        };
        self.audit().record(tx.as_mut(), account_id, Who::Operator, action, user.email.clone()).await?;
        let url = format!("{}{LINK_PATH}{token}", self.public_base_url);
        let content = vp_ports::MailContent::CabinetInvitation {
            link: url.clone(),
            expires_at: link.expires_at,
            reset: purpose == CabinetLinkPurpose::Reset,
        };
        let mail = self.mail.queue(tx.as_mut(), Some(account_id), &email, lang, content).await?;
        tx.commit().await?;
        Ok(Invitation { user, purpose, link: url, expires_at: link.expires_at, mail_id: mail.id.into() })
    }

    /// Operator: the users of an account, oldest first.
    pub async fn users(&self, account_id: &AccountId) -> AppResult<Vec<CabinetUser>> {
        let mut tx = self.store.read().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let users = tx.cabinet_users(account_id).await?;
        tx.commit().await?;
        Ok(users)
    }

    /// Operator: ends a user's access: their sessions end now and their links stop working.
    /// Returns the user and how many sessions ended.
    pub async fn revoke_user(&self, user_id: &CabinetUserId) -> AppResult<(CabinetUser, u64)> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let mut user = tx.cabinet_user(user_id).await?.ok_or(AppError::NotFound("user"))?;
        if user.revoked_at.is_some() {
            return Err(AppError::Conflict(format!("user {user_id} is already revoked")));
        }
        user.revoked_at = Some(now);
        tx.update_cabinet_user(&user).await?;
        let ended = self.shut_out(tx.as_mut(), user_id.as_str()).await?;
        self.audit()
            .record(tx.as_mut(), &user.account_id, Who::Operator, AuditAction::UserRevoked, user.email.clone())
            .await?;
        tx.commit().await?;
        Ok((user, ended))
    }

    /// The signed-in person behind a session cookie, or `None` when the session is unknown,
    /// ended, expired (idle 12 hours, or 30 days after sign-in) or its user was revoked.
    pub async fn actor(&self, token: &str) -> AppResult<Option<Actor>> {
        Ok(self.session(token).await?.map(|(CabinetMember { user, account }, session)| Actor {
            user,
            account,
            csrf_token: session.csrf_token,
            session: session.token_hash,
        }))
    }

    /// Ends the actor's session.
    pub async fn sign_out(&self, actor: &Actor) -> AppResult<()> {
        let member = CabinetMember { user: actor.user.clone(), account: actor.account.clone() };
        self.entrance.sign_out(&member, &actor.session).await
    }

    /// Forgets sessions that can no longer be used (the cabinet's and the operators'), failed
    /// sign-ins no lock reaches and chat link codes past their time.
    pub async fn prune(&self) -> AppResult<u64> {
        use vp_domain::cabinet::{LOCK_FOR, LOCK_WINDOW, SESSION_ABSOLUTE, SESSION_IDLE};
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let sessions = tx.prune_cabinet_sessions(now - SESSION_IDLE, now - SESSION_ABSOLUTE).await?;
        let operator_sessions = tx.prune_operator_sessions(now - SESSION_IDLE, now - SESSION_ABSOLUTE).await?;
        let failures = tx.prune_sign_in_failures(now - LOCK_WINDOW - LOCK_FOR).await?;
        let chat_codes = tx.prune_chat_link_codes(now).await?;
        tx.commit().await?;
        Ok(sessions + operator_sessions + failures + chat_codes)
    }
}
