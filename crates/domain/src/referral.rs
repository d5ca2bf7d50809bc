//! Referrals (docs/decisions.md, "Referrals"): a customer's personal link brings a friend, and
//! the friend's first payment gives the inviter the account's days: added to a subscription
//! that runs, else kept as a credit for the inviter's next purchase. Once per invited customer,
//! never for one's own link, never for someone who was a customer before the link, and taken
//! back when the rewarded payment is refunded. These are the rules; storing and telling live
//! outside.

use std::fmt;

use thiserror::Error;
use time::OffsetDateTime;

use crate::subscription::{Subscription, SubscriptionStatus};

/// Most days one invitation may give (a year).
pub const MAX_REFERRAL_DAYS: u32 = 365;
/// Characters of a personal code.
pub const CODE_LEN: usize = 12;
/// What a `/start` parameter carrying a personal code begins with; the rest is the code. A
/// reminders link's code is 43 characters, so the two never read as each other.
const START_PREFIX: &str = "ref-";

/// The days an account's inviters get per invited customer's first payment; 0: no referral
/// program (no "Invite a friend", no invitations recorded, no rewards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReferralDays(u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("referral days are a whole number from 0 (off) to {MAX_REFERRAL_DAYS}")]
pub struct ReferralDaysInvalid;

impl ReferralDays {
    pub const OFF: ReferralDays = ReferralDays(0);

    pub fn parse(text: &str) -> Result<ReferralDays, ReferralDaysInvalid> {
        let days: u32 = text.trim().parse().map_err(|_| ReferralDaysInvalid)?;
        ReferralDays::new(days)
    }

    pub fn new(days: u32) -> Result<ReferralDays, ReferralDaysInvalid> {
        if days <= MAX_REFERRAL_DAYS { Ok(ReferralDays(days)) } else { Err(ReferralDaysInvalid) }
    }

    pub const fn days(self) -> u32 {
        self.0
    }

    pub const fn is_on(self) -> bool {
        self.0 > 0
    }
}

/// A customer's personal code: `CODE_LEN` URL-safe characters, carried by their link as the
/// bot's `/start` parameter `ref-<code>` (Telegram allows 64 of `[A-Za-z0-9_-]`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReferralCode(String);

impl ReferralCode {
    /// A code as made or stored; `None` for anything else.
    pub fn parse(text: &str) -> Option<ReferralCode> {
        let ok = text.len() == CODE_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        ok.then(|| ReferralCode(text.to_owned()))
    }

    /// The code of 9 random bytes: 72 bits as 12 characters of the URL-safe alphabet.
    pub fn from_random(bytes: [u8; 9]) -> ReferralCode {
        const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let bits = bytes.iter().fold(0u128, |acc, b| (acc << 8) | u128::from(*b));
        let code = (0..CODE_LEN).rev().map(|i| char::from(ALPHABET[((bits >> (6 * i)) & 63) as usize])).collect();
        ReferralCode(code)
    }

    /// The code a `/start` parameter carries, if it is an invitation.
    pub fn from_start(parameter: &str) -> Option<ReferralCode> {
        parameter.strip_prefix(START_PREFIX).and_then(ReferralCode::parse)
    }

