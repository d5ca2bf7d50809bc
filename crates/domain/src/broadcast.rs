//! Broadcasts (docs/decisions.md, "Broadcasts"): a partner's message to the customers of their
//! bot, in each customer's language, to an audience, sent once per chat at the bot's pace. The
//! rules: who is in an audience, what a text and its button may be, how a broadcast moves
//! between sending, paused, cancelled and done, and what becomes of each chat.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use time::OffsetDateTime;

use crate::subscription::{Subscription, SubscriptionStatus};

/// Telegram's longest message text, in characters.
pub const TEXT_MAX_CHARS: usize = 4096;
/// Telegram's longest button label we send, in characters.
pub const BUTTON_TEXT_MAX_CHARS: usize = 64;

/// Who a broadcast goes to among the people who started the account's bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Everyone whose chat still takes the bot's messages.
    All,
    /// A subscription that runs now and is not a trial.
    Active,
    /// A subscription that has ended.
    Expired,
    /// A trial that runs now.
    Trial,
    /// Never paid an invoice (with or without a trial).
    NeverPaid,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the audience is one of all, active, expired, trial, never-paid")]
pub struct AudienceUnknown;

impl Audience {
    pub const ALL: [Audience; 5] =
        [Audience::All, Audience::Active, Audience::Expired, Audience::Trial, Audience::NeverPaid];

    pub const fn as_str(self) -> &'static str {
        match self {
            Audience::All => "all",
            Audience::Active => "active",
            Audience::Expired => "expired",
            Audience::Trial => "trial",
            Audience::NeverPaid => "never-paid",
        }
    }

    /// Whether a customer is in the audience at `now`: their subscription (`None` without one)
    /// and whether they ever paid.
    pub fn includes(self, subscription: Option<&Subscription>, paid_ever: bool, now: OffsetDateTime) -> bool {
        let status = subscription.map(|s| (s.status_at(now), s.is_trial));
        match self {
            Audience::All => true,
            Audience::Active => matches!(status, Some((SubscriptionStatus::Active, false))),
            Audience::Expired => matches!(status, Some((SubscriptionStatus::Expired, _))),
            Audience::Trial => matches!(status, Some((SubscriptionStatus::Active, true))),
            Audience::NeverPaid => !paid_ever,
        }
    }
}

impl FromStr for Audience {
    type Err = AudienceUnknown;

    fn from_str(text: &str) -> Result<Audience, AudienceUnknown> {
        Audience::ALL.into_iter().find(|a| a.as_str() == text.trim()).ok_or(AudienceUnknown)
    }
}

impl fmt::Display for Audience {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a broadcast's text or button is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BroadcastRefused {
    #[error("the text is empty")]
    EmptyText,
    #[error("the text is {chars} characters; Telegram takes at most {TEXT_MAX_CHARS}")]
    TextTooLong { chars: usize },
    #[error("the button needs both a text and an https address")]
    HalfAButton,
    #[error("the button's text is 1 to {BUTTON_TEXT_MAX_CHARS} characters")]
    ButtonTextLength,
    #[error("the button's address is an https address")]
    ButtonUrl,
}

/// A broadcast's text in one language, as the bot sends its own: plain text (no markup is
/// parsed), 1 to `TEXT_MAX_CHARS` characters after trimming.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastText(String);

impl BroadcastText {
    pub fn parse(text: &str) -> Result<BroadcastText, BroadcastRefused> {
        let text = text.trim();
        let chars = text.chars().count();
        match chars {
            0 => Err(BroadcastRefused::EmptyText),
            n if n > TEXT_MAX_CHARS => Err(BroadcastRefused::TextTooLong { chars: n }),
            _ => Ok(BroadcastText(text.to_owned())),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A link button under a broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastButton {
    pub text: String,
    pub url: String,
}

impl BroadcastButton {
    /// Both or neither: a button has a label and an https address.
    pub fn parse(text: Option<&str>, url: Option<&str>) -> Result<Option<BroadcastButton>, BroadcastRefused> {
        let (text, url) = match (text.map(str::trim), url.map(str::trim)) {
            (None, None) => return Ok(None),
            (Some(text), Some(url)) => (text, url),
            _ => return Err(BroadcastRefused::HalfAButton),
        };
        if text.is_empty() || text.chars().count() > BUTTON_TEXT_MAX_CHARS {
            return Err(BroadcastRefused::ButtonTextLength);
        }
        let host = url.strip_prefix("https://").unwrap_or_default();
        if host.is_empty() || host.starts_with('/') || url.chars().any(char::is_whitespace) {
            return Err(BroadcastRefused::ButtonUrl);
        }
        Ok(Some(BroadcastButton { text: text.to_owned(), url: url.to_owned() }))
    }
}

/// Where a broadcast is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BroadcastState {
    Sending,
    Paused,
    Cancelled,
    /// Every chat had its turn.
    Done,
}

/// What the partner may do to a broadcast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BroadcastAction {
    Pause,
    Resume,
    Cancel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a broadcast that is {from} cannot {action:?}")]
pub struct BroadcastActionRefused {
    pub from: BroadcastState,
    pub action: BroadcastAction,
}

impl BroadcastState {
    pub const fn as_str(self) -> &'static str {
        match self {
            BroadcastState::Sending => "sending",
            BroadcastState::Paused => "paused",
            BroadcastState::Cancelled => "cancelled",
            BroadcastState::Done => "done",
        }
    }

    pub fn from_code(code: &str) -> Option<BroadcastState> {
        [BroadcastState::Sending, BroadcastState::Paused, BroadcastState::Cancelled, BroadcastState::Done]
            .into_iter()
            .find(|s| s.as_str() == code)
    }

    /// The state after `action`. Doing what is already done (pausing a paused broadcast) is no
    /// error; a cancelled or finished broadcast does not move again.
    pub fn after(self, action: BroadcastAction) -> Result<BroadcastState, BroadcastActionRefused> {
        use BroadcastAction::*;
        use BroadcastState::*;
        match (self, action) {
            (Sending | Paused, Pause) => Ok(Paused),
            (Sending | Paused, Resume) => Ok(Sending),
            (Sending | Paused | Cancelled, Cancel) => Ok(Cancelled),
            (from, action) => Err(BroadcastActionRefused { from, action }),
        }
    }
}

impl fmt::Display for BroadcastState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What became of one chat of a broadcast. A chat is marked sent in the unit of work that takes
/// it, before Telegram is asked (Telegram cannot tell a repeated message): a process that dies
/// during the call leaves it sent, so no chat ever gets the broadcast twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecipientState {
    /// Not yet sent (perhaps waiting after a "retry after").
    Left,
    Sent,
    /// The chat refuses the bot (blocked it, or is gone): it is unlinked.
    Blocked,
    /// Telegram refused it for another reason, or it failed too often.
    Failed,
}

