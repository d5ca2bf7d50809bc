//! Mail through a real SMTP server on loopback (aiosmtpd): the operator's test message arrives
//! in the chosen language with its text and HTML, under the service's address; a server that
//! is down gets the message once it is back, and only once; `smtp://` never talks in the clear
//! to a server without STARTTLS; without VP_SMTP_URL each message is an `.eml` file.

use crate::support;

use support::Scratch;
use support::smtp::{SmtpServer, free_port, parse};

fn with_smtp(name: &str, url: &str) -> Scratch {
    let mut s = Scratch::new(name);
    s.env = vec![("VP_SMTP_URL".into(), url.into()), ("VP_MAIL_FROM".into(), "noreply@vpn.example".into())];
    s
}

#[test]
fn the_test_message_arrives_over_smtp_in_the_chosen_language_with_text_and_html() {
    let server = SmtpServer::start_anywhere();
    let s = with_smtp("mail-smtp", &server.url());
    let en = s.ok(&["mail", "test", "Owner@Example.com"]);
    assert_eq!(
        (en["status"].as_str(), en["to"].as_str(), en["attempts"].as_u64()),
        (Some("sent"), Some("owner@example.com"), Some(1))
    );
    let ru = s.ok(&["mail", "test", "owner@example.com", "--lang", "ru"]);
    assert_eq!(ru["lang"], "ru");

    let got: Vec<_> = server.messages().iter().map(|raw| parse(raw)).collect();
    assert_eq!(got.len(), 2, "{got:#?}");
    let (en_mail, ru_mail) = (&got[0], &got[1]);
    assert_eq!(en_mail["subject"], "Test message from VPN");
    assert_eq!(en_mail["from"], "VPN <noreply@vpn.example>");
    assert_eq!(en_mail["to"], "owner@example.com");
    assert_eq!(en_mail["content_type"], "multipart/alternative");
    assert_eq!(en_mail["message_id"], format!("<{}@vpn.example>", en["mail_id"].as_str().unwrap()));
    assert!(en_mail["text"].as_str().unwrap().contains("reaches you"), "{en_mail:#?}");
    assert!(en_mail["html"].as_str().unwrap().contains("<html lang=\"en\">"), "{en_mail:#?}");
    assert_eq!(en_mail["list_unsubscribe"], serde_json::Value::Null, "a message the reader asked for");
    assert_eq!(ru_mail["subject"], "Проверочное письмо от VPN");
    assert!(ru_mail["text"].as_str().unwrap().contains("доходит"), "{ru_mail:#?}");

    let shown = s.ok(&["mail", "show", en["mail_id"].as_str().unwrap()]);
    assert_eq!((shown["status"].as_str(), shown["kind"].as_str()), (Some("sent"), Some("test")));
    assert!(s.refused(&["mail", "test", "not-an-address"]).contains("to"));
    assert!(s.refused(&["mail", "show", "mail_missing"]).contains("mail"));
    assert_eq!(s.run(&["mail", "test", "a@example.com", "--lang", "de"]).code, 2);
}

#[test]
fn a_message_the_server_could_not_take_leaves_once_it_is_back_and_never_twice() {
    let port = free_port();
    let mut s = with_smtp("mail-retry", &format!("smtp://127.0.0.1:{port}?tls=none"));
    s.env.push(("VP_SHIFTED_CLOCK".into(), "on".into()));
    let down = s.run(&["mail", "test", "owner@example.com"]);
    assert_eq!(down.code, 1, "{}", down.stderr);
    assert!(
        down.stderr.contains("did not leave") && down.stderr.contains("the workers try it again"),
        "{}",
        down.stderr
    );
    let (_, after) = down.stderr.split_once("the test message ").expect("the message is named");
    let mail_id = after.split_whitespace().next().expect("the message's id").to_owned();
    let queued = s.ok(&["mail", "show", &mail_id]);
    assert_eq!((queued["status"].as_str(), queued["attempts"].as_u64()), (Some("queued"), Some(1)));
    assert!(queued["last_error"].as_str().unwrap().starts_with("not sent: "), "{queued}");

    let server = SmtpServer::start(port, s.dir.join("maildir"));
    s.ok(&["jobs"]);
    assert!(server.messages().is_empty(), "not before its pause is over");
    s.ok(&["clock", "advance", "61s"]);
    s.ok(&["jobs"]);
    s.ok(&["clock", "advance", "2h"]);
    s.ok(&["jobs"]);
    assert_eq!(server.messages().len(), 1, "sent once");
    let sent = s.ok(&["mail", "show", &mail_id]);
    assert_eq!((sent["status"].as_str(), sent["attempts"].as_u64()), (Some("sent"), Some(2)));
    assert_eq!(parse(&server.messages()[0])["message_id"], format!("<{mail_id}@vpn.example>"));
}

