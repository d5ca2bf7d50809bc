"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .account_update import AccountUpdate
from .application import Application
from .apps import Apps
from .apps_downloads import AppsDownloads
from .client import Client
from .client_list import ClientList
from .client_status_filter import ClientStatusFilter
from .connect import Connect
from .device import Device
from .devices import Devices
from .devices_offer import DevicesOffer
from .document import Document
from .documents import Documents
from .download import Download
from .envelope import Envelope
from .error_body import ErrorBody
from .error_body_fields_type_0 import ErrorBodyFieldsType0
from .error_code import ErrorCode
from .payment import Payment
from .payment_create_devices import PaymentCreateDevices
from .payment_create_devices_purpose import PaymentCreateDevicesPurpose
from .payment_create_subscription import PaymentCreateSubscription
from .payment_create_subscription_purpose import PaymentCreateSubscriptionPurpose
from .payment_expired_event import PaymentExpiredEvent
from .payment_method import PaymentMethod
from .payment_methods import PaymentMethods
from .payment_promo import PaymentPromo
from .payment_status import PaymentStatus
from .payment_succeeded_event import PaymentSucceededEvent
from .plan import Plan
from .plans import Plans
from .platform import Platform
from .purpose import Purpose
from .subscription import Subscription
from .subscription_expired_event import SubscriptionExpiredEvent
from .subscription_expired_event_data import SubscriptionExpiredEventData
from .subscription_expiring_event import SubscriptionExpiringEvent
from .subscription_expiring_event_data import SubscriptionExpiringEventData
from .subscription_expiring_event_data_threshold_hours import (
    SubscriptionExpiringEventDataThresholdHours,
)
from .subscription_status import SubscriptionStatus
from .subscription_traffic_used_event import SubscriptionTrafficUsedEvent
from .subscription_traffic_used_event_data import SubscriptionTrafficUsedEventData
from .subscription_traffic_used_event_data_threshold_percent import (
    SubscriptionTrafficUsedEventDataThresholdPercent,
)
from .traffic_limit import TrafficLimit
from .traffic_reset import TrafficReset
from .webhook_test_event import WebhookTestEvent
from .webhook_test_event_data import WebhookTestEventData

__all__ = (
    "Account",
    "AccountUpdate",
    "Application",
    "Apps",
    "AppsDownloads",
    "Client",
    "ClientList",
    "ClientStatusFilter",
    "Connect",
    "Device",
    "Devices",
    "DevicesOffer",
    "Document",
    "Documents",
    "Download",
    "Envelope",
    "ErrorBody",
    "ErrorBodyFieldsType0",
    "ErrorCode",
    "Payment",
    "PaymentCreateDevices",
    "PaymentCreateDevicesPurpose",
    "PaymentCreateSubscription",
    "PaymentCreateSubscriptionPurpose",
    "PaymentExpiredEvent",
    "PaymentMethod",
    "PaymentMethods",
    "PaymentPromo",
    "PaymentStatus",
    "PaymentSucceededEvent",
    "Plan",
    "Plans",
    "Platform",
    "Purpose",
    "Subscription",
    "SubscriptionExpiredEvent",
    "SubscriptionExpiredEventData",
    "SubscriptionExpiringEvent",
    "SubscriptionExpiringEventData",
    "SubscriptionExpiringEventDataThresholdHours",
    "SubscriptionStatus",
    "SubscriptionTrafficUsedEvent",
    "SubscriptionTrafficUsedEventData",
    "SubscriptionTrafficUsedEventDataThresholdPercent",
    "TrafficLimit",
    "TrafficReset",
    "WebhookTestEvent",
    "WebhookTestEventData",
)
