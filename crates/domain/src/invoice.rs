//! The invoice (payment) state machine: every row of the spec's "Payment status" table, and
//! nothing else. Effects say what must be recorded in the same transaction as the change.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use time::OffsetDateTime;

use crate::identifiers::{ClientId, MethodCode, ReturnUrl};
use crate::limits::INVOICE_PAYMENT_WINDOW;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvoiceStatus {
    Pending,
    Succeeded,
    Failed,
    Expired,
}

impl InvoiceStatus {
    pub const ALL: [InvoiceStatus; 4] =
        [InvoiceStatus::Pending, InvoiceStatus::Succeeded, InvoiceStatus::Failed, InvoiceStatus::Expired];

    pub const fn as_str(self) -> &'static str {
        match self {
            InvoiceStatus::Pending => "pending",
            InvoiceStatus::Succeeded => "succeeded",
            InvoiceStatus::Failed => "failed",
            InvoiceStatus::Expired => "expired",
        }
    }

    /// Whether a payment may still arrive for the invoice: while pending, and after it expired
    /// (the spec's late payment, which still succeeds).
    pub const fn may_be_paid(self) -> bool {
        matches!(self, InvoiceStatus::Pending | InvoiceStatus::Expired)
    }
}

impl fmt::Display for InvoiceStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown value {0:?}")]
pub struct UnknownValue(pub String);

impl FromStr for InvoiceStatus {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InvoiceStatus::ALL.into_iter().find(|v| v.as_str() == s).ok_or_else(|| UnknownValue(s.to_owned()))
    }
}

/// What happened to an invoice, as reported by the gateway, the sweeper or the operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentOutcome {
    /// The customer's payment went through (on time or late).
    Paid,
    /// The payment window passed without payment.
    DeadlinePassed,
    /// A payment attempt did not go through.
    AttemptFailed,
    /// The bank recalled a completed payment.
    BankRecall,
}

impl PaymentOutcome {
    pub const ALL: [PaymentOutcome; 4] = [
        PaymentOutcome::Paid,
        PaymentOutcome::DeadlinePassed,
        PaymentOutcome::AttemptFailed,
        PaymentOutcome::BankRecall,
    ];
}

/// What the partner's balance ledger records for a transition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerEffect {
    None,
    /// `partner_share` is credited.
    CreditPartnerShare,
    /// A recalled payment takes the credited `partner_share` back.
    ReversePartnerShare,
}

/// Which event a transition emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceEvent {
    PaymentSucceeded,
    PaymentExpired,
}

/// A permitted transition and everything that must happen with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceTransition {
    pub next: InvoiceStatus,
    /// Access is granted (subscription term or device slots) from the invoice's purpose.
    pub grants_access: bool,
    pub ledger: LedgerEffect,
    pub event: Option<InvoiceEvent>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("an invoice in status {from} cannot move on {outcome:?}")]
pub struct TransitionRefused {
    pub from: InvoiceStatus,
    pub outcome: PaymentOutcome,
}

/// The spec's payment status table.
pub fn transition(from: InvoiceStatus, outcome: PaymentOutcome) -> Result<InvoiceTransition, TransitionRefused> {
    use InvoiceStatus::*;
    use PaymentOutcome::*;
    let paid = InvoiceTransition {
        next: Succeeded,
        grants_access: true,
        ledger: LedgerEffect::CreditPartnerShare,
        event: Some(InvoiceEvent::PaymentSucceeded),
    };
    match (from, outcome) {
        (Pending, Paid) | (Expired, Paid) => Ok(paid),
        (Pending, DeadlinePassed) => Ok(InvoiceTransition {
            next: Expired,
            grants_access: false,
            ledger: LedgerEffect::None,
            event: Some(InvoiceEvent::PaymentExpired),
        }),
        (Pending, AttemptFailed) => {
            Ok(InvoiceTransition { next: Failed, grants_access: false, ledger: LedgerEffect::None, event: None })
        }
        (Succeeded, BankRecall) => Ok(InvoiceTransition {
            next: Failed,
            grants_access: false,
            ledger: LedgerEffect::ReversePartnerShare,
            event: None,
        }),
        _ => Err(TransitionRefused { from, outcome }),
    }
}

/// An outcome that already happened: the invoice is where that outcome would put it. Gateways
/// notify at least once, so repeating an applied outcome is a no-op, not an error.
pub const fn outcome_already_applied(status: InvoiceStatus, outcome: PaymentOutcome) -> bool {
    matches!(
        (status, outcome),
        (InvoiceStatus::Succeeded, PaymentOutcome::Paid)
            | (InvoiceStatus::Expired, PaymentOutcome::DeadlinePassed)
            | (InvoiceStatus::Failed, PaymentOutcome::AttemptFailed | PaymentOutcome::BankRecall)
    )
}

/// What the payment gateway says about an invoice's payment, in the platform's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GatewayState {
    /// Not paid yet (or the gateway has not decided).
    Pending,
    Succeeded,
    /// The customer did not pay within the gateway's own time limit.
    Expired,
    /// Any other cancellation: the payment did not go through.
    Declined,
    /// Paid, then refunded in full.
    Refunded,
}

