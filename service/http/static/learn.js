// "How to play": each game in plain words (from docs/rules.md, without its IDs).
import { h } from "./dom.js";

const li = (...items) => items.map((t) => h("li", {}, t));

const SPIT = () => [
  h("h2", { id: "learn-spit" }, "How to play Spit"),
  h("p", {}, "Two players, one deck, no turns: both play at the same time, as fast as they can. Get rid of all your cards to win."),
  h("h3", {}, "The deal"),
  h("ul", {}, li(
    "Each player gets 26 cards and lays out five stockpiles of 1, 2, 3, 4 and 5 cards (four of 1 to 4 at a smaller table). Only the top card of each is face up.",
    "The rest are your spit cards, face down. When both are ready, each turns one spit card into the middle: these start the two spit piles, a and b.",
  )),
  h("h3", {}, "Playing"),
  h("ul", {}, li(
    "Play the top card of a stockpile on either spit pile if it is one higher or one lower than the pile's top card. Suits do not matter; an ace fits both a king and a 2.",
    "A face-down top card can be turned up. A face-up card can move into an empty stockpile space, from a pile of two or more.",
    "Whoever gets to a pile first wins the race: if the other player got there first, your move is refused.",
  )),
  h("h3", {}, "Stuck?"),
  h("ul", {}, li(
    "When neither player can move, press Spit!: each player turns a spit card onto their own pile. Wait too long and the page spits for you after a few seconds.",
    "When one player has no spit cards left, the other spits alone, always on the same pile.",
  )),
  h("h3", {}, "End of a round, end of the game"),
  h("ul", {}, li(
    "A round ends when a player has played every stockpile card, or when both are stuck with no spit cards left.",
    "Then both race to slap the smaller spit pile: it becomes yours, the other player takes the other one. Your pile and the cards you still hold make your next deal.",
    "Whoever plays their last card with no spit cards left wins the game. A player can resign at any time; a player who does nothing for two minutes while they could move forfeits.",
  )),
  h("h3", {}, "Keys"),
  h("p", {}, "1–5 pick a stockpile (or turn it up), a and b pick a pile, r is Ready, s is Spit!, Escape cancels. Tab moves through your cards, the piles and the buttons."),
  h("h3", { id: "learn-spit-options", "data-testid": "learn-options" }, "Table options"),
  h("ul", {}, li(
    "Stockpiles: 4 makes a shorter game: four stockpiles of 1 to 4 cards (10 cards), so more of your cards are spit cards.",
    "After a round: with \"the winner chooses\" nobody slaps; the player who cleared their stockpiles (or, when both were stuck, the one with fewer stockpile cards left) picks the spit pile they take.",
    "Alternate colours: a card may go on a pile only if it is one higher or lower and of the other colour (red on black, black on red).",
    "Rounds at most: the game ends after that many rounds; the player with fewer cards then wins, equal counts are a draw.",
    "Seconds before spit is called for you: how long the page waits, when both are stuck, before it presses Spit! for you.",
    "Your seed for the shuffle: any text; it is mixed into the shuffle with the server's secret seed, and the audit of the finished game shows the deck came from both.",
  )),
];

const SPEED = () => [
  h("h2", { id: "learn-speed" }, "How to play Speed"),
  h("p", {}, "Two players, one deck, no turns. Play every card in your hand and your draw pile before the other player does."),
  h("h3", {}, "The deal"),
  h("ul", {}, li(
    "Each player gets a face-down draw pile (15 cards, or 20 at a table with small side piles) and takes its first five cards into their hand, which only they can see.",
    "Two side piles lie face down beside the two centre piles. When both are ready, the two middle cards are turned up and play starts.",
  )),
  h("h3", {}, "Playing"),
  h("ul", {}, li(
    "Play a card from your hand on either centre pile if it is one higher or one lower than its top card; an ace fits both a king and a 2.",
    "With fewer than five cards in hand, draw from your draw pile.",
  )),
  h("h3", {}, "Stuck?"),
  h("ul", {}, li(
    "When neither player can play or draw, press Spit!: one card from each side pile is turned onto the centre pile beside it. The page spits for you after a few seconds.",
    "When the side piles run out, the centre cards are shuffled into new side piles.",
  )),
  h("h3", {}, "Winning"),
  h("ul", {}, li(
    "The first to play every card of hand and draw pile wins, and scores a point for each card left in the other player's draw pile.",
    "A player can resign at any time; a player who does nothing for two minutes while they could move forfeits.",
  )),
  h("h3", {}, "Keys"),
  h("p", {}, "1–5 pick a card of your hand, a and b pick a pile, d draws, r is Ready, s is Spit!, Escape cancels."),
  h("h3", { id: "learn-speed-options" }, "Table options"),
  h("ul", {}, li(
    "Side piles: 5 cards makes each side pile 5 cards instead of 10, and each player's draw pile 20 cards instead of 15.",
  )),
];

/** The "How to play" panel of one game ("spit" or "speed"), or of both. */
export function learnPanel(game) {
  const parts = game === "speed" ? SPEED() : game === "spit" ? SPIT() : [...SPIT(), ...SPEED()];
  return h("section", { class: "panel learn", "data-testid": "learn" }, parts);
}

/** The same panel folded in a game screen (a <details> the player opens when they want). */
export function learnFold(game) {
  return h("details", { class: "panel", "data-testid": "learn-fold" },
    h("summary", {}, `How to play ${game === "speed" ? "Speed" : "Spit"}`), learnPanel(game));
}
