"""The OpenAPI 3.1 document of the API, made from the route table (``table.TABLE``),
the marshmallow schemas (``schemas``) and the domain's own definitions (``shapes``), by
apispec. ``openapi.yaml`` at the project root is this document (``spitlog openapi`` writes
it; a test fails while they differ); the clients under ``clients/`` are generated from it.
Its version is the package's (``pyproject.toml``)."""

import copy
import http
import importlib.metadata
import re

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from .. import ids
from . import schemas, shapes
from .pipeline import Route, openapi_path

TITLE = "spitlog"
VERSION = importlib.metadata.version("spitlog")
DESCRIPTION = """\
A game-state service for the two-player real-time card games **Spit** and **Speed**.
Each game is an append-only log of events; the state is rebuilt from it by a pure
rules engine. The rules, an entry per ID, are at `/docs/rules` (docs/rules.md): a 422's
`rule_url` and a view's `result_url` link to their entries.

- JSON in and out; cards on the wire as `AS`, `10H`, `QD`.
- A seat is controlled by its token, returned once when the seat is taken, sent as
  `Authorization: Bearer <token>`. Without a token you are a spectator.
- Every state answer carries `ETag: "<version>"` (a game's version is the number of
  events in its log); `If-None-Match` gives 304, `If-Match` on an action gives 412
  when the game has moved on. A finished game's view may change without a new
  version (a rematch asked for or made, its rating applied): once it did, or once the
  game left Redis for the archive, `GET /v1/games/{id}` and `/states/{version}` answer
  200, never 304, with the same ETag.
- Errors are `application/problem+json` (RFC 9457): `type`, `title`, `status`,
  `detail`, plus `rule` for illegal moves, `errors` for bad input, `version`.
- Hidden cards never leave the server before a game ends; after it, the audit reveals
  the seed and re-derives every shuffle.
- The server itself (gunicorn) answers a request line over 4,094 bytes with `414` and
  headers over its limits (100 fields, 8,190 bytes each) with `431`, in plain text,
  before the API sees them.
"""
_CONVERTERS = {
    "gid": {"type": "string", "pattern": f"^{ids.GAME_ID}$"},
    "sid": {"type": "string", "pattern": f"^{ids.SEEK_ID}$"},
    "pid": {
        "type": "string",
        "pattern": f"^(?:{ids.APP_ID}:)?{ids.PLAYER_ID}$",
        "description": f"{ids.PLAYER_RULE}; or <app id>:<that>, your app's",
    },
    "int": {"type": "integer", "minimum": 0},
}
_TOO_LONG = {"$ref": "#/components/responses/REQUEST_URI_TOO_LONG"}
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
# the request bodies that say who takes a seat (``schemas._seat_fields``)
SEAT_BODIES = ("CreateGame", "Join", "Seek")
RATED_BODIES = ("CreateGame", "Seek")  # the bodies of a table: its options, rated or not


def _path(rule: str) -> tuple[str, list[dict]]:
    """An OpenAPI path and its path parameters, from a werkzeug rule."""
    params = [
        {"in": "path", "name": name, "required": True,
         "schema": dict(_CONVERTERS.get(conv or "", {"type": "string"}))}
        for conv, name in _PARAM.findall(rule)
    ]  # fmt: skip
    return openapi_path(rule), params


def _component(self, field, **kwargs) -> dict:
    """apispec: a ``schemas.Component`` field is a reference to its component."""
    if isinstance(field, schemas.Component):
        return {"$ref": shapes.COMPONENTS + field.component}
    return {}


def _const(self, field, **kwargs) -> dict:
    """apispec: a ``schemas.Const`` field is its one value (``const``)."""
    if isinstance(field, schemas.Const):
        return {"type": "string", "const": field.constant}
    return {}


def _notification(kind: str) -> str:
    """The component of a notification's ``type``: ``game.finished`` -> GameFinishedNotification."""
    return "".join(w.title() for w in kind.split(".")) + "Notification"


def webhooks(plugin: MarshmallowPlugin) -> dict:
    """The ``webhooks`` of the document: what the service POSTs to a game's webhook (and the
    deployment's), one entry per notification ``type``, its body a component
    (``schemas.NOTIFICATIONS``, registered by ``build``), its headers as parameters."""
    headers = plugin.converter.schema2parameters(schemas.WebhookHeadersSchema, location="header")
    out = {}
    for kind, schema in schemas.NOTIFICATIONS.items():
        out[kind] = {"post": {
            "operationId": "notify_" + kind.replace(".", "_"),
            "summary": schema.__doc__,
            "description": "Sent to the URL of `webhook` at creation (signed with the secret "
                           "its answer shows once) and to `SPITLOG_WEBHOOK_URL`; "
                           "docs/webhooks.md.",
            "parameters": copy.deepcopy(headers),
            "requestBody": {"required": True, "content": {
                "application/json": {"schema": {"$ref": shapes.COMPONENTS + _notification(kind)}},
            }},
            "responses": {
                "2XX": {"description": "taken (within SPITLOG_WEBHOOK_TIMEOUT_S, 5 s); the body "
                                       "is not read"},
                "default": {"description": "not taken (as no answer in time, a refused "
                                           "connection, or a redirect, which is not followed): "
                                           "tried again after 1 s, 2 s, 4 s, ..., at most "
                                           "hourly, for SPITLOG_WEBHOOK_RETRY_S (a day), while "
                                           "the game's later notifications wait"},
            },
        }}  # fmt: skip
    return out


