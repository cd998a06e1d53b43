// The table drawn from a state view: the live game, the end screen and the replay all use
// it. A full state (after the game: every card) is first brought to the live view's shape.
import { h } from "./dom.js";
import { cardEl, cardName as cardNameOf } from "./cards.js";
import { pileName, seatName, stockName, who, Who } from "./words.js";

/** A view in the live shape, whatever shape it came in. After a game the API answers the
 * full state (stockpiles and piles as lists of cards, spit cards and draw piles as lists,
 * every hand); this gives sizes and tops as during the game, keeps every hand (all cards
 * are public then) and adds `pool` (the cards a Spit player took to deal the next round). */
export function normalize(s) {
  const full = s.players.some((p) => Array.isArray(p.spit_cards) || Array.isArray(p.draw_pile));
  const v = { ...s, full, players: s.players.map((p) => ({ ...p })) };
  for (const p of v.players) {
    if (Array.isArray(p.spit_cards)) p.spit_cards = p.spit_cards.length;
    if (Array.isArray(p.draw_pile)) p.draw_pile = p.draw_pile.length;
    if (Array.isArray(p.pool)) p.pool = p.pool.length;
    if (p.stockpiles) {
      p.stockpiles = p.stockpiles.map((st) => (Array.isArray(st.cards)
        ? { size: st.cards.length, top: st.cards.length && st.face_up ? st.cards[st.cards.length - 1] : null }
        : st));
    }
    if (full && Array.isArray(p.hand)) p.hand_size = p.hand.length;
  }
  const top = (cards) => (cards.length ? cards[cards.length - 1] : null);
  if (v.spit_piles) v.spit_piles = v.spit_piles.map((p) => (Array.isArray(p.cards) ? { size: p.cards.length, top: top(p.cards), exists: p.exists } : p));
  if (v.side_piles) v.side_piles = v.side_piles.map((p) => (Array.isArray(p.cards) ? { size: p.cards.length } : p));
  if (v.centre_piles) {
    if (Array.isArray(s.middle) && s.middle.length) v.centre_piles = s.middle.map(() => ({ size: 1, top: null, face_down: true }));
    else v.centre_piles = v.centre_piles.map((p) => (Array.isArray(p.cards) ? { size: p.cards.length, top: top(p.cards) } : p));
  }
  return v;
}

