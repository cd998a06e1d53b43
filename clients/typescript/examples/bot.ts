/**
 * A bot that plays Speed against a hosted bot (bot:easy) to the end, over the API with
 * this client: it follows the game's events live and, after each, acts with one of the
 * legal actions of its view (a play if it has one); each action gets an Idempotency-Key
 * by itself. A 422 means the move lost a race to the other seat, so it looks again.
 *
 *     npm run build && node dist/examples/bot.js http://127.0.0.1:8000
 */
import { ApiError, createSpitlogClient, streamEvents, unwrap } from "../src/index.js";

const base = process.argv[2] ?? "http://127.0.0.1:8000";
const created = await unwrap(createSpitlogClient(base).POST("/v1/games", {
  body: { game: "speed", opponent: "bot:easy" },
}));
const { id, token } = created;
if (!token) throw new Error("no seat of ours in the game");
const api = createSpitlogClient(base, { token });
const path = { game_id: id };

/** One move, if the view has one for us; again (at most 3 times) after a lost race. */
async function move(): Promise<void> {
  for (let tries = 0; tries < 3; tries++) {
    const view = await unwrap(api.GET("/v1/games/{game_id}", { params: { path } }));
    if (view.game !== "speed" || view.status !== "running") return;
    const actions = view.legal_actions.filter((a) => a.type !== "resign");
    const plays = actions.filter((a) => a.type === "play");
    const choices = plays.length ? plays : actions;
    if (!choices.length) return;
    try {
      await unwrap(api.POST("/v1/games/{game_id}/actions", {
        params: { path },
        body: choices[Math.floor(Math.random() * choices.length)],
      }));
      return; // done; its events will come
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
    }
  }
}

let events = 0;
await move();
for await (const _event of streamEvents(base, id, { token })) {
  events++;
  await move();
}
const end = await unwrap(api.GET("/v1/games/{game_id}", { params: { path } }));
console.log(`game ${id}: ${end.status} after ${events} events; winner seat ${end.winner}, ` +
  `result ${end.result} (you are seat 0)`);