#[test]
fn smtp_without_starttls_offered_sends_nothing_in_the_clear() {
    let server = SmtpServer::start_anywhere();
    let s = with_smtp("mail-starttls", &format!("smtp://mailer:secret@127.0.0.1:{}", server.port));
    let run = s.run(&["mail", "test", "owner@example.com"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("did not leave"), "{}", run.stderr);
    assert!(!run.stderr.contains("secret"), "the password is never printed: {}", run.stderr);
    assert!(server.messages().is_empty());
}

#[test]
fn without_an_smtp_server_each_message_is_an_eml_file_in_the_data_directory() {
    let s = Scratch::new("mail-files");
    let sent = s.ok(&["mail", "test", "owner@example.com", "--lang", "ru"]);
    let path = s.dir.join("mail").join(format!("{}.eml", sent["mail_id"].as_str().unwrap()));
    let mail = parse(&std::fs::read_to_string(&path).expect("the .eml file"));
    assert_eq!(mail["subject"], "Проверочное письмо от VPN");
    assert_eq!(mail["to"], "owner@example.com");
}

#[test]
fn mail_settings_that_do_not_read_stop_the_start_naming_the_setting() {
    let mut s = Scratch::new("mail-config");
    s.env = vec![("VP_SMTP_URL".into(), "http://mail.example".into()), ("VP_MAIL_FROM".into(), "a@b.example".into())];
    assert!(s.refused(&["mail", "test", "a@example.com"]).contains("VP_SMTP_URL"));
    s.env = vec![("VP_SMTP_URL".into(), "smtp://mail.example".into())];
    assert!(s.refused(&["mail", "test", "a@example.com"]).contains("VP_MAIL_FROM"));
    s.env = vec![("VP_SMTP_URL".into(), "smtps://mail.example".into()), ("VP_MAIL_FROM".into(), "nobody".into())];
    assert!(s.refused(&["mail", "test", "a@example.com"]).contains("VP_MAIL_FROM"));
}

#[test]
fn a_cabinet_invitation_mails_its_link_to_the_person_under_the_brand() {
    let server = SmtpServer::start_anywhere();
    let s = with_smtp("mail-invite", &server.url());
    let account = s.ok(&["account", "create", "--brand", "Fast VPN"]);
    let account_id = account["account"]["account_id"].as_str().unwrap();
    let invitation = s.ok(&["cabinet", "invite", account_id, "--email", "Partner@Example.com", "--lang", "ru"]);
    assert!(server.messages().is_empty(), "queued with the invitation, sent by the workers");
    s.ok(&["jobs"]);
    let got: Vec<_> = server.messages().iter().map(|raw| parse(raw)).collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["to"], "partner@example.com");
    assert_eq!(got[0]["from"], "Fast VPN <noreply@vpn.example>");
    assert_eq!(got[0]["subject"], "Fast VPN: доступ к кабинету партнёра");
    let link = invitation["link"].as_str().unwrap();
    assert!(got[0]["text"].as_str().unwrap().contains(link), "{:#?}", got[0]);
    assert!(got[0]["text"].as_str().unwrap().contains("\u{a0}MSK, "), "the deadline in the account's zone");
    assert_eq!(s.ok(&["mail", "show", invitation["mail_id"].as_str().unwrap()])["status"], "sent");
}
