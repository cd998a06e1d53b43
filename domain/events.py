"""Events: facts in the past tense. The log of a game is a list of these.

Events record everything needed to rebuild the state, dealt cards included, so a
replay needs neither the seed nor any RNG. Each has ``at`` (seconds since the epoch,
stamped by ``decide`` from ``ctx.now``). The events every game's log holds are here
(``OPENING``, ``ENGINE``); each game defines its own (``Rules.EVENTS``). ``codec`` gives
their stored and wire form (``{"type": "game_created", ...}``).

Each type has a ``TYPE`` (its wire name, the class name in snake case) and a ``VERSION``
(1 unless its meaning changed since logs of it were written). A type at version ``n``
has the upcasters ``upcast_v1_v2`` .. ``upcast_v<n-1>_v<n>``, as the eventsourcing
library's events do: each takes a wire form and changes it, in place, into the next
version's. A stored form carries no version (the wire forms of events are fixed): an
upcaster changes only what its old version wrote and leaves a later version's form as
it is (``codec.current``).
"""

import re
from dataclasses import dataclass, field
from typing import ClassVar

from .cards import Card

Cards = tuple[Card, ...]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    TYPE: ClassVar[str] = "event"  # the wire name: the class name in snake case
    VERSION: ClassVar[int] = 1

    at: float = 0.0

    def __init_subclass__(cls):
        cls.TYPE = _snake(cls.__name__)


def event(cls):
    """An event type: a frozen, slotted dataclass of keyword fields."""
    return dataclass(frozen=True, slots=True, kw_only=True)(cls)


def added():
    """A field added to an event type after logs of it were written: None by default, and
    left out of the wire form while None, so that every event written before it keeps its
    form, and an export its bytes (an archived copy is checked against them)."""
    return field(default=None, metadata={"added": True})


@event
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
    rated: bool | None = added()
    # the rulings of the service the game is played under (``game.RULING``, written by every
    # game created since docs/decisions/0029): with it, a hosted bot's idle clock runs out
    # only as T-6 and an operator's abort is only T-6 (no form of a log from before T-6 is
    # accepted), a T-6 due no later than a person's T-4 comes first, and a rated table's
    # idle_forfeit_s is at least ``options.RATED_IDLE_MIN_S``; None (left out of the wire
    # form, a log written before it): judged by the rulings of its time
    ruling: int | None = added()


@event
class SeatTaken(Event):
    """A seat was taken, by a person or a hosted bot."""

    seat: int
    kind: str
    client_seed: str


@event
class PlayerReady(Event):  # D-4, N-4, Q-2
    """A seat said it is ready (by the T-2 timeout when `by` says so)."""

    seat: int
    by: str | None = None  # "T-2" when the timeout made the seat ready


@event
class DeadlineExpired(Event):  # T-1..T-6
    """A timer of T-1..T-5 expired (`seat`: whose, for T-4), or a seat's idle clock ran out
    where the service, not the seat, kept it from acting (T-6, `seat`: a hosted bot whose
    decisions the service failed to run, or a seat whose requests it refused for
    `idle_forfeit_s`)."""

    rule: str
    seat: int | None = None


@event
class PlayerResigned(Event):  # E-5
    """A seat resigned."""

    seat: int


@event
class GameEnded(Event):  # E-2, E-4, E-5, Q-7, Q-8, T-4
    """The game ended: its winner and the rule by which it ended."""

    winner: int | None
    reason: str


@event
class GameAborted(Event):  # T-5, E-5, T-6; "unplayed"
    """The game was aborted, no one winning: nobody joined (T-5), a seat resigned before it
    began (E-5), under T-6 by the operator (`spitlog admin abort`) or the service (a
    hosted bot whose decisions it could not run, a seat whose requests it refused for
    `idle_forfeit_s`): `by` says which, `why` says why, in words; or, reason `unplayed`,
    a rated game ended by a resignation or a T-4 forfeit before both seats had made a
    move (no result, as on Lichess; docs/decisions/0027), `why` saying which. A log
    written before T-6 may hold an operator's abort as reason `admin`, with no `by` or
    `why`: it counts as T-6 by the operator."""

    VERSION: ClassVar[int] = 2

    reason: str
    by: str | None = added()  # T-6: "operator" or "service"
    why: str | None = added()  # T-6, unplayed: why, in words

    @staticmethod
    def upcast_v1_v2(d: dict) -> None:
        """Version 1 (logs written before T-6) wrote an operator's abort as reason ``admin``:
        it is T-6 by the operator."""
        if d.get("reason") == "admin":
            d["reason"] = "T-6"
            d["by"] = "operator"


OPENING = (GameCreated, SeatTaken)  # the events that open every log
# every other event of the engine's: each game's own come between (``codec.event_types``)
ENGINE = (PlayerReady, DeadlineExpired, PlayerResigned, GameEnded, GameAborted)
