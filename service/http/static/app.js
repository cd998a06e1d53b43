"use strict";
// Uses only the public REST API and its SSE stream (docs: /docs).
const $app = document.getElementById("app");
const RED = new Set(["H", "D"]);
const tokens = JSON.parse(localStorage.getItem("spitlog.tokens") || "{}");
let G = null;  // the game on screen: {id, token, seat, view, mode, sel, stream, timer}

function saveToken(id, seat, token) {
  tokens[id] = {seat, token};
  localStorage.setItem("spitlog.tokens", JSON.stringify(tokens));
}
function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v != null) el.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k != null) el.append(k.nodeType ? k : String(k));
  return el;
}
async function api(method, path, body, token) {
  const headers = {"Accept": "application/json"};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = r.status === 204 || r.status === 304 ? null : await r.json().catch(() => null);
  if (!r.ok && r.status !== 304) {
    const e = new Error((data && (data.detail || data.title)) || r.statusText);
    e.status = r.status; e.rule = data && data.rule; throw e;
  }
  return data;
}

// ------------------------------------------------------------------ home
async function home() {
  stop();
  const form = h("form", {onsubmit: create},
    h("fieldset", {}, h("legend", {}, "New game"),
      h("label", {}, "Game ", h("select", {name: "game", onchange: (e) => toggleOpts(e.target.value)},
        h("option", {value: "spit"}, "Spit"), h("option", {value: "speed"}, "Speed"))),
      h("label", {}, "Opponent ", h("select", {name: "opponent"},
        h("option", {value: "bot:easy"}, "bot: easy"), h("option", {value: "bot:medium"}, "bot: medium"),
        h("option", {value: "bot:hard"}, "bot: hard"), h("option", {value: "bot:random"}, "bot: random"),
        h("option", {value: "human"}, "a friend (share a link)"))),
      h("div", {id: "spitopts"},
        h("label", {}, "Stockpiles ", h("select", {name: "stockpiles"}, h("option", {value: 5}, "5"), h("option", {value: 4}, "4"))),
        h("label", {}, "Piles after a round ", h("select", {name: "pile_choice"}, h("option", {value: "slap"}, "slap"), h("option", {value: "choose"}, "choose")))),
      h("div", {id: "speedopts", hidden: true},
        h("label", {}, "Side piles ", h("select", {name: "side_piles"}, h("option", {value: 10}, "10"), h("option", {value: 5}, "5")))),
      h("label", {}, h("input", {type: "checkbox", name: "alternate_colors"}), " alternate colours"),
      h("label", {}, "Client seed ", h("input", {name: "client_seed", size: 12, placeholder: "optional"})),
      " ", h("button", {type: "submit", id: "create"}, "Create")));
  const watch = h("form", {onsubmit: (e) => { e.preventDefault(); location.hash = "#/watch/" + e.target.gid.value.trim(); }},
    h("fieldset", {}, h("legend", {}, "Watch or replay a game"),
      h("input", {name: "gid", placeholder: "game id", required: true, "aria-label": "game id"}), " ",
      h("button", {type: "submit"}, "Watch")));
  const lobby = h("ul", {id: "lobby"});
  $app.replaceChildren(form, watch, h("h2", {}, "Open games"), lobby);
  try {
    const page = await api("GET", "/v1/games?status=open");
    const items = page.games || page.items || page.data || [];
    lobby.replaceChildren(...(items.length ? items.map((g) => h("li", {},
      `${g.game} ${g.id} `, h("a", {href: "#/join/" + g.id}, "join"), " · ", h("a", {href: "#/watch/" + g.id}, "watch")))
      : [h("li", {class: "muted"}, "none right now")]));
  } catch (e) { lobby.replaceChildren(h("li", {class: "err"}, e.message)); }
}
function toggleOpts(game) {
  document.getElementById("spitopts").hidden = game !== "spit";
  document.getElementById("speedopts").hidden = game !== "speed";
}
async function create(ev) {
  ev.preventDefault();
  const f = ev.target.elements;
  const game = f.game.value;
  const options = {alternate_colors: f.alternate_colors.checked};
  if (game === "spit") { options.stockpiles = +f.stockpiles.value; options.pile_choice = f.pile_choice.value; }
  else options.side_piles = +f.side_piles.value;
  const body = {game, options, opponent: f.opponent.value};
  if (f.client_seed.value) body.client_seed = f.client_seed.value;
  try {
    const r = await api("POST", "/v1/games", body);
    saveToken(r.id, r.seat, r.token);
    location.hash = "#/play/" + r.id;
  } catch (e) { alert(e.message); }
}
async function join(id) {
  try {
    const r = await api("POST", `/v1/games/${id}/seats`, {});
    saveToken(id, r.seat, r.token);
    location.replace("#/play/" + id);
  } catch (e) { $app.replaceChildren(h("p", {class: "err"}, `Cannot join: ${e.message}`), h("a", {href: "#/watch/" + id}, "watch instead")); }
}

