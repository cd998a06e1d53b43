"""The decider: ``decide(state, action, ctx) -> events``, ``evolve``, ``replay``.

What both games share lives here (seats, readiness, resignation, the timeouts
T-1..T-5 and the bookkeeping every state carries); each game's own rules are in
``spit.py`` and ``speed.py``.
"""

from dataclasses import dataclass
from functools import reduce

from . import speed, spit
from .actions import Join, Ready, Resign, Timeout
from .errors import GameOver, IllegalAction, MalformedAction, SeatUnavailable
from .events import (
    DeadlineExpired,
    Event,
    GameAborted,
    GameCreated,
    GameEnded,
    PlayerReady,
    PlayerResigned,
    SeatTaken,
    SideCardsTurned,
    SpitCalled,
    SpitCardsTurned,
)
from .options import Options, parse_options
from .state import Player, State, set_player
from .values import replace

KINDS = ("human", "bot:random", "bot:easy", "bot:medium", "bot:hard")
RULES = {"spit": spit, "speed": speed}
_START_RULE = {"spit": "D-4", "speed": "Q-2"}


@dataclass(frozen=True, slots=True)
class Ctx:
    """What the domain may not fetch itself: who acts, the time, the secret seed."""

    seat: int | None
    now: float
    server_seed: bytes | None = None


@dataclass(frozen=True, slots=True)
class Deadline:
    rule: str  # T-1..T-5
    at: float  # seconds since the epoch
    seat: int | None = None  # T-4: whose clock


# ---------------------------------------------------------------- evolve


def _created(s: State, e: GameCreated) -> State:
    opts = Options(**e.options)
    k = opts.stockpiles if e.game == "spit" else 0
    empty = Player(stockpiles=((),) * k, face_up=(False,) * k)
    return State(
        id=e.game_id,
        game=e.game,
        options=opts,
        commitment=e.commitment,
        status="waiting",
        phase="waiting",
        created_at=e.at,
        players=(replace(empty, kind=e.kind, client_seed=e.client_seed), empty),
    )


def _seat_taken(s: State, e: SeatTaken) -> State:
    p = replace(s.players[e.seat], kind=e.kind, client_seed=e.client_seed)
    return replace(s, players=set_player(s.players, e.seat, p))


def _ready(s: State, e: PlayerReady) -> State:
    return replace(s, players=set_player(s.players, e.seat, replace(s.players[e.seat], ready=True)))


def _called(s: State, e: SpitCalled) -> State:
    return replace(
        s, players=set_player(s.players, e.seat, replace(s.players[e.seat], called=True))
    )


def _ended(s: State, e: GameEnded) -> State:
    return replace(s, status="finished", phase="finished", winner=e.winner, result=e.reason)


def _aborted(s: State, e: GameAborted) -> State:
    return replace(s, status="aborted", phase="aborted", result=e.reason)


def _same(s: State, e: Event) -> State:
    return s


_COMMON = {
    GameCreated: _created,
    SeatTaken: _seat_taken,
    PlayerReady: _ready,
    SpitCalled: _called,
    PlayerResigned: _same,
    DeadlineExpired: _same,
    GameEnded: _ended,
    GameAborted: _aborted,
}
_EVOLVE = {g: {**_COMMON, **RULES[g].EVOLVE} for g in RULES}
_NEW_ROUND = (SpitCardsTurned, SideCardsTurned)  # a stalemate after these is a new one
_set = object.__setattr__  # only on a state evolve has just created (see evolve)


def evolve(state: State, event: Event) -> State:
    """The state after ``event``: the event's own change, then the derived bookkeeping
    (stalemate S-1/Q-5, the phase and its start, who can act, T-4's idle clocks)."""
    s = _EVOLVE[state.game if state.status != "new" else "spit"][type(event)](state, event)
    # The handler's result is a fresh object that nothing else holds yet, so the
    # bookkeeping below finishes building it in place instead of copying it again
    # (replay's hot path: one copy per event instead of three).
    if s is state:
        s = replace(state)
    at = event.at
    stalemate = False
    if s.status != "running":
        can = (False, False)
        _set(s, "phase", s.status)
    else:
        rules = RULES[s.game]
        if s.phase in ("playing", "stalemate"):
            can = (rules.has_moves(s, 0), rules.has_moves(s, 1))
            stalemate = not (can[0] or can[1])
            _set(s, "phase", "stalemate" if stalemate else "playing")
            if stalemate:
                can = (rules.can_act(s, 0), rules.can_act(s, 1))
        else:
            can = (rules.can_act(s, 0), rules.can_act(s, 1))
    if s.phase != state.phase or type(event) in _NEW_ROUND:
        _set(s, "phase_since", at)
    # T-4: each seat's clock counts, in total, the time it had a legal action since its own
    # last action: it pauses (without restarting) while the seat has nothing to do, and a
    # timeout acting for the seat (``by``: T-1 calling, T-2 making ready) is not its action.
    by = getattr(event, "by", None)
    seat = getattr(event, "seat", None) if type(event) is not DeadlineExpired else None
    actor = seat if by is None else None
    if actor is not None or can != state.can_act:
        _set(s, "idle_used", _counted(state, can, at, actor))
        _set(s, "idle_since", tuple(
            at if i == actor or (can[i] and not state.can_act[i]) else state.idle_since[i]
            for i in (0, 1)
        ))  # fmt: skip
        if actor is not None:
            _set(s, "acted_at", (at, state.acted_at[1]) if actor == 0 else (state.acted_at[0], at))
    _set(s, "version", state.version + 1)
    _set(s, "can_act", can)
    _set(s, "stalemate", stalemate)
    return s


