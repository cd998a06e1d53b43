"""The JSON schemas (OpenAPI 3.1, JSON Schema 2020-12) of the domain's shapes on the wire:
actions, events and state views, each a named component of ``openapi.yaml``.

They are made from the domain's own definitions: actions from each game's wire table
(``Rules.ACTIONS``, each field's ``actions.Kind``); events from their dataclasses' fields
and types (``domain.event_types``) and, for the fields a game hides, what its ``REDACT`` leaves
(``Rules.REDACTED``); views from the fields every view has (``views._common``, written
here) and what each game's ``view`` and ``full_view`` add (``Rules.VIEW``, ``Rules.SHAPES``).
tests/service/test_shapes.py holds real answers to them.

Names (docs/decisions/0011-typed-spec.md): an action is ``<Game><Type>Action`` in every
game (``SpitPlayAction``, ``SpeedReadyAction``), a union per game discriminated by
``type`` (``SpitAction``), and ``Action``, either game's; an event is
``<EventClass>Event`` (``CardPlayedEvent``), all of them ``Event``, discriminated by
``type``; a view is ``<Game>State``, all of them ``State``, discriminated by ``game``; a
game's own shapes are prefixed with its name (``SpitStockpile``). Response objects allow
fields they do not name (README.md's *Compatibility*); request bodies refuse them.
"""

import dataclasses
import types
import typing

import domain
from domain.cards import Card
from domain.codec import added_fields
from domain.wire import SEAT, array, nullable, obj

from ..players import decorate
from ..records import GameRecord, Seat

COMPONENTS = "#/components/schemas/"
ACTION_REF = {"$ref": COMPONENTS + "Action"}
STATE_REF = {"$ref": COMPONENTS + "State"}
CARD = {
    "type": "string",
    "pattern": "^(A|[2-9]|10|J|Q|K)[CDHS]$",
    "description": "a card: rank (A, 2-10, J, Q, K) and suit (C, D, H, S) (RULES C-1)",
    "examples": ["10H"],
}


def ref(name: str) -> dict:
    return {"$ref": COMPONENTS + name}


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _named(schema, game: str):
    """A game's fragment (``domain.wire``) with its refs made refs to components: ``Card``
    is everyone's, any other name the game's own (``Stockpile`` -> ``SpitStockpile``)."""
    if isinstance(schema, list):
        return [_named(s, game) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _named(v, game) for k, v in schema.items()}
    if "$ref" in schema:
        name = schema["$ref"]
        out["$ref"] = COMPONENTS + (name if name == "Card" else _camel(game) + name)
    return out


def _union(description: str, names: dict[str, str] | list[str], tag: str | None) -> dict:
    """``oneOf`` the components ``names`` (by tag value, when ``tag`` discriminates)."""
    refs = list(names.values()) if isinstance(names, dict) else names
    out = {"description": description, "oneOf": [ref(n) for n in refs]}
    if tag is not None:
        mapping = {value: COMPONENTS + n for value, n in names.items()}
        out["discriminator"] = {"propertyName": tag, "mapping": mapping}
    return out


# ---------------------------------------------------------------- actions


def action_schemas() -> dict[str, dict]:
    """Every action of every game (``Rules.ACTIONS``), one schema each
    (``SpitPlayAction``), a union per game discriminated by ``type`` (``SpitAction``),
    and ``Action``: any of them."""
    out: dict[str, dict] = {}
    unions = []
    for game, rules in domain.RULES.items():
        mapping = {}
        for kind, (_cls, flds) in rules.ACTIONS.items():
            props = {"type": {"type": "string", "const": kind}}
            for f in flds:
                prop = dict(f.kind.schema)
                props[f.wire] = prop if f.required else nullable(prop)
            name = f"{_camel(game)}{_camel(kind)}Action"
            optional = [f.wire for f in flds if not f.required]
            out[name] = {**obj(props, f"{game}: {kind}", optional), "additionalProperties": False}
            mapping[kind] = name
        union = _camel(game) + "Action"
        text = f"An action of {game}, by its `type`; fields it does not take are refused."
        out[union] = _union(text, mapping, "type")
        unions.append(union)
    out["Action"] = {
        "description": "An action of the game's kind, read by its rules (a 400 names the field "
        'they refuse). `anyOf`: `ready`, `resign` and `{"type": "spit"}` are actions of '
        "both games.",
        "anyOf": [ref(u) for u in unions],
    }
    return out


# ---------------------------------------------------------------- events


def _hint(hint) -> dict:
    """The JSON schema of an event field's type hint (as ``events.event_to_dict`` writes
    it: a card by its name, a tuple as an array)."""
    if hint is Card:
        return ref("Card")
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return array(_hint(args[0]))
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        return nullable(_hint(inner))
    basic = {int: "integer", str: "string", float: "number", bool: "boolean", dict: "object"}
    return {"type": basic[hint]}


