// Everything the page says about a game, in words: who, what happened, why it ended, what
// the clock is counting, why a move was refused. The rules' IDs (docs/rules.md) are mapped to
// words here and never shown.
import { cardShort, nextTo } from "./cards.js";

const PILES = "ab";
export const pileName = (k) => `pile ${PILES[k]}`;
export const stockName = (j) => `stockpile ${j + 1}`;  // the API counts from 0, people from 1

/** "bot (hard)", "a person", "an empty seat". */
export function kindWords(kind) {
  if (!kind) return "an empty seat";
  if (kind.startsWith("bot:")) return `bot (${kind.slice(4)})`;
  if (kind === "bot") return "a bot";
  return "a person";
}

/** A seat's kind after a comma: "bot, hard", "a bot", "a person", "an empty seat". */
export function kindShort(kind) {
  if (kind && kind.startsWith("bot:")) return `bot, ${kind.slice(4)}`;
  return kindWords(kind);
}

/** A seat named for someone who holds none: "Seat 1 · bot, hard" (counted from 1). */
export const seatName = (seat, kind) => `Seat ${seat + 1} · ${kindShort(kind)}`;

/** How the page names seat `seat` to the viewer `you` (a seat, or null for a spectator):
 * "you", "the bot", "your opponent", or "seat 1" for a spectator (seats counted from 1). */
export function who(seat, you, players) {
  if (seat === null || seat === undefined) return "nobody";
  if (you !== null && you !== undefined) {
    if (seat === you) return "you";
    const kind = players && players[seat] ? players[seat].kind : null;
    return kind && kind.startsWith("bot:") ? "the bot" : "your opponent";
  }
  return `seat ${seat + 1}`;
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const Who = (seat, you, players) => cap(who(seat, you, players));

/** A length of time in words: "2 minutes", "90 seconds", "1.5 seconds". */
export function duration(s) {
  if (s >= 60 && s % 60 === 0) return s === 60 ? "1 minute" : `${s / 60} minutes`;
  if (s >= 120) return `${Math.round(s / 60)} minutes`;
  return s === 1 ? "1 second" : `${+s.toFixed(2)} seconds`;
}

/** A countdown: "1:58" from a minute on, "3 s" below. */
export function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
}

/** The running deadline of a view in words, or "" when there is none:
 * "you forfeit if idle: 1:58", "both stuck — spit in 3 s", "slap a pile: 2 s". */
export function timerWords(v, now = Date.now()) {
  const d = v.deadline;
  if (!d || v.status === "finished" || v.status === "aborted") return "";
  const left = clock(Date.parse(d.at) - now);
  const mine = d.seat !== null && d.seat !== undefined && d.seat === v.you;
  switch (d.rule) {
    case "T-1": return `both stuck — spit in ${left}`;
    case "T-2": return `the round starts by itself in ${left}`;
    case "T-3": return `slap a pile: ${left}`;
    case "T-4": return mine ? `you forfeit if idle: ${left}` : `${who(d.seat, v.you, v.players)} forfeits if idle: ${left}`;
    case "T-5": return `waiting for an opponent: the game closes in ${left}`;
    default: return `next timeout in ${left}`;
  }
}

/** Whose clock the deadline is ("your clock", "the bot's clock", "everyone's clock"). */
export function clockOwner(v) {
  const d = v.deadline;
  if (!d) return "";
  if (d.seat === null || d.seat === undefined) return "everyone's clock";
  const w = who(d.seat, v.you, v.players);
  return w === "you" ? "your clock" : `${w}'s clock`;
}

const has = (v, type) => (v.legal_actions || []).some((a) => a.type === type);
const moves = (v) => (v.legal_actions || []).filter((a) => a.type !== "resign");

/** The headline of a view: where the game stands for this viewer. */
export function phaseText(v) {
  const you = v.you;
  const spectator = you === null || you === undefined;
  if (v.status === "waiting") return "Waiting for an opponent";
  if (v.status === "aborted") return "Game cancelled";
  if (v.status === "finished") {
    if (v.winner === null) return "A draw";
    if (spectator) return `Seat ${v.winner + 1} won`;
    return v.winner === you ? "You won!" : "You lost";
  }
  switch (v.phase) {
    case "ready": return spectator || !has(v, "ready") ? "Getting ready" : "Press Ready to start";
    case "playing": return "Play!";
    case "stalemate":
      if (spectator) return "Stalemate";
      if (has(v, "spit")) return "Both stuck: press Spit!";
      return "Stalemate";
    case "slap": return spectator || !has(v, "slap") ? "Round over: slapping" : "Slap the smaller pile!";
    case "choose": return has(v, "choose") ? "Choose a pile" : "Round over: a pile is being chosen";
    case "dealing": return "Dealing the next round";
    default: return v.phase;
  }
}

