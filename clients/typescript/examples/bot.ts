/**
 * A bot that plays Speed against a hosted bot (bot:easy) to the end, over the API with
 * this client's LiveGame: the server streams its seat's view after every event, so it
 * never reads the game again; on each new view it acts with one of its legal actions (a
 * play if it has one), each action with an Idempotency-Key made for it. A RuleRefused
 * (422) means the move lost a race to the other seat: the next view comes anyway.
 *
 *     npm run build && node dist/examples/bot.js http://127.0.0.1:8000
 */
import { createSpitlogClient, LiveGame, RuleRefused, unwrap } from "../src/index.js";

const base = process.argv[2] ?? "http://127.0.0.1:8000";
const created = await unwrap(createSpitlogClient(base).POST("/v1/games", {
  body: { game: "speed", opponent: "bot:easy" },
}));
const { id, token } = created;
if (!token) throw new Error("no seat of ours in the game");

const live = new LiveGame(base, id, { token });
let views = 0;
let races = 0;
for await (const view of live) { // the view now, then each new one until the end
  views++;
  if (view.game !== "speed" || view.status !== "running") continue;
  const actions = view.legal_actions.filter((a) => a.type !== "resign");
  const plays = actions.filter((a) => a.type === "play");
  const choices = plays.length ? plays : actions;
  if (!choices.length) continue;
  try {
    await live.act(choices[Math.floor(Math.random() * choices.length)]);
  } catch (error) {
    if (!(error instanceof RuleRefused)) throw error;
    races++;
  }
}
const end = live.state;
if (!end) throw new Error("no view of the game");
console.log(`${races} races lost, ${live.reconnects} reconnects`);
console.log(`game ${id}: ${end.status} after ${views} views; winner seat ${end.winner}, ` +
  `result ${end.result} (you are seat 0)`);
