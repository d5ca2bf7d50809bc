from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.download import Download


T = TypeVar("T", bound="Application")


@_attrs_define
class Application:
    """
    Attributes:
        app_id (str):
        app_name (str):
        install_links (list[Download]):
        supports_manual_url (bool):
    """

    app_id: str
    app_name: str
    install_links: list[Download]
    supports_manual_url: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app_id = self.app_id

        app_name = self.app_name

        install_links = []
        for install_links_item_data in self.install_links:
            install_links_item = install_links_item_data.to_dict()
            install_links.append(install_links_item)

        supports_manual_url = self.supports_manual_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app_id": app_id,
                "app_name": app_name,
                "install_links": install_links,
                "supports_manual_url": supports_manual_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.download import Download

        d = dict(src_dict)
        app_id = d.pop("app_id")

        app_name = d.pop("app_name")

        install_links = []
        _install_links = d.pop("install_links")
        for install_links_item_data in _install_links:
            install_links_item = Download.from_dict(install_links_item_data)

            install_links.append(install_links_item)

        supports_manual_url = d.pop("supports_manual_url")

        application = cls(
            app_id=app_id,
            app_name=app_name,
            install_links=install_links,
            supports_manual_url=supports_manual_url,
        )

        application.additional_properties = d
        return application

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