const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** The table. `o`: {you (the seat shown at the bottom and named "you"; null for a
 * spectator), cmds (seat -> the commands of that seat's cards, see table.js), pileCmd
 * (k -> a command or ""), sel, status (an element: phase, hint, timer), notice,
 * controls (an element)}. Without cmds, nothing is clickable. */
export function boardEl(v, o = {}) {
  const you = v.you;
  const bottom = you === null || you === undefined ? 0 : you;
  const top = 1 - bottom;
  return h("div", { class: "table", "data-testid": "table", "data-version": v.version, "data-phase": v.phase,
    "data-predicted": v.predicted ? "true" : null },
    o.status ? h("div", { class: "area-status" }, o.status) : null,
    seatEl(v, bottom, o, "area-me"),
    centreEl(v, o),
    o.controls ? h("div", { class: "area-controls" }, o.controls) : null,
    seatEl(v, top, o, "area-opp"),
    h("div", { class: "area-notice notice", "data-testid": "notice" }, o.notice || ""),
  );
}

function seatEl(v, i, o, area) {
  const p = v.players[i];
  const spit = v.game === "spit";
  const mine = Boolean(o.cmds) && i === v.you;
  const spectator = v.you === null || v.you === undefined;
  const bot = p.kind && p.kind.startsWith("bot:") ? p.kind.slice(4) : null;
  let title = Who(i, v.you, v.players);  // "You", "The bot", "Your opponent"
  if (spectator) title = seatName(i, p.kind);
  else if (i !== v.you && bot) title = `The bot (${bot})`;
  const flags = [];
  if (v.status === "running" && v.phase === "ready" && p.ready) flags.push("ready");
  if (v.status === "running" && v.phase === "stalemate" && p.called) flags.push("called spit");
  let counts;
  const row = h("div", { class: "row" });
  if (spit) {
    const piles = p.stockpiles || [];
    const inStock = piles.reduce((n, s) => n + (s.size || 0), 0);
    counts = `${plural(p.cards, "card")}: ${inStock} in stockpiles, ${plural(p.spit_cards || 0, "spit card")}`;
    if (p.pool) counts += `, ${p.pool} taken for the next deal`;
    piles.forEach((s, j) => row.append(stockSlot(v, i, j, s, mine ? o : null)));
    for (let j = piles.length; j < ((v.options || {}).stockpiles || 0); j++) row.append(placeholder(`st${i}-${j}`));
    const spits = p.spit_cards || 0;  // the spit pile: face down, a card pile like the others
    row.append(h("div", { class: "slot", "data-key": `spit-${i}` },
      cardEl(spits ? null : undefined, { testid: `spit-${i}`, label: `spit pile: ${plural(spits, "card")}`, emptyText: "none", depth: spits }),
      h("span", { class: "under", "aria-hidden": "true" }, `spit ${spits}`)));
  } else {
    const handSize = Array.isArray(p.hand) ? p.hand.length : (p.hand_size || 0);
    counts = `${plural(p.cards, "card")}: ${handSize} in hand, ${p.draw_pile || 0} in the draw pile`;
    if (Array.isArray(p.hand)) p.hand.forEach((c, j) => row.append(handSlot(v, i, j, c, mine ? o : null)));
    else for (let j = 0; j < handSize; j++) row.append(h("div", { class: "slot", "data-key": `h${i}-${j}` }, cardEl(null, { label: `a card in ${who(i, v.you, v.players)}'s hand` }), UNDER()));
    for (let j = Array.isArray(p.hand) ? p.hand.length : handSize; j < HAND; j++) row.append(placeholder(`h${i}-${j}`));
    row.append(h("div", { class: "slot", "data-key": `draw-${i}` },
      cardEl(p.draw_pile ? null : undefined, { testid: `draw-${i}`, label: `draw pile: ${plural(p.draw_pile || 0, "card")}`, emptyText: "none", depth: p.draw_pile }),
      h("span", { class: "under", "aria-hidden": "true" }, `draw ${p.draw_pile || 0}`)));
  }
  if (flags.length) counts += ` · ${flags.join(", ")}`;
  const head = h("h2", {}, title, h("span", { class: "counts", "data-testid": `counts-${i}` }, counts));
  return h("section", { class: `seat ${area}`, "data-testid": `seat-${i}`, "aria-label": title }, head, row);
}

const HAND = 5;  // a Speed hand holds at most five cards

/** An invisible place of a card's size: a row keeps its width as cards leave it. */
const placeholder = (key) => h("div", { class: "slot", "data-key": key, "aria-hidden": "true" },
  h("div", { class: "card none" }), UNDER());
/** The line under a card that has nothing to say there (every slot of a row is as tall). */
const UNDER = () => h("span", { class: "under", "aria-hidden": "true" });

function stockSlot(v, i, j, s, o) {
  const card = s.size ? s.top : undefined;
  const what = s.size ? (s.top ? null : "face down") : "empty";
  const label = `${stockName(j)}: ${what || ""}`;
  let cmd = null;
  const cls = [];
  if (o) {
    cmd = o.cmds.stock(j);
    if (cmd.startsWith("turn") || cmd.startsWith("sel") || cmd.startsWith("play")) cls.push("legal");
    if (cmd.startsWith("move")) cls.push("target");
    if (o.sel === j) cls.push("selected");
  }
  const name = s.size && s.top ? `${stockName(j)}: ${cardNameOf(s.top)}` : label;
  const hint = !o || !cmd ? "" : cmd.startsWith("turn") ? ", turn it up" : cmd.startsWith("move") ? ", move the selected card here"
    : o.sel === j ? ", selected" : cmd.startsWith("why") ? ", fits no pile now" : playsOn(cmd);
  const extra = o ? { "data-drop": `stock:${j}`, "data-drag": o.cmds.drag(j) ? String(j) : null } : {};
  return h("div", { class: "slot", "data-key": `st${i}-${j}` },
    cardEl(card, { cmd: o ? cmd : null, cls, testid: `stock-${i}-${j}`, hotkey: o ? String(j + 1) : null, label: name + hint, emptyText: "empty", extra, depth: s.size }),
    h("span", { class: "under", "aria-hidden": "true" }, plural(s.size, "card")));
}

function handSlot(v, i, j, c, o) {
  let cmd = null;
  const cls = [];
  if (o) {
    cmd = o.cmds.hand(c);
    if (cmd && !cmd.startsWith("why")) cls.push("legal");
    if (o.sel === c) cls.push("selected");
  }
  const hint = !o || !cmd ? "" : o.sel === c ? ", selected" : cmd.startsWith("why") ? ", fits no pile now" : playsOn(cmd);
  const extra = o && o.cmds.drag(c) ? { "data-drag": c } : {};
  return h("div", { class: "slot", "data-key": `h${i}-${j}` },
    cardEl(c, { cmd: o ? cmd : null, cls, testid: i === v.you ? `hand-${j}` : `hand-${i}-${j}`, hotkey: o ? String(j + 1) : null, label: cardNameOf(c) + hint, extra }),
    UNDER());
}

/** The end of a card's accessible name that says what a click does. */
function playsOn(cmd) {
  if (cmd.startsWith("play:")) return `, plays on ${pileName(+cmd.split(":")[2])}`;
  if (cmd.startsWith("sel:") || cmd.startsWith("card:")) return ", can be played: pick it, then where it goes";
  return "";
}

function centreEl(v, o) {
  const spit = v.game === "spit";
  const row = h("div", { class: "row area-centre", "data-testid": "centre", role: "group", "aria-label": "The piles in the middle" });
  const piles = (spit ? v.spit_piles : v.centre_piles) || [];
  piles.forEach((p, k) => {
    if (!spit) {
      const side = (v.side_piles || [])[k] || { size: 0 };
      row.append(h("div", { class: "slot", "data-key": `side-${k}` },
        cardEl(side.size ? null : undefined, { testid: `side-${k}`, label: `side pile ${"ab"[k]}: ${plural(side.size, "card")}`, emptyText: "none", depth: side.size }),
        h("span", { class: "under", "aria-hidden": "true" }, `side ${side.size}`)));
    }
    const exists = !(spit && p.exists === false);
    const cmd = o.pileCmd ? o.pileCmd(k) : null;
    const card = !exists || !p.size ? undefined : p.top;
    const what = !exists ? "none this round" : p.size ? (p.top ? cardNameOf(p.top) : "face down") : "empty";
    const label = `${pileName(k)}: ${what}${exists && p.size ? `, ${plural(p.size, "card")}` : ""}${cmd ? (o.sel !== null && o.sel !== undefined ? ", play the selected card here" : v.phase === "slap" ? ", slap it" : v.phase === "choose" ? ", choose it" : ", spit here") : ""}`;
    row.append(h("div", { class: "slot", "data-key": `pile-${k}` },
      cardEl(card, { cmd: o.pileCmd ? cmd : null, cls: cmd ? ["target"] : [], testid: `pile-${k}`, hotkey: o.pileCmd ? "ab"[k] : null, label, emptyText: exists ? "—" : "none", depth: exists ? p.size : 0,
        extra: o.pileCmd ? { "data-drop": `pile:${k}` } : {} }),
      h("span", { class: "under", "aria-hidden": "true" }, `${pileName(k)} · ${exists ? p.size : "none"}`)));
  });
  return row;
}
