"""The partner API v1 from Python.

`PartnerClient` builds the generated client (`vpn_partner_api`: every operation as a function,
every body and answer as a typed model, from the API's OpenAPI document) with the key on every
request and a transport that repeats what is safe to repeat; `check` turns an answer into its
model or raises `ApiError`; `verify_webhook` checks a signed event (Standard Webhooks).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid
from typing import Any, Mapping, TypeVar

import httpx

from vpn_partner_api import AuthenticatedClient
from vpn_partner_api.models import Envelope
from vpn_partner_api.types import Response

__all__ = [
    "API_VERSION",
    "ApiError",
    "PartnerClient",
    "RetryingTransport",
    "WebhookVerificationError",
    "check",
    "new_idempotency_key",
    "verify_webhook",
]

#: The API version this SDK speaks (the `v1` of `/api/partner/v1`).
API_VERSION = "v1"

T = TypeVar("T")


class ApiError(Exception):
    """An answer with the error envelope. Branch on `code`, not on the status or the message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: Mapping[str, str] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.fields = dict(fields or {})
        #: Seconds to wait, from `Retry-After` (429 and 503).
        self.retry_after = retry_after


def _retry_after(response: httpx.Response) -> int | None:
    value = response.headers.get("retry-after")
    return int(value) if value is not None and value.isdigit() else None


def _envelope_code(response: httpx.Response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def check(response: Response[Envelope | T]) -> T:
    """The answer's model, or `ApiError` when the service answered with the error envelope."""
    parsed = response.parsed
    if 200 <= int(response.status_code) < 300 and parsed is not None and not isinstance(parsed, Envelope):
        return parsed
    code, message, fields = "INTERNAL_ERROR", f"HTTP {int(response.status_code)}", None
    try:
        error = json.loads(response.content)["error"]
        code, message, fields = error["code"], error["message"], error.get("fields")
    except (ValueError, KeyError, TypeError):
        pass  # not an envelope (a proxy's page): keep the status
    retry_after = response.headers.get("retry-after")
    raise ApiError(
        int(response.status_code),
        code,
        message,
        fields,
        int(retry_after) if retry_after is not None and retry_after.isdigit() else None,
    )


class RetryingTransport(httpx.BaseTransport):
    """Repeats what may be repeated: every `GET`, and a request carrying an `Idempotency-Key`
    (the same key each time, so the service replays rather than duplicates), after a network
    error, a `5xx`, `409 OPERATION_IN_PROGRESS` (the first attempt is still being issued) and a
    `429 RATE_LIMITED` whose `Retry-After` is at most `max_retry_after` seconds (waited out)."""

    def __init__(self, inner: httpx.BaseTransport | None = None, attempts: int = 4, max_retry_after: int = 10):
        self.inner = inner or httpx.HTTPTransport()
        self.attempts = attempts
        self.max_retry_after = max_retry_after

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        repeatable = request.method == "GET" or "idempotency-key" in request.headers
        attempt = 0
        while True:
            attempt += 1
            last = not repeatable or attempt >= self.attempts
            backoff = 0.2 * 2 ** (attempt - 1)
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                if last:
                    raise
                time.sleep(backoff)
                continue
            if last or response.status_code < 400:
                return response
            response.read()
            code, wait = _envelope_code(response), _retry_after(response)
            if response.status_code == 429 and code == "RATE_LIMITED" and wait is not None and wait <= self.max_retry_after:
                pause: float = wait
            elif (response.status_code == 409 and code == "OPERATION_IN_PROGRESS") or response.status_code >= 500:
                pause = min(wait, self.max_retry_after) if wait is not None else backoff
            else:
                return response
            response.close()
            time.sleep(pause)

    def close(self) -> None:
        self.inner.close()


def PartnerClient(  # noqa: N802 - builds the generated client, as a class would
    base_url: str,
    api_key: str,
    *,
    attempts: int = 4,
    max_retry_after: int = 10,
    timeout: float = 30.0,
) -> AuthenticatedClient:
    """A client of the service at `base_url` (e.g. `https://vpn.example.com`) for the generated
    operations in `vpn_partner_api.api`; pass their answers to `check`."""
    return AuthenticatedClient(
        base_url=base_url.rstrip("/") + f"/api/partner/{API_VERSION}",
        token=api_key,
        timeout=httpx.Timeout(timeout),
        httpx_args={"transport": RetryingTransport(attempts=attempts, max_retry_after=max_retry_after)},
    )


def new_idempotency_key() -> str:
    """A fresh `Idempotency-Key` for `POST /payments`: keep it with your order and reuse it for
    every retry of the same purchase, so one purchase makes one invoice."""
    return str(uuid.uuid4())


class WebhookVerificationError(Exception):
    """The request is not a genuine, fresh event of the platform: answer it 400 and drop it."""


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: bytes,
    *,
    tolerance_seconds: int = 300,
    now: float | None = None,
) -> dict[str, Any]:
    """Checks a webhook request (Standard Webhooks, the spec's signature check) and returns its
    event (`type`, `timestamp`, `data`). `body` must be the raw body as received. Raises
    `WebhookVerificationError` when no entry of `webhook-signature` matches (both the new and the
    previous secret sign during a rotation) or the timestamp is too far from now."""
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        webhook_id, timestamp, signatures = (
            lower["webhook-id"],
            lower["webhook-timestamp"],
            lower["webhook-signature"],
        )
    except KeyError as missing:
        raise WebhookVerificationError(f"missing {missing.args[0]}") from None
    current = time.time() if now is None else now
    if not timestamp.isdigit() or abs(current - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is missing or too far from now")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    if not any(hmac.compare_digest(expected, given) for given in signatures.split(" ")):
        raise WebhookVerificationError("no signature matches")
    return json.loads(body)
