"""Re-judge a whole log without trusting the server (RULES H-6).

``verify(events, server_seed)`` checks that the seed matches the commitment, then walks
the log action by action: it works out which action each batch of events answers,
asks ``decide`` what that action produces in the state the log had reached (with the
revealed seed, so every deal is re-derived), and requires the log to hold exactly
those events. The first event that does not follow is named, with its version.

The log is judged as its events mean today (``codec.current``: an event type whose
format changed is upcast). A log written before RULES T-6 is judged by the rulings it
was written under, where they differ from today's: an operator's abort was
``game_aborted`` version 1 (reason ``admin``, no ``why``: ``_unsaid``), and a hosted
bot's seat was forfeited by T-4 when its idle clock ran out (``_legacy_forfeit``), where
today the game is aborted under T-6. Each is accepted exactly where today's rules accept
the action it answered (the same clock, the same moment), and only in a log whose
``game_created`` names no ruling (``ruling``, which every game created since carries:
``game.RULING``): in a newer log either is forged.
"""

from dataclasses import dataclass, field
from dataclasses import replace as _replace

from . import registry
from .actions import Abort, Join, Ready, Resign, Timeout
from .codec import current
from .errors import DomainError
from .events import (
    DeadlineExpired,
    GameAborted,
    GameCreated,
    GameEnded,
    PlayerReady,
    PlayerResigned,
    SeatTaken,
)
from .game import HOSTED, Ctx, create_game, evolve, run
from .shuffle import VERSION, commitment
from .state import State


@dataclass
class Verdict:
    ok: bool
    checked: int  # events confirmed
    first_bad: int | None = None  # the version (1-based) of the first event that fails
    reason: str | None = None
    shuffle: str = VERSION
    deals: list[dict] = field(default_factory=list)  # every deal, re-derived

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "first_bad": self.first_bad,
            "reason": self.reason,
            "shuffle": self.shuffle,
            "deals": self.deals,
        }


def _candidates(e, state: State, stored):
    """The actions (with the acting seat) that could have produced a batch starting at e
    (as it means today; ``stored``: as the log wrote it), each with how the log writes what
    it produces (None: as ``decide`` gives it)."""
    if isinstance(e, SeatTaken):
        return [(Join(kind=e.kind, client_seed=e.client_seed), e.seat, None)]
    if isinstance(e, PlayerReady) and e.by is None:
        return [(Ready(), e.seat, None)]
    if isinstance(e, PlayerResigned):
        return [(Resign(), e.seat, None)]
    if isinstance(e, DeadlineExpired):
        legacy = _legacy_forfeit(e, state)
        if legacy is not None:
            return [(Timeout("T-6", e.seat), None, legacy)]
        return [(Timeout(e.rule, e.seat), None, None)]
    if isinstance(e, GameAborted) and e.by == "operator":  # T-6: the operator's reasons
        if stored is not e:  # version 1 (reason admin, no why): a log from before T-6's
            return [(Abort(why="-"), None, _unsaid)] if state.ruling is None else []
        return [(Abort(why=e.why), None, None)]  # are theirs; the moment is the rules'
    return [(a, seat, None) for a, seat in registry.get(state.game).candidates(e)]


def _unsaid(out: list) -> list:
    """An operator's abort as a log of a version that recorded no ``why`` holds it."""
    return [_replace(out[0], why=None)]


# The ruling a log may have been written under before RULES T-6 (see the module's doc):
# it maps what today's rules produce for the action to what the log held for it then.


def _legacy_forfeit(e: DeadlineExpired, state: State):
    """For a T-4 expiry of a hosted bot's seat in a log from before T-6 (its game names no
    ruling): the map from the T-6 abort today's rules make of that clock to the forfeit
    the log holds; else None."""
    seat = e.seat
    if e.rule != "T-4" or seat not in (0, 1) or state.players[seat].kind not in HOSTED:
        return None
    if state.ruling is not None:
        return None

    def forfeit(out: list) -> list:
        at = out[0].at
        return [_replace(out[0], rule="T-4"), GameEnded(at=at, winner=1 - seat, reason="T-4")]

    return forfeit


def _creation(events: list, seed: bytes) -> list:
    first = events[0]
    opponent = "human"
    if len(events) > 1 and isinstance(events[1], SeatTaken) and events[1].at == first.at:
        opponent = events[1].kind  # a bot's seat is taken with the creation
    return create_game(
        game_id=first.game_id,
        game=first.game,
        now=first.at,
        server_seed=seed,
        commitment=first.commitment,
        options=first.options,
        opponent=opponent,
        client_seed=first.client_seed,
        kind=first.kind,
        rated=first.rated,
        ruling=first.ruling,
    )


def verify(events: list, server_seed: bytes) -> Verdict:
    """Check a complete log against the revealed ``server_seed``; see the module doc."""
    if not events or not isinstance(events[0], GameCreated):
        return Verdict(False, 0, 1, "the log does not start with game_created")
    stored, events = events, [current(e) for e in events]
    first = events[0]
    if commitment(server_seed) != first.commitment:
        return Verdict(False, 0, 1, "sha256(server_seed) is not the published commitment")
    deals: list[dict] = []
    try:
        expected = _creation(events, server_seed)
    except DomainError as err:
        return Verdict(False, 0, 1, f"the creation does not replay: {err}")
    shuffles = registry.get(first.game).DEALS
    i = 0
    state = State()
    batch = expected
    while True:
        n = len(batch)
        got = events[i : i + n]
        if got != batch:
            at = i + _first_difference(got, batch)
            return _fail(events, at, deals, shuffles, "not what the rules produce here")
        for k, e in enumerate(batch):
            state = evolve(state, e)
            if isinstance(e, shuffles):
                deals.append({"version": i + k + 1, "type": e.TYPE, "ok": True})
        i += n
        if i == len(events):
            return Verdict(True, i, deals=deals)
        e = events[i]
        batch, failure = None, (i, "no action of a seat or deadline produces it")
        for action, seat, written in _candidates(e, state, stored[i]):
            try:
                out, _ = run(state, action, Ctx(seat, e.at, server_seed))
            except DomainError as err:
                failure = (i, f"{type(action).__name__} is illegal here: {err}")
                continue
            if written is not None:
                out = written(out)
            if out == events[i : i + len(out)]:
                batch = out
                break
            failure = (i + _first_difference(events[i:], out), "not what the rules produce here")
        if batch is None:
            return _fail(events, failure[0], deals, shuffles, failure[1])


def _first_difference(got: list, want: list) -> int:
    return next((k for k, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), len(got))


def _fail(events: list, index: int, deals: list, shuffles: tuple, reason: str) -> Verdict:
    name = events[index].TYPE if index < len(events) else "(missing event)"
    for d in deals:
        if d["version"] > index:
            d["ok"] = False
    if index < len(events) and isinstance(events[index], shuffles):
        deals.append({"version": index + 1, "type": name, "ok": False})
    return Verdict(False, index, index + 1, f"event {index + 1} ({name}): {reason}", deals=deals)
