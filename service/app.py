"""The Flask application: ``create_app(config)``.

One flask-smorest ``Api`` documents every route from the marshmallow schemas
(``spec_yaml`` is what ``/openapi.yaml`` serves and ``openapi.yaml`` holds); one error
handler answers every error as ``application/problem+json``.
"""

import http
import inspect
import time

import flask
import orjson
import redis
import yaml
from flask import Flask, Response, g, request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import NullSession, SecureCookieSessionInterface
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from . import config as config_mod
from . import redisconn
from .errors import PROBLEM_JSON, BadRequest, RateLimited, UnsupportedMediaType, problem
from .games import Games, ms_now
from .hooks import Scheduler
from .limits import GameGate, Limits, check_body
from .live import Hub
from .metrics import Metrics
from .schemas import ProblemSchema
from .store import RedisStore

API_TITLE = "spitlog"
API_VERSION = "1.0.0"
GAME_ID = r"g_[0-9a-f]{16}"

_DESCRIPTION = """\
A game-state service for the two-player real-time card games **Spit** and **Speed**.
Each game is an append-only log of events; the state is rebuilt from it by a pure
rules engine. The rules and their IDs (`rule` in 422 answers) are in RULES.md.

- JSON in and out; cards on the wire as `AS`, `10H`, `QD`.
- A seat is controlled by its token, returned once when the seat is taken, sent as
  `Authorization: Bearer <token>`. Without a token you are a spectator.
- Every state answer carries `ETag: "<version>"` (a game's version is the number of
  events in its log); `If-None-Match` gives 304, `If-Match` on an action gives 412
  when the game has moved on.
- Errors are `application/problem+json` (RFC 9457): `type`, `title`, `status`,
  `detail`, plus `rule` for illegal moves, `errors` for bad input, `version`.
- Hidden cards never leave the server before a game ends; after it, the audit reveals
  the seed and re-derives every shuffle.
"""


class GameIdConverter(BaseConverter):
    regex = GAME_ID