/** A hint for the viewer: what they can do now, in a sentence. */
export function hintText(v, selected) {
  const you = v.you;
  if (v.status === "waiting") return you === null || you === undefined ? "Once someone takes the free seat, the game starts when both players have pressed Ready." : "Send the link to a friend: once they join, the game starts when you both have pressed Ready.";
  if (v.status !== "running") return "";
  if (you === null || you === undefined) {
    if (v.phase === "stalemate") return "Neither player can move: both call spit.";
    return "You are watching.";
  }
  const me = v.players[you];
  const speed = v.game === "speed";
  if (selected !== null && selected !== undefined) {
    return speed ? "Now pick where it goes: a highlighted pile (a or b); Escape cancels."
      : "Now pick where it goes: a highlighted pile (a or b) or space; Escape cancels.";
  }
  switch (v.phase) {
    case "ready": return has(v, "ready") ? "Press Ready (r) when you are set; the round starts when both are ready." : "You are ready: waiting for the other player.";
    case "stalemate":
      if (has(v, "spit")) return speed ? "Both stuck: press Spit! (s) to turn up the side piles." : "Both stuck: press Spit! (s) to turn up your next spit card.";
      if (!speed && me.spit_cards === 0) return "Stalemate, and you have no spit cards: the other player spits alone.";
      return "You called spit: waiting for the other player.";
    case "slap": return has(v, "slap") ? "Slap the smaller pile (click it, or press a or b): you take the pile you slap." : "Waiting for the slap.";
    case "choose": return has(v, "choose") ? "Choose the pile you will take (a or b)." : "The other player chooses a pile.";
    case "dealing": return "The next round is being dealt.";
    default: break;
  }
  const m = moves(v);
  if (!m.length) return speed ? "No card of yours fits — wait for the other player or a stalemate." : "No move for you — wait for the other player or a stalemate.";
  if (speed) {
    if (m.some((a) => a.type === "play")) return "Click a highlighted card (or press 1–5): it plays where it fits. Drag it to pick a pile.";
    return "Nothing fits: draw a card (d).";
  }
  if (m.some((a) => a.type === "play")) return "Click a highlighted card (or press 1–5): it plays where it fits. Drag it to pick a pile or space.";
  if (m.some((a) => a.type === "turn_up")) return "Turn up a face-down card: click it or press its number.";
  return "Move a card to an empty stockpile space: pick it, then the space (or drag it there).";
}

/** Why a card of the viewer's fits no pile, in words: "7♥ fits neither 4♠ nor Q♦: a card
 * goes on one higher or one lower." `tops`: [{k, top}] of the piles to name. */
export function noFitText(v, card, tops) {
  if (!card) return "That card is face down: turn it up first.";
  const c = cardShort(card);
  if (v.status !== "running") return `${c} cannot be played: the game is not running.`;
  if (v.phase === "ready") return `${c} has to wait: cards are played once both players are ready.`;
  if (v.phase !== "playing") return `${c} cannot be played now: ${phaseText(v)}.`;
  const shown = tops.filter((t) => t.top);
  if (!shown.length) return `${c} has no pile to go on yet.`;
  const names = shown.map((t) => cardShort(t.top));
  const colours = v.options && v.options.alternate_colors && shown.some((t) => nextTo(card, t.top));
  const rule = colours ? "with alternate colours a card must change colour" : "a card goes on one higher or one lower";
  if (names.length === 1) return `${c} does not fit on ${names[0]} (${pileName(shown[0].k)}): ${rule}.`;
  return `${c} fits neither ${names[0]} nor ${names[1]}: ${rule}.`;
}

/** Why a game ended, in words, for the viewer (`v`: the final view, full or not). */
export function endReason(v) {
  const name = (s) => who(s, v.you, v.players);
  const winner = v.winner;
  const loser = winner === null || winner === undefined ? null : 1 - winner;
  const opts = v.options || {};
  const counts = v.players.map((p) => p.cards);
  switch (v.result) {
    case "E-2": return `${cap(name(winner))} played ${name(winner) === "you" ? "your" : "their"} last card.`;
    case "E-4": {
      const n = opts.max_rounds;
      const limit = `The ${v.game === "speed" ? "game" : "round"} limit (${n} ${v.game === "speed" ? (n === 1 ? "game" : "games") : (n === 1 ? "round" : "rounds")}) was reached`;
      if (winner === null) return `${limit} with equal cards on both sides (${counts[0]} each).`;
      return `${limit}: ${name(winner)} held fewer cards (${counts[winner]} to ${counts[loser]}).`;
    }
    case "E-5":
      if (v.status === "aborted") return "The game was cancelled before anyone joined.";
      return `${cap(name(loser))} resigned.`;
    case "T-4": return `Forfeit: ${name(loser)} ${name(loser) === "you" ? "were" : "was"} idle for ${duration(opts.idle_forfeit_s || 120)}.`;
    case "T-5": return `Nobody joined within ${duration(opts.join_timeout_s || 600)}.`;
    case "T-6": return calledOff(v.aborted, v.players);
    case "unplayed": return "Called off before both players had made a move: a rated game needs both to play, so no one wins and nothing is rated.";
    case "Q-7": return `${cap(name(winner))} played every card of ${name(winner) === "you" ? "your" : "their"} hand and draw pile.`;
    case "Q-8": return `${cap(name(winner))} reached the target score of ${opts.target_score}.`;
    case "Q-9":
      if (winner === null) return "No card could be played any more, and both had as many cards left.";
      return `No card could be played any more, and ${name(winner)} had fewer cards left.`;
    default: return v.status === "aborted" ? "The game was cancelled." : "The game is over.";
  }
}

