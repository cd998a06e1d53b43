"""Actions: what a seat (or the system) asks to do. Imperative names, frozen values.

Each game gives the wire form of its actions (``Rules.ACTIONS``: a JSON object with a
``type``): ``read_action`` reads it, ``Encoder`` writes it back, and the two
round-trip. ``read_action`` refuses a malformed body (unknown type or field, stockpile
7, card ``1X``) before any rule is consulted; it is the only validator of actions, and
the service's documents are made from the same tables (``FIELDS``).

>>> from domain.spit import ACTIONS
>>> a = read_action(ACTIONS, {"type": "play", "from": 2, "to": 1}, "spit")
>>> a, Encoder("play", ACTIONS["play"][1])(a)
(Play(src=2, to=1), {'type': 'play', 'from': 2, 'to': 1})
"""

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, CardError
from .errors import MalformedAction


@dataclass(frozen=True, slots=True)
class Play:  # Spit P-1
    src: int
    to: int


@dataclass(frozen=True, slots=True)
class TurnUp:  # Spit P-2
    stockpile: int


@dataclass(frozen=True, slots=True)
class Move:  # Spit P-3
    src: int
    to: int


@dataclass(frozen=True, slots=True)
class Spit:  # S-2, S-3, Q-5
    pile: int | None = None


@dataclass(frozen=True, slots=True)
class Slap:  # N-2
    pile: int


@dataclass(frozen=True, slots=True)
class Choose:  # V-2
    pile: int


@dataclass(frozen=True, slots=True)
class Ready:  # D-4, N-4, Q-2
    pass


@dataclass(frozen=True, slots=True)
class Resign:  # E-5 (both games)
    pass


@dataclass(frozen=True, slots=True)
class PlayCard:  # Speed Q-3
    card: Card
    to: int


@dataclass(frozen=True, slots=True)
class Draw:  # Speed Q-4
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


class Field(NamedTuple):
    """One field of an action's wire form: its name on the wire, the action's attribute,
    its kind (``FIELDS``) and whether it must be sent."""

    wire: str
    attr: str
    kind: str
    required: bool = True


MAX_STOCKPILES = 5
# The kinds of field, as the wire has them: what each accepts, for the reader and the docs.
FIELDS = {
    "stockpile": {"type": "integer", "minimum": 0, "maximum": MAX_STOCKPILES - 1,
                  "description": "a stockpile, 0 to 4 (0 to 3 under V-1)"},
    "pile": {"type": "integer", "minimum": 0, "maximum": 1,
             "description": "a spit or centre pile, 0 or 1"},
    "card": {"type": "string", "pattern": "^([Aa]|[2-9]|10|[JjQqKk])[CcDdHhSs]$",
             "description": "a card of your hand, such as 10H or QD (C-1)"},
}  # fmt: skip

# type -> (class, fields): a game's actions on the wire (Rules.ACTIONS)
Wire = dict[str, tuple[type, tuple[Field, ...]]]
RESIGN: Wire = {"resign": (Resign, ())}


def _field(kind: str, value):
    if kind == "card":
        if not isinstance(value, str):
            raise ValueError("must be a card such as 10H or QD")
        try:
            return Card.parse(value)
        except CardError as e:
            raise ValueError(str(e)) from None
    if type(value) is not int:
        raise ValueError("must be an integer")
    spec = FIELDS[kind]
    if not spec["minimum"] <= value <= spec["maximum"]:
        raise ValueError(f"must be a {kind} index from {spec['minimum']} to {spec['maximum']}")
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
        self.attrs = tuple((f.wire, f.attr, f.kind == "card") for f in fields)

    def __call__(self, action) -> dict:
        out = {"type": self.kind}
        for name, attr, card in self.attrs:
            v = getattr(action, attr)
            if v is not None:
                out[name] = v.name if card else v
        return out
