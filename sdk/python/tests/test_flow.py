"""The whole partner flow through the SDK against the real service: `VP_API_BIN` is the `vp-api`
binary, started here on a fresh SQLite database with the sandbox gateway and the local panel.
Run by `tests/sdk.rs` in `cargo xtask test`."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.request

import httpx

from vpn_partner import ApiError, PartnerClient, RetryingTransport, WebhookVerificationError, check, new_idempotency_key, verify_webhook
from vpn_partner_api.api.catalog import get_documents, get_payment_methods, get_plans
from vpn_partner_api.api.clients import get_client, get_devices, rotate_link, start_trial
from vpn_partner_api.api.account import get_account
from vpn_partner_api.api.payments import create_payment, get_payment
from vpn_partner_api.models import PaymentCreateSubscription, PaymentCreateSubscriptionPurpose, PaymentStatus

BIN = os.environ.get("VP_API_BIN", "")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver(http.server.BaseHTTPRequestHandler):
    """A partner's webhook receiver: keeps each request's headers and raw body."""

    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 - the http.server protocol
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        Receiver.received.append(({k: v for k, v in self.headers.items()}, body))
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


class PartnerFlow(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        assert BIN, "set VP_API_BIN to the vp-api binary"
        cls.dir = tempfile.TemporaryDirectory(prefix="vp-sdk-py-")
        cls.env = dict(os.environ, DATABASE_URL=f"sqlite://{cls.dir.name}/db.sqlite", VP_LOG="warn", VP_WEBHOOK_ALLOW_ADDRESSES="127.0.0.1")
        demo = cls.cli("demo")
        cls.key, cls.account = demo["api_key"]["api_key"], demo["account"]["account_id"]
        port = free_port()
        cls.base = f"http://127.0.0.1:{port}"
        env = dict(cls.env, VP_BIND=f"127.0.0.1:{port}", VP_PUBLIC_BASE_URL=cls.base)
        cls.server = subprocess.Popen([BIN, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{cls.base}/health") as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the service did not come up")
        cls.receiver = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=cls.receiver.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.kill()
        cls.server.wait()
        cls.receiver.shutdown()
        cls.dir.cleanup()

    @classmethod
    def cli(cls, *args: str) -> dict:
        out = subprocess.run([BIN, *args], env=cls.env, check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    def test_a_partner_sells_reads_manages_and_hears_of_a_subscription_through_the_sdk(self) -> None:
        api = PartnerClient(self.base, self.key)
        hooks = f"http://127.0.0.1:{self.receiver.server_address[1]}/hooks"
        endpoint = self.cli("endpoint", "add", self.account, hooks, "--type", "payment.succeeded")

        plans = check(get_plans.sync_detailed(client=api))
        month = next(p for p in plans.plans if p.months == 1)
        method = check(get_payment_methods.sync_detailed(client=api)).payment_methods[0].code

        # One purchase, one key: a retry with the same key replays the invoice.
        key = new_idempotency_key()
        order = PaymentCreateSubscription(
            client_id="tg:100200", method=method, plan_id=month.plan_id, purpose=PaymentCreateSubscriptionPurpose.SUBSCRIPTION
        )
        first = create_payment.sync_detailed(client=api, body=order, idempotency_key=key)
        self.assertEqual(first.status_code, 201)
        invoice = check(first)
        self.assertEqual((invoice.status, invoice.amount), (PaymentStatus.PENDING, month.price))
        replay = create_payment.sync_detailed(client=api, body=order, idempotency_key=key)
        self.assertEqual((replay.status_code, check(replay).payment_id, check(replay).replayed), (200, invoice.payment_id, True))
        other = PaymentCreateSubscription(client_id="tg:other", method=method, plan_id=month.plan_id, purpose=order.purpose)
        with self.assertRaises(ApiError) as reused:
            check(create_payment.sync_detailed(client=api, body=other, idempotency_key=key))
        self.assertEqual((reused.exception.status, reused.exception.code), (409, "IDEMPOTENCY_KEY_REUSE"))

        # The customer pays on the sandbox's page.
        paid = httpx.post(f"{self.base}/sandbox/pay/{invoice.payment_id}", data={"action": "pay"})
        self.assertEqual(paid.status_code, 303)
        self.assertEqual(check(get_payment.sync_detailed(invoice.payment_id, client=api)).status, PaymentStatus.SUCCEEDED)

        client = check(get_client.sync_detailed("tg:100200", client=api))
        self.assertEqual(client.subscription.status.value, "active")
        self.assertIsInstance(check(get_devices.sync_detailed("tg:100200", client=api)).devices, list)
        rotated = check(rotate_link.sync_detailed("tg:100200", client=api))
        self.assertNotEqual(rotated.subscription.subscription_url, client.subscription.subscription_url)
        with self.assertRaises(ApiError) as too_soon:
            check(rotate_link.sync_detailed("tg:100200", client=api))
        self.assertEqual((too_soon.exception.status, too_soon.exception.code), (429, "LINK_ROTATE_TOO_SOON"))
        self.assertGreater(too_soon.exception.retry_after or 0, 3000)

        trial = check(start_trial.sync_detailed("tg:trial-1", client=api))
        self.assertEqual(trial.subscription.status.value, "active")
        self.assertGreaterEqual(len(check(get_documents.sync_detailed(client=api)).documents), 2)

        # The event, verified with the endpoint's secret; a tampered copy is refused.
        for _ in range(100):
            if Receiver.received:
                break
            time.sleep(0.1)
        headers, body = Receiver.received[0]
        event = verify_webhook(endpoint["secret"], headers, body)
        self.assertEqual((event["type"], event["data"]["payment_id"]), ("payment.succeeded", invoice.payment_id))
        tampered = body[:-2] + bytes([body[-2] ^ 1]) + body[-1:]
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(endpoint["secret"], headers, tampered)

    def test_a_wrong_key_is_an_api_error_with_the_specs_code(self) -> None:
        with self.assertRaises(ApiError) as refused:
            check(get_account.sync_detailed(client=PartnerClient(self.base, "vpk_wrong")))
        self.assertEqual((refused.exception.status, refused.exception.code), (401, "UNAUTHORIZED"))


class Retries(unittest.TestCase):
    """What `RetryingTransport` repeats, against a scripted transport."""

    def scripted(self, script: list[tuple[int, str | None, dict[str, str]]]) -> tuple[RetryingTransport, list[httpx.Request]]:
        seen: list[httpx.Request] = []

        def answer(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            status, code, headers = script[min(len(seen), len(script)) - 1]
            body = {} if code is None else {"error": {"code": code, "message": code, "fields": None}}
            return httpx.Response(status, json=body, headers=headers)

        return RetryingTransport(httpx.MockTransport(answer), attempts=4, max_retry_after=10), seen

    def test_a_keyed_post_is_repeated_with_the_same_key_through_5xx_and_operation_in_progress(self) -> None:
        transport, seen = self.scripted([(503, "SERVICE_UNAVAILABLE", {}), (409, "OPERATION_IN_PROGRESS", {}), (201, None, {})])
        with httpx.Client(transport=transport) as c:
            self.assertEqual(c.post("http://svc/payments", headers={"idempotency-key": "order-42"}, json={}).status_code, 201)
        self.assertEqual([r.headers["idempotency-key"] for r in seen], ["order-42"] * 3)

    def test_a_short_rate_limit_is_waited_out_and_a_business_rules_429_is_returned(self) -> None:
        transport, seen = self.scripted([(429, "RATE_LIMITED", {"retry-after": "1"}), (200, None, {})])
        started = time.monotonic()
        with httpx.Client(transport=transport) as c:
            self.assertEqual(c.get("http://svc/plans").status_code, 200)
        self.assertGreaterEqual(time.monotonic() - started, 0.95)
        transport, seen = self.scripted([(429, "LINK_ROTATE_TOO_SOON", {"retry-after": "1"}), (200, None, {})])
        with httpx.Client(transport=transport) as c:
            self.assertEqual(c.post("http://svc/clients/x/rotate-link").status_code, 429)
        self.assertEqual(len(seen), 1)

    def test_a_post_without_a_key_is_never_repeated(self) -> None:
        transport, seen = self.scripted([(503, "SERVICE_UNAVAILABLE", {}), (201, None, {})])
        with httpx.Client(transport=transport) as c:
            self.assertEqual(c.post("http://svc/clients/x/trial").status_code, 503)
        self.assertEqual(len(seen), 1)


if __name__ == "__main__":
    unittest.main()
