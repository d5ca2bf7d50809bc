//! The partner balance and withdrawals: what a request holds, what each operator step does to
//! the balance, and which steps may follow which. Every step is one ledger entry, so the
//! balance is always the plain sum of the ledger.

use std::fmt;

use thiserror::Error;

use crate::money::{Money, MoneyError};

/// Payout details are free text (a bank account, a card, a contract reference) of at most
/// this many characters.
pub const PAYOUT_DETAILS_MAX_CHARS: usize = 1000;
/// An operator's note on a step, at most this many characters.
pub const NOTE_MAX_CHARS: usize = 500;

/// A partner balance: what may be withdrawn, and what open requests hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Balance {
    pub available: Money,
    pub held: Money,
}

impl Balance {
    /// Everything the platform owes the partner: available plus held.
    pub fn total(self) -> Money {
        self.available.checked_add(self.held).unwrap_or(self.available)
    }
}

/// How one ledger entry moves the balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Movement {
    pub available: Money,
    pub held: Money,
}

impl Movement {
    pub const NONE: Movement = Movement { available: Money::ZERO, held: Money::ZERO };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WithdrawalStatus {
    /// Held, waiting for the operator.
    Requested,
    /// The operator will pay it; still held.
    Approved,
    /// Refused; the hold was released to the available balance.
    Rejected,
    /// Paid out; the held amount left the balance.
    Paid,
}

impl WithdrawalStatus {
    pub const ALL: [WithdrawalStatus; 4] = [Self::Requested, Self::Approved, Self::Rejected, Self::Paid];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "requested",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
            Self::Paid => "paid",
        }
    }

    pub fn parse(text: &str) -> Option<WithdrawalStatus> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether the request still holds its amount.
    pub fn holds(self) -> bool {
        matches!(self, Self::Requested | Self::Approved)
    }
}

impl fmt::Display for WithdrawalStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An operator's step on a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithdrawalStep {
    Approve,
    Reject,
    MarkPaid,
}

