"""Actions: what a seat (or the system) asks to do. Imperative names, frozen values.

The engine's actions are here (``Join``, ``Ready``, ``Resign``, ``Timeout``, ``Abort``);
each game defines its own. Each game gives the wire form of its actions
(``Rules.ACTIONS``: a JSON object with a ``type``): ``read_action`` reads it, ``Encoder``
writes it back, and the two round-trip. ``read_action`` refuses a malformed body
(unknown type or field, an index out of range, card ``1X``) before any rule is
consulted; it is the only validator of actions, and the service's documents are made
from the same tables (each field's ``Kind``).

>>> wire = {"ready": (Ready, ()), **RESIGN}
>>> a = read_action(wire, {"type": "ready"}, "a game")
>>> a, Encoder("ready", ())(a)
(Ready(), {'type': 'ready'})
"""

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, CardError
from .errors import MalformedAction
from .wire import integer


@dataclass(frozen=True, slots=True)
class Ready:  # D-4, N-4, Q-2: every round starts when both seats are ready
    pass


@dataclass(frozen=True, slots=True)
class Resign:  # E-5 (every game)
    pass


@dataclass(frozen=True, slots=True)
class Join:
    """Take the free seat (the service's ``POST /seats``)."""

    kind: str = "human"
    client_seed: str = ""


@dataclass(frozen=True, slots=True)
class Timeout:
    """The system's action: a deadline of T-1..T-6 has passed (``seat`` for T-4 and T-6)."""

    rule: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Abort:
    """The operator's action (``spitlog admin abort --reason``): the game is aborted under
    RULES T-6, no one wins or loses, and the log says that the operator did it and
    ``why``. Not an action of a seat: none can send it."""

    why: str


class Kind(NamedTuple):
    """A kind of field on the wire: its name (in messages) and its JSON schema, an integer
    index (``minimum``..``maximum``) or, ``CARD``, a card by its name."""

    name: str
    schema: dict


CARD = Kind("card", {"type": "string", "pattern": "^([Aa]|[2-9]|10|[JjQqKk])[CcDdHhSs]$",
                     "description": "a card of your hand, such as 10H or QD (C-1)"})  # fmt: skip


class Field(NamedTuple):
    """One field of an action's wire form: its name on the wire, the action's attribute,
    its kind and whether it must be sent."""

    wire: str
    attr: str
    kind: Kind
    required: bool = True


# type -> (class, fields): a game's actions on the wire (Rules.ACTIONS)
Wire = dict[str, tuple[type, tuple[Field, ...]]]
READY: Wire = {"ready": (Ready, ())}
RESIGN: Wire = {"resign": (Resign, ())}


def _field(kind: Kind, value):
    if kind is CARD:
        if not isinstance(value, str):
            raise ValueError("must be a card such as 10H or QD")
        try:
            return Card.parse(value)
        except CardError as e:
            raise ValueError(str(e)) from None
    value = integer(value)
    if value is None:
        raise ValueError("must be an integer")
    low, high = kind.schema["minimum"], kind.schema["maximum"]
    if not low <= value <= high:
        raise ValueError(f"must be a {kind.name} index from {low} to {high}")
    return value


def read_action(wire: Wire, body, game: str):
    """Read an action's wire form by the table ``wire`` (of ``game``); raise
    MalformedAction naming the field."""
    if not isinstance(body, dict):
        raise MalformedAction({"_body": ["must be a JSON object"]})
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in wire:
        raise MalformedAction({"type": [f"must be one of {', '.join(wire)} in {game}"]})
    cls, fields = wire[kind]
    errors: dict[str, list[str]] = {}
    names = {f.wire for f in fields}
    for key in body:
        if key != "type" and key not in names:
            errors[key] = [f"unknown field for a {kind} action"]
    args = {}
    for f in fields:
        if f.wire not in body or (body[f.wire] is None and not f.required):
            if f.required:
                errors[f.wire] = ["missing"]
            continue
        try:
            args[f.attr] = _field(f.kind, body[f.wire])
        except ValueError as e:
            errors[f.wire] = [str(e)]
    if errors:
        raise MalformedAction(errors)
    return cls(**args)


class Encoder:
    """Writes an action of one wire type back to its wire form."""

    __slots__ = ("kind", "attrs")

    def __init__(self, kind: str, fields: tuple[Field, ...]):
        self.kind = kind
        self.attrs = tuple((f.wire, f.attr, f.kind is CARD) for f in fields)

    def __call__(self, action) -> dict:
        out = {"type": self.kind}
        for name, attr, card in self.attrs:
            v = getattr(action, attr)
            if v is not None:
                out[name] = v.name if card else v
        return out
