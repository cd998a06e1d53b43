// The replay of a finished game: every version of its table, step by step, each step told
// in words ("Seat 1 played 7♥ from stockpile 3 on pile b").
import { allEvents, api, GAME_ID, seatOf } from "./api.js";
import { h, morph, screen } from "./dom.js";
import { boardEl, normalize } from "./board.js";
import { endReason, endTitle, narrate, seatName } from "./words.js";
import { exportButton } from "./table.js";

let R = null;  // the replay on screen: {id, n, version, states, timer}

export function leaveReplay() {
  if (R && R.timer) clearInterval(R.timer);
  R = null;
}

export async function replay(id) {
  leaveReplay();
  if (!GAME_ID.test(id)) {
    screen([h("h1", { tabindex: "-1" }, "No such game"), h("p", { "data-testid": "error" }, `“${id}” is not a game id: a game id is g_ followed by 16 letters and digits (0–9, a–f).`)]);
    return;
  }
  const r = { id, states: new Map(), timer: null };
  R = r;
  screen(h("p", {}, "Loading the replay…"));
  let last, events, audit;
  try {
    last = await api("GET", `/v1/games/${id}`);
    if (last.status !== "finished" && last.status !== "aborted") {
      screen([h("h1", { tabindex: "-1" }, "Not over yet"), h("p", { "data-testid": "error" }, "This game is still running: its replay opens once it is over."), h("p", {}, h("a", { href: `#/watch/${id}` }, "Watch it live"))]);
      return;
    }
    [events, audit] = await Promise.all([allEvents(id), api("GET", `/v1/games/${id}/audit`).catch((e) => ({ error: e.message }))]);
  } catch (e) {
    screen([h("h1", { tabindex: "-1" }, "Replay not available"), h("p", { "data-testid": "error" }, e.status === 404 ? `There is no game ${id}.` : `The replay could not be loaded: ${e.message}.`)]);
    return;
  }
  if (R !== r) return;
  r.n = last.version;
  r.events = events;
  r.players = last.players.map((p) => ({ kind: p.kind }));
  // a game this browser played: its seat is "you" all along the replay
  const held = seatOf(id);
  r.you = held && last.players[held.seat] ? held.seat : null;
  const game = last.game === "speed" ? "Speed" : "Spit";
  const end = { ...normalize(last), you: r.you };
  const name = (i) => (i === r.you ? `you (Seat ${i + 1})` : seatName(i, last.players[i].kind));
  // the deals: a mark on the slider and a jump button each ("Round 2", or Speed's "Game 2")
  const deals = events.filter((e) => e.type === "spit_dealt" || e.type === "speed_dealt")
    .map((e) => ({ version: e.version, name: e.type === "spit_dealt" ? `Round ${e.round}` : `Game ${e.game_no}` }));
  const marks = h("datalist", { id: "replay-rounds", "data-testid": "round-marks" },
    deals.map((d) => h("option", { value: d.version, label: d.name })));
  const jumps = deals.length ? h("nav", { class: "buttons rounds", "aria-label": "Jump to a deal" },
    deals.map((d, i) => h("button", { type: "button", "data-testid": `round-${i + 1}`, onclick: () => show(r, d.version) }, d.name))) : null;
  const slider = h("input", { type: "range", id: "replay-slider", min: 1, max: r.n, value: r.n, list: "replay-rounds", "data-testid": "slider" });
  slider.addEventListener("input", () => show(r, +slider.value));
  const button = (text, testid, f) => h("button", { type: "button", "data-testid": testid, onclick: f }, text);
  r.playBtn = button("▶ Play", "play-pause", () => togglePlay(r));
  r.slider = slider;
  r.pos = h("span", { "data-testid": "replay-version" });
  r.narration = h("p", { class: "narration", "data-testid": "narration", "aria-live": "polite" });
  r.box = h("div", { class: "table-box" });
  screen([
    h("h1", { tabindex: "-1", "data-testid": "replay-title" }, `Replay of ${game}: ${name(0)} vs ${name(1)}`),
    h("p", { "data-testid": "replay-result" }, `${endTitle(end).replace(/!$/, "")}: ${endReason(end)}`),
    h("p", { class: `verdict ${audit && audit.verified ? "ok" : "bad"}`, "data-testid": "verdict" }, auditText(audit)),
    r.bar = h("div", { class: "replay-controls", "data-testid": "replay-controls" },
      h("div", { class: "buttons" },
        button("◀ Back", "step-back", () => show(r, r.version - 1)), r.playBtn, button("Forward ▶", "step-forward", () => show(r, r.version + 1)),
        r.pos),
      h("label", { for: "replay-slider" }, "Move to a step"), slider, marks, markBar(deals, r.n)),
    jumps,
    r.narration,
    r.box,
    h("div", { class: "buttons" }, h("a", { class: "button", href: "#/" }, "New game"), last.status === "finished" ? exportButton(id) : null,
      h("span", { role: "status", "data-testid": "replay-status" })),
  ]);
  keepClear(r.bar);
  await show(r, r.n);
}

