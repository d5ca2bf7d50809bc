from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.devices_offer import DevicesOffer
    from ..models.plan import Plan


T = TypeVar("T", bound="Plans")


@_attrs_define
class Plans:
    """
    Attributes:
        currency (str):
        plans (list[Plan]):
        devices (DevicesOffer | None | Unset):
    """

    currency: str
    plans: list[Plan]
    devices: DevicesOffer | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.devices_offer import DevicesOffer

        currency = self.currency

        plans = []
        for plans_item_data in self.plans:
            plans_item = plans_item_data.to_dict()
            plans.append(plans_item)

        devices: dict[str, Any] | None | Unset
        if isinstance(self.devices, Unset):
            devices = UNSET
        elif isinstance(self.devices, DevicesOffer):
            devices = self.devices.to_dict()
        else:
            devices = self.devices

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "plans": plans,
            }
        )
        if devices is not UNSET:
            field_dict["devices"] = devices

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.devices_offer import DevicesOffer
        from ..models.plan import Plan

        d = dict(src_dict)
        currency = d.pop("currency")

        plans = []
        _plans = d.pop("plans")
        for plans_item_data in _plans:
            plans_item = Plan.from_dict(plans_item_data)

            plans.append(plans_item)

        def _parse_devices(data: object) -> DevicesOffer | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                devices_type_1 = DevicesOffer.from_dict(data)

                return devices_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DevicesOffer | None | Unset, data)

        devices = _parse_devices(d.pop("devices", UNSET))

        plans = cls(
            currency=currency,
            plans=plans,
            devices=devices,
        )

        plans.additional_properties = d
        return plans

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
