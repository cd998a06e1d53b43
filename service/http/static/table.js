// A game on screen, live: playing a seat this browser holds, or watching; and its end.
import { ApiError, api, follow, GAME_ID, keepSeat, offers, seatOf } from "./api.js";
import { announce, announceOnly, clearLog, fly, h, historyEl, land, morph, note, screen } from "./dom.js";
import { boardEl, normalize } from "./board.js";
import { learnFold } from "./learn.js";
import { predicted, predicting } from "./predict.js";
import { prefs, tone } from "./prefs.js";
import {
  clockOwner, endReason, endTitle, hintText, kindWords, narrate, noFitText, phaseText, refusalText, seatName, timerWords, who,
} from "./words.js";

let G = null;  // the game on screen: see open()

/** Leaves the game on screen: its stream and its clock stop. */
export function leave() {
  if (!G) return;
  G.ctl.abort();
  clearInterval(G.timer);
  G = null;
}

const over = (v) => v.status === "finished" || v.status === "aborted";
/** The view on screen: the server's, with the player's plays on their way drawn ahead. */
const shown = (g) => g.shown || g.view;
const legal = (g) => (shown(g) && shown(g).legal_actions) || [];
const find = (g, f) => legal(g).find(f) || null;

/** The screen of a game that an id names: the page plays the seat it holds there
 * ("play", with the seat's token), or watches. A finished game shows its end. */
export async function open(id, mode) {
  leave();
  if (!GAME_ID.test(id)) return noGame(id);
  const held = seatOf(id);
  const token = mode === "play" && held ? held.token : null;
  const g = { id, token, view: null, sel: null, notice: "", ctl: new AbortController(), tops: [], back: false, refreshing: null, again: false, seen: Date.now(),
    pending: [], queue: Promise.resolve(), shown: null };
  G = g;
  screen(h("p", {}, "Loading the game…"), { inGame: true });
  clearLog();
  try {
    g.view = await api("GET", `/v1/games/${id}`, { token });
  } catch (e) {
    if (G === g) failed(e, id);
    return;
  }
  if (G !== g) return;
  g.kinds = g.view.players.map((p) => p.kind);
  const title = h("h1", { tabindex: "-1", "data-testid": "game-title" }, gameTitle(g.view));
  g.title = title;
  g.box = h("div", { class: "table-box" });
  g.meta = h("div", { class: "meta-box" });
  g.banner = h("div", { class: "connection", role: "status", "data-testid": "connection" });
  g.link = "open";
  g.log = historyEl();
  screen([title, g.banner, g.box, g.log, g.meta, learnFold(g.view.game)], { inGame: true });
  draw(g);
  if (over(g.view)) return;
  if (token) offers("/v1/games/{game_id}/rematch");  // read now: the end screen needs it at once
  follow(id, token, g.view.version, (e) => onEvent(g, e), g.ctl.signal, (state) => link(g, state), (v) => onView(g, v))
    .then(() => G === g && g.link !== "gone" && refresh(g));
  g.timer = setInterval(() => tick(g), 250);
}

function gameTitle(v) {
  const game = v.game === "speed" ? "Speed" : "Spit";
  if (v.you === null || v.you === undefined) return `${game}, watching ${seatName(0, v.players[0].kind)} vs ${seatName(1, v.players[1].kind)}`;
  const other = v.players[1 - v.you].kind;
  return `${game} against ${other ? kindWords(other) : "a friend (not here yet)"}`;
}

function noGame(id) {
  screen([
    h("h1", { tabindex: "-1" }, "No such game"),
    h("p", { "data-testid": "error" }, `“${id}” is not a game id: a game id is g_ followed by 16 letters and digits (0–9, a–f), as in g_0123456789abcdef.`),
    h("p", {}, h("a", { href: "#/" }, "Back to the games")),
  ]);
}

