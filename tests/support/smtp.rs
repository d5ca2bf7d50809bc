//! A real SMTP server on loopback for the mail tests: aiosmtpd (contract/mail, pinned), its
//! Maildir handler keeping every message it accepted, stopped on drop.

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Reads one message from stdin with Python's own mail parser, as a mail program would, and
/// prints its headers (decoded) and its text and HTML parts as JSON.
const PARSE: &str = r#"
import email, email.policy, json, sys
m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
text = m.get_body(preferencelist=("plain",))
html = m.get_body(preferencelist=("html",))
print(json.dumps({
    "subject": str(m["subject"]), "from": str(m["from"]), "to": str(m["to"]),
    "message_id": str(m["message-id"]), "content_type": m.get_content_type(),
    "list_unsubscribe": m["list-unsubscribe"] and str(m["list-unsubscribe"]),
    "text": text.get_content() if text else None, "html": html.get_content() if html else None,
}))
"#;

fn python() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../contract/mail/.venv/bin/python")
}

/// A raw message as a mail program reads it: `subject`, `from`, `to`, `message_id`,
/// `content_type`, `list_unsubscribe`, `text`, `html`.
pub fn parse(raw: &str) -> Value {
    use std::io::Write;
    let mut child = Command::new(python())
        .args(["-c", PARSE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the mail parser");
    child.stdin.take().expect("stdin").write_all(raw.as_bytes()).expect("write the message");
    let out = child.wait_with_output().expect("the mail parser");
    assert!(out.status.success(), "the message does not parse: {raw}");
    serde_json::from_slice(&out.stdout).expect("the parser's JSON")
}

pub struct SmtpServer {
    pub port: u16,
    maildir: PathBuf,
    child: Child,
}

/// A loopback port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

impl SmtpServer {
    /// Starts one on a free port, keeping mail in a directory of its own.
    pub fn start_anywhere() -> SmtpServer {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!("vp-maildir-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        SmtpServer::start(port, dir)
    }

    /// Starts a plain SMTP server (no TLS offered) on `port`, keeping mail under `maildir`.
    pub fn start(port: u16, maildir: PathBuf) -> SmtpServer {
        let python = python();
        assert!(
            python.is_file(),
            "the SMTP server is not installed: run `python3 -m venv contract/mail/.venv && \
             contract/mail/.venv/bin/pip install -r contract/mail/requirements.txt` (cargo xtask test does it)"
        );
        let child = Command::new(python)
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd");
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "aiosmtpd did not start on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        SmtpServer { port, maildir, child }
    }

    /// `smtp://` to this server, unencrypted (it offers no STARTTLS).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}?tls=none", self.port)
    }

    /// Every message the server accepted, raw, oldest first.
    pub fn messages(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.maildir.join("new")) else { return Vec::new() };
        let mut files: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        files.iter().map(|p| std::fs::read_to_string(p).expect("read a message")).collect()
    }

    /// Every message parsed, once there are `count` (the service's mail worker sends every
    /// 2 s) or a minute has passed: the caller asserts what it needs.
    pub fn parsed_once_there_are(&self, count: usize) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.messages().len() < count && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
        }
        self.messages().iter().map(|raw| parse(raw)).collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
