//! What the account's activity records (the cabinet's Activity page): each action a cabinet
//! user or the platform's operator took on the account, by the code it is stored under.

use std::fmt;
use std::str::FromStr;

use crate::invoice::UnknownValue;

/// An action of the account's activity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AuditAction {
    UserInvited,
    UserResetLink,
    UserRevoked,
    PasswordSet,
    SignedIn,
    SignedOut,
    BrandRenamed,
    EndpointAdded,
    EndpointTypesChanged,
    EndpointEnabled,
    EndpointDisabled,
    EndpointSecretRevealed,
    EndpointSecretRotated,
    EndpointTested,
    EndpointReplayed,
    WithdrawalRequested,
    WithdrawalApproved,
    WithdrawalRejected,
    WithdrawalPaid,
    ChatLinked,
    ChatUnlinked,
    BotConnected,
    BotDisconnected,
    BotTokenReplaced,
    RenewalLinkSet,
    AutoRenewOff,
    PromoCreated,
    PromoDisabled,
    ReferralsSet,
    BroadcastSent,
    BroadcastPaused,
    BroadcastResumed,
    BroadcastCancelled,
    StarsRateSet,
    GiftRefunded,
}

impl AuditAction {
    pub const ALL: [AuditAction; 35] = [
        AuditAction::UserInvited,
        AuditAction::UserResetLink,
        AuditAction::UserRevoked,
        AuditAction::PasswordSet,
        AuditAction::SignedIn,
        AuditAction::SignedOut,
        AuditAction::BrandRenamed,
        AuditAction::EndpointAdded,
        AuditAction::EndpointTypesChanged,
        AuditAction::EndpointEnabled,
        AuditAction::EndpointDisabled,
        AuditAction::EndpointSecretRevealed,
        AuditAction::EndpointSecretRotated,
        AuditAction::EndpointTested,
        AuditAction::EndpointReplayed,
        AuditAction::WithdrawalRequested,
        AuditAction::WithdrawalApproved,
        AuditAction::WithdrawalRejected,
        AuditAction::WithdrawalPaid,
        AuditAction::ChatLinked,
        AuditAction::ChatUnlinked,
        AuditAction::BotConnected,
        AuditAction::BotDisconnected,
        AuditAction::BotTokenReplaced,
        AuditAction::RenewalLinkSet,
        AuditAction::AutoRenewOff,
        AuditAction::PromoCreated,
        AuditAction::PromoDisabled,
        AuditAction::ReferralsSet,
        AuditAction::BroadcastSent,
        AuditAction::BroadcastPaused,
        AuditAction::BroadcastResumed,
        AuditAction::BroadcastCancelled,
        AuditAction::StarsRateSet,
        AuditAction::GiftRefunded,
    ];