function failed(e, id) {
  const text = e instanceof ApiError && e.status === 404
    ? `There is no game ${id}. It may have been mistyped, or it is gone.`
    : `The game could not be loaded: ${e.message}.`;
  screen([h("h1", { tabindex: "-1" }, "Game not available"), h("p", { "data-testid": "error" }, text), h("p", {}, h("a", { href: "#/" }, "Back to the games"))]);
}

// ------------------------------------------------------------------ the live loop
const OWN = new Set(["card_played", "card_turned_up", "card_moved", "card_drawn", "player_ready", "spit_called",
  "pile_slapped", "pile_chosen", "player_resigned"]);

function onEvent(g, e) {
  if (G !== g) return;
  if (e.type === "seat_taken") g.kinds[e.seat] = e.kind;
  const line = narrate(e, { you: g.view.you, players: g.kinds.map((kind) => ({ kind })), game: g.view.game });
  // the player's own moves are said by the focus (unless the player asked to hear them),
  // and the end by the end screen: shown only
  const own = g.view.you !== null && g.view.you !== undefined && e.seat === g.view.you && !e.by && OWN.has(e.type);
  if (e.type === "card_played") tone(!own);
  if ((own && !prefs.sayOwn) || e.type === "game_ended" || e.type === "game_aborted") note(line);
  else announce(line);
}

/** A view the stream brought (after its events): drawn if it is newer than the one shown. */
function onView(g, v) {
  if (G !== g) return;
  g.seen = Date.now();
  if (v.version > g.view.version) {
    g.view = v;
    draw(g);
  }
}

/** Reads the view again; calls that come while one is on its way are folded into one more. */
function refresh(g) {
  if (g.refreshing) {
    g.again = true;
    return g.refreshing;
  }
  g.refreshing = (async () => {
    do {
      g.again = false;
      g.seen = Date.now();
      try {
        const v = await api("GET", `/v1/games/${g.id}`, { token: g.token });
        if (G === g && v.version >= g.view.version) {
          g.view = v;
          draw(g);
        }
      } catch (e) {  // the next event or the clock's check reads it again
        if (e instanceof ApiError && e.status === 404) link(g, "gone");
        else if (!(e instanceof ApiError)) link(g, "lost");
      }
    } while (g.again && G === g);
    g.refreshing = null;
  })();
  return g.refreshing;
}

function tick(g) {
  if (G !== g || g.link === "gone") return;
  if (Date.now() - g.seen > 5000) refresh(g);  // a safety net under the stream
  const el = g.box.querySelector("[data-testid=countdown]");
  if (!el) return;
  el.classList.toggle("paused", g.link === "lost");
  if (g.link !== "lost") el.textContent = timerLine(g.view);  // paused while the server is away
}

/** The state of the link to the server, from the stream and the reads: "open", "lost"
 * (reconnecting: the clock on screen stops), "gone" (the server does not know the game).
 * The banner says it; a link that comes back reads the game again, without a reload. */
function link(g, state) {
  if (G !== g || g.link === state || g.link === "gone") return;
  const was = g.link;
  g.link = state;
  clearTimeout(g.bannerTimer);
  g.banner.className = `connection ${state}`;
  if (state === "lost") {
    g.banner.textContent = "Connection lost: reconnecting… The clock on screen is paused; moves wait until the server is back.";
  } else if (state === "gone") {
    g.ctl.abort();
    clearInterval(g.timer);
    g.banner.replaceChildren("This game is gone: the server no longer has it (it may have been restarted). ",
      h("a", { href: "#/" }, "Back to the games"));
    announce("This game is gone: the server no longer has it.", { now: true });
  } else if (was === "lost") {
    g.banner.textContent = "Back online: the table is up to date.";
    g.bannerTimer = setTimeout(() => { if (G === g && g.link === "open") { g.banner.textContent = ""; g.banner.className = "connection"; } }, 4000);
    refresh(g);
  }
  draw(g);
}

function timerLine(v) {
  const words = timerWords(v);
  return words ? `${words} (${clockOwner(v)})` : "";
}

