//! A traffic limit: how many bytes a subscription may move per period, and when the count starts
//! again (Remnawave's `trafficLimitBytes` and `trafficLimitStrategy`).

use std::fmt;
use std::str::FromStr;

use crate::invoice::UnknownValue;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
