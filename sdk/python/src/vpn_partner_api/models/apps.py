from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.application import Application
    from ..models.apps_downloads import AppsDownloads
    from ..models.platform import Platform


T = TypeVar("T", bound="Apps")


@_attrs_define
class Apps:
    """
    Attributes:
        apps (list[Application]):
        downloads (AppsDownloads): Per `platform_id`: the link to offer first on that platform.
        platforms (list[Platform]):
        recommended_app_id (None | str | Unset):
    """

    apps: list[Application]
    downloads: AppsDownloads
    platforms: list[Platform]
    recommended_app_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        apps = []
        for apps_item_data in self.apps:
            apps_item = apps_item_data.to_dict()
            apps.append(apps_item)

        downloads = self.downloads.to_dict()

        platforms = []
        for platforms_item_data in self.platforms:
            platforms_item = platforms_item_data.to_dict()
            platforms.append(platforms_item)

        recommended_app_id: None | str | Unset
        if isinstance(self.recommended_app_id, Unset):
            recommended_app_id = UNSET
        else:
            recommended_app_id = self.recommended_app_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "apps": apps,
                "downloads": downloads,
                "platforms": platforms,
            }
        )
        if recommended_app_id is not UNSET:
            field_dict["recommended_app_id"] = recommended_app_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.application import Application
        from ..models.apps_downloads import AppsDownloads
        from ..models.platform import Platform

        d = dict(src_dict)
        apps = []
        _apps = d.pop("apps")
        for apps_item_data in _apps:
            apps_item = Application.from_dict(apps_item_data)

            apps.append(apps_item)

        downloads = AppsDownloads.from_dict(d.pop("downloads"))

        platforms = []
        _platforms = d.pop("platforms")
        for platforms_item_data in _platforms:
            platforms_item = Platform.from_dict(platforms_item_data)

            platforms.append(platforms_item)

        def _parse_recommended_app_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recommended_app_id = _parse_recommended_app_id(
            d.pop("recommended_app_id", UNSET)
        )

        apps = cls(
            apps=apps,
            downloads=downloads,
            platforms=platforms,
            recommended_app_id=recommended_app_id,
        )

        apps.additional_properties = d
        return apps

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
