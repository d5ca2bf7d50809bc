from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.traffic_reset import TrafficReset

T = TypeVar("T", bound="TrafficLimit")


@_attrs_define
class TrafficLimit:
    """A limit on a subscription's traffic (docs/decisions.md, "Traffic limits").

    Attributes:
        bytes_ (int): Bytes per period; a plan's GB are 2^30 bytes each.
        reset (TrafficReset): When the traffic used starts again from zero: `no_reset` (only a renewal), `day`, `week`,
            `month` (the first of each month) or `month_rolling` (a month after the last reset).
    """

    bytes_: int
    reset: TrafficReset
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bytes_ = self.bytes_

        reset = self.reset.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bytes": bytes_,
                "reset": reset,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bytes_ = d.pop("bytes")

        reset = TrafficReset(d.pop("reset"))

        traffic_limit = cls(
            bytes_=bytes_,
            reset=reset,
        )

        traffic_limit.additional_properties = d
        return traffic_limit

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