impl GatewayState {
    /// The gateway will not change its mind: re-reading it again is pointless.
    pub const fn is_final(self) -> bool {
        !matches!(self, GatewayState::Pending)
    }
}

/// What a gateway state means for an invoice now in `status`: the outcome to apply, or `None`
/// when there is nothing to do (already applied, or a state the payment table has no row for).
/// A payment refunded before its success was ever seen counts as one that did not go through.
pub const fn outcome_of_gateway_state(state: GatewayState, status: InvoiceStatus) -> Option<PaymentOutcome> {
    use GatewayState as G;
    use InvoiceStatus as S;
    match (state, status) {
        (G::Succeeded, status) if status.may_be_paid() => Some(PaymentOutcome::Paid),
        (G::Expired, S::Pending) => Some(PaymentOutcome::DeadlinePassed),
        (G::Declined | G::Refunded, S::Pending) => Some(PaymentOutcome::AttemptFailed),
        (G::Refunded, S::Succeeded) => Some(PaymentOutcome::BankRecall),
        _ => None,
    }
}

/// What an invoice is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Purpose {
    Subscription { plan_id: i32 },
    Devices { count: u32 },
}

impl Purpose {
    pub const fn as_str(self) -> &'static str {
        match self {
            Purpose::Subscription { .. } => "subscription",
            Purpose::Devices { .. } => "devices",
        }
    }

    pub const fn plan_id(self) -> Option<i32> {
        match self {
            Purpose::Subscription { plan_id } => Some(plan_id),
            Purpose::Devices { .. } => None,
        }
    }

    pub const fn devices(self) -> Option<u32> {
        match self {
            Purpose::Subscription { .. } => None,
            Purpose::Devices { count } => Some(count),
        }
    }
}

/// The fields that make two `POST /payments` requests "the same" for idempotency.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InvoiceRequest {
    pub client_id: ClientId,
    pub purpose: Purpose,
    pub method: MethodCode,
    pub return_url: Option<ReturnUrl>,
    /// Where the fiscal receipt goes (required while the service sends receipts).
    pub customer_email: Option<crate::cabinet::Email>,
    /// A promo code the customer gave (docs/decisions.md, "Promo codes").
    pub promo_code: Option<crate::promo::PromoCode>,
}

/// Guideline deadline shown as `expires_at`.
pub fn payment_deadline(created_at: OffsetDateTime) -> OffsetDateTime {
    created_at + INVOICE_PAYMENT_WINDOW
}

/// `payment_url` is present only while the invoice is pending.
pub const fn shows_payment_url(status: InvoiceStatus) -> bool {
    matches!(status, InvoiceStatus::Pending)
}

/// `client` is filled only for a succeeded invoice.
pub const fn shows_client(status: InvoiceStatus) -> bool {
    matches!(status, InvoiceStatus::Succeeded)
}

#[cfg(test)]
mod tests {
    use super::InvoiceStatus::*;
    use super::PaymentOutcome::*;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pending_paid_becomes_succeeded_grants_access_credits_share_and_emits_succeeded() {
        let t = transition(Pending, Paid).unwrap();
        assert_eq!(t.next, Succeeded);
        assert!(t.grants_access);
        assert_eq!(t.ledger, LedgerEffect::CreditPartnerShare);
        assert_eq!(t.event, Some(InvoiceEvent::PaymentSucceeded));
    }

    #[test]
    fn pending_past_deadline_becomes_expired_and_emits_expired() {
        let t = transition(Pending, DeadlinePassed).unwrap();
        assert_eq!(t.next, Expired);
        assert!(!t.grants_access);
        assert_eq!(t.ledger, LedgerEffect::None);
        assert_eq!(t.event, Some(InvoiceEvent::PaymentExpired));
    }

    #[test]
    fn pending_failed_attempt_becomes_failed_without_event() {
        assert_eq!(
            transition(Pending, AttemptFailed),
            Ok(InvoiceTransition { next: Failed, grants_access: false, ledger: LedgerEffect::None, event: None })
        );
    }

    #[test]
    fn every_gateway_state_maps_to_an_outcome_the_payment_table_allows_or_to_nothing() {
        let states = [
            GatewayState::Pending,
            GatewayState::Succeeded,
            GatewayState::Expired,
            GatewayState::Declined,
            GatewayState::Refunded,
        ];
        for state in states {
            for status in InvoiceStatus::ALL {
                if let Some(outcome) = outcome_of_gateway_state(state, status) {
                    assert!(transition(status, outcome).is_ok(), "{state:?} on {status} gives a refused {outcome:?}");
                }
            }
        }
        assert_eq!(outcome_of_gateway_state(GatewayState::Pending, Pending), None);
        assert_eq!(outcome_of_gateway_state(GatewayState::Succeeded, Expired), Some(Paid), "a late payment succeeds");
        assert_eq!(outcome_of_gateway_state(GatewayState::Succeeded, Succeeded), None, "already applied");
        assert_eq!(outcome_of_gateway_state(GatewayState::Expired, Pending), Some(DeadlinePassed));
        assert_eq!(outcome_of_gateway_state(GatewayState::Declined, Pending), Some(AttemptFailed));
        assert_eq!(outcome_of_gateway_state(GatewayState::Declined, Expired), None, "no expired -> failed row");
        assert_eq!(outcome_of_gateway_state(GatewayState::Refunded, Succeeded), Some(BankRecall), "a full refund");
        assert_eq!(outcome_of_gateway_state(GatewayState::Refunded, Failed), None, "recalled once");
        assert!(!GatewayState::Pending.is_final() && GatewayState::Refunded.is_final());
    }

