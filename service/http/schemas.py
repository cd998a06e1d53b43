"""The schemas of what the API reads and writes, and the JSON schemas ``openapi.yaml`` is
made of.

Actions and table options are defined once, by the domain (``Rules.ACTIONS``,
``options.SPEC``), which alone validates them: their JSON schemas are made from those
definitions (``shapes.action_schemas``, ``options_schema``), as are those of events and
views (``shapes``; the fields below that hold them are ``Component``s). The other request
bodies (create, join) and the query parameters are marshmallow schemas that refuse
unknown fields (400). Response schemas allow more fields than they name (the policy of
README.md's *Compatibility*); the tests check real answers against them.
"""

import functools
import re

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

import domain
from domain.wire import integer

from .. import ids
from ..errors import BadRequest

KINDS = domain.KINDS
HOSTED = ("human", *domain.HOSTED)  # who takes a seat the creator does not: a person, a level
PLAYED = ("human", "bot")  # a seat played through the API: a person or a client's bot
MAX_VERSION = 2**53 - 1  # no game comes near; the largest integer every JSON reader keeps
STATUSES = ("waiting", "running", "finished", "aborted")


@functools.cache
def reader(schema: type[Schema]) -> Schema:
    """The process's one instance of ``schema`` for reading requests and messages: a
    schema keeps nothing between two loads, and making one (its fields copied) costs
    about three times what a load does."""
    return schema()


def load(schema: type[Schema], data):
    """``data`` as ``schema`` reads it; 400 naming each field it refuses."""
    if not isinstance(data, dict):
        raise BadRequest({"_body": ["Not an object."]})
    try:
        return reader(schema).load(data)
    except ValidationError as e:
        raise BadRequest(_flatten(e.messages)) from None


def _flatten(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested error dicts as ``{"a.b": [...]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for k, v in messages.items():
            name = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict):
                out.update(_flatten(v, name))
            else:
                out[name] = [str(m) for m in v] if isinstance(v, list) else [str(v)]
    else:
        out[prefix or "_body"] = [str(m) for m in messages]
    return out


class Int(fields.Integer):
    """A JSON integer as JSON Schema has it (``domain.wire.integer``): ``2`` or ``2.0``; no
    strings, no fractions, no booleans."""

    def __init__(self, **kw):
        super().__init__(strict=True, **kw)

    def _deserialize(self, value, attr, data, **kw):
        value = integer(value)
        if value is None:
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kw)


class Num(fields.Float):
    """A JSON number: no strings, no booleans."""

    def _deserialize(self, value, attr, data, **kw):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError("Not a valid number.")
        return super()._deserialize(value, attr, data, **kw)


class Bool(fields.Boolean):
    """A JSON boolean: no strings, no numbers."""

    def _deserialize(self, value, attr, data, **kw):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


def _doc(text: str, **kw) -> dict:
    return {"metadata": {"description": text, **kw}}


class Game(validate.OneOf):
    """One of the registered games' names (``domain.RULES``, read each time it validates and
    each time the document is made: a game registered after this module is a choice)."""

    def __init__(self):
        super().__init__(domain.RULES)

    def _format_error(self, value) -> str:
        return self.error.format(input=value, choices=", ".join(self.choices), labels="")


# ---------------------------------------------------------------- requests


class WebhookSchema(Schema):
    url = fields.String(
        required=True, validate=validate.Length(min=1, max=2048),
        **_doc("an HTTPS URL resolving to public addresses only (docs/webhooks.md); "
               "`format: webhook-url` names that rule, which depends on DNS",
               format="webhook-url"),
    )  # fmt: skip
    events = fields.String(
        validate=validate.OneOf(("lifecycle", "all")),
        **_doc("`lifecycle` (the default): seat.joined, game.started, game.finished; `all`: "
               "every event of the log too, as a spectator sees it"),
    )  # fmt: skip


# ``format: display-name`` in the document: what ``_printable`` takes
PRINTABLE_RULE = (
    "1-64 printable characters (Python's str.isprintable: no control, format, "
    "separator other than the space, private-use, surrogate or unassigned code "
    "point), no space at either end"
)


def _printable(text: str) -> None:
    if not text.isprintable() or text != text.strip():
        raise ValidationError("printable characters, no space at either end")


