/**
 * `LiveGame`: a game kept current from its events stream with views
 * (`GET /v1/games/{id}/events?views=true`, SSE read from fetch's body), so that a player
 * never reads the game after an event: the server sends the seat's new view with each
 * batch of events.
 *
 *     const live = new LiveGame(base, gameId, { token });
 *     for await (const view of live) {            // each new view, until the game's end
 *       await live.act({ type: "ready" });         // RuleRefused: the rules said no
 *     }
 *
 * It reconnects when the stream ends (SPITLOG_SSE_MAX_S) or drops and resumes with
 * `Last-Event-ID`, so no view is missed or given twice; it waits out a `429`/`503`
 * stream answer's `Retry-After`. An action goes as `POST /v1/games/{id}/actions` with an
 * `Idempotency-Key` made for it (kept on the retries of `safeFetch`, which honour
 * `Retry-After` too) and, if asked, the version it was decided on (`If-Match`).
 */
import createClient from "openapi-fetch";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { apiError, retryAfterSeconds, unwrap } from "./errors.js";
import { safeFetch, type SafetyOptions } from "./fetch.js";
import type { components, paths } from "./schema.js";

type State = components["schemas"]["State"];
type Action = components["schemas"]["Action"];
type Acted = components["schemas"]["Acted"];

const OVER = new Set(["finished", "aborted"]);

export interface LiveGameOptions extends SafetyOptions {
  /** a seat's token: its views and its actions (none: a spectator's views) */
  token?: string;
  /** how long to wait before reconnecting after a dropped stream (the server's `retry:`
   * replaces it; 1 s) */
  retryMs?: number;
  /** stops the stream */
  signal?: AbortSignal;
  /** the stream's fetch (globalThis.fetch) */
  streamFetch?: typeof fetch;
  /** how it waits (a test's may not) */
  sleep?: (ms: number) => Promise<void>;
}

export interface ActOptions {
  /** act only if the game is still at this version (`If-Match`): `VersionMoved` if not */
  expectedVersion?: number;
  /** the action's key (one made for it by default) */
  idempotencyKey?: string;
}

export class LiveGame implements AsyncIterable<State> {
  /** the latest view (from the stream, or an action's answer) */
  state?: State;
  /** its version (-1 before the first) */
  version = -1;
  /** streams opened again after one ended or dropped */
  reconnects = 0;
  private resume?: string;
  private retryMs: number;
  private readonly api;

  constructor(
    readonly baseUrl: string,
    readonly gameId: string,
    private readonly options: LiveGameOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 1000;
    const headers: Record<string, string> = {};
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    this.api = createClient<paths>({ baseUrl, headers, fetch: safeFetch(options) });
  }

  get over(): boolean {
    return this.state !== undefined && OVER.has(this.state.status);
  }

  [Symbol.asyncIterator](): AsyncGenerator<State> {
    return this.views();
  }

  /** Each view newer than the last one given, as the stream brings it; reconnects and
   * resumes until the game is over. Throws `ApiError` for an answer that is not a
   * stream (404, 401), or a `Retry-After` longer than `maxWaitMs` (60 s). */
  async *views(): AsyncGenerator<State> {
    const url = `${this.baseUrl}/v1/games/${encodeURIComponent(this.gameId)}/events?views=true`;
    const wait = this.options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
    const maxWaitMs = this.options.maxWaitMs ?? 60_000;
    let given = -1;
    for (;; this.reconnects++) {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (this.options.token) headers.Authorization = `Bearer ${this.options.token}`;
      if (this.resume !== undefined) headers["Last-Event-ID"] = this.resume;
      let response: Response;
      try {
        response = await (this.options.streamFetch ?? fetch)(url, {
          headers, signal: this.options.signal,
        });
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        await wait(this.retryMs);
        continue;
      }
      if (response.status === 204) { // over, and every event was sent
        if (this.state && this.version > given) yield this.state;
        return;
      }
      if (response.status !== 200 || !response.body) {
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const after = retryAfterSeconds(response.headers.get("Retry-After"));
        if ((response.status === 429 || response.status === 503) &&
            (after === undefined || after * 1000 <= maxWaitMs)) {
          await wait(after === undefined ? this.retryMs : after * 1000);
          continue;
        }
        throw apiError(response.status, body, after);
      }
      const ready: EventSourceMessage[] = [];
      const parser = createParser({
        onEvent: (message) => ready.push(message),
        onRetry: (ms) => (this.retryMs = ms),
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
          for (let message = ready.shift(); message; message = ready.shift()) {
            if (message.id) this.resume = message.id;
            if (message.event !== "view") continue;
            const { state } = JSON.parse(message.data) as { version: number; state: State };
            this.keep(state);
            if (state.version > given) {
              given = state.version;
              yield state;
              if (OVER.has(state.status)) {
                await reader.cancel();
                return;
              }
            }
          }
        }
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        await wait(this.retryMs); // dropped: resume after the last id read
      }
    }
  }

  /** Your seat's action: the events it made and your new view (kept as `state`).
   * `RuleRefused` (422, with `rule`) when the rules refuse it now; `VersionMoved` (412)
   * when `expectedVersion` is not the game's version. */
  async act(action: Action, options: ActOptions = {}): Promise<Acted> {
    const header: { "Idempotency-Key": string; "If-Match"?: string } = {
      "Idempotency-Key": options.idempotencyKey ?? crypto.randomUUID(),
    };
    if (options.expectedVersion !== undefined) header["If-Match"] = `"${options.expectedVersion}"`;
    const acted = await unwrap(this.api.POST("/v1/games/{game_id}/actions", {
      params: { path: { game_id: this.gameId }, header },
      body: action,
    }));
    this.keep(acted.state);
    return acted;
  }

  private keep(state: State): void {
    if (state.version > this.version) {
      this.state = state;
      this.version = state.version;
    }
  }
}


