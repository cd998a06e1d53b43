/**
 * Lines an integrator's compiler must refuse (tests/e2e/test_client_packages.py): each
 * line marked `// refused` must get an error from `tsc --strict`, and no other.
 */
import { createSpitlogClient, streamEvents, unwrap } from "spitlog-client";

const api = createSpitlogClient("http://127.0.0.1:8000", { token: "token" });
const path = { game_id: "g_1" };
await api.POST("/v1/games/{game_id}/actions", { params: { path }, body: { type: "play", card: 3, nope: true } }); // refused: an unknown field
await api.POST("/v1/games/{game_id}/actions", { params: { path }, body: { type: "fly" } }); // refused: no such action
await api.POST("/v1/games", { body: { game: "chess" } }); // refused: no such game
await api.GET("/v1/nope"); // refused: no such path
const view = await unwrap(api.GET("/v1/games/{game_id}", { params: { path } }));
view.nope; // refused: a view has no such field
for await (const event of streamEvents("http://127.0.0.1:8000", "g_1")) {
  if (event.type === "card_played") event.nope; // refused: no such field of the event
}
createSpitlogClient("http://127.0.0.1:8000", { timeoutMs: "5s" }); // refused: a number of ms