    #[test]
    fn only_a_pending_or_expired_invoice_may_still_be_paid() {
        let payable: Vec<InvoiceStatus> = InvoiceStatus::ALL.into_iter().filter(|s| s.may_be_paid()).collect();
        assert_eq!(payable, [Pending, Expired]);
        for status in InvoiceStatus::ALL {
            assert_eq!(status.may_be_paid(), transition(status, Paid).is_ok(), "{status}: the payment table's rows");
        }
    }

    #[test]
    fn late_payment_after_expiry_succeeds_and_emits_succeeded() {
        let t = transition(Expired, Paid).unwrap();
        assert_eq!(t.next, Succeeded);
        assert!(t.grants_access);
        assert_eq!(t.event, Some(InvoiceEvent::PaymentSucceeded));
    }

    #[test]
    fn bank_recall_turns_succeeded_into_failed_and_reverses_the_share() {
        let t = transition(Succeeded, BankRecall).unwrap();
        assert_eq!(t.next, Failed);
        assert_eq!(t.ledger, LedgerEffect::ReversePartnerShare);
        assert_eq!(t.event, None);
    }

    #[test]
    fn every_other_transition_is_refused() {
        let allowed = [
            (Pending, Paid),
            (Pending, DeadlinePassed),
            (Pending, AttemptFailed),
            (Expired, Paid),
            (Succeeded, BankRecall),
        ];
        for from in InvoiceStatus::ALL {
            for outcome in PaymentOutcome::ALL {
                let result = transition(from, outcome);
                assert_eq!(result.is_ok(), allowed.contains(&(from, outcome)), "{from:?} on {outcome:?}");
            }
        }
    }

    #[test]
    fn a_repeated_outcome_is_recognised_as_already_applied() {
        assert!(outcome_already_applied(Succeeded, Paid));
        assert!(outcome_already_applied(Expired, DeadlinePassed));
        assert!(outcome_already_applied(Failed, AttemptFailed));
        assert!(outcome_already_applied(Failed, BankRecall));
        assert!(!outcome_already_applied(Expired, Paid), "a late payment is a real transition");
        assert!(!outcome_already_applied(Pending, Paid));
        for from in InvoiceStatus::ALL {
            for outcome in PaymentOutcome::ALL {
                assert!(
                    !(outcome_already_applied(from, outcome) && transition(from, outcome).is_ok()),
                    "{from:?} {outcome:?}"
                );
            }
        }
    }

    #[test]
    fn payment_url_only_while_pending_and_client_only_when_succeeded() {
        assert!(shows_payment_url(Pending));
        assert!(!shows_payment_url(Succeeded) && !shows_payment_url(Expired) && !shows_payment_url(Failed));
        assert!(shows_client(Succeeded));
        assert!(!shows_client(Expired) && !shows_client(Pending) && !shows_client(Failed));
    }

    #[test]
    fn deadline_is_thirty_minutes_after_creation() {
        let created = time::macros::datetime!(2026-01-01 12:00 UTC);
        assert_eq!(payment_deadline(created), time::macros::datetime!(2026-01-01 12:30 UTC));
    }

    #[test]
    fn statuses_round_trip_through_their_names() {
        for s in InvoiceStatus::ALL {
            assert_eq!(s.as_str().parse::<InvoiceStatus>(), Ok(s));
        }
        assert!("paid".parse::<InvoiceStatus>().is_err());
    }

    fn outcome() -> impl Strategy<Value = PaymentOutcome> {
        prop::sample::select(PaymentOutcome::ALL.to_vec())
    }

    proptest! {
        /// Over any sequence of outcomes: the share is credited at most once more than it is
        /// reversed, failed and succeeded invoices never return to pending, and access is granted
        /// at most once per succeeded stay.
        #[test]
        fn random_outcome_sequences_keep_the_ledger_balanced(outcomes in prop::collection::vec(outcome(), 0..30)) {
            let mut status = Pending;
            let mut credited: i32 = 0;
            for o in outcomes {
                if let Ok(t) = transition(status, o) {
                    match t.ledger {
                        LedgerEffect::CreditPartnerShare => credited += 1,
                        LedgerEffect::ReversePartnerShare => credited -= 1,
                        LedgerEffect::None => {}
                    }
                    prop_assert_ne!(t.next, Pending);
                    status = t.next;
                }
                prop_assert!(credited == 0 || credited == 1);
                prop_assert_eq!(credited == 1, status == Succeeded);
            }
        }
    }
}
