//! The partner balance ledger and withdrawal requests. Every change of a balance is one
//! ledger entry; the balance is their sum.

use crate::Cursor;
use time::OffsetDateTime;
use vp_domain::Money;
use vp_domain::withdrawal::{Movement, WithdrawalStatus};
use vp_domain::{AccountId, WithdrawalId};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LedgerKind {
    /// A paid invoice's `partner_share`.
    PartnerShareCredit,
    /// The same share taken back when the payment was recalled or refunded.
    PartnerShareReversal,
    /// A withdrawal request holds its amount.
    WithdrawalHold,
    /// The operator approved a request (the amount stays held).
    WithdrawalApproval,
    /// A rejected request gives its hold back.
    WithdrawalRelease,
    /// A request was paid out: the held amount leaves the balance.
    WithdrawalPayout,
}

impl LedgerKind {
    pub const ALL: [LedgerKind; 6] = [
        Self::PartnerShareCredit,
        Self::PartnerShareReversal,
        Self::WithdrawalHold,
        Self::WithdrawalApproval,
        Self::WithdrawalRelease,
        Self::WithdrawalPayout,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::PartnerShareCredit => "partner_share_credit",
            Self::PartnerShareReversal => "partner_share_reversal",
            Self::WithdrawalHold => "withdrawal_hold",
            Self::WithdrawalApproval => "withdrawal_approval",
            Self::WithdrawalRelease => "withdrawal_release",
            Self::WithdrawalPayout => "withdrawal_payout",
        }
    }

    pub fn parse(text: &str) -> Option<LedgerKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// What a ledger entry is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerSubject {
    /// An invoice, by its `payment_id`.
    Invoice(String),
    /// A withdrawal request, by its id.
    Withdrawal(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    pub id: String,
    pub account_id: AccountId,
    pub subject: LedgerSubject,
    pub kind: LedgerKind,
    /// Signed change of the available balance (credits positive, reversals and holds negative).
    pub amount: Money,
    /// Signed change of the amount held by open withdrawal requests.
    pub held: Money,
    pub created_at: OffsetDateTime,
}

impl LedgerEntry {
    pub fn movement(&self) -> Movement {
        Movement { available: self.amount, held: self.held }
    }
}

/// A partner's request to be paid out part of the balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithdrawalRecord {
    pub id: WithdrawalId,
    pub account_id: AccountId,
    pub amount: Money,
    /// Where to pay, as the partner wrote it.
    pub payout_details: String,
    pub status: WithdrawalStatus,
    /// The operator's note on the last step.
    pub note: Option<String>,
    /// The cabinet user's email at the time of the request.
    pub requested_by: String,
    pub created_at: OffsetDateTime,
    /// When the last step was taken.
    pub updated_at: OffsetDateTime,
}

/// Which withdrawal requests to list, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WithdrawalFilter {
    /// One account's, or every account's (the operator's list).
    pub account_id: Option<AccountId>,
    pub status: Option<WithdrawalStatus>,
    /// Strictly before this `(created_at, id)`.
    pub before: Option<Cursor>,
    pub limit: u32,
}
