//! A traffic limit: how many bytes a subscription may move per period, and when the count starts
//! again (Remnawave's `trafficLimitBytes` and `trafficLimitStrategy`).

use std::fmt;
use std::str::FromStr;

use time::{Duration, OffsetDateTime, Time};

use crate::invoice::UnknownValue;
use crate::subscription::add_months;

/// Bytes in one GB as plans are sold and panels count: 2^30, as Remnawave's own screens convert.
pub const GB: u64 = 1 << 30;

/// When the traffic used starts again from zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrafficReset {
    /// Never within a term: a renewal starts it again.
    NoReset,
    Day,
    Week,
    /// On the first of each calendar month.
    Month,
    /// A month after the last reset (Remnawave's `MONTH_ROLLING`).
    MonthRolling,
}

impl TrafficReset {
    pub const ALL: [TrafficReset; 5] =
        [TrafficReset::NoReset, TrafficReset::Day, TrafficReset::Week, TrafficReset::Month, TrafficReset::MonthRolling];

    pub const fn as_str(self) -> &'static str {
        match self {
            TrafficReset::NoReset => "no_reset",
            TrafficReset::Day => "day",
            TrafficReset::Week => "week",
            TrafficReset::Month => "month",
            TrafficReset::MonthRolling => "month_rolling",
        }
    }
}

impl fmt::Display for TrafficReset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TrafficReset {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TrafficReset::ALL.into_iter().find(|v| v.as_str() == s).ok_or_else(|| UnknownValue(s.to_owned()))
    }
}

/// A limit on the traffic of a subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrafficLimit {
    /// More than zero: no limit is no `TrafficLimit`.
    pub bytes: u64,
    pub reset: TrafficReset,
}

/// The largest limit a plan may carry, in GB: a million GB, beyond any VPN plan and far inside
/// what a panel's 64-bit byte count holds.
pub const TRAFFIC_GB_MAX: u32 = 1_000_000;

impl TrafficLimit {
    /// A plan's limit of `gb` GB; `None` for 0 or more than `TRAFFIC_GB_MAX`.
    pub fn of_gb(gb: u32, reset: TrafficReset) -> Option<TrafficLimit> {
        (1..=TRAFFIC_GB_MAX).contains(&gb).then(|| TrafficLimit { bytes: u64::from(gb) * GB, reset })
    }

    /// A limit in bytes as a panel holds it; `None` for 0 (the panels' "unlimited").
    pub fn of_bytes(bytes: u64, reset: TrafficReset) -> Option<TrafficLimit> {
        (bytes > 0).then_some(TrafficLimit { bytes, reset })
    }
}

impl TrafficReset {
    /// When a count started at `since` starts again by itself; `None` for `no_reset`. Days,
    /// weeks (from Monday) and calendar months are UTC, as the panels count them.
    pub fn next_after(self, since: OffsetDateTime) -> Option<OffsetDateTime> {
        let midnight = since.replace_time(Time::MIDNIGHT);
        match self {
            TrafficReset::NoReset => None,
            TrafficReset::Day => Some(midnight + Duration::days(1)),
            TrafficReset::Week => {
                let from_monday = i64::from(since.weekday().number_days_from_monday());
                Some(midnight + Duration::days(7 - from_monday))
            }
            TrafficReset::Month => Some(add_months(midnight.replace_day(1).unwrap_or(midnight), 1)),
            TrafficReset::MonthRolling => Some(add_months(since, 1)),
        }
    }
}

/// The traffic a subscription used since its count last started from zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrafficCount {
    pub used: u64,
    pub since: OffsetDateTime,
}

impl TrafficCount {
    pub fn new(now: OffsetDateTime) -> TrafficCount {
        TrafficCount { used: 0, since: now }
    }

    /// The count as of `now` under `limit`: from zero again when the limit's period has turned
    /// since it started, or when the term requires a count from `counted_from` on
    /// (`Subscription::traffic_counted_from`) and this one is older.
    pub fn current(
        self,
        limit: TrafficLimit,
        counted_from: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> TrafficCount {
        let period_turned = limit.reset.next_after(self.since).is_some_and(|at| at <= now);
        let term_renewed = counted_from.is_some_and(|from| self.since < from);
        if period_turned || term_renewed { TrafficCount::new(now) } else { self }
    }

    /// The count as of `now` from the one kept (`None`: nothing counted yet, so from zero now),
    /// as `current` says.
    pub fn as_of(
        kept: Option<TrafficCount>,
        limit: TrafficLimit,
        counted_from: Option<OffsetDateTime>,
        now: OffsetDateTime,
    ) -> TrafficCount {
        kept.unwrap_or(TrafficCount::new(now)).current(limit, counted_from, now)
    }

    /// Whether the limit is used up.
    pub fn exhausted(self, limit: TrafficLimit) -> bool {
        self.used >= limit.bytes
    }

    pub fn with_served(self, bytes: u64) -> TrafficCount {
        TrafficCount { used: self.used.saturating_add(bytes), ..self }
    }
}

/// What a customer is told of their traffic, once per period: most of the limit is used, or
/// all of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrafficNotice {
    /// `MOST_USED_PERCENT` of the limit or more is used.
    MostUsed,
    /// The limit is used up: the panel holds the access back until the count starts again.
    UsedUp,
}

