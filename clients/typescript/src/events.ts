/**
 * A game's events as they happen: `GET /v1/games/{id}/events` with
 * `Accept: text/event-stream`, read from fetch's body by eventsource-parser. Unlike the
 * browser's EventSource it sends `Authorization: Bearer <token>`; like it, it resumes
 * with `Last-Event-ID` after the server closes the stream (SPITLOG_SSE_MAX_S) or the
 * connection drops, so no event is missed or read twice.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ApiError, retryAfterSeconds } from "./errors.js";
import type { components } from "./schema.js";

export type Event = components["schemas"]["Event"];

export interface StreamOptions {
  /** a seat's token: its redacted view of the log (none: a spectator's) */
  token?: string;
  /** the version to read after (0: from the first event) */
  after?: number;
  signal?: AbortSignal;
  /** how long to wait before reconnecting after a dropped connection (the server's
   * `retry:` replaces it) */
  retryMs?: number;
  /** the fetch to use (globalThis.fetch) */
  fetch?: typeof fetch;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every event after `after`, live, each typed by its `type` (`Event`), until the game is
 * over and all are read (the server then answers 204). Throws `ApiError` on an answer
 * other than 200 and 204. */
export async function* streamEvents(
  baseUrl: string,
  gameId: string,
  options: StreamOptions = {},
): AsyncGenerator<Event> {
  let last = options.after ?? 0;
  let retry = options.retryMs ?? 1000;
  const url = `${baseUrl}/v1/games/${encodeURIComponent(gameId)}/events`;
  for (;;) {
    const headers: Record<string, string> = {
      Accept: "text/event-stream",
      "Last-Event-ID": String(last),
    };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { headers, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      await sleep(retry);
      continue;
    }
    if (response.status === 204) return;
    if (response.status !== 200 || !response.body) {
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      throw new ApiError(response.status, body, retryAfterSeconds(response.headers.get("Retry-After")));
    }
    const ready: EventSourceMessage[] = [];
    const parser = createParser({
      onEvent: (message) => ready.push(message),
      onRetry: (ms) => (retry = ms),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        for (let message = ready.shift(); message; message = ready.shift()) {
          if (message.event && message.event !== "message") continue; // not an event of the log
          if (message.id) last = Number(message.id);
          yield JSON.parse(message.data) as Event;
        }
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      await sleep(retry); // the connection dropped: resume after the last event read
    }
  }
}
