"""The routes: a Blueprint per resource, a MethodView per path (the table of API.md).

Views are thin: read the request, call ``Games``, write the answer. Responses are
written as JSON directly (the schemas document them; the tests check them).
"""

import http
import json
import time
from copy import deepcopy

from flask import Response, current_app, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint as _Blueprint
from flask_smorest.utils import deepupdate
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from webargs.flaskparser import FlaskParser

import domain

from . import links
from .app import json_response, spec_dict, spec_yaml
from .errors import BadRequest, Busy
from .games import Answer, Game, Games
from .limits import stream_slot
from .schemas import (
    MAX_VERSION,
    ActedSchema,
    ActionSchema,
    AuditSchema,
    CreatedSchema,
    CreateGameSchema,
    EventsHeaders,
    EventsQuery,
    EventsSchema,
    HealthSchema,
    JoinSchema,
    LobbyQuery,
    LobbySchema,
    SeatedSchema,
    StateSchema,
)


class _Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400  # API.md: a body the schema refuses is a 400


class Blueprint(_Blueprint):
    ARGUMENTS_PARSER = _Parser()


def _documented(update):
    """A decorator that only adds to an operation's documentation: no wrapper, so no cost
    per request (flask-smorest's own doc decorators each wrap the view once more)."""

    def decorate(f):
        apidoc = deepcopy(f.__dict__.get("_apidoc", {}))
        update(apidoc)
        f._apidoc = apidoc
        return f

    return decorate


def doc(**kwargs):
    """``Blueprint.doc`` without the wrapper."""
    return _documented(lambda d: d.__setitem__(
        "manual_doc", deepupdate(d.get("manual_doc", {}), deepcopy(kwargs))))  # fmt: skip


def answers(code: int, entry) -> callable:
    """``Blueprint.alt_response`` without the wrapper: a response name or a description."""
    if isinstance(entry, str) and entry.isupper():
        item = entry
    else:
        item = {"description": entry, "content_type": None}

    def add(d):
        d.setdefault("response", {}).setdefault("responses", {}).setdefault(code, []).append(item)

    return _documented(add)


def responds(code: int, schema, headers: dict) -> callable:
    """``Blueprint.response`` without the wrapper, for a view that returns a ``Response``
    itself (the wrapper would only hand it back): the same documentation."""
    item = {"schema": schema, "description": http.HTTPStatus(code).phrase, "headers": headers,
            "content_type": None}  # fmt: skip

    def add(d):
        d.setdefault("response", {}).setdefault("responses", {}).setdefault(code, []).append(item)
        d.setdefault("success_status_codes", []).append(code)

    return _documented(add)


def problems(*codes: int):
    """Document the error answers an operation may give (problem+json bodies)."""

    def decorate(f):
        for code in codes:
            f = answers(code, http.HTTPStatus(code).name)(f)
        return f

    return decorate


def header(name: str, description: str, **schema) -> dict:
    return {"in": "header", "name": name, "required": False, "description": description,
            "schema": {"type": "string", **schema}}  # fmt: skip


IF_NONE_MATCH = header("If-None-Match", '"<version>": 304 if the game is still there')


games_blp = Blueprint(
    "games", __name__, url_prefix="/v1", description="Games: create, join, act, watch, audit."
)
ops_blp = Blueprint("ops", __name__, description="Health, metrics and this documentation.")

SEAT_OPTIONAL = [{"seat": []}, {}]
SEAT_REQUIRED = [{"seat": []}]
ETAG = {"ETag": {"description": 'the game\'s version, "<version>"', "schema": {"type": "string"}}}
_END_EVENTS = ("game_ended", "game_aborted")
_SEP = (",", ":")


def _games() -> Games:
    return current_app.extensions["spitlog"]["games"]


def _bearer() -> str | None:
    return bearer(request.headers.get("Authorization"))


