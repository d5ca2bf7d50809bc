//! The time zone an account's customers read times in (docs/decisions.md, "Times customers
//! read"): an IANA name such as `Europe/Moscow`, with the zone's own offsets and daylight rules.

use std::fmt;

use time::{OffsetDateTime, UtcOffset};

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimeZoneError {
    #[error("must be an IANA time zone name such as Europe/Moscow")]
    NotAName,
    #[error("{0} is not a time zone of the IANA database")]
    Unknown(String),
}

/// A day as people write it here: `YYYY-MM-DD`; `None` for anything else.
pub fn parse_day(text: &str) -> Option<time::Date> {
    time::Date::parse(text.trim(), time::macros::format_description!("[year]-[month]-[day]")).ok()
}

/// An account's time zone; `Europe/Moscow` unless the operator set another.
#[derive(Clone)]
pub struct TimeZone {
    name: String,
    zone: jiff::tz::TimeZone,
}

impl TimeZone {
    /// The zone of accounts that did not choose one: most customers of the partners are in Russia.
    pub const DEFAULT: &'static str = "Europe/Moscow";

    /// A zone by its IANA name (`Europe/Moscow`, `Asia/Yekaterinburg`, `UTC`), as the tz
    /// database spells it; anything else is refused with the reason.
    pub fn parse(name: &str) -> Result<TimeZone, TimeZoneError> {
        let name = name.trim();
        // Only names of the database itself: a POSIX rule such as `EST5EDT,M3.2.0` would parse
        // as a zone but is no place a customer knows.
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "/_-+".contains(c)) {
            return Err(TimeZoneError::NotAName);
        }
        let zone = jiff::tz::db().get(name).map_err(|_| TimeZoneError::Unknown(name.to_owned()))?;
        let name = zone.iana_name().unwrap_or(name).to_owned();
        Ok(TimeZone { name, zone })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// `at` with the offset the zone has at that moment.
    pub fn local(&self, at: OffsetDateTime) -> OffsetDateTime {
        let offset = self.offset_at(at);
        at.to_offset(offset)
    }

    /// The day `at` falls on in the zone.
    pub fn day(&self, at: OffsetDateTime) -> time::Date {
        self.local(at).date()
    }

    /// How the zone is named next to a time: its abbreviation where it has a letter one (`MSK`,
    /// `CET`), else its offset (`UTC+04:00`), which the database gives as digits only.
    pub fn label(&self, at: OffsetDateTime) -> String {
        let info = self.zone.to_offset_info(timestamp(at));
        let abbreviation = info.abbreviation();
        if !abbreviation.is_empty() && abbreviation.chars().all(|c| c.is_ascii_alphabetic()) {
            return abbreviation.to_owned();
        }
        let offset = self.offset_at(at);
        let (h, m, _) = offset.as_hms();
        let sign = if offset.is_negative() { '-' } else { '+' };
        format!("UTC{sign}{:02}:{:02}", h.unsigned_abs(), m.unsigned_abs())
    }

    /// The moment `date` ends in the zone: the first moment of the next day there.
    pub fn end_of_day(&self, date: time::Date) -> OffsetDateTime {
        let next = date.next_day().unwrap_or(date);
        let fallback = next.midnight().assume_utc();
        let (Ok(year), Ok(month), Ok(day)) =
            (i16::try_from(next.year()), i8::try_from(u8::from(next.month())), i8::try_from(next.day()))
        else {
            return fallback;
        };
        jiff::civil::Date::new(year, month, day)
            .and_then(|d| self.zone.to_timestamp(d.at(0, 0, 0, 0)))
            .ok()
            .and_then(|start| OffsetDateTime::from_unix_timestamp(start.as_second()).ok())
            .unwrap_or(fallback)
    }

    fn offset_at(&self, at: OffsetDateTime) -> UtcOffset {
        let seconds = self.zone.to_offset(timestamp(at)).seconds();
        // jiff's offsets are within ±25:59:59 and time's within ±25:59:59 too.
        UtcOffset::from_whole_seconds(seconds).unwrap_or(UtcOffset::UTC)
    }
}