// ------------------------------------------------------------------ a game, live
function stop() {
  if (G && G.stream) G.stream.abort();
  if (G && G.timer) clearInterval(G.timer);
  if (G && G.playTimer) clearInterval(G.playTimer);
  G = null;
}
async function open(id, mode) {
  stop();
  const t = tokens[id];
  G = {id, mode, token: mode === "play" && t ? t.token : null, seat: mode === "play" && t ? t.seat : null, sel: null};
  try { G.view = await api("GET", `/v1/games/${id}`, undefined, G.token); }
  catch (e) { $app.replaceChildren(h("p", {class: "err"}, e.message)); return; }
  if (["finished", "aborted"].includes(G.view.status)) return replay(id);
  draw();
  live();
  G.timer = setInterval(tick, 250);
}
async function live() {
  // SSE over fetch, so the seat's token can go in a header (EventSource cannot send one).
  // Any trouble (a refused or dropped stream) falls back to reading the view and trying
  // again a second later; tick() also re-reads a view that has not moved for a while.
  const g = G; const ctl = new AbortController(); g.stream = ctl;
  let last = g.view.version;
  while (G === g && !ctl.signal.aborted) {
    try {
      const headers = {"Accept": "text/event-stream", "Last-Event-ID": String(last)};
      if (g.token) headers["Authorization"] = "Bearer " + g.token;
      const r = await fetch(`/v1/games/${g.id}/events`, {headers, signal: ctl.signal});
      if (r.status === 204) { await refresh(g); break; }  // the game is over
      if (r.ok) {
        const reader = r.body.getReader(); const dec = new TextDecoder(); let buf = "";
        for (;;) {
          const {value, done} = await reader.read();
          if (done) break;
          buf += dec.decode(value, {stream: true});
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, i); buf = buf.slice(i + 2);
            const id = /^id: ?(\d+)/m.exec(block);
            if (id) last = Math.max(last, +id[1]);
          }
          if (last > g.view.version) await refresh(g);
        }
      }
    } catch (e) { if (ctl.signal.aborted) return; }
    if (G !== g) return;
    await refresh(g).catch(() => null);
    if (["finished", "aborted"].includes(g.view.status)) break;
    await new Promise((res) => setTimeout(res, 1000));
  }
}
async function refresh(g) {
  if (!g) return;
  g.seen = Date.now();
  const v = await api("GET", `/v1/games/${g.id}`, undefined, g.token);
  if (G !== g || !v) return;
  g.view = v;
  draw();
}
function tick() {
  if (G && G.view && G.mode !== "replay" && Date.now() - (G.seen || 0) > 3000) {
    G.seen = Date.now();
    refresh(G).catch(() => null);  // a safety net under the stream
  }
  const el = document.getElementById("countdown");
  if (!el || !G || !G.view.deadline) return;
  const ms = Date.parse(G.view.deadline.at) - Date.now();
  el.textContent = `${G.view.deadline.rule} in ${Math.max(0, ms / 1000).toFixed(1)} s`;
}

const legal = () => (G && G.view.legal_actions) || [];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const isLegal = (a) => legal().some((l) => same(l, a));
async function act(a) {
  const err = document.getElementById("err");
  const g = G;
  if (!g) return;
  try {
    const r = await api("POST", `/v1/games/${g.id}/actions`, a, g.token);
    if (G !== g) return;
    g.sel = null; g.view = r.state; draw();
  } catch (e) {
    if (err) err.textContent = `${e.message}${e.rule ? " (" + e.rule + ")" : ""}`;
    if (G === g) await refresh(g);
  }
}

