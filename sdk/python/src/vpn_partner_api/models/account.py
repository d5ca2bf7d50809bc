from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """
    Attributes:
        brand_name (str): Service name shown to customers.
        currency (str):  Example: RUB.
        markup_percent (str): Percent with two digits after the point.
        trial_enabled (bool):
    """

    brand_name: str
    currency: str
    markup_percent: str
    trial_enabled: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        brand_name = self.brand_name

        currency = self.currency

        markup_percent = self.markup_percent

        trial_enabled = self.trial_enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "brand_name": brand_name,
                "currency": currency,
                "markup_percent": markup_percent,
                "trial_enabled": trial_enabled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        brand_name = d.pop("brand_name")

        currency = d.pop("currency")

        markup_percent = d.pop("markup_percent")

        trial_enabled = d.pop("trial_enabled")

        account = cls(
            brand_name=brand_name,
            currency=currency,
            markup_percent=markup_percent,
            trial_enabled=trial_enabled,
        )

        account.additional_properties = d
        return account

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
