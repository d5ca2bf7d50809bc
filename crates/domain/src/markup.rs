//! Partner markup: customer price = platform price + partner share, where
//! partner share = platform price x markup_percent / 100, rounded half-up to the kopeck.
//! This file and `promo` (a discount off the customer price) are the only places that round money.

use std::fmt;
use std::str::FromStr;

use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive};
use thiserror::Error;

use crate::money::Money;

/// Highest markup an operator may set: 1000.00 %.
pub const MAX_MARKUP_BASIS_POINTS: u32 = 100_000;

/// Markup in hundredths of a percent (basis points): `12.50` % is 1250.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MarkupPercent(u32);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MarkupError {
    #[error("markup_percent must be a number with at most two decimals, for example 15 or 12.50")]
    Malformed,
    #[error("markup_percent must be between 0 and 1000")]
    OutOfRange,
}

impl MarkupPercent {
    pub fn from_basis_points(bp: u32) -> Result<Self, MarkupError> {
        if bp > MAX_MARKUP_BASIS_POINTS {
            return Err(MarkupError::OutOfRange);
        }
        Ok(MarkupPercent(bp))
    }

    pub const fn basis_points(self) -> u32 {
        self.0
    }
}

impl FromStr for MarkupPercent {
    type Err = MarkupError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        // Same lexical shape as money: digits with at most two decimals, never negative.
        if text.starts_with('-') {
            return Err(MarkupError::OutOfRange);
        }
        let as_money: Money = text.parse().map_err(|_| MarkupError::Malformed)?;
        let bp = u32::try_from(as_money.kopecks()).map_err(|_| MarkupError::OutOfRange)?;
        MarkupPercent::from_basis_points(bp)
    }
}

impl fmt::Display for MarkupPercent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

/// The three amounts every price and invoice carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceBreakdown {
    /// What the customer pays: platform + partner share.
    pub customer: Money,
    pub platform: Money,
    pub partner_share: Money,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("amount is too large")]
pub struct PriceOverflow;

/// Partner share of a platform price, rounded half-up to the kopeck.
pub fn partner_share(platform: Money, markup: MarkupPercent) -> Result<Money, PriceOverflow> {
    let exact =
        BigDecimal::from(platform.kopecks()) * BigDecimal::from(markup.basis_points()) / BigDecimal::from(10_000);
    let rounded = exact.with_scale_round(0, RoundingMode::HalfUp);
    rounded.to_i64().map(Money::from_kopecks).ok_or(PriceOverflow)
}

/// Customer price of `quantity` units of a platform price under a markup. The share is computed
/// on the total platform amount, so the invoice total is rounded once.
pub fn price(platform_unit: Money, quantity: u32, markup: MarkupPercent) -> Result<PriceBreakdown, PriceOverflow> {
    let platform = platform_unit.checked_mul(i64::from(quantity)).ok_or(PriceOverflow)?;
    let share = partner_share(platform, markup)?;
    let customer = platform.checked_add(share).ok_or(PriceOverflow)?;
    Ok(PriceBreakdown { customer, platform, partner_share: share })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rub(s: &str) -> Money {
        s.parse().unwrap()
    }
    fn pct(s: &str) -> MarkupPercent {
        s.parse().unwrap()
    }

    #[test]
    fn customer_price_is_platform_price_plus_partner_share() {
        let p = price(rub("299.00"), 1, pct("20")).unwrap();
        assert_eq!(p.platform, rub("299.00"));
        assert_eq!(p.partner_share, rub("59.80"));
        assert_eq!(p.customer, rub("358.80"));
    }

    #[test]
    fn partner_share_rounds_half_up_to_the_kopeck() {
        // 0.05 x 10% = 0.005 -> 0.01 (half goes up)
        assert_eq!(partner_share(rub("0.05"), pct("10")).unwrap(), rub("0.01"));
        // 0.04 x 10% = 0.004 -> 0.00
        assert_eq!(partner_share(rub("0.04"), pct("10")).unwrap(), rub("0.00"));
        // 199.99 x 12.5% = 24.99875 -> 25.00
        assert_eq!(partner_share(rub("199.99"), pct("12.50")).unwrap(), rub("25.00"));
        // 100.01 x 0.5% = 0.50005 -> 0.50
        assert_eq!(partner_share(rub("100.01"), pct("0.50")).unwrap(), rub("0.50"));
    }

    #[test]
    fn zero_markup_means_no_partner_share() {
        let p = price(rub("450.00"), 1, MarkupPercent::default()).unwrap();
        assert_eq!(p.partner_share, Money::ZERO);
        assert_eq!(p.customer, p.platform);
    }

    #[test]
    fn device_quantity_multiplies_platform_price_before_rounding_once() {
        let p = price(rub("33.33"), 3, pct("10")).unwrap();
        assert_eq!(p.platform, rub("99.99"));
        assert_eq!(p.partner_share, rub("10.00")); // 9.999 -> 10.00
        assert_eq!(p.customer, rub("109.99"));
    }

    #[test]
    fn markup_is_printed_with_two_decimals_and_bounded() {
        assert_eq!(pct("12.5").to_string(), "12.50");
        assert_eq!(pct("0").to_string(), "0.00");
        assert_eq!("1000.01".parse::<MarkupPercent>(), Err(MarkupError::OutOfRange));
        assert_eq!("-1".parse::<MarkupPercent>(), Err(MarkupError::OutOfRange));
        assert_eq!("12.555".parse::<MarkupPercent>(), Err(MarkupError::Malformed));
        assert_eq!("abc".parse::<MarkupPercent>(), Err(MarkupError::Malformed));
    }

    proptest! {
        #[test]
        fn price_parts_always_add_up(k in 1i64..1_000_000_000, bp in 0u32..=MAX_MARKUP_BASIS_POINTS, q in 1u32..100) {
            let p = price(Money::from_kopecks(k), q, MarkupPercent::from_basis_points(bp).unwrap()).unwrap();
            prop_assert_eq!(p.platform.checked_add(p.partner_share), Some(p.customer));
            // Half-up: the share is above the exact value by at most half a kopeck, below it by less.
            let exact_times_10000 = i128::from(p.platform.kopecks()) * i128::from(bp);
            let diff = i128::from(p.partner_share.kopecks()) * 10_000 - exact_times_10000;
            prop_assert!(diff > -5_000 && diff <= 5_000);
        }
    }
}
