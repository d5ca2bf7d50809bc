//! Getting into the cabinet: invitations and reset links (operator), setting a password,
//! signing in with the lockout, sessions, signing out, revoking a user.

use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use vp_domain::cabinet::{
    Email, INVITATION_VALID_FOR, LOCK_AFTER_FAILURES, check_new_password, locked_until, session_alive,
};
use vp_domain::{AccountId, CabinetUserId};
use vp_ports::{
    CabinetLink, CabinetLinkPurpose, CabinetRepo, CabinetSession, CabinetUser, Clock, IdGenerator, SignInSource, Store,
};

use super::{Actor, LINK_PATH, password};
use crate::access::Limiter;
use crate::audit::{Audit, AuditAction, Who};
use crate::error::{AppError, AppResult};
use crate::keys;
use crate::tokens::Tokens;

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

/// A set-password link as its page shows it.
#[derive(Debug, Clone)]
pub struct LinkView {
    pub email: String,
    pub purpose: CabinetLinkPurpose,
    pub expires_at: OffsetDateTime,
}

/// A new session: `token` goes into the cookie and is never stored.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub token: String,
    pub session: CabinetSession,
}

/// Why a sign-in was refused. A wrong password and an unknown email are the same refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInRefusal {
    Wrong,
    Locked { until: OffsetDateTime },
}

/// A session's last use is written at most this often, so browsing is not a write per page.
const TOUCH_EVERY: Duration = Duration::minutes(1);
/// Emails longer than any valid one are cut before they are counted.
const EMAIL_MAX: usize = 254;

/// Getting into the cabinet: the operator's invitations and revocations, passwords, sign-in
/// and sessions.
pub struct CabinetAccess {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) tokens: Tokens,
    pub(crate) audit: Audit,
    /// The per-source limit on failed authentications, shared with the partner API's keys.
    pub(crate) limiter: Arc<Limiter>,
    pub(crate) failed_auth_per_minute: u32,
    pub(crate) public_base_url: String,
    /// The link also goes to the person's address.
    pub(crate) mail: crate::mail::MailQueue,
}

impl CabinetAccess {
    /// Whether the cabinet is served over https, so its cookies are `Secure`.
    pub fn secure_cookies(&self) -> bool {
        self.public_base_url.starts_with("https://")
    }

    /// How long until `until`, in whole seconds and at least one, as a refusal says it.
    pub fn seconds_until(&self, until: OffsetDateTime) -> i64 {
        (until - self.clock.now()).whole_seconds().max(1)
    }