/** An abort under T-6 in words, from the view's `aborted` ({by, why}): the operator's
 * with its reason when the log has one; the server's own, for a bot it could not run. */
function calledOff(aborted, players) {
  const a = aborted || {};
  if (a.by === "service") {
    const bots = (players || []).filter((p) => p.kind && p.kind.startsWith("bot:")).length;
    return `The server could not play ${bots === 1 ? "the" : "a"} bot's moves in time, so it called the game off: no one wins.`;
  }
  return `The operator called the game off${a.why ? ` (${a.why})` : ""}: no one wins.`;
}

/** The end's headline: "You won!", "You lost", "A draw", "Seat 2 won (bot, hard)". */
export function endTitle(v) {
  if (v.status === "aborted") return "Game cancelled";
  if (v.winner === null || v.winner === undefined) return "A draw";
  if (v.you === null || v.you === undefined) return `Seat ${v.winner + 1} won (${kindShort(v.players[v.winner].kind)})`;
  return v.winner === v.you ? "You won!" : "You lost";
}

const REFUSED = {
  "P-1": "only the face-up top card of a stockpile can be played, on a pile whose top is one higher or lower; an ace fits both a king and a 2",
  "P-2": "there is no face-down card to turn up there",
  "P-3": "a card moves only to an empty space, from a pile of two or more, face up",
  "P-5": "you can use only your own cards",
  "N-1": "the round is over: the piles are being taken",
  "N-2": "there is nothing to slap now",
  "N-5": "that pile does not exist this round",
  "S-2": "you cannot spit now (no spit cards left, or you already called)",
  "S-3": "a solo spit goes only on the pile chosen for it this round",
  "S-4": "spit only when neither player can move",
  "D-4": "the round has not started: both players must be ready",
  "V-1": "this table has fewer stockpiles",
  "V-2": "you do not choose the pile this round",
  "V-3": "with alternate colours a card must change colour",
  "Q-3": "a card goes on a pile only if it is one higher or lower than the pile's top; an ace fits both a king and a 2",
  "Q-4": "you draw only with fewer than five cards in hand and cards left in your draw pile",
  "Q-5": "spit only when neither player can move, and once",
};

/** A refused action in words: what was tried and why the rules said no. `race`: the seat
 * that played on the same pile between the click and the server's answer, if any; `back`:
 * the card was drawn on its pile ahead of the answer and has gone back. */
export function refusalText(action, err, race = null, you = null, back = false) {
  let tried;
  switch (action.type) {
    case "play": tried = action.card ? `Playing ${cardShort(action.card)} on ${pileName(action.to)}` : `Playing from ${stockName(action.from)} on ${pileName(action.to)}`; break;
    case "turn_up": tried = `Turning up ${stockName(action.stockpile)}`; break;
    case "move": tried = `Moving a card from ${stockName(action.from)} to ${stockName(action.to)}`; break;
    case "slap": tried = `Slapping ${pileName(action.pile)}`; break;
    case "choose": tried = `Choosing ${pileName(action.pile)}`; break;
    default: tried = cap(action.type === "spit" ? "calling spit" : action.type);
  }
  let why;
  if (err.status === 422 && race !== null && action.to !== undefined) {
    return `${tried} was refused: ${race === you ? "you had already played" : "the other player played"} on ${pileName(action.to)} first.${back ? " The card went back." : ""}`;
  }
  if (err.status === 422) why = REFUSED[err.rule] || "the rules do not allow it now";
  else if (err.status === 409) why = "the game is over";
  else if (err.status === 429 || err.status === 503) why = "the server is busy: try again in a moment";
  else if (err.status === undefined) why = "it did not reach the server (the connection is down)";
  else why = "the server could not take it";
  const late = back ? " The card went back." : err.status === 422 ? " The table changed before your move arrived." : "";
  return `${tried} was refused: ${why}.${late}`;
}

/** One line about one event of the log, as this viewer may see it (`ctx`: {you, players,
 * game}): "Seat 1 played 7♥ on pile b". */
