"""High Card, a toy third game (a ``domain.rules.Rules``) that only the tests know: it
proves that a game is one module, registered from outside the engine and the service.

The rules, with their IDs:

- **HC-1** *Deal.* The deck is shuffled (from the server seed and both client seeds,
  as every deal) and each seat gets ``cards_each`` cards (default 5) in a face-down pile
  that no one sees (H-1), its owner included.
- **HC-2** *Start.* When both seats are ready the table opens.
- **HC-3** *Flip.* A seat turns the top card of its pile face up onto its spot, at any
  time, once a trick: a second flip before the trick is taken is refused.
- **HC-4** *Trick.* Once both spots hold a card, the higher rank takes the trick (ace
  high; suits do not count; equal ranks: no one) and scores a point.
- **HC-5** *End.* When the piles are empty the seat with more points wins; equal points
  are a draw.
"""

from dataclasses import dataclass

from domain.actions import READY, RESIGN, Ready
from domain.cards import DECK, Card
from domain.errors import IllegalAction
from domain.events import Event, GameEnded, PlayerReady, event
from domain.options import ENGINE, OptionSpec, options_class
from domain.shuffle import shuffle
from domain.state import Player, State, set_player
from domain.values import replace
from domain.wire import CARD, CARDS, SIZE, array, nullable, obj

NAME = "high_card"
START_RULE = "HC-2"
BOT_RATINGS = {"random": 800, "easy": 800, "medium": 800, "hard": 800}  # all play at random

CARDS_EACH = OptionSpec("cards_each", "HC-1", "cards dealt to each seat", int, default=5,
                        low=1, high=26)  # fmt: skip
READY_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT = ENGINE
OPTIONS = (CARDS_EACH, READY_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT)
OPTIONS_CLASS = options_class("HighCardOptions", OPTIONS)

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HighCardPlayer(Player):
    pile: Cards = ()  # face down, top first (HC-1)
    spot: Card | None = None  # flipped this trick (HC-3)
    points: int = 0  # tricks taken (HC-4)

    @property
    def cards(self) -> int:
        return len(self.pile) + (self.spot is not None)


@dataclass(frozen=True, slots=True)
class HighCardState(State):
    options: OPTIONS_CLASS = OPTIONS_CLASS()
    players: tuple[HighCardPlayer, HighCardPlayer] = (HighCardPlayer(), HighCardPlayer())
    taken: int = 0  # cards taken in tricks, out of play


STATE = HighCardState


@dataclass(frozen=True, slots=True)
class Flip:  # HC-3
    pass


ACTIONS = {"flip": (Flip, ()), **READY, **RESIGN}


@event
class HighCardDealt(Event):  # HC-1
    """High Card: each seat's face-down pile was dealt."""

    nonce: int
    piles: tuple[Cards, ...]  # per seat, top first


@event
class TableOpened(Event):  # HC-2
    """High Card: both seats were ready; flips may begin."""


@event
class CardFlipped(Event):  # HC-3
    """High Card: a seat turned its top card face up."""

    seat: int
    card: Card


@event
class TrickTaken(Event):  # HC-4
    """High Card: the higher card took the trick (`winner`: null on equal ranks)."""

    winner: int | None


EVENTS = (HighCardDealt, PlayerReady, TableOpened, CardFlipped, TrickTaken)
DEALS = (HighCardDealt,)
NEW_ROUND = ()
PHASE_DEADLINES = {"ready": ("T-2", READY_GRACE.name)}


def setup(options) -> HighCardPlayer:
    return HighCardPlayer()


def deal(state: HighCardState, seed: bytes) -> HighCardDealt:
    """HC-1: one shuffled deck, ``cards_each`` to each seat."""
    n, nonce = state.options.cards_each, state.nonce + 1
    deck = shuffle(DECK, seed, state.client_seeds, nonce)
    return HighCardDealt(nonce=nonce, piles=(deck[:n], deck[n : 2 * n]))


def apply_dealt(s: HighCardState, e: HighCardDealt) -> dict:
    players = tuple(replace(p, pile=e.piles[i], ready=False) for i, p in enumerate(s.players))
    return {"players": players, "status": "running", "phase": "ready", "round": 1,
            "nonce": e.nonce}  # fmt: skip


def start(state: HighCardState) -> TableOpened:
    return TableOpened()


def apply_opened(s: HighCardState, e: TableOpened) -> dict:
    return {"phase": "playing"}


