"""Hand-built positions for the rule tests: given events -> when action -> then events.

A position is a list of events (the "given"), built from chosen cards rather than a
shuffle, and replayed into a state. ``when`` runs one action against it and returns
the events that follow (their ``at`` stripped, so expected events are written without
one); ``refused`` returns the ``IllegalAction`` an action raises.

Stockpiles are written bottom card first, one string per pile (``"9C 7H"`` is a pile
of two with 7H on top, ``""`` an empty space); spit cards, draw piles and side piles
top card first.
"""

from dataclasses import replace

import pytest

from domain import Ctx, IllegalAction, commitment, decide, options_for, replay, run
from domain.cards import Card
from domain.events import Event, GameCreated, PlayerReady, SeatTaken
from domain.game import RULING
from domain.speed import CentreStarted, SpeedDealt
from domain.spit import SpitCardsTurned, SpitDealt
from domain.state import State
from tests.support.cards import cards_in  # noqa: F401 - the rule tests' card finder

SEED = bytes(range(32))  # the server seed of every hand-built game
CLIENT_SEEDS = ("alice", "bob")
T0 = 1_000.0  # when the given events happened
NOW = T0 + 1.0  # when the action under test is sent


def cards(text: str) -> tuple[Card, ...]:
    """``"AS 10H"`` -> (Card('AS'), Card('10H'))."""
    return tuple(Card.parse(t) for t in text.split())


def card(text: str) -> Card:
    return Card.parse(text)


def created(game: str = "spit", **options) -> list[Event]:
    """A game with both seats taken and nothing dealt yet."""
    return [
        GameCreated(
            at=T0,
            game_id="g_test",
            game=game,
            options=options_for(game, options).public(),
            kind="human",
            client_seed=CLIENT_SEEDS[0],
            commitment=commitment(SEED),
            ruling=RULING,
        ),
        SeatTaken(at=T0, seat=1, kind="human", client_seed=CLIENT_SEEDS[1]),
    ]


def layout(piles) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards(p) for p in piles)


def spit_dealt(stock0, stock1, spit0: str = "", spit1: str = "", round: int = 1) -> SpitDealt:
    return SpitDealt(
        at=T0,
        round=round,
        nonces=(round,),
        stockpiles=(layout(stock0), layout(stock1)),
        spit_cards=(cards(spit0), cards(spit1)),
    )


def spit_started(spit0: str, spit1: str) -> SpitCardsTurned:
    """D-4: both ready, the top spit cards start the piles (none for a seat without)."""
    tops = tuple(cards(s)[0] if s.split() else None for s in (spit0, spit1))
    return SpitCardsTurned(
        at=T0, cards=tops, piles=tuple(i if c else None for i, c in enumerate(tops))
    )


def both_ready() -> list[Event]:
    return [PlayerReady(at=T0, seat=0), PlayerReady(at=T0, seat=1)]


def spit_game(
    stock0, stock1, spit0: str = "", spit1: str = "", *, started: bool = True, **options
) -> list[Event]:
    """A Spit game dealt with these cards, and (``started``) both ready and spitting."""
    events = created("spit", **options) + [spit_dealt(stock0, stock1, spit0, spit1)]
    if started:
        events += both_ready() + [spit_started(spit0, spit1)]
    return events


def speed_dealt(
    hand0: str,
    hand1: str,
    draw0: str = "",
    draw1: str = "",
    side0: str = "",
    side1: str = "",
    middle: str = "7C 7D",
    game_no: int = 1,
) -> SpeedDealt:
    return SpeedDealt(
        at=T0,
        game_no=game_no,
        nonce=game_no,
        side_piles=(cards(side0), cards(side1)),
        middle=cards(middle),
        hands=(cards(hand0), cards(hand1)),
        draw_piles=(cards(draw0), cards(draw1)),
    )


def speed_game(
    hand0: str,
    hand1: str,
    draw0: str = "",
    draw1: str = "",
    side0: str = "",
    side1: str = "",
    middle: str = "7C 7D",
    *,
    started: bool = True,
    **options,
) -> list[Event]:
    """A Speed game dealt with these cards, and (``started``) the centre piles turned up."""
    events = created("speed", **options)
    events.append(speed_dealt(hand0, hand1, draw0, draw1, side0, side1, middle))
    if started:
        events += both_ready() + [CentreStarted(at=T0, cards=cards(middle))]
    return events


def state_of(given) -> State:
    return given if isinstance(given, State) else replay(given)


def strip(events) -> list[Event]:
    """Events without their timestamps, to compare with hand-written expectations."""
    return [replace(e, at=0.0) for e in events]


def when(given, action, seat: int | None = 0, now: float = NOW) -> list[Event]:
    """The events that follow ``action`` by ``seat`` in the position ``given``."""
    return strip(decide(state_of(given), action, Ctx(seat, now, SEED)))


def after(given, action, seat: int | None = 0, now: float = NOW) -> State:
    """The state after ``action`` by ``seat`` in the position ``given``."""
    return run(state_of(given), action, Ctx(seat, now, SEED))[1]


def refused(given, action, seat: int | None = 0, now: float = NOW) -> IllegalAction:
    """The IllegalAction that ``action`` by ``seat`` raises; the state is left as it was."""
    state = state_of(given)
    before = replace(state)
    with pytest.raises(IllegalAction) as info:
        decide(state, action, Ctx(seat, now, SEED))
    assert state == before
    return info.value
