//! Exact money in kopecks (integer minor units of RUB). Strings at the edge always carry
//! exactly two decimals; floats never appear.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The only currency of the service (spec: General conventions, Money).
pub const CURRENCY: &str = "RUB";

/// An amount of money in kopecks. Signed so that ledger reversals can be expressed; prices
/// themselves are validated as positive where they are set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(i64);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoneyError {
    #[error("amount must look like 123 or 123.45 (at most two decimals)")]
    Malformed,
    #[error("amount is too large")]
    Overflow,
    #[error("amount must be greater than zero")]
    NotPositive,
}

impl Money {
    pub const ZERO: Money = Money(0);

    pub const fn from_kopecks(kopecks: i64) -> Self {
        Money(kopecks)
    }

    pub const fn kopecks(self) -> i64 {
        self.0
    }

    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Money)
    }

    pub fn checked_sub(self, other: Money) -> Option<Money> {
        self.0.checked_sub(other.0).map(Money)
    }

    pub fn checked_mul(self, factor: i64) -> Option<Money> {
        self.0.checked_mul(factor).map(Money)
    }

    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }

    /// Parses an amount that must be strictly positive (a price).
    pub fn parse_positive(text: &str) -> Result<Money, MoneyError> {
        let money: Money = text.parse()?;
        if money.is_positive() { Ok(money) } else { Err(MoneyError::NotPositive) }
    }
}

impl FromStr for Money {
    type Err = MoneyError;

    /// Accepts `[-]digits[.d[d]]`; no exponent, no separators, no spaces.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = match body.split_once('.') {
            Some((w, f)) => (w, f),
            None => (body, ""),
        };
        let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty()
            || !digits_only(whole)
            || !digits_only(fraction)
            || fraction.len() > 2
            || (body.contains('.') && fraction.is_empty())
        {
            return Err(MoneyError::Malformed);
        }
        let rubles: i64 = whole.parse().map_err(|_| MoneyError::Overflow)?;
        let kopecks: i64 = match fraction.len() {
            0 => 0,
            1 => i64::from(fraction.as_bytes()[0] - b'0') * 10,
            _ => fraction.parse().map_err(|_| MoneyError::Malformed)?,
        };
        let total = rubles.checked_mul(100).and_then(|v| v.checked_add(kopecks)).ok_or(MoneyError::Overflow)?;
        Ok(Money(if negative { -total } else { total }))
    }
}

impl fmt::Display for Money {
    /// Always two decimals: `1234.50`, `0.05`, `-3.00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn amounts_print_with_exactly_two_decimals() {
        assert_eq!(Money::from_kopecks(29900).to_string(), "299.00");
        assert_eq!(Money::from_kopecks(5).to_string(), "0.05");
        assert_eq!(Money::from_kopecks(123_450).to_string(), "1234.50");
        assert_eq!(Money::from_kopecks(-300).to_string(), "-3.00");
        assert_eq!(Money::ZERO.to_string(), "0.00");
    }

    #[test]
    fn amounts_parse_with_up_to_two_decimals() {
        assert_eq!("299".parse::<Money>(), Ok(Money::from_kopecks(29900)));
        assert_eq!("299.5".parse::<Money>(), Ok(Money::from_kopecks(29950)));
        assert_eq!("299.05".parse::<Money>(), Ok(Money::from_kopecks(29905)));
        assert_eq!("0.01".parse::<Money>(), Ok(Money::from_kopecks(1)));
    }

    #[test]
    fn malformed_amounts_are_refused() {
        for bad in ["", ".", "1.", ".5", "1.234", "1e3", "1,50", " 1", "1 ", "+1", "--1", "NaN", "1.5.0"] {
            assert_eq!(bad.parse::<Money>(), Err(MoneyError::Malformed), "{bad:?}");
        }
        assert_eq!("99999999999999999999".parse::<Money>(), Err(MoneyError::Overflow));
    }

    #[test]
    fn prices_must_be_positive() {
        assert_eq!(Money::parse_positive("0.00"), Err(MoneyError::NotPositive));
        assert_eq!(Money::parse_positive("-1"), Err(MoneyError::NotPositive));
        assert_eq!(Money::parse_positive("0.01"), Ok(Money::from_kopecks(1)));
    }

    proptest! {
        #[test]
        fn printing_then_parsing_gives_the_same_amount(k in -10_000_000_000_000i64..10_000_000_000_000) {
            let m = Money::from_kopecks(k);
            prop_assert_eq!(m.to_string().parse::<Money>(), Ok(m));
        }

        #[test]
        fn printed_amounts_always_have_two_decimals(k in any::<i64>().prop_filter("not MIN", |k| *k != i64::MIN)) {
            let text = Money::from_kopecks(k).to_string();
            let (_, fraction) = text.split_once('.').expect("has a point");
            prop_assert_eq!(fraction.len(), 2);
        }
    }
}
