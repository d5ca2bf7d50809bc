from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AccountUpdate")


@_attrs_define
class AccountUpdate:
    """
    Attributes:
        brand_name (str): 1 to 64 characters as sent, no control characters, not only spaces; kept with surrounding
            spaces trimmed.
    """

    brand_name: str

    def to_dict(self) -> dict[str, Any]:
        brand_name = self.brand_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "brand_name": brand_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        brand_name = d.pop("brand_name")

        account_update = cls(
            brand_name=brand_name,
        )

        return account_update