class Grammar(validate.Validator):
    """A string of one of ``service.ids``'s grammars, whole (``regex``, anchored: the
    pattern the document shows)."""

    def __init__(self, pattern: str, error: str):
        self._whole = re.compile(pattern)
        self.regex = re.compile(f"^{pattern}$")
        self.error = error

    def __call__(self, value: str) -> str:
        if self._whole.fullmatch(value) is None:
            raise ValidationError(self.error)
        return value


PLAYER_REF = f"(?:{ids.APP_ID}:)?{ids.PLAYER_ID}"


class PlayerRefSchema(Schema):
    id = fields.String(
        required=True, validate=Grammar(PLAYER_REF, f"{ids.PLAYER_RULE}; or <app id>:<that>"),
        **_doc(f"{ids.PLAYER_RULE}, in your app's namespace (or qualified: <app id>:<id>, "
               "your app's)"),
    )  # fmt: skip
    name = fields.String(required=True, validate=[validate.Length(1, 64), _printable],
                         **_doc(f"shown with the seat: {PRINTABLE_RULE}",
                                format="display-name"))  # fmt: skip


def _seat_fields() -> dict:
    """Who takes the caller's seat (create, join, seek)."""
    return {
        "kind": fields.String(validate=validate.OneOf(PLAYED), **_doc(
            "human (the default) or bot: a client's bot, playing through the API as a person "
            "does; shown in views and the lobby")),
        "name": fields.String(validate=[validate.Length(1, 64), _printable],
                              **_doc("a bot seat's name, without a player: "
                                     f"{PRINTABLE_RULE}", format="display-name")),
        "player": fields.Nested(PlayerRefSchema, **_doc(
            "your app's player (needs X-Api-Key): shown with the seat, its games listed, "
            "rated in rated games")),
    }  # fmt: skip


# What ``players.who`` takes of ``_seat_fields``, in JSON Schema (the document adds it to
# each body that has them): ``name`` never beside ``player`` (a player's name is
# ``player.name``), a client's bot (``kind: bot``) with a name or a player, and a name
# for nothing but such a bot.
SEAT_RULES = {
    "not": {"required": ["player", "name"]},
    "if": {"properties": {"kind": {"const": "bot"}}, "required": ["kind"]},
    "then": {"anyOf": [{"required": ["name"]}, {"required": ["player"]}]},
    "else": {"not": {"required": ["name"]}},
}


# What the server takes of a rated table, in JSON Schema (the document adds it to the
# create's and the seek's body): it is a player's (``player``), its ``idle_forfeit_s`` at
# least ``domain.options.RATED_IDLE_MIN_S``.
RATED_RULES = {
    "if": {"properties": {"rated": {"const": True}}, "required": ["rated"]},
    "then": {
        "required": ["player"],
        "properties": {"options": {"properties": {
            "idle_forfeit_s": {"minimum": domain.options.RATED_IDLE_MIN_S}}}},
    },
}  # fmt: skip


def game_options_rules() -> list[dict]:
    """A create's or a seek's ``options`` are its game's (``Rules.OPTIONS``): a rule per
    registered game, in JSON Schema (the document adds them to those bodies)."""
    return [
        {"if": {"properties": {"game": {"const": name}}, "required": ["game"]},
         "then": {"properties": {"options": {"propertyNames": {
             "enum": [spec.name for spec in rules.OPTIONS]}}}}}
        for name, rules in domain.RULES.items()
    ]  # fmt: skip


# A create whose seat 0 is a hosted bot is watched: no one of the caller's takes a seat.
WATCHED_RULES = {
    "if": {"properties": {"seat0": {"not": {"const": "human"}}}, "required": ["seat0"]},
    "then": {
        "properties": {"kind": {"const": "human"}},
        "not": {"anyOf": [{"required": ["name"]}, {"required": ["player"]}]},
    },
}


class CreateGameSchema(Schema.from_dict(_seat_fields())):
    game = fields.String(required=True, validate=Game())
    options = fields.Dict(**_doc("table options (RULES V-1..V-4, Q-8, E-4, T-1..T-5): see Options"))
    opponent = fields.String(
        validate=validate.OneOf(HOSTED), **_doc("who takes seat 1: a human who joins, or a bot")
    )
    seat0 = fields.String(
        validate=validate.OneOf(HOSTED),
        **_doc("who takes seat 0: you (human, the default) or a bot, and you watch"),
    )
    rated = Bool(**_doc("rated (Glicko-2) when it ends: your player against another "
                        "player or a hosted bot (a player's rating moves only against a "
                        "level or an established player); a resignation or a T-4 forfeit "
                        "in the abort window (a seat that has not moved, until 10 s after "
                        "its opponent's first move) aborts the game, reason `unplayed`; a "
                        "rated table's `idle_forfeit_s` is at least 30 "
                        "(400 `options.idle_forfeit_s`)"))  # fmt: skip
    client_seed = fields.String(
        validate=validate.Length(max=128),
        **_doc("your contribution to every shuffle of the game (RULES H-6)"),
    )
    webhook = fields.Nested(
        WebhookSchema,
        **_doc("where the game's notifications go, signed with a secret the answer shows once"),
    )


