//! The partner API's rules as plain Rust: no I/O, no async runtime, no framework types.
//! Every rule of the spec is stated once here and tested in the words of the spec.

pub mod adoption;
pub mod audit;
pub mod backoff;
pub mod broadcast;
pub mod cabinet;
pub mod devices;
pub mod event_types;
pub mod gift;
pub mod identifiers;
pub mod ids;
pub mod invoice;
pub mod lang;
pub mod limits;
pub mod managed_bot;
pub mod markup;
pub mod money;
pub mod promo;
pub mod rail;
pub mod rate_window;
pub mod receipt;
pub mod referral;
pub mod renewal;
pub mod sales;
pub mod saving;
pub mod several;
pub mod shop;
pub mod shop_sign_in;
pub mod stars;
pub mod subscription;
pub mod term_events;
pub mod time_zone;
pub mod traffic;
pub mod webhook_schedule;
pub mod withdrawal;

pub use devices::{DeviceLimit, DevicePurchaseRefused, DeviceSettings, check_device_purchase, devices_for_sale};
pub use identifiers::{BrandName, ClientId, IdempotencyKey, IdempotencyKeyError, InvalidValue, MethodCode, ReturnUrl};
pub use ids::{
    AccountId, ApiKeyId, BroadcastId, CabinetUserId, ClientRef, EndpointId, EventId, InvalidId, MailId, OperatorId,
    PaymentId, WithdrawalId,
};
pub use invoice::{GatewayState, InvoiceRequest, InvoiceStatus, PaymentOutcome, Purpose};
pub use lang::Lang;
pub use markup::{MarkupPercent, PriceBreakdown};
pub use money::{CURRENCY, Money};
pub use rail::{GatewayName, GatewayRoute, Rail};
pub use subscription::{Subscription, SubscriptionError, SubscriptionStatus, Term};
pub use time_zone::{TimeZone, TimeZoneError};
