//! Gift subscriptions (docs/decisions.md, "Gift subscriptions"): a buyer pays for a plan and
//! gets a code; whoever redeems it gets the plan's term, once. The rules a gift's code and its
//! life obey, stated once.

use std::fmt;

use time::{Duration, OffsetDateTime};

/// An unredeemed gift lapses this long after it was paid; the partner keeps the payment.
pub const GIFT_LAPSES_AFTER: Duration = Duration::days(365);

/// What a gift link carries after `gift_` in the bot's start parameter and after `/gift/` on
/// the web shop: 43 URL-safe characters (256 bits), so it cannot be guessed. Telegram allows
/// 64 characters of `[A-Za-z0-9_-]` in a start parameter; `gift_` and the code take 48.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct GiftCode(String);

/// The length of a gift code.
pub const GIFT_CODE_LEN: usize = 43;

/// The bot's start parameter of a gift link starts with this.
pub const GIFT_START_PREFIX: &str = "gift_";

impl GiftCode {
    /// A code as typed or carried by a link; `None` for anything that cannot be one.
    pub fn parse(raw: &str) -> Option<GiftCode> {
        let raw = raw.trim();
        let well_formed =
            raw.len() == GIFT_CODE_LEN && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        well_formed.then(|| GiftCode(raw.to_owned()))
    }

    /// The code of a bot start parameter `gift_<code>`.
    pub fn from_start(parameter: &str) -> Option<GiftCode> {
        parameter.strip_prefix(GIFT_START_PREFIX).and_then(GiftCode::parse)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The bot's start parameter that redeems it.
    pub fn start_parameter(&self) -> String {
        format!("{GIFT_START_PREFIX}{}", self.0)
    }
}

/// Never printed whole: a code in a log would let its reader redeem it.
impl fmt::Debug for GiftCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GiftCode({}…)", &self.0[..4])
    }
}

/// Where a gift stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiftState {
    /// Not paid (yet): its invoice is pending, failed or expired.
    Unpaid,
    /// Paid and waiting to be redeemed until `lapses_at`.
    Waiting {
        lapses_at: OffsetDateTime,
    },
    Redeemed {
        at: OffsetDateTime,
    },
    /// Refunded to the buyer before anyone redeemed it.
    Refunded {
        at: OffsetDateTime,
    },
    /// Nobody redeemed it in time.
    Lapsed {
        at: OffsetDateTime,
    },
}

/// Why a gift cannot be redeemed (or refunded), as the customer or the partner is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GiftRefused {
    #[error("no gift has this code")]
    Unknown,
    #[error("the gift is not paid")]
    Unpaid,
    #[error("the gift was redeemed already")]
    Redeemed,
    #[error("the gift was refunded")]
    Refunded,
    #[error("the gift lapsed unredeemed")]
    Lapsed,
}

/// A gift's facts, as kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GiftFacts {
    pub paid_at: Option<OffsetDateTime>,
    pub redeemed_at: Option<OffsetDateTime>,
    pub refunded_at: Option<OffsetDateTime>,
}

impl GiftFacts {
    /// The gift's state at `now`: redeemed and refunded are final; a paid gift nobody redeemed
    /// lapses `GIFT_LAPSES_AFTER` after its payment.
    pub fn state_at(&self, now: OffsetDateTime) -> GiftState {
        match (self.redeemed_at, self.refunded_at, self.paid_at) {
            (Some(at), ..) => GiftState::Redeemed { at },
            (None, Some(at), _) => GiftState::Refunded { at },
            (None, None, None) => GiftState::Unpaid,
            (None, None, Some(paid)) => {
                let lapses_at = paid + GIFT_LAPSES_AFTER;
                match now < lapses_at {
                    true => GiftState::Waiting { lapses_at },
                    false => GiftState::Lapsed { at: lapses_at },
                }
            }
        }
    }

    /// Whether it can be redeemed (or refunded) at `now`: only while it waits.
    pub fn check_waiting(&self, now: OffsetDateTime) -> Result<OffsetDateTime, GiftRefused> {
        match self.state_at(now) {
            GiftState::Waiting { lapses_at } => Ok(lapses_at),
            GiftState::Unpaid => Err(GiftRefused::Unpaid),
            GiftState::Redeemed { .. } => Err(GiftRefused::Redeemed),
            GiftState::Refunded { .. } => Err(GiftRefused::Refunded),
            GiftState::Lapsed { .. } => Err(GiftRefused::Lapsed),
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const PAID: OffsetDateTime = datetime!(2026-01-10 12:00 UTC);

    fn paid() -> GiftFacts {
        GiftFacts { paid_at: Some(PAID), redeemed_at: None, refunded_at: None }
    }

    #[test]
    fn a_code_is_43_url_safe_characters_and_a_start_parameter_carries_it_after_gift_() {
        let code = "A".repeat(42) + "_";
        let parsed = GiftCode::parse(&code).unwrap();
        assert_eq!(GiftCode::from_start(&format!("gift_{code}")), Some(parsed.clone()));
        assert_eq!(parsed.start_parameter().len(), 48, "within Telegram's 64");
        assert_eq!(GiftCode::parse(&format!(" {code}\n")), Some(parsed.clone()), "typed with spaces");
        assert_eq!(GiftCode::parse(&code[1..]), None, "too short");
        assert_eq!(GiftCode::parse(&(code.clone() + "A")), None, "too long");
        assert_eq!(GiftCode::parse(&"A+".repeat(21).chars().chain(['A']).collect::<String>()), None, "a +");
        assert_eq!(GiftCode::from_start(&code), None, "no prefix");
        assert!(!format!("{parsed:?}").contains(&code), "never logged whole");
    }

    #[test]
    fn a_paid_gift_waits_a_year_then_lapses() {
        let lapses_at = PAID + GIFT_LAPSES_AFTER;
        assert_eq!(paid().check_waiting(PAID), Ok(lapses_at));
        assert_eq!(paid().check_waiting(lapses_at - Duration::SECOND), Ok(lapses_at));
        assert_eq!(paid().check_waiting(lapses_at), Err(GiftRefused::Lapsed));
        assert_eq!(paid().state_at(lapses_at), GiftState::Lapsed { at: lapses_at });
    }

    #[test]
    fn a_redeemed_or_refunded_gift_is_refused_and_an_unpaid_one_is_not_yet_a_gift() {
        let at = PAID + Duration::DAY;
        let redeemed = GiftFacts { redeemed_at: Some(at), ..paid() };
        let refunded = GiftFacts { refunded_at: Some(at), ..paid() };
        assert_eq!(redeemed.check_waiting(at), Err(GiftRefused::Redeemed));
        assert_eq!(refunded.check_waiting(at), Err(GiftRefused::Refunded));
        assert_eq!(GiftFacts { paid_at: None, ..paid() }.check_waiting(at), Err(GiftRefused::Unpaid));
        // Redeemed stays redeemed after the lapse time.
        assert_eq!(redeemed.state_at(PAID + GIFT_LAPSES_AFTER * 2), GiftState::Redeemed { at });
    }
}
