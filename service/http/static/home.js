// The home screen: start a game (against a bot, a friend, or two bots to watch), find games
// in the lobby (open, live, finished), and open one by its id.
import { api, keepSeat, seatOf } from "./api.js";
import { h, screen } from "./dom.js";
import { prefsFieldset } from "./prefs.js";
import { seatName } from "./words.js";

const BOTS = [["bot:easy", "bot: easy"], ["bot:medium", "bot: medium"], ["bot:hard", "bot: hard"], ["bot:random", "bot: random (plays anything)"]];
const option = ([value, text], selected) => h("option", { value, selected: value === selected }, text);
const field = (label, control, cls = "field") => h("label", { class: cls }, h("span", {}, label), control);

/** The home screen; `tab`: the lobby's tab to open ("open", "running", "finished"), which
 * the URL keeps (#/games/<tab>) so that Back comes back to it. */
export function home(tab = "open") {
  const said = h("p", { role: "status", "data-testid": "home-status" });
  const form = h("form", { "data-testid": "new-game-form", onsubmit: (e) => { e.preventDefault(); start(form, said, false); } },
    h("fieldset", {}, h("legend", {}, "New game"),
      h("div", { class: "fields" },
        field("Game", h("select", { name: "game", onchange: () => showOptions(form) }, option(["spit", "Spit"]), option(["speed", "Speed"]))),
        field("Opponent", h("select", { name: "opponent" }, BOTS.map((b) => option(b, "bot:easy")), option(["human", "a friend (share a link)"]))),
        h("div", { class: "fields", "data-for": "spit" },
          field("Stockpiles", h("select", { name: "stockpiles" }, option(["5", "5"]), option(["4", "4 (shorter)"]))),
          field("After a round", h("select", { name: "pile_choice" }, option(["slap", "slap a pile"]), option(["choose", "the winner chooses"])))),
        h("div", { class: "fields", "data-for": "speed", hidden: true },
          field("Side piles", h("select", { name: "side_piles" }, option(["10", "10 cards"]), option(["5", "5 cards"])))),
        field("alternate colours", h("input", { type: "checkbox", name: "alternate_colors" }), "field check")),
      h("p", { class: "muted" }, "What the options mean: ", h("a", { href: "#/learn/spit", "data-testid": "options-explained" }, "How to play, table options"), "."),
      h("details", {}, h("summary", {}, "More options"),
        h("div", { class: "fields" },
          field("Rounds at most (Speed: games)", h("input", { type: "number", name: "max_rounds", min: 1, max: 10000, placeholder: "60", inputmode: "numeric" })),
          field("Seconds before spit is called for you", h("input", { type: "number", name: "spit_grace_s", min: 0.05, max: 86400, step: "any", placeholder: "3" })),
          field("Your seed for the shuffle (optional)", h("input", { name: "client_seed", maxlength: 128, placeholder: "any text" })))),
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary", id: "create", "data-testid": "create" }, "Start the game"),
        h("button", { type: "button", id: "bots", "data-testid": "bot-vs-bot", onclick: () => start(form, said, true) }, "Watch two bots play")),
      said));
  const find = h("form", { onsubmit: (e) => { e.preventDefault(); const id = e.target.elements.gid.value.trim(); location.hash = `#/watch/${id}`; } },
    h("fieldset", {}, h("legend", {}, "Watch or replay a game"),
      h("div", { class: "fields" },
        field("Game id", h("input", { name: "gid", required: true, placeholder: "g_0123456789abcdef", autocomplete: "off" })),
        h("button", { type: "submit" }, "Open"))));
  const list = h("ul", { class: "games", "data-testid": "lobby", "aria-live": "polite", "aria-busy": "true" });
  const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": "Games by status" });
  const lobby = h("section", { "aria-labelledby": "lobby-title" }, h("h2", { id: "lobby-title" }, "Games"), tabs,
    h("div", { role: "tabpanel", id: "lobby-panel", "aria-labelledby": "tab-open" }, list));
  const kinds = [["open", "Open: take a seat"], ["running", "Live: watch"], ["finished", "Finished: replay"]];
  for (const [status, text] of kinds) {
    tabs.append(h("button", { type: "button", role: "tab", id: `tab-${status}`, "aria-controls": "lobby-panel", "data-testid": `tab-${status}`,
      onclick: () => loadLobby(tabs, list, status, true) }, text));
  }
  screen([
    h("h1", { tabindex: "-1" }, "Spit and Speed, live"),
    h("p", {}, "Two-player card games with no turns: both players play at once, and the quickest hands win. New here? Read ",
      h("a", { href: "#/learn/spit" }, "how to play Spit"), " or ", h("a", { href: "#/learn/speed" }, "how to play Speed"), "."),
    h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", "data-testid": "play-now", onclick: () => playNow(said) },
      "Play Spit now"), h("span", { class: "muted" }, "against the easy bot, with the usual rules")),
    form, find, lobby, prefsFieldset(),
  ]);
  loadLobby(tabs, list, ["open", "running", "finished"].includes(tab) ? tab : "open", false);
}

function showOptions(form) {
  const game = form.elements.game.value;
  for (const el of form.querySelectorAll("[data-for]")) el.hidden = el.dataset.for !== game;
}

