from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.client import Client
from ...models.envelope import Envelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    client_id: str,
    *,
    accept_language: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/clients/{client_id}/rotate-link".format(
            client_id=quote(str(client_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Client | Envelope | None:
    if response.status_code == 200:
        response_200 = Client.from_dict(response.json())

        return response_200

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
) -> Response[Client | Envelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    client_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Response[Client | Envelope]:
    """Issue a new subscription link; the old one stops working at once on all devices.

    Args:
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`,
            not `.` or `..`; case-sensitive, unique inside the account.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Client | Envelope]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        accept_language=accept_language,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    client_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Client | Envelope | None:
    """Issue a new subscription link; the old one stops working at once on all devices.

    Args:
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`,
            not `.` or `..`; case-sensitive, unique inside the account.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Client | Envelope
    """

    return sync_detailed(
        client_id=client_id,
        client=client,
        accept_language=accept_language,
    ).parsed


async def asyncio_detailed(
    client_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Response[Client | Envelope]:
    """Issue a new subscription link; the old one stops working at once on all devices.

    Args:
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`,
            not `.` or `..`; case-sensitive, unique inside the account.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Client | Envelope]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        accept_language=accept_language,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    client_id: str,
    *,
    client: AuthenticatedClient,
    accept_language: str | Unset = UNSET,
) -> Client | Envelope | None:
    """Issue a new subscription link; the old one stops working at once on all devices.

    Args:
        client_id (str): The partner's id of a client: Latin letters, digits and `. _ : @ + -`,
            not `.` or `..`; case-sensitive, unique inside the account.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Client | Envelope
    """

    return (
        await asyncio_detailed(
            client_id=client_id,
            client=client,
            accept_language=accept_language,
        )
    ).parsed
