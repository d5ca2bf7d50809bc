/**
 * The whole partner flow through the SDK against the real service: `VP_API_BIN` is the
 * `vp-api` binary, started here on a fresh SQLite database with the sandbox gateway and the
 * local panel. Run by `tests/sdk.rs` in `cargo xtask test`.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { ApiError, createPartnerClient, newIdempotencyKey, verifyWebhook, WebhookVerificationError } from "../src/index.js";

const bin = process.env.VP_API_BIN ?? "";
const dir = mkdtempSync(join(tmpdir(), "vp-sdk-ts-"));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite://${join(dir, "db.sqlite")}`,
  VP_LOG: "warn",
  VP_WEBHOOK_ALLOW_ADDRESSES: "127.0.0.1",
};
let server: ChildProcess | undefined;
let base = "";
let key = "";
let account = "";

function cli(...args: string[]): any {
  return JSON.parse(execFileSync(bin, args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A partner's webhook receiver: hands over each request's headers and raw body. */
const received: { headers: IncomingMessage["headers"]; body: Buffer }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(200).end();
  });
});

before(async () => {
  assert.ok(bin, "set VP_API_BIN to the vp-api binary");
  const demo = cli("demo");
  key = demo.api_key.api_key;
  account = demo.account.account_id;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(bin, ["serve"], { env: { ...env, VP_BIND: `127.0.0.1:${port}`, VP_PUBLIC_BASE_URL: base }, stdio: "ignore" });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not up yet
    }
    assert.ok(i < 300, "the service did not come up");
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});

after(() => {
  server?.kill();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a partner sells, reads, manages and hears of a subscription through the SDK", async () => {
  const api = createPartnerClient({ baseUrl: base, apiKey: key });
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const endpoint = cli("endpoint", "add", account, hooks, "--type", "payment.succeeded");

  const { data: plans } = await api.GET("/plans");
  const month = plans!.plans.find((p) => p.months === 1)!;
  assert.equal(plans!.currency, "RUB");

  const { data: methods } = await api.GET("/payment-methods");
  const method = methods!.payment_methods[0].code;

  // One purchase, one key: a retry with the same key replays the invoice.
  const purchase = newIdempotencyKey();
  const order = { client_id: "tg:100200", purpose: "subscription" as const, plan_id: month.plan_id, method };
  const params = { header: { "Idempotency-Key": purchase } };
  const first = await api.POST("/payments", { params, body: order });
  assert.equal(first.response.status, 201);
  assert.equal(first.data!.status, "pending");
  assert.equal(first.data!.amount, month.price);
  const replay = await api.POST("/payments", { params, body: order });
  assert.equal(replay.response.status, 200);
  assert.equal(replay.data!.payment_id, first.data!.payment_id);
  assert.equal(replay.data!.replayed, true);
  await assert.rejects(
    api.POST("/payments", { params, body: { ...order, client_id: "tg:other" } }),
    (e: unknown) => e instanceof ApiError && e.status === 409 && e.code === "IDEMPOTENCY_KEY_REUSE",
  );

  // The customer pays on the sandbox's page.
  const paid = await fetch(`${base}/sandbox/pay/${first.data!.payment_id}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "action=pay",
    redirect: "manual",
  });
  assert.equal(paid.status, 303);
  const { data: invoice } = await api.GET("/payments/{payment_id}", {
    params: { path: { payment_id: first.data!.payment_id } },
  });
  assert.equal(invoice!.status, "succeeded");

  const { data: client } = await api.GET("/clients/{client_id}", { params: { path: { client_id: "tg:100200" } } });
  assert.equal(client!.subscription!.status, "active");
  const { data: devices } = await api.GET("/clients/{client_id}/devices", {
    params: { path: { client_id: "tg:100200" } },
  });
  assert.ok(Array.isArray(devices!.devices));

  const rotated = await api.POST("/clients/{client_id}/rotate-link", { params: { path: { client_id: "tg:100200" } } });
  assert.notEqual(rotated.data!.subscription!.subscription_url, client!.subscription!.subscription_url);
  await assert.rejects(
    api.POST("/clients/{client_id}/rotate-link", { params: { path: { client_id: "tg:100200" } } }),
    (e: unknown) =>
      e instanceof ApiError && e.status === 429 && e.code === "LINK_ROTATE_TOO_SOON" && (e.retryAfter ?? 0) > 3000,
  );

  const { data: trial } = await api.POST("/clients/{client_id}/trial", { params: { path: { client_id: "tg:trial-1" } } });
  assert.equal(trial!.subscription!.status, "active");
  const { data: documents } = await api.GET("/documents");
  assert.ok(documents!.documents.length >= 2);

  // The event, verified with the endpoint's secret; a tampered copy is refused.
  for (let i = 0; received.length === 0; i++) {
    assert.ok(i < 100, "no payment.succeeded within 10 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  const event = verifyWebhook(endpoint.secret, received[0].headers, received[0].body);
  assert.equal(event.type, "payment.succeeded");
  if (event.type === "payment.succeeded") {
    assert.equal(event.data.payment_id, first.data!.payment_id);
  }
  const tampered = Buffer.from(received[0].body);
  tampered[tampered.length - 2] ^= 1;
  assert.throws(() => verifyWebhook(endpoint.secret, received[0].headers, tampered), WebhookVerificationError);
});

test("a wrong key is an ApiError with the spec's code", async () => {
  const api = createPartnerClient({ baseUrl: base, apiKey: "vpk_wrong" });
  await assert.rejects(api.GET("/account"), (e: unknown) => e instanceof ApiError && e.code === "UNAUTHORIZED");
});