class JoinSchema(Schema.from_dict(_seat_fields())):
    client_seed = fields.String(
        validate=validate.Length(max=128),
        **_doc("your contribution to every shuffle of the game (RULES H-6)"),
    )


# Query strings carry text: their numbers are parsed, not taken as JSON numbers. Unknown
# parameters are refused like unknown fields (a typo such as ?afer=5 should not pass).
class EventsQuery(Schema):
    after = fields.Integer(
        load_default=0, validate=validate.Range(0, MAX_VERSION), **_doc("the version to read after")
    )
    limit = fields.Integer(
        load_default=100, validate=validate.Range(1, 1000), **_doc("events at most")
    )
    wait = fields.Float(
        validate=validate.Range(0, 60),
        **_doc("long-poll: with nothing after `after`, wait this many seconds for it"),
    )
    views = fields.Boolean(
        load_default=False,
        **_doc(
            "a stream (SSE or NDJSON) carries your view of the game: first the current one, "
            "then after each batch of events the view they lead to"
        ),
    )


class LobbyQuery(Schema):
    status = fields.String(
        load_default="open", validate=validate.OneOf(["open", "running", "finished"])
    )
    game = fields.String(validate=Game(), **_doc("only games of this kind"))
    kind = fields.String(
        validate=validate.OneOf(KINDS), **_doc("only games with a seat of this kind")
    )
    player = fields.String(validate=Grammar(PLAYER_REF, f"{ids.PLAYER_RULE}; or <app id>:<that>"),
                           **_doc("only games of this player of your app (X-Api-Key)"))  # fmt: skip
    cursor = fields.String(
        validate=validate.Length(max=64), **_doc("the `next` of the previous page")
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


# ---------------------------------------------------------------- responses


class Open(Schema):
    """A response: the documented fields, and possibly more."""

    class Meta:
        unknown = INCLUDE


class Component(fields.Raw):
    """A field whose JSON schema is a named component of ``shapes`` (``State``, ``Event``):
    the domain's shapes are made there, from the domain's own definitions."""

    def __init__(self, name: str, **kw):
        self.component = name
        super().__init__(**kw)


class CreatedSchema(Open):
    id = fields.String(required=True)
    seat = Int(required=True, allow_none=True, **_doc("null when a bot holds seat 0"))
    token = fields.String(
        required=True, allow_none=True, **_doc("your seat's token, shown once (null: you watch)")
    )
    commitment = fields.String(required=True)
    state = Component("State", required=True)
    webhook = fields.Nested(
        "CreatedWebhookSchema",
        **_doc("with a `webhook` asked for: its URL, events and signing secret (shown once)"),
    )


class CreatedWebhookSchema(Open):
    url = fields.String(required=True)
    events = fields.String(required=True)
    secret = fields.String(required=True, **_doc("signs `Spitlog-Signature`: keep it secret"))


class SeatedSchema(Open):
    seat = Int(required=True)
    token = fields.String(required=True, **_doc("your seat's token, shown once"))
    state = Component("State", required=True)


class ActedSchema(Open):
    version = Int(required=True)
    events = fields.List(
        Component("Event"),
        required=True,
        **_doc("what the action made happen, as you may see it"),
    )
    state = Component("State", required=True)


class EventsSchema(Open):
    version = Int(required=True, **_doc("the game's version now"))
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    events = fields.List(Component("Event"), required=True)


class EventMessageSchema(Open):
    """A stream's event (an NDJSON line; SSE's ``data:`` is the event itself)."""

    type = fields.String(required=True, validate=validate.OneOf(["event"]))
    version = Int(required=True, **_doc("the event's version"))
    event = Component("Event", required=True)


class ViewMessageSchema(Open):
    """A stream's view (``views=true``): an NDJSON line, or SSE ``event: view``'s ``data:``
    without ``type``."""

    type = fields.String(validate=validate.OneOf(["view"]), **_doc("NDJSON only"))
    version = Int(required=True, **_doc("the version the view shows"))
    state = Component("State", required=True)


class DealCheckSchema(Open):
    version = Int(required=True)
    type = fields.String(required=True)
    nonces = fields.List(Int(), required=True)
    verified = Bool(required=True)


class RulesCheckSchema(Open):
    ok = Bool(required=True, **_doc("every event is what the rules make of the actions"))
    checked = Int(required=True, **_doc("events confirmed"))
    first_bad = Int(allow_none=True, **_doc("the version of the first event that fails"))
    reason = fields.String(allow_none=True)
    shuffle = fields.String(**_doc("the shuffle algorithm's version tag"))
    deals = fields.List(fields.Dict(), **_doc("every deal, re-derived"))


class AuditSchema(Open):
    id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True)
    version = Int(required=True)
    winner = Int(required=True, allow_none=True)
    result = fields.String(required=True, allow_none=True)
    commitment = fields.String(required=True)
    server_seed = fields.String(required=True, **_doc("hex; sha256 of its bytes = commitment"))
    commitment_verified = Bool(required=True)
    client_seeds = fields.List(fields.String(), required=True)
    shuffle = fields.String(required=True, **_doc("the shuffle algorithm's version tag"))
    deals = fields.List(fields.Nested(DealCheckSchema), required=True)
    events = fields.List(Component("Event"), required=True, **_doc("in full"))
    rules = fields.Nested(RulesCheckSchema, required=True, **_doc("every event re-judged"))
    verified = Bool(required=True, **_doc("the commitment, every deal and every event check out"))