class SpitApi(Api):
    """flask-smorest's Api with problem+json as the documented error body."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "An error (RFC 9457 problem)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def _register_error_handlers(self):
        return None  # create_app registers the one handler


class JSONProvider(DefaultJSONProvider):
    """Request bodies read by orjson: strict JSON (RFC 8259: no ``NaN``, no lone
    surrogate) and several times faster than the standard module."""

    def loads(self, s, **kwargs):
        return orjson.loads(s)


class Request(flask.Request):
    def on_json_loading_failed(self, e: ValueError | None):
        if e is None:
            return super().on_json_loading_failed(e)  # not JSON at all: 415
        reason = str(e).split(":", 1)[0]
        raise BadRequest({"_body": [f"Invalid JSON body: {reason}."]}) from None


class _NoSessions(SecureCookieSessionInterface):
    """This API keeps no sessions (a seat's token is its credential): every request
    shares one empty, read-only session instead of making its own."""

    _null = NullSession()

    def open_session(self, app, request):
        return None

    def make_null_session(self, app):
        return self._null


class App(Flask):
    """Flask without the two costs every request paid for what this API does not use:
    sessions (``_NoSessions``) and async views (``ensure_sync`` inspected each hook and
    view for a coroutine; ``create_app`` refuses one)."""

    request_class = Request
    json_provider_class = JSONProvider
    session_interface = _NoSessions()

    def ensure_sync(self, func):
        return func


def _no_async_views(app: Flask) -> None:
    for name, f in app.view_functions.items():
        cls = getattr(f, "view_class", None)
        funcs = [f, *(getattr(cls, m.lower()) for m in getattr(cls, "methods", None) or ())]
        if any(inspect.iscoroutinefunction(x) for x in funcs):
            raise TypeError(f"{name}: async views need Flask's ensure_sync (App drops it)")


def json_response(body, status: int = 200, headers=None, mimetype="application/json") -> Response:
    return Response(orjson.dumps(body), status=status, headers=headers, mimetype=mimetype)


def _handle(exc: Exception):
    status, body, headers = problem(exc)
    return json_response(body, status, headers, mimetype=PROBLEM_JSON)


_BODY_REQUIRED = {"games.GamesCollection", "games.Actions"}


def rate_limit(limiter, req) -> None:
    """429 with ``Retry-After`` (whole seconds) when ``limiter(req)`` says to wait."""
    retry_after = limiter(req)
    if retry_after:
        raise RateLimited(
            "over the rate limit", headers={"Retry-After": str(int(retry_after + 0.999))}
        )


def _before(gate: GameGate, limiter) -> callable:
    """The one ``before_request`` hook: the game's gate first (a flood of one game waits
    there, even for its 429s: bench/flood.py measured the other games' p99 2-5x lower
    than with the gate after the rate limiter), the rate limits (``limiter``: a
    callable(request) -> seconds to wait, or None), the body's type and limits
    (``limits.check_body``). It runs on every request: the request is looked up once."""

    def before() -> None:
        g.t0 = time.perf_counter()  # the request's clock starts before any wait
        req = request._get_current_object()
        gate.enter(req)
        if limiter is not None:
            rate_limit(limiter, req)
        if (
            req.method == "POST"
            and not req.is_json
            and (req.endpoint in _BODY_REQUIRED or req.get_data(cache=True))
        ):
            raise UnsupportedMediaType("send the body as application/json")
        check_body(req)

    return before


def _after(metrics: Metrics) -> callable:
    def after(resp: Response) -> Response:
        req = request._get_current_object()
        rule = req.url_rule.rule if req.url_rule else "<unmatched>"
        metrics.answered(req.method, rule, resp.status_code, time.perf_counter() - g.t0)
        return resp

    return after


def create_app(
    config: dict | None = None,
    *,
    redis_client: redis.Redis | None = None,
    scheduler: Scheduler | None = None,
    clock=ms_now,
) -> Flask:
    """The API. ``config`` overrides ``config.DEFAULTS`` (see ``config.from_env``);
    ``redis_client`` replaces the one made from ``REDIS_URL`` (tests pass fakeredis);
    ``scheduler`` is told of every append (``hooks.Scheduler``; default: nothing)."""
    cfg = {**config_mod.DEFAULTS, **(config or {})}
    app = App(__name__)
    app.config.update(cfg)
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        API_SPEC_OPTIONS={
            "info": {"description": _DESCRIPTION, "license": {"name": "MIT"}},
            "components": {
                "securitySchemes": {
                    "seat": {"type": "http", "scheme": "bearer", "description": "a seat's token"},
                },
            },
        },
    )
    app.json.sort_keys = False
    app.url_map.converters["gid"] = GameIdConverter
    app.url_map.strict_slashes = False

    if redis_client is not None:
        client = live = redis_client
    else:
        client, live = redisconn.clients(cfg["REDIS_URL"], int(cfg["REDIS_POOL"]))
    store = RedisStore(client, live=live, durability=cfg["DURABILITY"])
    metrics = Metrics()
    games = Games(
        store, scheduler=scheduler, metrics=metrics, clock=clock,
        snapshot_every=int(cfg["SNAPSHOT_EVERY"]), cache_size=int(cfg["STATE_CACHE"]),
        retries=int(cfg["APPEND_RETRIES"]),
    )  # fmt: skip
    app.extensions["spitlog"] = {
        "store": store, "games": games, "metrics": metrics, "hub": Hub(store),
    }  # fmt: skip
    limits = Limits.from_config(client, cfg, registry=metrics.registry)  # issue 6: OWASP API4
    app.extensions["spitlog"]["limits"] = limits
    limiter = app.config.get("RATE_LIMITER")
    if limiter is None and limits.rate_limited:
        limiter = app.config["RATE_LIMITER"] = limits.check

    api = SpitApi(app)
    api.register_converter(GameIdConverter, lambda c: {"type": "string", "pattern": f"^{GAME_ID}$"})
    from .api import games_blp, ops_blp

    api.register_blueprint(games_blp)
    api.register_blueprint(ops_blp)
    app.extensions["spitlog"]["api"] = api
    from .web import web

    app.register_blueprint(web)

    gate = GameGate(int(cfg.get("GAME_CONCURRENCY", 0)))
    app.before_request(_before(gate, limiter))
    app.teardown_request(gate.leave)
    app.after_request(_after(metrics))
    app.register_error_handler(HTTPException, _handle)
    app.register_error_handler(Exception, _handle)
    _no_async_views(app)
    from .fastpath import FastActions

    app.wsgi_app = FastActions(app, app.wsgi_app, gate=gate, limiter=limiter, metrics=metrics)
    return app


def spec_dict(app: Flask) -> dict:
    return app.extensions["spitlog"]["api"].spec.to_dict()


def spec_yaml(app: Flask) -> str:
    """The OpenAPI document, as ``openapi.yaml`` holds it."""
    return yaml.safe_dump(spec_dict(app), sort_keys=False, allow_unicode=True, width=100)