export function narrate(e, ctx) {
  const W = (s) => Who(s, ctx.you, ctx.players);
  const w = (s) => who(s, ctx.you, ctx.players);
  const c = (card) => (card ? cardShort(card) : "a card");
  switch (e.type) {
    case "game_created": return `A ${e.game === "speed" ? "Speed" : "Spit"} game was created.`;
    case "seat_taken": return `Seat ${e.seat + 1} was taken by ${e.seat === ctx.you ? "you" : kindWords(e.kind)}.`;
    case "spit_dealt": return `Round ${e.round} was dealt.`;
    case "speed_dealt": return `Game ${e.game_no} was dealt.`;
    case "player_ready": return e.by ? `${W(e.seat)} ${w(e.seat) === "you" ? "were" : "was"} made ready (time ran out).` : `${W(e.seat)} ${w(e.seat) === "you" ? "are" : "is"} ready.`;
    case "spit_cards_turned": {
      const parts = e.cards.map((card, s) => (card ? `${w(s)}: ${c(card)} on ${pileName(e.piles[s])}` : null)).filter(Boolean);
      return `Spit! ${parts.join(", ")}.`;
    }
    case "centre_started": return `Go! ${e.cards.map(c).join(" and ")} start the piles.`;
    case "card_played": return e.src === null || e.src === undefined
      ? `${W(e.seat)} played ${c(e.card)} on ${pileName(e.to)}.`
      : `${W(e.seat)} played ${c(e.card)} from ${stockName(e.src)} on ${pileName(e.to)}.`;
    case "card_turned_up": return `${W(e.seat)} turned up ${c(e.card)} on ${stockName(e.stockpile)}.`;
    case "card_moved": return `${W(e.seat)} moved ${c(e.card)} from ${stockName(e.src)} to ${stockName(e.to)}.`;
    case "card_drawn": return e.card ? `${W(e.seat)} drew ${c(e.card)}.` : `${W(e.seat)} drew a card.`;
    case "spit_called": return e.by ? `Time ran out: spit was called for ${w(e.seat)}.` : `${W(e.seat)} called spit.`;
    case "side_cards_turned": {
      const parts = e.cards.map((card, k) => (card ? `${c(card)} on ${pileName(k)}` : null)).filter(Boolean);
      return parts.length ? `Stalemate: the side piles turned ${parts.join(" and ")}.` : "Stalemate: the side piles are empty.";
    }
    case "side_piles_rebuilt": return "The centre piles were shuffled into new side piles.";
    case "round_ended": {
      const why = e.reason === "N-1a" ? `${w(e.cleared)} cleared ${w(e.cleared) === "you" ? "your" : "their"} stockpiles` : "both players are stuck with no spit cards";
      const next = { slap: "slap the smaller pile", choose: "a pile is chosen", take: "the pile is taken" }[e.next] || "";
      return `Round ${e.round} is over: ${why}${next ? " — " + next : ""}.`;
    }
    case "pile_slapped": return `${W(e.seat)} slapped ${pileName(e.pile)}.`;
    case "pile_chosen": return `${W(e.seat)} chose ${pileName(e.pile)}.`;
    case "piles_taken": {
      const parts = e.piles.map((p, s) => `${w(s)} ${p === null ? "take" + (w(s) === "you" ? "" : "s") + " no pile" : (w(s) === "you" ? "take " : "takes ") + pileName(p)}`);
      return cap(parts.join(", ")) + ".";
    }
    case "game_scored": return e.winner === null ? `Game over: a draw (${e.scores.join(" to ")}).` : `${W(e.winner)} ${w(e.winner) === "you" ? "score" : "scores"} ${e.points} (total ${e.scores.join(" to ")}).`;
    case "deadline_expired": {
      const words = { "T-1": "time to call spit ran out", "T-2": "time to get ready ran out", "T-3": "nobody slapped in time: the piles are shared out", "T-4": `${w(e.seat)} ${w(e.seat) === "you" ? "were" : "was"} idle too long`, "T-5": "nobody joined in time", "T-6": `the server could not play for ${w(e.seat)} in time` };
      return cap(words[e.rule] || "a timeout fired") + ".";
    }
    case "player_resigned": return `${W(e.seat)} resigned.`;
    case "game_ended": {
      if (e.winner === null) return "Game over: a draw.";
      return `Game over: ${w(e.winner)} ${w(e.winner) === "you" ? "win" : "wins"}.`;
    }
    case "game_aborted": {
      const gone = { "E-5": "The game was cancelled.", "T-5": "The game was called off: nobody joined.", "unplayed": "The game was called off: not both players had made a move, so it is not rated." }[e.reason];
      return gone || calledOff({ by: e.by, why: e.why }, ctx.players);
    }
    default: return "";
  }
}
