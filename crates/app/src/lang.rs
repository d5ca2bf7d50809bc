//! The language of names and messages (spec: General conventions, Language).

use vp_domain::Money;

use crate::catalogue::Localized;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    /// From an `Accept-Language` header: `ru` (or `ru-RU`, or `ru` listed first) gives Russian;
    /// anything else, or no header, English.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let first = header.and_then(|h| h.split(',').next()).map(|t| t.split(';').next().unwrap_or("").trim());
        match first {
            Some(tag)
                if tag.eq_ignore_ascii_case("ru") || tag.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("ru-")) =>
            {
                Lang::Ru
            }
            _ => Lang::En,
        }
    }

    /// The language of an `en` or `ru` code, as URLs, cookies and stored preferences carry it.
    pub fn from_code(code: &str) -> Option<Lang> {
        [Lang::En, Lang::Ru].into_iter().find(|l| l.code() == code)
    }

    pub fn pick(self, text: &Localized) -> &str {
        match self {
            Lang::En => &text.en,
            Lang::Ru => &text.ru,
        }
    }

    pub fn pick_str<'a>(self, en: &'a str, ru: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ru => ru,
        }
    }

    /// An amount in roubles as a reader of the language writes it: `5 988,00 ₽` in Russian
    /// (no-break spaces, so it never wraps), `RUB 5,988.00` in English.
    pub fn amount(self, money: Money) -> String {
        let sign = if money.kopecks() < 0 { "-" } else { "" };
        let abs = money.kopecks().unsigned_abs();
        let (group, decimal) = match self {
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
        match self {
            Lang::Ru => format!("{sign}{roubles}{decimal}{kopecks:02}\u{a0}₽"),
            Lang::En => format!("{sign}RUB\u{a0}{roubles}{decimal}{kopecks:02}"),
        }
    }

    /// A day as a reader of the language writes it: `23.11.2026` in Russian, ISO `2026-11-23`
    /// in English (unambiguous across English-speaking countries).
    pub fn date(self, date: time::Date) -> String {
        let (y, m, d) = (date.year(), u8::from(date.month()), date.day());
        match self {
            Lang::Ru => format!("{d:02}.{m:02}.{y}"),
            Lang::En => format!("{y}-{m:02}-{d:02}"),
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_the_way_each_language_writes_them() {
        let day = time::macros::date!(2026 - 03 - 07);
        assert_eq!(Lang::Ru.date(day), "07.03.2026");
        assert_eq!(Lang::En.date(day), "2026-03-07");
    }

    #[test]
    fn amounts_are_written_the_way_each_language_writes_them() {
        let m = |s: &str| s.parse::<Money>().unwrap();
        let plain = |s: String| s.replace('\u{a0}', " ");
        assert_eq!(plain(Lang::Ru.amount(m("5988.00"))), "5 988,00 ₽");
        assert_eq!(plain(Lang::En.amount(m("5988.00"))), "RUB 5,988.00");
        assert_eq!(plain(Lang::Ru.amount(m("1234567.05"))), "1 234 567,05 ₽");
        assert_eq!(plain(Lang::En.amount(m("1234567.05"))), "RUB 1,234,567.05");
        assert_eq!(plain(Lang::Ru.amount(m("238.80"))), "238,80 ₽");
        assert_eq!(plain(Lang::En.amount(m("0.05"))), "RUB 0.05");
        assert_eq!(plain(Lang::Ru.amount(m("-100.00"))), "-100,00 ₽");
        assert!(!Lang::Ru.amount(m("5988.00")).contains(' '), "no breakable space inside an amount");
    }

    #[test]
    fn russian_only_when_asked_for_first_anything_else_is_english() {
        assert_eq!(Lang::from_accept_language(Some("ru")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("RU-ru")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("ru;q=0.9, en")), Lang::Ru);
        assert_eq!(Lang::from_accept_language(Some("en")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("de")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("rus")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("en, ru")), Lang::En);
        assert_eq!(Lang::from_accept_language(None), Lang::En);
    }
}
