"""The decider: ``decide(state, action, ctx) -> events``, ``evolve``, ``replay``.

What every game shares lives here (seats, readiness, resignation, the timeouts
T-1..T-6, the operator's abort and the bookkeeping every state carries); everything else
is asked of the game's own rules, found in the registry by the name the state carries,
never by the game's name.
"""

from dataclasses import dataclass
from functools import reduce

from . import registry
from .actions import Abort, Encoder, Join, Ready, Resign, Timeout, read_action
from .codec import current
from .errors import GameOver, IllegalAction, InvalidOptions, MalformedAction, SeatUnavailable
from .events import (
    DeadlineExpired,
    Event,
    GameAborted,
    GameCreated,
    GameEnded,
    PlayerReady,
    PlayerResigned,
    SeatTaken,
)
from .options import Options, parse_options
from .rules import Rules
from .state import State, set_player
from .values import build, replace

# Who sits at a seat: a person ("human") or a client's bot ("bot"), both playing through
# the API with the seat's token, or a hosted bot level ("bot:<level>"), played by the
# workers. The kind is a fact of the game: the log keeps it (``GameCreated``, ``SeatTaken``).
KINDS = ("human", "bot", "bot:random", "bot:easy", "bot:medium", "bot:hard")
HOSTED = tuple(k for k in KINDS if k.startswith("bot:"))  # the levels the workers play
WHY_MAX = 200  # the longest ``why`` of an operator's abort (T-6), in characters
# GameAborted's reason when a rated game ends by a resignation (E-5) or a forfeit (T-4)
# before both seats have made a move: it has no result, as on Lichess. A service ruling
# on rated games, not a rule of the games (docs/decisions/0027); an unrated game keeps
# E-5 and T-4 as the rules (docs/rules.md) have them.
UNPLAYED = "unplayed"
# Under ruling 2, the abort window of a rated game closes for a seat that has not moved
# this long after its opponent's first move: from then on, its resignation (E-5) or its
# forfeit (T-4) is a result, rated, as on Lichess, where a game can be aborted only
# before a player's first move (docs/decisions/0036).
ABORT_WINDOW_S = 10.0
# The events of a seat's own that are not a move (``State.moved``): taking the seat,
# saying it is ready, resigning. Every other event a seat makes itself (``seat`` set and
# no ``by``: the game's own) is an action of the game's play, a move; what a timeout does
# for a seat (``by``, DeadlineExpired) is not the seat's.
NOT_MOVES = (SeatTaken, PlayerReady, PlayerResigned)
# The service's rulings a new game is played under (``GameCreated.ruling``; a log without
# one was written before them and is judged by the rulings of its time), docs/decisions/0029:
# 1: a hosted bot's idle clock ends only as T-6 and an operator's abort only as T-6 (the
# forms of a log from before T-6 are not accepted); a T-6 due no later than a person's
# T-4 comes first (the service's failure is not the person's fault); a rated table's
# idle_forfeit_s is at least ``RATED_IDLE_MIN_S``.
# 2: a rated game's abort window (``UNPLAYED``) closes for a seat that has not moved
# ``ABORT_WINDOW_S`` after its opponent's first move (``abortable``).
RULING = 2


@dataclass(frozen=True, slots=True)
class Ctx:
    """What the domain may not fetch itself: who acts, the time, the secret seed."""

    seat: int | None
    now: float
    server_seed: bytes | None = None


@dataclass(frozen=True, slots=True)
class Deadline:
    rule: str  # T-1..T-6
    at: float  # seconds since the epoch
    seat: int | None = None  # T-4, T-6: whose clock


def rules_for(game: str) -> Rules:
    """The rules of ``game``; MalformedAction for a game there is none of."""
    try:
        return registry.get(game)
    except KeyError:
        raise MalformedAction({"game": [f"must be one of {', '.join(registry.games())}"]}) from None


def options_for(game: str, raw: dict | None, *, rated: bool = False) -> Options:
    """Validate the table options ``raw`` of ``game`` (InvalidOptions names each field, and
    ``game`` if there is no such game); ``rated``: of a rated table
    (``options.RATED_IDLE_MIN_S``)."""
    if game not in registry.games():
        raise InvalidOptions({"game": [f"must be one of {', '.join(registry.games())}"]})
    rules = registry.get(game)
    others = {name: r.OPTIONS for name, r in registry.games().items()}
    return parse_options(game, rules.OPTIONS, rules.OPTIONS_CLASS, raw, others, rated=rated)


