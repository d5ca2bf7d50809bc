from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payment_status import PaymentStatus
from ..models.purpose import Purpose
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.client import Client
    from ..models.payment_promo import PaymentPromo


T = TypeVar("T", bound="Payment")


@_attrs_define
class Payment:
    """
    Attributes:
        amount (str): Rubles with two digits after the point; show as given, never through floating point.
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`, not `.` or `..`; case-
            sensitive, unique inside the account.
        created_at (datetime.datetime): ISO 8601 in UTC, whole seconds.
        currency (str):
        expires_at (datetime.datetime): ISO 8601 in UTC, whole seconds.
        method (str):
        partner_share (str): Rubles with two digits after the point; show as given, never through floating point.
        payment_id (str):
        platform_amount (str): Rubles with two digits after the point; show as given, never through floating point.
        purpose (Purpose):
        replayed (bool): `true` when this is a replay of the first request with the same `Idempotency-Key`.
        status (PaymentStatus):
        client (Client | None | Unset):
        devices (int | None | Unset):
        paid_at (datetime.datetime | None | Unset):
        payment_url (None | str | Unset): Present only while `pending`.
        plan_id (int | None | Unset):
        promo (None | PaymentPromo | Unset):
    """

    amount: str
    client_id: str
    created_at: datetime.datetime
    currency: str
    expires_at: datetime.datetime
    method: str
    partner_share: str
    payment_id: str
    platform_amount: str
    purpose: Purpose
    replayed: bool
    status: PaymentStatus
    client: Client | None | Unset = UNSET
    devices: int | None | Unset = UNSET
    paid_at: datetime.datetime | None | Unset = UNSET
    payment_url: None | str | Unset = UNSET
    plan_id: int | None | Unset = UNSET
    promo: None | PaymentPromo | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.client import Client
        from ..models.payment_promo import PaymentPromo

        amount = self.amount

        client_id = self.client_id

        created_at = self.created_at.isoformat()

        currency = self.currency

        expires_at = self.expires_at.isoformat()

        method = self.method

        partner_share = self.partner_share

        payment_id = self.payment_id

        platform_amount = self.platform_amount

        purpose = self.purpose.value

        replayed = self.replayed

        status = self.status.value

        client: dict[str, Any] | None | Unset
        if isinstance(self.client, Unset):
            client = UNSET
        elif isinstance(self.client, Client):
            client = self.client.to_dict()
        else:
            client = self.client

        devices: int | None | Unset
        if isinstance(self.devices, Unset):
            devices = UNSET
        else:
            devices = self.devices

        paid_at: None | str | Unset
        if isinstance(self.paid_at, Unset):
            paid_at = UNSET
        elif isinstance(self.paid_at, datetime.datetime):
            paid_at = self.paid_at.isoformat()
        else:
            paid_at = self.paid_at

        payment_url: None | str | Unset
        if isinstance(self.payment_url, Unset):
            payment_url = UNSET
        else:
            payment_url = self.payment_url

        plan_id: int | None | Unset
        if isinstance(self.plan_id, Unset):
            plan_id = UNSET
        else:
            plan_id = self.plan_id

        promo: dict[str, Any] | None | Unset
        if isinstance(self.promo, Unset):
            promo = UNSET
        elif isinstance(self.promo, PaymentPromo):
            promo = self.promo.to_dict()
        else:
            promo = self.promo

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "client_id": client_id,
                "created_at": created_at,
                "currency": currency,
                "expires_at": expires_at,
                "method": method,
                "partner_share": partner_share,
                "payment_id": payment_id,
                "platform_amount": platform_amount,
                "purpose": purpose,
                "replayed": replayed,
                "status": status,
            }
        )
        if client is not UNSET:
            field_dict["client"] = client
        if devices is not UNSET:
            field_dict["devices"] = devices
        if paid_at is not UNSET:
            field_dict["paid_at"] = paid_at
        if payment_url is not UNSET:
            field_dict["payment_url"] = payment_url
        if plan_id is not UNSET:
            field_dict["plan_id"] = plan_id
        if promo is not UNSET:
            field_dict["promo"] = promo

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client import Client
        from ..models.payment_promo import PaymentPromo

        d = dict(src_dict)
        amount = d.pop("amount")

        client_id = d.pop("client_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        currency = d.pop("currency")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        method = d.pop("method")

        partner_share = d.pop("partner_share")

        payment_id = d.pop("payment_id")

        platform_amount = d.pop("platform_amount")

        purpose = Purpose(d.pop("purpose"))

        replayed = d.pop("replayed")

        status = PaymentStatus(d.pop("status"))

        def _parse_client(data: object) -> Client | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_type_1 = Client.from_dict(data)

                return client_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Client | None | Unset, data)

        client = _parse_client(d.pop("client", UNSET))

        def _parse_devices(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        devices = _parse_devices(d.pop("devices", UNSET))

        def _parse_paid_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paid_at_type_1 = datetime.datetime.fromisoformat(data)

                return paid_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        paid_at = _parse_paid_at(d.pop("paid_at", UNSET))

        def _parse_payment_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        payment_url = _parse_payment_url(d.pop("payment_url", UNSET))

        def _parse_plan_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        plan_id = _parse_plan_id(d.pop("plan_id", UNSET))

        def _parse_promo(data: object) -> None | PaymentPromo | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                promo_type_1 = PaymentPromo.from_dict(data)

                return promo_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PaymentPromo | Unset, data)

        promo = _parse_promo(d.pop("promo", UNSET))

        payment = cls(
            amount=amount,
            client_id=client_id,
            created_at=created_at,
            currency=currency,
            expires_at=expires_at,
            method=method,
            partner_share=partner_share,
            payment_id=payment_id,
            platform_amount=platform_amount,
            purpose=purpose,
            replayed=replayed,
            status=status,
            client=client,
            devices=devices,
            paid_at=paid_at,
            payment_url=payment_url,
            plan_id=plan_id,
            promo=promo,
        )

        payment.additional_properties = d
        return payment

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
