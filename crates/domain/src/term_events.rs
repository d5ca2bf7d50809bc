//! When `subscription.expiring` is due (spec: Events, rules for term events 1 to 5).

use time::{Duration, OffsetDateTime};

use crate::subscription::{Subscription, SubscriptionStatus};

/// `threshold_hours` of `subscription.expiring`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Threshold {
    Hours72,
    Hours24,
}

impl Threshold {
    /// Both, the earlier first.
    pub const ALL: [Threshold; 2] = [Threshold::Hours72, Threshold::Hours24];

    pub const fn hours(self) -> u32 {
        match self {
            Threshold::Hours72 => 72,
            Threshold::Hours24 => 24,
        }
    }

    /// Whole days the threshold stands before the end of the term, as a reminder says it.
    pub const fn days(self) -> u32 {
        self.hours() / 24
    }

    const fn window(self) -> Duration {
        Duration::hours(self.hours() as i64)
    }
}

/// The threshold due at this check, if any. Rules: each threshold once per term (1); under
/// 24 h left at the first check gives only the 24 (2); no 72 for a trial (3); renewal resets
/// the reminders, so counting restarts (4); nothing for blocked clients (5). Only an active
/// term is reminded: a suspended one has its access paused by the platform.
pub fn due_threshold(sub: &Subscription, client_blocked: bool, now: OffsetDateTime) -> Option<Threshold> {
    if client_blocked || sub.lifetime || sub.status_at(now) != SubscriptionStatus::Active {
        return None;
    }
    let left = sub.expires_at - now;
    if left <= Threshold::Hours24.window() {
        return (!sub.reminders.sent_24).then_some(Threshold::Hours24);
    }
    if left <= Threshold::Hours72.window() && !sub.is_trial && !sub.reminders.sent_72 {
        return Some(Threshold::Hours72);
    }
    None
}

/// The moment from which a check can find something due for this term (the next threshold's
/// window opens, or the term ends), or `None` when nothing ever will: a lifetime or recorded
/// expired term. Never later than the moment `due_threshold` or `expire_if_ended` first has
/// something, so a check that reads only the terms whose moment has come misses none. A
/// blocked client's moment is the same: whether it is reminded is decided at the check.
pub fn next_check_at(sub: &Subscription) -> Option<OffsetDateTime> {
    if sub.lifetime {
        return None;
    }
    match sub.status {
        SubscriptionStatus::Expired => None,
        // Access is paused: no reminders, but the term still ends.
        SubscriptionStatus::Suspended => Some(sub.expires_at),
        SubscriptionStatus::Active if !sub.is_trial && !sub.reminders.sent_72 => {
            Some(sub.expires_at - Threshold::Hours72.window())
        }
        SubscriptionStatus::Active if !sub.reminders.sent_24 => Some(sub.expires_at - Threshold::Hours24.window()),
        SubscriptionStatus::Active => Some(sub.expires_at),
    }
}

