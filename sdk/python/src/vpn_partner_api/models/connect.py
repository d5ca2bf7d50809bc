from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Connect")


@_attrs_define
class Connect:
    """
    Attributes:
        app_id (str):
        app_name (str):
        connect_url (str): https page that opens the application with the subscription.
        qr_payload (str): Text for a QR code that connects another device.
        supports_manual_url (bool): The application accepts `subscription_url` pasted by hand.
    """

    app_id: str
    app_name: str
    connect_url: str
    qr_payload: str
    supports_manual_url: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app_id = self.app_id

        app_name = self.app_name

        connect_url = self.connect_url

        qr_payload = self.qr_payload

        supports_manual_url = self.supports_manual_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app_id": app_id,
                "app_name": app_name,
                "connect_url": connect_url,
                "qr_payload": qr_payload,
                "supports_manual_url": supports_manual_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        app_id = d.pop("app_id")

        app_name = d.pop("app_name")

        connect_url = d.pop("connect_url")

        qr_payload = d.pop("qr_payload")

        supports_manual_url = d.pop("supports_manual_url")

        connect = cls(
            app_id=app_id,
            app_name=app_name,
            connect_url=connect_url,
            qr_payload=qr_payload,
            supports_manual_url=supports_manual_url,
        )

        connect.additional_properties = d
        return connect

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
