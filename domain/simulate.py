"""Play games between two policies in virtual time: no Redis, no clock.

From the terminal (``service/console.py`` holds the command line, with the clock, the
seed and the progress bar):

    spitlog simulate --game spit --games 200 --p0 random --p1 random
    spitlog simulate --game both --games 100 --option stockpiles=4 \\
        --option alternate_colors=true

Each seat is a policy with ``choose(view, rng) -> action wire dict | None`` and
``reaction(rng) -> seconds`` (domain/bots.py). Whenever the state a seat sees
changes, it plans again: after its reaction time, unless the state moves on first, it
chooses from its own view and acts (a plan the state outran is never chosen: a level's
search is paid once per action, as by a worker). Deadlines (T-1..T-5) fire when they
fall due and nobody acted before. ``play_game`` is pure (the rng comes in).
"""

from dataclasses import dataclass

from .actions import Timeout
from .bots import POLICIES
from .errors import IllegalAction
from .game import KINDS, Ctx, create_game, deadlines, parse_action, replay, run
from .game import legal_actions as legal
from .shuffle import commitment
from .state import State
from .views import view


def _ms(t: float) -> float:
    """Round a time up to the millisecond, the precision the service stamps."""
    return -(-round(t * 1e6) // 1000) / 1000


def _choose(pol, state: State, seat: int, game: str, rng):
    """The action ``pol`` chooses for ``seat`` from what it may see (None: it passes).
    ``choose_state`` is for a bench's omniscient bound (bench/oracle.py), never a level:
    the service gives bots their seat's view only."""
    if hasattr(pol, "choose_state"):
        return pol.choose_state(state, seat, rng)
    if hasattr(pol, "choose_among"):
        return pol.choose_among(legal(state, seat), rng)
    wire = pol.choose(view(state, seat), rng)
    return wire and parse_action(game, wire)


def policies() -> dict:
    """The policies by name: the bot levels of domain/bots.py."""
    return dict(POLICIES)


@dataclass
class Result:
    winner: int | None
    result: str | None
    status: str
    rounds: int
    events: int
    seconds: float  # virtual
    log: list | None = None


def play_game(
    game: str,
    pols,
    rng,
    *,
    options: dict | None = None,
    max_events: int = 100_000,
    keep_log: bool = False,
    start: float = 1_800_000_000.0,
) -> Result:
    """Play one game between ``pols`` (seat 0, seat 1) and return how it ended."""
    seed = bytes(rng.getrandbits(8) for _ in range(32))
    now = start
    # a policy the service does not host (a bench baseline) sits as bot:random in the log
    kinds = [f"bot:{p.name}" if f"bot:{p.name}" in KINDS else "bot:random" for p in pols]
    log = create_game(
        game_id=f"g_{rng.getrandbits(32):016x}",  # a game id as the service makes them
        game=game,
        now=now,
        server_seed=seed,
        commitment=commitment(seed),
        options=options,
        kind=kinds[0],
        opponent=kinds[1],
    )
    state: State = replay(log)
    count = len(log)
    # per seat: (version planned at, due time, whether it can act); it chooses when its
    # plan falls due, as a worker does (workers.jobs): a plan the state outran costs nothing
    plans: list = [None, None]
    while not state.over and count < max_events:
        for seat in (0, 1):
            if plans[seat] is None or plans[seat][0] != state.version:
                due = now + pols[seat].reaction(rng)
                plans[seat] = (state.version, due, state.can_act[seat])
        action = None
        while action is None:
            best = None
            for seat in (0, 1):
                _v, due, able = plans[seat]
                if able and (best is None or due < best[0]):
                    best = (due, seat)
            dls = deadlines(state)
            if dls and (best is None or dls[0].at <= best[0]):
                d = dls[0]
                now = max(now, _ms(d.at))
                action, ctx = Timeout(d.rule, d.seat), Ctx(None, now, seed)
            elif best is not None:
                seat = best[1]
                action = _choose(pols[seat], state, seat, game, rng)
                if action is None:  # it passes: it waits for the next change
                    plans[seat] = (state.version, best[0], False)
                    continue
                now = _ms(best[0])
                ctx = Ctx(seat, now, seed)
            else:
                raise RuntimeError(f"nobody can act and no deadline runs: {state.phase}")
        try:
            events, state = run(state, action, ctx)
        except IllegalAction:  # a policy erred; it plans again
            plans[ctx.seat] = None
            continue
        count += len(events)
        if keep_log:
            log += events
    return Result(
        winner=state.winner,
        result=state.result,
        status=state.status,
        rounds=state.round,
        events=count,
        seconds=now - start,
        log=log if keep_log else None,
    )
