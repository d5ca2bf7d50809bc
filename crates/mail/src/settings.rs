//! `VP_SMTP_URL` and `VP_MAIL_FROM`, read once at start; a value that does not read stops the
//! start with a message naming the variable.

use std::path::PathBuf;

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tls {
    /// `smtps://`: TLS from the first byte (port 465 unless given).
    Implicit,
    /// `smtp://`: STARTTLS, required: nothing (credentials least of all) is sent in the clear
    /// to a server that does not offer it (port 587 unless given).
    StartTls,
    /// `smtp://...?tls=none`: no encryption, for a relay on the same machine or network.
    None,
}

/// Where SMTP mail goes.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub credentials: Option<(String, String)>,
}

impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The password never reaches a log.
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("user", &self.credentials.as_ref().map(|(u, _)| u))
            .finish()
    }
}

/// Where mail goes: an SMTP server, or `.eml` files under the data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailSettings {
    /// `hello`: the name this service gives in `EHLO`, its public host.
    Smtp {
        server: SmtpSettings,
        from: lettre::Address,
        hello: String,
    },
    Files {
        dir: PathBuf,
        from: lettre::Address,
    },
}

/// A mail setting that does not read: which one, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSettingsError {
    pub key: &'static str,
    pub reason: String,
}

impl std::fmt::Display for MailSettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.reason)
    }
}

fn invalid(key: &'static str, reason: impl Into<String>) -> MailSettingsError {
    MailSettingsError { key, reason: reason.into() }
}

impl MailSettings {
    /// `smtp_url`: `VP_SMTP_URL`; `from`: `VP_MAIL_FROM`, required with it; without SMTP the
    /// files' sender is `noreply@` the public host. `data_dir`: where the files go.
    pub fn parse(
        smtp_url: Option<&str>,
        from: Option<&str>,
        public_host: &str,
        data_dir: PathBuf,
    ) -> Result<MailSettings, MailSettingsError> {
        let from = match from.map(str::trim).filter(|f| !f.is_empty()) {
            Some(f) => Some(
                f.parse::<lettre::Address>()
                    .map_err(|e| invalid("VP_MAIL_FROM", format!("{f:?} is not an email address ({e})")))?,
            ),
            None => None,
        };
        let Some(url) = smtp_url.map(str::trim).filter(|u| !u.is_empty()) else {
            let from = match from {
                Some(f) => f,
                None => lettre::Address::new("noreply", public_host)
                    .or_else(|_| lettre::Address::new("noreply", "localhost"))
                    .map_err(|e| invalid("VP_MAIL_FROM", format!("no sender for the mail files: {e}")))?,
            };
            return Ok(MailSettings::Files { dir: data_dir.join("mail"), from });
        };
        let server = parse_smtp_url(url)?;
        let from =
            from.ok_or_else(|| invalid("VP_MAIL_FROM", "required with VP_SMTP_URL (the address mail is sent from)"))?;
        Ok(MailSettings::Smtp { server, from, hello: public_host.to_owned() })
    }
}

fn parse_smtp_url(raw: &str) -> Result<SmtpSettings, MailSettingsError> {
    let bad =
        |why: &str| invalid("VP_SMTP_URL", format!("{why} (smtp://user:password@host:587 or smtps://...@host:465)"));
    let url = url::Url::parse(raw).map_err(|e| bad(&e.to_string()))?;
    let mut tls = match url.scheme() {
        "smtps" => Tls::Implicit,
        "smtp" => Tls::StartTls,
        other => return Err(bad(&format!("the scheme {other}:// is neither smtp nor smtps"))),
    };
    for (key, value) in url.query_pairs() {
        match (key.as_ref(), value.as_ref(), tls) {
            ("tls", "none", Tls::StartTls) => tls = Tls::None,
            ("tls", "required", Tls::StartTls) => {}
            _ => return Err(bad(&format!("{key}={value} is not an option here (smtp:// takes tls=none)"))),
        }
    }
    let host = url.host_str().filter(|h| !h.is_empty()).ok_or_else(|| bad("no host"))?.to_owned();
    let port = url.port().unwrap_or(match tls {
        Tls::Implicit => 465,
        Tls::StartTls => 587,
        Tls::None => 25,
    });
    let decode = |s: &str| {
        url::form_urlencoded::parse(format!("x={s}").as_bytes()).next().map(|(_, v)| v.into_owned()).unwrap_or_default()
    };
    let credentials = match (url.username(), url.password()) {
        ("", None) => None,
        (user, Some(password)) if !user.is_empty() => Some((decode(user), decode(password))),
        _ => return Err(bad("a user needs a password, and a password a user")),
    };
    if path_or_fragment(&url) {
        return Err(bad("no path or fragment is taken"));
    }
    Ok(SmtpSettings { host, port, tls, credentials })
}

fn path_or_fragment(url: &url::Url) -> bool {
    !(url.path().is_empty() || url.path() == "/") || url.fragment().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smtp(url: &str) -> Result<SmtpSettings, MailSettingsError> {
        match MailSettings::parse(Some(url), Some("noreply@vpn.example"), "vpn.example", "/data".into())? {
            MailSettings::Smtp { server, .. } => Ok(server),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn smtp_requires_starttls_and_smtps_is_tls_from_the_start() {
        let s = smtp("smtp://mailer:p%40ss@mail.example").unwrap();
        assert_eq!((s.host.as_str(), s.port, s.tls), ("mail.example", 587, Tls::StartTls));
        assert_eq!(s.credentials, Some(("mailer".into(), "p@ss".into())));
        let s = smtp("smtps://u:p@mail.example").unwrap();
        assert_eq!((s.port, s.tls), (465, Tls::Implicit));
        let s = smtp("smtp://127.0.0.1:2525?tls=none").unwrap();
        assert_eq!((s.port, s.tls, s.credentials), (2525, Tls::None, None));
        assert!(!format!("{:?}", smtp("smtp://u:secret@h").unwrap()).contains("secret"), "no password in logs");
    }

    #[test]
    fn a_url_that_does_not_read_names_the_variable() {
        for bad in [
            "http://mail.example",
            "smtp://",
            "smtp://u@mail.example",
            "smtps://mail.example?tls=none",
            "smtp://mail.example?tls=maybe",
            "smtp://mail.example/inbox",
            "not a url",
        ] {
            let e = smtp(bad).unwrap_err().to_string();
            assert!(e.starts_with("VP_SMTP_URL: "), "{bad}: {e}");
        }
    }

    #[test]
    fn smtp_needs_a_sender_and_a_sender_must_be_an_address() {
        let e = MailSettings::parse(Some("smtp://h"), None, "vpn.example", "/d".into()).unwrap_err().to_string();
        assert!(e.starts_with("VP_MAIL_FROM: "), "{e}");
        let e = MailSettings::parse(None, Some("nobody"), "vpn.example", "/d".into()).unwrap_err().to_string();
        assert!(e.starts_with("VP_MAIL_FROM: "), "{e}");
    }

    #[test]
    fn without_smtp_mail_is_written_under_the_data_directory() {
        let s = MailSettings::parse(None, None, "127.0.0.1", "/data".into()).unwrap();
        let MailSettings::Files { dir, from } = s else { panic!() };
        assert_eq!(dir, PathBuf::from("/data/mail"));
        assert_eq!(from.to_string(), "noreply@127.0.0.1");
    }
}
