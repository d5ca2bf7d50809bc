from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.subscription_traffic_used_event_data import (
        SubscriptionTrafficUsedEventData,
    )


T = TypeVar("T", bound="SubscriptionTrafficUsedEvent")


@_attrs_define
class SubscriptionTrafficUsedEvent:
    """The body of a `subscription.traffic_used` event.

    Attributes:
        data (SubscriptionTrafficUsedEventData):
        timestamp (datetime.datetime): When the event happened: ISO 8601 in UTC with microseconds.
        type_ (Literal['subscription.traffic_used']):
    """

    data: SubscriptionTrafficUsedEventData
    timestamp: datetime.datetime
    type_: Literal["subscription.traffic_used"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        timestamp = self.timestamp.isoformat()

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "timestamp": timestamp,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription_traffic_used_event_data import (
            SubscriptionTrafficUsedEventData,
        )

        d = dict(src_dict)
        data = SubscriptionTrafficUsedEventData.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = cast(Literal["subscription.traffic_used"], d.pop("type"))
        if type_ != "subscription.traffic_used":
            raise ValueError(
                f"type must match const 'subscription.traffic_used', got '{type_}'"
            )

        subscription_traffic_used_event = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        subscription_traffic_used_event.additional_properties = d
        return subscription_traffic_used_event

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
