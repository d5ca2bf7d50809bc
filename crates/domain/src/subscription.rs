//! The subscription state machine (spec: Subscription status) and what a client sees of it.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use time::{Date, Duration, Month, OffsetDateTime};

use crate::devices::DeviceLimit;
use crate::invoice::UnknownValue;
use crate::limits::LINK_ROTATION_PAUSE;
use crate::traffic::{TrafficLimit, TrafficReset};

/// `expires_at` of a lifetime subscription: the spec's field is a non-null timestamp, so a
/// lifetime term ends at the last representable second of year 9999.
pub const LIFETIME_END: OffsetDateTime = time::macros::datetime!(9999-12-31 23:59:59 UTC);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SubscriptionStatus {
    Active,
    Expired,
    Suspended,
}

impl SubscriptionStatus {
    pub const ALL: [SubscriptionStatus; 3] =
        [SubscriptionStatus::Active, SubscriptionStatus::Expired, SubscriptionStatus::Suspended];

    pub const fn as_str(self) -> &'static str {
        match self {
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::Expired => "expired",
            SubscriptionStatus::Suspended => "suspended",
        }
    }
}

impl fmt::Display for SubscriptionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SubscriptionStatus {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SubscriptionStatus::ALL.into_iter().find(|v| v.as_str() == s).ok_or_else(|| UnknownValue(s.to_owned()))
    }
}

/// What a term is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    /// Calendar months added to the end (day clamped to the month's length).
    Months(u32),
    Lifetime,
    Trial(Duration),
}

/// Which `subscription.expiring` thresholds were already sent in the current term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TermReminders {
    pub sent_72: bool,
    pub sent_24: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub status: SubscriptionStatus,
    pub is_trial: bool,
    pub lifetime: bool,
    pub expires_at: OffsetDateTime,
    /// Start of the current term; term events count from here.
    pub term_started_at: OffsetDateTime,
    pub devices: DeviceLimit,
    pub reminders: TermReminders,
    pub link_rotated_at: Option<OffsetDateTime>,
    /// The traffic the term allows, as the plan last bought set it; `None`: no limit.
    pub traffic: Option<TrafficLimit>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SubscriptionError {
    #[error("the operation needs an active subscription")]
    NoActiveSubscription,
    #[error("the subscription link was rotated less than an hour ago")]
    LinkRotateTooSoon { retry_after_secs: u64 },
    #[error("the client already has a lifetime subscription")]
    AlreadyLifetime,
    #[error("the subscription is not active")]
    NotActive,
    #[error("the subscription is not suspended")]
    NotSuspended,
}

/// Adds calendar months, keeping the time of day; the 31st of a short month becomes its last day.
pub fn add_months(at: OffsetDateTime, months: u32) -> OffsetDateTime {
    let total = i64::from(at.year()) * 12 + i64::from(u8::from(at.month()) - 1) + i64::from(months);
    let year = i32::try_from(total.div_euclid(12)).unwrap_or(9999).min(9999);
    let month = Month::try_from(u8::try_from(total.rem_euclid(12) + 1).unwrap_or(12)).unwrap_or(Month::December);
    let day = at.day().min(month.length(year));
    match Date::from_calendar_date(year, month, day) {
        Ok(date) if total / 12 <= 9999 => at.replace_date(date).min(LIFETIME_END),
        _ => LIFETIME_END,
    }
}

impl Subscription {
    /// First activation: by a paid subscription invoice or by a trial.
    pub fn activate(term: Term, devices: DeviceLimit, now: OffsetDateTime) -> Subscription {
        let (expires_at, lifetime, is_trial) = match term {
            Term::Months(m) => (add_months(now, m), false, false),
            Term::Lifetime => (LIFETIME_END, true, false),
            Term::Trial(length) => (now + length, false, true),
        };
        Subscription {
            status: SubscriptionStatus::Active,
            is_trial,
            lifetime,
            expires_at,
            term_started_at: now,
            devices,
            reminders: TermReminders::default(),
            link_rotated_at: None,
            traffic: None,
        }
    }

    /// The status as of `now`: a term that has passed is expired even before the scheduler
    /// records it, so no rule ever acts on a stale `active`.
    pub fn status_at(&self, now: OffsetDateTime) -> SubscriptionStatus {
        if self.status != SubscriptionStatus::Expired && !self.lifetime && self.expires_at <= now {
            SubscriptionStatus::Expired
        } else {
            self.status
        }
    }

    pub fn is_active_at(&self, now: OffsetDateTime) -> bool {
        self.status_at(now) == SubscriptionStatus::Active
    }

