"""A JSON-safe form of a State, for snapshots stored beside the log.

A snapshot is only a cache: ``replay`` of the log is the truth, and a test checks
that ``state_from_dict(state_to_dict(s)) == s``.
"""

import dataclasses
import types
import typing

from .cards import Card
from .events import LEGACY_ADMIN
from .options import Options
from .state import Player, State

FORMAT = 2  # 2: T-4's clock counts in total (idle_used, acted_at)


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
        return lambda d: hint(**{n: dec(d[n]) for n, dec in fields if n in d})
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


_STATE = _decoder(State)
assert Options and Player  # decoded through State's type hints


def state_to_dict(state: State) -> dict:
    """The snapshot form of ``state`` (plain JSON types only)."""
    return {"format": FORMAT, "state": _encode(state)}


def state_from_dict(d: dict) -> State:
    """Read a snapshot back; ValueError for a format this code does not know."""
    if d.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {d.get('format')!r}")
    state = _STATE(d["state"])
    if state.result == LEGACY_ADMIN:  # an operator's abort snapshotted before T-6
        state = dataclasses.replace(state, result="T-6", aborted_by="operator")
    return state