def event_schemas() -> dict[str, dict]:
    """One schema per event type (``domain.event_types``) as the API sends it: its
    ``version`` in the log, its ``type``, its fields (a field a game hides: either whole,
    or what its ``REDACT`` leaves, ``Rules.REDACTED``), ``at``; and ``Event``, any of them
    by ``type``."""
    hidden = {
        cls: {f: _named(s, game) for f, s in fields.items()}
        for game, rules in domain.RULES.items()
        for cls, fields in rules.REDACTED.items()
    }
    out: dict[str, dict] = {}
    mapping = {}
    for kind, cls in domain.event_types().items():
        hints = typing.get_type_hints(cls)
        props = {
            "version": {"type": "integer", "minimum": 1,
                        "description": "the event's place in the log (1 = first)"},
            "type": {"type": "string", "const": kind},
        }  # fmt: skip
        redacted = hidden.get(cls, {})
        for f in dataclasses.fields(cls):
            if f.name != "at":
                full = _hint(hints[f.name])
                props[f.name] = {"anyOf": [full, redacted[f.name]]} if f.name in redacted else full
        props["at"] = {"type": "number", "description": "when, in seconds since the epoch"}
        text = " ".join((cls.__doc__ or kind).split())
        if redacted:
            text += f" While the game runs a viewer sees less of: {', '.join(redacted)}."
        name = cls.__name__ + "Event"
        out[name] = obj(props, text, optional=added_fields(cls))  # absent while null
        mapping[kind] = name
    text = "An event of the log, by its `type` (a new type may appear: skip what you do not know)."
    out["Event"] = _union(text, mapping, "type")
    return out


# ---------------------------------------------------------------- views

DEADLINE = obj(
    {
        "rule": {
            "type": "string",
            "enum": ["T-1", "T-2", "T-3", "T-4", "T-5", "T-6"],
            "description": "the timer's rule",
        },
        "at": {
            "type": "string",
            "format": "date-time",
            "description": "when it fires: RFC 3339, UTC, milliseconds",
        },
        "seat": {**nullable(SEAT), "description": "T-4, T-6: whose idle clock; null: the game's"},
    },  # fmt: skip
    "The soonest of the viewer's own deadlines and the game-wide ones (never another "
    "seat's T-4 in Speed, RULES H-5).",
)
ABORTED = obj(
    {
        "by": {
            "type": "string",
            "enum": ["operator", "service"],
            "description": "the operator (`spitlog admin abort`), or the service (a hosted "
            "bot whose decisions it could not run)",
        },
        "why": {
            "type": ["string", "null"],
            "description": "why, in words (null: an operator's abort logged before T-6)",
        },
    },  # fmt: skip
    "A game aborted under RULES T-6, no one winning: by whom and why.",
)
PHASES = "waiting, ready, playing, stalemate, slap, choose, dealing, finished, aborted"


def _common(game: str) -> tuple[dict, dict]:
    """What every view has (``views._common``): the view's fields and each seat's."""
    seat = {
        "seat": SEAT,
        "kind": {"type": ["string", "null"], "description": "human, bot:...; null while free"},
        "cards": {"type": "integer", "description": "every card the player holds (C-3)"},
        "ready": {"type": "boolean"},
        "called": {"type": "boolean", "description": "has called spit in this stalemate"},
        # the service's, beside the log (``service.players.decorate``)
        "name": {"type": ["string", "null"], "description": "the player's name, or a bot's"},
        "player": nullable(obj({
            "app": {"type": "string"}, "id": {"type": "string"},
            "rating": {"type": ["integer", "null"], "description": "when it sat down"},
            "provisional": {"type": ["boolean", "null"], "description": "its rating was "
                            "provisional when it sat down (RD 110 or more: not on the "
                            "leaderboard); null: the game's record does not say"},
        }, "an app's player (README.md, *Players*); null: anonymous")),
    }  # fmt: skip
    view = {
        "id": {"type": "string", "pattern": "^g_[0-9a-f]{16}$"},
        "game": {"type": "string", "const": game},
        "version": {"type": "integer", "minimum": 0, "description": "events in the log so far"},
        "status": {"type": "string", "enum": ["waiting", "running", "finished", "aborted"]},
        "phase": {"type": "string", "description": f"where the game stands: {PHASES}"},
        "options": ref("Options"),
        "round": {"type": "integer"},
        "you": {**nullable(SEAT), "description": "your seat; null for a spectator"},
        "players": array(ref(_camel(game) + "Player")),
        "stalemate": {"type": "boolean"},
        "legal_actions": array(
            ref(_camel(game) + "Action"),
            "every action body POST /actions accepts from you now; empty for a spectator",
        ),
        "deadline": {**nullable(ref("Deadline")), "description": "null when no timer runs"},
        "winner": {**nullable(SEAT), "description": "the winner's seat, once there is one"},
        "result": {"type": ["string", "null"], "description": "the rule ID the game ended "
                   "under (finished or aborted); null while it runs"},
        "result_url": {"type": ["string", "null"], "description": "the entry of `result` in "
                       "the rules reference (`/docs/rules#<ID>`); null while the game runs"},
        "aborted": {**nullable(ref("Aborted")), "description": "null unless aborted under T-6"},
        "commitment": {"type": "string", "description": "sha256 hex of the server seed"},
        "rated": {"type": "boolean", "description": "the table is rated: its game is rated "
                  "(Glicko-2) if it ends with a result"},
        "unrated": {"type": ["string", "null"], "description": "a rated table's game that "
                    "was not rated, why: it ended with no result (`T-6`, `unplayed`, `E-5`: "
                    "the rule or ruling it was aborted under) or was won inside its abort "
                    "window, against a seat that had not moved (`unplayed`); null "
                    "otherwise"},
        "rematch": nullable(obj({
            "game": {"type": ["string", "null"], "description": "the rematch, once made"},
            "asked": array({"type": "boolean"}, "per seat: has asked for one"),
            "until": {"type": "string", "description": "asks count until then (ISO 8601)"},
        }, "a finished game's rematch; null before the end")),
        "rematch_of": {"type": ["string", "null"], "description": "the game this one rematches"},
    }  # fmt: skip
    return view, seat


