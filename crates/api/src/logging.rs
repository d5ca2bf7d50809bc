//! Logs: to stderr (stdout is the commands' JSON), as plain lines or one JSON object per line
//! (`VP_LOG_FORMAT`), each line written whole after a last scrub. Nothing should log a secret in
//! the first place; the scrub makes sure that a configured secret, a partner API key, a webhook
//! signing secret or a card-like number never reaches the log even if something does.

use std::io::Write;
use std::sync::Arc;

use tracing_subscriber::fmt::MakeWriter;

use crate::config::LogFormat;

const REDACTED: &str = "[redacted]";
/// Shorter configured values are not scrubbed: they would mangle ordinary text.
const SECRET_MIN_CHARS: usize = 6;

pub fn init(filter: &str, format: LogFormat, secrets: Vec<String>) {
    let filter =
        tracing_subscriber::EnvFilter::try_new(filter).unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let writer = Scrubbed { secrets: Arc::new(secrets.into_iter().filter(|s| s.len() >= SECRET_MIN_CHARS).collect()) };
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(writer);
    let _ = match format {
        LogFormat::Text => builder.with_ansi(false).try_init(),
        // The request span (with its request_id) rides on every line of a request.
        LogFormat::Json => builder.json().with_current_span(true).with_span_list(false).try_init(),
    };
}

#[derive(Clone)]
struct Scrubbed {
    secrets: Arc<Vec<String>>,
}

impl<'a> MakeWriter<'a> for Scrubbed {
    type Writer = ScrubbedLine;

    fn make_writer(&'a self) -> ScrubbedLine {
        ScrubbedLine { line: Vec::with_capacity(256), secrets: self.secrets.clone() }
    }
}

/// One log line, scrubbed and written to stderr when the formatter is done with it.
struct ScrubbedLine {
    line: Vec<u8>,
    secrets: Arc<Vec<String>>,
}

impl Write for ScrubbedLine {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.line.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for ScrubbedLine {
    fn drop(&mut self) {
        let text = scrub(&String::from_utf8_lossy(&self.line), &self.secrets);
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

/// The text with every configured secret, partner API key, webhook secret and card-like
/// number replaced.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_owned();
    for secret in secrets {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), REDACTED);
        }
    }
    for prefix in [vp_app::keys::KEY_PREFIX, "whsec_"] {
        out = mask_after(&out, prefix);
    }
    mask_card_numbers(&out)
}

/// `prefix` followed by 16 or more key characters keeps only the prefix.
fn mask_after(text: &str, prefix: &str) -> String {
    let key_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '/' | '=');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let body = &from[prefix.len()..];
        let len = body.find(|c: char| !key_char(c)).unwrap_or(body.len());
        out.push_str(prefix);
        if len >= 16 {
            out.push_str(REDACTED);
        } else {
            out.push_str(&body[..len]);
        }
        rest = &body[len..];
    }
    out.push_str(rest);
    out
}

/// Runs of 13 to 19 digits (single spaces or hyphens may separate groups) that pass the Luhn
/// check keep only their last four digits.
fn mask_card_numbers(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() || (i > 0 && bytes[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        // The longest run of digits with single separators starting here.
        let mut end = i;
        let mut digits = Vec::new();
        let mut j = i;
        while j < bytes.len() {
            if bytes[j].is_ascii_digit() {
                digits.push(bytes[j] - b'0');
                j += 1;
                end = j;
            } else if matches!(bytes[j], b' ' | b'-') && j + 1 < bytes.len() && bytes[j + 1].is_ascii_digit() {
                j += 1;
            } else {
                break;
            }
        }
        // Digits of a decimal number (`0.1790000000000002`) are not a card number.
        let decimal = (i >= 2 && bytes[i - 1] == b'.' && bytes[i - 2].is_ascii_digit())
            || (end + 1 < bytes.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit());
        if !decimal && (13..=19).contains(&digits.len()) && luhn(&digits) {
            out.push_str(&text[copied..i]);
            let shown: String = digits[digits.len() - 4..].iter().map(|d| char::from(b'0' + d)).collect();
            out.push_str(&format!("{}{shown}", "*".repeat(digits.len() - 4)));
            copied = end;
        }
        i = end.max(i + 1);
    }
    out.push_str(&text[copied..]);
    out
}

fn luhn(digits: &[u8]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(k, &d)| {
            let d = u32::from(d);
            if k % 2 == 1 { if d * 2 > 9 { d * 2 - 9 } else { d * 2 } } else { d }
        })
        .sum();
    sum % 10 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_secrets_keys_and_webhook_secrets_are_replaced() {
        let secrets = vec!["live_Sh0pSecretValue".to_owned()];
        let line = "auth failed for live_Sh0pSecretValue with vpk_AbCdEfGhIjKlMnOpQrStUvWxYz012345 and whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=";
        let out = scrub(line, &secrets);
        assert_eq!(out, "auth failed for [redacted] with vpk_[redacted] and whsec_[redacted]");
    }

    #[test]
    fn card_like_numbers_keep_only_their_last_four_digits() {
        assert_eq!(scrub("card 4111111111111111 ok", &[]), "card ************1111 ok");
        assert_eq!(scrub("card 4111 1111 1111 1111.", &[]), "card ************1111.");
        assert_eq!(scrub("pan=5500-0000-0000-0004", &[]), "pan=************0004");
    }

    #[test]
    fn ordinary_numbers_and_short_prefixed_words_stay() {
        let line = r#"{"timestamp":"2026-11-23T19:12:17.123456Z","elapsed_ms":12.5,"order":4111111111111112,"vpk_":"vpk_abc"}"#;
        assert_eq!(scrub(line, &[]), line, "not Luhn-valid, or no key after the prefix");
        let floats = r#"{"elapsed_ms":0.4111111111111111,"sum":4111111111111111.5}"#;
        assert_eq!(scrub(floats, &[]), floats, "the digits of decimal numbers");
    }
}
