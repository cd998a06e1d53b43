// The public REST API and its SSE stream: the only way the page learns or changes anything.

/** A game id as the API writes it (anything else cannot name a game). */
export const GAME_ID = /^g_[0-9a-f]{16}$/;

/** An answer of the API that is not a success: status, the problem's detail, and for an
 * illegal move the rule it broke (its ID in docs/rules.md; the page says it in words instead). */
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.rule = problem ? problem.rule : undefined;
    this.problem = problem;
  }
}

/** One request: JSON in and out, the seat's token as a bearer token. Throws ApiError. */
export async function api(method, path, { body, token, accept = "application/json" } = {}) {
  const headers = { Accept: accept };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

// ------------------------------------------------------------------ seats this browser holds
const KEY = "spitlog.tokens";
const held = JSON.parse(localStorage.getItem(KEY) || "{}");

/** The seat and token this browser holds in game `id` (null if none). */
export const seatOf = (id) => held[id] || null;

export function keepSeat(id, seat, token) {
  held[id] = { seat, token };
  localStorage.setItem(KEY, JSON.stringify(held));
}

/** Reads the game's live stream (SSE over fetch, so that the seat's token can go in a
 * header, which EventSource cannot send) and calls onEvent(event) for each event after
 * version `after`, in order; with `onView`, the stream carries the viewer's views
 * (`?views=true`: the view of now first, then one after each batch of events) and
 * onView(view) is called with each, so that the page never reads the game after an event; onLink("open" | "lost" | "gone") each time it opens the
 * stream, cannot reach the server, or hears that the game does not exist (then it stops). Returns when the game is over and every event has been read
 * (the API answers 204), or when `signal` aborts; a dropped or refused stream is opened
 * again a second later from the last version read. */
export async function follow(id, token, after, onEvent, signal, onLink = () => {}, onView = null) {
  let last = after;
  const path = `/v1/games/${id}/events` + (onView ? "?views=true" : "");
  while (!signal.aborted) {
    try {
      const headers = { Accept: "text/event-stream", "Last-Event-ID": String(last) };
      if (token) headers.Authorization = "Bearer " + token;
      const r = await fetch(path, { headers, signal });
      if (r.status === 204) return;
      onLink(r.ok ? "open" : r.status === 404 ? "gone" : "lost");
      if (r.status === 404) return;
      if (r.ok) {
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
          let cut;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
            if (!data.length) continue;  // a keep-alive comment
            if (onView && block.split("\n").includes("event: view")) {
              onView(JSON.parse(data.join("\n")).state);
              continue;
            }
            const event = JSON.parse(data.join("\n"));
            if (event.version > last) {
              last = event.version;
              onEvent(event);
            }
          }
        }
      }
    } catch (e) {
      if (signal.aborted) return;
      onLink("lost");  // the server cannot be reached
    }
    await new Promise((res) => setTimeout(res, 1000));
  }
}

/** Every event of a game's log (in full once the game is over), a page at a time. */
export async function allEvents(id) {
  const out = [];
  for (;;) {
    const page = await api("GET", `/v1/games/${id}/events?after=${out.length}&limit=1000`);
    out.push(...page.events);
    if (!page.events.length || out.length >= page.version) return out;
  }
}

/** Whether the API offers `path` (e.g. "/v1/games/{game_id}/rematch"), read once from its
 * own OpenAPI document: features that come later light up without a change here. */
let spec = null;
export async function offers(path) {
  if (spec === null) spec = fetch("/openapi.yaml").then((r) => (r.ok ? r.text() : "")).catch(() => "");
  return (await spec).includes(`\n  ${path}:`);
}