def bearer(h: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; a header of another form
    is kept whole, so that it is judged (401) after the game is found (404)."""
    if h is None:
        return None
    scheme, _, token = h.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else h


def _viewer(game_id: str) -> tuple[Game, int | None]:
    game = _games().load(game_id)
    return game, _games().seat(game, _bearer())


def _not_modified(version: int) -> Response | None:
    inm = request.if_none_match
    if inm and inm.contains_weak(str(version)):
        return Response(status=304, headers={"ETag": f'"{version}"', "Vary": "Authorization"})
    return None


def _state_response(body: dict, version: int, status: int = 200, headers=None) -> Response:
    h = {"ETag": f'"{version}"', "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    return json_response(body, status, {**h, **(headers or {})})


# ---------------------------------------------------------------- games


@games_blp.route("/games")
class GamesCollection(MethodView):
    @games_blp.arguments(LobbyQuery(), location="query")
    @games_blp.response(200, LobbySchema)
    @doc(summary="The lobby: games by status, newest first, a page at a time")
    @problems(400, 429)
    def get(self, args):
        limit = min(args["limit"], int(current_app.config["LOBBY_PAGE_MAX"]))
        games, nxt = _games().lobby(args["status"], args.get("cursor"), limit)
        return json_response({"games": games, "next": nxt})

    @games_blp.arguments(CreateGameSchema())
    @games_blp.response(
        201, CreatedSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG}
    )
    @doc(
        summary="Create a game; you take seat 0",
        description="Answers your seat's token (shown once) and the commitment to the "
        "secret server seed, sha256 hex. Against a bot the game starts at once. With "
        '`seat0` a bot (bot against bot), you watch: `seat` and `token` are null.',
    )
    @doc(responses={201: {"links": links.CREATED}})
    @problems(400, 413, 415, 429)
    def post(self, body):
        try:
            out = _games().create(
                body["game"], body.get("options"), body.get("opponent", "human"),
                body.get("client_seed", ""), seat0=body.get("seat0", "human"),
            )  # fmt: skip
        except domain.InvalidOptions as e:
            raise BadRequest({f"options.{k}": v for k, v in e.errors.items()}) from None
        location = url_for("games.Game", game_id=out["id"])
        return _state_response(out, out["state"]["version"], 201, {"Location": location})


@games_blp.route("/games/<gid:game_id>")
class Game(MethodView):  # noqa: F811 - the view, named after the resource
    @games_blp.response(200, StateSchema, headers=ETAG)
    @answers(304, "Not modified: the game is at that version")
    @doc(
        parameters=[IF_NONE_MATCH],
        summary="The state as you may see it",
        description="Your seat's view with your token, the spectator view without. Once "
        "the game is over, every card.",
        security=SEAT_OPTIONAL,
    )
    @problems(401, 403, 404, 429)
    def get(self, game_id):
        game, seat = _viewer(game_id)
        return _not_modified(game.version) or _state_response(
            domain.view(game.state, seat), game.version
        )


@games_blp.route("/games/<gid:game_id>/seats")
class Seats(MethodView):
    @games_blp.arguments(JoinSchema(), required=False)
    @games_blp.response(201, SeatedSchema, headers=ETAG)
    @doc(summary="Take the free seat (409 when there is none)")
    @doc(responses={201: {"links": links.SEATED}})
    @problems(400, 401, 403, 404, 409, 413, 415, 429)
    def post(self, body, game_id):
        out = _games().join(game_id, (body or {}).get("client_seed", ""), _bearer())
        return _state_response(out, out["state"]["version"], 201)


_ACTION = ActionSchema()


def _read_action(body) -> tuple[dict, dict]:
    """(errors, read): what ``ActionSchema`` refuses in ``body`` ({} if nothing), and the
    action as the first game whose rules read it has it (``{game: action}``, for
    ``Games.act``). The rules' own parser of either game is stricter than the schema
    (tests/service/test_fuzz_bodies.py checks it on generated bodies), so a body it
    reads is valid and the schema need not look: the hot path."""
    if isinstance(body, dict):
        for game in domain.GAMES:
            try:
                return {}, {game: domain.parse_action(game, body)}
            except domain.MalformedAction:
                continue
        return _ACTION.validate(body), {}
    return {"_body": ["Not an object."]}, {}


@games_blp.route("/games/<gid:game_id>/actions")
class Actions(MethodView):
    # The hot path: the body is checked directly, not through webargs' layers (the same
    # schema, documented below as the request body), and the answer is made here.
    @responds(201, ActedSchema(), headers=ETAG)
    @doc(
        requestBody={"required": True, "content": {"application/json": {"schema": ActionSchema}}},
        parameters=[
            header(
                "Idempotency-Key",
                "retrying with the same key returns the first answer and appends nothing",
                minLength=1,
                maxLength=255,
            ),
            header("If-Match", 'act only if the game is at this version: "<version>"'),
        ],
        summary="Act (the seat is your token's)",
        description="422 with `rule` when the rules refuse it now. With `Idempotency-Key`, "
        "a retry returns the first answer (header `Idempotent-Replayed: true`) and appends "
        'nothing; the same key with another body is a 422. `If-Match: "<version>"`: '
        "412 unless the game is at that version.",
        security=SEAT_REQUIRED,
    )
    @doc(responses={201: {"links": links.ACTED}})
    @problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503)
    def post(self, game_id):
        body = request.get_json()
        errors, read = _read_action(body)
        if errors:
            raise BadRequest(errors)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 255:
            raise BadRequest({"Idempotency-Key": ["Length must be between 1 and 255."]})
        answer = _games().act(
            game_id, _bearer(), body, idem_key=key, if_match=_if_match(), read=read
        )
        return answer_response(answer)


def answer_response(answer: Answer) -> Response:
    """An action's answer on the wire (this view's and service/fastpath.py's)."""
    extra = {"Idempotent-Replayed": "true"} if answer.replayed else {}
    if answer.status == 201:
        return _state_response(answer.body, answer.body["version"], 201, extra)
    return json_response(answer.body, answer.status, extra, "application/problem+json")


def _if_match() -> frozenset[int] | None:
    """The versions ``If-Match`` allows (None: any). Weak or non-numeric tags match none."""
    if "If-Match" not in request.headers:
        return None
    im = request.if_match
    if im.star_tag:
        return None
    return frozenset(int(t) for t in im.as_set() if t and t.isascii() and t.isdigit())


@games_blp.route("/games/<gid:game_id>/events")
class Events(MethodView):
    @games_blp.arguments(EventsQuery(), location="query")
    @games_blp.arguments(EventsHeaders(), location="headers")
    @games_blp.response(200, EventsSchema)
    @games_blp.alt_response(
        200, success=True, content_type="text/event-stream", schema={"type": "string"},
        description="The events as JSON; with `Accept: text/event-stream`, as SSE",
    )  # fmt: skip
    @answers(204, "SSE: the game is over and you have every event")
    @doc(
        summary="The log, redacted for you (in full once the game is over)",
        description="Events after version `after`, at most `limit`. With `wait`, a long-poll: "
        "if there is nothing yet, wait up to `wait` seconds for it. With `Accept: "
        "text/event-stream`, the log as Server-Sent Events, live: `id:` is the version, "
        "`data:` the event as JSON; it resumes after `Last-Event-ID`, and answers 204 once "
        "the game is over and you have every event.",
        security=SEAT_OPTIONAL,
    )
    @problems(400, 401, 403, 404, 429)
    def get(self, args, headers, game_id):
        game, seat = _viewer(game_id)
        after = args["after"]
        best = request.accept_mimetypes.best_match(["application/json", "text/event-stream"])
        if best == "text/event-stream":
            last = headers.get("last_event_id", "")
            if last.strip().isascii() and last.strip().isdigit():
                after = min(int(last), MAX_VERSION)
            return _sse(game, seat, after)
        svc = _games()
        entries = svc.store.read_after(game_id, after, args["limit"])
        wait = min(args.get("wait") or 0, float(current_app.config["LONGPOLL_MAX_S"]))
        if not entries and wait > 0 and not game.state.over:
            release = stream_slot(wait)  # 429 past the client's cap on open streams
            try:
                current_app.extensions["spitlog"]["hub"].wait(game_id, after, wait)
            finally:
                release()
            game = svc.load(game_id)
            entries = svc.store.read_after(game_id, after, args["limit"])
        version = max(game.version, entries[-1][0] if entries else 0)
        return json_response({
            "version": version,
            "status": game.state.status,
            "events": Games.redacted(entries, seat, game.state.over),
        })  # fmt: skip


def _sse(game: Game, seat: int | None, after: int) -> Response:
    """The live stream: what is there after ``after``, then each append as it lands."""
    ext = current_app.extensions["spitlog"]
    store, hub, metrics = ext["store"], ext["hub"], ext["metrics"]
    cfg = current_app.config
    max_s, keep_s = float(cfg["SSE_MAX_S"]), float(cfg["SSE_KEEPALIVE_S"])
    public = game.state.over
    if public and after >= game.version:
        return Response(status=204)  # tells EventSource to stop reconnecting
    release = stream_slot(max_s)  # 429 past the client's cap on open streams

    def stream():
        metrics.sse_open.inc()
        try:
            yield "retry: 2000\n\n"
            last, end = after, time.monotonic() + max_s
            while True:
                entries = store.read_after(game.id, last, 500)
                if entries:
                    yield "".join(
                        f"id: {e['version']}\ndata: {json.dumps(e, separators=_SEP)}\n\n"
                        for e in Games.redacted(entries, seat, public)
                    )
                    last = entries[-1][0]
                    if any(d["type"] in _END_EVENTS for _v, d in entries):
                        return
                    continue
                remaining = end - time.monotonic()
                if public or remaining <= 0:
                    return
                if not hub.wait(game.id, last, min(keep_s, remaining)):
                    yield ": keep-alive\n\n"
        finally:
            metrics.sse_open.dec()

    resp = Response(
        stream(), mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )  # fmt: skip
    resp.call_on_close(release)  # the slot frees when the server closes the response
    return resp


@games_blp.route("/games/<gid:game_id>/states/<int:version>")
class StateAt(MethodView):
    @games_blp.response(200, StateSchema, headers=ETAG)
    @answers(304, "Not modified")
    @doc(
        parameters=[IF_NONE_MATCH],
        summary="The state after `version` events",
        description="Your own view (or the spectator's) while the game runs, every card once "
        "it is over. The ETag is the game's current version: the answer changes when the "
        "game ends.",
        security=SEAT_OPTIONAL,
    )
    @problems(401, 403, 404, 429)
    def get(self, game_id, version):
        game, seat = _viewer(game_id)
        return _not_modified(game.version) or _state_response(
            _games().state_at(game, seat, version), game.version
        )


@games_blp.route("/games/<gid:game_id>/audit")
class Audit(MethodView):
    @games_blp.response(200, AuditSchema)
    @doc(
        summary="After the game: the whole log, the seed, every deal re-derived (409 before)",
        description="`server_seed` hashes (sha256) to the `commitment` published at creation; "
        "each deal is shuffled again from it (docs/shuffle.md) and compared with the log.",
    )
    @problems(401, 403, 404, 409, 429)
    def get(self, game_id):
        game, _seat = _viewer(game_id)
        return json_response(_games().audit(game))


# ---------------------------------------------------------------- operations


@ops_blp.route("/healthz")
class Health(MethodView):
    @ops_blp.response(200, HealthSchema)
    @doc(summary="Liveness: the process answers")
    def get(self):
        return json_response({"status": "ok"})


@ops_blp.route("/readyz")
class Ready(MethodView):
    @ops_blp.response(200, HealthSchema)
    @doc(summary="Readiness: the game store answers (503 if not)")
    def get(self):
        try:
            current_app.extensions["spitlog"]["store"].ping()
        except Exception:
            raise Busy("the game store does not answer", headers={"Retry-After": "1"}) from None
        return json_response({"status": "ready"})


@ops_blp.route("/metrics")
class MetricsView(MethodView):
    @ops_blp.response(
        200, {"type": "string"}, content_type="text/plain", description="Prometheus text format"
    )
    @doc(summary="Prometheus metrics of this process")
    def get(self):
        registry = current_app.extensions["spitlog"]["metrics"].registry
        return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)


@ops_blp.route("/openapi.yaml")
class OpenApi(MethodView):
    @ops_blp.response(
        200, {"type": "object"}, content_type="application/yaml", description="OpenAPI 3"
    )
    @doc(summary="This API's OpenAPI document")
    def get(self):
        ext = current_app.extensions["spitlog"]
        if "spec_yaml" not in ext:
            ext["spec_yaml"] = spec_yaml(current_app)
        return Response(ext["spec_yaml"], mimetype="application/yaml")


@ops_blp.route("/docs")
class Docs(MethodView):
    @ops_blp.response(200, {"type": "string"}, content_type="text/html", description="HTML")
    @doc(summary="This API's documentation, readable")
    def get(self):
        from .docs import render

        ext = current_app.extensions["spitlog"]
        if "docs_html" not in ext:
            ext["docs_html"] = render(spec_dict(current_app))
        return Response(ext["docs_html"], mimetype="text/html")
