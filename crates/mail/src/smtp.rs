//! `Mailer` over SMTP. A new connection per message: the outbox sends a handful at a time, and
//! a connection left open is one more thing a server's idle timeout breaks.

use std::time::Duration;

use async_trait::async_trait;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls as LettreTls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use vp_ports::{MailError, Mailer, OutgoingMail};

use crate::message::build;
use crate::settings::{SmtpSettings, Tls};

/// A server that takes longer than this for one command is asked again later.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: lettre::Address,
}

impl SmtpMailer {
    /// `hello`: the name this service gives in `EHLO` (its public host).
    pub fn new(server: &SmtpSettings, from: lettre::Address, hello: &str) -> Result<SmtpMailer, String> {
        let tls = |host: &str| TlsParameters::new(host.to_owned()).map_err(|e| format!("VP_SMTP_URL: TLS: {e}"));
        let tls = match server.tls {
            Tls::Implicit => LettreTls::Wrapper(tls(&server.host)?),
            Tls::StartTls => LettreTls::Required(tls(&server.host)?),
            Tls::None => LettreTls::None,
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(server.host.as_str())
            .port(server.port)
            .tls(tls)
            .timeout(Some(COMMAND_TIMEOUT))
            .hello_name(ClientId::Domain(hello.to_owned()));
        if let Some((user, password)) = &server.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(SmtpMailer { transport: builder.build(), from })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: &OutgoingMail) -> Result<String, MailError> {
        let message = build(mail, &self.from)?;
        match self.transport.send(message).await {
            Ok(response) => Ok(format!("{} {}", response.code(), response.message().collect::<Vec<_>>().join(" "))),
            // A 5xx is the server's final word on this message; anything else (no connection,
            // a 4xx, a timeout, STARTTLS not offered) may go better later.
            Err(e) if e.is_permanent() => Err(MailError::Refused(e.to_string())),
            Err(e) => Err(MailError::Unavailable(e.to_string())),
        }
    }
}
