// The TypeScript client's LiveGame against a served API (tests/e2e/test_live_clients.py):
// a game of Speed between two seats, seat 1 followed live through a fetch that answers
// 429 once and drops the first stream after its first view. Prints a JSON summary.
import { createSpitlogClient, LiveGame, RuleRefused, VersionMoved, unwrap } from
  "../../../clients/typescript/dist/src/index.js";

const base = process.argv[2];
const anyone = createSpitlogClient(base);
const created = await unwrap(anyone.POST("/v1/games", { body: { game: "speed" } }));
const seated = await unwrap(anyone.POST("/v1/games/{game_id}/seats", {
  params: { path: { game_id: created.id } }, body: {},
}));
const streams = [];
const posts = [];
const slept = [];
let answered429 = false;
let cut = false;
const streamFetch = async (url, init) => {
  streams.push({ url: String(url), lastEventId: init.headers["Last-Event-ID"] ?? null });
  if (!answered429) {
    answered429 = true;
    return new Response(JSON.stringify({ type: "/docs#problem-too-many", title: "T",
      status: 429, detail: "d" }), { status: 429, headers: { "Retry-After": "2" } });
  }
  const response = await fetch(url, init);
  if (cut) return response;
  cut = true; // the first stream drops after its first view
  const reader = response.body.getReader();
  let seen = "";
  const body = new ReadableStream({
    async pull(controller) {
      if (seen.includes("event: view")) {
        controller.error(new TypeError("the connection dropped"));
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) return controller.close();
      seen += new TextDecoder().decode(value);
      controller.enqueue(value);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
};
const recording = (input) => {
  posts.push({ key: input.headers.get("Idempotency-Key"), ifMatch: input.headers.get("If-Match") });
  return fetch(input);
};
const sleep = async (ms) => { slept.push(ms); };
const other = new LiveGame(base, created.id, { token: created.token, fetch: recording });
const live = new LiveGame(base, created.id, {
  token: seated.token, streamFetch, sleep, fetch: recording,
});
const versions = [];
const summary = { refused: null, moved: null };
for await (const view of live) {
  versions.push(view.version);
  if (view.version === 3) {
    await other.act({ type: "ready" });
  } else if (view.status === "running" && view.phase === "ready" && !view.players[1].ready) {
    await live.act({ type: "ready" }, { expectedVersion: view.version });
  } else if (view.status === "running" && summary.refused === null) {
    const hand = new Set(view.players[1].hand ?? []);
    const outside = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "AD", "2D"]
      .find((c) => !hand.has(c));
    try {
      await live.act({ type: "play", card: outside, to: 0 });
    } catch (error) {
      summary.refused = [error instanceof RuleRefused, error.status, error.rule];
    }
    try {
      await live.act({ type: "ready" }, { expectedVersion: 1 });
    } catch (error) {
      summary.moved = [error instanceof VersionMoved, error.status];
    }
    await live.act({ type: "resign" });
  }
}
console.log(JSON.stringify({
  ...summary, versions, slept, streams: streams.map((s) => s.lastEventId),
  views: streams.every((s) => s.url.endsWith("?views=true")),
  keys: posts.map((p) => p.key), ifMatch: posts.map((p) => p.ifMatch),
  status: live.state.status, result: live.state.result, reconnects: live.reconnects,
}));
