//! Mail to people through the outbox (docs/decisions.md, "Mail"): `MailQueue` queues a message
//! in the unit of work of the change it tells of; `Mail` sends what is due, worded in the
//! reader's language and signed by the account's brand, and lets the operator check the setup.

use std::sync::Arc;

use time::OffsetDateTime;
use vp_domain::backoff::{MAIL_GIVE_UP_AFTER, mail_retry_delay};
use vp_domain::cabinet::Email;
use vp_domain::{Lang, MailId};
use vp_ports::{Claim, MailContent, MailError, MailRecord, MailRenderer, MailSigner, Mailer, OutgoingMail, Store, Tx};

use crate::error::{AppError, AppResult};
use crate::stamp::Stamp;

/// How long a worker holds the messages it took before another may take them.
const SEND_LEASE: time::Duration = time::Duration::minutes(2);

/// Queues messages; held by the services whose changes send mail.
#[derive(Clone)]
pub(crate) struct MailQueue {
    pub(crate) stamp: Stamp,
}

impl MailQueue {
    /// Queues `content` to `to` in the caller's unit of work, due at once: it is sent only if
    /// that unit of work commits.
    pub(crate) async fn queue(
        &self,
        tx: &mut dyn Tx,
        account_id: Option<&str>,
        to: &Email,
        lang: Lang,
        content: MailContent,
    ) -> AppResult<MailRecord> {
        let now = self.stamp.now();
        let mail = MailRecord {
            id: MailId::issued(self.stamp.id("mail")),
            account_id: account_id.map(str::to_owned),
            to: to.as_str().to_owned(),
            lang,
            content,
            created_at: now,
            attempts: 0,
            next_attempt_at: Some(now),
            sent_at: None,
            given_up_at: None,
            last_error: None,
        };
        tx.insert_mail(&mail).await?;
        Ok(mail)
    }
}

/// Sending the outbox, and the operator's test message.
pub struct Mail {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) queue: MailQueue,
    pub(crate) renderer: Arc<dyn MailRenderer>,
    pub(crate) mailer: Arc<dyn Mailer>,
    /// The name that signs the platform's own mail.
    pub(crate) platform_name: String,
}

impl Mail {
    /// The operator's test message to `to` (`vp-api mail test`): queued like any message, then
    /// sent at once by this caller, which holds it as a worker would; returns it as it stands
    /// after that attempt (a failed one is retried by the workers as usual).
    pub async fn send_test(&self, to: &str, lang: Lang) -> AppResult<MailRecord> {
        let to = Email::parse(to).map_err(|e| AppError::field("to", e))?;
        let mut tx = self.store.begin().await?;
        let mut mail = self.queue.queue(tx.as_mut(), None, &to, lang, MailContent::Test).await?;
        mail.next_attempt_at = Some(mail.created_at + SEND_LEASE);
        tx.update_mail(&mail).await?;
        tx.commit().await?;
        self.deliver(mail).await
    }

    /// One message of the outbox, as it stands.
    pub async fn message(&self, id: &MailId) -> AppResult<MailRecord> {
        let mut tx = self.store.read().await?;
        let mail = tx.mail(id).await?.ok_or(AppError::NotFound("mail"))?;
        tx.commit().await?;
        Ok(mail)
    }

    /// Sends up to `limit` due messages; returns how many were taken.
    pub async fn deliver_due(&self, limit: u32) -> AppResult<usize> {
        let now = self.queue.stamp.now();
        let mut tx = self.store.begin().await?;
        let due = tx.claim_mail(Claim { now, lease_until: now + SEND_LEASE, limit }).await?;
        tx.commit().await?;
        let taken = due.len();
        for mail in due {
            self.deliver(mail).await?;
        }
        Ok(taken)
    }

    /// One attempt at a message this caller holds; returns it as recorded after.
    async fn deliver(&self, mut mail: MailRecord) -> AppResult<MailRecord> {
        let outgoing = self.outgoing(&mail).await?;
        let result = self.mailer.send(&outgoing).await;
        let now = self.queue.stamp.now();
        mail.attempts += 1;
        settle(&mut mail, result, now);
        let mut tx = self.store.begin().await?;
        tx.update_mail(&mail).await?;
        tx.commit().await?;
        Ok(mail)
    }

