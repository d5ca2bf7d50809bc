from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.envelope import Envelope
from ...models.payment import Payment
from ...types import UNSET, Response, Unset


def _get_kwargs(
    payment_id: str,
    *,
    accept_language: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/payments/{payment_id}".format(
            payment_id=quote(str(payment_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Envelope | Payment | None:
    if response.status_code == 200:
        response_200 = Payment.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Envelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Envelope.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Envelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Envelope.from_dict(response.json())

        return response_500

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
    payment_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Response[Envelope | Payment]:
    """Read an invoice. Re-read it before granting anything on the partner side.

    Args:
        payment_id (str):
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Envelope | Payment]
    """

    kwargs = _get_kwargs(
        payment_id=payment_id,
        accept_language=accept_language,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    payment_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Envelope | Payment | None:
    """Read an invoice. Re-read it before granting anything on the partner side.

    Args:
        payment_id (str):
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Envelope | Payment
    """

    return sync_detailed(
        payment_id=payment_id,
        client=client,
        accept_language=accept_language,
    ).parsed


async def asyncio_detailed(
    payment_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Response[Envelope | Payment]:
    """Read an invoice. Re-read it before granting anything on the partner side.

    Args:
        payment_id (str):
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Envelope | Payment]
    """

    kwargs = _get_kwargs(
        payment_id=payment_id,
        accept_language=accept_language,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    payment_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Envelope | Payment | None:
    """Read an invoice. Re-read it before granting anything on the partner side.

    Args:
        payment_id (str):
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Envelope | Payment
    """

    return (
        await asyncio_detailed(
            payment_id=payment_id,
            client=client,
            accept_language=accept_language,
        )
    ).parsed
