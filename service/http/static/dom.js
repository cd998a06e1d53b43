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

/** Replaces the screen: `nodes` become the children of <main>, and the log of events is
 * shown (a game, a replay) or kept for screen readers only (other screens). */
export function screen(nodes, { inGame = false } = {}) {
  const app = document.getElementById("app");
  app.replaceChildren(...[nodes].flat());
  document.body.classList.toggle("in-game", inGame);
  return app;
}

const LOG_LINES = 6;

/** One line in the log of events (an aria-live region: screen readers read each line once,
 * as it arrives). The log keeps its last few lines. */
export function announce(text) {
  const log = document.getElementById("log");
  if (!log || !text) return;
  log.append(h("p", {}, text));
  while (log.children.length > LOG_LINES) log.firstElementChild.remove();
}

export function clearLog() {
  const log = document.getElementById("log");
  if (log) log.replaceChildren();
}

/** Whether the person asked for less motion (then plays are not animated). */
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A short "card lands" animation on `el` (the Web Animations API: no inline style). */
export function land(el) {
  if (!el || reducedMotion() || !el.animate) return;
  el.animate(
    [{ transform: "translateY(14px) scale(1.12)", opacity: 0.35 }, { transform: "none", opacity: 1 }],
    { duration: 220, easing: "ease-out" },
  );
}
