//! Amounts and days as a reader of each language writes them.

use time::{Date, Month, OffsetDateTime};
use vp_domain::traffic::GB;
use vp_domain::{Lang, Money, TimeZone};

/// An amount in roubles: `5 988,00 ₽` in Russian (no-break spaces, so it never wraps),
/// `RUB 5,988.00` in English.
pub fn money(lang: Lang, amount: Money) -> String {
    let sign = if amount.kopecks() < 0 { "-" } else { "" };
    let abs = amount.kopecks().unsigned_abs();
    let (group, decimal) = match lang {
        Lang::Ru => ("\u{a0}", decimal_mark(lang)),
        Lang::En => (",", decimal_mark(lang)),
    };
    let digits = (abs / 100).to_string();
    let mut roubles = String::with_capacity(digits.len() + digits.len() / 3 * group.len());
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            roubles.push_str(group);
        }
        roubles.push(d);
    }
    let kopecks = abs % 100;
    match lang {
        Lang::Ru => format!("{sign}{roubles}{decimal}{kopecks:02}\u{a0}₽"),
        Lang::En => format!("{sign}RUB\u{a0}{roubles}{decimal}{kopecks:02}"),
    }
}

fn decimal_mark(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => ",",
        Lang::En => ".",
    }
}

/// An amount of traffic in GB (2^30 bytes): whole (`50`), else to one decimal (`1,5` in
/// Russian, `1.5` in English), rounded to the nearest tenth.
pub fn gigabytes(lang: Lang, bytes: u64) -> String {
    let gb = u128::from(GB);
    let tenths = (u128::from(bytes) * 10 + gb / 2) / gb;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}{}{}", tenths / 10, decimal_mark(lang), tenths % 10)
    }
}

/// A day: `23.11.2026` in Russian, ISO `2026-11-23` in English (unambiguous across
/// English-speaking countries).
pub fn date(lang: Lang, day: Date) -> String {
    let (y, m, d) = (day.year(), u8::from(day.month()), day.day());
    match lang {
        Lang::Ru => format!("{d:02}.{m:02}.{y}"),
        Lang::En => format!("{y}-{m:02}-{d:02}"),
    }
}

/// A time of day in the account's zone, with the zone named: `19:32 MSK`. The same in both
/// languages (24-hour clock, the zone's own abbreviation).
pub fn clock(zone: &TimeZone, at: OffsetDateTime) -> String {
    let local = zone.local(at);
    format!("{:02}:{:02}\u{a0}{}", local.hour(), local.minute(), zone.label(at))
}

/// A moment a customer reads: `19:32 MSK, 23.11.2026` in Russian, `19:32 MSK, 2026-11-23` in
/// English. Every time a customer is shown goes through here or `clock` (docs/decisions.md,
/// "Times customers read").
pub fn moment(lang: Lang, zone: &TimeZone, at: OffsetDateTime) -> String {
    format!("{}, {}", clock(zone, at), date(lang, zone.day(at)))
}

/// How a day travels into a catalogue function.
pub(crate) fn iso_date(day: Date) -> String {
    date(Lang::En, day)
}

pub(crate) fn parse_iso_date(text: &str) -> Option<Date> {
    let mut parts = text.splitn(3, '-').map(str::parse::<i32>);
    let (y, m, d) = (parts.next()?.ok()?, parts.next()?.ok()?, parts.next()?.ok()?);
    let month = Month::try_from(u8::try_from(m).ok()?).ok()?;
    Date::from_calendar_date(y, month, u8::try_from(d).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_the_way_each_language_writes_them() {
        let day = time::macros::date!(2026 - 03 - 07);
        assert_eq!(date(Lang::Ru, day), "07.03.2026");
        assert_eq!(date(Lang::En, day), "2026-03-07");
        assert_eq!(parse_iso_date(&iso_date(day)), Some(day));
        assert_eq!(parse_iso_date("2026-02-30"), None);
    }

    #[test]
    fn moments_are_read_in_the_accounts_zone_with_the_zone_named() {
        let at = time::macros::datetime!(2026-11-23 22:32 UTC);
        let plain = |s: String| s.replace('\u{a0}', " ");
        let moscow = TimeZone::default();
        assert_eq!(plain(clock(&moscow, at)), "01:32 MSK");
        assert_eq!(plain(moment(Lang::Ru, &moscow, at)), "01:32 MSK, 24.11.2026", "the day is Moscow's day");
        assert_eq!(plain(moment(Lang::En, &moscow, at)), "01:32 MSK, 2026-11-24");
        let samara = TimeZone::parse("Europe/Samara").unwrap();
        assert_eq!(plain(moment(Lang::Ru, &samara, at)), "02:32 UTC+04:00, 24.11.2026");
        let utc = TimeZone::parse("UTC").unwrap();
        assert_eq!(plain(moment(Lang::En, &utc, at)), "22:32 UTC, 2026-11-23");
    }

    #[test]
    fn amounts_are_written_the_way_each_language_writes_them() {
        let m = |s: &str| s.parse::<Money>().unwrap();
        let plain = |s: String| s.replace('\u{a0}', " ");
        assert_eq!(plain(money(Lang::Ru, m("5988.00"))), "5 988,00 ₽");
        assert_eq!(plain(money(Lang::En, m("5988.00"))), "RUB 5,988.00");
        assert_eq!(plain(money(Lang::Ru, m("1234567.05"))), "1 234 567,05 ₽");
        assert_eq!(plain(money(Lang::En, m("1234567.05"))), "RUB 1,234,567.05");
        assert_eq!(plain(money(Lang::Ru, m("238.80"))), "238,80 ₽");
        assert_eq!(plain(money(Lang::En, m("0.05"))), "RUB 0.05");
        assert_eq!(plain(money(Lang::Ru, m("-100.00"))), "-100,00 ₽");
        assert!(!money(Lang::Ru, m("5988.00")).contains(' '), "no breakable space inside an amount");
    }
}