    /// The `/start` parameter of the personal link.
    pub fn start_parameter(&self) -> String {
        format!("{START_PREFIX}{}", self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ReferralCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a start through a personal link records no invitation. The person is served as anyone
/// who starts the bot; only the invitation is not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NotInvited {
    #[error("the account has no referral program")]
    ProgramOff,
    #[error("no customer of the account has this code")]
    UnknownCode,
    #[error("the link is the customer's own")]
    OwnLink,
    #[error("the person was a customer before they followed the link")]
    ExistingCustomer,
}

/// Who followed a personal link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Newcomer<'a> {
    /// The client the person is (or would be, for someone without one yet).
    pub client_ref: Option<&'a str>,
    /// Whether the account knew the person before this start: they had started its bot, or
    /// the account has a client for them.
    pub known_before: bool,
}

/// Whether a start through the link of the customer `inviter_ref` (`None`: no customer has
/// the code) makes the person an invited customer.
pub fn invitation(days: ReferralDays, inviter_ref: Option<&str>, newcomer: Newcomer<'_>) -> Result<(), NotInvited> {
    if !days.is_on() {
        return Err(NotInvited::ProgramOff);
    }
    let inviter = inviter_ref.ok_or(NotInvited::UnknownCode)?;
    if newcomer.client_ref == Some(inviter) {
        return Err(NotInvited::OwnLink);
    }
    if newcomer.known_before {
        return Err(NotInvited::ExistingCustomer);
    }
    Ok(())
}

/// What an invitation gave the inviter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardState {
    /// Days added to the inviter's running subscription.
    Days,
    /// Days kept for the inviter's next purchase (they had no running subscription).
    Credit,
    /// A credit added to the subscription a later purchase of the inviter's bought.
    CreditSpent,
    /// Taken back: the rewarded payment was refunded.
    Reversed,
}

impl RewardState {
    pub const fn as_str(self) -> &'static str {
        match self {
            RewardState::Days => "days",
            RewardState::Credit => "credit",
            RewardState::CreditSpent => "credit_spent",
            RewardState::Reversed => "reversed",
        }
    }

    pub const ALL: [RewardState; 4] =
        [RewardState::Days, RewardState::Credit, RewardState::CreditSpent, RewardState::Reversed];

    pub fn from_code(code: &str) -> Option<RewardState> {
        RewardState::ALL.into_iter().find(|s| s.as_str() == code)
    }

    /// Whether the days count as given (the cabinet's and the overview's figures).
    pub const fn is_given(self) -> bool {
        !matches!(self, RewardState::Reversed)
    }
}

/// The reward for an invited customer's first payment: days when the inviter's subscription
/// runs at `now` (a trial runs too), else a credit. `None` while the program is off.
pub fn reward(
    days: ReferralDays,
    inviter_subscription: Option<&Subscription>,
    now: OffsetDateTime,
) -> Option<RewardState> {
    if !days.is_on() {
        return None;
    }
    let runs = inviter_subscription.is_some_and(|s| s.status_at(now) != SubscriptionStatus::Expired);
    Some(if runs { RewardState::Days } else { RewardState::Credit })
}

/// What undoing a reward takes back when its payment is refunded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reversal {
    /// The days are off the inviter's subscription again.
    TakeDays(u32),
    /// The credit is dropped before it was spent.
    DropCredit,
}

