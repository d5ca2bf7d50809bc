from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.subscription_status import SubscriptionStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.connect import Connect
    from ..models.traffic_limit import TrafficLimit


T = TypeVar("T", bound="Subscription")


@_attrs_define
class Subscription:
    """
    Attributes:
        auto_renew (bool): Automatic renewal is on: the customer consented when paying, and the saved payment
            method is charged a day before the term ends. Turned off by the customer or by support.
        connect (list[Connect]):
        days_left (int):
        expires_at (datetime.datetime): ISO 8601 in UTC, whole seconds.
        is_trial (bool):
        lifetime (bool): A lifetime plan: `expires_at` is 9999-12-31T23:59:59Z and never passes.
        status (SubscriptionStatus):
        subscription_url (str): Unchanged by renewal; replaced by link rotation.
        devices_limit (int | None | Unset): `null`: no device limit.
        traffic_limit (None | TrafficLimit | Unset):
    """

    auto_renew: bool
    connect: list[Connect]
    days_left: int
    expires_at: datetime.datetime
    is_trial: bool
    lifetime: bool
    status: SubscriptionStatus
    subscription_url: str
    devices_limit: int | None | Unset = UNSET
    traffic_limit: None | TrafficLimit | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.traffic_limit import TrafficLimit

        auto_renew = self.auto_renew

        connect = []
        for connect_item_data in self.connect:
            connect_item = connect_item_data.to_dict()
            connect.append(connect_item)

        days_left = self.days_left

        expires_at = self.expires_at.isoformat()

        is_trial = self.is_trial

        lifetime = self.lifetime

        status = self.status.value

        subscription_url = self.subscription_url

        devices_limit: int | None | Unset
        if isinstance(self.devices_limit, Unset):
            devices_limit = UNSET
        else:
            devices_limit = self.devices_limit

        traffic_limit: dict[str, Any] | None | Unset
        if isinstance(self.traffic_limit, Unset):
            traffic_limit = UNSET
        elif isinstance(self.traffic_limit, TrafficLimit):
            traffic_limit = self.traffic_limit.to_dict()
        else:
            traffic_limit = self.traffic_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "auto_renew": auto_renew,
                "connect": connect,
                "days_left": days_left,
                "expires_at": expires_at,
                "is_trial": is_trial,
                "lifetime": lifetime,
                "status": status,
                "subscription_url": subscription_url,
            }
        )
        if devices_limit is not UNSET:
            field_dict["devices_limit"] = devices_limit
        if traffic_limit is not UNSET:
            field_dict["traffic_limit"] = traffic_limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connect import Connect
        from ..models.traffic_limit import TrafficLimit

        d = dict(src_dict)
        auto_renew = d.pop("auto_renew")

        connect = []
        _connect = d.pop("connect")
        for connect_item_data in _connect:
            connect_item = Connect.from_dict(connect_item_data)

            connect.append(connect_item)

        days_left = d.pop("days_left")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        is_trial = d.pop("is_trial")

        lifetime = d.pop("lifetime")

        status = SubscriptionStatus(d.pop("status"))

        subscription_url = d.pop("subscription_url")

        def _parse_devices_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        devices_limit = _parse_devices_limit(d.pop("devices_limit", UNSET))

        def _parse_traffic_limit(data: object) -> None | TrafficLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                traffic_limit_type_1 = TrafficLimit.from_dict(data)

                return traffic_limit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrafficLimit | Unset, data)

        traffic_limit = _parse_traffic_limit(d.pop("traffic_limit", UNSET))

        subscription = cls(
            auto_renew=auto_renew,
            connect=connect,
            days_left=days_left,
            expires_at=expires_at,
            is_trial=is_trial,
            lifetime=lifetime,
            status=status,
            subscription_url=subscription_url,
            devices_limit=devices_limit,
            traffic_limit=traffic_limit,
        )

        subscription.additional_properties = d
        return subscription

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
