/**
 * The partner API v1 from TypeScript: `createPartnerClient` gives a typed client (paths, bodies
 * and answers generated from the API's OpenAPI document into `schema.ts`) that authenticates,
 * retries what is safe to retry, and turns error envelopes into `ApiError`; `verifyWebhook`
 * checks a signed event (Standard Webhooks) and returns it typed.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";

import type { components, paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";
export type Schemas = components["schemas"];

/** The API version this SDK speaks (the `v1` of `/api/partner/v1`). */
export const API_VERSION = "v1";

/** An answer with the error envelope, or a request that never got one. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status (0 when no answer came). */
    readonly status: number,
    /** The envelope's `code`: branch on it, not on the status or the message. */
    readonly code: Schemas["ErrorCode"] | "NETWORK_ERROR",
    message: string,
    /** Field to reason, for `VALIDATION_ERROR`. */
    readonly fields: Record<string, string> | null = null,
    /** Seconds to wait, from `Retry-After` (429 and 503). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ClientOptions {
  /** The service, e.g. `https://vpn.example.com` (the SDK adds `/api/partner/v1`). */
  baseUrl: string;
  apiKey: string;
  /** Attempts in all for a request that is safe to repeat (default 4). */
  attempts?: number;
  /** A `429 RATE_LIMITED` is waited out and retried when its `Retry-After` is at most this many
   *  seconds (default 10); a longer wait is returned as an `ApiError`. */
  maxRetryAfter?: number;
  /** `Accept-Language` for error messages and payment method names (`ru` or `en`). */
  language?: string;
  fetch?: typeof fetch;
}

/** A fresh `Idempotency-Key` for `POST /payments`: keep it with your order and reuse it for
 *  every retry of the same purchase, so one purchase makes one invoice. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get("retry-after");
  return value !== null && /^[0-9]+$/.test(value) ? Number(value) : null;
}

async function envelopeCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: string } };
    return body.error?.code ?? null;
  } catch {
    return null;
  }
}

/**
 * A `fetch` that repeats what may be repeated: every `GET`, and a request carrying an
 * `Idempotency-Key` (the same key each time, so the service replays rather than duplicates).
 * It retries network errors, `5xx`, `409 OPERATION_IN_PROGRESS` (the first attempt is still
 * being issued) and `429 RATE_LIMITED` whose `Retry-After` is short, waiting that long.
 */
export function retryingFetch(inner: typeof fetch, attempts: number, maxRetryAfter: number): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const repeatable = request.method === "GET" || request.headers.has("idempotency-key");
    for (let attempt = 1; ; attempt++) {
      const last = !repeatable || attempt >= attempts;
      const backoff = 200 * 2 ** (attempt - 1);
      let response: Response;
      try {
        response = await inner(request.clone());
      } catch (error) {
        if (last) throw error;
        await sleep(backoff);
        continue;
      }
      if (last || response.ok) return response;
      const code = await envelopeCode(response);
      const wait = retryAfterSeconds(response);
      if (response.status === 429 && code === "RATE_LIMITED" && wait !== null && wait <= maxRetryAfter) {
        await sleep(wait * 1000);
      } else if ((response.status === 409 && code === "OPERATION_IN_PROGRESS") || response.status >= 500) {
        await sleep(wait !== null ? Math.min(wait, maxRetryAfter) * 1000 : backoff);
      } else {
        return response;
      }
    }
  };
}

/** A typed client of the partner API. Calls answer `{data}` or throw `ApiError`. */
export function createPartnerClient(options: ClientOptions): Client<paths> {
  const base = options.baseUrl.replace(/\/+$/, "") + `/api/partner/${API_VERSION}`;
  const client = createClient<paths>({
    baseUrl: base,
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options.attempts ?? 4, options.maxRetryAfter ?? 10),
  });
  client.use({
    onRequest({ request }) {
      request.headers.set("authorization", `Bearer ${options.apiKey}`);
      if (options.language) request.headers.set("accept-language", options.language);
      return request;
    },
    async onResponse({ response }) {
      if (response.ok) return response;
      let body: { error?: Schemas["ErrorBody"] } = {};
      try {
        body = (await response.clone().json()) as typeof body;
      } catch {
        // Not an envelope (a proxy's page): keep the status.
      }
      const error = body.error;
      throw new ApiError(
        response.status,
        error?.code ?? "INTERNAL_ERROR",
        error?.message ?? `HTTP ${response.status}`,
        error?.fields ?? null,
        retryAfterSeconds(response),
      );
    },
  });
  return client;
}

/** The events, by `type`, as the document's `webhooks` section describes their bodies. */
export type WebhookEvent =
  | Schemas["PaymentSucceededEvent"]
  | Schemas["PaymentExpiredEvent"]
  | Schemas["SubscriptionExpiringEvent"]
  | Schemas["SubscriptionExpiredEvent"]
  | Schemas["WebhookTestEvent"];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** Headers by lowercase name, as Node's `IncomingMessage.headers` or a `Headers` give them. */
type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  if (!one) throw new WebhookVerificationError(`missing ${name}`);
  return one;
}

/**
 * Checks a webhook request (Standard Webhooks, the spec's signature check) and returns its
 * event. `rawBody` must be the body exactly as received, before any JSON parsing. Throws
 * `WebhookVerificationError` when the signature matches none of `webhook-signature`'s entries
 * (both the new and the previous secret sign during a rotation) or the timestamp is more than
 * `toleranceSeconds` away from now. An unknown `type` is returned as it is: answer it 2xx.
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  const sentAt = /^[0-9]+$/.test(timestamp) ? Number(timestamp) : NaN;
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!Number.isFinite(sentAt) || Math.abs(now - sentAt) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("webhook-timestamp is missing or too far from now");
  }
  const body = typeof rawBody === "string" ? Buffer.from(rawBody) : Buffer.from(rawBody);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
  const expected = Buffer.from(`v1,${mac}`);
  const genuine = signatures.split(" ").some((given) => {
    const candidate = Buffer.from(given);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
  if (!genuine) throw new WebhookVerificationError("no signature matches");
  return JSON.parse(body.toString("utf8")) as WebhookEvent;
}
