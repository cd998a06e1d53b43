"""Events: facts in the past tense. The log of a game is a list of these.

Events record everything needed to rebuild the state, dealt cards included, so a
replay needs neither the seed nor any RNG. Each has ``at`` (seconds since the epoch,
stamped by ``decide`` from ``ctx.now``). ``event_to_dict`` / ``event_from_dict`` give the
stored and wire form (``{"type": "card_played", ...}``) and round-trip.
"""

import re
import types
import typing
from dataclasses import dataclass, field, fields

from .cards import Card

Cards = tuple[Card, ...]
Layout = tuple[Cards, ...]  # stockpiles, bottom card first


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    at: float = 0.0


def _event(cls):
    return dataclass(frozen=True, slots=True, kw_only=True)(cls)


def _added():
    """A field added to an event type after logs of it were written: None by default, and
    left out of the wire form while None, so that every event written before it keeps its
    form, and an export its bytes (an archived copy is checked against them)."""
    return field(default=None, metadata={"added": True})


@_event
class GameCreated(Event):
    """A game was created, seat 0 taken and the server seed committed to (H-6)."""

    game_id: str
    game: str
    options: dict
    kind: str  # who sits at seat 0
    client_seed: str
    commitment: str  # sha256 of the server seed (H-6)
    # True: rated when it ends (the service's players), and until both seats have made a
    # move a resignation or a T-4 forfeit aborts it (``game.UNPLAYED``, docs/decisions/0027);
    # None (left out of the wire form): unrated
    rated: bool | None = _added()
    # the rulings of the service the game is played under (``game.RULING``, written by every
    # game created since docs/decisions/0029): with it, a hosted bot's idle clock runs out
    # only as T-6 and an operator's abort is only T-6 (no form of a log from before T-6 is
    # accepted), a T-6 due no later than a person's T-4 comes first, and a rated table's
    # idle_forfeit_s is at least ``options.RATED_IDLE_MIN_S``; None (left out of the wire
    # form, a log written before it): judged by the rulings of its time
    ruling: int | None = _added()


@_event
class SeatTaken(Event):
    """A seat was taken, by a person or a hosted bot."""

    seat: int
    kind: str
    client_seed: str


@_event
class SpitDealt(Event):  # D-1..D-3, N-3, N-5
    """Spit: the cards were dealt into each seat's stockpiles and spit cards."""

    round: int
    nonces: tuple[int, ...]  # the shuffles of this deal (shuffle.py)
    stockpiles: tuple[Layout, ...]  # per seat
    spit_cards: tuple[Cards, ...]  # per seat, top first


@_event
class PlayerReady(Event):  # D-4, N-4, Q-2
    """A seat said it is ready (by the T-2 timeout when `by` says so)."""

    seat: int
    by: str | None = None  # "T-2" when the timeout made the seat ready


@_event
class SpitCardsTurned(Event):  # D-4, S-2, S-3
    """Spit: each seat's spit card was turned onto a spit pile."""

    cards: tuple[Card | None, ...]  # per seat: the card it turned, or None
    piles: tuple[int | None, ...]  # per seat: the spit pile it landed on


@_event
class CardPlayed(Event):  # P-1, Q-3
    """A card was played onto a pile: from a stockpile in Spit, from the hand in Speed."""

    seat: int
    card: Card
    to: int
    src: int | None = None  # the stockpile in Spit; None in Speed (from the hand)


@_event
class CardTurnedUp(Event):  # P-2
    """Spit: a stockpile's top card was turned face up."""

    seat: int
    stockpile: int
    card: Card


@_event
class CardMoved(Event):  # P-3
    """Spit: a stockpile's top card was moved onto another stockpile."""

    seat: int
    src: int
    to: int
    card: Card


@_event
class SpitCalled(Event):  # S-2, Q-5
    """A seat called spit (by the T-1 timeout when `by` says so)."""

    seat: int
    by: str | None = None  # "T-1" when the timeout called for the seat


@_event
class RoundEnded(Event):  # N-1
    """Spit: a round ended; `next` says how the piles are taken."""

    round: int
    reason: str  # "N-1a" (a layout cleared) or "N-1b" (blocked, no spit cards)
    cleared: int | None  # the seat that cleared its layout, if any
    next: str  # "slap", "choose" or "take"
    chooser: int | None = None  # V-2


@_event
class PileSlapped(Event):  # N-2
    """Spit: a seat slapped a spit pile."""

    seat: int
    pile: int


@_event
class PileChosen(Event):  # V-2
    """Spit: a seat chose a spit pile (V-2)."""

    seat: int
    pile: int


@_event
class PilesTaken(Event):  # N-2, N-3, E-1, E-3, T-3
    """Spit: each seat took a spit pile (or none)."""

    piles: tuple[int | None, ...]  # per seat: the spit pile it takes, or None


@_event
class SpeedDealt(Event):
    """Speed: the cards were dealt: side piles, the middle, hands and draw piles."""

    game_no: int
    nonce: int
    side_piles: tuple[Cards, ...]  # top first
    middle: Cards
    hands: tuple[Cards, ...]
    draw_piles: tuple[Cards, ...]  # top first


@_event
class CentreStarted(Event):
    """Speed: the centre piles were started with these cards."""

    cards: Cards


@_event
class CardDrawn(Event):
    """Speed: a seat drew a card from its draw pile into its hand."""

    seat: int
    card: Card


