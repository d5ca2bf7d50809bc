//! The partner cabinet's sign-in rules: who may sign in, how long a session lives, when a run of
//! failed attempts locks further tries, and how long an invitation holds.

use std::fmt;

use thiserror::Error;
use time::{Duration, OffsetDateTime};

/// A password is at least this many characters.
pub const PASSWORD_MIN_CHARS: usize = 10;
/// And at most this many, so hashing stays cheap (nobody types more).
pub const PASSWORD_MAX_CHARS: usize = 256;
/// Failed attempts, per email or per address, that lock further tries ...
pub const LOCK_AFTER_FAILURES: usize = 10;
/// ... when they all fell within this window ...
pub const LOCK_WINDOW: Duration = Duration::minutes(15);
/// ... for this long after the last of them.
pub const LOCK_FOR: Duration = Duration::minutes(15);
/// A session ends after this long without a request ...
pub const SESSION_IDLE: Duration = Duration::hours(12);
/// ... and this long after sign-in in any case.
pub const SESSION_ABSOLUTE: Duration = Duration::days(30);
/// An invitation or a password reset link holds this long.
pub const INVITATION_VALID_FOR: Duration = Duration::hours(72);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum CabinetInputError {
    #[error("must be an email address such as partner@example.com")]
    Email,
    #[error("must be at least {PASSWORD_MIN_CHARS} characters")]
    PasswordTooShort,
    #[error("must be at most {PASSWORD_MAX_CHARS} characters")]
    PasswordTooLong,
}

/// A cabinet user's email, compared without regard to case.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Email, CabinetInputError> {
        let email = raw.trim().to_lowercase();
        let (local, domain) = email.split_once('@').ok_or(CabinetInputError::Email)?;
        let valid = !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && email.len() <= 254
            && !email.chars().any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
            && !domain.contains('@');
        if valid { Ok(Email(email)) } else { Err(CabinetInputError::Email) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks a new password against the length rules (any characters count, spaces too).
pub fn check_new_password(password: &str) -> Result<(), CabinetInputError> {
    match password.chars().count() {
        n if n < PASSWORD_MIN_CHARS => Err(CabinetInputError::PasswordTooShort),
        n if n > PASSWORD_MAX_CHARS => Err(CabinetInputError::PasswordTooLong),
        _ => Ok(()),
    }
}

/// Until when sign-in is locked, given the most recent failed attempts of one email or one
/// address (newest first; only the first `LOCK_AFTER_FAILURES` are looked at): locked when
/// that many fell within `LOCK_WINDOW`, until `LOCK_FOR` after the newest. `None`: not locked.
pub fn locked_until(recent_failures: &[OffsetDateTime], now: OffsetDateTime) -> Option<OffsetDateTime> {
    let run = recent_failures.get(..LOCK_AFTER_FAILURES)?;
    let (newest, oldest) = (run[0], run[LOCK_AFTER_FAILURES - 1]);
    let until = newest + LOCK_FOR;
    (newest - oldest <= LOCK_WINDOW && until > now).then_some(until)
}

/// Whether a session signed in at `created_at` and last used at `last_seen_at` is still alive.
pub fn session_alive(created_at: OffsetDateTime, last_seen_at: OffsetDateTime, now: OffsetDateTime) -> bool {
    now < last_seen_at + SESSION_IDLE && now < created_at + SESSION_ABSOLUTE
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-11-23 10:00 UTC);

    fn failures_every(step: Duration, count: usize, newest: OffsetDateTime) -> Vec<OffsetDateTime> {
        (0..count).map(|i| newest - step * i as i32).collect()
    }

    #[test]
    fn ten_failures_within_fifteen_minutes_lock_for_fifteen_minutes_after_the_last() {
        let failures = failures_every(Duration::seconds(30), 10, T0);
        assert_eq!(locked_until(&failures, T0), Some(T0 + Duration::minutes(15)));
        assert_eq!(locked_until(&failures, T0 + Duration::minutes(14)), Some(T0 + Duration::minutes(15)));
        assert_eq!(locked_until(&failures, T0 + Duration::minutes(15)), None, "the lock lasts 15 minutes");
    }

    #[test]
    fn nine_failures_do_not_lock() {
        assert_eq!(locked_until(&failures_every(Duration::seconds(1), 9, T0), T0), None);
    }

    #[test]
    fn ten_failures_spread_over_more_than_fifteen_minutes_do_not_lock() {
        // 9 gaps of 2 minutes: 18 minutes from the first to the tenth.
        assert_eq!(locked_until(&failures_every(Duration::minutes(2), 10, T0), T0), None);
    }

    #[test]
    fn a_session_ends_after_twelve_idle_hours_or_thirty_days_in_any_case() {
        assert!(session_alive(T0, T0, T0 + Duration::hours(12) - Duration::seconds(1)));
        assert!(!session_alive(T0, T0, T0 + Duration::hours(12)));
        let busy = T0 + Duration::days(30) - Duration::hours(1);
        assert!(session_alive(T0, busy, busy + Duration::minutes(59)));
        assert!(!session_alive(T0, busy, T0 + Duration::days(30)), "absolute limit despite recent use");
    }

    #[test]
    fn passwords_need_ten_characters() {
        assert_eq!(check_new_password("123456789"), Err(CabinetInputError::PasswordTooShort));
        assert_eq!(check_new_password("пароль из 10"), Ok(()), "characters, not bytes");
        assert_eq!(check_new_password(&"x".repeat(257)), Err(CabinetInputError::PasswordTooLong));
    }

    #[test]
    fn emails_are_compared_without_case_and_must_look_like_addresses() {
        assert_eq!(Email::parse(" Partner@Example.COM ").unwrap().as_str(), "partner@example.com");
        for bad in ["", "partner", "@example.com", "a@b", "a@.com", "a b@example.com", "a@b@c.com"] {
            assert_eq!(Email::parse(bad), Err(CabinetInputError::Email), "{bad:?}");
        }
    }
}
