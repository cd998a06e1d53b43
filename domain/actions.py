"""Actions: what a seat (or the system) asks to do. Imperative names, frozen values.

Every action has a wire form (a JSON object with ``type``) that ``parse_action`` reads
and ``action_to_dict`` writes; the two round-trip. ``parse_action`` refuses a malformed
body (unknown type or field, pile 7, card ``1X``) before any rule is consulted.

>>> a = parse_action("spit", {"type": "play", "from": 2, "to": 1})
>>> a, action_to_dict(a)
(Play(src=2, to=1), {'type': 'play', 'from': 2, 'to': 1})
"""

from dataclasses import dataclass

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
    """The system's action: a deadline of T-1..T-5 has passed (``seat`` for T-4)."""

    rule: str
    seat: int | None = None


Action = Play | TurnUp | Move | Spit | Slap | Choose | Ready | Resign | PlayCard | Draw

MAX_STOCKPILES = 5
# type -> ordered (wire field, attribute, kind, required)
_SPIT_WIRE = {
    "play": (Play, (("from", "src", "stockpile", True), ("to", "to", "pile", True))),
    "turn_up": (TurnUp, (("stockpile", "stockpile", "stockpile", True),)),
    "move": (Move, (("from", "src", "stockpile", True), ("to", "to", "stockpile", True))),
    "spit": (Spit, (("pile", "pile", "pile", False),)),
    "slap": (Slap, (("pile", "pile", "pile", True),)),
    "choose": (Choose, (("pile", "pile", "pile", True),)),
    "ready": (Ready, ()),
    "resign": (Resign, ()),
}
_SPEED_WIRE = {
    "play": (PlayCard, (("card", "card", "card", True), ("to", "to", "pile", True))),
    "draw": (Draw, ()),
    "spit": (Spit, ()),
    "ready": (Ready, ()),
    "resign": (Resign, ()),
}
WIRE = {"spit": _SPIT_WIRE, "speed": _SPEED_WIRE}


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
    high = MAX_STOCKPILES - 1 if kind == "stockpile" else 1
    if not 0 <= value <= high:
        raise ValueError(f"must be a {kind} index from 0 to {high}")
    return value


def parse_action(game: str, body) -> Action:
    """Read an action's wire form for ``game``; raise MalformedAction naming the field."""
    if not isinstance(body, dict):
        raise MalformedAction({"_body": ["must be a JSON object"]})
    wire = WIRE[game]
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in wire:
        raise MalformedAction({"type": [f"must be one of {', '.join(wire)} in {game}"]})
    cls, fields = wire[kind]
    errors: dict[str, list[str]] = {}
    names = {f[0] for f in fields}
    for key in body:
        if key != "type" and key not in names:
            errors[key] = [f"unknown field for a {kind} action"]
    args = {}
    for name, attr, fkind, required in fields:
        if name not in body or (body[name] is None and not required):
            if required:
                errors[name] = ["missing"]
            continue
        try:
            args[attr] = _field(fkind, body[name])
        except ValueError as e:
            errors[name] = [str(e)]
    if errors:
        raise MalformedAction(errors)
    return cls(**args)


def _encoder(kind: str, fields):
    attrs = tuple((name, attr, fkind == "card") for name, attr, fkind, _r in fields)

    def encode(action) -> dict:
        out = {"type": kind}
        for name, attr, card in attrs:
            v = getattr(action, attr)
            if v is not None:
                out[name] = v.name if card else v
        return out

    return encode


_ENCODERS: dict = {}
for _wire in (_SPIT_WIRE, _SPEED_WIRE):  # Spit's encoder of Spit (with its pile) serves both
    for _kind, (_cls, _fields) in _wire.items():
        _ENCODERS.setdefault(_cls, _encoder(_kind, _fields))


def action_to_dict(action) -> dict:
    """The wire form of a player's action (the inverse of ``parse_action``)."""
    try:
        return _ENCODERS[type(action)](action)
    except KeyError:
        raise TypeError(f"not a player's action: {action!r}") from None
