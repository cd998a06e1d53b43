/**
 * An integrator's program on the installed `spitlog-client` tarball (tests/e2e/
 * test_client_packages.py copies it into a clean project): it must compile with
 * `tsc --strict` and `skipLibCheck` off, with no value of the client's typed `any`, and
 * play a short game of Speed against the server at `argv[2]`: both seats (the second
 * joined without a token), both ready, a refused move (its rule), a legal one, a
 * resignation, every event read live, typed; and check webhook signatures
 * (`SPITLOG_TEST_WEBHOOK`: secret, header, body and time as JSON). Its last line is a
 * JSON summary.
 */
import {
  ApiError,
  createSpitlogClient,
  streamEvents,
  unwrap,
  verifyWebhook,
  type Event,
  type State,
} from "spitlog-client";

/** `true` only for `any`: `const x: NotAny<typeof v> = true` fails to compile on `any`. */
type NotAny<T> = 0 extends 1 & T ? false : true;

const base = process.argv[2] ?? "http://127.0.0.1:8000";
const api = createSpitlogClient(base);
const created = await unwrap(api.POST("/v1/games", { body: { game: "speed" } }));
const typedCreated: NotAny<typeof created> = true;
if (!created.token) throw new Error("no seat of ours");
const id = created.id;
const path = { game_id: id };
const me = createSpitlogClient(base, { token: created.token });
const seated = await unwrap(api.POST("/v1/games/{game_id}/seats", { params: { path }, body: {} }));
const other = createSpitlogClient(base, { token: seated.token });
await unwrap(me.POST("/v1/games/{game_id}/actions", { params: { path }, body: { type: "ready" } }));
const acted = await unwrap(other.POST("/v1/games/{game_id}/actions", {
  params: { path }, body: { type: "ready" },
}));
const typedActed: NotAny<typeof acted.version> = true;
const view: State = await unwrap(me.GET("/v1/games/{game_id}", { params: { path } }));
const typedView: NotAny<typeof view> = true;
if (view.game !== "speed") throw new Error(`a view of ${view.game}`);
const hand = new Set(view.players[0]?.hand ?? []);
const outside = [..."A23456789"].flatMap((r) => [`${r}C`, `${r}D`]).find((c) => !hand.has(c));
let refused: ApiError | undefined;
try {
  await unwrap(me.POST("/v1/games/{game_id}/actions", {
    params: { path }, body: { type: "play", card: outside ?? "AC", to: 0 },
  }));
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  refused = error;
}
const typedRule: NotAny<typeof refused> = true;
const play = view.legal_actions.find((a) => a.type === "play");
const played = play
  ? (await unwrap(me.POST("/v1/games/{game_id}/actions", { params: { path }, body: play }))).version
  : null;
await unwrap(other.POST("/v1/games/{game_id}/actions", { params: { path }, body: { type: "resign" } }));
const events: Event[] = [];
for await (const event of streamEvents(base, id, { token: created.token })) {
  const typedEvent: NotAny<typeof event> = true;
  events.push(event);
}
const last = events[events.length - 1];
const end = await unwrap(me.GET("/v1/games/{game_id}", { params: { path } }));
const [secret, header, body, t] = JSON.parse(process.env.SPITLOG_TEST_WEBHOOK ?? "[]") as string[];
const verified = await verifyWebhook(secret, header, body, { now: Number(t) });
const typedVerified: NotAny<typeof verified> = true;
console.log(JSON.stringify({
  game: id,
  version_after_ready: acted.version,
  refused: [refused?.status, refused?.rule, refused?.problem?.type],
  played,
  cards_played: events.filter((e) => e.type === "card_played").length,
  events: events.map((e) => e.type),
  versions: events.map((e) => e.version),
  ended: last?.type === "game_ended" ? [last.winner, last.reason] : null,
  status: end.status,
  verified,
  tampered: await verifyWebhook(secret, header, `${body} `, { now: Number(t) }),
  typed: [typedCreated, typedActed, typedView, typedRule, typedVerified],
}));
