"""A JSON-safe form of a State, for snapshots stored beside the log.

A snapshot is only a cache: ``replay`` of the log is the truth, and a test checks
that ``state_from_dict(state_to_dict(s)) == s``. Its ``format`` is the version of its
form; an older format is upcast (``_UPCASTERS``, as the eventsourcing library upcasts
its snapshots) or, older still, refused with a ValueError, and the log is replayed.

Formats: 2, T-4's clock counts in total (``idle_used``, ``acted_at``); 3, ``rated`` and
``moved``; 4, each game's state and player in classes of their own (``Rules.STATE``):
the fields of the other games are gone; 5, ``first_move_at`` (a state of an older
format in which exactly one seat has moved does not say when: it is refused, and the log
replayed).
"""

import dataclasses
import types
import typing

from . import registry
from .cards import Card
from .state import State

FORMAT = 5


def _encode(v):
    if isinstance(v, Card):
        return str(v)
    if isinstance(v, tuple):
        return [_encode(x) for x in v]
    if dataclasses.is_dataclass(v):
        return {f.name: _encode(getattr(v, f.name)) for f in dataclasses.fields(v)}
    return v


def _decoder(hint):
    if hint is Card:
        return Card.parse
    if dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        fields = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(hint)]
        names = {n for n, _dec in fields}

        def decode(d):
            unknown = d.keys() - names
            if unknown:
                raise ValueError(f"{hint.__name__} has no field {', '.join(sorted(unknown))}")
            return hint(**{n: dec(d[n]) for n, dec in fields if n in d})

        return decode
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _decoder(args[0])
            return lambda v: tuple(inner(x) for x in v)
        decs = [_decoder(a) for a in args]
        return lambda v: tuple(dec(x) for dec, x in zip(decs, v, strict=True))
    if origin in (typing.Union, types.UnionType):
        inner = _decoder(next(a for a in args if a is not type(None)))
        return lambda v: None if v is None else inner(v)
    if hint is float:
        return float
    return lambda v: v


_DECODERS: dict[type, object] = {}  # state class -> its decoder, made when first asked


def _state_class(game: str) -> type[State]:
    """The class of a state of ``game`` ("": none yet); ValueError if no game has the name."""
    if not game:
        return State
    try:
        return registry.get(game).STATE
    except KeyError:
        raise ValueError(f"no game {game!r} is registered") from None


def _upcast_v3_v4(state: dict) -> None:
    """Format 3 held every game's fields in one state and one player: keep the game's."""
    cls = _state_class(state.get("game", ""))
    _keep(state, cls)
    player = typing.get_type_hints(cls)["players"].__args__[0]
    for p in state.get("players", ()):
        _keep(p, player)
    options = typing.get_type_hints(cls)["options"]
    _keep(state.get("options", {}), options)


def _keep(d: dict, cls: type) -> None:
    names = {f.name for f in dataclasses.fields(cls)}
    for name in [n for n in d if n not in names]:
        del d[name]


def _upcast_v4_v5(state: dict) -> None:
    """Format 4 had no ``first_move_at``: it is None unless exactly one seat has moved,
    and then format 4 does not say when (ValueError: the log is replayed)."""
    moved = state.get("moved", (False, False))
    if bool(moved[0]) != bool(moved[1]):
        raise ValueError("a snapshot of format 4 does not say when the first move was made")
    state["first_move_at"] = None


_UPCASTERS = {
    3: _upcast_v3_v4,
    4: _upcast_v4_v5,
}  # format n -> what makes its state of format n + 1


def state_to_dict(state: State) -> dict:
    """The snapshot form of ``state`` (plain JSON types only)."""
    return {"format": FORMAT, "state": _encode(state)}


def state_from_dict(d: dict) -> State:
    """Read a snapshot back, upcast from an older format; ValueError for a format this code
    does not read (older than the oldest upcaster, or newer than ``FORMAT``)."""
    fmt = d.get("format")
    state = d["state"]
    if fmt != FORMAT:
        if fmt not in _UPCASTERS:
            raise ValueError(f"unknown snapshot format {fmt!r}")
        state = _copy(state)
        for n in range(fmt, FORMAT):
            _UPCASTERS[n](state)
    cls = _state_class(state.get("game", ""))
    decode = _DECODERS.get(cls)
    if decode is None:
        decode = _DECODERS[cls] = _decoder(cls)
    return decode(state)


def _copy(v):
    """A copy of a snapshot's JSON, so that an upcaster leaves what it was given as it was."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v