@_event
class SideCardsTurned(Event):
    """Speed: each side pile's top card was turned onto a centre pile."""

    cards: tuple[Card | None, ...]


@_event
class SidePilesRebuilt(Event):
    """Speed: the side piles were rebuilt from the centre piles and shuffled."""

    nonce: int
    side_piles: tuple[Cards, ...]  # top first


@_event
class GameScored(Event):
    """Speed: a game was scored."""

    winner: int | None
    points: int
    scores: tuple[int, ...]
    reason: str


@_event
class DeadlineExpired(Event):  # T-1..T-6
    """A timer of T-1..T-5 expired (`seat`: whose, for T-4), or a seat's idle clock ran out
    where the service, not the seat, kept it from acting (T-6, `seat`: a hosted bot whose
    decisions the service failed to run, or a seat whose requests it refused for
    `idle_forfeit_s`)."""

    rule: str
    seat: int | None = None


@_event
class PlayerResigned(Event):  # E-5
    """A seat resigned."""

    seat: int


@_event
class GameEnded(Event):  # E-2, E-4, E-5, Q-7, Q-8, T-4
    """The game ended: its winner and the rule by which it ended."""

    winner: int | None
    reason: str


# GameAborted's reason for an operator's abort in a log written before RULES T-6 (no `by`,
# no `why`): it reads as an abort under T-6 by the operator (``aborted_under``)
LEGACY_ADMIN = "admin"


@_event
class GameAborted(Event):  # T-5, E-5, T-6; "unplayed"
    """The game was aborted, no one winning: nobody joined (T-5), a seat resigned before it
    began (E-5), under T-6 by the operator (`spitlog admin abort`) or the service (a
    hosted bot whose decisions it could not run, a seat whose requests it refused for
    `idle_forfeit_s`): `by` says which, `why` says why, in words; or, reason `unplayed`,
    a rated game ended by a resignation or a T-4 forfeit before both seats had made a
    move (no result, as on Lichess; docs/decisions/0027), `why` saying which. A log
    written before T-6 may hold an operator's abort as reason `admin`, with no `by` or
    `why`: it counts as T-6 by the operator."""

    reason: str
    by: str | None = _added()  # T-6: "operator" or "service"
    why: str | None = _added()  # T-6, unplayed: why, in words


def aborted_under(e: GameAborted) -> tuple[str, str | None]:
    """The rule ``e`` aborted its game under, and by whom: a legacy operator's abort
    (reason ``admin``) is T-6 by the operator."""
    if e.reason == LEGACY_ADMIN:
        return "T-6", "operator"
    return e.reason, e.by


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def _converter(hint, card, seq):
    """A converter of a field of type ``hint`` between an event and its wire form (None:
    the value as it is): ``card`` converts a card, ``seq`` makes a tuple's container.
    Reading: (Card.parse, tuple); writing: (a card's name, list)."""
    if hint is Card:
        return card
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple:
        inner = _converter(args[0], card, seq)
        if inner is None:
            return seq
        return lambda v: seq(map(inner, v))
    if origin in (typing.Union, types.UnionType):
        inner = _converter(next(a for a in args if a is not type(None)), card, seq)
        if inner is None:
            return None
        return lambda v: None if v is None else inner(v)
    return None


def _card_name(card: Card) -> str:
    return card.name


EVENT_TYPES: dict[str, type] = {
    _snake(c.__name__): c
    for c in (
        GameCreated, SeatTaken, SpitDealt, PlayerReady, SpitCardsTurned, CardPlayed,
        CardTurnedUp, CardMoved, SpitCalled, RoundEnded, PileSlapped, PileChosen, PilesTaken,
        SpeedDealt, CentreStarted, CardDrawn, SideCardsTurned, SidePilesRebuilt, GameScored,
        DeadlineExpired, PlayerResigned, GameEnded, GameAborted,
    )
}  # fmt: skip
TYPE_NAMES = {c: n for n, c in EVENT_TYPES.items()}
_HINTS = {cls: typing.get_type_hints(cls) for cls in EVENT_TYPES.values()}
_CODECS = {  # readers
    cls: tuple((f.name, _converter(_HINTS[cls][f.name], Card.parse, tuple)) for f in fields(cls))
    for cls in _HINTS
}
_WRITERS = {
    cls: tuple(
        (f.name, _converter(_HINTS[cls][f.name], _card_name, list), f.metadata.get("added", False))
        for f in fields(cls)
    )
    for cls in _HINTS
}
# per event type, its fields left out of the wire form while None (``_added``)
ADDED = {cls: frozenset(f.name for f in fields(cls) if f.metadata.get("added")) for cls in _HINTS}


def event_to_dict(event: Event) -> dict:
    """The full (unredacted) wire form of an event."""
    out = {"type": TYPE_NAMES[type(event)]}
    for name, enc, added in _WRITERS[type(event)]:
        v = getattr(event, name)
        if added and v is None:
            continue
        out[name] = v if enc is None else enc(v)
    return out


def event_from_dict(d: dict) -> Event:
    """Read an event back from ``event_to_dict``'s form; KeyError/ValueError if malformed."""
    cls = EVENT_TYPES[d["type"]]
    kwargs = {}
    for name, dec in _CODECS[cls]:
        if name in d:
            v = d[name]
            kwargs[name] = dec(v) if dec is not None else v
    return cls(**kwargs)