/// Records a sent threshold. Sending the 24 also closes the 72: it can never come after it.
pub fn mark_sent(sub: &mut Subscription, threshold: Threshold) {
    match threshold {
        Threshold::Hours72 => sub.reminders.sent_72 = true,
        Threshold::Hours24 => {
            sub.reminders.sent_72 = true;
            sub.reminders.sent_24 = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::devices::DeviceLimit;
    use crate::subscription::Term;
    use proptest::prelude::*;
    use time::macros::datetime;

    const START: OffsetDateTime = datetime!(2026-01-01 00:00 UTC);
    const LIMIT: DeviceLimit = DeviceLimit::Limited { included: 3, purchased: 0 };

    /// The 72-hour threshold sent at `at_72`, then the 24-hour one at `at_24`.
    fn both(at_72: OffsetDateTime, at_24: OffsetDateTime) -> Vec<(Threshold, OffsetDateTime)> {
        vec![(Threshold::Hours72, at_72), (Threshold::Hours24, at_24)]
    }

    fn monthly() -> Subscription {
        Subscription::activate(Term::Months(1), LIMIT, START) // ends 2026-02-01 00:00
    }

    /// Runs the 5-minute checker from `from` to `to` and returns what was sent, with times.
    fn run_checks(
        sub: &mut Subscription,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Vec<(Threshold, OffsetDateTime)> {
        let mut sent = vec![];
        let mut now = from;
        while now <= to {
            if let Some(t) = due_threshold(sub, false, now) {
                mark_sent(sub, t);
                sent.push((t, now));
            }
            now += Duration::minutes(5);
        }
        sent
    }

    #[test]
    fn the_thresholds_are_72_and_24_hours_that_is_3_days_and_1_day() {
        assert_eq!(Threshold::ALL.map(Threshold::hours), [72, 24]);
        assert_eq!(Threshold::ALL.map(Threshold::days), [3, 1]);
    }

    #[test]
    fn each_threshold_is_sent_once_per_term_at_72_then_24_hours() {
        let mut s = monthly();
        let sent = run_checks(&mut s, START, datetime!(2026-02-02 00:00 UTC));
        assert_eq!(sent, both(datetime!(2026-01-29 00:00 UTC), datetime!(2026-01-31 00:00 UTC)));
    }

    #[test]
    fn under_24_hours_at_the_first_check_gives_only_the_24() {
        let mut s = monthly();
        let sent = run_checks(&mut s, datetime!(2026-01-31 06:00 UTC), datetime!(2026-02-02 00:00 UTC));
        assert_eq!(sent, vec![(Threshold::Hours24, datetime!(2026-01-31 06:00 UTC))]);
    }

    #[test]
    fn a_trial_has_no_72_threshold() {
        let mut s = Subscription::activate(Term::Trial(Duration::hours(72)), LIMIT, START);
        let sent = run_checks(&mut s, START, datetime!(2026-01-05 00:00 UTC));
        assert_eq!(sent, vec![(Threshold::Hours24, datetime!(2026-01-03 00:00 UTC))]);
    }

    #[test]
    fn after_renewal_the_counting_starts_again() {
        let mut s = monthly();
        run_checks(&mut s, START, datetime!(2026-01-31 12:00 UTC));
        assert_eq!(s.reminders, crate::subscription::TermReminders { sent_72: true, sent_24: true });
        s.renew(Term::Months(1), datetime!(2026-01-31 12:00 UTC));
        let sent = run_checks(&mut s, datetime!(2026-01-31 12:05 UTC), datetime!(2026-03-02 00:00 UTC));
        assert_eq!(sent, both(datetime!(2026-02-26 00:00 UTC), datetime!(2026-02-28 00:00 UTC)));
    }

    #[test]
    fn nothing_for_blocked_clients_expired_suspended_or_lifetime_terms() {
        let s = monthly();
        let near_end = datetime!(2026-01-31 12:00 UTC);
        assert_eq!(due_threshold(&s, true, near_end), None);
        assert_eq!(due_threshold(&s, false, near_end), Some(Threshold::Hours24));
        assert_eq!(due_threshold(&s, false, datetime!(2026-02-01 00:00 UTC)), None, "ended");
        let mut suspended = s.clone();
        suspended.suspend(START).unwrap();
        assert_eq!(due_threshold(&suspended, false, near_end), None);
        let lifetime = Subscription::activate(Term::Lifetime, LIMIT, START);
        assert_eq!(due_threshold(&lifetime, false, datetime!(9999-12-31 00:00 UTC)), None);
    }

    proptest! {
        /// With checks at any irregular spacing, each threshold goes out at most once per term,
        /// the 72 never after the 24, and each only inside its window.
        #[test]
        fn thresholds_are_sent_at_most_once_and_in_order(gaps in prop::collection::vec(1i64..600, 1..400), trial in any::<bool>()) {
            let term = if trial { Term::Trial(Duration::hours(72)) } else { Term::Months(1) };
            let mut s = Subscription::activate(term, LIMIT, START);
            let mut now = START;
            let mut sent = vec![];
            for g in gaps {
                now += Duration::minutes(g);
                if let Some(t) = due_threshold(&s, false, now) {
                    let left = s.expires_at - now;
                    prop_assert!(left > Duration::ZERO && left <= Duration::hours(i64::from(t.hours())));
                    mark_sent(&mut s, t);
                    sent.push(t);
                }
            }
            prop_assert!(sent.len() <= 2);
            prop_assert!(sent.iter().filter(|t| **t == Threshold::Hours72).count() <= 1);
            prop_assert!(sent.iter().filter(|t| **t == Threshold::Hours24).count() <= 1);
            if sent.len() == 2 { prop_assert_eq!(&sent, &vec![Threshold::Hours72, Threshold::Hours24]); }
            if trial { prop_assert!(!sent.contains(&Threshold::Hours72)); }
        }

        /// Whatever happened to a term, nothing is due for it before its next check moment.
        #[test]
        fn nothing_is_due_before_the_next_check_moment(
            steps in prop::collection::vec((0u8..6, 1i64..2_000), 0..30),
            trial in any::<bool>(),
        ) {
            let term = if trial { Term::Trial(Duration::hours(72)) } else { Term::Months(1) };
            let mut s = Subscription::activate(term, LIMIT, START);
            let mut now = START;
            for (step, minutes) in steps {
                now += Duration::minutes(minutes);
                match step {
                    0 => s.renew(Term::Months(1), now),
                    1 => { let _ = s.suspend(now); }
                    2 => { let _ = s.resume(now); }
                    3 => { s.expire_if_ended(now); }
                    _ => if let Some(t) = due_threshold(&s, false, now) { mark_sent(&mut s, t) },
                }
                let something_due = due_threshold(&s, false, now).is_some() || s.clone().expire_if_ended(now).is_some();
                if something_due {
                    prop_assert!(next_check_at(&s).is_some_and(|at| at <= now), "{s:?} at {now}");
                }
            }
        }
    }

    #[test]
    fn the_next_check_moment_is_the_next_window_or_the_end() {
        let mut s = monthly(); // ends 2026-02-01 00:00
        assert_eq!(next_check_at(&s), Some(datetime!(2026-01-29 00:00 UTC)), "the 72-hour window");
        mark_sent(&mut s, Threshold::Hours72);
        assert_eq!(next_check_at(&s), Some(datetime!(2026-01-31 00:00 UTC)), "the 24-hour window");
        mark_sent(&mut s, Threshold::Hours24);
        assert_eq!(next_check_at(&s), Some(datetime!(2026-02-01 00:00 UTC)), "the end of term");
        let trial = Subscription::activate(Term::Trial(Duration::hours(72)), LIMIT, START);
        assert_eq!(next_check_at(&trial), Some(START + Duration::hours(48)), "a trial has no 72");
        s.expire_if_ended(datetime!(2026-02-01 00:00 UTC));
        assert_eq!(next_check_at(&s), None, "an expired term is done");
        let mut suspended = monthly();
        suspended.suspend(START).unwrap();
        assert_eq!(next_check_at(&suspended), Some(suspended.expires_at), "a paused term only ends");
        assert_eq!(next_check_at(&Subscription::activate(Term::Lifetime, LIMIT, START)), None);
    }
}
