//! A user of an existing VPN panel taken over by an import: the subscription its state in the
//! panel makes, so that what the panel grants on the day of the import is what the client's
//! subscription says (docs/decisions.md, "Importing a panel's users").

use time::OffsetDateTime;

use crate::devices::DeviceLimit;
use crate::subscription::{LIFETIME_END, Subscription, SubscriptionStatus, TermReminders};
use crate::traffic::TrafficLimit;

/// What an existing panel user's access is, in the panel's terms (Remnawave's `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExistingAccess {
    Active,
    /// Turned off in the panel by hand.
    Disabled,
    /// Its traffic is used up for the period; the term still runs.
    Limited,
    Expired,
}

/// How many devices an existing panel user may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExistingDeviceLimit {
    Unlimited,
    Limited(u32),
    /// The panel's global default applies; its number is not told through the panel's API.
    PanelDefault,
}

impl ExistingDeviceLimit {
    /// The subscription's limit: the panel's own number as included devices, none bought;
    /// the panel's default becomes what a new subscription of the platform gets.
    pub fn resolve(self, new_subscription: DeviceLimit) -> DeviceLimit {
        match self {
            ExistingDeviceLimit::Unlimited => DeviceLimit::Unlimited,
            ExistingDeviceLimit::Limited(included) => DeviceLimit::Limited { included, purchased: 0 },
            ExistingDeviceLimit::PanelDefault => new_subscription,
        }
    }
}

/// Ends in or after this year are the panel's "never" (Remnawave shows no expiry for 2099).
const PANEL_NEVER_YEAR: i32 = 2099;

/// The subscription an adopted panel user has from `now`: a paid one (not a trial, whatever it
/// was sold as), ending when the panel's does, lifetime when the panel's never ends; a user
/// disabled by hand is suspended (`subscription resume` gives access back), an expired one or
/// one whose end has passed is expired; a user whose traffic is used up keeps an active term.
/// Its traffic limit is the panel's, and its term counts from when the panel last counted the
/// user's traffic from zero (`counted_since`), so adopting it resets nothing.
pub fn adopted_subscription(
    access: ExistingAccess,
    expires_at: OffsetDateTime,
    devices: DeviceLimit,
    traffic: Option<TrafficLimit>,
    counted_since: OffsetDateTime,
    now: OffsetDateTime,
) -> Subscription {
    let lifetime = expires_at.year() >= PANEL_NEVER_YEAR;
    let status = match access {
        ExistingAccess::Disabled => SubscriptionStatus::Suspended,
        ExistingAccess::Expired => SubscriptionStatus::Expired,
        ExistingAccess::Active | ExistingAccess::Limited if !lifetime && expires_at <= now => {
            SubscriptionStatus::Expired
        }
        ExistingAccess::Active | ExistingAccess::Limited => SubscriptionStatus::Active,
    };
    Subscription {
        status,
        is_trial: false,
        lifetime,
        expires_at: if lifetime { LIFETIME_END } else { expires_at },
        term_started_at: counted_since.min(now),
        devices,
        reminders: TermReminders::default(),
        link_rotated_at: None,
        traffic,
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-12-05 12:00 UTC);
    const THREE: DeviceLimit = DeviceLimit::Limited { included: 3, purchased: 0 };

    fn adopt(access: ExistingAccess, expires_at: OffsetDateTime) -> Subscription {
        adopted_subscription(access, expires_at, THREE, None, NOW - time::Duration::days(3), NOW)
    }

    #[test]
    fn an_adopted_user_keeps_the_access_the_panel_gives_it_today() {
        let later = datetime!(2027-01-05 12:00 UTC);
        let active = adopt(ExistingAccess::Active, later);
        assert_eq!((active.status, active.expires_at, active.is_trial), (SubscriptionStatus::Active, later, false));
        assert!(active.is_active_at(NOW));
        assert_eq!(active.term_started_at, NOW - time::Duration::days(3), "the panel's count goes on");
        assert_eq!(adopt(ExistingAccess::Limited, later).status, SubscriptionStatus::Active, "traffic is not the term");
        assert_eq!(adopt(ExistingAccess::Disabled, later).status, SubscriptionStatus::Suspended);
        assert_eq!(adopt(ExistingAccess::Expired, later).status, SubscriptionStatus::Expired);
        let ended = adopt(ExistingAccess::Active, datetime!(2026-12-01 00:00 UTC));
        assert_eq!(ended.status, SubscriptionStatus::Expired, "an end that passed is expired");
    }

    #[test]
    fn the_panels_never_is_a_lifetime_subscription() {
        let never = adopt(ExistingAccess::Active, datetime!(2099-12-31 23:59:59 UTC));
        assert!(never.lifetime);
        assert_eq!((never.expires_at, never.status), (LIFETIME_END, SubscriptionStatus::Active));
        assert!(!adopt(ExistingAccess::Active, datetime!(2098-12-31 00:00 UTC)).lifetime);
    }

    #[test]
    fn the_panels_device_limit_is_what_is_included_and_its_default_is_the_platforms() {
        assert_eq!(ExistingDeviceLimit::Limited(5).resolve(THREE), DeviceLimit::Limited { included: 5, purchased: 0 });
        assert_eq!(ExistingDeviceLimit::Unlimited.resolve(THREE), DeviceLimit::Unlimited);
        assert_eq!(ExistingDeviceLimit::PanelDefault.resolve(THREE), THREE);
    }
}
