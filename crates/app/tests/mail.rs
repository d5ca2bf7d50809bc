//! The mail outbox at the use-case level: a message leaves once, however many workers look; a
//! server that cannot take it now gets it again later; a refused address is given up; and
//! the message is worded in its language under the right name.

use crate::support;

use std::sync::Arc;

use support::World;
use time::Duration;
use vp_domain::Lang;
use vp_ports::MailError;

#[tokio::test]
async fn a_queued_message_leaves_once_however_many_workers_look() {
    let w = World::new().await;
    w.mailer.failures.lock().unwrap().push(MailError::Unavailable("connection refused".into()));
    let first = w.app.mail.send_test("Owner@Example.com", Lang::Ru).await.unwrap();
    assert_eq!((first.sent_at, first.attempts), (None, 1), "the server did not answer");
    assert_eq!(first.to, "owner@example.com");
    assert_eq!(w.app.mail.deliver_due(10).await.unwrap(), 0, "not due before its pause");

    w.clock.advance(Duration::minutes(1));
    let (a, b) = (Arc::new(w.app.clone()), Arc::new(w.app.clone()));
    let (ra, rb) = tokio::join!(a.mail.deliver_due(10), b.mail.deliver_due(10));
    assert_eq!(ra.unwrap() + rb.unwrap(), 1, "one worker takes it");
    let sent = w.mailer.sent.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].id, first.id, "the same message, so the same Message-ID");
    assert_eq!(sent[0].from_name, "VPN", "the platform's own mail is signed with its name");
    assert!(sent[0].mail.subject.starts_with("Проверочное письмо"), "{}", sent[0].mail.subject);

    w.clock.advance(Duration::hours(3));
    assert_eq!(w.app.mail.deliver_due(10).await.unwrap(), 0, "a sent message is never due again");
    let shown = w.app.mail.message(&first.id).await.unwrap();
    assert_eq!((shown.attempts, shown.last_error, shown.next_attempt_at), (2, None, None));
    assert!(shown.sent_at.is_some());
}

#[tokio::test]
async fn a_refused_address_is_given_up_at_once_and_a_bad_one_is_never_queued() {
    let w = World::new().await;
    w.mailer.failures.lock().unwrap().push(MailError::Refused("550 5.1.1 no such mailbox".into()));
    let mail = w.app.mail.send_test("gone@example.com", Lang::En).await.unwrap();
    assert!(mail.given_up_at.is_some() && mail.next_attempt_at.is_none());
    assert_eq!(mail.last_error.as_deref(), Some("refused: 550 5.1.1 no such mailbox"));
    w.clock.advance(Duration::days(1));
    assert_eq!(w.app.mail.deliver_due(10).await.unwrap(), 0);

    for bad in ["", "no-at-sign", "a@b", "two@@example.com", "x@example.com\r\nBcc: y@example.com"] {
        let e = w.app.mail.send_test(bad, Lang::En).await.unwrap_err();
        assert!(e.to_string().contains("to"), "{bad:?}: {e}");
    }
    assert!(w.mailer.sent.lock().unwrap().is_empty());
}