    /// The message worded in its language, signed by its account's brand.
    async fn outgoing(&self, mail: &MailRecord) -> AppResult<OutgoingMail> {
        let account = match &mail.account_id {
            Some(id) => {
                let mut tx = self.store.read().await?;
                let account = tx.account(id).await?;
                tx.commit().await?;
                account
            }
            None => None,
        };
        let signer = match account {
            Some(a) => MailSigner { brand: a.brand_name.as_str().to_owned(), style: a.style, time_zone: a.time_zone },
            None => MailSigner {
                brand: self.platform_name.clone(),
                style: Default::default(),
                time_zone: Default::default(),
            },
        };
        let rendered = self.renderer.render(&mail.content, mail.lang, &signer);
        Ok(OutgoingMail { id: mail.id.to_string(), to: mail.to.clone(), from_name: signer.brand, mail: rendered })
    }
}

/// Records an attempt's result: sent; refused for good; or tried again later with a growing
/// pause, until `MAIL_GIVE_UP_AFTER` from the message's creation.
fn settle(mail: &mut MailRecord, result: Result<String, MailError>, now: OffsetDateTime) {
    match result {
        Ok(answer) => {
            tracing::info!(mail_id = %mail.id, kind = mail.content.kind(), %answer, "mail sent");
            mail.sent_at = Some(now);
            mail.next_attempt_at = None;
            mail.last_error = None;
        }
        Err(e) => {
            let next = now + mail_retry_delay(mail.attempts);
            let give_up = matches!(e, MailError::Refused(_)) || next > mail.created_at + MAIL_GIVE_UP_AFTER;
            tracing::warn!(mail_id = %mail.id, kind = mail.content.kind(), error = %e, give_up, "mail not sent");
            mail.last_error = Some(e.to_string());
            mail.next_attempt_at = if give_up { None } else { Some(next) };
            mail.given_up_at = give_up.then_some(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const T0: OffsetDateTime = datetime!(2026-11-27 10:00 UTC);

    fn queued() -> MailRecord {
        MailRecord {
            id: MailId::issued("mail_1".into()),
            account_id: None,
            to: "buyer@example.com".into(),
            lang: Lang::Ru,
            content: MailContent::Test,
            created_at: T0,
            attempts: 1,
            next_attempt_at: Some(T0),
            sent_at: None,
            given_up_at: None,
            last_error: None,
        }
    }

    #[test]
    fn a_sent_message_is_never_due_again() {
        let mut mail = queued();
        settle(&mut mail, Ok("250 OK".into()), T0);
        assert_eq!((mail.sent_at, mail.next_attempt_at), (Some(T0), None));
    }

    #[test]
    fn a_server_that_cannot_take_it_now_is_asked_again_later_with_growing_pauses() {
        let mut mail = queued();
        settle(&mut mail, Err(MailError::Unavailable("connection refused".into())), T0);
        assert_eq!(mail.next_attempt_at, Some(T0 + time::Duration::minutes(1)));
        assert_eq!(mail.last_error.as_deref(), Some("not sent: connection refused"));
        mail.attempts = 4;
        settle(&mut mail, Err(MailError::Unavailable("421".into())), T0);
        assert_eq!(mail.next_attempt_at, Some(T0 + time::Duration::minutes(8)));
        assert_eq!(mail.given_up_at, None);
    }

    #[test]
    fn a_refused_message_or_one_tried_for_two_days_is_given_up() {
        let mut refused = queued();
        settle(&mut refused, Err(MailError::Refused("550 no such mailbox".into())), T0);
        assert_eq!((refused.next_attempt_at, refused.given_up_at), (None, Some(T0)));
        let mut old = queued();
        old.attempts = 40;
        let late = T0 + MAIL_GIVE_UP_AFTER;
        settle(&mut old, Err(MailError::Unavailable("timeout".into())), late);
        assert_eq!((old.next_attempt_at, old.given_up_at), (None, Some(late)));
    }
}
