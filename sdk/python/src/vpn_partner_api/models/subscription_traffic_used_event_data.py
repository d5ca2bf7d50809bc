from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.subscription_traffic_used_event_data_threshold_percent import (
    SubscriptionTrafficUsedEventDataThresholdPercent,
)

if TYPE_CHECKING:
    from ..models.client import Client


T = TypeVar("T", bound="SubscriptionTrafficUsedEventData")


@_attrs_define
class SubscriptionTrafficUsedEventData:
    """
    Attributes:
        client (Client):
        counted_since (datetime.datetime): ISO 8601 in UTC, whole seconds.
        threshold_percent (SubscriptionTrafficUsedEventDataThresholdPercent):
        used_bytes (int): The traffic used in this count when the check saw it, in bytes.
    """

    client: Client
    counted_since: datetime.datetime
    threshold_percent: SubscriptionTrafficUsedEventDataThresholdPercent
    used_bytes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client = self.client.to_dict()

        counted_since = self.counted_since.isoformat()

        threshold_percent = self.threshold_percent.value

        used_bytes = self.used_bytes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client": client,
                "counted_since": counted_since,
                "threshold_percent": threshold_percent,
                "used_bytes": used_bytes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client import Client

        d = dict(src_dict)
        client = Client.from_dict(d.pop("client"))

        counted_since = datetime.datetime.fromisoformat(d.pop("counted_since"))

        threshold_percent = SubscriptionTrafficUsedEventDataThresholdPercent(
            d.pop("threshold_percent")
        )

        used_bytes = d.pop("used_bytes")

        subscription_traffic_used_event_data = cls(
            client=client,
            counted_since=counted_since,
            threshold_percent=threshold_percent,
            used_bytes=used_bytes,
        )

        subscription_traffic_used_event_data.additional_properties = d
        return subscription_traffic_used_event_data

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