function gameBody(form, watch) {
  const f = form.elements;
  const game = f.game.value;
  const options = { alternate_colors: f.alternate_colors.checked };
  if (game === "spit") {
    options.stockpiles = +f.stockpiles.value;
    options.pile_choice = f.pile_choice.value;
  } else {
    options.side_piles = +f.side_piles.value;
  }
  if (f.max_rounds.value) options.max_rounds = +f.max_rounds.value;
  if (f.spit_grace_s.value) options.spit_grace_s = +f.spit_grace_s.value;
  const opponent = f.opponent.value;
  const body = { game, options };
  if (watch) {
    body.seat0 = opponent === "human" ? "bot:medium" : opponent;
    body.opponent = opponent === "human" ? "bot:medium" : opponent;
  } else {
    body.opponent = opponent;
  }
  if (f.client_seed.value) body.client_seed = f.client_seed.value;
  return body;
}

async function start(form, said, watch) {
  said.textContent = watch ? "Starting a game of two bots…" : "Starting the game…";
  try {
    const r = await api("POST", "/v1/games", { body: gameBody(form, watch) });
    if (r.token) {
      keepSeat(r.id, r.seat, r.token);
      location.hash = `#/play/${r.id}`;
    } else {
      location.hash = `#/watch/${r.id}`;
    }
  } catch (e) {
    const fields = e.problem && e.problem.errors ? Object.entries(e.problem.errors).map(([k, v]) => `${k}: ${[v].flat().join(", ")}`).join("; ") : "";
    said.textContent = `The game could not be started: ${fields || e.message}.`;
  }
}

function ago(iso) {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** One click to a game: Spit against the easy bot, default options. */
async function playNow(said) {
  said.textContent = "Starting the game…";
  try {
    const r = await api("POST", "/v1/games", { body: { game: "spit", opponent: "bot:easy" } });
    keepSeat(r.id, r.seat, r.token);
    location.hash = `#/play/${r.id}`;
  } catch (e) {
    said.textContent = `The game could not be started: ${e.message}.`;
  }
}

async function loadLobby(tabs, list, status, chosen = false) {
  if (chosen) history.replaceState(null, "", `#/games/${status}`);
  for (const t of tabs.children) t.setAttribute("aria-selected", String(t.id === `tab-${status}`));
  tabs.parentElement.querySelector("[role=tabpanel]").setAttribute("aria-labelledby", `tab-${status}`);
  list.setAttribute("aria-busy", "true");
  try {
    const page = await api("GET", `/v1/games?status=${status}&limit=20`);
    const items = page.games.map((g) => gameItem(g, status, () => loadLobby(tabs, list, status)));
    list.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, { open: "No open games right now: start one above.", running: "No live games right now: start two bots above.", finished: "No finished games yet." }[status])]));
  } catch (e) {
    list.replaceChildren(h("li", {}, `The games could not be listed: ${e.message}.`));
  }
  list.setAttribute("aria-busy", "false");
}

/** How a finished game ended, as its lobby row says it: who won (you, if this browser
 * held the winning seat), a draw, or an abort. */
function outcome(g, mine) {
  if (g.winner === null || g.winner === undefined) return g.status === "aborted" ? "aborted" : "a draw";
  return mine && mine.seat === g.winner ? "you won" : `Seat ${g.winner + 1} won`;
}

function gameItem(g, status, reload) {
  const game = g.game === "speed" ? "Speed" : "Spit";
  const players = g.players.map((p, i) => (p.kind ? seatName(i, p.kind) : `Seat ${i + 1} · free`)).join(" vs ")
    + (g.players.some((p) => !p.kind) ? ", waiting for an opponent" : "");
  const mine = seatOf(g.id);
  const what = h("span", { class: "what" }, h("strong", {}, game), ` · ${players} · ${ago(g.created_at)}`, mine ? " · your game" : "",
    "winner" in g ? h("span", { "data-testid": "lobby-result" }, ` · ${outcome(g, mine)}`) : "",
    h("br"), h("span", { class: "mono muted" }, g.id));
  const actions = [];
  if (status === "open") {
    if (mine) {
      actions.push(h("a", { class: "button", href: `#/play/${g.id}` }, "Open"));
      actions.push(h("button", { type: "button", class: "danger", "data-testid": "lobby-cancel", onclick: async (e) => {
        e.target.setAttribute("aria-disabled", "true");
        try { await api("POST", `/v1/games/${g.id}/actions`, { body: { type: "resign" }, token: mine.token }); } catch (err) { /* listed again below */ }
        reload();
      } }, "Cancel"));
    } else {
      actions.push(h("a", { class: "button primary", href: `#/join/${g.id}` }, "Join"));
    }
    actions.push(h("a", { class: "button", href: `#/watch/${g.id}` }, "Watch"));
  } else if (status === "running") {
    actions.push(h("a", { class: "button primary", href: `#/${mine ? "play" : "watch"}/${g.id}` }, mine ? "Play" : "Watch"));
  } else {
    actions.push(h("a", { class: "button primary", href: `#/replay/${g.id}` }, "Replay"));
    actions.push(h("a", { class: "button", href: `#/${mine ? "play" : "watch"}/${g.id}` }, "Result"));
  }
  return h("li", { "data-testid": "lobby-game", "data-id": g.id }, what, actions);
}
