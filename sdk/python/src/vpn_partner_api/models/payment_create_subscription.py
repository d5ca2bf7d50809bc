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
        promo_code (str | Unset): A promo code of the account, compared without regard to case. The invoice's `amount`
            is the discounted price (the discount comes out of `partner_share`), or the term bought gets the code's extra
            days. A code that does not exist is `400 PROMO_CODE_NOT_FOUND`; one past its last day or turned off,
            `PROMO_CODE_EXPIRED`; one whose uses are all held by payable invoices or spent, `PROMO_CODE_USED_UP`; one for
            other plans, for first purchases only, or for extra devices, `PROMO_CODE_NOT_APPLICABLE`. No invoice is issued
            then.
        return_url (str | Unset): https only: where the customer returns after payment.
    """

    client_id: str
    method: str
    plan_id: int
    purpose: PaymentCreateSubscriptionPurpose
    customer_email: str | Unset = UNSET
    promo_code: str | Unset = UNSET
    return_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        method = self.method

        plan_id = self.plan_id

        purpose = self.purpose.value

        customer_email = self.customer_email

        promo_code = self.promo_code

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
        if promo_code is not UNSET:
            field_dict["promo_code"] = promo_code
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

        promo_code = d.pop("promo_code", UNSET)

        return_url = d.pop("return_url", UNSET)

        payment_create_subscription = cls(
            client_id=client_id,
            method=method,
            plan_id=plan_id,
            purpose=purpose,
            customer_email=customer_email,
            promo_code=promo_code,
            return_url=return_url,
        )

        return payment_create_subscription