/** Keeps what gets the focus clear of the sticky `bar`: the page scrolls a focused element
 * to below the bar (scroll-padding-top of its height, measured as it changes). */
function keepClear(bar) {
  const root = document.documentElement;
  const seen = new ResizeObserver(() => {
    if (!bar.isConnected) return seen.disconnect();  // another screen (it resets the padding)
    root.style.scrollPaddingTop = `${bar.offsetHeight}px`;
  });
  seen.observe(bar);
}

/** The deals drawn as ticks under the slider, where its thumb stands at each (the ticks
 * are a picture: the jump buttons say the same to a screen reader). */
function markBar(deals, n) {
  const bar = h("div", { class: "round-ticks", "aria-hidden": "true", "data-testid": "round-ticks" });
  for (const d of deals) {
    const tick = h("span", { class: "tick" }, d.name.split(" ")[1]);
    const at = n > 1 ? (d.version - 1) / (n - 1) : 0;
    tick.style.left = `calc(8px + (100% - 16px) * ${at})`;  // the thumb's travel: the track less its width
    bar.append(tick);
  }
  return bar;
}

async function stateAt(r, version) {
  if (!r.states.has(version)) r.states.set(version, api("GET", `/v1/games/${r.id}/states/${version}`));
  return r.states.get(version);
}

/** Shows the table after `version` events and says what that event was. */
async function show(r, version) {
  const ver = Math.min(r.n, Math.max(1, version));
  r.version = ver;
  r.slider.value = ver;
  r.pos.textContent = `step ${ver} of ${r.n}`;
  const event = r.events[ver - 1];
  r.narration.textContent = event ? `Step ${ver}: ${narrate(event, { you: r.you, players: r.players })}` : "";
  let s;
  try {
    s = await stateAt(r, ver);
  } catch (e) {
    r.narration.textContent = `Step ${ver} could not be loaded: ${e.message}.`;
    return;
  }
  if (R !== r || r.version !== ver) return;
  const v = { ...normalize(s), you: r.you };
  const board = boardEl(v, {
    status: h("div", { class: "status" }, h("span", { class: "phase", "data-testid": "phase" }, phaseWords(v))),
  });
  const moved = event ? movedCard(board, event) : null;
  if (moved) moved.classList.add("moved");
  morph(r.box, h("div", { class: "table-box" }, board));
}

/** The card of `board` that the step's event moved: the pile a card was played on, the
 * stockpile a card was turned up on or moved to, the card drawn; null for other events. */
function movedCard(board, e) {
  const q = (sel) => board.querySelector(sel);
  switch (e.type) {
    case "card_played": return q(`[data-testid=pile-${e.to}]`);
    case "card_turned_up": return q(`[data-testid=stock-${e.seat}-${e.stockpile}]`);
    case "card_moved": return q(`[data-testid=stock-${e.seat}-${e.to}]`);
    case "card_drawn": return e.card ? q(`[data-testid=seat-${e.seat}] [data-card="${e.card}"]`) : null;
    default: return null;
  }
}

function phaseWords(v) {
  if (v.status === "waiting") return "Waiting for a second player";
  if (v.status === "finished") return "Game over";
  if (v.status === "aborted") return "Cancelled";
  return { ready: "Getting ready", playing: "Playing", stalemate: "Stalemate", slap: "Slapping", choose: "Choosing a pile", dealing: "Dealing" }[v.phase] || v.phase;
}

function togglePlay(r) {
  if (r.timer) {
    clearInterval(r.timer);
    r.timer = null;
    r.playBtn.textContent = "▶ Play";
    return;
  }
  if (r.version >= r.n) show(r, 1);
  r.playBtn.textContent = "❚❚ Pause";
  r.timer = setInterval(() => {
    if (R !== r || r.version >= r.n) {
      clearInterval(r.timer);
      r.timer = null;
      r.playBtn.textContent = "▶ Play";
      return;
    }
    show(r, r.version + 1);
  }, 600);
}

function auditText(a) {
  if (!a || a.error) return `Audit not available: ${a ? a.error : "no answer"}.`;
  if (a.verified) {
    const deals = (a.deals || []).length;
    const checked = a.rules ? a.rules.checked : 0;
    return `Audit verified: ${deals} ${deals === 1 ? "deal" : "deals"} re-derived from the revealed seed, ${checked} events checked against the rules.`;
  }
  return `Audit FAILED: ${(a.rules && a.rules.reason) || "a deal does not match its seed"}.`;
}
