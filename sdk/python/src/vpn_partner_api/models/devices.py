from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device import Device


T = TypeVar("T", bound="Devices")


@_attrs_define
class Devices:
    """
    Attributes:
        devices (list[Device]):
        devices_count (int):
        devices_limit (int | None | Unset): `null`: no limit.
    """

    devices: list[Device]
    devices_count: int
    devices_limit: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        devices = []
        for devices_item_data in self.devices:
            devices_item = devices_item_data.to_dict()
            devices.append(devices_item)

        devices_count = self.devices_count

        devices_limit: int | None | Unset
        if isinstance(self.devices_limit, Unset):
            devices_limit = UNSET
        else:
            devices_limit = self.devices_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "devices": devices,
                "devices_count": devices_count,
            }
        )
        if devices_limit is not UNSET:
            field_dict["devices_limit"] = devices_limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.device import Device

        d = dict(src_dict)
        devices = []
        _devices = d.pop("devices")
        for devices_item_data in _devices:
            devices_item = Device.from_dict(devices_item_data)

            devices.append(devices_item)

        devices_count = d.pop("devices_count")

        def _parse_devices_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        devices_limit = _parse_devices_limit(d.pop("devices_limit", UNSET))

        devices = cls(
            devices=devices,
            devices_count=devices_count,
            devices_limit=devices_limit,
        )

        devices.additional_properties = d
        return devices

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
