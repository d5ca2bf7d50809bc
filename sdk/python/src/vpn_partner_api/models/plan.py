from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Plan")


@_attrs_define
class Plan:
    """
    Attributes:
        lifetime (bool):
        months (int): Calendar months of the term; 0 for a lifetime plan.
        partner_share (str): Rubles with two digits after the point; show as given, never through floating point.
        plan_id (int):
        platform_price (str): Rubles with two digits after the point; show as given, never through floating point.
        price (str): Rubles with two digits after the point; show as given, never through floating point.
    """

    lifetime: bool
    months: int
    partner_share: str
    plan_id: int
    platform_price: str
    price: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lifetime = self.lifetime

        months = self.months

        partner_share = self.partner_share

        plan_id = self.plan_id

        platform_price = self.platform_price

        price = self.price

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lifetime": lifetime,
                "months": months,
                "partner_share": partner_share,
                "plan_id": plan_id,
                "platform_price": platform_price,
                "price": price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        lifetime = d.pop("lifetime")

        months = d.pop("months")

        partner_share = d.pop("partner_share")

        plan_id = d.pop("plan_id")

        platform_price = d.pop("platform_price")

        price = d.pop("price")

        plan = cls(
            lifetime=lifetime,
            months=months,
            partner_share=partner_share,
            plan_id=plan_id,
            platform_price=platform_price,
            price=price,
        )

        plan.additional_properties = d
        return plan

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