    /// Whether a subscription invoice may be issued for this client.
    pub fn check_purchase(&self) -> Result<(), SubscriptionError> {
        if self.lifetime { Err(SubscriptionError::AlreadyLifetime) } else { Ok(()) }
    }

    /// A paid subscription invoice on an existing subscription. The term is added to the current
    /// end, or counted from the payment moment when the term has already ended; the link stays;
    /// reminders count again; a trial becomes a paid subscription. A suspended subscription
    /// stays suspended (the platform's pause is not lifted by a payment). A lifetime
    /// subscription absorbs a late payment unchanged.
    pub fn renew(&mut self, term: Term, paid_at: OffsetDateTime) {
        if self.lifetime {
            return;
        }
        let ended = self.status_at(paid_at) == SubscriptionStatus::Expired;
        let base = if ended { paid_at } else { self.expires_at };
        match term {
            Term::Months(m) => self.expires_at = add_months(base, m),
            Term::Lifetime => {
                self.lifetime = true;
                self.expires_at = LIFETIME_END;
            }
            Term::Trial(length) => self.expires_at = base + length,
        }
        self.is_trial = matches!(term, Term::Trial(_));
        self.term_started_at = paid_at;
        self.reminders = TermReminders::default();
        if self.status != SubscriptionStatus::Suspended {
            self.status = SubscriptionStatus::Active;
        }
    }

    /// Whether this subscription gives the access a `term` paid at `paid_at` bought: a lifetime
    /// one for a lifetime term, else an end no earlier than the term counted from the payment
    /// (a renewal adds it to a later end; days and later payments only move it later).
    pub fn covers_paid_term(&self, term: Term, paid_at: OffsetDateTime) -> bool {
        match term {
            Term::Lifetime => self.lifetime,
            Term::Months(months) => self.lifetime || self.expires_at >= add_months(paid_at, months),
            Term::Trial(length) => self.lifetime || self.expires_at >= paid_at + length,
        }
    }

    /// Days a promo code adds to the term just bought, or a referral to a running one (a
    /// lifetime term has no end to move).
    pub fn add_days(&mut self, days: u32) {
        if !self.lifetime && days > 0 {
            self.expires_at = (self.expires_at + Duration::days(i64::from(days))).min(LIFETIME_END);
        }
    }

    /// Days a refund takes back (a referral's reward): the end moves earlier by as many days
    /// as were added. A lifetime term has no end to move.
    pub fn take_days(&mut self, days: u32) {
        if !self.lifetime && days > 0 {
            self.expires_at -= Duration::days(i64::from(days));
        }
    }

    /// End of term: returns the moment the term ended when this call moved it to `expired`.
    pub fn expire_if_ended(&mut self, now: OffsetDateTime) -> Option<OffsetDateTime> {
        if self.status != SubscriptionStatus::Expired && self.status_at(now) == SubscriptionStatus::Expired {
            self.status = SubscriptionStatus::Expired;
            Some(self.expires_at)
        } else {
            None
        }
    }

    /// The platform pauses access; the term keeps running.
    pub fn suspend(&mut self, now: OffsetDateTime) -> Result<(), SubscriptionError> {
        if self.status_at(now) != SubscriptionStatus::Active {
            return Err(SubscriptionError::NotActive);
        }
        self.status = SubscriptionStatus::Suspended;
        Ok(())
    }

    /// The platform lifts the pause; a term that ended meanwhile is expired.
    pub fn resume(&mut self, now: OffsetDateTime) -> Result<(), SubscriptionError> {
        if self.status != SubscriptionStatus::Suspended {
            return Err(SubscriptionError::NotSuspended);
        }
        self.status = SubscriptionStatus::Active;
        if self.status_at(now) == SubscriptionStatus::Expired {
            self.status = SubscriptionStatus::Expired;
        }
        Ok(())
    }

    /// Rotate link rules 1 and 2: active only, at most once per hour.
    pub fn check_link_rotation(&self, now: OffsetDateTime) -> Result<(), SubscriptionError> {
        if !self.is_active_at(now) {
            return Err(SubscriptionError::NoActiveSubscription);
        }
        if let Some(last) = self.link_rotated_at {
            let next_allowed = last + LINK_ROTATION_PAUSE;
            if next_allowed > now {
                return Err(SubscriptionError::LinkRotateTooSoon { retry_after_secs: ceil_secs(next_allowed - now) });
            }
        }
        Ok(())
    }