def _counted(state: State, can: tuple[bool, bool], at: float, actor) -> tuple[float, float]:
    """T-4's counted seconds per seat after an event at ``at`` that leaves ``can``: zero
    for the seat that acted; a seat whose clock stops here adds the time since it resumed
    (to the microsecond, so that a sum of many pauses does not drift)."""
    used, was, since = state.idle_used, state.can_act, state.idle_since
    return tuple(
        0.0 if i == actor
        else round(used[i] + at - since[i], 6) if was[i] and not can[i]
        else used[i]
        for i in (0, 1)
    )  # fmt: skip


def replay(events, state: State | None = None) -> State:
    """The state after ``events``, from the empty state or from ``state`` (a snapshot)."""
    return reduce(evolve, events, state or State())


# ---------------------------------------------------------------- decide


def create_game(
    *,
    game_id: str,
    game: str,
    now: float,
    server_seed: bytes,
    commitment: str,
    options: dict | None = None,
    opponent: str = "human",
    client_seed: str = "",
    kind: str = "human",
) -> list[Event]:
    """The first events of a game: its creation (options validated, seed committed) and,
    against a bot, the bot's seat and the first deal."""
    opts = parse_options(game, options)
    if opponent not in KINDS:
        raise MalformedAction({"opponent": [f"must be one of {', '.join(KINDS)}"]})
    events: list[Event] = [
        GameCreated(
            at=now,
            game_id=game_id,
            game=game,
            options=opts.public(game),
            kind=kind,
            client_seed=client_seed,
            commitment=commitment,
        )
    ]
    if opponent != "human":
        state = replay(events)
        events += decide(state, Join(kind=opponent), Ctx(seat=1, now=now, server_seed=server_seed))
    return events


def decide(state: State, action, ctx: Ctx) -> list[Event]:
    """The events that follow from ``action`` in ``state``; raises IllegalAction (with the
    rule broken), GameOver or SeatUnavailable, and changes nothing."""
    return run(state, action, ctx)[0]


def run(state: State, action, ctx: Ctx) -> tuple[list[Event], State]:
    """``decide`` that also returns the state after the events (saves a second fold)."""
    if state.over:
        raise GameOver(f"the game is {state.status}")
    events = _stamp(_decide(state, action, ctx), ctx.now)
    s = reduce(evolve, events, state)
    follow = RULES[s.game].follow
    while extra := follow(s, ctx.server_seed, ctx.now):
        extra = _stamp(extra, ctx.now)
        events += extra
        s = reduce(evolve, extra, s)
    return events, s


def _stamp(events: list[Event], now: float) -> list[Event]:
    """Date the events the rules just created (fresh objects: set in place, not copied)."""
    for e in events:
        _set(e, "at", now)
    return events


def _decide(state: State, action, ctx: Ctx) -> list[Event]:
    if isinstance(action, Timeout):
        return _timeout(state, action, ctx)
    if isinstance(action, Join):
        return _join(state, action, ctx)
    seat = ctx.seat
    if seat not in (0, 1) or state.players[seat].kind is None:  # a free seat is nobody's
        raise IllegalAction("P-5", "only a seated player may act")
    if isinstance(action, Resign):  # E-5, in both games
        if state.status == "waiting":
            return [PlayerResigned(seat=seat), GameAborted(reason="E-5")]
        return [PlayerResigned(seat=seat), GameEnded(winner=1 - seat, reason="E-5")]
    start_rule = _START_RULE[state.game]
    if state.status == "waiting":
        raise IllegalAction(start_rule, "the game has not started: a seat is still free")
    if isinstance(action, Ready):
        return _decide_ready(state, seat)
    rules = RULES[state.game]
    fn = rules.DECIDE.get(type(action))
    if fn is None:
        raise MalformedAction({"type": [f"not an action of {state.game}"]})
    # A slap or a choice that lost the race (P-4) is refused by its own rule (N-2, V-2).
    if state.phase == "ready" and type(action) not in (spit.Slap, spit.Choose):
        raise IllegalAction(start_rule, "the round has not started: both players must be ready")
    if state.phase in ("slap", "choose", "dealing") and type(action) in (
        spit.Play, spit.TurnUp, spit.Move, spit.Spit,
    ):  # fmt: skip
        raise IllegalAction("N-1", "the round is over: the piles are being taken")
    return fn(state, seat, action)


