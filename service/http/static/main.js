// The page's screens, chosen by the URL's fragment: #/ (home), #/learn/spit, #/play/{id},
// #/watch/{id}, #/join/{id}, #/replay/{id}.
import { clearLog, h, screen } from "./dom.js";
import { home } from "./home.js";
import { learnPanel } from "./learn.js";
import { command, dropped, join, key, leave, open } from "./table.js";
import { installDrag } from "./drag.js";
import { leaveReplay, replay } from "./replay.js";

function route() {
  leave();
  leaveReplay();
  clearLog();
  const [, what, id] = location.hash.split("/");
  const arg = decodeURIComponent(id || "");
  let shown;
  if (what === "play" && arg) shown = open(arg, "play");
  else if (what === "watch" && arg) shown = open(arg, "watch");
  else if (what === "join" && arg) shown = join(arg);
  else if (what === "replay" && arg) shown = replay(arg);
  else if (what === "learn") shown = learn(arg);
  else if (!what || what === "") shown = home();
  else if (what === "games") shown = home(arg);
  else shown = screen([h("h1", { tabindex: "-1" }, "Page not found"), h("p", {}, h("a", { href: "#/" }, "Back to the games"))]);
  Promise.resolve(shown).then(focusHeading);
}

function learn(game) {
  const other = game === "speed" ? "spit" : "speed";
  screen([
    h("h1", { tabindex: "-1" }, "How to play"),
    h("p", {}, h("a", { href: `#/learn/${other}` }, `How to play ${other === "speed" ? "Speed" : "Spit"}`), " · ", h("a", { href: "#/" }, "Start a game")),
    learnPanel(game === "speed" ? "speed" : "spit"),
  ]);
}

/** After a change of screen, focus its heading (keyboard and screen-reader users start
 * there), unless something on the new screen has already taken the focus. */
function focusHeading() {
  const app = document.getElementById("app");
  if (app.contains(document.activeElement) && document.activeElement !== app) return;
  const heading = app.querySelector("h1");
  if (heading) heading.focus({ preventScroll: true });
}

document.getElementById("app").addEventListener("click", (e) => {
  const el = e.target.closest("[data-cmd]");
  if (!el) return;
  // a card that fits nowhere is disabled, but a click on it is told why
  if (el.getAttribute("aria-disabled") !== "true" || el.dataset.cmd.startsWith("why:")) command(el.dataset.cmd, { shift: e.shiftKey });
});
installDrag(document.getElementById("app"), dropped);
document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName)) return;
  if (key(e)) e.preventDefault();
});
// "Skip to the game" moves the focus to the screen's content, without a change of route
document.querySelector(".skip").addEventListener("click", (e) => {
  e.preventDefault();
  document.getElementById("app").focus();
});
window.addEventListener("hashchange", route);
route();
