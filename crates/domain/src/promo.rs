//! Promo codes (docs/decisions.md, "Promo codes"): what a code gives, the price it makes, and
//! when it may be used. A discount comes out of the partner's markup only: the customer price
//! never goes below the platform's price. This file and `markup` are the only places that
//! compute money.

use std::fmt;

use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive};
use thiserror::Error;
use time::OffsetDateTime;

use crate::invoice::{InvoiceStatus, Purpose};
use crate::markup::PriceBreakdown;
use crate::money::Money;

/// Shortest and longest code.
pub const CODE_LEN: std::ops::RangeInclusive<usize> = 4..=32;
/// Highest `--percent-off`: a whole code's price is never given away.
pub const MAX_PERCENT_OFF: u32 = 99;
/// Highest `--extra-days`.
pub const MAX_EXTRA_DAYS: u32 = 3650;

/// A promo code as the customer types it, kept in capitals: codes are case-insensitive.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PromoCode(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a promo code is 4 to 32 of the letters A-Z, digits and '-'")]
pub struct PromoCodeMalformed;

impl PromoCode {
    /// Surrounding spaces are dropped and letters capitalised, so ` spring-25 ` is `SPRING-25`.
    pub fn parse(text: &str) -> Result<PromoCode, PromoCodeMalformed> {
        let code = text.trim().to_ascii_uppercase();
        let allowed = code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-');
        if allowed && CODE_LEN.contains(&code.len()) { Ok(PromoCode(code)) } else { Err(PromoCodeMalformed) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PromoCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a code gives: a share off the customer price, an amount off it, or days added to the
/// term bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Benefit {
    /// Whole percent of the customer price, 1 to `MAX_PERCENT_OFF`.
    PercentOff(u32),
    AmountOff(Money),
    ExtraDays(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BenefitInvalid {
    #[error("--percent-off is a whole number from 1 to {MAX_PERCENT_OFF}")]
    Percent,
    #[error("--amount-off is a positive amount in roubles, for example 50 or 49.90")]
    Amount,
    #[error("--extra-days is a whole number from 1 to {MAX_EXTRA_DAYS}")]
    Days,
}

impl Benefit {
    pub fn percent_off(percent: u32) -> Result<Benefit, BenefitInvalid> {
        match percent {
            1..=MAX_PERCENT_OFF => Ok(Benefit::PercentOff(percent)),
            _ => Err(BenefitInvalid::Percent),
        }
    }

    pub fn amount_off(amount: Money) -> Result<Benefit, BenefitInvalid> {
        if amount.is_positive() { Ok(Benefit::AmountOff(amount)) } else { Err(BenefitInvalid::Amount) }
    }

    pub fn extra_days(days: u32) -> Result<Benefit, BenefitInvalid> {
        match days {
            1..=MAX_EXTRA_DAYS => Ok(Benefit::ExtraDays(days)),
            _ => Err(BenefitInvalid::Days),
        }
    }

    /// Days added to the term bought (0 for a discount).
    pub const fn days(self) -> u32 {
        match self {
            Benefit::ExtraDays(days) => days,
            Benefit::PercentOff(_) | Benefit::AmountOff(_) => 0,
        }
    }
}

/// A price with a code applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Discounted {
    /// The new amounts: the customer pays `discount` less, all of it from the partner share.
    pub price: PriceBreakdown,
    pub discount: Money,
    pub extra_days: u32,
}

/// What a code did to an invoice, kept with it: shown on the invoice, the ledger and the
/// cabinet, and the days its payment adds to the term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub code: PromoCode,
    /// Taken off the customer price (zero for extra days).
    pub discount: Money,
    pub extra_days: u32,
}

impl Applied {
    /// The price without the code: what an automatic renewal of the purchase charges (a code
    /// is for the invoice it came with). The discount goes back to the share it came from.
    pub fn full_price(&self, discounted: PriceBreakdown) -> PriceBreakdown {
        let back = |m: Money| m.checked_add(self.discount).unwrap_or(m);
        PriceBreakdown {
            customer: back(discounted.customer),
            platform: discounted.platform,
            partner_share: back(discounted.partner_share),
        }
    }
}

/// The discount would take the customer price below the platform's price, by `by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the discount takes the price {by} below the platform's price")]
pub struct BelowPlatformPrice {
    pub by: Money,
}

/// The price of a purchase with a code: the markup is added first (`markup::price`), then the
/// discount is taken off the customer price, a percentage rounded half-up to the kopeck. The
/// discount comes out of the partner share alone, so the platform's part never changes.
pub fn apply(price: PriceBreakdown, benefit: Benefit) -> Result<Discounted, BelowPlatformPrice> {
    let discount = match benefit {
        Benefit::PercentOff(percent) => {
            let exact = BigDecimal::from(price.customer.kopecks()) * BigDecimal::from(percent) / BigDecimal::from(100);
            let rounded = exact.with_scale_round(0, RoundingMode::HalfUp).to_i64().unwrap_or(i64::MAX);
            Money::from_kopecks(rounded)
        }
        Benefit::AmountOff(amount) => amount,
        Benefit::ExtraDays(days) => return Ok(Discounted { price, discount: Money::ZERO, extra_days: days }),
    };
    let share = price.partner_share.checked_sub(discount).filter(|s| s.kopecks() >= 0);
    let customer = price.customer.checked_sub(discount);
    match (share, customer) {
        (Some(partner_share), Some(customer)) => Ok(Discounted {
            price: PriceBreakdown { customer, platform: price.platform, partner_share },
            discount,
            extra_days: 0,
        }),
        _ => Err(BelowPlatformPrice {
            by: discount.checked_sub(price.partner_share).unwrap_or(Money::from_kopecks(i64::MAX)),
        }),
    }
}

/// The limits a partner sets on a code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// Uses across all customers; `None`: no limit.
    pub max_uses: Option<u32>,
    /// Uses by one customer.
    pub per_customer: u32,
    /// Only for a customer who never paid.
    pub first_purchase_only: bool,
    /// The plans it applies to; `None`: every plan. A code never applies to extra devices.
    pub plans: Option<Vec<i32>>,
    /// The moment it stops working (the end of the partner's `--expires` day in the account's
    /// zone).
    pub expires_at: Option<OffsetDateTime>,
    /// Turned off by the partner.
    pub disabled: bool,
}

/// What is known of a code's uses when a purchase asks for one. A use counts while its invoice
/// is payable or once paid; an expired or failed invoice's use is given back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UseContext {
    pub now: OffsetDateTime,
    pub purpose: Purpose,
    /// Uses held or spent by everyone.
    pub uses: u64,
    /// Uses held or spent by this customer.
    pub customer_uses: u64,
    /// The customer paid an invoice before.
    pub customer_paid_before: bool,
}