// ------------------------------------------------------------------ acting
/** The actions that move cards: each is sent after the answers to those sent before it, so
 * that the server takes them in the order played. The others (ready, spit, slap, choose,
 * resign) are sent at once, not behind a play whose answer is slow. */
const QUEUED = new Set(["play", "turn_up", "move", "draw"]);

/** Sends `action` (in order with the card moves before it, if it is one). A play is drawn on
 * its pile at once (predict.js); a refusal takes it back and says why. */
async function act(g, action) {
  if (!action) return;
  g.sel = null;
  const ahead = predicting() && action.type === "play";
  if (ahead) {
    g.pending.push(action);
    g.notice = "";
    // where the card was: it travels from there to its pile
    const src = g.view.game === "spit" ? `[data-testid=stock-${g.view.you}-${action.from}]` : `.area-me [data-card="${action.card}"]`;
    const el = g.box.querySelector(src);
    g.fly = el ? { k: action.to, from: el.getBoundingClientRect() } : null;
    draw(g);
    g.fly = null;
  }
  let since = g.view.version;  // the version the action was sent at
  const post = () => {
    since = g.view.version;
    return api("POST", `/v1/games/${g.id}/actions`, { body: action, token: g.token });
  };
  const queued = QUEUED.has(action.type);
  const send = queued ? g.queue.then(post) : post();
  if (queued) g.queue = send.catch(() => {});
  const done = () => { if (ahead) g.pending.splice(g.pending.indexOf(action), 1); };
  try {
    const r = await send;
    done();
    if (G !== g) return;
    g.notice = "";
    if (r.state.version >= g.view.version) g.view = r.state;
    g.seen = Date.now();
    draw(g);
  } catch (e) {
    done();
    if (G !== g) return;
    if (ahead) {  // the card goes back at once: the moves offered are the server's again
      g.back = true;  // (a card taken back does not land)
      draw(g);
      g.back = false;
    }
    const race = e.status === 422 && action.to !== undefined && action.type === "play" ? await raceOn(g, since, action.to) : null;
    if (G !== g) return;
    g.notice = refusalText(action, e, race, g.view.you, ahead);  // stays until the player's next action
    announce(g.notice, { now: true });
    draw(g);
    if (g.link !== "open") refresh(g);  // with the stream open, a newer view is on its way
  }
}

/** The seat that played on pile `k` after version `since` (the race a refused play lost),
 * read from the game's log; null if none did or the log cannot be read. */
async function raceOn(g, since, k) {
  try {
    const page = await api("GET", `/v1/games/${g.id}/events?after=${since}&limit=100`, { token: g.token });
    const hit = page.events.find((e) => e.type === "card_played" && e.to === k);
    return hit ? hit.seat : null;
  } catch (e) {
    return null;
  }
}

/** What clicking pile k does now: play the selected card, slap, choose, or spit there. */
function pileAction(g, k) {
  const v = shown(g);
  if (v.phase === "slap") return find(g, (a) => a.type === "slap" && a.pile === k);
  if (v.phase === "choose") return find(g, (a) => a.type === "choose" && a.pile === k);
  if (v.phase === "stalemate") return find(g, (a) => a.type === "spit" && a.pile === k);
  if (g.sel === null) return null;
  if (v.game === "spit") return find(g, (a) => a.type === "play" && a.from === g.sel && a.to === k);
  return find(g, (a) => a.type === "play" && a.card === g.sel && a.to === k);
}

/** The piles (k) a card can be played on now: `src` is a stockpile (Spit) or a card (Speed). */
function pilesFor(g, src) {
  const spit = g.view.game === "spit";
  return legal(g).filter((a) => a.type === "play" && (spit ? a.from === src : a.card === src)).map((a) => a.to);
}

/** The empty stockpile spaces (j) the top card of stockpile `src` can move to now (Spit). */
const spacesFor = (g, src) => legal(g).filter((a) => a.type === "move" && a.from === src).map((a) => a.to);