def parse_action(game: str, body):
    """Read an action's wire form in ``game``; MalformedAction names the field."""
    return read_action(rules_for(game).ACTIONS, body, game)


def action_to_dict(action) -> dict:
    """The wire form of a player's action (the inverse of ``parse_action``)."""
    # made once per action (actions are frozen values), at most 4096 kept
    wires = registry.derived("action wire forms", _no_wires)
    wire = wires.get(action)
    if wire is None:
        encoder = registry.derived("action encoders", _encoders).get(type(action))
        if encoder is None:
            raise TypeError(f"not a player's action: {action!r}")
        wire = encoder(action)
        if len(wires) < 4096:
            wires[action] = wire
    return dict(wire)


def _no_wires(_games: dict) -> dict:
    return {}


def _encoders(games: dict[str, Rules]) -> dict[type, Encoder]:
    """Per action type, its encoder (a type two games share, such as ready, is written
    alike by both: the first game's)."""
    out: dict[type, Encoder] = {}
    for rules in games.values():
        for kind, (cls, fields) in rules.ACTIONS.items():
            out.setdefault(cls, Encoder(kind, fields))
    return out


# ---------------------------------------------------------------- evolve


def _created(s: State, e: GameCreated) -> State:
    rules = registry.get(e.game)
    opts = rules.OPTIONS_CLASS(**e.options)
    empty = rules.setup(opts)
    return rules.STATE(
        id=e.game_id,
        game=e.game,
        options=opts,
        commitment=e.commitment,
        status="waiting",
        phase="waiting",
        created_at=e.at,
        players=(replace(empty, kind=e.kind, client_seed=e.client_seed), empty),
        rated=bool(e.rated),
        ruling=e.ruling,
    )


def _seat_taken(s: State, e: SeatTaken) -> dict:
    p = replace(s.players[e.seat], kind=e.kind, client_seed=e.client_seed)
    return {"players": set_player(s.players, e.seat, p)}


def _ready(s: State, e: PlayerReady) -> dict:
    return {"players": set_player(s.players, e.seat, replace(s.players[e.seat], ready=True))}


def _ended(s: State, e: GameEnded) -> dict:
    return {"status": "finished", "phase": "finished", "winner": e.winner, "result": e.reason}


def _aborted(s: State, e: GameAborted) -> dict:
    return {"status": "aborted", "phase": "aborted", "result": e.reason, "aborted_by": e.by,
            "aborted_why": e.why}  # fmt: skip


def _same(s: State, e: Event) -> dict:
    return {}


_NEW = {GameCreated: _created}  # a state that is no game yet: the game's own state
_COMMON = {
    SeatTaken: _seat_taken,
    PlayerReady: _ready,
    PlayerResigned: _same,
    DeadlineExpired: _same,
    GameEnded: _ended,
    GameAborted: _aborted,
}


def _upcasting(handler):
    """``handler`` of an event type whose meaning changed: it reads the event as its
    current version (``codec.current``)."""
    return lambda s, e: handler(s, current(e))


def _tables(games: dict[str, Rules]) -> dict[str, tuple[dict, Rules]]:
    """Per game, its evolve table (the engine's events and its own) and its rules."""
    out = {}
    for name, rules in games.items():
        table = {**_COMMON, **rules.EVOLVE}
        table = {cls: _upcasting(fn) if cls.VERSION > 1 else fn for cls, fn in table.items()}
        out[name] = table, rules
    return out


def evolve(state: State, event: Event) -> State:
    """The state after ``event``: the event's own changes (its handler's: the fields it
    changes), then the bookkeeping derived from them (``_book``). The new state is built
    once (``values.build``); ``state`` is not changed."""
    if state.status == "new":
        new = _NEW[type(event)](state, event)
        table, rules = registry.derived("evolve", _tables)[event.game]
        return build(new, {}, _book, state, event, rules)
    table, rules = registry.derived("evolve", _tables)[state.game]
    return build(state, table[type(event)](state, event), _book, state, event, rules)


