/**
 * Safe defaults under every call: a timeout, a random `Idempotency-Key` on each `POST`
 * that has none (the same on every retry of it, so the server applies it once), and
 * retries of an answer `429` or `503` or a `409` with `Retry-After` (the first request
 * with the same key still in progress), after its `Retry-After` when that is at most
 * `maxWaitMs`, and of a connection refused (nothing was sent) or, for a `GET`, that
 * failed otherwise.
 */
import { retryAfterSeconds } from "./errors.js";

export interface SafetyOptions {
  /** each call's limit, the answer's body read included (30 s) */
  timeoutMs?: number;
  /** retries at most (2) */
  maxRetries?: number;
  /** a `Retry-After` longer than this is not waited for: the answer is returned (60 s) */
  maxWaitMs?: number;
  /** the first wait without `Retry-After`, doubled at each retry (500 ms) */
  backoffMs?: number;
  /** the fetch under it (globalThis.fetch) */
  fetch?: (input: Request) => Promise<Response>;
  /** the key of a `POST` without one (a random UUID) */
  idempotencyKey?: () => string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
const RETRIED = new Set([429, 503]);
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backoff(attempt: number, first: number, most: number): number {
  const base = Math.min(most, first * 2 ** attempt);
  return base + Math.random() * (base / 4); // clients that failed together come back apart
}

function unsent(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } } | null)?.cause?.code;
  return code === "ECONNREFUSED" || code === "UND_ERR_CONNECT_TIMEOUT";
}

/** A fetch for openapi-fetch's `fetch` option with the safe defaults above. */
export function safeFetch(options: SafetyOptions = {}): (input: Request) => Promise<Response> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? 2;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 500;
  const key = options.idempotencyKey ?? (() => crypto.randomUUID());
  return async (input: Request): Promise<Response> => {
    const base = options.fetch ?? globalThis.fetch;
    let request = input;
    if (request.method === "POST" && !request.headers.has("Idempotency-Key")) {
      const headers = new Headers(request.headers);
      headers.set("Idempotency-Key", key());
      request = new Request(request, { headers });
    }
    for (let attempt = 0; ; attempt++) {
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
      let wait: number | undefined;
      try {
        const response = await base(new Request(request.clone(), { signal }));
        const header = response.headers.get("Retry-After");
        const retried = RETRIED.has(response.status) || (response.status === 409 && header !== null);
        if (!retried || attempt >= maxRetries) return response;
        const asked = retryAfterSeconds(header);
        if (asked === undefined) {
          if (response.status === 409) return response;
          wait = backoff(attempt, backoffMs, maxWaitMs);
        } else if (asked * 1000 <= maxWaitMs) {
          wait = asked * 1000;
        } else {
          return response;
        }
        await response.body?.cancel();
      } catch (error) {
        if (request.signal.aborted || attempt >= maxRetries) throw error;
        if (!unsent(error) && !IDEMPOTENT.has(request.method)) throw error;
        wait = backoff(attempt, backoffMs, maxWaitMs);
      }
      await sleep(wait);
    }
  };
}
