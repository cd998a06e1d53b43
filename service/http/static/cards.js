// Cards as people read them: "7♥" in red or black on screen, "7 of hearts" to a screen reader.
import { h } from "./dom.js";

const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };

/** A card of the wire ("10H") as {rank: "10", suit: "H"}. */
export const parse = (card) => ({ rank: card.slice(0, -1), suit: card.slice(-1) });
export const isRed = (card) => "HD".includes(card.slice(-1));

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** Whether two cards are one rank apart (an ace is next to both a king and a 2). */
export function nextTo(a, b) {
  const d = Math.abs(RANKS.indexOf(parse(a).rank) - RANKS.indexOf(parse(b).rank));
  return d === 1 || d === 12;
}

/** "10 of hearts", "queen of spades". */
export function cardName(card) {
  const { rank, suit } = parse(card);
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit][1]}`;
}

/** "10♥": for text that is read as text (the log, the narration). */
export function cardShort(card) {
  const { rank, suit } = parse(card);
  return rank + SUITS[suit][0];
}

/** A card on the table. `card`: a wire name, null for a face-down card, undefined for an
 * empty place. With `cmd` it is a button that does that command (see table.js); without,
 * an image with its name. `label` is the accessible name (default: the card's name).
 * `depth`: the cards of the pile it tops; a pile of two or more is drawn with the edges of
 * the cards under it (two edges at most). */
export function cardEl(card, { cmd = null, cls = [], label = null, key = null, testid = null, hotkey = null, emptyText = "", extra = {}, depth = 1 } = {}) {
  const classes = ["card", ...cls];
  let face = [];
  let name;
  if (card === null) {
    classes.push("back");
    name = "a face-down card";
  } else if (card === undefined) {
    classes.push("empty");
    face = [emptyText];
    name = "empty";
  } else {
    const { rank, suit } = parse(card);
    if (isRed(card)) classes.push("red");
    // The suit is drawn by the stylesheet (a pictogram, like an icon); the name says it.
    face = [h("span", { class: "rank" }, rank), h("span", { class: `suit suit-${suit}` })];
    name = cardName(card);
  }
  const attrs = {
    class: classes.join(" "),
    "aria-label": label || name,
    "data-testid": testid,
    "data-key": key,
    "data-card": card || null,
    "data-depth": card !== undefined && depth > 1 ? String(Math.min(depth, 3)) : null,
  };
  const kids = [h("span", { "aria-hidden": "true", class: "face" }, face)];
  const hot = hotkey ? { "data-hotkey": hotkey } : {};
  if (cmd !== null) {
    // "why:…" says why the card cannot be played: the button stays marked as disabled
    const off = !cmd || cmd.startsWith("why:");
    return h("button", { ...attrs, ...hot, ...extra, type: "button", "data-cmd": cmd || null, "aria-disabled": off ? "true" : null }, kids);
  }
  return h("div", { ...attrs, ...hot, ...extra, role: "img" }, kids);
}
