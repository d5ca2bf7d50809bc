//! The texts people read (pages, the cabinet, messenger messages), one Fluent catalogue per
//! language under `locales/`. Callers pass a key and typed arguments, never the text of both
//! languages: plurals follow CLDR's rules of the catalogue's language, amounts and dates are
//! written by `MONEY` and `DATE`, functions of the catalogues.
//!
//! Keys are prefixed by where they are shown (`page-`, `cabinet-`, `notice-`, `bot-`), and a
//! test holds both catalogues to the same keys and every key to a user in the sources.

mod catalogue;
mod format;
mod notices;

use std::sync::OnceLock;

use time::{Date, OffsetDateTime};
use vp_domain::{Money, TimeZone};

pub use format::{clock, date, gigabytes, moment, money};
pub use notices::notice_text;
pub use vp_domain::Lang;

use catalogue::Catalogue;

/// A value a message is given. Amounts and days keep their exact types until the catalogue
/// formats them in its language.
#[derive(Debug, Clone, Copy)]
pub enum Arg<'a> {
    Text(&'a str),
    /// A count: selects the plural form (`one`, `few`, `many`, `other`) and is shown as is.
    Count(i64),
    Money(Money),
    Date(Date),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Arg<'a> {
        Arg::Text(text)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Arg<'a> {
        Arg::Text(text)
    }
}

impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Count(n)
    }
}

/// Counts held as `u32` or `usize` (limits, list lengths); a count beyond `i64` cannot occur.
impl From<u32> for Arg<'_> {
    fn from(n: u32) -> Self {
        Arg::Count(i64::from(n))
    }
}

impl From<u64> for Arg<'_> {
    fn from(n: u64) -> Self {
        Arg::Count(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<usize> for Arg<'_> {
    fn from(n: usize) -> Self {
        Arg::Count(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<Money> for Arg<'_> {
    fn from(m: Money) -> Self {
        Arg::Money(m)
    }
}

impl From<Date> for Arg<'_> {
    fn from(d: Date) -> Self {
        Arg::Date(d)
    }
}

fn catalogue(lang: Lang) -> &'static Catalogue {
    static CATALOGUES: OnceLock<[Catalogue; 2]> = OnceLock::new();
    let all = CATALOGUES.get_or_init(|| Lang::ALL.map(Catalogue::load));
    &all[Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0)]
}

/// The message `key` in `lang`.
pub fn text(lang: Lang, key: &str) -> String {
    catalogue(lang).format(key, &[])
}

/// The message `key` in `lang` with its arguments.
pub fn text_with(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    catalogue(lang).format(key, args)
}

/// One language's texts, for code that writes many of them (a page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Texts(pub Lang);

impl Texts {
    pub fn get(self, key: &str) -> String {
        text(self.0, key)
    }

    pub fn with(self, key: &str, args: &[(&str, Arg<'_>)]) -> String {
        text_with(self.0, key, args)
    }

    pub fn money(self, amount: Money) -> String {
        money(self.0, amount)
    }

    pub fn date(self, day: Date) -> String {
        date(self.0, day)
    }

    pub fn moment(self, zone: &TimeZone, at: OffsetDateTime) -> String {
        moment(self.0, zone, at)
    }
}

/// The catalogues' sources, for the test that checks them against the code.
#[doc(hidden)]
pub fn sources() -> [(Lang, &'static str); 2] {
    Lang::ALL.map(|l| (l, catalogue::source(l)))
}