impl RecipientState {
    pub const fn as_str(self) -> &'static str {
        match self {
            RecipientState::Left => "left",
            RecipientState::Sent => "sent",
            RecipientState::Blocked => "blocked",
            RecipientState::Failed => "failed",
        }
    }

    pub fn from_code(code: &str) -> Option<RecipientState> {
        [RecipientState::Left, RecipientState::Sent, RecipientState::Blocked, RecipientState::Failed]
            .into_iter()
            .find(|s| s.as_str() == code)
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;
    use crate::{DeviceLimit, Term};

    const NOW: OffsetDateTime = datetime!(2026-11-27 12:00 UTC);

    #[test]
    fn audiences_are_read_by_their_names() {
        for a in Audience::ALL {
            assert_eq!(a.as_str().parse::<Audience>(), Ok(a));
        }
        assert_eq!("everyone".parse::<Audience>(), Err(AudienceUnknown));
    }

    #[test]
    fn each_audience_takes_the_customers_its_name_says() {
        let paid = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, NOW);
        let ended = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, NOW - time::Duration::days(60));
        let mut trial = paid.clone();
        trial.is_trial = true;
        let cases = [
            (Some(&paid), true, [true, true, false, false, false]),
            (Some(&ended), true, [true, false, true, false, false]),
            (Some(&trial), false, [true, false, false, true, true]),
            (None, false, [true, false, false, false, true]),
        ];
        for (sub, paid_ever, expected) in cases {
            let got = Audience::ALL.map(|a| a.includes(sub, paid_ever, NOW));
            assert_eq!(got, expected, "{sub:?} paid_ever={paid_ever}");
        }
    }

    #[test]
    fn a_text_is_one_to_4096_characters_after_trimming() {
        assert_eq!(BroadcastText::parse("  Привет!  ").map(|t| t.as_str().to_owned()), Ok("Привет!".to_owned()));
        assert_eq!(BroadcastText::parse(" \n "), Err(BroadcastRefused::EmptyText));
        assert!(BroadcastText::parse(&"я".repeat(4096)).is_ok(), "characters, not bytes");
        assert_eq!(BroadcastText::parse(&"a".repeat(4097)), Err(BroadcastRefused::TextTooLong { chars: 4097 }));
    }

    #[test]
    fn a_button_has_a_label_and_an_https_address_or_is_not_there() {
        assert_eq!(BroadcastButton::parse(None, None), Ok(None));
        let ok = BroadcastButton::parse(Some("Open"), Some("https://example.com/sale")).unwrap().unwrap();
        assert_eq!((ok.text.as_str(), ok.url.as_str()), ("Open", "https://example.com/sale"));
        assert_eq!(BroadcastButton::parse(Some("Open"), None), Err(BroadcastRefused::HalfAButton));
        assert_eq!(BroadcastButton::parse(Some(""), Some("https://e.com")), Err(BroadcastRefused::ButtonTextLength));
        for bad in ["http://e.com", "https://", "https:///x", "https://e.com/a b", "javascript:alert(1)"] {
            assert_eq!(BroadcastButton::parse(Some("Open"), Some(bad)), Err(BroadcastRefused::ButtonUrl), "{bad}");
        }
    }

    #[test]
    fn a_broadcast_pauses_resumes_and_cancels_and_a_finished_one_stays_finished() {
        use BroadcastAction::*;
        use BroadcastState::*;
        assert_eq!(Sending.after(Pause), Ok(Paused));
        assert_eq!(Paused.after(Pause), Ok(Paused), "again is no error");
        assert_eq!(Paused.after(Resume), Ok(Sending));
        assert_eq!(Paused.after(Cancel), Ok(Cancelled));
        assert_eq!(Cancelled.after(Resume), Err(BroadcastActionRefused { from: Cancelled, action: Resume }));
        assert_eq!(Done.after(Cancel), Err(BroadcastActionRefused { from: Done, action: Cancel }));
        for s in [Sending, Paused, Cancelled, Done] {
            assert_eq!(BroadcastState::from_code(s.as_str()), Some(s));
        }
        for r in [RecipientState::Left, RecipientState::Sent, RecipientState::Blocked, RecipientState::Failed] {
            assert_eq!(RecipientState::from_code(r.as_str()), Some(r));
        }
    }
}
