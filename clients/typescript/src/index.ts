/**
 * A typed client of the spitlog API: `createSpitlogClient` (openapi-fetch, typed by
 * `schema.ts`, which openapi-typescript generates from openapi.yaml, with safe defaults:
 * a timeout, retries honouring `Retry-After`, an `Idempotency-Key` made for every
 * `POST`), `unwrap` and `ApiError` (a call's data, or its problem with the rule's ID),
 * `streamEvents` (a game's live events, typed), `LiveGame` (a game kept current from
 * its stream of views, its actions sent) and `verifyWebhook` (a webhook's signature).
 */
import createClient, { type Client } from "openapi-fetch";
import { safeFetch, type SafetyOptions } from "./fetch.js";
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";
export {
  ApiError, RuleRefused, VersionMoved, apiError, unwrap, retryAfterSeconds, type Problem,
} from "./errors.js";
export { LiveGame, type LiveGameOptions, type ActOptions } from "./live.js";
export { streamEvents, type Event, type StreamOptions } from "./events.js";
export { safeFetch, DEFAULT_TIMEOUT_MS, type SafetyOptions } from "./fetch.js";
export { verifyWebhook, type VerifyOptions } from "./webhooks.js";

export type Schemas = components["schemas"];
export type State = Schemas["State"];
export type Action = Schemas["Action"];
export type SpitAction = Schemas["SpitAction"];
export type SpeedAction = Schemas["SpeedAction"];

export interface ClientOptions extends SafetyOptions {
  /** a seat's token: sent as `Authorization: Bearer` */
  token?: string;
  /** an app's API key: sent as `X-Api-Key` */
  apiKey?: string;
}

export type SpitlogClient = Client<paths>;

/** A client of the API at `baseUrl`, with a seat's `token` (or, as a string, the token
 * alone) and the safe defaults of `SafetyOptions`. */
export function createSpitlogClient(
  baseUrl: string,
  options: ClientOptions | string = {},
): SpitlogClient {
  const { token, apiKey, ...safety } = typeof options === "string" ? { token: options } : options;
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (apiKey) headers["X-Api-Key"] = apiKey;
  return createClient<paths>({ baseUrl, headers, fetch: safeFetch(safety) });
}
