//! The way in that the partner cabinet and the operator's view share: one-time set-password
//! links, the password, signing in with the lockout, sessions and signing out. Each door keeps
//! its people, links and sessions in tables of its own and writes its own audit (`Door`); what
//! happens at the door is written once, here.

pub(crate) mod password;

use std::sync::Arc;

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};
use vp_domain::cabinet::{
    Email, INVITATION_VALID_FOR, LOCK_AFTER_FAILURES, check_new_password, locked_until, session_alive,
};
use vp_ports::store::StoreResult;
use vp_ports::{CabinetLink, CabinetLinkPurpose, CabinetSession, Clock, IdGenerator, SignInSource, Store, Tx};

use crate::access::Limiter;
use crate::error::{AppError, AppResult};
use crate::keys;
use crate::tokens::Tokens;

/// A session's last use is written at most this often, so browsing is not a write per page.
const TOUCH_EVERY: Duration = Duration::minutes(1);
/// Emails longer than any valid one are cut before they are counted.
const EMAIL_MAX: usize = 254;

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

/// A set-password link as its page shows it.
#[derive(Debug, Clone)]
pub struct LinkView {
    pub email: String,
    pub purpose: CabinetLinkPurpose,
    pub expires_at: OffsetDateTime,
}

/// Someone who signs in at a door.
pub trait Person: Clone + Send + Sync {
    fn id(&self) -> &str;
    fn email(&self) -> &str;
    fn password_hash(&self) -> Option<&str>;
    fn revoked(&self) -> bool;
    fn set_password_hash(&mut self, hash: String);
    /// Lifts a revocation; the old password stops working (a new one is set through the link).
    fn let_in_again(&mut self);
}

/// What the door's audit records of getting in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entered {
    PasswordSet,
    SignedIn,
    SignedOut,
}