def _book(s: State, state: State, event: Event, rules: Rules) -> dict:
    """The bookkeeping of ``s``, the state ``event`` makes of ``state``: stalemate (S-1,
    Q-5), the phase and its start, who can act, T-4's clocks, the version."""
    at = event.at
    stalemate = False
    phase = s.phase
    if s.status != "running":
        can = (False, False)
        phase = s.status
    elif phase == "playing" or phase == "stalemate":
        can = (rules.has_moves(s, 0), rules.has_moves(s, 1))
        stalemate = not (can[0] or can[1])
        if stalemate:
            phase = "stalemate"
            if s.phase != phase:  # who can act in a stalemate is the phase's question
                s = replace(s, phase=phase)
            can = (rules.can_act(s, 0), rules.can_act(s, 1))
        else:
            phase = "playing"
    else:
        can = (rules.can_act(s, 0), rules.can_act(s, 1))
    book = {"version": state.version + 1, "phase": phase, "can_act": can, "stalemate": stalemate}
    if phase != state.phase or type(event) in rules.NEW_ROUND:
        book["phase_since"] = at
    # T-4: each seat's clock counts, in total, the time it had a legal action since its own
    # last action: it pauses (without restarting) while the seat has nothing to do, and a
    # timeout acting for the seat (``by``: T-1 calling, T-2 making ready) is not its action.
    by = getattr(event, "by", None)
    seat = getattr(event, "seat", None) if type(event) is not DeadlineExpired else None
    actor = seat if by is None else None
    if actor is not None or can != state.can_act:
        book["idle_used"] = _counted(state, can, at, actor)
        book["idle_since"] = tuple(
            at if i == actor or (can[i] and not state.can_act[i]) else state.idle_since[i]
            for i in (0, 1)
        )
        if actor is not None:
            book["acted_at"] = (at, state.acted_at[1]) if actor == 0 else (state.acted_at[0], at)
    if actor is not None and not state.moved[actor] and type(event) not in NOT_MOVES:
        book["moved"] = (True, state.moved[1]) if actor == 0 else (state.moved[0], True)
        book["first_move_at"] = None if state.moved[1 - actor] else at
    return book


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
    rated: bool = False,
    ruling: int | None = RULING,
) -> list[Event]:
    """The first events of a game: its creation (options validated, seed committed) and,
    against a bot, the bot's seat and the first deal. ``rated``: rated when it ends (the
    service's ratings), which the log keeps for ``UNPLAYED``. ``ruling``: the rulings it
    is played under (``RULING``; None: a game of a log written before them, as the audit
    re-creates one)."""
    opts = options_for(game, options, rated=rated and ruling is not None)
    if opponent != "human" and opponent not in HOSTED:
        raise MalformedAction({"opponent": [f"must be one of human, {', '.join(HOSTED)}"]})
    if kind not in KINDS:
        raise MalformedAction({"kind": [f"must be one of {', '.join(KINDS)}"]})
    events: list[Event] = [
        GameCreated(
            at=now,
            game_id=game_id,
            game=game,
            options=opts.public(),
            kind=kind,
            client_seed=client_seed,
            commitment=commitment,
            rated=True if rated else None,
            ruling=ruling,
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
    follow = registry.get(s.game).follow
    while extra := follow(s, ctx.server_seed, ctx.now):
        extra = _stamp(extra, ctx.now)
        events += extra
        s = reduce(evolve, extra, s)
    return events, s


def _stamp(events: list[Event], now: float) -> list[Event]:
    """The events the rules just made, dated ``now`` (copies)."""
    return [replace(e, at=now) for e in events]


def abortable(state: State, loser: int, now: float) -> bool:
    """Whether a rated game ending at ``now`` with ``loser`` losing (its resignation, E-5,
    or its forfeit, T-4; or the game's own end) is aborted instead (``UNPLAYED``): it
    has no result. It is while a seat has not moved and the window is open: the winner
    has not moved, or (ruling 2) ``loser`` has not and its opponent's first move was less
    than ``ABORT_WINDOW_S`` ago. Under ruling 1 and before, while any seat has not moved."""
    if not state.rated or (state.moved[0] and state.moved[1]):
        return False
    if not state.moved[1 - loser] or (state.ruling or 0) < 2:
        return True
    return state.first_move_at is not None and now < state.first_move_at + ABORT_WINDOW_S


def unplayed_result(state: State) -> bool:
    """Whether a rated game that is over with a result (``finished``) ended while its
    abort window was open (``abortable``): its rating applies nothing. A draw, if it
    was open for either seat."""
    end = state.phase_since if state.over else None
    if end is None or not state.rated:
        return False
    losers = (0, 1) if state.winner is None else (1 - state.winner,)
    return any(abortable(state, s, end) for s in losers)


def _unplayed(state: State, what: str) -> GameAborted:
    """The abort of a rated game that ended (``what``) before both seats had moved."""
    yet = " and ".join(f"seat {s}" for s in (0, 1) if not state.moved[s])
    return GameAborted(reason=UNPLAYED, why=f"a rated game: {what} before {yet} had made a "
                       "move, so it has no result")  # fmt: skip


def _decide(state: State, action, ctx: Ctx) -> list[Event]:
    if isinstance(action, Timeout):
        return _timeout(state, action, ctx)
    if isinstance(action, Abort):  # T-6, the operator's
        if ctx.seat is not None:
            raise MalformedAction({"type": ["not an action of a seat"]})
        return [GameAborted(reason="T-6", by="operator", why=check_why(action.why))]
    if isinstance(action, Join):
        return _join(state, action, ctx)
    seat = ctx.seat
    if seat not in (0, 1) or state.players[seat].kind is None:  # a free seat is nobody's
        raise IllegalAction("P-5", "only a seated player may act")
    if isinstance(action, Resign):  # E-5, in both games
        if state.status == "waiting":
            return [PlayerResigned(seat=seat), GameAborted(reason="E-5")]
        if abortable(state, seat, ctx.now):
            return [PlayerResigned(seat=seat), _unplayed(state, f"seat {seat} resigned (E-5)")]
        return [PlayerResigned(seat=seat), GameEnded(winner=1 - seat, reason="E-5")]
    rules = registry.get(state.game)
    if state.status == "waiting":
        raise IllegalAction(rules.START_RULE, "the game has not started: a seat is still free")
    if isinstance(action, Ready):
        return _decide_ready(state, seat, rules)
    fn = rules.DECIDE.get(type(action))
    if fn is None:
        raise MalformedAction({"type": [f"not an action of {state.game}"]})
    rules.guard(state, action)
    return fn(state, seat, action)


def check_why(why) -> str:
    """``why`` if it may be the reason of an operator's abort (T-6): 1 to ``WHY_MAX``
    printable characters, not only spaces; else MalformedAction naming ``why``."""
    if not isinstance(why, str) or not why.strip() or len(why) > WHY_MAX:
        raise MalformedAction({"why": [f"must say why, in 1 to {WHY_MAX} characters"]})
    if not why.isprintable():
        raise MalformedAction({"why": ["must be printable: no control characters"]})
    return why


def _decide_ready(state: State, seat: int, rules: Rules) -> list[Event]:
    """D-4, N-4, Q-2: both ready, and the round starts."""
    if state.phase != "ready":
        raise IllegalAction(rules.START_RULE, "there is no round waiting to start")
    if state.players[seat].ready:
        raise IllegalAction(rules.START_RULE, "you are already ready")
    events: list[Event] = [PlayerReady(seat=seat)]
    if state.players[1 - seat].ready:
        events.append(rules.start(state))
    return events


def _join(state: State, action: Join, ctx: Ctx) -> list[Event]:
    if state.status != "waiting":
        raise SeatUnavailable("both seats are taken")
    if action.kind not in KINDS:
        raise MalformedAction({"kind": [f"must be one of {', '.join(KINDS)}"]})
    taken = SeatTaken(seat=1, kind=action.kind, client_seed=action.client_seed)
    return [taken, registry.get(state.game).deal(evolve(state, taken), ctx.server_seed)]


# ---------------------------------------------------------------- timeouts (T-1..T-6)


def deadlines(state: State) -> tuple[Deadline, ...]:
    """Every deadline running in ``state``, soonest first (``first``: a T-6 before
    another at the same time): the game-wide one of its phase (T-1..T-3, while someone
    has to act) or T-5, and each seat's idle clock: T-4 for a person or a client's bot,
    T-6 for a hosted bot, whose decisions the service makes (it does not forfeit for the
    time the service failed to run them: the game is aborted)."""
    o = state.options
    if state.status == "waiting":
        return (Deadline("T-5", state.created_at + o.join_timeout_s),)
    if state.status != "running":
        return ()
    out = []
    phase = registry.get(state.game).PHASE_DEADLINES.get(state.phase)
    if phase is not None and any(state.can_act):
        rule, grace = phase
        out.append(Deadline(rule, state.phase_since + getattr(o, grace)))
    for seat in (0, 1):
        if state.can_act[seat]:
            left = o.idle_forfeit_s - state.idle_used[seat]
            rule = "T-6" if state.players[seat].kind in HOSTED else "T-4"
            out.append(Deadline(rule, state.idle_since[seat] + left, seat))
    return tuple(sorted(out, key=first))


def first(d: Deadline) -> tuple[float, int]:
    """The order deadlines fall due in: by time; at the same time a T-6 first (the service
    failing a seat is no fault of the other seat's person, whose T-4 it would forfeit)."""
    return (d.at, 0 if d.rule == "T-6" else 1)


def _timeout(state: State, action: Timeout, ctx: Ctx) -> list[Event]:
    running = deadlines(state)
    due = next(
        (
            d
            for d in running
            if d.rule == action.rule and (action.seat is None or d.seat == action.seat)
        ),
        None,
    )
    refused = False  # T-6 of a seat the service refused (RULES T-4), on its T-4's clock
    if due is None and action.rule == "T-6" and action.seat is not None:
        due = next((d for d in running if d.rule == "T-4" and d.seat == action.seat), None)
        refused = due is not None
    if due is None:
        raise IllegalAction(action.rule, "no such deadline is running")
    if ctx.now < due.at:
        raise IllegalAction(action.rule, f"not due for another {due.at - ctx.now:.3f} s")
    if action.rule == "T-4" and state.ruling is not None:
        # a T-6 due no later comes first: the service's failure, not the person's fault
        ahead = next((d for d in running if d.rule == "T-6" and d.at <= due.at), None)
        if ahead is not None:
            raise IllegalAction("T-6", f"seat {ahead.seat}'s T-6 falls due first")
    events: list[Event] = [DeadlineExpired(rule=action.rule, seat=due.seat)]
    rules = registry.get(state.game)
    if due.rule == "T-2":  # made ready (N-4, Q-2)
        events += [PlayerReady(seat=s, by="T-2") for s in (0, 1) if not state.players[s].ready]
        events.append(rules.start(state))
    elif refused:  # the service refused the seat's requests for its whole clock
        why = (f"the service refused seat {due.seat}'s requests (a 503, or a 429 of a limit "
               f"the seat did not exceed) for {state.options.idle_forfeit_s:g} s since its "
               "last action")  # fmt: skip
        events.append(GameAborted(reason="T-6", by="service", why=why))
    elif due.rule == "T-4":
        if abortable(state, due.seat, ctx.now):
            idle = f"seat {due.seat} was idle for {state.options.idle_forfeit_s:g} s (T-4)"
            events.append(_unplayed(state, idle))
        else:
            events.append(GameEnded(winner=1 - due.seat, reason="T-4"))
    elif due.rule == "T-6":  # a hosted bot's seat: the service failed to run its decisions
        why = (f"the service could not run seat {due.seat}'s decisions for "
               f"{state.options.idle_forfeit_s:g} s")  # fmt: skip
        events.append(GameAborted(reason="T-6", by="service", why=why))
    elif due.rule == "T-5":
        events.append(GameAborted(reason="T-5"))
    else:  # T-1, T-3: the game's own
        events += rules.on_timeout(state, due.rule)
    return events


# ---------------------------------------------------------------- legal actions


def legal_actions(state: State, seat: int | None) -> list:
    """Exactly the actions ``decide`` would accept from ``seat`` now (resign included)."""
    if seat not in (0, 1) or state.over:
        return []
    if state.status == "waiting":
        return [Resign()] if state.players[seat].kind else []
    return registry.get(state.game).legal(state, seat) + [Resign()]