function cardEl(text, opts = {}) {
  const cls = ["card"];
  if (text === null) cls.push("back");
  else if (text === undefined) cls.push("empty");
  else if (RED.has(text.slice(-1))) cls.push("red");
  for (const c of opts.cls || []) cls.push(c);
  const el = h("div", {class: cls.join(" "), role: opts.onclick ? "button" : "img", tabindex: opts.onclick ? 0 : null,
    "aria-label": opts.label || (text === null ? "face-down card" : text === undefined ? "empty" : text),
    "data-testid": opts.testid, draggable: opts.drag ? "true" : null,
    onclick: opts.onclick, onkeydown: opts.onclick ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onclick(); } } : null},
    text === undefined ? (opts.emptyText || "") : text === null ? "" : text);
  if (opts.key) el.append(h("span", {class: "key"}, opts.key));
  if (opts.drag) el.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", String(opts.drag)); opts.onclick && opts.onclick(); });
  if (opts.drop) {
    el.addEventListener("dragover", (e) => e.preventDefault());
    el.addEventListener("drop", (e) => { e.preventDefault(); opts.drop(); });
  }
  return el;
}

function draw() {
  const v = G.view; const you = v.you; const spit = v.game === "spit";
  const me = you === null ? 0 : you; const opp = 1 - me;
  const seatBox = (i) => {
    const p = v.players[i];
    const name = `${i === you ? "You" : "Seat " + i} (${p.kind || "empty seat"}) · ${p.cards} cards` +
      (spit ? ` · ${p.spit_cards} spit cards` : ` · draw pile ${p.draw_pile}`) + (p.ready && v.phase === "ready" ? " · ready" : "") + (p.called ? " · called" : "");
    const row = h("div", {class: "row"});
    if (spit) (p.stockpiles || []).forEach((s, j) => row.append(stockSlot(i, j, s)));
    else if (i === you) (p.hand || []).forEach((c, j) => row.append(handSlot(c, j)));
    else for (let j = 0; j < (p.hand_size || 0); j++) row.append(h("div", {class: "slot"}, cardEl(null)));
    return h("section", {class: "seat", "data-testid": `seat-${i}`}, h("h2", {}, name), row);
  };
  const centre = h("div", {class: "row", "data-testid": "centre"});
  const piles = spit ? v.spit_piles : v.centre_piles;
  piles.forEach((p, k) => {
    if (!spit) centre.append(h("div", {class: "slot"}, cardEl(v.side_piles[k].size ? null : undefined, {emptyText: "side"}), h("small", {}, `side ${v.side_piles[k].size}`)));
    const target = pileAction(k);
    const label = spit && p.exists === false ? "no pile" : `${p.size} cards`;
    centre.append(h("div", {class: "slot"},
      cardEl(p.size ? p.top : undefined, {cls: target ? ["target"] : [], key: "ab"[k], testid: `pile-${k}`,
        label: `pile ${k}: ${p.top || "empty"}`, onclick: target ? () => act(target) : null, drop: target ? () => act(target) : null, emptyText: "—"}),
      h("small", {}, `pile ${"ab"[k]} · ${label}`)));
  });
  const status = h("div", {class: "status"});
  status.append(h("span", {class: "banner", "data-testid": "phase"}, phaseText(v)));
  if (v.deadline) status.append(h("span", {id: "countdown", "data-testid": "countdown"}));
  for (const [type, text] of [["ready", "Ready (r)"], ["spit", "Spit! (s)"], ["draw", "Draw (d)"]]) {
    const a = legal().find((l) => l.type === type);
    if (a) status.append(h("button", {onclick: () => act(a), "data-testid": `btn-${type}`}, text));
  }
  if (you !== null && v.status === "running") status.append(h("button", {onclick: () => confirm("Resign?") && act({type: "resign"})}, "Resign"));
  if (G.mode === "play" && v.status === "waiting")
    status.append(h("span", {}, "Share: ", h("code", {}, location.origin + location.pathname + "#/join/" + v.id)));
  const info = h("p", {class: "muted"}, `${v.game} · ${v.id} · version ${v.version} · round ${v.round} · commitment ${String(v.commitment).slice(0, 16)}…`,
    you === null ? " · spectating" : "", " · keys: 1–5 cards, a/b piles, r ready, s spit, d draw");
  $app.replaceChildren(h("div", {class: "table"}, seatBox(opp), centre, status, h("div", {class: "err", id: "err"}), seatBox(me)), info);
  tick();
  if (["finished", "aborted"].includes(v.status)) { stop(); setTimeout(() => replay(v.id), 600); }
}
function phaseText(v) {
  if (v.status === "finished") return v.winner === null ? "Draw" : v.winner === v.you ? "You won!" : v.you === null ? `Seat ${v.winner} won` : "You lost";
  if (v.status === "waiting") return "Waiting for an opponent";
  if (v.status === "aborted") return "Aborted";
  const words = {ready: "Press ready to start", playing: "Play!", stalemate: "Stalemate: call spit!", slap: "Slap the smaller pile!", choose: "Choose a pile", dealing: "Dealing"};
  return words[v.phase] || v.phase;
}
// What clicking pile k does now: play the selected card, slap, or choose.
function pileAction(k) {
  const v = G.view;
  if (v.phase === "slap") return legal().find((l) => l.type === "slap" && l.pile === k);
  if (v.phase === "choose") return legal().find((l) => l.type === "choose" && l.pile === k);
  if (G.sel === null) return null;
  if (v.game === "spit") return legal().find((l) => l.type === "play" && l.from === G.sel && l.to === k);
  return legal().find((l) => l.type === "play" && l.card === G.sel && l.to === k);
}
function stockSlot(i, j, s) {
  const mine = i === G.view.you;
  let cls = [], onclick = null;
  if (mine) {
    const turn = legal().find((l) => l.type === "turn_up" && l.stockpile === j);
    const canPlay = legal().some((l) => (l.type === "play" || l.type === "move") && l.from === j);
    const moveHere = G.sel !== null && legal().find((l) => l.type === "move" && l.from === G.sel && l.to === j);
    if (turn) { cls.push("legal"); onclick = () => act(turn); }
    else if (moveHere) { cls.push("target"); onclick = () => act(moveHere); }
    else if (canPlay) { cls.push("legal"); onclick = () => { G.sel = G.sel === j ? null : j; draw(); }; }
    if (G.sel === j) cls.push("selected");
  }
  const text = s.size ? s.top : undefined;
  return h("div", {class: "slot"}, cardEl(text, {cls, onclick, key: mine ? String(j + 1) : null, drag: mine && cls.includes("legal") && s.top ? j + 1 : null,
    testid: `stock-${i}-${j}`, label: `stockpile ${j + 1}: ${s.size ? (s.top || "face down") : "empty"}`}), h("small", {}, `${s.size}`));
}
function handSlot(c, j) {
  const can = legal().some((l) => l.type === "play" && l.card === c);
  const cls = can ? ["legal"] : [];
  if (G.sel === c) cls.push("selected");
  return h("div", {class: "slot"}, cardEl(c, {cls, key: String(j + 1), testid: `hand-${j}`, drag: can ? j + 1 : null,
    onclick: can ? () => { G.sel = G.sel === c ? null : c; draw(); } : null}));
}
document.addEventListener("keydown", (e) => {
  if (!G || !G.view || G.mode !== "play" || e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const v = G.view;
  if (/^[1-5]$/.test(e.key)) {
    const j = +e.key - 1;
    if (v.game === "spit") {
      const turn = legal().find((l) => l.type === "turn_up" && l.stockpile === j);
      const move = G.sel !== null && legal().find((l) => l.type === "move" && l.from === G.sel && l.to === j);
      if (turn) return act(turn);
      if (move) return act(move);
      G.sel = legal().some((l) => (l.type === "play" || l.type === "move") && l.from === j) && G.sel !== j ? j : null;
    } else {
      const c = (v.players[v.you].hand || [])[j];
      G.sel = c && G.sel !== c ? c : null;
    }
    return draw();
  }
  const k = {a: 0, b: 1}[e.key];
  if (k !== undefined) { const a = pileAction(k); if (a) act(a); return; }
  const byKey = {r: "ready", s: "spit", d: "draw"}[e.key];
  if (byKey) { const a = legal().find((l) => l.type === byKey); if (a) act(a); }
  if (e.key === "Escape") { G.sel = null; draw(); }
});

// ------------------------------------------------------------------ replay of a finished game
async function replay(id) {
  stop();
  G = {id, mode: "replay", sel: null};
  const g = G;
  let audit = null, last;
  try {
    last = await api("GET", `/v1/games/${id}`);
    audit = await api("GET", `/v1/games/${id}/audit`).catch((e) => ({error: e.message}));
  } catch (e) { $app.replaceChildren(h("p", {class: "err"}, e.message)); return; }
  const n = last.version;
  const slider = h("input", {type: "range", min: 1, max: n, value: n, "aria-label": "version", "data-testid": "slider"});
  const pos = h("span", {"data-testid": "replay-version"});
  const board = h("div");
  const playBtn = h("button", {"data-testid": "play-pause"}, "▶ Play");
  const verdict = audit && !audit.error ? auditText(audit) : `audit: ${audit && audit.error}`;
  async function show(ver) {
    const s = await api("GET", `/v1/games/${id}/states/${ver}`);
    if (G !== g) return;
    slider.value = ver; pos.textContent = `version ${ver} / ${n}`;
    board.replaceChildren(fullTable(s));
  }
  slider.addEventListener("input", () => show(+slider.value));
  playBtn.addEventListener("click", () => {
    if (g.playTimer) { clearInterval(g.playTimer); g.playTimer = null; playBtn.textContent = "▶ Play"; return; }
    if (+slider.value >= n) slider.value = 1;
    playBtn.textContent = "❚❚ Pause";
    g.playTimer = setInterval(() => { const v = +slider.value + 1; if (v > n) { clearInterval(g.playTimer); g.playTimer = null; playBtn.textContent = "▶ Play"; } else show(v); }, 350);
  });
  const step = (d) => h("button", {onclick: () => show(Math.min(n, Math.max(1, +slider.value + d))), "data-testid": d < 0 ? "step-back" : "step-forward"}, d < 0 ? "◀ Back" : "Forward ▶");
  $app.replaceChildren(
    h("h2", {}, `${last.game} ${id}: ${last.status}${last.winner !== null ? ", seat " + last.winner + " won" : ""} (${last.result || ""})`),
    h("p", {"data-testid": "verdict"}, verdict),
    h("div", {class: "status"}, step(-1), playBtn, step(1), pos), slider, board);
  await show(n);
}
function auditText(a) {
  const deals = (a.deals || []).length;
  const judged = a.rules ? a.rules.checked : "?";
  return a.verified
    ? `Audit: verified — ${deals} deals re-derived from the revealed seed, ${judged} events re-judged (commitment ${String(a.commitment).slice(0, 16)}…)`
    : `Audit: FAILED — ${(a.rules && a.rules.reason) || "a deal does not match its seed"}`;
}
function fullTable(s) {
  const spit = s.game === "spit";
  const seat = (i) => {
    const p = s.players[i];
    const row = h("div", {class: "row"});
    if (spit) p.stockpiles.forEach((st) => row.append(h("div", {class: "slot"},
      cardEl(st.cards.length ? (st.face_up ? st.cards[st.cards.length - 1] : null) : undefined), h("small", {}, st.cards.length))));
    else p.hand.forEach((c) => row.append(h("div", {class: "slot"}, cardEl(c))));
    return h("section", {class: "seat"}, h("h2", {}, `Seat ${i} (${p.kind}) · ${Array.isArray(p.spit_cards) ? p.spit_cards.length + " spit cards · " : ""}${typeof p.cards === "number" ? p.cards + " cards" : ""}`), row);
  };
  const piles = spit ? s.spit_piles : s.centre_piles;
  const centre = h("div", {class: "row"}, ...piles.map((p, k) => h("div", {class: "slot"},
    cardEl(p.cards.length ? p.cards[p.cards.length - 1] : undefined, {emptyText: "—"}), h("small", {}, `pile ${"ab"[k]} · ${p.cards.length}`))));
  return h("div", {class: "table"}, seat(1), centre, h("div", {class: "status"}, h("span", {class: "banner"}, s.phase)), seat(0));
}

// ------------------------------------------------------------------ routes
function route() {
  const [, what, id] = location.hash.split("/");
  if (what === "play" && id) return open(id, "play");
  if (what === "watch" && id) return open(id, "watch");
  if (what === "join" && id) return join(id);
  return home();
}
window.addEventListener("hashchange", route);
route();