/// Where a door keeps its people, links and sessions, and how it records who got in.
#[async_trait]
pub trait Door: Send + Sync {
    type Person: Person;
    async fn person(&self, tx: &mut dyn Tx, id: &str) -> StoreResult<Option<Self::Person>>;
    async fn person_by_email(&self, tx: &mut dyn Tx, email: &str) -> StoreResult<Option<Self::Person>>;
    async fn save_person(&self, tx: &mut dyn Tx, person: &Self::Person) -> StoreResult<()>;
    async fn insert_link(&self, tx: &mut dyn Tx, link: &CabinetLink) -> StoreResult<()>;
    async fn link(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<Option<CabinetLink>>;
    async fn spend_links(&self, tx: &mut dyn Tx, person_id: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn insert_session(&self, tx: &mut dyn Tx, session: &CabinetSession) -> StoreResult<()>;
    async fn session(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<Option<CabinetSession>>;
    async fn touch_session(&self, tx: &mut dyn Tx, token_hash: &str, at: OffsetDateTime) -> StoreResult<()>;
    async fn delete_session(&self, tx: &mut dyn Tx, token_hash: &str) -> StoreResult<()>;
    async fn delete_sessions(&self, tx: &mut dyn Tx, person_id: &str) -> StoreResult<u64>;
    /// Records in the door's audit, in the unit of work of what it records.
    async fn record(&self, tx: &mut dyn Tx, person: &Self::Person, what: Entered, detail: String) -> AppResult<()>;
}

/// Getting in through one door.
pub struct Entrance<D: Door> {
    pub(crate) door: D,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) tokens: Tokens,
    /// The per-source limit on failed authentications, shared with the partner API's keys.
    pub(crate) limiter: Arc<Limiter>,
    pub(crate) failed_auth_per_minute: u32,
}

impl<D: Door> Entrance<D> {
    /// An entrance through `door` that shares this one's store, clock, tokens and limits.
    pub(crate) fn beside<E: Door>(&self, door: E) -> Entrance<E> {
        Entrance {
            door,
            store: self.store.clone(),
            clock: self.clock.clone(),
            ids: self.ids.clone(),
            tokens: self.tokens.clone(),
            limiter: self.limiter.clone(),
            failed_auth_per_minute: self.failed_auth_per_minute,
        }
    }

    /// How long until `until`, in whole seconds and at least one, as a refusal says it.
    pub fn seconds_until(&self, until: OffsetDateTime) -> i64 {
        (until - self.clock.now()).whole_seconds().max(1)
    }

    /// A new form token (32 random bytes, URL-safe).
    pub fn form_token(&self) -> String {
        self.tokens.random()
    }

    /// A new one-time link (72 hours) for `person`, in the caller's unit of work: the person's
    /// earlier links stop working. Returns the token, which only the link carries.
    pub(crate) async fn issue_link(
        &self,
        tx: &mut dyn Tx,
        person_id: &str,
        purpose: CabinetLinkPurpose,
    ) -> AppResult<(String, CabinetLink)> {
        let now = self.clock.now();
        let token = self.tokens.random();
        self.door.spend_links(tx, person_id, now).await?;
        let link = CabinetLink {
            token_hash: keys::hash(&token),
            user_id: person_id.to_owned(),
            purpose,
            created_at: now,
            expires_at: now + INVITATION_VALID_FOR,
            used_at: None,
        };
        self.door.insert_link(tx, &link).await?;
        Ok((token, link))
    }

    /// What a new link for a known person is, in the caller's unit of work: a reset for someone
    /// with a password, an invitation for someone without one, and for a revoked person an
    /// invitation that lets them in again once they set a new password.
    pub(crate) async fn link_purpose(&self, tx: &mut dyn Tx, person: &mut D::Person) -> AppResult<CabinetLinkPurpose> {
        if person.revoked() {
            person.let_in_again();
            self.door.save_person(tx, person).await?;
        }
        Ok(if person.password_hash().is_some() { CabinetLinkPurpose::Reset } else { CabinetLinkPurpose::Invite })
    }

    /// Ends a person's access in the caller's unit of work: their sessions end and their links
    /// stop working. Returns how many sessions ended.
    pub(crate) async fn shut_out(&self, tx: &mut dyn Tx, person_id: &str) -> AppResult<u64> {
        let ended = self.door.delete_sessions(tx, person_id).await?;
        self.door.spend_links(tx, person_id, self.clock.now()).await?;
        Ok(ended)
    }

    /// A usable link and its person; `NotFound` for an unknown, used or expired one.
    async fn usable_link(&self, tx: &mut dyn Tx, token: &str) -> AppResult<(CabinetLink, D::Person)> {
        let now = self.clock.now();
        let link = self.door.link(tx, &keys::hash(token)).await?.filter(|l| l.used_at.is_none() && l.expires_at > now);
        let person = match &link {
            Some(l) => self.door.person(tx, &l.user_id).await?.filter(|p| !p.revoked()),
            None => None,
        };
        link.zip(person).ok_or(AppError::NotFound("link"))
    }

    /// What the set-password page shows for a link.
    pub async fn link(&self, token: &str) -> AppResult<LinkView> {
        let mut tx = self.store.read().await?;
        let (link, person) = self.usable_link(tx.as_mut(), token).await?;
        tx.commit().await?;
        Ok(LinkView { email: person.email().to_owned(), purpose: link.purpose, expires_at: link.expires_at })
    }

    /// Sets the password through a link, spends it, ends the person's other sessions and signs
    /// this browser in.
    pub async fn set_password(&self, token: &str, new_password: &str) -> AppResult<SignedIn> {
        check_new_password(new_password).map_err(|e| AppError::field("password", e))?;
        self.link(token).await?;
        let hash = password::hash(new_password.to_owned(), self.ids.random_bytes(16)).await?;
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        // Read again in the writing unit of work: the link may have been spent meanwhile.
        let (_, mut person) = self.usable_link(tx.as_mut(), token).await?;
        person.set_password_hash(hash);
        self.door.save_person(tx.as_mut(), &person).await?;
        self.door.spend_links(tx.as_mut(), person.id(), now).await?;
        self.door.delete_sessions(tx.as_mut(), person.id()).await?;
        tx.clear_sign_in_failures(person.email()).await?;
        let signed_in = self.start_session(tx.as_mut(), person.id(), now).await?;
        self.door.record(tx.as_mut(), &person, Entered::PasswordSet, String::new()).await?;
        tx.commit().await?;
        Ok(signed_in)
    }

    /// Until when sign-in is locked for this email or this address, if it is.
    async fn sign_in_lock(
        &self,
        tx: &mut dyn Tx,
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
    /// counts against the address's limit on unknown credentials (shared with API keys), and
    /// failures count at both doors alike.
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
        let person = self.door.person_by_email(tx.as_mut(), &email).await?.filter(|p| !p.revoked());
        tx.commit().await?;
        if let Some(until) = locked {
            return Ok(Err(SignInRefusal::Locked { until }));
        }
        let stored = person.as_ref().and_then(|p| p.password_hash().map(str::to_owned));
        let matched = password::verify(stored, password.to_owned()).await;
        let mut tx = self.store.begin().await?;
        let Some(person) = person.filter(|_| matched) else {
            tx.insert_sign_in_failure(&self.ids.new_id("sif"), &email, address, now).await?;
            let locked = self.sign_in_lock(tx.as_mut(), &email, address, now).await?;
            tx.commit().await?;
            return Ok(Err(locked.map_or(SignInRefusal::Wrong, |until| SignInRefusal::Locked { until })));
        };
        tx.clear_sign_in_failures(&email).await?;
        let signed_in = self.start_session(tx.as_mut(), person.id(), now).await?;
        self.door.record(tx.as_mut(), &person, Entered::SignedIn, address.to_owned()).await?;
        tx.commit().await?;
        Ok(Ok(signed_in))
    }

    async fn start_session(&self, tx: &mut dyn Tx, person_id: &str, now: OffsetDateTime) -> AppResult<SignedIn> {
        let token = self.tokens.random();
        let session = CabinetSession {
            token_hash: keys::hash(&token),
            user_id: person_id.to_owned(),
            csrf_token: self.tokens.random(),
            created_at: now,
            last_seen_at: now,
        };
        self.door.insert_session(tx, &session).await?;
        Ok(SignedIn { token, session })
    }

    /// The person behind a session cookie and their session, or `None` when the session is
    /// unknown, ended, expired (idle 12 hours, or 30 days after sign-in) or its person was
    /// revoked (then it is forgotten).
    pub async fn session(&self, token: &str) -> AppResult<Option<(D::Person, CabinetSession)>> {
        let now = self.clock.now();
        let token_hash = keys::hash(token);
        let mut tx = self.store.read().await?;
        let Some(session) = self.door.session(tx.as_mut(), &token_hash).await? else {
            return Ok(None);
        };
        let person = self.door.person(tx.as_mut(), &session.user_id).await?.filter(|p| !p.revoked());
        tx.commit().await?;
        let alive = session_alive(session.created_at, session.last_seen_at, now);
        let (Some(person), true) = (person, alive) else {
            let mut tx = self.store.begin().await?;
            self.door.delete_session(tx.as_mut(), &token_hash).await?;
            tx.commit().await?;
            return Ok(None);
        };
        if now - session.last_seen_at >= TOUCH_EVERY {
            let mut tx = self.store.begin().await?;
            self.door.touch_session(tx.as_mut(), &token_hash, now).await?;
            tx.commit().await?;
        }
        Ok(Some((person, session)))
    }

    /// Ends the session `session_hash` (SHA-256 of its cookie) of `person`.
    pub async fn sign_out(&self, person: &D::Person, session_hash: &str) -> AppResult<()> {
        let mut tx = self.store.begin().await?;
        self.door.delete_session(tx.as_mut(), session_hash).await?;
        self.door.record(tx.as_mut(), person, Entered::SignedOut, String::new()).await?;
        tx.commit().await?;
        Ok(())
    }
}