impl TrafficNotice {
    /// The share of the limit, in percent, from which the customer is told most is used.
    pub const MOST_USED_PERCENT: u8 = 80;

    /// The notice a count calls for under its limit: the larger one reached, if any (a count
    /// that went past both at once calls only for `UsedUp`).
    pub fn due(count: TrafficCount, limit: TrafficLimit) -> Option<TrafficNotice> {
        if count.exhausted(limit) {
            Some(TrafficNotice::UsedUp)
        } else if u128::from(count.used) * 100 >= u128::from(limit.bytes) * u128::from(Self::MOST_USED_PERCENT) {
            Some(TrafficNotice::MostUsed)
        } else {
            None
        }
    }

    /// The share of the limit the notice marks, in percent: `threshold_percent` of the
    /// `subscription.traffic_used` event.
    pub fn percent(self) -> u8 {
        match self {
            TrafficNotice::MostUsed => Self::MOST_USED_PERCENT,
            TrafficNotice::UsedUp => 100,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn each_reset_turns_at_its_own_boundary() {
        let wed = datetime!(2026-12-02 15:30 UTC);
        assert_eq!(TrafficReset::NoReset.next_after(wed), None);
        assert_eq!(TrafficReset::Day.next_after(wed), Some(datetime!(2026-12-03 00:00 UTC)));
        assert_eq!(TrafficReset::Week.next_after(wed), Some(datetime!(2026-12-07 00:00 UTC)), "the next Monday");
        assert_eq!(TrafficReset::Month.next_after(wed), Some(datetime!(2027-01-01 00:00 UTC)));
        assert_eq!(
            TrafficReset::MonthRolling.next_after(datetime!(2026-01-31 10:00 UTC)),
            Some(datetime!(2026-02-28 10:00 UTC))
        );
    }

    #[test]
    fn a_count_starts_again_when_its_period_turns_or_its_term_is_renewed_and_not_otherwise() {
        let start = datetime!(2026-12-02 15:30 UTC);
        let monthly = TrafficLimit::of_gb(1, TrafficReset::Month).unwrap();
        let used = TrafficCount::new(start).with_served(GB);
        assert!(used.exhausted(monthly));
        assert_eq!(used.current(monthly, None, datetime!(2026-12-31 23:59 UTC)), used, "same month");
        let january = datetime!(2027-01-01 00:00 UTC);
        assert_eq!(used.current(monthly, None, january), TrafficCount::new(january));
        let once = TrafficLimit::of_gb(1, TrafficReset::NoReset).unwrap();
        assert_eq!(used.current(once, Some(start), january), used, "this term's count goes on");
        let renewed = datetime!(2026-12-20 00:00 UTC);
        assert_eq!(used.current(once, Some(renewed), january), TrafficCount::new(january), "a new term counts anew");
    }

    #[test]
    fn a_plans_gb_are_binary_gigabytes_and_zero_or_absurd_amounts_are_no_limit() {
        let fifty = TrafficLimit::of_gb(50, TrafficReset::Month).unwrap();
        assert_eq!(fifty.bytes, 53_687_091_200);
        assert_eq!(TrafficLimit::of_gb(0, TrafficReset::Month), None);
        assert_eq!(TrafficLimit::of_gb(TRAFFIC_GB_MAX + 1, TrafficReset::Month), None);
        assert_eq!(TrafficLimit::of_bytes(0, TrafficReset::Day), None);
    }

    #[test]
    fn resets_read_and_write_as_the_api_names_them() {
        for reset in TrafficReset::ALL {
            assert_eq!(reset.as_str().parse::<TrafficReset>(), Ok(reset));
        }
        assert!("monthly".parse::<TrafficReset>().is_err());
    }

    #[test]
    fn a_customer_is_told_from_80_percent_of_the_limit_and_again_when_it_is_used_up() {
        let since = datetime!(2026-12-02 15:30 UTC);
        let limit = TrafficLimit::of_gb(10, TrafficReset::Month).unwrap();
        let used = |bytes: u64| TrafficNotice::due(TrafficCount { used: bytes, since }, limit);
        assert_eq!(used(0), None);
        assert_eq!(used(8 * GB - 1), None, "just under 80 %");
        assert_eq!(used(8 * GB), Some(TrafficNotice::MostUsed));
        assert_eq!(used(10 * GB - 1), Some(TrafficNotice::MostUsed));
        assert_eq!(used(10 * GB), Some(TrafficNotice::UsedUp));
        assert_eq!(used(u64::MAX), Some(TrafficNotice::UsedUp), "no overflow past the limit");
    }
}
