"""The AsyncAPI 3.0 document of the live path: the seat channel (``channel``: WebSocket,
JSON text frames) and the messages of the events stream (SSE, NDJSON). Its schemas are
made as ``openapi.yaml``'s are, from the same marshmallow schemas (``schemas``) and the
domain's own definitions (``shapes``), by apispec's converter. ``asyncapi.yaml`` at the
project root is this document (``spitlog asyncapi`` writes it; a test fails while they
differ); the server answers it at ``/asyncapi.yaml``. It is described from the server's
side: it receives ``act`` and ``ping``, and sends the rest."""

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from . import channel, schemas, shapes
from .openapi import VERSION, _component

DESCRIPTION = """\
The live path of the spitlog API (its REST API: `/openapi.yaml`, `/docs`).

**The seat channel** `GET /v1/games/{game_id}/live`, a WebSocket. A seat first asks for a
ticket with its token, `POST /v1/games/{game_id}/tickets` (single use, about 30 s), then
offers the subprotocols `spitlog.v1` and `spitlog.ticket.<ticket>`; the server selects
`spitlog.v1`. Without a ticket: a spectator. `?after=<version>` resumes: the events since
follow `hello` in one `events`, nothing lost or repeated. Each `act` is
`POST /v1/games/{game_id}/actions` with the seat's token (`expected_version` as `If-Match`,
`idempotency_key` as `Idempotency-Key`): the same limits, game gate, checks and answers
(`result` with its body, or `problem` with the problem+json body). An `act` in flight when
the channel closes is unanswered: send it again, with its `idempotency_key`, once
reconnected. Messages are JSON text frames of at most `SPITLOG_MAX_CONTENT_LENGTH` bytes;
a client may send `SPITLOG_LIVE_FRAMES_PER_S` frames a second (twice as many at once).

Close codes: CLOSE_CODES

**The events stream** `GET /v1/games/{game_id}/events` with `Accept: text/event-stream`:
each event as `id: <version>`, `data: <event>`; with `views=true`, after each batch an
`event: view` whose data is the viewer's view. With `Accept: application/x-ndjson`, one
JSON object a line (`type`: `event` or `view`), an empty line as keep-alive.
"""

_CHANNEL_MESSAGES = {
    # name: (schema, title, the server receives it)
    "act": (schemas.ActMessage, "An action of the ticket's seat", True),
    "ping": (schemas.PingMessage, "A ping: answered pong", True),
    "hello": (schemas.HelloMessage, "First: the viewer's view now", False),
    "events": (schemas.EventsMessage, "After each append (and a resume): events, new view", False),
    "result": (schemas.ResultMessage, "An act's 201: POST /actions' answer", False),
    "problem": (schemas.ProblemMessage, "An act (or a message) refused: its problem", False),
    "pong": (schemas.PongMessage, "The answer to a ping", False),
}
_STREAM_MESSAGES = {
    "sseEvent": ("Event", "SSE `data:` of an event (`id:` its version)"),
    "sseView": ("ViewMessage", "SSE `event: view` (`views=true`): the viewer's view"),
    "ndjsonEvent": ("NdjsonEvent", "NDJSON: an event"),
    "ndjsonView": ("NdjsonView", "NDJSON (`views=true`): the viewer's view"),
}
_REF = "#/components/schemas/"