/// The reversal of a reward of `days` in `state`; `None` when it is reversed already.
pub const fn reversal(state: RewardState, days: u32) -> Option<Reversal> {
    match state {
        RewardState::Days | RewardState::CreditSpent => Some(Reversal::TakeDays(days)),
        RewardState::Credit => Some(Reversal::DropCredit),
        RewardState::Reversed => None,
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;
    use crate::{DeviceLimit, Term};

    const NOW: OffsetDateTime = datetime!(2026-11-27 12:00 UTC);
    const TEN: ReferralDays = ReferralDays(10);

    fn newcomer(client_ref: Option<&str>, known_before: bool) -> Newcomer<'_> {
        Newcomer { client_ref, known_before }
    }

    #[test]
    fn referral_days_are_zero_to_a_year_and_zero_turns_the_program_off() {
        assert_eq!(ReferralDays::parse("7").map(ReferralDays::days), Ok(7));
        assert_eq!(ReferralDays::parse("0").map(ReferralDays::is_on), Ok(false));
        assert_eq!(ReferralDays::parse("365").map(ReferralDays::days), Ok(365));
        for bad in ["366", "-1", "1.5", "", "ten"] {
            assert_eq!(ReferralDays::parse(bad), Err(ReferralDaysInvalid), "{bad:?}");
        }
    }

    #[test]
    fn a_personal_link_carries_ref_and_the_code_and_a_reminders_code_is_never_read_as_one() {
        let code = ReferralCode::parse("Ab3_-xYz0123").unwrap();
        assert_eq!(code.start_parameter(), "ref-Ab3_-xYz0123");
        assert_eq!(ReferralCode::from_start("ref-Ab3_-xYz0123"), Some(code));
        assert_eq!(ReferralCode::from_start("ref-short"), None);
        assert_eq!(ReferralCode::from_start("ref-Ab3_-xYz0123/"), None);
        // A reminders link's code: 43 URL-safe characters, even when it starts with "ref-".
        assert_eq!(ReferralCode::from_start("ref-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), None);
    }

    #[test]
    fn a_code_of_random_bytes_is_twelve_url_safe_characters_and_reads_back() {
        let code = ReferralCode::from_random([0, 0x10, 0x83, 0x10, 0x51, 0x87, 0x20, 0x92, 0xff]);
        assert_eq!(code.as_str(), "ABCDEFGHIJL_", "as base64url encodes them");
        assert_eq!(ReferralCode::from_start(&code.start_parameter()), Some(code));
        assert_eq!(ReferralCode::from_random([255; 9]).as_str(), "____________");
    }

    #[test]
    fn a_new_person_following_a_customers_link_is_invited() {
        assert_eq!(invitation(TEN, Some("cli_a"), newcomer(None, false)), Ok(()));
    }

    #[test]
    fn no_invitation_without_a_program_or_with_a_code_no_customer_has() {
        assert_eq!(invitation(ReferralDays::OFF, Some("cli_a"), newcomer(None, false)), Err(NotInvited::ProgramOff));
        assert_eq!(invitation(TEN, None, newcomer(None, false)), Err(NotInvited::UnknownCode));
    }

    #[test]
    fn inviting_oneself_is_never_an_invitation() {
        assert_eq!(invitation(TEN, Some("cli_a"), newcomer(Some("cli_a"), true)), Err(NotInvited::OwnLink));
    }

    #[test]
    fn a_customer_who_existed_before_the_link_is_not_invited() {
        assert_eq!(invitation(TEN, Some("cli_a"), newcomer(Some("cli_b"), true)), Err(NotInvited::ExistingCustomer));
        assert_eq!(invitation(TEN, Some("cli_a"), newcomer(None, true)), Err(NotInvited::ExistingCustomer));
    }

    #[test]
    fn a_running_subscription_gets_days_and_none_or_an_ended_one_a_credit() {
        let running = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, NOW);
        assert_eq!(reward(TEN, Some(&running), NOW), Some(RewardState::Days));
        let ended = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, NOW - time::Duration::days(90));
        assert_eq!(reward(TEN, Some(&ended), NOW), Some(RewardState::Credit));
        assert_eq!(reward(TEN, None, NOW), Some(RewardState::Credit));
        assert_eq!(reward(ReferralDays::OFF, Some(&running), NOW), None);
    }

    #[test]
    fn a_refund_takes_back_days_given_or_spent_and_drops_a_credit_once() {
        assert_eq!(reversal(RewardState::Days, 10), Some(Reversal::TakeDays(10)));
        assert_eq!(reversal(RewardState::CreditSpent, 10), Some(Reversal::TakeDays(10)));
        assert_eq!(reversal(RewardState::Credit, 10), Some(Reversal::DropCredit));
        assert_eq!(reversal(RewardState::Reversed, 10), None);
    }

    #[test]
    fn reward_states_keep_their_stored_names() {
        for state in [RewardState::Days, RewardState::Credit, RewardState::CreditSpent, RewardState::Reversed] {
            assert_eq!(RewardState::from_code(state.as_str()), Some(state));
        }
        assert_eq!(RewardState::from_code("other"), None);
    }
}
