"""A random-game driver for the property tests: random legal actions, random seats,
and the deadlines of T-1..T-6 fired on a virtual clock.

Randomness here is the tests' own (``random.Random(seed)``); the domain gets only
the server seed and the clock through ``Ctx``.
"""

import hashlib
import random
from dataclasses import dataclass, field

from domain import (
    DECK,
    Ctx,
    Join,
    Ready,
    Resign,
    Timeout,
    create_game,
    deadlines,
    legal_actions,
    replay,
    run,
)
from domain.events import Event
from domain.piles import Spit
from domain.speed import Draw, PlayCard
from domain.spit import Choose, Move, Play, Slap, TurnUp
from domain.state import State

T0 = 1_000_000.0

# Every well-formed action of each game (every body ``parse_action`` accepts).
WELL_FORMED = {
    "spit": (
        [Play(s, p) for s in range(5) for p in (0, 1)]
        + [TurnUp(s) for s in range(5)]
        + [Move(a, b) for a in range(5) for b in range(5)]
        + [Spit(), Spit(0), Spit(1), Slap(0), Slap(1), Choose(0), Choose(1), Ready(), Resign()]
    ),
    "speed": [PlayCard(c, p) for c in DECK for p in (0, 1)] + [Draw(), Spit(), Ready(), Resign()],
}


@dataclass
class Step:
    """One accepted action: the state before it, the action, who sent it, its events."""

    before: State
    action: object
    seat: int | None
    now: float
    events: list[Event]
    after: State


@dataclass
class Trace:
    game: str
    options: dict
    server_seed: bytes
    log: list[Event] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    created: State | None = None

    @property
    def final(self) -> State:
        return self.steps[-1].after if self.steps else self.created


def server_seed_for(seed: int) -> bytes:
    return hashlib.sha256(f"server-{seed}".encode()).digest()


def play_game(
    game: str,
    options: dict,
    seed: int,
    *,
    max_steps: int = 20_000,
    on_step=None,
    resign_p: float = 0.0005,
    deadline_p: float = 0.02,
    forfeit_p: float = 0.0005,
) -> Trace:
    """Play one game from ``seed`` to its end (or ``max_steps`` actions) and return it.

    ``on_step(state, seat, now, rng)`` is called before each action with the state the
    action is judged against, so a property can probe that state.
    """
    rng = random.Random(seed)
    sseed = server_seed_for(seed)
    trace = Trace(game=game, options=options, server_seed=sseed)
    now = T0
    bot = rng.random() < 0.3
    trace.log = create_game(
        game_id=f"g_{seed}",
        game=game,
        now=now,
        server_seed=sseed,
        commitment=hashlib.sha256(sseed).hexdigest(),
        options=options,
        opponent=rng.choice(["bot:easy", "bot:hard"]) if bot else "human",
        client_seed=rng.choice(["", "alice", "🂡 seed"]),
    )
    state = replay(trace.log)
    trace.created = state

    def act(action, seat):
        nonlocal state
        events, after = run(state, action, Ctx(seat, now, sseed))
        trace.steps.append(Step(state, action, seat, now, events, after))
        trace.log.extend(events)
        state = after

    if state.status == "waiting":
        if rng.random() < 0.05:  # nobody comes: T-5
            now = deadlines(state)[0].at
            if on_step:
                on_step(state, None, now, rng)
            act(Timeout("T-5"), None)
        else:
            now += rng.uniform(0, 5)
            if on_step:
                on_step(state, 1, now, rng)
            act(Join(kind="human", client_seed=rng.choice(["", "bob", str(seed)])), 1)

    while not state.over and len(trace.steps) < max_steps:
        due = deadlines(state)
        choices = {s: [a for a in legal_actions(state, s) if a != Resign()] for s in (0, 1)}
        r = rng.random()
        seat = rng.randrange(2)
        if not choices[seat]:
            seat = 1 - seat
        idle = ("T-4", "T-6")  # each seat's idle clock (a hosted bot's is T-6's: an abort)
        forfeits = [d for d in due if d.rule in idle]
        others = [d for d in due if d.rule not in idle]
        if r < resign_p:
            action, seat = Resign(), rng.randrange(2)
        elif not choices[0] and not choices[1] or r < resign_p + forfeit_p and forfeits:
            assert due, f"nobody can act and nothing is due in phase {state.phase}"
            d = due[0] if not choices[0] and not choices[1] else forfeits[0]
            now = max(now, d.at)
            action, seat = Timeout(d.rule, d.seat), None
        elif r < deadline_p and others:
            d = others[0]
            now = max(now, d.at)
            action, seat = Timeout(d.rule, d.seat), None
        else:
            now += rng.choice((0.0, 0.0, rng.uniform(0, 1.5)))
            action = rng.choice(choices[seat])
        if on_step:
            on_step(state, seat, now, rng)
        act(action, seat)
    return trace