/// Why a code cannot be used for a purchase; each is its own error code of `POST /payments`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PromoRefused {
    #[error("no such promo code")]
    Unknown,
    #[error("the promo code has expired or was turned off")]
    Expired,
    #[error("the promo code has been used as many times as it may be")]
    UsedUp,
    #[error("the promo code does not apply to this purchase")]
    NotApplicable,
}

impl Terms {
    /// Whether a purchase may use the code now. The order is the customer's view: a code that
    /// ended is "expired" even when also used up.
    pub fn check_use(&self, ctx: UseContext) -> Result<(), PromoRefused> {
        if self.disabled || self.expires_at.is_some_and(|end| ctx.now >= end) {
            return Err(PromoRefused::Expired);
        }
        let plan_id = match ctx.purpose {
            Purpose::Subscription { plan_id } => plan_id,
            Purpose::Devices { .. } => return Err(PromoRefused::NotApplicable),
        };
        if !self.applies_to_plan(plan_id) || (self.first_purchase_only && ctx.customer_paid_before) {
            return Err(PromoRefused::NotApplicable);
        }
        let all_taken = self.max_uses.is_some_and(|max| ctx.uses >= u64::from(max));
        if all_taken || ctx.customer_uses >= u64::from(self.per_customer) {
            return Err(PromoRefused::UsedUp);
        }
        Ok(())
    }

    pub fn applies_to_plan(&self, plan_id: i32) -> bool {
        self.plans.as_ref().is_none_or(|plans| plans.contains(&plan_id))
    }
}

/// What one use of a code is, by the status of the invoice that holds it (`None`: the invoice
/// is still being issued). The invoice's status is the one truth: settling, expiring or failing
/// it moves the use with no write of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UseState {
    /// Counted against the code's limits while the invoice may still be paid.
    Held,
    /// Paid: counted for good, and its discount was given.
    Spent,
    /// The invoice failed or expired: the use no longer counts.
    Released,
}

impl UseState {
    pub const fn of(invoice: Option<InvoiceStatus>) -> UseState {
        match invoice {
            None | Some(InvoiceStatus::Pending) => UseState::Held,
            Some(InvoiceStatus::Succeeded) => UseState::Spent,
            Some(InvoiceStatus::Failed | InvoiceStatus::Expired) => UseState::Released,
        }
    }