    /// A new form token (32 random bytes, URL-safe).
    pub fn form_token(&self) -> String {
        self.tokens.random()
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
        let token = self.tokens.random();
        let mut tx = self.store.begin().await?;
        tx.account(account_id).await?.ok_or(AppError::NotFound("account"))?;
        let (user, purpose) = match tx.cabinet_user_by_email(email.as_str()).await? {
            Some(user) if user.account_id != account_id => {
                return Err(AppError::Conflict(format!("{email} is a user of another account")));
            }
            Some(mut user) if user.revoked_at.is_some() => {
                user.revoked_at = None;
                user.password_hash = None;
                tx.update_cabinet_user(&user).await?;
                (user, CabinetLinkPurpose::Invite)
            }
            Some(user) if user.password_hash.is_some() => (user, CabinetLinkPurpose::Reset),
            Some(user) => (user, CabinetLinkPurpose::Invite),
            None => {
                let user = CabinetUser {
                    id: CabinetUserId::issued(self.ids.new_id("usr")),
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
        tx.spend_cabinet_links(&user.id, now).await?;
        let link = CabinetLink {
            token_hash: keys::hash(&token),
            user_id: user.id.to_string(),
            purpose,
            created_at: now,
            expires_at: now + INVITATION_VALID_FOR,
            used_at: None,
        };
        tx.insert_cabinet_link(&link).await?;
        let action = match purpose {
            CabinetLinkPurpose::Invite => AuditAction::UserInvited,
            CabinetLinkPurpose::Reset => AuditAction::UserResetLink,
        };
        self.audit.record(tx.as_mut(), account_id, Who::Operator, action, user.email.clone()).await?;
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
        let ended = tx.delete_cabinet_sessions(user_id).await?;
        tx.spend_cabinet_links(user_id, now).await?;
        self.audit
            .record(tx.as_mut(), &user.account_id, Who::Operator, AuditAction::UserRevoked, user.email.clone())
            .await?;
        tx.commit().await?;
        Ok((user, ended))
    }

    /// A usable link and its user; `NotFound` for an unknown, used or expired one.
    async fn usable_link(
        &self,
        tx: &mut (impl CabinetRepo + ?Sized),
        token: &str,
    ) -> AppResult<(CabinetLink, CabinetUser)> {
        let now = self.clock.now();
        let link = tx.cabinet_link(&keys::hash(token)).await?.filter(|l| l.used_at.is_none() && l.expires_at > now);
        let user = match &link {
            Some(l) => tx.cabinet_user(&l.user_id).await?.filter(|u| u.revoked_at.is_none()),
            None => None,
        };
        link.zip(user).ok_or(AppError::NotFound("link"))
    }

    /// What the set-password page shows for a link.
    pub async fn link(&self, token: &str) -> AppResult<LinkView> {
        let mut tx = self.store.read().await?;
        let (link, user) = self.usable_link(tx.as_mut(), token).await?;
        tx.commit().await?;
        Ok(LinkView { email: user.email, purpose: link.purpose, expires_at: link.expires_at })
    }

    /// Sets the password through a link, spends it, ends the user's other sessions and signs
    /// this browser in.
    pub async fn set_password(&self, token: &str, new_password: &str) -> AppResult<SignedIn> {
        check_new_password(new_password).map_err(|e| AppError::field("password", e))?;
        self.link(token).await?;
        let hash = password::hash(new_password.to_owned(), self.ids.random_bytes(16)).await?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        // Read again in the writing unit of work: the link may have been spent meanwhile.
        let (_, mut user) = self.usable_link(tx.as_mut(), token).await?;
        user.password_hash = Some(hash);
        tx.update_cabinet_user(&user).await?;
        tx.spend_cabinet_links(&user.id, now).await?;
        tx.delete_cabinet_sessions(&user.id).await?;
        tx.clear_sign_in_failures(&user.email).await?;
        let signed_in = self.start_session(tx.as_mut(), &user.id, now).await?;
        let who = Who::User { id: &user.id, email: &user.email };
        self.audit.record(tx.as_mut(), &user.account_id, who, AuditAction::PasswordSet, String::new()).await?;
        tx.commit().await?;
        Ok(signed_in)
    }

    /// Until when sign-in is locked for this email or this address, if it is.
    async fn sign_in_lock(
        &self,
        tx: &mut (impl CabinetRepo + ?Sized),
        email: &str,
        address: &str,
        now: OffsetDateTime,
    ) -> AppResult<Option<OffsetDateTime>> {
        let n = LOCK_AFTER_FAILURES as u32;
        let by_email = tx.sign_in_failures(SignInSource::Email(email), n).await?;
        let by_address = tx.sign_in_failures(SignInSource::Address(address), n).await?;
        Ok(locked_until(&by_email, now).max(locked_until(&by_address, now)))
    }

    /// Email and password from `address` (the client's IP). Locked sources are refused without
    /// looking at the password; a refusal never says whether the email exists. Every attempt
    /// counts against the address's limit on unknown credentials (shared with API keys).
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        address: &str,
    ) -> AppResult<Result<SignedIn, SignInRefusal>> {
        let email: String = Email::parse(email)
            .map(|e| e.as_str().to_owned())
            .unwrap_or_else(|_| email.trim().to_lowercase())
            .chars()
            .take(EMAIL_MAX)
            .collect();
        let now = self.clock.now();
        // The per-source limit the partner API's keys have, before any database read: credential
        // stuffing across many accounts from one address stops at 20 attempts a minute.
        if let Err(wait) = self.limiter.count_unknown_credentials(address, self.failed_auth_per_minute, now).await {
            return Ok(Err(SignInRefusal::Locked { until: now + wait.duration() }));
        }
        let mut tx = self.store.read().await?;
        let locked = self.sign_in_lock(tx.as_mut(), &email, address, now).await?;
        let user = tx.cabinet_user_by_email(&email).await?.filter(|u| u.revoked_at.is_none());
        tx.commit().await?;
        if let Some(until) = locked {
            return Ok(Err(SignInRefusal::Locked { until }));
        }
        let stored = user.as_ref().and_then(|u| u.password_hash.clone());
        let matched = password::verify(stored, password.to_owned()).await;
        let mut tx = self.store.begin().await?;
        let Some(user) = user.filter(|_| matched) else {
            tx.insert_sign_in_failure(&self.ids.new_id("sif"), &email, address, now).await?;
            let locked = self.sign_in_lock(tx.as_mut(), &email, address, now).await?;
            tx.commit().await?;
            return Ok(Err(locked.map_or(SignInRefusal::Wrong, |until| SignInRefusal::Locked { until })));
        };
        tx.clear_sign_in_failures(&email).await?;
        let signed_in = self.start_session(tx.as_mut(), &user.id, now).await?;
        let who = Who::User { id: &user.id, email: &user.email };
        self.audit.record(tx.as_mut(), &user.account_id, who, AuditAction::SignedIn, address.to_owned()).await?;
        tx.commit().await?;
        Ok(Ok(signed_in))
    }

    async fn start_session(
        &self,
        tx: &mut (impl CabinetRepo + ?Sized),
        user_id: &str,
        now: OffsetDateTime,
    ) -> AppResult<SignedIn> {
        let token = self.tokens.random();
        let session = CabinetSession {
            token_hash: keys::hash(&token),
            user_id: user_id.to_owned(),
            csrf_token: self.tokens.random(),
            created_at: now,
            last_seen_at: now,
        };
        tx.insert_cabinet_session(&session).await?;
        Ok(SignedIn { token, session })
    }

    /// The signed-in person behind a session cookie, or `None` when the session is unknown,
    /// ended, expired (idle 12 hours, or 30 days after sign-in) or its user was revoked.
    pub async fn actor(&self, token: &str) -> AppResult<Option<Actor>> {
        let now = self.clock.now();
        let token_hash = keys::hash(token);
        let mut tx = self.store.read().await?;
        let Some(session) = tx.cabinet_session(&token_hash).await? else {
            return Ok(None);
        };
        let user = tx.cabinet_user(&session.user_id).await?.filter(|u| u.revoked_at.is_none());
        let account = match &user {
            Some(u) => tx.account(&u.account_id).await?,
            None => None,
        };
        tx.commit().await?;
        let alive = session_alive(session.created_at, session.last_seen_at, now);
        let (Some(user), Some(account), true) = (user, account, alive) else {
            let mut tx = self.store.begin().await?;
            tx.delete_cabinet_session(&token_hash).await?;
            tx.commit().await?;
            return Ok(None);
        };
        if now - session.last_seen_at >= TOUCH_EVERY {
            let mut tx = self.store.begin().await?;
            tx.touch_cabinet_session(&token_hash, now).await?;
            tx.commit().await?;
        }
        Ok(Some(Actor { user, account, csrf_token: session.csrf_token, session: token_hash }))
    }

    /// Ends the actor's session.
    pub async fn sign_out(&self, actor: &Actor) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        tx.delete_cabinet_session(&actor.session).await?;
        self.audit.record(tx.as_mut(), actor.account_id(), actor.into(), AuditAction::SignedOut, String::new()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets sessions that can no longer be used and failed sign-ins no lock reaches.
    pub async fn prune(&self) -> AppResult<u64> {
        use vp_domain::cabinet::{LOCK_FOR, LOCK_WINDOW, SESSION_ABSOLUTE, SESSION_IDLE};
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let sessions = tx.prune_cabinet_sessions(now - SESSION_IDLE, now - SESSION_ABSOLUTE).await?;
        let failures = tx.prune_sign_in_failures(now - LOCK_WINDOW - LOCK_FOR).await?;
        let chat_codes = tx.prune_chat_link_codes(now).await?;
        tx.commit().await?;
        Ok(sessions + failures + chat_codes)
    }
}
