from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.payment_create_subscription_purpose import (
    PaymentCreateSubscriptionPurpose,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PaymentCreateSubscription")


@_attrs_define
class PaymentCreateSubscription:
    """A subscription or its renewal.

    Attributes:
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`, not `.` or `..`; case-
            sensitive, unique inside the account.
        method (str): A code from `GET /payment-methods`; one not offered now is `400 UNSUPPORTED_PAYMENT_METHOD`.
        plan_id (int):
        purpose (PaymentCreateSubscriptionPurpose):
        customer_email (str | Unset): The buyer's email, where the fiscal receipt (54-FZ) of the payment and of its
            refund is sent. Required while the service sends receipts (then a request without it gets `422 VALIDATION_ERROR`
            naming `customer_email`); otherwise optional and unused. Compared without regard to case.
        return_url (str | Unset): https only: where the customer returns after payment.
    """

    client_id: str
    method: str
    plan_id: int
    purpose: PaymentCreateSubscriptionPurpose
    customer_email: str | Unset = UNSET
    return_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        method = self.method

        plan_id = self.plan_id

        purpose = self.purpose.value

        customer_email = self.customer_email

        return_url = self.return_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "client_id": client_id,
                "method": method,
                "plan_id": plan_id,
                "purpose": purpose,
            }
        )
        if customer_email is not UNSET:
            field_dict["customer_email"] = customer_email
        if return_url is not UNSET:
            field_dict["return_url"] = return_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        client_id = d.pop("client_id")

        method = d.pop("method")

        plan_id = d.pop("plan_id")

        purpose = PaymentCreateSubscriptionPurpose(d.pop("purpose"))

        customer_email = d.pop("customer_email", UNSET)

        return_url = d.pop("return_url", UNSET)

        payment_create_subscription = cls(
            client_id=client_id,
            method=method,
            plan_id=plan_id,
            purpose=purpose,
            customer_email=customer_email,
            return_url=return_url,
        )

        return payment_create_subscription
