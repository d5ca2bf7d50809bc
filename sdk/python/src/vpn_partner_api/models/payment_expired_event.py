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
    from ..models.payment import Payment


T = TypeVar("T", bound="PaymentExpiredEvent")


@_attrs_define
class PaymentExpiredEvent:
    """The body of a `payment.expired` event.

    Attributes:
        data (Payment):
        timestamp (datetime.datetime): When the event happened: ISO 8601 in UTC with microseconds.
        type_ (Literal['payment.expired']):
    """

    data: Payment
    timestamp: datetime.datetime
    type_: Literal["payment.expired"]
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
        from ..models.payment import Payment

        d = dict(src_dict)
        data = Payment.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = cast(Literal["payment.expired"], d.pop("type"))
        if type_ != "payment.expired":
            raise ValueError(f"type must match const 'payment.expired', got '{type_}'")

        payment_expired_event = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        payment_expired_event.additional_properties = d
        return payment_expired_event

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
