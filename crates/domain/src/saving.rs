//! What a longer plan saves against paying month by month, as the shops show it ("−8 %").

use crate::Money;

/// The whole percent saved by paying `price` for `months` instead of `monthly` each month,
/// rounded down so a shop never promises more than it gives; `None` for a term of one month,
/// without a monthly price to compare, or when under 1 % is saved (or the plan costs more).
pub fn saving_percent(monthly: Money, months: u32, price: Money) -> Option<u32> {
    if months < 2 || !monthly.is_positive() {
        return None;
    }
    let full = i128::from(monthly.kopecks()) * i128::from(months);
    let saved = full - i128::from(price.kopecks());
    u32::try_from(saved * 100 / full).ok().filter(|percent| *percent >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rub(rubles: i64) -> Money {
        Money::from_kopecks(rubles * 100)
    }

    #[test]
    fn a_longer_plan_saves_the_whole_percent_it_saves_rounded_down() {
        assert_eq!(saving_percent(rub(299), 3, rub(799)), Some(10), "897 for 799: 10.9 % saved");
        assert_eq!(saving_percent(rub(300), 12, rub(3_312)), Some(8), "3,600 for 3,312: exactly 8 %");
        assert_eq!(saving_percent(rub(100), 6, rub(595)), None, "0.8 % is not shown");
    }

    #[test]
    fn no_saving_for_a_month_a_dearer_plan_or_nothing_to_compare() {
        assert_eq!(saving_percent(rub(299), 1, rub(199)), None, "a month against a month");
        assert_eq!(saving_percent(rub(299), 3, rub(900)), None, "dearer than three months");
        assert_eq!(saving_percent(rub(299), 3, rub(897)), None, "the same");
        assert_eq!(saving_percent(Money::from_kopecks(0), 3, rub(100)), None, "a free month compares with nothing");
    }
}