class LobbyPlayerSchema(Open):
    seat = Int(required=True)
    kind = fields.String(required=True, allow_none=True)
    name = fields.String(allow_none=True)
    player = fields.Dict(allow_none=True)
    rating_diff = Int()


class LobbyGameSchema(Open):
    id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = Int(required=True)
    created_at = fields.String(required=True)
    rated = Bool()
    players = fields.List(fields.Nested(LobbyPlayerSchema), required=True)
    winner = Int(allow_none=True, **_doc(
        "once the game is over: the seat that won, or null (no winner: a draw, an abort); "
        "absent while it runs"))  # fmt: skip


class LobbySchema(Open):
    games = fields.List(fields.Nested(LobbyGameSchema), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        **_doc("pass as `cursor` for the next page; null on the last"),
    )


class HealthSchema(Open):
    status = fields.String(required=True)


class DeliverySchema(Open):
    id = fields.String(required=True, **_doc("the notification's id, the same at every try"))
    type = fields.String(**_doc("seat.joined, game.started, game.finished or game.event"))
    target = fields.String()
    at = fields.Float(**_doc("when it was tried, seconds since the epoch"))
    status = fields.Integer(**_doc("the target's HTTP status"))
    ms = fields.Integer(**_doc("how long the try took"))
    error = fields.String(**_doc("what went wrong, if it did"))
    outcome = fields.String(**_doc("`given up`: retried for SPITLOG_WEBHOOK_RETRY_S in vain"))


class WebhookInfoSchema(Open):
    url = fields.String(required=True)
    events = fields.String(required=True)


class DeliveriesSchema(Open):
    webhook = fields.Nested(WebhookInfoSchema, allow_none=True, required=True)
    pending = fields.Boolean()
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


class ProblemSchema(Open):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = Int(required=True)
    detail = fields.String(required=True)
    rule = fields.String(**_doc("the ID of the rule an illegal action breaks"))
    rule_url = fields.String(
        **_doc("with `rule`: its entry of the rules reference, `/docs/rules#<ID>`")
    )
    errors = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()), **_doc("field -> messages")
    )
    version = Int(**_doc("the game's current version"))


# ---------------------------------------------------------------- webhooks: what is POSTed
# (service/webhooks.py: ``body_of``, ``notifications``, ``Deliverer._send``; docs/webhooks.md)

NOTIFICATION_ID = rf"^evt_{ids.GAME_ID}_\d+_\d+$"
SIGNATURE = r"^t=\d+,v1=[0-9a-f]{64}$"


class Const(fields.Constant):
    """A field of one value: its JSON schema is ``const`` (a discriminator's member)."""


