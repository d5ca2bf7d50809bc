from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope import Envelope
from ...models.payment import Payment
from ...models.payment_create_devices import PaymentCreateDevices
from ...models.payment_create_subscription import PaymentCreateSubscription
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PaymentCreateDevices | PaymentCreateSubscription,
    idempotency_key: str,
    accept_language: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/payments",
    }

    if isinstance(body, PaymentCreateSubscription):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Envelope | Payment | None:
    if response.status_code == 200:
        response_200 = Payment.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Payment.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Envelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Envelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Envelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Envelope.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Envelope.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Envelope.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Envelope.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Envelope.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Envelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Envelope.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Envelope.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Envelope | Payment]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PaymentCreateDevices | PaymentCreateSubscription,
    idempotency_key: str,
    accept_language: str | Unset = UNSET,
) -> Response[Envelope | Payment]:
    """Issue an invoice. Idempotent by `Idempotency-Key`: the same key and fields replay the first
    invoice (`200`, `replayed: true`); after a timeout, a dropped connection or a `5xx`, retry
    with the same key.

    Args:
        idempotency_key (str): 1 to 200 printable ASCII characters, unique inside the account;
            usually the partner's order number. Missing: `400 IDEMPOTENCY_KEY_REQUIRED`; longer: `400
            IDEMPOTENCY_KEY_TOO_LONG`.
        accept_language (str | Unset):
        body (PaymentCreateDevices | PaymentCreateSubscription): Fields are absent or of their
            type (`null` is refused). `return_url` is optional; `customer_email` is optional unless
            the service sends fiscal receipts; `promo_code` is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Envelope | Payment]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        accept_language=accept_language,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PaymentCreateDevices | PaymentCreateSubscription,
    idempotency_key: str,
    accept_language: str | Unset = UNSET,
) -> Envelope | Payment | None:
    """Issue an invoice. Idempotent by `Idempotency-Key`: the same key and fields replay the first
    invoice (`200`, `replayed: true`); after a timeout, a dropped connection or a `5xx`, retry
    with the same key.

    Args:
        idempotency_key (str): 1 to 200 printable ASCII characters, unique inside the account;
            usually the partner's order number. Missing: `400 IDEMPOTENCY_KEY_REQUIRED`; longer: `400
            IDEMPOTENCY_KEY_TOO_LONG`.
        accept_language (str | Unset):
        body (PaymentCreateDevices | PaymentCreateSubscription): Fields are absent or of their
            type (`null` is refused). `return_url` is optional; `customer_email` is optional unless
            the service sends fiscal receipts; `promo_code` is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Envelope | Payment
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        accept_language=accept_language,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PaymentCreateDevices | PaymentCreateSubscription,
    idempotency_key: str,
    accept_language: str | Unset = UNSET,
) -> Response[Envelope | Payment]:
    """Issue an invoice. Idempotent by `Idempotency-Key`: the same key and fields replay the first
    invoice (`200`, `replayed: true`); after a timeout, a dropped connection or a `5xx`, retry
    with the same key.

    Args:
        idempotency_key (str): 1 to 200 printable ASCII characters, unique inside the account;
            usually the partner's order number. Missing: `400 IDEMPOTENCY_KEY_REQUIRED`; longer: `400
            IDEMPOTENCY_KEY_TOO_LONG`.
        accept_language (str | Unset):
        body (PaymentCreateDevices | PaymentCreateSubscription): Fields are absent or of their
            type (`null` is refused). `return_url` is optional; `customer_email` is optional unless
            the service sends fiscal receipts; `promo_code` is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Envelope | Payment]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        accept_language=accept_language,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PaymentCreateDevices | PaymentCreateSubscription,
    idempotency_key: str,
    accept_language: str | Unset = UNSET,
) -> Envelope | Payment | None:
    """Issue an invoice. Idempotent by `Idempotency-Key`: the same key and fields replay the first
    invoice (`200`, `replayed: true`); after a timeout, a dropped connection or a `5xx`, retry
    with the same key.

    Args:
        idempotency_key (str): 1 to 200 printable ASCII characters, unique inside the account;
            usually the partner's order number. Missing: `400 IDEMPOTENCY_KEY_REQUIRED`; longer: `400
            IDEMPOTENCY_KEY_TOO_LONG`.
        accept_language (str | Unset):
        body (PaymentCreateDevices | PaymentCreateSubscription): Fields are absent or of their
            type (`null` is refused). `return_url` is optional; `customer_email` is optional unless
            the service sends fiscal receipts; `promo_code` is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Envelope | Payment
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            accept_language=accept_language,
        )
    ).parsed