def guard(state: HighCardState, action) -> None:
    if state.phase == "ready":
        raise IllegalAction(START_RULE, "the table opens when both seats are ready")


def decide_flip(state: HighCardState, seat: int, a: Flip) -> list:
    """HC-3: the top card face up, once a trick."""
    p = state.players[seat]
    if p.spot is not None:
        raise IllegalAction("HC-3", "you have flipped this trick already")
    if not p.pile:
        raise IllegalAction("HC-3", "your pile is empty")
    return [CardFlipped(seat=seat, card=p.pile[0])]


def apply_flipped(s: HighCardState, e: CardFlipped) -> dict:
    p = s.players[e.seat]
    return {"players": set_player(s.players, e.seat, replace(p, pile=p.pile[1:], spot=e.card))}


def _rank(card: Card) -> int:
    return 14 if card.rank == 1 else card.rank  # ace high


def follow(state: HighCardState, seed: bytes | None, at: float) -> list:
    """HC-4 once both have flipped (neither can move: the engine calls it a stalemate);
    HC-5 once the piles are empty."""
    if state.status != "running" or state.phase not in ("playing", "stalemate"):
        return []
    a, b = (p.spot for p in state.players)
    if a is not None and b is not None:  # HC-4
        ra, rb = _rank(a), _rank(b)
        return [TrickTaken(winner=None if ra == rb else (0 if ra > rb else 1))]
    if a is None and b is None and not any(p.pile for p in state.players):  # HC-5
        pa, pb = (p.points for p in state.players)
        return [GameEnded(winner=None if pa == pb else (0 if pa > pb else 1), reason="HC-5")]
    return []


def apply_taken(s: HighCardState, e: TrickTaken) -> dict:
    players = tuple(
        replace(p, spot=None, points=p.points + (i == e.winner)) for i, p in enumerate(s.players)
    )
    return {"players": players, "taken": s.taken + 2}


def has_moves(state: HighCardState, seat: int) -> bool:
    p = state.players[seat]
    return p.spot is None and bool(p.pile)


def can_act(state: HighCardState, seat: int) -> bool:
    if state.phase == "ready":
        return not state.players[seat].ready
    return state.phase in ("playing", "stalemate") and has_moves(state, seat)


def legal(state: HighCardState, seat: int) -> list:
    if state.phase == "ready":
        return [Ready()] if can_act(state, seat) else []
    return [Flip()] if can_act(state, seat) else []


def on_timeout(state: HighCardState, rule: str) -> list:
    return []  # no game-wide deadline of its own: T-2 is the engine's


def view(state: HighCardState, seat: int | None, out: dict) -> None:
    """Pile sizes (H-1), the cards face up on the spots, the points."""
    for pv, p in zip(out["players"], state.players, strict=True):
        pv["pile"] = len(p.pile)
        pv["spot"] = p.spot.name if p.spot else None
        pv["points"] = p.points


def full_view(state: HighCardState, out: dict) -> None:
    for pv, p in zip(out["players"], state.players, strict=True):
        pv["pile"] = [c.name for c in p.pile]
        pv["spot"] = p.spot.name if p.spot else None
        pv["points"] = p.points


def text(full: dict) -> list[str]:
    return [f"  seat {p['seat']}: {p['points']} points, spot {p['spot'] or '-'}"
            for p in full["players"]]  # fmt: skip


def _hide_dealt(e: HighCardDealt, seat: int | None, d: dict) -> None:  # H-1
    d["piles"] = [len(p) for p in e.piles]


REDACT = {HighCardDealt: _hide_dealt}
SHAPES: dict = {}
VIEW = {
    "players": obj(
        {
            "pile": {"oneOf": [SIZE, CARDS], "description": "its size; after the game, its cards"},
            "spot": {**nullable(CARD), "description": "the card flipped this trick"},
            "points": {"type": "integer", "minimum": 0},
        },
        "A seat in High Card.",
    ),
    "table": obj({}, "A game of High Card as you may see it."),
}
REDACTED = {HighCardDealt: {"piles": array(SIZE, "per seat, how many cards")}}


def candidates(e) -> list:
    if isinstance(e, CardFlipped):
        return [(Flip(), e.seat)]
    return []


def bot_choose(bot, view: dict, legal: list[dict], rng) -> dict | None:
    return rng.choice(legal)


EVOLVE = {
    HighCardDealt: apply_dealt,
    TableOpened: apply_opened,
    CardFlipped: apply_flipped,
    TrickTaken: apply_taken,
}
DECIDE = {Flip: decide_flip}