    /// Whether a use in this state counts against the code's limits.
    pub const fn counts(self) -> bool {
        !matches!(self, UseState::Released)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markup::{MarkupPercent, price};
    use proptest::prelude::*;
    use time::macros::datetime;

    #[test]
    fn a_use_is_held_while_its_invoice_may_be_paid_spent_once_paid_and_released_otherwise() {
        assert_eq!(UseState::of(None), UseState::Held, "the invoice is still being issued");
        assert_eq!(UseState::of(Some(InvoiceStatus::Pending)), UseState::Held);
        assert_eq!(UseState::of(Some(InvoiceStatus::Succeeded)), UseState::Spent);
        assert_eq!(UseState::of(Some(InvoiceStatus::Failed)), UseState::Released);
        assert_eq!(UseState::of(Some(InvoiceStatus::Expired)), UseState::Released);
        let counting: Vec<_> = InvoiceStatus::ALL.into_iter().filter(|s| UseState::of(Some(*s)).counts()).collect();
        assert_eq!(counting, [InvoiceStatus::Pending, InvoiceStatus::Succeeded]);
    }

    fn rub(s: &str) -> Money {
        s.parse().unwrap()
    }
    fn priced(platform: &str, markup: &str) -> PriceBreakdown {
        price(rub(platform), 1, markup.parse().unwrap()).unwrap()
    }

    #[test]
    fn codes_are_case_insensitive_and_4_to_32_of_letters_digits_and_dashes() {
        assert_eq!(PromoCode::parse(" spring-25 ").unwrap().as_str(), "SPRING-25");
        assert_eq!(PromoCode::parse("ABCD"), PromoCode::parse("abcd"));
        assert!(PromoCode::parse("ABC").is_err());
        assert!(PromoCode::parse(&"A".repeat(33)).is_err());
        assert!(PromoCode::parse(&"A".repeat(32)).is_ok());
        assert!(PromoCode::parse("SPRING 25").is_err());
        assert!(PromoCode::parse("ВЕСНА").is_err());
        assert!(PromoCode::parse("SPRING_25").is_err());
    }

    #[test]
    fn percent_off_is_taken_off_the_customer_price_after_the_markup_and_out_of_the_share() {
        // 299.00 + 40 % = 418.60; 10 % off = 41.86.
        let d = apply(priced("299.00", "40"), Benefit::PercentOff(10)).unwrap();
        assert_eq!(d.discount, rub("41.86"));
        assert_eq!(d.price.customer, rub("376.74"));
        assert_eq!(d.price.platform, rub("299.00"));
        assert_eq!(d.price.partner_share, rub("77.74"));
    }

    #[test]
    fn a_percentage_rounds_half_up_to_the_kopeck() {
        // 100.05 + 0 % markup... use a share big enough: 100.05 x 50 % = 150.08 (150.075 up).
        let p = priced("100.05", "100");
        assert_eq!(p.customer, rub("200.10"));
        let d = apply(p, Benefit::PercentOff(15)).unwrap();
        assert_eq!(d.discount, rub("30.02")); // 30.015 -> 30.02
        let d = apply(priced("0.30", "100"), Benefit::PercentOff(5)).unwrap();
        assert_eq!(d.discount, rub("0.03")); // 0.03 exactly
        let d = apply(priced("0.10", "100"), Benefit::PercentOff(2)).unwrap();
        assert_eq!(d.discount, rub("0.00")); // 0.004 -> 0.00
    }

    #[test]
    fn a_discount_may_take_the_whole_share_but_never_below_the_platform_price() {
        let p = priced("300.00", "20"); // 360.00, share 60.00
        let whole = apply(p, Benefit::AmountOff(rub("60.00"))).unwrap();
        assert_eq!(whole.price.customer, rub("300.00"));
        assert_eq!(whole.price.partner_share, Money::ZERO);
        assert_eq!(apply(p, Benefit::AmountOff(rub("75.50"))), Err(BelowPlatformPrice { by: rub("15.50") }));
        // 20 % of 360.00 is 72.00: 12.00 below.
        assert_eq!(apply(p, Benefit::PercentOff(20)), Err(BelowPlatformPrice { by: rub("12.00") }));
        // Without markup any discount is below the platform's price.
        assert_eq!(apply(priced("300.00", "0"), Benefit::PercentOff(1)), Err(BelowPlatformPrice { by: rub("3.00") }));
    }

    #[test]
    fn the_full_price_gives_the_discount_back_to_the_share() {
        let p = priced("299.00", "40");
        let d = apply(p, Benefit::PercentOff(10)).unwrap();
        let applied = Applied { code: PromoCode::parse("SPRING").unwrap(), discount: d.discount, extra_days: 0 };
        assert_eq!(applied.full_price(d.price), p);
    }

    #[test]
    fn extra_days_change_no_price() {
        let p = priced("300.00", "0");
        assert_eq!(apply(p, Benefit::ExtraDays(7)), Ok(Discounted { price: p, discount: Money::ZERO, extra_days: 7 }));
    }

    #[test]
    fn benefits_are_bounded() {
        assert!(Benefit::percent_off(0).is_err());
        assert!(Benefit::percent_off(100).is_err());
        assert!(Benefit::percent_off(99).is_ok());
        assert!(Benefit::amount_off(Money::ZERO).is_err());
        assert!(Benefit::extra_days(0).is_err());
        assert!(Benefit::extra_days(MAX_EXTRA_DAYS + 1).is_err());
    }

    fn terms() -> Terms {
        Terms {
            max_uses: Some(2),
            per_customer: 1,
            first_purchase_only: false,
            plans: None,
            expires_at: Some(datetime!(2026-12-31 21:00 UTC)),
            disabled: false,
        }
    }

    fn ctx() -> UseContext {
        UseContext {
            now: datetime!(2026-12-01 12:00 UTC),
            purpose: Purpose::Subscription { plan_id: 1 },
            uses: 0,
            customer_uses: 0,
            customer_paid_before: false,
        }
    }

    #[test]
    fn each_refusal_of_a_code_has_its_reason() {
        assert_eq!(terms().check_use(ctx()), Ok(()));
        let last_second = UseContext { now: datetime!(2026-12-31 20:59:59 UTC), ..ctx() };
        assert_eq!(terms().check_use(last_second), Ok(()));
        let late = UseContext { now: datetime!(2026-12-31 21:00 UTC), ..ctx() };
        assert_eq!(terms().check_use(late), Err(PromoRefused::Expired));
        assert_eq!(Terms { disabled: true, ..terms() }.check_use(ctx()), Err(PromoRefused::Expired));
        assert_eq!(terms().check_use(UseContext { uses: 2, ..ctx() }), Err(PromoRefused::UsedUp));
        assert_eq!(terms().check_use(UseContext { uses: 1, ..ctx() }), Ok(()));
        assert_eq!(terms().check_use(UseContext { customer_uses: 1, ..ctx() }), Err(PromoRefused::UsedUp));
        let two_each = Terms { per_customer: 2, max_uses: None, ..terms() };
        assert_eq!(two_each.check_use(UseContext { customer_uses: 1, uses: 500, ..ctx() }), Ok(()));
        let first = Terms { first_purchase_only: true, ..terms() };
        assert_eq!(
            first.check_use(UseContext { customer_paid_before: true, ..ctx() }),
            Err(PromoRefused::NotApplicable)
        );
        let plan_2 = Terms { plans: Some(vec![2]), ..terms() };
        assert_eq!(plan_2.check_use(ctx()), Err(PromoRefused::NotApplicable));
        let devices = UseContext { purpose: Purpose::Devices { count: 1 }, ..ctx() };
        assert_eq!(terms().check_use(devices), Err(PromoRefused::NotApplicable));
    }

    proptest! {
        #[test]
        fn a_discounted_price_adds_up_and_keeps_the_platform_price(
            k in 1i64..100_000_000,
            bp in 0u32..=crate::markup::MAX_MARKUP_BASIS_POINTS,
            percent in 1u32..=MAX_PERCENT_OFF,
            off in 1i64..100_000_000,
        ) {
            let p = price(Money::from_kopecks(k), 1, MarkupPercent::from_basis_points(bp).unwrap()).unwrap();
            for benefit in [Benefit::PercentOff(percent), Benefit::AmountOff(Money::from_kopecks(off))] {
                match apply(p, benefit) {
                    Ok(d) => {
                        prop_assert_eq!(d.price.platform, p.platform);
                        prop_assert_eq!(d.price.platform.checked_add(d.price.partner_share), Some(d.price.customer));
                        prop_assert_eq!(d.price.customer.checked_add(d.discount), Some(p.customer));
                        prop_assert!(d.price.partner_share.kopecks() >= 0);
                        prop_assert!(d.discount.kopecks() <= p.partner_share.kopecks());
                    }
                    Err(BelowPlatformPrice { by }) => {
                        prop_assert!(by.is_positive());
                        prop_assert!(d_of(p, benefit) == p.partner_share.kopecks() + by.kopecks());
                    }
                }
            }
        }

        #[test]
        fn a_percentage_is_within_half_a_kopeck_of_the_exact_value(k in 1i64..100_000_000, percent in 1u32..=MAX_PERCENT_OFF) {
            let d = d_of(PriceBreakdown { customer: Money::from_kopecks(k), platform: Money::ZERO, partner_share: Money::from_kopecks(k) }, Benefit::PercentOff(percent));
            let diff = i128::from(d) * 100 - i128::from(k) * i128::from(percent);
            prop_assert!(diff > -50 && diff <= 50);
        }
    }

    /// The discount in kopecks a benefit asks for, before the floor.
    fn d_of(p: PriceBreakdown, benefit: Benefit) -> i64 {
        match benefit {
            Benefit::PercentOff(n) => {
                let all = PriceBreakdown { partner_share: p.customer, platform: Money::ZERO, ..p };
                apply(all, Benefit::PercentOff(n)).unwrap().discount.kopecks()
            }
            Benefit::AmountOff(a) => a.kopecks(),
            Benefit::ExtraDays(_) => 0,
        }
    }
}
