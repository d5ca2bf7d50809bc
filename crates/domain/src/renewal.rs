//! Automatic renewal with the customer's consent: which terms renew by themselves, when the
//! saved payment method is charged and how often a declined charge is tried again
//! (docs/decisions.md, "Automatic renewal").

use std::fmt;
use std::str::FromStr;

use time::{Duration, OffsetDateTime};

use crate::invoice::UnknownValue;
use crate::subscription::{Subscription, SubscriptionStatus, Term, add_months};

/// The renewal charge is made this long before the term ends, in place of the 24 h reminder.
pub const CHARGE_LEAD: Duration = Duration::hours(24);
/// A declined charge is tried again at most this many times before the term ends.
pub const RETRIES: u32 = 2;
/// The wait after a declined charge before the next try.
pub const RETRY_AFTER: Duration = Duration::hours(8);

/// Whether a term renews by itself when its customer consented: a paid periodic term. A trial
/// has no price to repeat and a lifetime term never ends.
pub fn renewable(sub: &Subscription) -> bool {
    !sub.lifetime && !sub.is_trial
}

/// When the renewal charge of a term ending at `term_end` is due.
pub fn charge_at(term_end: OffsetDateTime) -> OffsetDateTime {
    term_end - CHARGE_LEAD
}

/// Whether the renewal charge of this term is due at `now`: a renewable active term within
/// `CHARGE_LEAD` of its end. A suspended term (access paused by the platform) is not charged.
pub fn charge_due(sub: &Subscription, now: OffsetDateTime) -> bool {
    renewable(sub)
        && sub.status_at(now) == SubscriptionStatus::Active
        && now >= charge_at(sub.expires_at)
        && now < sub.expires_at
}

/// After try `attempt` (1 is the first charge) was declined at `now`: when to try again, or
/// `None` when the retries are spent or the next one would come after the end, so the term
/// ends as usual.
pub fn retry_at(attempt: u32, term_end: OffsetDateTime, now: OffsetDateTime) -> Option<OffsetDateTime> {
    if attempt > RETRIES {
        return None;
    }
    let at = now + RETRY_AFTER;
    (at < term_end).then_some(at)
}

/// When the next renewal charge would come if a `months`-month plan were paid at `paid_at`,
/// for the consent sentence shown before paying.
pub fn next_charge_after(current: Option<&Subscription>, months: u32, paid_at: OffsetDateTime) -> OffsetDateTime {
    let end = match current {
        Some(sub) => {
            let mut renewed = sub.clone();
            renewed.renew(Term::Months(months), paid_at);
            renewed.expires_at
        }
        None => add_months(paid_at, months),
    };
    charge_at(end)
}

/// Who turned a customer's automatic renewal off, kept with the consent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnedOffBy {
    /// The customer, in the bot or on the connect page.
    Customer,
    /// A member of the partner's support, in the cabinet, by their sign-in email.
    Support { email: String },
    /// The platform operator (`vp-api client auto-renew`).
    Operator,
    /// The customer cancelled the Stars subscription in Telegram.
    StarsSubscription,
}

impl TurnedOffBy {
    const SUPPORT: &'static str = "support:";
}

/// The stored code: `customer`, `support:<email>`, `operator`, `stars_subscription`.
impl fmt::Display for TurnedOffBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnedOffBy::Customer => f.write_str("customer"),
            TurnedOffBy::Support { email } => write!(f, "{}{email}", TurnedOffBy::SUPPORT),
            TurnedOffBy::Operator => f.write_str("operator"),
            TurnedOffBy::StarsSubscription => f.write_str("stars_subscription"),
        }
    }
}

impl FromStr for TurnedOffBy {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "customer" => Ok(TurnedOffBy::Customer),
            "operator" => Ok(TurnedOffBy::Operator),
            "stars_subscription" => Ok(TurnedOffBy::StarsSubscription),
            _ => match s.strip_prefix(TurnedOffBy::SUPPORT) {
                Some(email) if !email.is_empty() => Ok(TurnedOffBy::Support { email: email.to_owned() }),
                _ => Err(UnknownValue(s.to_owned())),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_turned_renewal_off_is_stored_as_its_code_and_read_back_and_an_unknown_code_is_refused() {
        let all = [
            TurnedOffBy::Customer,
            TurnedOffBy::Support { email: "support@example.com".into() },
            TurnedOffBy::Operator,
            TurnedOffBy::StarsSubscription,
        ];
        for by in all {
            assert_eq!(by.to_string().parse::<TurnedOffBy>(), Ok(by.clone()), "{by}");
        }
        assert_eq!(TurnedOffBy::Support { email: "a@b.c".into() }.to_string(), "support:a@b.c");
        for unknown in ["", "support:", "partner", "Customer"] {
            assert!(unknown.parse::<TurnedOffBy>().is_err(), "{unknown:?}");
        }
    }
    use crate::devices::DeviceLimit;
    use time::macros::datetime;

    const START: OffsetDateTime = datetime!(2026-01-01 00:00 UTC);
    const LIMIT: DeviceLimit = DeviceLimit::Limited { included: 3, purchased: 0 };
    const END: OffsetDateTime = datetime!(2026-02-01 00:00 UTC);

    fn monthly() -> Subscription {
        Subscription::activate(Term::Months(1), LIMIT, START)
    }

    #[test]
    fn the_charge_is_due_24_hours_before_the_end_and_not_after_it() {
        let s = monthly();
        assert_eq!(charge_at(s.expires_at), datetime!(2026-01-31 00:00 UTC));
        assert!(!charge_due(&s, datetime!(2026-01-30 23:59 UTC)));
        assert!(charge_due(&s, datetime!(2026-01-31 00:00 UTC)));
        assert!(charge_due(&s, datetime!(2026-01-31 23:59 UTC)));
        assert!(!charge_due(&s, END), "an ended term is not charged");
    }

    #[test]
    fn trials_lifetime_and_suspended_terms_are_never_charged() {
        let trial = Subscription::activate(Term::Trial(Duration::hours(72)), LIMIT, START);
        assert!(!charge_due(&trial, START + Duration::hours(60)));
        let lifetime = Subscription::activate(Term::Lifetime, LIMIT, START);
        assert!(!renewable(&lifetime));
        let mut suspended = monthly();
        suspended.suspend(START).unwrap();
        assert!(!charge_due(&suspended, datetime!(2026-01-31 12:00 UTC)));
    }

    #[test]
    fn a_declined_charge_is_retried_at_most_twice_and_never_after_the_end() {
        let first = charge_at(END);
        let second = retry_at(1, END, first).unwrap();
        assert_eq!(second, first + RETRY_AFTER);
        let third = retry_at(2, END, second).unwrap();
        assert_eq!(retry_at(3, END, third), None, "two retries, then the term ends as usual");
        assert_eq!(retry_at(1, END, END - Duration::hours(2)), None, "no try after the end");
    }

    #[test]
    fn the_next_charge_follows_the_term_the_payment_buys() {
        assert_eq!(next_charge_after(None, 1, START), datetime!(2026-01-31 00:00 UTC));
        let s = monthly();
        // Paid early: the new month is added to the current end.
        assert_eq!(next_charge_after(Some(&s), 3, datetime!(2026-01-20 00:00 UTC)), datetime!(2026-04-30 00:00 UTC));
    }
}
