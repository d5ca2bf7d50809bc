from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription import Subscription


T = TypeVar("T", bound="Client")


@_attrs_define
class Client:
    """
    Attributes:
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`, not `.` or `..`; case-
            sensitive, unique inside the account.
        created_at (datetime.datetime): ISO 8601 in UTC, whole seconds.
        trial_available (bool): Whether a trial can still be started; `false` for a blocked client.
        subscription (None | Subscription | Unset):
    """

    client_id: str
    created_at: datetime.datetime
    trial_available: bool
    subscription: None | Subscription | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription import Subscription

        client_id = self.client_id

        created_at = self.created_at.isoformat()

        trial_available = self.trial_available

        subscription: dict[str, Any] | None | Unset
        if isinstance(self.subscription, Unset):
            subscription = UNSET
        elif isinstance(self.subscription, Subscription):
            subscription = self.subscription.to_dict()
        else:
            subscription = self.subscription

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client_id": client_id,
                "created_at": created_at,
                "trial_available": trial_available,
            }
        )
        if subscription is not UNSET:
            field_dict["subscription"] = subscription

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription import Subscription

        d = dict(src_dict)
        client_id = d.pop("client_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        trial_available = d.pop("trial_available")

        def _parse_subscription(data: object) -> None | Subscription | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                subscription_type_1 = Subscription.from_dict(data)

                return subscription_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Subscription | Unset, data)

        subscription = _parse_subscription(d.pop("subscription", UNSET))

        client = cls(
            client_id=client_id,
            created_at=created_at,
            trial_available=trial_available,
            subscription=subscription,
        )

        client.additional_properties = d
        return client

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
