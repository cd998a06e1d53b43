// Building and updating the page's DOM, and the log of what happened.

/** An element: h("button", {class: "x", "data-cmd": "ready"}, "Ready"). Attributes whose
 * name starts with "on" become listeners (for forms and controls that are never morphed);
 * true sets a bare attribute, false or null leaves it out. Children may be nested arrays. */
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v != null) el.setAttribute(k, String(v));
  }
  for (const k of kids.flat(Infinity)) if (k != null && k !== false) el.append(k.nodeType ? k : String(k));
  return el;
}

/** Makes the element `live` look like `next` (a detached element of the same tag), changing
 * only what differs: elements that stay keep their identity, so focus, selection and
 * running animations survive a redraw. Children are matched by data-key when they have
 * one, else by position and tag. Listeners are not copied: morphed parts of the page act
 * through data-cmd attributes and one delegated listener. */
export function morph(live, next) {
  syncAttributes(live, next);
  const nextKids = [...next.childNodes];
  const keyed = new Map();
  for (const c of live.childNodes) if (c.nodeType === 1 && c.dataset.key) keyed.set(c.dataset.key, c);
  let i = 0;
  for (const n of nextKids) {
    const here = live.childNodes[i] || null;
    const key = n.nodeType === 1 ? n.dataset.key : undefined;
    let match = null;
    if (key) match = keyed.get(key) || null;
    else if (here && sameKind(here, n) && !(here.nodeType === 1 && here.dataset.key)) match = here;
    if (match && !sameKind(match, n)) match = null;
    if (match) {
      if (match !== here) live.insertBefore(match, here);
      if (n.nodeType === 1) morph(match, n);
      else if (match.nodeValue !== n.nodeValue) match.nodeValue = n.nodeValue;
    } else {
      live.insertBefore(n, here);
    }
    i++;
  }
  while (live.childNodes.length > i) live.lastChild.remove();
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && (a.nodeType !== 1 || a.tagName === b.tagName);
}

function syncAttributes(live, next) {
  for (const { name } of [...live.attributes]) if (!next.hasAttribute(name)) live.removeAttribute(name);
  for (const { name, value } of next.attributes) if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  if ("value" in next && live.tagName === "INPUT" && live !== document.activeElement) live.value = next.value;
}

/** Replaces the screen: `nodes` become the children of <main>. `inGame` marks the page as
 * showing a game (the stylesheet's hook). */
export function screen(nodes, { inGame = false } = {}) {
  const app = document.getElementById("app");
  app.replaceChildren(...[nodes].flat());
  document.documentElement.style.removeProperty("scroll-padding-top");  // a screen's own, if any
  document.body.classList.toggle("in-game", inGame);
  return app;
}

const LOG_LINES = 5;
const LIVE_GAP_MS = 10000;  // the live region speaks at most once in this time
const live = { queue: [], last: 0, timer: null };

/** The visible history of a game: its last few lines, in places of a fixed size that are
 * filled from the bottom and shifted up by text (no line box moves, so the table above
 * and the page below never jump). It is not a live region: see announce(). */
export function historyEl() {
  const lines = Array.from({ length: LOG_LINES }, () => h("p", {}));
  return h("section", { class: "log-box", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title", class: "sr-only" }, "What happened"),
    h("div", { id: "log", "data-testid": "log" }, lines));
}

/** A line in the visible history only (what the player did: the focus already says it). */
export function note(text) {
  const log = document.getElementById("log");
  if (!log || !text) return;
  const lines = [...log.children];
  for (let i = 0; i < lines.length - 1; i++) lines[i].textContent = lines[i + 1].textContent;
  lines[lines.length - 1].textContent = text;
}

/** A line in the visible history, and said by screen readers through the live region
 * (#live): lines that come within LIVE_GAP_MS of the last one spoken wait and are said
 * together in one addition, so that a fast game is summed up, not streamed. `now`: say it
 * (with what waits) at once, for the answer to the player's own action. */
export function announce(text, { now = false } = {}) {
  if (!text) return;
  note(text);
  live.queue.push(text);
  const wait = live.last + LIVE_GAP_MS - Date.now();
  if (now || wait <= 0) return speak();
  if (!live.timer) live.timer = setTimeout(speak, wait);
}

/** Says one thing now, alone, and drops what waits (the end of a game sums it all up). */
export function announceOnly(text) {
  live.queue = [];
  if (text) live.queue.push(text);
  speak();
}

function speak() {
  clearTimeout(live.timer);
  live.timer = null;
  const region = document.getElementById("live");
  const text = live.queue.join(" ");
  live.queue = [];
  if (!region || !text) return;
  live.last = Date.now();
  region.append(h("p", {}, text));
  while (region.children.length > 3) region.firstElementChild.remove();
}

/** Forgets the history and what waits to be said (a new screen). */
export function clearLog() {
  clearTimeout(live.timer);
  live.timer = null;
  live.queue = [];
  const region = document.getElementById("live");
  if (region) region.replaceChildren();
}

/** Whether the person asked for less motion (then plays are not animated). */
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A card that travels to `el` from where it was (`from`: a DOMRect of the page), short;
 * a transform only, so nothing around it moves. */
export function fly(el, from) {
  if (!el || !from || reducedMotion() || !el.animate) return;
  const to = el.getBoundingClientRect();
  el.animate(
    [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }],
    { duration: 180, easing: "ease-out" },
  );
}

/** A short "card lands" animation on `el` (the Web Animations API: no inline style). */
export function land(el) {
  if (!el || reducedMotion() || !el.animate) return;
  el.animate(
    [{ transform: "translateY(14px) scale(1.12)", opacity: 0.35 }, { transform: "none", opacity: 1 }],
    { duration: 220, easing: "ease-out" },
  );
}
