from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Download")


@_attrs_define
class Download:
    """
    Attributes:
        app_id (str):
        label (str): Link label in the requested language.
        platform_id (str):
        url (str):
    """

    app_id: str
    label: str
    platform_id: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app_id = self.app_id

        label = self.label

        platform_id = self.platform_id

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app_id": app_id,
                "label": label,
                "platform_id": platform_id,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        app_id = d.pop("app_id")

        label = d.pop("label")

        platform_id = d.pop("platform_id")

        url = d.pop("url")

        download = cls(
            app_id=app_id,
            label=label,
            platform_id=platform_id,
            url=url,
        )

        download.additional_properties = d
        return download

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
