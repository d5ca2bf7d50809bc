//! One `OutgoingMail` as a MIME message: plain text and HTML as alternatives, a `Message-ID`
//! made of the outbox id (the same on every attempt), `List-Unsubscribe` where the message has one.

use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use vp_ports::{MailError, OutgoingMail};

/// The service's own address, with the message's display name beside it.
pub(crate) fn build(mail: &OutgoingMail, from: &lettre::Address) -> Result<Message, MailError> {
    let to: lettre::Address =
        mail.to.parse().map_err(|e| MailError::Refused(format!("the address {} does not read: {e}", mail.to)))?;
    let mut builder = Message::builder()
        .from(Mailbox::new(Some(mail.from_name.clone()), from.clone()))
        .to(Mailbox::new(None, to))
        .subject(mail.mail.subject.clone())
        .message_id(Some(format!("<{}@{}>", mail.id, from.domain())))
        .date_now();
    if let Some(unsubscribe) = &mail.mail.list_unsubscribe {
        let name = HeaderName::new_from_ascii_str("List-Unsubscribe");
        builder = builder.raw_header(HeaderValue::new(name, format!("<{unsubscribe}>")));
    }
    builder
        .multipart(MultiPart::alternative_plain_html(mail.mail.text.clone(), mail.mail.html.clone()))
        .map_err(|e| MailError::Refused(format!("the message does not build: {e}")))
}

#[cfg(test)]
mod tests {
    use vp_ports::RenderedMail;

    use super::*;

    fn outgoing(list_unsubscribe: Option<&str>) -> OutgoingMail {
        OutgoingMail {
            id: "mail_01".into(),
            to: "buyer@example.com".into(),
            from_name: "Быстрый VPN".into(),
            mail: RenderedMail {
                subject: "Проверочное письмо".into(),
                text: "Текст".into(),
                html: "<p>Текст</p>".into(),
                list_unsubscribe: list_unsubscribe.map(str::to_owned),
            },
        }
    }

    fn formatted(mail: &OutgoingMail) -> String {
        let from: lettre::Address = "noreply@vpn.example".parse().unwrap();
        String::from_utf8(build(mail, &from).unwrap().formatted()).unwrap()
    }

    #[test]
    fn a_message_carries_text_and_html_from_the_brand_with_a_stable_message_id() {
        let raw = formatted(&outgoing(None));
        assert!(raw.contains("Message-ID: <mail_01@vpn.example>"), "{raw}");
        assert!(raw.contains("multipart/alternative"), "{raw}");
        assert!(raw.contains("text/plain") && raw.contains("text/html"), "{raw}");
        assert!(raw.contains("noreply@vpn.example>"), "the service's address: {raw}");
        assert!(raw.contains("=?utf-8?"), "non-ASCII names and subjects are encoded: {raw}");
        assert!(!raw.contains("List-Unsubscribe"), "{raw}");
    }

    #[test]
    fn mail_a_reader_can_stop_says_where() {
        let raw = formatted(&outgoing(Some("https://vpn.example/mail/stop/t1")));
        assert!(raw.contains("List-Unsubscribe: <https://vpn.example/mail/stop/t1>"), "{raw}");
    }

    #[test]
    fn an_address_that_does_not_read_is_refused_for_good() {
        let mut mail = outgoing(None);
        mail.to = "not an address".into();
        let from: lettre::Address = "noreply@vpn.example".parse().unwrap();
        assert!(matches!(build(&mail, &from), Err(MailError::Refused(_))));
    }
}