/** The commands of the player's own cards (data-cmd of their buttons; "" when none). A card
 * that fits exactly one pile plays there at once ("play:<src>:<k>"); one that fits both,
 * or can only move to a space, is selected first ("sel:"/"card:"); a face-up card that fits
 * nowhere says why when clicked ("why:<src>"). `drag(src)`: whether it can be dragged. */
function cardCmds(g) {
  return {
    stock(j) {
      if (find(g, (a) => a.type === "turn_up" && a.stockpile === j)) return `turn:${j}`;
      if (g.sel !== null && find(g, (a) => a.type === "move" && a.from === g.sel && a.to === j)) return `move:${j}`;
      const piles = pilesFor(g, j);
      if (piles.length === 1) return `play:${j}:${piles[0]}`;
      if (piles.length || spacesFor(g, j).length) return `sel:${j}`;
      const st = ((shown(g).players[g.view.you] || {}).stockpiles || [])[j];
      return st && st.size && st.top ? `why:${j}` : "";
    },
    hand(card) {
      const piles = pilesFor(g, card);
      if (piles.length === 1) return `play:${card}:${piles[0]}`;
      return piles.length ? `card:${card}` : `why:${card}`;
    },
    drag(src) {
      return pilesFor(g, src).length > 0 || (g.view.game === "spit" && spacesFor(g, src).length > 0);
    },
  };
}

/** The action for a card dragged from `src` onto `where` ("pile:<k>" or "stock:<j>"). */
function dropAction(g, src, where) {
  const [kind, n] = where.split(":");
  if (kind === "pile") {
    const spit = g.view.game === "spit";
    return find(g, (a) => a.type === "play" && a.to === +n && (spit ? a.from === src : a.card === src));
  }
  return find(g, (a) => a.type === "move" && a.from === src && a.to === +n);
}

/** Does a command of the table (a button's data-cmd, or a key's). With `shift`, a card
 * that would play at once is selected instead (to move it to an empty space). */
export function command(cmd, { shift = false } = {}) {
  const g = G;
  if (!g || !g.token || !cmd) return;
  const [op, arg, to] = cmd.split(":");
  const src = g.view.game === "spit" ? +arg : arg;
  switch (op) {
    case "sel": g.sel = g.sel === +arg ? null : +arg; return draw(g);
    case "card": g.sel = g.sel === arg ? null : arg; return draw(g);
    case "play":
      if (shift && g.view.game === "spit" && spacesFor(g, src).length) { g.sel = src; return draw(g); }
      return act(g, find(g, (a) => a.type === "play" && a.to === +to && (g.view.game === "spit" ? a.from === src : a.card === src)));
    case "why": return say(g, noFit(g, src));
    case "turn": return act(g, find(g, (a) => a.type === "turn_up" && a.stockpile === +arg));
    case "move": return act(g, find(g, (a) => a.type === "move" && a.from === g.sel && a.to === +arg));
    case "pile": return act(g, pileAction(g, +arg));
    case "do": return act(g, find(g, (a) => a.type === arg && (a.pile === undefined || a.pile === null)) || find(g, (a) => a.type === arg));
    case "resign": if (window.confirm("Resign this game? The other player wins.")) act(g, { type: "resign" }); return;
    case "cancel": return act(g, { type: "resign" });
    case "copy": return copyLink(g);
    case "escape": g.sel = null; return draw(g);
    default:
  }
}

/** A card dragged from `src` (a stockpile's index as text, or a card) and dropped on
 * `where` ("pile:<k>", "stock:<j>", or null: nowhere). */
export function dropped(srcText, where) {
  const g = G;
  if (!g || !g.token || !g.view || over(g.view)) return;
  const src = g.view.game === "spit" ? +srcText : srcText;
  if (!where) return;
  const action = dropAction(g, src, where);
  if (action) return act(g, action);
  if (where.startsWith("pile:")) return say(g, noFit(g, src, +where.slice(5)));
  return say(g, "A card moves only to an empty stockpile space, from a pile of two or more.");
}

