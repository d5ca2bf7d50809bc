from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.client_list import ClientList
from ...models.client_status_filter import ClientStatusFilter
from ...models.envelope import Envelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ClientStatusFilter | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/clients",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ClientList | Envelope | None:
    if response.status_code == 200:
        response_200 = ClientList.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Envelope.from_dict(response.json())

        return response_401

    if response.status_code == 422:
        response_422 = Envelope.from_dict(response.json())

        return response_422

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
) -> Response[ClientList | Envelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ClientStatusFilter | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
) -> Response[ClientList | Envelope]:
    """List clients, oldest first, filtered by subscription status.

    Args:
        status (ClientStatusFilter | Unset): `none`: clients that never had a subscription.
        limit (int | Unset):
        cursor (str | Unset): `next_cursor` of the previous page.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientList | Envelope]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
        accept_language=accept_language,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: ClientStatusFilter | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
) -> ClientList | Envelope | None:
    """List clients, oldest first, filtered by subscription status.

    Args:
        status (ClientStatusFilter | Unset): `none`: clients that never had a subscription.
        limit (int | Unset):
        cursor (str | Unset): `next_cursor` of the previous page.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientList | Envelope
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        cursor=cursor,
        accept_language=accept_language,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ClientStatusFilter | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
) -> Response[ClientList | Envelope]:
    """List clients, oldest first, filtered by subscription status.

    Args:
        status (ClientStatusFilter | Unset): `none`: clients that never had a subscription.
        limit (int | Unset):
        cursor (str | Unset): `next_cursor` of the previous page.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientList | Envelope]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
        accept_language=accept_language,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ClientStatusFilter | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
) -> ClientList | Envelope | None:
    """List clients, oldest first, filtered by subscription status.

    Args:
        status (ClientStatusFilter | Unset): `none`: clients that never had a subscription.
        limit (int | Unset):
        cursor (str | Unset): `next_cursor` of the previous page.
        accept_language (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientList | Envelope
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            cursor=cursor,
            accept_language=accept_language,
        )
    ).parsed
