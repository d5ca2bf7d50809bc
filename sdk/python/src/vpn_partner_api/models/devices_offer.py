from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DevicesOffer")


@_attrs_define
class DevicesOffer:
    """
    Attributes:
        included (int): Devices included in a subscription.
        max_ (int): Ceiling of devices per client.
        partner_share (str): Rubles with two digits after the point; show as given, never through floating point.
        platform_price (str): Rubles with two digits after the point; show as given, never through floating point.
        price (str): Rubles with two digits after the point; show as given, never through floating point.
    """

    included: int
    max_: int
    partner_share: str
    platform_price: str
    price: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        included = self.included

        max_ = self.max_

        partner_share = self.partner_share

        platform_price = self.platform_price

        price = self.price

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "included": included,
                "max": max_,
                "partner_share": partner_share,
                "platform_price": platform_price,
                "price": price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        included = d.pop("included")

        max_ = d.pop("max")

        partner_share = d.pop("partner_share")

        platform_price = d.pop("platform_price")

        price = d.pop("price")

        devices_offer = cls(
            included=included,
            max_=max_,
            partner_share=partner_share,
            platform_price=platform_price,
            price=price,
        )

        devices_offer.additional_properties = d
        return devices_offer

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
