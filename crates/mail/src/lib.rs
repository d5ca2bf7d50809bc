//! Mail out (docs/decisions.md, "Mail"): `SmtpMailer` hands messages to an SMTP server
//! (`VP_SMTP_URL`); `FileMailer`, the embedded default, writes each as an `.eml` file and logs
//! where. Both build the same MIME message, so the default shows exactly what SMTP would send.

mod file;
mod message;
mod settings;
mod smtp;

pub use file::FileMailer;
pub use settings::{MailSettings, MailSettingsError, SmtpSettings, Tls};
pub use smtp::SmtpMailer;