def _decide_ready(state: State, seat: int) -> list[Event]:
    """D-4, N-4, Q-2: both ready, and the round starts."""
    rule = _START_RULE[state.game]
    if state.phase != "ready":
        raise IllegalAction(rule, "there is no round waiting to start")
    if state.players[seat].ready:
        raise IllegalAction(rule, "you are already ready")
    events: list[Event] = [PlayerReady(seat=seat)]
    if state.players[1 - seat].ready:
        events.append(RULES[state.game].start(state))
    return events


def _join(state: State, action: Join, ctx: Ctx) -> list[Event]:
    if state.status != "waiting":
        raise SeatUnavailable("both seats are taken")
    if action.kind not in KINDS:
        raise MalformedAction({"kind": [f"must be one of {', '.join(KINDS)}"]})
    taken = SeatTaken(seat=1, kind=action.kind, client_seed=action.client_seed)
    s = evolve(state, taken)
    first = spit.deal(s, ctx.server_seed) if s.game == "spit" else speed.deal(s, ctx.server_seed)
    return [taken, first]


# ---------------------------------------------------------------- timeouts (T-1..T-5)


def deadlines(state: State) -> list[Deadline]:
    """Every deadline running in ``state``, soonest first."""
    o = state.options
    if state.status == "waiting":
        return [Deadline("T-5", state.created_at + o.join_timeout_s)]
    if state.status != "running":
        return []
    out = []
    if state.phase == "stalemate" and any(state.can_act):
        out.append(Deadline("T-1", state.phase_since + o.spit_grace_s))
    elif state.phase == "ready":
        out.append(Deadline("T-2", state.phase_since + o.ready_grace_s))
    elif state.phase in ("slap", "choose"):
        out.append(Deadline("T-3", state.phase_since + o.slap_grace_s))
    for seat in (0, 1):
        if state.can_act[seat]:
            left = o.idle_forfeit_s - state.idle_used[seat]
            out.append(Deadline("T-4", state.idle_since[seat] + left, seat))
    return sorted(out, key=lambda d: d.at)


def _timeout(state: State, action: Timeout, ctx: Ctx) -> list[Event]:
    due = next(
        (
            d
            for d in deadlines(state)
            if d.rule == action.rule and (action.seat is None or d.seat == action.seat)
        ),
        None,
    )
    if due is None:
        raise IllegalAction(action.rule, "no such deadline is running")
    if ctx.now < due.at:
        raise IllegalAction(action.rule, f"not due for another {due.at - ctx.now:.3f} s")
    events: list[Event] = [DeadlineExpired(rule=due.rule, seat=due.seat)]
    rule = due.rule
    if rule == "T-1":  # called for (S-2, Q-5)
        if state.game == "spit":
            need = spit.spitters(state)
            waiting = [s for s in need if not state.players[s].called]
            events += [SpitCalled(seat=s, by="T-1") for s in waiting]
            if len(need) == 1:
                piles = {need[0]: spit.solo_default(state, need[0])}
            else:
                piles = {s: s for s in need}
            events.append(spit.turn_spit_cards(state, piles))
        else:  # speed.follow turns the side piles once both have called
            events += [SpitCalled(seat=s, by="T-1") for s in (0, 1) if not state.players[s].called]
    elif rule == "T-2":  # made ready (N-4)
        events += [PlayerReady(seat=s, by="T-2") for s in (0, 1) if not state.players[s].ready]
        events.append(RULES[state.game].start(state))
    elif rule == "T-3":
        events += spit.slap_timeout(state)
    elif rule == "T-4":
        events.append(GameEnded(winner=1 - due.seat, reason="T-4"))
    else:  # T-5
        events.append(GameAborted(reason="T-5"))
    return events


# ---------------------------------------------------------------- legal actions


def legal_actions(state: State, seat: int | None) -> list:
    """Exactly the actions ``decide`` would accept from ``seat`` now (resign included)."""
    if seat not in (0, 1) or state.over:
        return []
    if state.status == "waiting":
        return [Resign()] if state.players[seat].kind else []
    return RULES[state.game].legal(state, seat) + [Resign()]
