//! Telegram Stars (docs/decisions.md, "Telegram Stars"): the operator's rate of an account, the
//! price of an invoice in whole Stars, and the ruble value the invoice and the ledger carry.

use thiserror::Error;

use crate::markup::PriceBreakdown;
use crate::money::Money;

/// The payment method code of an invoice paid in Stars in the partner's bot.
pub const STARS_METHOD: &str = "telegram_stars";
/// Telegram's currency code of Stars.
pub const STARS_CURRENCY: &str = "XTR";
/// A Stars subscription renews every 30 days: the only period Telegram takes.
pub const STARS_SUBSCRIPTION_PERIOD_SECS: u32 = 2_592_000;
/// The most Stars one invoice (and one month of a subscription) may cost in Telegram.
pub const MAX_STARS: i64 = 10_000;
/// The highest rate an operator may set: a typo of a few orders of magnitude is refused.
const MAX_RATE: Money = Money::from_kopecks(100_000);

/// How many rubles one Star is worth for an account, exact to the kopeck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StarsRate(Money);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StarsRateError {
    #[error("the rate is rubles per Star with at most two decimals, like 1.79")]
    Malformed,
    #[error("the rate must be more than 0 and at most {MAX_RATE} rubles per Star")]
    OutOfRange,
}

/// An invoice's price in Stars, and the amounts it carries in rubles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StarsPrice {
    pub stars: i64,
    /// The ruble value of `stars` at the rate: what the customer paid. What rounding up to a
    /// whole Star adds goes to the partner's share (the platform's price is unchanged).
    pub amounts: PriceBreakdown,
}

impl StarsRate {
    /// `R` as `vp-api account stars --rub-per-star R` takes it.
    pub fn parse(text: &str) -> Result<StarsRate, StarsRateError> {
        let rate: Money = text.trim().parse().map_err(|_| StarsRateError::Malformed)?;
        StarsRate::from_rubles(rate)
    }

    pub fn from_rubles(rate: Money) -> Result<StarsRate, StarsRateError> {
        if rate.is_positive() && rate <= MAX_RATE { Ok(StarsRate(rate)) } else { Err(StarsRateError::OutOfRange) }
    }

    pub const fn rubles(self) -> Money {
        self.0
    }

    /// The ruble value of `stars` at this rate.
    pub fn value(self, stars: i64) -> Option<Money> {
        self.0.checked_mul(stars)
    }

    /// `prices` in whole Stars, rounded up; `None` when that is more than Telegram takes.
    pub fn price(self, prices: PriceBreakdown) -> Option<StarsPrice> {
        let per_star = self.0.kopecks();
        let stars = prices.customer.kopecks().checked_add(per_star - 1)? / per_star;
        if !(1..=MAX_STARS).contains(&stars) {
            return None;
        }
        let customer = self.value(stars)?;
        let surplus = customer.checked_sub(prices.customer)?;
        let amounts = PriceBreakdown {
            customer,
            platform: prices.platform,
            partner_share: prices.partner_share.checked_add(surplus)?,
        };
        Some(StarsPrice { stars, amounts })
    }

    /// A renewal charge of `stars`: the platform's part of what `first` (the subscription's
    /// first invoice) paid, and the rest, at today's rate, the partner's.
    pub fn renewal(self, stars: i64, first: PriceBreakdown) -> Option<PriceBreakdown> {
        let customer = self.value(stars)?;
        let platform = first.platform.min(customer);
        Some(PriceBreakdown { customer, platform, partner_share: customer.checked_sub(platform)? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prices(customer: i64, platform: i64) -> PriceBreakdown {
        PriceBreakdown {
            customer: Money::from_kopecks(customer),
            platform: Money::from_kopecks(platform),
            partner_share: Money::from_kopecks(customer - platform),
        }
    }

    #[test]
    fn a_rate_is_rubles_per_star_above_zero_with_at_most_two_decimals() {
        assert_eq!(StarsRate::parse("1.79").map(StarsRate::rubles), Ok(Money::from_kopecks(179)));
        assert_eq!(StarsRate::parse("2").map(StarsRate::rubles), Ok(Money::from_kopecks(200)));
        assert_eq!(StarsRate::parse("0"), Err(StarsRateError::OutOfRange));
        assert_eq!(StarsRate::parse("-1"), Err(StarsRateError::OutOfRange));
        assert_eq!(StarsRate::parse("1000.01"), Err(StarsRateError::OutOfRange));
        assert_eq!(StarsRate::parse("1.795"), Err(StarsRateError::Malformed));
        assert_eq!(StarsRate::parse("one"), Err(StarsRateError::Malformed));
    }

    #[test]
    fn a_price_is_whole_stars_rounded_up_and_the_surplus_is_the_partners() {
        let rate = StarsRate::parse("1.50").unwrap();
        let priced = rate.price(prices(29_900, 20_000)).unwrap();
        assert_eq!(priced.stars, 200, "299.00 / 1.50 = 199.33, rounded up");
        assert_eq!(priced.amounts, prices(30_000, 20_000), "the ruble value of 200 Stars, 1.00 more to the partner");
        let exact = rate.price(prices(30_000, 20_000)).unwrap();
        assert_eq!((exact.stars, exact.amounts), (200, prices(30_000, 20_000)), "no rounding, no surplus");
    }

    #[test]
    fn a_price_above_what_telegram_takes_has_no_stars_price() {
        let rate = StarsRate::parse("0.01").unwrap();
        assert_eq!(rate.price(prices(10_000, 5_000)).map(|p| p.stars), Some(MAX_STARS));
        assert_eq!(rate.price(prices(10_001, 5_000)), None);
    }

    #[test]
    fn a_renewal_is_worth_its_stars_at_todays_rate_with_the_platforms_part_unchanged() {
        let first = prices(30_000, 20_000);
        let today = StarsRate::parse("1.20").unwrap();
        assert_eq!(today.renewal(200, first), Some(prices(24_000, 20_000)));
        let crashed = StarsRate::parse("0.50").unwrap();
        assert_eq!(crashed.renewal(200, first), Some(prices(10_000, 10_000)), "never a negative partner share");
    }
}
