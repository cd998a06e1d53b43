// The player's preferences, kept in this browser (localStorage): whether the screen reader
// also hears the player's own moves, and whether a card played makes a short sound.
import { h } from "./dom.js";

const KEYS = { sayOwn: "spitlog.say_own", sound: "spitlog.sound" };

function read(key) {
  try { return localStorage.getItem(KEYS[key]) === "on"; } catch { return false; }
}

function write(key, on) {
  try { localStorage.setItem(KEYS[key], on ? "on" : "off"); } catch { /* private mode: for this page only */ }
}

export const prefs = { get sayOwn() { return read("sayOwn"); }, get sound() { return read("sound"); } };

let audio = null;

/** A short soft tone (a card landing), if the player asked for sound. */
export function tone(high = false) {
  if (!prefs.sound) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime;
    osc.frequency.value = high ? 660 : 440;
    gain.gain.setValueAtTime(0.08, t);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.08);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.09);
  } catch { /* no Web Audio here: silent */ }
}

/** The preferences as a fieldset of checkboxes, each saved as it changes. */
export function prefsFieldset() {
  const box = (key, label) => h("label", { class: "field check" }, h("span", {}, label),
    h("input", { type: "checkbox", "data-testid": `pref-${key}`, checked: read(key),
      onchange: (e) => { write(key, e.target.checked); if (key === "sound" && e.target.checked) tone(); } }));
  return h("fieldset", { "data-testid": "prefs" }, h("legend", {}, "Preferences"),
    h("div", { class: "fields" },
      box("sayOwn", "Screen reader: also say my own moves"),
      box("sound", "A short sound for each card played")));
}