class WebhookHeadersSchema(Schema):
    """The headers of a notification that a receiver reads (with ``Content-Type:
    application/json``)."""

    signature = fields.String(
        data_key="Spitlog-Signature", required=True, validate=validate.Regexp(SIGNATURE),
        **_doc('`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under the '
               "game's secret (docs/webhooks.md): check it over the raw bytes, in constant "
               "time, and refuse a `t` more than five minutes from your clock"),
    )  # fmt: skip
    event_id = fields.String(
        data_key="Spitlog-Event-Id", required=True, validate=validate.Regexp(NOTIFICATION_ID),
        **_doc("the notification's `id`"),
    )  # fmt: skip


class Notification(Open):
    id = fields.String(
        required=True, validate=validate.Regexp(NOTIFICATION_ID),
        **_doc("`evt_<game id>_<version>_<n>`, the same at every try of one notification "
               "(delivery is at least once: drop an id you have seen)"),
    )  # fmt: skip
    created = Int(
        required=True, **_doc("when its event happened, in whole seconds since the epoch")
    )
    game_id = fields.String(required=True, validate=validate.Regexp(f"^{ids.GAME_ID}$"))
    game = fields.String(required=True, **_doc("the game's kind (`spit`, `speed`)"))
    version = Int(
        required=True, validate=validate.Range(min=1),
        **_doc("the place in the game's log of the event it tells of (1 = first)"),
    )  # fmt: skip


class SeatJoinedDataSchema(Open):
    seat = Int(required=True, validate=validate.Range(0, 1))
    kind = fields.String(required=True, validate=validate.OneOf(KINDS), **_doc("who took it"))


class SeatJoinedSchema(Notification):
    """A seat was taken (a hosted bot's at creation too)."""

    type = Const("seat.joined", required=True)
    data = fields.Nested(SeatJoinedDataSchema, required=True)


class GameStartedDataSchema(Open):
    players = fields.List(
        fields.String(validate=validate.OneOf(KINDS)), required=True,
        **_doc("the kind of each seat's player, by seat"),
    )  # fmt: skip


class GameStartedSchema(Notification):
    """The game is running."""

    type = Const("game.started", required=True)
    data = fields.Nested(GameStartedDataSchema, required=True)


class GameFinishedDataSchema(Open):
    status = fields.String(required=True, validate=validate.OneOf(("finished", "aborted")))
    winner = Int(
        required=True, allow_none=True, validate=validate.Range(0, 1), **_doc("null: nobody won")
    )
    result = fields.String(
        required=True, **_doc("the ID of the rule it ended by (its entry: `/docs/rules#<ID>`)")
    )


class GameFinishedSchema(Notification):
    """The game is finished or aborted."""

    type = Const("game.finished", required=True)
    data = fields.Nested(GameFinishedDataSchema, required=True)


class GameEventSchema(Notification):
    """With `events: "all"`: an event of the log."""

    type = Const("game.event", required=True)
    data = Component(
        "Event", required=True,
        **_doc("the event, as a spectator sees it until the game is over (its `version` too)"),
    )  # fmt: skip


# what each ``type`` of notification is (``webhooks.KINDS``)
NOTIFICATIONS = {
    "seat.joined": SeatJoinedSchema,
    "game.started": GameStartedSchema,
    "game.finished": GameFinishedSchema,
    "game.event": GameEventSchema,
}


# ---------------------------------------------------------------- the live path
# The seat channel's messages (``channel``; WebSocket text frames, JSON) and the streams'
# (SSE, NDJSON): ``asyncapi.yaml`` is made from these.


class LiveQuery(Schema):
    after = fields.Integer(
        validate=validate.Range(0, MAX_VERSION),
        **_doc("resume: the events after this version follow `hello`, nothing lost or repeated"),
    )


class TicketSchema(Open):
    ticket = fields.String(required=True, **_doc("single use; offer it as a subprotocol"))
    expires_at = fields.String(required=True, **_doc("ISO 8601, UTC: about 30 s from now"))
    protocols = fields.List(
        fields.String(), required=True,
        **_doc("the subprotocols to offer: `spitlog.v1` and `spitlog.ticket.<ticket>`"),
    )  # fmt: skip


MESSAGE_ID = validate.Length(min=1, max=128)


