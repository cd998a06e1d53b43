/**
 * A typed client of the spitlog API: `createSpitlogClient` (openapi-fetch, typed by
 * `schema.d.ts`, which openapi-typescript generates from openapi.yaml) and
 * `streamEvents`, a game's live events (SSE over fetch, with a token).
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";
export { streamEvents, type StreamOptions } from "./events.js";
export type Schemas = components["schemas"];

/** A client of the API at `baseUrl`; with `token` (a seat's), every call sends it as
 * `Authorization: Bearer`. */
export function createSpitlogClient(baseUrl: string, token?: string) {
  const client = createClient<paths>({ baseUrl });
  if (token) {
    client.use({
      onRequest({ request }) {
        request.headers.set("Authorization", `Bearer ${token}`);
        return request;
      },
    });
  }
  return client;
}
