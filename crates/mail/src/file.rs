//! The embedded default: each message as `<id>.eml` in a directory, logged, so a machine with no
//! mail server shows every message as it would have been sent (open it in any mail program).

use std::path::PathBuf;

use async_trait::async_trait;
use vp_ports::{MailError, Mailer, OutgoingMail};

use crate::message::build;

pub struct FileMailer {
    dir: PathBuf,
    from: lettre::Address,
}

impl FileMailer {
    pub fn new(dir: PathBuf, from: lettre::Address) -> FileMailer {
        FileMailer { dir, from }
    }
}

#[async_trait]
impl Mailer for FileMailer {
    async fn send(&self, mail: &OutgoingMail) -> Result<String, MailError> {
        let bytes = build(mail, &self.from)?.formatted();
        let dir = self.dir.clone();
        // Outbox ids are our own (`mail_` and base32), never a path.
        let path = dir.join(format!("{}.eml", mail.id));
        let written = path.clone();
        tokio::task::spawn_blocking(move || {
            std::fs::create_dir_all(&dir)?;
            std::fs::write(&written, bytes)
        })
        .await
        .map_err(|e| MailError::Unavailable(e.to_string()))?
        .map_err(|e| MailError::Unavailable(format!("{}: {e}", path.display())))?;
        tracing::info!(to = %mail.to, subject = %mail.mail.subject, path = %path.display(), "mail written to a file (no VP_SMTP_URL)");
        Ok(path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use vp_ports::RenderedMail;

    use super::*;

    #[tokio::test]
    async fn each_message_is_a_file_named_by_its_id_holding_the_whole_message() {
        let dir = std::env::temp_dir().join(format!("vp-mail-files-{}", std::process::id()));
        let mailer = FileMailer::new(dir.clone(), "noreply@vpn.example".parse().unwrap());
        let mail = OutgoingMail {
            id: "mail_7".into(),
            to: "buyer@example.com".into(),
            from_name: "Fast VPN".into(),
            mail: RenderedMail {
                subject: "Hello".into(),
                text: "Body".into(),
                html: "<p>Body</p>".into(),
                list_unsubscribe: None,
            },
        };
        let path = mailer.send(&mail).await.unwrap();
        assert_eq!(PathBuf::from(&path), dir.join("mail_7.eml"));
        let raw = std::fs::read_to_string(&path).unwrap();
        assert!(raw.contains("To: buyer@example.com") && raw.contains("Subject: Hello"), "{raw}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