class ActMessage(Schema):
    op = fields.String(required=True, validate=validate.Equal("act"))
    id = fields.String(
        required=True,
        validate=MESSAGE_ID,
        **_doc("yours: the answer (`result`, `problem`) names it"),
    )
    action = Component("Action", required=True)
    expected_version = Int(
        validate=validate.Range(0, MAX_VERSION),
        **_doc("act only if the game is at this version (as `If-Match`): else a 412 problem"),
    )
    idempotency_key = fields.String(
        validate=validate.Length(min=1, max=255),
        **_doc("as `Idempotency-Key`: sent again (after a reconnect), the first answer again"),
    )


class PingMessage(Schema):
    op = fields.String(required=True, validate=validate.Equal("ping"))
    id = fields.String(required=True, validate=MESSAGE_ID)


class HelloMessage(Open):
    op = fields.String(required=True, validate=validate.Equal("hello"))
    version = Int(required=True, **_doc("the game's version now"))
    seat = Int(required=True, allow_none=True, **_doc("the ticket's seat; null: a spectator"))
    state = Component("State", required=True, **_doc("your view at `version`"))


class EventsMessage(Open):
    op = fields.String(required=True, validate=validate.Equal("events"))
    version = Int(required=True, **_doc("the game's version after these events"))
    events = fields.List(Component("Event"), required=True, **_doc("as you may see them"))
    state = Component("State", required=True, **_doc("your view at `version`"))


class ResultMessage(Open):
    op = fields.String(required=True, validate=validate.Equal("result"))
    id = fields.String(required=True, **_doc("the `act`'s"))
    status = Int(required=True, **_doc("201"))
    body = fields.Nested(ActedSchema, required=True, **_doc("POST /actions' answer"))
    replayed = Bool(**_doc("true: the first answer of its `idempotency_key`, given again"))


class ProblemMessage(Open):
    op = fields.String(required=True, validate=validate.Equal("problem"))
    id = fields.String(
        required=True, allow_none=True, **_doc("the message's (null: it could not be read)")
    )
    status = Int(required=True, **_doc("as POST /actions would answer"))
    problem = fields.Nested(ProblemSchema, required=True, **_doc("the problem+json body"))
    retry_after = Int(**_doc("429, 503: seconds to wait before sending it again"))


class PongMessage(Open):
    op = fields.String(required=True, validate=validate.Equal("pong"))
    id = fields.String(required=True)


class ViewMessage(Open):
    version = Int(required=True)
    state = Component("State", required=True, **_doc("your view at `version`"))


class NdjsonEvent(Open):
    type = fields.String(required=True, validate=validate.Equal("event"))
    version = Int(required=True)
    event = Component("Event", required=True)


class NdjsonView(Open):
    type = fields.String(required=True, validate=validate.Equal("view"))
    version = Int(required=True)
    state = Component("State", required=True)


# ---------------------------------------------------------------- made from the domain


def options_schema() -> dict:
    """The JSON schema of the table options of every game (``Rules.OPTIONS``), each once, in
    an order that keeps each game's (``option_specs``)."""
    props = {}
    games = domain.RULES
    for spec in option_specs():
        takers = [g for g, r in games.items() if spec in r.OPTIONS]
        text = f"{spec.rule}: {spec.text} (default {spec.default!r}; {', '.join(takers)})"
        if spec.choices:
            kind = "integer" if spec.kind is int else "string"
            prop = {"type": kind, "enum": list(spec.choices)}
        elif spec.kind is bool:
            prop = {"type": "boolean"}
        elif spec.kind is int:
            prop = {"type": "integer", "minimum": spec.low, "maximum": spec.high}
        else:
            prop = {"type": "number", "minimum": spec.low, "maximum": spec.high}
        props[spec.name] = {**prop, "description": text}
    return {
        "type": "object",
        "description": "Table options, chosen when the game is created; options of the other "
        "game, unknown options and values out of range are a 400.",
        "properties": props,
        "additionalProperties": False,
    }


def option_specs() -> list:
    """Every game's options, each once, merged as Python merges base classes (C3): an
    option comes after every option it follows in some game's list, and otherwise as the
    first game lists it."""
    lists = [list(r.OPTIONS) for r in domain.RULES.values()]
    out: list = []
    while any(lists):
        for head in (seq[0] for seq in lists if seq):
            if not any(head in seq[1:] for seq in lists):
                break
        else:  # the games' orders disagree: the first game's next option
            head = next(seq[0] for seq in lists if seq)
        out.append(head)
        lists = [[s for s in seq if s != head] for seq in lists]
    return out
