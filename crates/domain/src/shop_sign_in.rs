//! Signing in to a web shop's customer account by email (docs/decisions.md, "Customer
//! accounts"): a one-time code of six digits, or the link in the same message, good for ten
//! minutes and five wrong tries; then a new code is needed. How often codes may be asked for,
//! per address and per source, so the shop cannot be used to flood a mailbox.

use time::{Duration, OffsetDateTime};

/// A code (and its link) works this long ...
pub const CODE_VALID_FOR: Duration = Duration::minutes(10);
/// ... and takes this many wrong tries before a new one is needed.
pub const CODE_TRIES: u32 = 5;
/// At most this many codes go to one address ...
pub const CODES_PER_ADDRESS: u64 = 5;
/// ... or are asked for from one source (IP address) ...
pub const CODES_PER_SOURCE: u64 = 20;
/// ... within this window.
pub const CODES_WINDOW: Duration = Duration::hours(1);

/// The code from eight random bytes: six digits, leading zeros kept.
pub fn code_from(random: [u8; 8]) -> String {
    format!("{:06}", u64::from_le_bytes(random) % 1_000_000)
}

/// What a person typed as a code, if it can be one: six digits, spaces and dashes ignored
/// (mail programs and people group them).
pub fn typed_code(raw: &str) -> Option<String> {
    let digits: String = raw.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    (digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// Where an issued code stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeState {
    /// It may still be tried, this many more times.
    Open { tries_left: u32 },
    /// Used, run out of tries, or past its time: a new code is needed.
    Spent,
}

pub fn code_state(tries_left: u32, used: bool, expires_at: OffsetDateTime, now: OffsetDateTime) -> CodeState {
    if used || tries_left == 0 || now >= expires_at { CodeState::Spent } else { CodeState::Open { tries_left } }
}

/// Whether another code may be sent, given how many went to the address and came from the
/// source within the window.
pub fn may_send_code(to_address: u64, from_source: u64) -> bool {
    to_address < CODES_PER_ADDRESS && from_source < CODES_PER_SOURCE
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_code_is_six_digits_with_its_leading_zeros() {
        assert_eq!(code_from(7u64.to_le_bytes()), "000007");
        assert_eq!(code_from(u64::MAX.to_le_bytes()), "551615");
    }

    #[test]
    fn a_typed_code_may_be_grouped_but_is_six_digits() {
        assert_eq!(typed_code(" 123 456 ").as_deref(), Some("123456"));
        assert_eq!(typed_code("123-456").as_deref(), Some("123456"));
        for bad in ["12345", "1234567", "12345a", "", "１２３４５６"] {
            assert_eq!(typed_code(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_code_is_spent_when_used_out_of_tries_or_ten_minutes_old() {
        let issued = datetime!(2026-11-27 10:00 UTC);
        let expires = issued + CODE_VALID_FOR;
        assert_eq!(code_state(5, false, expires, issued), CodeState::Open { tries_left: 5 });
        assert_eq!(code_state(1, false, expires, expires - Duration::seconds(1)), CodeState::Open { tries_left: 1 });
        assert_eq!(code_state(5, false, expires, expires), CodeState::Spent, "ten minutes");
        assert_eq!(code_state(0, false, expires, issued), CodeState::Spent, "five wrong tries");
        assert_eq!(code_state(5, true, expires, issued), CodeState::Spent, "once");
    }

    #[test]
    fn codes_are_limited_per_address_and_per_source_within_the_hour() {
        assert!(may_send_code(4, 19));
        assert!(!may_send_code(5, 0), "the sixth to one address");
        assert!(!may_send_code(0, 20), "the twenty-first from one source");
    }
}
