from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PaymentPromo")


@_attrs_define
class PaymentPromo:
    """What a promo code did to an invoice.

    Attributes:
        code (str): The code, in capitals.
        discount (str): Rubles with two digits after the point; show as given, never through floating point.
        extra_days (int): Days added to the term bought, on top of the plan's.
    """

    code: str
    discount: str
    extra_days: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        discount = self.discount

        extra_days = self.extra_days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "discount": discount,
                "extra_days": extra_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        discount = d.pop("discount")

        extra_days = d.pop("extra_days")

        payment_promo = cls(
            code=code,
            discount=discount,
            extra_days=extra_days,
        )

        payment_promo.additional_properties = d
        return payment_promo

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
