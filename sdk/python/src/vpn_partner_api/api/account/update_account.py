from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.account import Account
from ...models.account_update import AccountUpdate
from ...models.envelope import Envelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AccountUpdate,
    accept_language: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/account",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Account | Envelope | None:
    if response.status_code == 200:
        response_200 = Account.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Envelope.from_dict(response.json())

        return response_401

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Account | Envelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AccountUpdate,
    accept_language: str | Unset = UNSET,
) -> Response[Account | Envelope]:
    """Change the service name.

    Args:
        accept_language (str | Unset):
        body (AccountUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Account | Envelope]
    """

    kwargs = _get_kwargs(
        body=body,
        accept_language=accept_language,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: AccountUpdate,
    accept_language: str | Unset = UNSET,
) -> Account | Envelope | None:
    """Change the service name.

    Args:
        accept_language (str | Unset):
        body (AccountUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Account | Envelope
    """

    return sync_detailed(
        client=client,
        body=body,
        accept_language=accept_language,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AccountUpdate,
    accept_language: str | Unset = UNSET,
) -> Response[Account | Envelope]:
    """Change the service name.

    Args:
        accept_language (str | Unset):
        body (AccountUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Account | Envelope]
    """

    kwargs = _get_kwargs(
        body=body,
        accept_language=accept_language,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AccountUpdate,
    accept_language: str | Unset = UNSET,
) -> Account | Envelope | None:
    """Change the service name.

    Args:
        accept_language (str | Unset):
        body (AccountUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Account | Envelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            accept_language=accept_language,
        )
    ).parsed
