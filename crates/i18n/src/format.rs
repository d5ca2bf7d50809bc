//! Amounts and days as a reader of each language writes them.

use time::{Date, Month};
use vp_domain::{Lang, Money};

/// An amount in roubles: `5 988,00 ₽` in Russian (no-break spaces, so it never wraps),
/// `RUB 5,988.00` in English.
pub fn money(lang: Lang, amount: Money) -> String {
    let sign = if amount.kopecks() < 0 { "-" } else { "" };
    let abs = amount.kopecks().unsigned_abs();
    let (group, decimal) = match lang {
        Lang::Ru => ("\u{a0}", ","),
        Lang::En => (",", "."),
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

/// A day: `23.11.2026` in Russian, ISO `2026-11-23` in English (unambiguous across
/// English-speaking countries).
pub fn date(lang: Lang, day: Date) -> String {
    let (y, m, d) = (day.year(), u8::from(day.month()), day.day());
    match lang {
        Lang::Ru => format!("{d:02}.{m:02}.{y}"),
        Lang::En => format!("{y}-{m:02}-{d:02}"),
    }
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