def _made(doc):
    """``doc`` with each function in it replaced by what it makes (examples made from the
    registered games when the document is made, not when the route table is)."""
    if isinstance(doc, dict | list):
        items = list(doc.items() if isinstance(doc, dict) else enumerate(doc))
        made = {k: _made(v) for k, v in items}
        if all(made[k] is v for k, v in items):
            return doc  # itself: a part the document shares stays shared (a YAML anchor)
        return made if isinstance(doc, dict) else list(made.values())
    return doc() if callable(doc) and not isinstance(doc, type) else doc


def build(routes: tuple[Route, ...]) -> dict:
    """The document, as a dict."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title=TITLE, version=VERSION, openapi_version="3.1.0", plugins=[plugin],
        info={"description": DESCRIPTION, "license": {"name": "MIT", "identifier": "MIT"}},
    )  # fmt: skip
    plugin.converter.add_attribute_function(_component)
    plugin.converter.add_attribute_function(_const)
    spec.components.security_scheme(
        "seat", {"type": "http", "scheme": "bearer", "description": "a seat's token"}
    )
    spec.components.security_scheme(
        "app", {"type": "apiKey", "in": "header", "name": "X-Api-Key",
                "description": "an app's API key (`spitlog admin keys create NAME`): its players"},
    )  # fmt: skip
    spec.components.schema("Problem", schema=schemas.ProblemSchema)
    spec.components.schema("Options", schemas.options_schema())
    for name, s in shapes.all_schemas().items():
        spec.components.schema(name, s)
    for kind, schema in schemas.NOTIFICATIONS.items():
        spec.components.schema(_notification(kind), schema=schema)
    spec.components.schema("Notification", {
        "description": "A webhook notification, by its `type` (a new type may appear: take it "
                       "with a 2xx and skip it).",
        "oneOf": [{"$ref": shapes.COMPONENTS + _notification(k)} for k in schemas.NOTIFICATIONS],
        "discriminator": {"propertyName": "type", "mapping": {
            k: shapes.COMPONENTS + _notification(k) for k in schemas.NOTIFICATIONS}},
    })  # fmt: skip
    codes = sorted({414} | {int(c) for r in routes if r.doc for c in r.doc.get("responses", {})
                            if c.isdigit() and "$ref" in r.doc["responses"][c]})  # fmt: skip
    for code in codes:
        status = http.HTTPStatus(code)
        spec.components.response(status.name, {
            "description": status.phrase,
            "content": {"application/problem+json": {"schema": "Problem"}},
        })  # fmt: skip
    by_path: dict[str, dict] = {}
    for r in routes:
        if r.doc is None:
            continue
        path, params = _path(r.path)
        op = {"operationId": r.name, **_made(r.doc)}
        if r.query is not None:
            op["parameters"] = [{"in": "query", "schema": r.query}, *op.get("parameters", [])]
        if r.query is not None or params:  # a request line the server may find too long
            op.setdefault("responses", {}).setdefault("414", _TOO_LONG)
        entry = by_path.setdefault(path, {"operations": {}, "parameters": params})
        entry["operations"][r.method.lower()] = op
    for path, entry in by_path.items():
        spec.path(path=path, operations=entry["operations"], parameters=entry["parameters"] or None)
    made = spec.to_dict()
    out = {k: v for k, v in made.items() if k != "components"}
    out["webhooks"] = webhooks(plugin)
    out["components"] = made["components"]
    components = out["components"]["schemas"]
    for name in SEAT_BODIES:  # who takes the seat: what the server takes of it
        components[name].update(copy.deepcopy(schemas.SEAT_RULES))
    for name in RATED_BODIES:  # the create's and the seek's: a table's options, rated or not
        components[name]["properties"]["options"] = {
            "$ref": "#/components/schemas/Options",
            "description": components[name]["properties"]["options"].get("description", ""),
        }
        components[name]["allOf"] = [copy.deepcopy(schemas.RATED_RULES),
                                     *schemas.game_options_rules()]  # fmt: skip
    components["CreateGame"]["allOf"].append(copy.deepcopy(schemas.WATCHED_RULES))
    return out


def to_yaml(doc: dict) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
