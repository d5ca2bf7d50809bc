//! Device slots (spec: POST /payments rules 2 to 5, Plans response `devices`).

use thiserror::Error;
use time::OffsetDateTime;

use crate::money::Money;
use crate::subscription::Subscription;

/// A subscription's device limit: `included + purchased`, or none at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceLimit {
    Unlimited,
    Limited { included: u32, purchased: u32 },
}

impl DeviceLimit {
    /// `devices_limit` as the API shows it: `None` means no limit.
    pub fn limit(self) -> Option<u32> {
        match self {
            DeviceLimit::Unlimited => None,
            DeviceLimit::Limited { included, purchased } => Some(included.saturating_add(purchased)),
        }
    }

    /// Slots bought by a paid devices invoice. Purchased slots stay with the subscription across
    /// renewals; on an unlimited subscription they change nothing.
    pub fn add_purchased(self, count: u32) -> DeviceLimit {
        match self {
            DeviceLimit::Unlimited => DeviceLimit::Unlimited,
            DeviceLimit::Limited { included, purchased } => {
                DeviceLimit::Limited { included, purchased: purchased.saturating_add(count) }
            }
        }
    }
}

/// The platform's device settings. `included` applies to every new subscription of a plan with
/// a device limit, whether or not extra devices are on sale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceSettings {
    pub included: u32,
    /// Ceiling of devices per client (`devices.max`).
    pub max: u32,
    /// Platform price per added device; `None` means extra devices are not sold now.
    pub platform_price: Option<Money>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DeviceSettingsError {
    #[error("included must be at least 1 and not above max")]
    IncludedAboveMax,
    #[error("the price per device must be greater than zero")]
    PriceNotPositive,
}

impl DeviceSettings {
    pub fn new(included: u32, max: u32, platform_price: Option<Money>) -> Result<Self, DeviceSettingsError> {
        if included == 0 || included > max {
            return Err(DeviceSettingsError::IncludedAboveMax);
        }
        if platform_price.is_some_and(|p| !p.is_positive()) {
            return Err(DeviceSettingsError::PriceNotPositive);
        }
        Ok(DeviceSettings { included, max, platform_price })
    }

    /// The limit a new subscription starts with.
    pub fn initial_limit(&self, plan_has_device_limit: bool) -> DeviceLimit {
        if plan_has_device_limit {
            DeviceLimit::Limited { included: self.included, purchased: 0 }
        } else {
            DeviceLimit::Unlimited
        }
    }
}

/// Why a devices invoice cannot be issued; each maps to one error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DevicePurchaseRefused {
    #[error("extra devices need an active subscription")]
    NoActiveSubscription,
    #[error("the client's devices are unlimited")]
    NotApplicable,
    #[error("extra devices are not sold now")]
    NotForSale,
    #[error("the client would exceed the device ceiling of {max}")]
    LimitExceeded { max: u32 },
}

/// The most devices a purchase can add now: rules 2 to 5 of `POST /payments` for
/// `purpose = devices` without a count, checked in this order: a subscription must be active;
/// an unlimited one needs no slots; the offer must be on sale (without device settings nothing
/// is); the room is what is left under `devices.max`, perhaps 0. Everything that offers devices
/// (the API, the bot's shop, pages) asks this, so no offer is made that the invoice refuses.
pub fn devices_for_sale(
    subscription: Option<&Subscription>,
    settings: Option<&DeviceSettings>,
    now: OffsetDateTime,
) -> Result<u32, DevicePurchaseRefused> {
    let sub = subscription.filter(|s| s.is_active_at(now)).ok_or(DevicePurchaseRefused::NoActiveSubscription)?;
    let current = sub.devices.limit().ok_or(DevicePurchaseRefused::NotApplicable)?;
    let settings = settings.filter(|s| s.platform_price.is_some()).ok_or(DevicePurchaseRefused::NotForSale)?;
    Ok(settings.max.saturating_sub(current))
}

