"""The stored and wire form of events (``{"type": "card_played", ...}``), and their upcasting.

``event_to_dict`` and ``event_from_dict`` round-trip: an event read from the log is the
log's record as it was written, and writes back to the same form, byte for byte (the
exports and the archive compare bytes). What an event means today is
``current(event)``: the event with its type's upcasters applied (``events``), which the
engine's ``evolve``, the audit and the exports' result read.

The event types are the engine's and every registered game's (``event_types``, read
from the registry when asked).
"""

import dataclasses
import types
import typing

from . import registry
from .cards import Card
from .events import Event

_TYPES = registry.EVENT_TYPES  # type name -> class, kept by the registry (filled when asked)


def event_types() -> dict[str, type]:
    """Every event type by its wire name: the engine's and each registered game's."""
    return registry.event_types()


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


_READERS: dict[type, tuple] = {}
_WRITERS: dict[type, tuple] = {}


def _codecs(cls: type) -> tuple[tuple, tuple]:
    """The readers and writers of ``cls``'s fields, made once per type."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    _READERS[cls] = tuple((f.name, _converter(hints[f.name], Card.parse, tuple)) for f in fields)
    _WRITERS[cls] = tuple(
        (f.name, _converter(hints[f.name], _card_name, list), f.metadata.get("added", False))
        for f in fields
    )
    return _READERS[cls], _WRITERS[cls]


def added_fields(cls: type) -> frozenset[str]:
    """The fields of ``cls`` left out of the wire form while None (``events.added``)."""
    return frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get("added"))


def event_to_dict(event: Event) -> dict:
    """The full (unredacted) wire form of an event."""
    cls = type(event)
    writers = _WRITERS.get(cls) or _codecs(cls)[1]
    out = {"type": cls.TYPE}
    for name, enc, added in writers:
        v = getattr(event, name)
        if added and v is None:
            continue
        out[name] = v if enc is None else enc(v)
    return out


def event_from_dict(d: dict) -> Event:
    """Read an event back from ``event_to_dict``'s form, as it was written; KeyError (an
    unknown type) or ValueError/TypeError if malformed."""
    kind = d["type"]
    cls = _TYPES.get(kind) or event_types()[kind]
    readers = _READERS.get(cls) or _codecs(cls)[0]
    kwargs = {}
    for name, dec in readers:
        if name in d:
            v = d[name]
            kwargs[name] = dec(v) if dec is not None else v
    return cls(**kwargs)


def upcast(cls: type, d: dict) -> dict:
    """The wire form ``d`` of a ``cls`` event, read as the type's version 1 and upcast to
    its current version (a copy; ``d`` itself is left as it is)."""
    out = dict(d)
    for v in range(1, cls.VERSION):
        getattr(cls, f"upcast_v{v}_v{v + 1}")(out)
    return out


def current(event: Event) -> Event:
    """``event`` as its type's current version reads it (itself when nothing changes)."""
    cls = type(event)
    if cls.VERSION == 1:
        return event
    d = event_to_dict(event)
    up = upcast(cls, d)
    return event if up == d else event_from_dict(up)