    /// Rule 4 of rotate link: the pause starts only once the new link is issued.
    pub fn record_link_rotation(&mut self, now: OffsetDateTime) {
        self.link_rotated_at = Some(now);
    }

    /// `days_left`: started days remaining, so 0 only once the term has ended.
    /// From when the traffic used must be counted, at the latest: a limit that never resets by
    /// itself (`no_reset`) starts again with each term bought, so from the term's start; a
    /// periodic one keeps its own cycle, and no limit counts nothing (`None`).
    pub fn traffic_counted_from(&self) -> Option<OffsetDateTime> {
        match self.traffic {
            Some(TrafficLimit { reset: TrafficReset::NoReset, .. }) => Some(self.term_started_at),
            _ => None,
        }
    }

    pub fn days_left(&self, now: OffsetDateTime) -> i64 {
        let remaining = self.expires_at - now;
        if remaining <= Duration::ZERO {
            0
        } else {
            let day = Duration::DAY.whole_seconds();
            (remaining.whole_seconds() + day - 1).div_euclid(day).max(1)
        }
    }
}

/// Seconds, rounded up, never below 1 (the spec's `Retry-After` minimum).
pub fn ceil_secs(d: Duration) -> u64 {
    let whole = d.whole_seconds();
    let secs = if d.subsec_nanoseconds() > 0 { whole + 1 } else { whole };
    u64::try_from(secs.max(1)).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::SubscriptionStatus::*;
    use super::*;
    use proptest::prelude::*;
    use time::macros::datetime;

    #[test]
    fn a_paid_term_is_covered_by_its_end_or_a_later_one_and_a_lifetime_only_by_a_lifetime() {
        let paid = datetime!(2026-01-31 10:00 UTC);
        let bought = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, paid);
        assert!(bought.covers_paid_term(Term::Months(1), paid));
        let mut renewed = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, paid - Duration::days(10));
        renewed.renew(Term::Months(1), paid);
        assert!(renewed.covers_paid_term(Term::Months(1), paid), "added to the later end");
        let mut cut = bought.clone();
        cut.expires_at = paid + Duration::days(3);
        assert!(!cut.covers_paid_term(Term::Months(1), paid), "an end moved back behind the service's back");
        assert!(!bought.covers_paid_term(Term::Lifetime, paid), "months are not a lifetime");
        let lifetime = Subscription::activate(Term::Lifetime, DeviceLimit::Unlimited, paid);
        assert!(lifetime.covers_paid_term(Term::Lifetime, paid) && lifetime.covers_paid_term(Term::Months(12), paid));
    }

    fn limited() -> DeviceLimit {
        DeviceLimit::Limited { included: 3, purchased: 0 }
    }

    #[test]
    fn days_taken_back_move_the_end_as_far_as_days_added_and_a_lifetime_term_keeps_its_end() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let mut s = Subscription::activate(Term::Months(1), limited(), now);
        s.add_days(10);
        assert_eq!(s.expires_at, datetime!(2026-02-25 10:00 UTC));
        s.take_days(10);
        assert_eq!(s.expires_at, datetime!(2026-02-15 10:00 UTC));
        let mut forever = Subscription::activate(Term::Lifetime, limited(), now);
        let end = forever.expires_at;
        forever.take_days(10);
        assert_eq!(forever.expires_at, end);
    }

    #[test]
    fn first_activation_is_active_for_the_plan_term() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let s = Subscription::activate(Term::Months(1), limited(), now);
        assert_eq!(s.status, Active);
        assert!(!s.is_trial && !s.lifetime);
        assert_eq!(s.expires_at, datetime!(2026-02-15 10:00 UTC));
    }

    #[test]
    fn trial_sets_is_trial() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let s = Subscription::activate(Term::Trial(Duration::hours(72)), limited(), now);
        assert!(s.is_trial);
        assert_eq!(s.expires_at, datetime!(2026-01-18 10:00 UTC));
    }

    #[test]
    fn renewal_of_an_active_subscription_adds_the_term_to_the_current_end() {
        let start = datetime!(2026-01-15 10:00 UTC);
        let mut s = Subscription::activate(Term::Months(1), limited(), start);
        s.reminders = TermReminders { sent_72: true, sent_24: false };
        s.renew(Term::Months(3), datetime!(2026-02-10 00:00 UTC));
        assert_eq!(s.status, Active);
        assert_eq!(s.expires_at, datetime!(2026-05-15 10:00 UTC));
        assert_eq!(s.reminders, TermReminders::default(), "reminders count again from the start");
    }

    #[test]
    fn renewal_of_an_expired_subscription_counts_from_the_payment_moment() {
        let mut s = Subscription::activate(Term::Months(1), limited(), datetime!(2026-01-15 10:00 UTC));
        let paid = datetime!(2026-03-01 08:00 UTC);
        s.expire_if_ended(paid);
        assert_eq!(s.status, Expired);
        s.renew(Term::Months(1), paid);
        assert_eq!(s.status, Active);
        assert_eq!(s.expires_at, datetime!(2026-04-01 08:00 UTC));
    }

    #[test]
    fn renewal_after_the_end_counts_from_payment_even_before_the_scheduler_ran() {
        let mut s = Subscription::activate(Term::Months(1), limited(), datetime!(2026-01-15 10:00 UTC));
        let paid = datetime!(2026-02-20 00:00 UTC);
        assert_eq!(s.status, Active, "not yet swept");
        s.renew(Term::Months(1), paid);
        assert_eq!(s.expires_at, datetime!(2026-03-20 00:00 UTC));
    }

    #[test]
    fn renewal_ends_a_trial() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let mut s = Subscription::activate(Term::Trial(Duration::hours(72)), limited(), now);
        s.renew(Term::Months(1), now + Duration::hours(1));
        assert!(!s.is_trial);
        assert_eq!(s.expires_at, datetime!(2026-02-18 10:00 UTC));
    }

    #[test]
    fn lifetime_plan_never_expires_and_refuses_further_purchases() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let mut s = Subscription::activate(Term::Months(1), limited(), now);
        s.renew(Term::Lifetime, now);
        assert!(s.lifetime);
        assert_eq!(s.expires_at, LIFETIME_END);
        assert_eq!(s.status_at(datetime!(9000-01-01 00:00 UTC)), Active);
        assert_eq!(s.expire_if_ended(datetime!(9999-12-31 23:59:59 UTC)), None);
        assert_eq!(s.check_purchase(), Err(SubscriptionError::AlreadyLifetime));
        let before = s.clone();
        s.renew(Term::Months(1), now);
        assert_eq!(s, before, "a late payment on a lifetime subscription changes nothing");
    }

    #[test]
    fn end_of_term_moves_active_to_expired_once_and_reports_the_end_moment() {
        let mut s = Subscription::activate(Term::Months(1), limited(), datetime!(2026-01-15 10:00 UTC));
        assert_eq!(s.expire_if_ended(datetime!(2026-02-15 09:59 UTC)), None);
        assert_eq!(s.expire_if_ended(datetime!(2026-02-15 10:03 UTC)), Some(datetime!(2026-02-15 10:00 UTC)));
        assert_eq!(s.expire_if_ended(datetime!(2026-02-15 10:08 UTC)), None);
    }

    #[test]
    fn suspended_keeps_the_term_running_and_resumes_to_active_or_expired() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let mut s = Subscription::activate(Term::Months(1), limited(), now);
        s.suspend(now).unwrap();
        assert_eq!(s.status, Suspended);
        assert_eq!(s.suspend(now), Err(SubscriptionError::NotActive));
        s.renew(Term::Months(1), now);
        assert_eq!(s.status, Suspended, "payment does not lift a platform pause");
        s.resume(now).unwrap();
        assert_eq!(s.status, Active);
        s.suspend(now).unwrap();
        s.resume(datetime!(2027-01-01 00:00 UTC)).unwrap();
        assert_eq!(s.status, Expired);
        assert_eq!(s.resume(now), Err(SubscriptionError::NotSuspended));
    }

    #[test]
    fn link_rotation_needs_an_active_subscription_and_an_hour_between_rotations() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let mut s = Subscription::activate(Term::Months(1), limited(), now);
        assert_eq!(s.check_link_rotation(now), Ok(()));
        s.record_link_rotation(now);
        assert_eq!(
            s.check_link_rotation(now + Duration::minutes(59) + Duration::seconds(30)),
            Err(SubscriptionError::LinkRotateTooSoon { retry_after_secs: 30 })
        );
        assert_eq!(
            s.check_link_rotation(now + Duration::milliseconds(3_599_999)),
            Err(SubscriptionError::LinkRotateTooSoon { retry_after_secs: 1 })
        );
        assert_eq!(s.check_link_rotation(now + Duration::hours(1)), Ok(()));
        assert_eq!(
            s.check_link_rotation(datetime!(2026-03-01 00:00 UTC)),
            Err(SubscriptionError::NoActiveSubscription)
        );
        s.suspend(now).unwrap();
        assert_eq!(s.check_link_rotation(now + Duration::hours(2)), Err(SubscriptionError::NoActiveSubscription));
    }

    #[test]
    fn days_left_counts_started_days() {
        let now = datetime!(2026-01-15 10:00 UTC);
        let s = Subscription::activate(Term::Months(1), limited(), now);
        assert_eq!(s.days_left(now), 31);
        assert_eq!(s.days_left(datetime!(2026-02-15 09:00 UTC)), 1);
        assert_eq!(s.days_left(datetime!(2026-02-15 10:00 UTC)), 0);
        assert_eq!(s.days_left(datetime!(2026-03-15 10:00 UTC)), 0);
    }

    #[test]
    fn months_are_calendar_months_clamped_to_the_last_day() {
        assert_eq!(add_months(datetime!(2026-01-31 12:00 UTC), 1), datetime!(2026-02-28 12:00 UTC));
        assert_eq!(add_months(datetime!(2028-01-31 12:00 UTC), 1), datetime!(2028-02-29 12:00 UTC));
        assert_eq!(add_months(datetime!(2026-11-30 00:00 UTC), 3), datetime!(2027-02-28 00:00 UTC));
        assert_eq!(add_months(datetime!(2026-05-10 00:00 UTC), 12), datetime!(2027-05-10 00:00 UTC));
        assert_eq!(add_months(datetime!(9999-11-10 00:00 UTC), 5), LIFETIME_END);
    }

    #[test]
    fn ceil_secs_never_returns_less_than_one() {
        assert_eq!(ceil_secs(Duration::ZERO), 1);
        assert_eq!(ceil_secs(Duration::milliseconds(1)), 1);
        assert_eq!(ceil_secs(Duration::milliseconds(1001)), 2);
        assert_eq!(ceil_secs(Duration::seconds(3600)), 3600);
    }

    #[derive(Debug, Clone)]
    enum Step {
        Renew(u32),
        Advance(i64),
        Suspend,
        Resume,
        Sweep,
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (1u32..13).prop_map(Step::Renew),
            (0i64..90 * 24).prop_map(Step::Advance),
            Just(Step::Suspend),
            Just(Step::Resume),
            Just(Step::Sweep),
        ]
    }

    proptest! {
        /// Invariants over random histories: a renewal never shortens the term, the term never
        /// ends before the payment moment plus the bought months, and an expired status is
        /// only recorded once the term has passed.
        #[test]
        fn random_histories_keep_term_invariants(steps in prop::collection::vec(step(), 0..40)) {
            let mut now = datetime!(2026-01-01 00:00 UTC);
            let mut s = Subscription::activate(Term::Months(1), limited(), now);
            for st in steps {
                match st {
                    Step::Renew(m) => {
                        let before = s.expires_at;
                        s.renew(Term::Months(m), now);
                        prop_assert!(s.expires_at >= before);
                        prop_assert!(s.expires_at >= add_months(now, m));
                        prop_assert!(!s.is_trial);
                        prop_assert_ne!(s.status, Expired);
                    }
                    Step::Advance(h) => now += Duration::hours(h),
                    Step::Suspend => { let _ = s.suspend(now); }
                    Step::Resume => { let _ = s.resume(now); }
                    Step::Sweep => { s.expire_if_ended(now); }
                }
                if s.status == Expired {
                    prop_assert!(s.expires_at <= now);
                }
                prop_assert!(s.days_left(now) >= 0);
            }
        }
    }

    #[test]
    fn a_renewal_starts_a_no_reset_traffic_count_again_and_a_periodic_one_keeps_its_cycle() {
        let start = time::macros::datetime!(2026-01-01 00:00 UTC);
        let mut s = Subscription::activate(Term::Months(1), DeviceLimit::Unlimited, start);
        assert_eq!(s.traffic_counted_from(), None, "no limit, nothing to count");
        s.traffic = crate::traffic::TrafficLimit::of_gb(50, TrafficReset::NoReset);
        assert_eq!(s.traffic_counted_from(), Some(start));
        let renewed_at = time::macros::datetime!(2026-01-25 00:00 UTC);
        s.renew(Term::Months(1), renewed_at);
        assert_eq!(s.traffic_counted_from(), Some(renewed_at), "the new term counts from zero");
        s.traffic = crate::traffic::TrafficLimit::of_gb(50, TrafficReset::Month);
        assert_eq!(s.traffic_counted_from(), None, "the panel resets it monthly itself");
    }
}