/// Rules 2 to 5 for a purchase of `count` devices: refused by the first rule of
/// `devices_for_sale` that fails, or when the total would exceed `devices.max`.
pub fn check_device_purchase(
    subscription: Option<&Subscription>,
    settings: Option<&DeviceSettings>,
    count: u32,
    now: OffsetDateTime,
) -> Result<(), DevicePurchaseRefused> {
    let room = devices_for_sale(subscription, settings, now)?;
    if count > room {
        let max = settings.map_or(0, |s| s.max);
        return Err(DevicePurchaseRefused::LimitExceeded { max });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subscription::Term;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-01-15 10:00 UTC);

    fn on_sale() -> DeviceSettings {
        DeviceSettings::new(3, 5, Some(Money::from_kopecks(5000))).unwrap()
    }

    fn active(limit: DeviceLimit) -> Subscription {
        Subscription::activate(Term::Months(1), limit, NOW)
    }

    #[test]
    fn limit_is_included_plus_purchased_and_unlimited_has_none() {
        assert_eq!(DeviceLimit::Limited { included: 3, purchased: 2 }.limit(), Some(5));
        assert_eq!(DeviceLimit::Unlimited.limit(), None);
        assert_eq!(DeviceLimit::Limited { included: 3, purchased: 0 }.add_purchased(2).limit(), Some(5));
        assert_eq!(DeviceLimit::Unlimited.add_purchased(2), DeviceLimit::Unlimited);
    }

    #[test]
    fn devices_need_an_active_subscription() {
        let s = on_sale();
        assert_eq!(check_device_purchase(None, Some(&s), 1, NOW), Err(DevicePurchaseRefused::NoActiveSubscription));
        let sub = active(s.initial_limit(true));
        let later = datetime!(2026-06-01 00:00 UTC);
        assert_eq!(
            check_device_purchase(Some(&sub), Some(&s), 1, later),
            Err(DevicePurchaseRefused::NoActiveSubscription)
        );
        let mut suspended = sub.clone();
        suspended.suspend(NOW).unwrap();
        assert_eq!(
            check_device_purchase(Some(&suspended), Some(&s), 1, NOW),
            Err(DevicePurchaseRefused::NoActiveSubscription)
        );
    }

    #[test]
    fn total_devices_cannot_exceed_the_ceiling() {
        let s = on_sale();
        let sub = active(s.initial_limit(true));
        assert_eq!(check_device_purchase(Some(&sub), Some(&s), 2, NOW), Ok(()));
        assert_eq!(
            check_device_purchase(Some(&sub), Some(&s), 3, NOW),
            Err(DevicePurchaseRefused::LimitExceeded { max: 5 })
        );
        assert_eq!(
            check_device_purchase(Some(&sub), Some(&s), u32::MAX, NOW),
            Err(DevicePurchaseRefused::LimitExceeded { max: 5 })
        );
    }

    #[test]
    fn unlimited_plans_are_not_applicable() {
        let s = on_sale();
        let sub = active(s.initial_limit(false));
        assert_eq!(check_device_purchase(Some(&sub), Some(&s), 1, NOW), Err(DevicePurchaseRefused::NotApplicable));
    }

    #[test]
    fn no_offer_means_not_for_sale() {
        let s = DeviceSettings::new(3, 5, None).unwrap();
        let sub = active(s.initial_limit(true));
        assert_eq!(check_device_purchase(Some(&sub), Some(&s), 1, NOW), Err(DevicePurchaseRefused::NotForSale));
    }

    #[test]
    fn without_device_settings_nothing_is_for_sale() {
        let sub = active(DeviceLimit::Limited { included: 3, purchased: 0 });
        assert_eq!(check_device_purchase(Some(&sub), None, 1, NOW), Err(DevicePurchaseRefused::NotForSale));
    }

    #[test]
    fn the_room_for_sale_is_what_is_left_under_the_ceiling_and_only_on_an_active_subscription() {
        let s = on_sale();
        let mut sub = active(s.initial_limit(true));
        assert_eq!(devices_for_sale(Some(&sub), Some(&s), NOW), Ok(2));
        sub.devices = sub.devices.add_purchased(2);
        assert_eq!(devices_for_sale(Some(&sub), Some(&s), NOW), Ok(0), "at the ceiling: nothing left to offer");
        let ended = datetime!(2026-06-01 00:00 UTC);
        assert_eq!(
            devices_for_sale(Some(&active(s.initial_limit(true))), Some(&s), ended),
            Err(DevicePurchaseRefused::NoActiveSubscription),
            "an ended subscription is offered no devices"
        );
    }

    #[test]
    fn settings_keep_included_within_max_and_prices_positive() {
        assert_eq!(DeviceSettings::new(6, 5, None), Err(DeviceSettingsError::IncludedAboveMax));
        assert_eq!(DeviceSettings::new(0, 5, None), Err(DeviceSettingsError::IncludedAboveMax));
        assert_eq!(DeviceSettings::new(1, 5, Some(Money::ZERO)), Err(DeviceSettingsError::PriceNotPositive));
    }
}