impl WithdrawalStep {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Approve => "approve",
            Self::Reject => "reject",
            Self::MarkPaid => "mark as paid",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WithdrawalRefused {
    #[error("{0}")]
    Amount(MoneyError),
    #[error("the amount is more than the available balance of {available}")]
    MoreThanAvailable { available: Money },
    #[error("payout details are required")]
    NoPayoutDetails,
    #[error("payout details must be at most {PAYOUT_DETAILS_MAX_CHARS} characters")]
    PayoutDetailsTooLong,
    #[error("a note must be at most {NOTE_MAX_CHARS} characters")]
    NoteTooLong,
    #[error("the request is {status}; it cannot {}", step.as_str())]
    Step { status: WithdrawalStatus, step: WithdrawalStep },
}

/// A request the partner may make: an amount above zero and at most what is available (the
/// hold keeps the available balance from going below zero), and payout details.
pub fn check_request(amount: &str, details: &str, balance: Balance) -> Result<(Money, String), WithdrawalRefused> {
    let amount = Money::parse_positive(amount.trim()).map_err(WithdrawalRefused::Amount)?;
    let details = details.trim().replace("\r\n", "\n");
    if details.is_empty() {
        return Err(WithdrawalRefused::NoPayoutDetails);
    }
    if details.chars().count() > PAYOUT_DETAILS_MAX_CHARS {
        return Err(WithdrawalRefused::PayoutDetailsTooLong);
    }
    if amount > balance.available {
        return Err(WithdrawalRefused::MoreThanAvailable { available: balance.available.max(Money::ZERO) });
    }
    Ok((amount, details))
}

/// The hold a new request of `amount` places.
pub fn hold(amount: Money) -> Movement {
    Movement { available: negate(amount), held: amount }
}

/// An operator's optional note, trimmed; empty means none.
pub fn check_note(note: Option<&str>) -> Result<Option<String>, WithdrawalRefused> {
    match note.map(str::trim).filter(|n| !n.is_empty()) {
        None => Ok(None),
        Some(n) if n.chars().count() > NOTE_MAX_CHARS => Err(WithdrawalRefused::NoteTooLong),
        Some(n) => Ok(Some(n.to_owned())),
    }
}

/// The next status after an operator's step and how it moves a request of `amount`:
/// approving keeps the hold, rejecting (before payment) releases it, paying takes it out.
pub fn step(
    status: WithdrawalStatus,
    step: WithdrawalStep,
    amount: Money,
) -> Result<(WithdrawalStatus, Movement), WithdrawalRefused> {
    use WithdrawalStatus::*;
    match (status, step) {
        (Requested, WithdrawalStep::Approve) => Ok((Approved, Movement::NONE)),
        (Requested | Approved, WithdrawalStep::Reject) => {
            Ok((Rejected, Movement { available: amount, held: negate(amount) }))
        }
        (Approved, WithdrawalStep::MarkPaid) => Ok((Paid, Movement { available: Money::ZERO, held: negate(amount) })),
        _ => Err(WithdrawalRefused::Step { status, step }),
    }
}

fn negate(amount: Money) -> Money {
    Money::from_kopecks(-amount.kopecks())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rub(kopecks: i64) -> Money {
        Money::from_kopecks(kopecks)
    }

    fn balance(available: i64) -> Balance {
        Balance { available: rub(available), held: Money::ZERO }
    }

    #[test]
    fn a_request_may_take_the_whole_available_balance_but_not_a_kopeck_more() {
        assert_eq!(check_request("100.01", "IBAN", balance(10_001)).unwrap().0, rub(10_001));
        assert_eq!(
            check_request("100.02", "IBAN", balance(10_001)),
            Err(WithdrawalRefused::MoreThanAvailable { available: rub(10_001) })
        );
    }

    #[test]
    fn a_request_needs_a_positive_exact_amount_and_payout_details() {
        assert!(matches!(check_request("0", "x", balance(100)), Err(WithdrawalRefused::Amount(_))));
        assert!(matches!(check_request("1.005", "x", balance(1000)), Err(WithdrawalRefused::Amount(_))));
        assert!(matches!(check_request("-1", "x", balance(1000)), Err(WithdrawalRefused::Amount(_))));
        assert_eq!(check_request("1", "  \n ", balance(1000)), Err(WithdrawalRefused::NoPayoutDetails));
        let long = "x".repeat(PAYOUT_DETAILS_MAX_CHARS + 1);
        assert_eq!(check_request("1", &long, balance(1000)), Err(WithdrawalRefused::PayoutDetailsTooLong));
        assert_eq!(check_request(" 1.5 ", " acc 1\r\nbank ", balance(1000)).unwrap(), (rub(150), "acc 1\nbank".into()));
    }

    #[test]
    fn a_negative_balance_allows_no_request_and_says_zero_is_available() {
        assert_eq!(
            check_request("1", "x", balance(-500)),
            Err(WithdrawalRefused::MoreThanAvailable { available: Money::ZERO })
        );
    }

    #[test]
    fn steps_follow_requested_approved_paid_and_reject_releases_the_hold() {
        use WithdrawalStatus::*;
        let a = rub(5_000);
        assert_eq!(step(Requested, WithdrawalStep::Approve, a), Ok((Approved, Movement::NONE)));
        assert_eq!(
            step(Requested, WithdrawalStep::Reject, a),
            Ok((Rejected, Movement { available: a, held: rub(-5_000) }))
        );
        assert_eq!(
            step(Approved, WithdrawalStep::Reject, a),
            Ok((Rejected, Movement { available: a, held: rub(-5_000) }))
        );
        assert_eq!(
            step(Approved, WithdrawalStep::MarkPaid, a),
            Ok((Paid, Movement { available: Money::ZERO, held: rub(-5_000) }))
        );
        for (status, s) in [
            (Requested, WithdrawalStep::MarkPaid),
            (Approved, WithdrawalStep::Approve),
            (Rejected, WithdrawalStep::Approve),
            (Rejected, WithdrawalStep::Reject),
            (Rejected, WithdrawalStep::MarkPaid),
            (Paid, WithdrawalStep::Reject),
            (Paid, WithdrawalStep::MarkPaid),
        ] {
            assert_eq!(step(status, s, a), Err(WithdrawalRefused::Step { status, step: s }), "{status:?} {s:?}");
        }
    }

    #[test]
    fn notes_are_trimmed_and_bounded() {
        assert_eq!(check_note(None), Ok(None));
        assert_eq!(check_note(Some("  ")), Ok(None));
        assert_eq!(check_note(Some(" paid by transfer 7 ")), Ok(Some("paid by transfer 7".into())));
        assert_eq!(check_note(Some(&"n".repeat(NOTE_MAX_CHARS + 1))), Err(WithdrawalRefused::NoteTooLong));
    }

    fn any_step() -> impl Strategy<Value = WithdrawalStep> {
        prop_oneof![Just(WithdrawalStep::Approve), Just(WithdrawalStep::Reject), Just(WithdrawalStep::MarkPaid)]
    }

    proptest! {
        /// Whatever the operator does, the hold and the available balance always sum back to
        /// what there was, less what was paid out, and nothing is held once a request ends.
        #[test]
        fn every_step_sequence_keeps_the_balance_exact(kopecks in 1i64..10_000_000_000, steps in prop::collection::vec(any_step(), 0..6)) {
            let amount = rub(kopecks);
            let start = balance(kopecks);
            let (_, _) = check_request(&amount.to_string(), "x", start).unwrap();
            let mut b = start;
            let apply = |b: &mut Balance, m: Movement| {
                b.available = b.available.checked_add(m.available).unwrap();
                b.held = b.held.checked_add(m.held).unwrap();
            };
            apply(&mut b, hold(amount));
            prop_assert_eq!(b.available, Money::ZERO);
            let mut status = WithdrawalStatus::Requested;
            let mut paid = Money::ZERO;
            for s in steps {
                if let Ok((next, m)) = step(status, s, amount) {
                    if next == WithdrawalStatus::Paid { paid = amount; }
                    apply(&mut b, m);
                    status = next;
                }
                prop_assert!(b.available >= Money::ZERO && b.held >= Money::ZERO);
            }
            prop_assert_eq!(b.total().checked_add(paid).unwrap(), start.total());
            prop_assert_eq!(b.held, if status.holds() { amount } else { Money::ZERO });
        }
    }
}