fn timestamp(at: OffsetDateTime) -> jiff::Timestamp {
    // `OffsetDateTime` spans years -9999..=9999, within jiff's range; the fallback is never taken.
    jiff::Timestamp::from_second(at.unix_timestamp()).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

impl Default for TimeZone {
    fn default() -> TimeZone {
        TimeZone::parse(TimeZone::DEFAULT)
            .unwrap_or_else(|_| TimeZone { name: "UTC".into(), zone: jiff::tz::TimeZone::UTC })
    }
}

impl PartialEq for TimeZone {
    fn eq(&self, other: &TimeZone) -> bool {
        self.name == other.name
    }
}

impl Eq for TimeZone {}

impl fmt::Debug for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TimeZone").field(&self.name).finish()
    }
}

impl fmt::Display for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn accounts_read_moscow_time_unless_they_chose_another_zone() {
        let zone = TimeZone::default();
        assert_eq!(zone.name(), "Europe/Moscow");
        let local = zone.local(datetime!(2026-11-23 16:32 UTC));
        assert_eq!((local.hour(), local.minute()), (19, 32));
        assert_eq!(zone.label(datetime!(2026-11-23 16:32 UTC)), "MSK");
    }

    #[test]
    fn a_day_is_written_year_month_day() {
        assert_eq!(parse_day(" 2026-12-31 "), Some(time::macros::date!(2026 - 12 - 31)));
        assert_eq!(parse_day("31.12.2026"), None);
        assert_eq!(parse_day("2026-02-30"), None);
    }

    #[test]
    fn a_day_ends_at_the_next_midnight_of_the_zone() {
        let moscow = TimeZone::default();
        assert_eq!(moscow.end_of_day(time::macros::date!(2026 - 12 - 31)), datetime!(2026-12-31 21:00 UTC));
        let utc = TimeZone::parse("UTC").unwrap();
        assert_eq!(utc.end_of_day(time::macros::date!(2026 - 12 - 31)), datetime!(2027-01-01 00:00 UTC));
    }

    #[test]
    fn a_moment_late_in_the_utc_day_is_the_next_day_in_moscow() {
        let local = TimeZone::default().local(datetime!(2026-11-23 22:30 UTC));
        assert_eq!(local.date(), time::macros::date!(2026 - 11 - 24));
    }

    #[test]
    fn daylight_saving_moves_the_offset_where_the_zone_has_it() {
        let berlin = TimeZone::parse("Europe/Berlin").unwrap();
        assert_eq!(berlin.local(datetime!(2026-01-15 12:00 UTC)).hour(), 13);
        assert_eq!(berlin.local(datetime!(2026-07-15 12:00 UTC)).hour(), 14);
        assert_eq!(berlin.label(datetime!(2026-07-15 12:00 UTC)), "CEST");
    }

    #[test]
    fn a_zone_without_a_letter_abbreviation_is_named_by_its_offset() {
        let samara = TimeZone::parse("Europe/Samara").unwrap();
        assert_eq!(samara.label(datetime!(2026-11-23 12:00 UTC)), "UTC+04:00");
        let noronha = TimeZone::parse("America/Noronha").unwrap();
        assert_eq!(noronha.label(datetime!(2026-11-23 12:00 UTC)), "UTC-02:00");
    }

    #[test]
    fn only_names_of_the_iana_database_are_zones() {
        assert_eq!(TimeZone::parse("Asia/Yekaterinburg").unwrap().name(), "Asia/Yekaterinburg");
        assert_eq!(TimeZone::parse(" UTC ").unwrap().name(), "UTC");
        assert_eq!(TimeZone::parse("Europe/Atlantis"), Err(TimeZoneError::Unknown("Europe/Atlantis".into())));
        for bad in ["", "Moscow", "Europe/Atlantis", "EST5EDT,M3.2.0,M11.1.0", "../etc/passwd", "+03:00"] {
            assert!(TimeZone::parse(bad).is_err(), "{bad}");
        }
    }
}
