/** What `retryingFetch` repeats, and how, against a scripted server. */
import { strict as assert } from "node:assert";
import { test } from "node:test";

import { retryingFetch } from "../src/index.js";

/** A fake `fetch` answering from `script` in order; records each request's key and method. */
function scripted(script: Array<[number, string | null, Record<string, string>?]>) {
  const seen: Array<{ method: string; key: string | null; at: number }> = [];
  const fake: typeof fetch = async (input) => {
    const request = input as Request;
    seen.push({ method: request.method, key: request.headers.get("idempotency-key"), at: Date.now() });
    const [status, code, headers] = script[Math.min(seen.length - 1, script.length - 1)];
    const body = code === null ? "{}" : JSON.stringify({ error: { code, message: code, fields: null } });
    return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  };
  return { fake, seen };
}

const post = (key?: string) =>
  new Request("http://svc/api/partner/v1/payments", {
    method: "POST",
    headers: key ? { "idempotency-key": key } : {},
    body: "{}",
  });

test("a keyed POST is repeated with the same key through 5xx and OPERATION_IN_PROGRESS", async () => {
  const { fake, seen } = scripted([[503, "SERVICE_UNAVAILABLE"], [409, "OPERATION_IN_PROGRESS"], [201, null]]);
  const response = await retryingFetch(fake, 4, 10)(post("order-42"));
  assert.equal(response.status, 201);
  assert.deepEqual(seen.map((s) => s.key), ["order-42", "order-42", "order-42"]);
});

test("a short RATE_LIMITED is waited out for its Retry-After; a long one, or another 429, is returned", async () => {
  const short = scripted([[429, "RATE_LIMITED", { "retry-after": "1" }], [200, null]]);
  const response = await retryingFetch(short.fake, 4, 10)(new Request("http://svc/x"));
  assert.equal(response.status, 200);
  assert.ok(short.seen[1].at - short.seen[0].at >= 950, "waited the Retry-After");

  const long = scripted([[429, "RATE_LIMITED", { "retry-after": "40" }], [200, null]]);
  assert.equal((await retryingFetch(long.fake, 4, 10)(new Request("http://svc/x"))).status, 429);
  const rule = scripted([[429, "LINK_ROTATE_TOO_SOON", { "retry-after": "1" }], [200, null]]);
  assert.equal((await retryingFetch(rule.fake, 4, 10)(new Request("http://svc/x", { method: "POST" }))).status, 429);
  assert.equal(rule.seen.length, 1, "a business rule's 429 is not retried");
});

test("a POST without a key is never repeated, and attempts are bounded", async () => {
  const unkeyed = scripted([[503, "SERVICE_UNAVAILABLE"], [201, null]]);
  assert.equal((await retryingFetch(unkeyed.fake, 4, 10)(post())).status, 503);
  assert.equal(unkeyed.seen.length, 1);
  const down = scripted([[500, "INTERNAL_ERROR"]]);
  assert.equal((await retryingFetch(down.fake, 3, 10)(post("k"))).status, 500);
  assert.equal(down.seen.length, 3);
});