def build() -> dict:
    """The document, as a dict."""
    plugin = MarshmallowPlugin()
    spec = APISpec(title="spitlog", version=VERSION, openapi_version="3.1.0", plugins=[plugin])
    plugin.converter.add_attribute_function(_component)
    for name, s in shapes.all_schemas().items():
        spec.components.schema(name, s)
    for name in ("ViewMessage", "NdjsonEvent", "NdjsonView"):
        spec.components.schema(name, schema=getattr(schemas, name))
    for name, (schema, _title, _in) in _CHANNEL_MESSAGES.items():
        spec.components.schema(name.capitalize() + "Message", schema=schema)
    spec.components.schema("Ticket", schema=schemas.TicketSchema)
    spec.components.schema("Options", schemas.options_schema())
    components = _asyncapi_schema(spec.to_dict()["components"]["schemas"])

    codes = "\n".join(f"- `{c}`: {w}" for c, w in channel.CLOSE_CODES.items())
    messages = {
        name: {
            "name": name,
            "title": title,
            "contentType": "application/json",
            "payload": {"$ref": _REF + name.capitalize() + "Message"},
        }
        for name, (_s, title, _in) in _CHANNEL_MESSAGES.items()
    }
    for name, (schema, title) in _STREAM_MESSAGES.items():
        ctype = "application/x-ndjson" if name.startswith("ndjson") else "text/event-stream"
        messages[name] = {"name": name, "title": title, "contentType": ctype,
                          "payload": {"$ref": _REF + schema}}  # fmt: skip
    game_id = {"description": "the game's id (`g_` and 16 hex digits)"}
    live_ref = {"$ref": "#/channels/live"}

    def on_live(name: str) -> dict:
        return {"$ref": f"#/channels/live/messages/{name}"}

    operations = {}
    for name, (_s, title, received) in _CHANNEL_MESSAGES.items():
        op = {"action": "receive" if received else "send", "channel": live_ref,
              "summary": title, "messages": [on_live(name)]}  # fmt: skip
        if name == "act":
            op["reply"] = {"channel": live_ref, "messages": [on_live("result"), on_live("problem")]}
        elif name == "ping":
            op["reply"] = {"channel": live_ref, "messages": [on_live("pong")]}
        operations[name] = op
    operations["stream"] = {
        "action": "send", "channel": {"$ref": "#/channels/events"},
        "summary": "The events stream's messages (SSE, NDJSON)",
        "messages": [{"$ref": f"#/channels/events/messages/{n}"} for n in _STREAM_MESSAGES],
    }  # fmt: skip
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "spitlog live",
            "version": VERSION,
            "description": DESCRIPTION.replace("CLOSE_CODES", "\n" + codes + "\n"),
            "license": {"name": "MIT"},
        },
        "defaultContentType": "application/json",
        "channels": {
            "live": {
                "address": "/v1/games/{game_id}/live",
                "title": "The seat channel (WebSocket)",
                "parameters": {"game_id": game_id},
                "messages": {n: {"$ref": f"#/components/messages/{n}"} for n in _CHANNEL_MESSAGES},
                "bindings": {
                    "ws": {
                        "method": "GET",
                        "query": {
                            "type": "object",
                            "properties": {
                                "after": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "description": "resume: the events after this version",
                                }  # fmt: skip
                            },
                        },
                        "headers": {
                            "type": "object",
                            "properties": {
                                "Sec-WebSocket-Protocol": {
                                    "type": "string",
                                    "description": "spitlog.v1, spitlog.ticket.<ticket> "
                                    "(POST /v1/games/{game_id}/tickets); spitlog.v1 alone: "
                                    "a spectator",
                                }
                            },
                        },
                        "bindingVersion": "0.1.0",
                    }
                },
            },
            "events": {
                "address": "/v1/games/{game_id}/events",
                "title": "The events stream (SSE, NDJSON)",
                "parameters": {"game_id": game_id},
                "messages": {n: {"$ref": f"#/components/messages/{n}"} for n in _STREAM_MESSAGES},
            },
        },
        "operations": operations,
        "components": {"schemas": components, "messages": messages},
    }


def _asyncapi_schema(doc):
    """``doc`` (JSON schemas as OpenAPI 3.1 has them) in AsyncAPI's schema format: its
    ``discriminator`` is the property's name, where OpenAPI's is an object."""
    if isinstance(doc, list):
        return [_asyncapi_schema(x) for x in doc]
    if not isinstance(doc, dict):
        return doc
    out = {k: _asyncapi_schema(v) for k, v in doc.items()}
    if isinstance(out.get("discriminator"), dict):
        out["discriminator"] = out["discriminator"]["propertyName"]
    return out


def to_yaml(doc: dict) -> str:
    from .openapi import to_yaml as yaml_of

    return yaml_of(doc)