/** The card of `src` (a stockpile's top or a card in hand) and the words for why it fits
 * nowhere (or not on pile `only`). */
function noFit(g, src, only = null) {
  const v = normalize(shown(g));
  const card = v.game === "spit" ? ((v.players[v.you].stockpiles || [])[src] || {}).top : src;
  const piles = (v.game === "spit" ? v.spit_piles : v.centre_piles) || [];
  const tops = piles.map((p, k) => ({ k, top: p.size && !(p.exists === false) ? p.top : null }))
    .filter((p) => only === null || p.k === only);
  return noFitText(v, card, tops);
}

/** Shows `text` in the notice area and says it (a reply to the player's own click). */
function say(g, text) {
  g.notice = text;
  announce(text, { now: true });
  draw(g);
}

/** The keys of keyboard play: 1–5 a card, a/b a pile, r ready, s spit, d draw, Escape. */
export function key(e) {
  const g = G;
  if (!g || !g.token || !g.view || over(g.view)) return false;
  const v = shown(g);
  const digit = /^[1-5]$/.test(e.key) ? e.key : /^Digit[1-5]$/.test(e.code || "") ? e.code.slice(5) : null;
  if (digit) {
    const j = +digit - 1;
    if (v.game === "spit") {
      command(cardCmds(g).stock(j), { shift: e.shiftKey });
    } else {
      const card = (v.players[v.you].hand || [])[j];
      if (card) command(cardCmds(g).hand(card));
    }
    return true;
  }
  const byKey = { a: "pile:0", b: "pile:1", r: "do:ready", s: "do:spit", d: "do:draw", Escape: "escape" }[e.key];
  if (byKey) command(byKey);
  return Boolean(byKey);
}

async function copyLink(g) {
  const input = g.box.querySelector("[data-testid=share-link]");
  const said = g.box.querySelector("[data-testid=copy-status]");
  try {
    await navigator.clipboard.writeText(input.value);
    said.textContent = "Link copied: send it to a friend.";
  } catch (e) {
    input.select();
    said.textContent = "Select the link and copy it (Ctrl+C).";
  }
}

// ------------------------------------------------------------------ drawing
function draw(g) {
  g.shown = g.pending.length ? predicted(g.view, g.pending) : g.view;
  const v = normalize(g.shown);
  if (g.sel !== null && !cardCmds(g)[v.game === "spit" ? "stock" : "hand"](g.sel)) g.sel = null;
  if (over(v)) return drawEnd(g, v);
  if (g.title.textContent !== gameTitle(v)) g.title.textContent = gameTitle(v);  // a friend joined
  const playing = Boolean(g.token) && v.you !== null && v.you !== undefined;
  const status = h("div", { class: "status", role: "group", "aria-label": "Game status" },
    h("span", { class: "phase", "data-testid": "phase" }, phaseText(v)),
    h("span", { class: "hint", "data-testid": "hint" }, hintText(v, g.sel)),
    h("span", { class: "timer", role: "timer", "data-testid": "countdown" }, timerLine(v)));
  let controls = null;
  if (playing && v.status === "running") {
    const names = v.game === "spit" ? [["ready", "Ready (r)"], ["spit", "Spit! (s)"]] : [["ready", "Ready (r)"], ["spit", "Spit! (s)"], ["draw", "Draw (d)"]];
    controls = h("div", { class: "controls" }, names.map(([type, text]) => {
      const ok = Boolean(find(g, (a) => a.type === type));
      return h("button", { type: "button", class: ok ? "primary" : null, "data-cmd": ok ? `do:${type}` : null, "aria-disabled": ok ? null : "true", "data-testid": `btn-${type}`, "data-key": `btn-${type}` }, text);
    }));
  }
  g.log.hidden = v.status === "waiting";  // nothing has happened yet
  if (v.status === "waiting") {  // no table yet: the invitation is the screen
    morph(g.box, h("div", { class: "table-box" }, inviteEl(v, playing, status)));
    morph(g.meta, h("div", { class: "meta-box" }, metaEl(g, v, playing)));
    return;
  }
  const board = boardEl(v, {
    cmds: playing ? cardCmds(g) : null,
    pileCmd: playing ? (k) => (pileAction(g, k) ? `pile:${k}` : "") : null,
    sel: g.sel, status, controls, notice: g.notice,
  });
  morph(g.box, h("div", { class: "table-box" }, board));
  animatePlays(g, v);
  morph(g.meta, h("div", { class: "meta-box" }, metaEl(g, v, playing)));
}