OPTIONAL = {"rating_diff": {"type": "integer", "description": "a rated game, once rated: the "
                            "player's new rating minus the old"}}  # fmt: skip


def _extended(base: dict, fragment: dict, optional: dict | None = None) -> dict:
    """``base``'s properties, all required, ``optional``'s, and the game's ``fragment``
    (``wire.obj``)."""
    return {
        **fragment,
        "properties": {**base, **(optional or {}), **fragment["properties"]},
        "required": [*base, *fragment["required"]],
    }


def view_schemas() -> dict[str, dict]:
    """The state views (``domain.view``): ``<Game>State`` and ``<Game>Player`` per game,
    its own shapes (``Rules.SHAPES``), and ``State``, any game's by ``game``. A field whose
    shape changes once the game is over (every card shown, H-6) is a union of its forms."""
    out = {"Card": CARD, "Deadline": DEADLINE, "Aborted": ABORTED}
    mapping = {}
    for game, rules in domain.RULES.items():
        view, seat = _common(game)
        for name, shape in rules.SHAPES.items():
            out[_camel(game) + name] = _named(shape, game)
        out[_camel(game) + "Player"] = _extended(seat, _named(rules.VIEW["players"], game),
                                                 OPTIONAL)  # fmt: skip
        out[_camel(game) + "State"] = _extended(view, _named(rules.VIEW["table"], game))
        mapping[game] = _camel(game) + "State"
    out["State"] = _union("A game's state as you may see it, by its `game`.", mapping, "game")
    return out


def all_schemas() -> dict[str, dict]:
    """Every component this module makes, by name."""
    return {**view_schemas(), **action_schemas(), **event_schemas()}


# ---------------------------------------------------------------- examples


def example_state(game: str) -> dict:
    """Seat 0's view of a game against ``bot:easy`` just after both said ready: a real
    view, the same every time (a fixed clock, and a seed that deals seat 0 some plays in
    each game)."""
    seed, now = bytes([9]) * 32, 1767225600.0
    events = domain.create_game(
        game_id="g_0123456789abcdef", game=game, now=now, server_seed=seed,
        commitment=domain.commitment(seed), opponent="bot:easy",
    )  # fmt: skip
    state = domain.replay(events)
    for seat in (0, 1):
        state = domain.run(state, domain.Ready(), domain.Ctx(seat, now + 1.5, seed))[1]
    record = GameRecord(game, seats=(Seat("human"), Seat("bot:easy")))
    return decorate(domain.view(state, 0), record)


def _examples(values: dict) -> dict:
    """OpenAPI examples, by name: each a value whose summary is its name in words."""
    return {name: {"summary": name.replace("_", " "), "value": v} for name, v in values.items()}


def state_examples() -> dict:
    """A state of each game (``example_state``), by the game's name."""
    return _examples({game: example_state(game) for game in domain.RULES})


def create_examples() -> dict:
    """Creating a game of each kind against a bot, and the first with options and a seed."""
    first = next(iter(domain.RULES))
    return _examples(
        {f"{game}_against_a_bot": {"game": game, "opponent": "bot:easy"} for game in domain.RULES}
        | {"with_options_and_your_seed": {"game": first, "client_seed": "my randomness",
                                          "options": {"alternate_colors": True, "max_rounds": 3}}}
    )  # fmt: skip


def action_examples() -> dict:
    """A play of each game whose example state offers one, and ready."""
    plays = {}
    for game, v in state_examples().items():
        play = next((a for a in v["value"]["legal_actions"] if a["type"] == "play"), None)
        if play is not None:
            plays[f"{game}_play"] = play
    return _examples(plays | {"ready": {"type": "ready"}})
