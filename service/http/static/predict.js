// The table as it will be once the server takes the player's plays on their way: a play
// sent is drawn at once on its pile, and undone if the server refuses it. Only plays are
// drawn ahead (the card is known); turning up a card is not (the server alone knows it).

import { isRed, nextTo } from "./cards.js";

/** Whether `card` goes on a pile whose top is `top` (one rank apart, an ace next to both a
 * king and a 2; with alternate colours, of the other colour). */
function fits(card, top, alternate = false) {
  if (!card || !top) return false;
  return nextTo(card, top) && (!alternate || isRed(card) !== isRed(top));
}

/** Whether plays are drawn ahead: yes, unless this browser's storage says
 * `spitlog.predict` = "off" (a switch for measuring the page without it). */
export const predicting = () => localStorage.getItem("spitlog.predict") !== "off";

const same = (a, b) => a.type === b.type && a.from === b.from && a.to === b.to && a.card === b.card;

/** The view `v` (the live shape) after the play `action` of the viewer's seat, or null when
 * the play is not one of its legal actions now (then the server has taken it already, or
 * will refuse it). The legal actions after it: those that touch neither the card's source
 * nor its pile, and the viewer's face-up cards that fit the pile's new top. */
export function afterPlay(v, action) {
  if (action.type !== "play" || v.phase !== "playing" || v.you === null || v.you === undefined) return null;
  if (!(v.legal_actions || []).some((a) => same(a, action))) return null;
  const spit = v.game === "spit";
  const k = action.to;
  const players = v.players.map((p) => ({ ...p }));
  const me = players[v.you];
  let card;
  if (spit) {
    me.stockpiles = me.stockpiles.map((s) => ({ ...s }));
    const st = me.stockpiles[action.from];
    card = st.top;
    st.size -= 1;
    st.top = null;  // the next card lies face down until it is turned up
  } else {
    card = action.card;
    me.hand = (me.hand || []).filter((c) => c !== card);
    if (typeof me.hand_size === "number") me.hand_size -= 1;
  }
  if (!card) return null;
  me.cards -= 1;
  const key = spit ? "spit_piles" : "centre_piles";
  const piles = v[key].map((p, i) => (i === k ? { ...p, size: p.size + 1, top: card } : p));
  const touches = (a) => (a.type === "play" && (a.to === k || (spit ? a.from === action.from : a.card === card)))
    || (a.type === "move" && (a.from === action.from || a.to === action.from));
  const legal = (v.legal_actions || []).filter((a) => !touches(a));
  const alternate = Boolean((v.options || {}).alternate_colors);
  if (spit) {
    me.stockpiles.forEach((s, j) => {
      if (s.size && s.top && fits(s.top, card, alternate)) legal.push({ type: "play", from: j, to: k });
    });
  } else {
    for (const c of me.hand) if (fits(c, card, alternate)) legal.push({ type: "play", card: c, to: k });
  }
  return { ...v, players, [key]: piles, legal_actions: legal, predicted: true };
}

/** The view to draw: the server's `v` with each play of `pending` (in the order sent) that
 * is still legal drawn on it. */
export function predicted(v, pending) {
  let out = v;
  for (const action of pending) out = afterPlay(out, action) || out;
  return out;
}