function animatePlays(g, v) {
  const piles = (v.game === "spit" ? v.spit_piles : v.centre_piles) || [];
  piles.forEach((p, k) => {
    const top = p.size ? p.top : null;
    const el = g.box.querySelector(`[data-testid=pile-${k}]`);
    if (g.tops.length && top && top !== g.tops[k] && !g.back) {
      if (g.fly && g.fly.k === k) fly(el, g.fly.from);  // the player's own card, from its place
      else land(el);
    }
    g.tops[k] = top;
  });
}

/** A game that waits for its second player: the invitation (the link to send, a copy
 * button, cancel) for the player, or what it waits for for a spectator; and the clock. */
function inviteEl(v, playing, status) {
  const link = `${location.origin}${location.pathname}#/join/${v.id}`;
  const parts = playing
    ? [h("h2", { id: "invite-title" }, "Invite a friend"),
      h("div", { class: "share" },
        h("label", { class: "sr-only", for: "share-link" }, "The link to this game"),
        h("input", { id: "share-link", readonly: true, value: link, "data-testid": "share-link" }),
        h("button", { type: "button", class: "primary", "data-cmd": "copy", "data-testid": "copy-link" }, "Copy link")),
      h("p", { role: "status", class: "copy-status", "data-testid": "copy-status" }),
      status,
      h("div", { class: "buttons" }, h("button", { type: "button", class: "danger", "data-cmd": "cancel", "data-testid": "cancel" }, "Cancel the game"))]
    : [h("h2", { id: "invite-title" }, "Waiting for a second player"), status];
  return h("section", { class: "invite", "data-testid": "invite", "aria-labelledby": "invite-title" }, parts);
}

function metaEl(g, v, playing) {
  const parts = [];
  if (playing && v.status === "running") parts.push(h("button", { type: "button", class: "danger", "data-cmd": "resign", "data-testid": "resign" }, "Resign"));
  parts.push(h("span", { class: "muted" }, `Game ${v.id}`, v.status === "waiting" ? "" : ` · round ${v.round}`, playing ? "" : " · you are watching"));
  if (!playing) parts.push(h("a", { href: `#/replay/${v.id}` }, "Replay from the start"));
  return h("div", { class: "game-meta" }, parts);
}

// ------------------------------------------------------------------ the end
function drawEnd(g, v) {
  const first = !g.ended;
  g.ended = true;
  leaveStream(g);
  if (!first) return;
  // whether a rematch is offered is known before the end is drawn: nothing appears later
  const offered = g.token && v.status === "finished" ? offers("/v1/games/{game_id}/rematch") : Promise.resolve(false);
  offered.then((can) => G === g && showEnd(g, v, can));
}