    /// The code it is stored under, e.g. `endpoint.added`.
    pub const fn as_str(self) -> &'static str {
        match self {
            AuditAction::UserInvited => "user.invited",
            AuditAction::UserResetLink => "user.reset_link_issued",
            AuditAction::UserRevoked => "user.revoked",
            AuditAction::PasswordSet => "user.password_set",
            AuditAction::SignedIn => "user.signed_in",
            AuditAction::SignedOut => "user.signed_out",
            AuditAction::BrandRenamed => "account.brand_renamed",
            AuditAction::EndpointAdded => "endpoint.added",
            AuditAction::EndpointTypesChanged => "endpoint.types_changed",
            AuditAction::EndpointEnabled => "endpoint.enabled",
            AuditAction::EndpointDisabled => "endpoint.disabled",
            AuditAction::EndpointSecretRevealed => "endpoint.secret_revealed",
            AuditAction::EndpointSecretRotated => "endpoint.secret_rotated",
            AuditAction::EndpointTested => "endpoint.tested",
            AuditAction::EndpointReplayed => "endpoint.replayed",
            AuditAction::WithdrawalRequested => "withdrawal.requested",
            AuditAction::WithdrawalApproved => "withdrawal.approved",
            AuditAction::WithdrawalRejected => "withdrawal.rejected",
            AuditAction::WithdrawalPaid => "withdrawal.paid",
            AuditAction::ChatLinked => "chat.linked",
            AuditAction::ChatUnlinked => "chat.unlinked",
            AuditAction::BotConnected => "bot.connected",
            AuditAction::BotDisconnected => "bot.disconnected",
            AuditAction::BotTokenReplaced => "bot.token_replaced",
            AuditAction::RenewalLinkSet => "bot.renewal_link_set",
            AuditAction::AutoRenewOff => "client.auto_renew_off",
            AuditAction::PromoCreated => "promo.created",
            AuditAction::PromoDisabled => "promo.disabled",
            AuditAction::ReferralsSet => "referrals.set",
            AuditAction::BroadcastSent => "broadcast.sent",
            AuditAction::BroadcastPaused => "broadcast.paused",
            AuditAction::BroadcastResumed => "broadcast.resumed",
            AuditAction::BroadcastCancelled => "broadcast.cancelled",
            AuditAction::StarsRateSet => "account.stars_rate_set",
            AuditAction::GiftRefunded => "gift.refunded",
        }
    }
}

impl fmt::Display for AuditAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for AuditAction {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AuditAction::ALL.into_iter().find(|a| a.as_str() == s).ok_or_else(|| UnknownValue(s.to_owned()))
    }
}

/// What the platform's operators did, as `operator_audit` keeps it: getting in, and each page
/// of the operator's view they opened (with what it showed in the entry's detail).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OperatorAction {
    Invited,
    ResetLink,
    Revoked,
    PasswordSet,
    SignedIn,
    SignedOut,
    ViewedSales,
    ViewedLedger,
    ViewedActivity,
}

impl OperatorAction {
    pub const ALL: [OperatorAction; 9] = [
        OperatorAction::Invited,
        OperatorAction::ResetLink,
        OperatorAction::Revoked,
        OperatorAction::PasswordSet,
        OperatorAction::SignedIn,
        OperatorAction::SignedOut,
        OperatorAction::ViewedSales,
        OperatorAction::ViewedLedger,
        OperatorAction::ViewedActivity,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            OperatorAction::Invited => "operator.invited",
            OperatorAction::ResetLink => "operator.reset_link",
            OperatorAction::Revoked => "operator.revoked",
            OperatorAction::PasswordSet => "operator.password_set",
            OperatorAction::SignedIn => "operator.signed_in",
            OperatorAction::SignedOut => "operator.signed_out",
            OperatorAction::ViewedSales => "operator.viewed_sales",
            OperatorAction::ViewedLedger => "operator.viewed_ledger",
            OperatorAction::ViewedActivity => "operator.viewed_activity",
        }
    }
}

impl FromStr for OperatorAction {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OperatorAction::ALL.into_iter().find(|a| a.as_str() == s).ok_or_else(|| UnknownValue(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_action_reads_back_from_its_code_and_none_is_a_cabinet_action() {
        for action in OperatorAction::ALL {
            assert_eq!(action.as_str().parse::<OperatorAction>(), Ok(action));
            assert!(action.as_str().parse::<AuditAction>().is_err(), "{action:?}");
        }
    }

    #[test]
    fn every_action_reads_back_from_its_code_and_no_two_share_one() {
        for action in AuditAction::ALL {
            assert_eq!(action.as_str().parse::<AuditAction>(), Ok(action));
        }
        let mut codes: Vec<&str> = AuditAction::ALL.iter().map(|a| a.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), AuditAction::ALL.len());
    }

    #[test]
    fn an_unknown_code_is_an_error_not_a_default() {
        assert_eq!("endpoint.exploded".parse::<AuditAction>(), Err(UnknownValue("endpoint.exploded".into())));
    }
}