function showEnd(g, v, canRematch) {
  const title = endTitle(v);
  const why = endReason(v);
  const score = v.game === "speed" && Array.isArray(v.scores)
    ? h("p", { "data-testid": "score" }, `Score: ${v.scores.map((s, i) => `${who(i, v.you, v.players)} ${s}`).join(" — ")}`)
    : null;
  const rematch = h("button", { type: "button", hidden: !canRematch, "data-testid": "rematch" }, "Rematch");
  const exportBtn = exportButton(v.id);
  const end = h("section", { class: "end", "data-testid": "end", "aria-labelledby": "end-title" },
    h("h1", { id: "end-title", tabindex: "-1", "data-testid": "end-title" }, title),
    h("p", { class: "why", "data-testid": "end-reason" }, why),
    score,
    h("div", { class: "buttons" },
      h("a", { class: "button primary", href: "#/", "data-testid": "new-game" }, "New game"),
      rematch,
      v.status === "finished" ? h("a", { class: "button", href: `#/replay/${v.id}`, "data-testid": "replay" }, "Watch the replay") : null,
      v.status === "finished" ? exportBtn : null),
    h("p", { role: "status", class: "end-status", "data-testid": "end-status" }));
  const board = boardEl(v, { notice: "" });
  screen([end, h("h2", {}, "The table at the end"), h("div", { class: "table-box" }, board), learnFold(v.game)], { inGame: true });
  // the focus reads the title; the live region says why, once
  announceOnly(why);
  document.getElementById("end-title").focus();
  if (canRematch) offerRematch(g, rematch);
}

function leaveStream(g) {
  g.ctl.abort();
  clearInterval(g.timer);
}

function offerRematch(g, button) {
  button.addEventListener("click", async () => {
    const said = document.querySelector("[data-testid=end-status]");
    const path = `/v1/games/${g.id}/rematch`;
    const go = (r) => {
      keepSeat(r.game, r.seat, r.token);
      location.hash = `#/play/${r.game}`;
    };
    try {
      const r = await api("POST", path, { body: {}, token: g.token });
      if (r && r.status === "made") return go(r);
      said.textContent = "Rematch asked: it starts when the other player asks too.";
      button.disabled = true;
      // the answer of the other seat's ask makes the game: this seat reads it here
      while (G === g) {
        await new Promise((done) => setTimeout(done, 2000));
        const now = await api("GET", path, { token: g.token });
        if (now.status === "made") return go(now);
        if (now.status === "expired") {
          said.textContent = "No rematch: the other player did not ask in time.";
          return;
        }
      }
    } catch (e) {
      if (e.status === 404 || e.status === 405) button.hidden = true;
      said.textContent = `No rematch: ${e.message}.`;
    }
  });
}

/** The button that downloads a finished game's log as NDJSON (GET /v1/games/{id}/export
 * with Accept: application/x-ndjson), to check it with `spitlog audit`. */
export function exportButton(id) {
  const url = `/v1/games/${id}/export`;
  const b = h("button", { type: "button", "data-testid": "export", "data-href": url }, "Download the log (NDJSON)");
  b.addEventListener("click", async () => {
    const said = document.querySelector("[data-testid=end-status], [data-testid=replay-status]");
    try {
      const r = await fetch(url, { headers: { Accept: "application/x-ndjson" } });
      if (!r.ok) throw new Error(r.status === 404 ? "this server has no export yet" : `the server answered ${r.status}`);
      const blob = await r.blob();
      const a = h("a", { href: URL.createObjectURL(blob), download: `${id}.ndjson` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      if (said) said.textContent = "Log downloaded.";
    } catch (e) {
      if (said) said.textContent = `The log could not be downloaded: ${e.message}.`;
    }
  });
  return b;
}

/** Takes the free seat of a game and plays it. */
export async function join(id) {
  leave();
  if (!GAME_ID.test(id)) return noGame(id);
  try {
    const r = await api("POST", `/v1/games/${id}/seats`, { body: {} });
    keepSeat(id, r.seat, r.token);
    location.replace(`#/play/${id}`);
  } catch (e) {
    const why = e.status === 409 ? "it already has two players, or it is over" : e.status === 404 ? "there is no such game" : e.message;
    screen([h("h1", { tabindex: "-1" }, "Cannot join"), h("p", { "data-testid": "error" }, `You cannot join this game: ${why}.`),
      h("p", {}, h("a", { href: `#/watch/${id}` }, "Watch it instead"), " · ", h("a", { href: "#/" }, "Back to the games"))]);
  }
}
