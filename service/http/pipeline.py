"""The one request pipeline: every route of the API goes through it, in this order:

1. **body**: read whole (``body.read_body``: 408, 413) and read as strict JSON (415, 400),
   before the request takes anything of its game;
2. **query**: the route's parameters only, each once (400 naming the parameter);
3. **credentials**: ``credentials.bearer``, the one reader (401 for a malformed header);
   for routes that take one, an app's key (``X-Api-Key``), read for its form only;
4. **limits**: the route's rate buckets for the client's address and token (429): charged
   here, or for a route that says so (``Route.charged_in_store``) on a single Redis in the
   same call as its first script of the game (the bill waits for it in a request-scoped
   slot, ``limits.pending``, which the Redis adapter reads: no use case sees it), and
   after the handler if it ran none
   (``limits.rates`` tells how a refused request still does nothing). A token on a
   route of one game is charged as that game's seat if it holds one, else to the
   address; an app's key is looked up only after (401 unless a live app's), so that an
   address over its failed authentications is refused before the lookup;
5. **gate**: a place in the game's bulkhead for routes that work on one game (503);
6. **use case**: the route's handler, which calls one use case and makes the answer;
7. **answer**: errors become problem+json (``problems``, with the request's id); a failed
   authentication (``ServiceError.failed_auth``: a 401 or 403 of a credential) is charged
   to the address's bucket of them, and answered 429 instead when that refuses; a 503 of
   a seat's request, or a 429 of a limit the seat shares with others (its address's), is
   remembered so that RULES T-4 does not count it against the seat, unless the seat
   itself sent more than its address may (its ``share``: ``limits.rates``);
   every answer carries ``X-Request-Id`` (the client's, if valid, else a new one), the
   rate-limit fields of the buckets it was charged to, and the CORS fields
   (``cors``: a preflight of an allowed origin is answered first, before any stage); the
   answer to a request whose body was not read whole (refused while it was read, or a
   body no stage reads) carries ``Connection: close``: where the next request would
   start on the connection is unknown, and the server closes it after the answer;
8. **metrics**: every answer counted and timed.

A ``Route`` says which stages apply to it. Flask dispatches most requests and calls
``Pipeline.run`` from the route's view; the hot routes (an action, the request every
move of every game makes, and a read of a game's state) are matched in front of
Flask's dispatch (``app.Front``) and go through the same ``Pipeline.run``: the only
thing they skip is Flask's own machinery (contexts, signals), which no stage needs.
"""

import contextlib
import http
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import parse_qsl

import orjson
from marshmallow import Schema, ValidationError
from werkzeug.wsgi import ClosingIterator

from .. import logs, telemetry
from ..errors import BadRequest, RateLimited
from ..limits.pending import left_to_store
from . import schemas
from .body import is_json, parse_json, read_body
from .credentials import api_key, bearer
from .problems import PROBLEM_JSON, problem

NOSNIFF = ("X-Content-Type-Options", "nosniff")
CLOSE = ("Connection", "close")
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_WITH_BODY = frozenset(("POST", "PUT", "PATCH", "DELETE"))
_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
STATUS = {s.value: f"{s.value} {s.phrase}" for s in http.HTTPStatus}
# the limits a client shares with everyone behind its address (``RateLimited.bucket``): a
# seat refused by these alone exceeded no limit of its own, and RULES T-4 excuses the time
SHARED_LIMITS = frozenset(("requests", "games", "streams"))


class Answer:
    """A response as the pipeline makes it: status, headers, and the body (bytes, or an
    iterable of them for a stream, with what to do when the stream closes)."""

    __slots__ = ("status", "headers", "body", "on_close")

    def __init__(self, status: int, headers: list, body, on_close: Callable | None = None):
        self.status = status
        self.headers = headers
        self.body = body
        self.on_close = on_close


def json_answer(body, status: int = 200, headers: Iterable = (), ctype="application/json"):
    return Answer(status, [("Content-Type", ctype), *headers], orjson.dumps(body))


class Call:
    """One request as the pipeline has read it; handlers read it, never Flask's globals."""

    __slots__ = ("environ", "args", "services", "body", "query", "token", "address", "started",
                 "gate", "request_id", "app", "seat", "bill", "read_whole")  # fmt: skip

    def __init__(self, environ: dict, args: dict, services):
        self.environ = environ
        self.args = args
        self.services = services
        self.body = None  # the JSON value of the body, if it has one
        self.query: dict = {}  # the query's parameters, as the route's schema read them
        self.token: str | None = None  # the bearer token, if the route reads credentials
        self.address: str | None = None  # the client's address, if a limit needed it
        self.started = time.time()
        self.gate = None  # (the gate, the game) while the call holds a place in it
        self.request_id = request_id(environ.get("HTTP_X_REQUEST_ID"))
        self.seat: int | None = None  # the caller's seat, once a handler knows it (logs)
        self.app = None  # the app of the request's X-Api-Key (service.apps.App), if any
        self.bill = None  # its rate buckets (charged, or left to its game's first script)
        self.read_whole = False  # its body read to its end (``body.read_body``)

    def charge(self) -> None:
        """Charge the call's rate buckets now unless a game script has (a handler does so
        before it changes anything by other means: a stream's slot); 429 when refused."""
        if self.bill is not None and self.bill.charged is None:
            self.bill.limits.settle(self.bill)

    def leave_gate(self) -> None:
        """Give the game's gate back (the pipeline does at the end; a handler that is about
        to wait, a long-poll, does before its wait)."""
        if self.gate is not None:
            gate, game_id = self.gate
            self.gate = None
            gate.release(game_id)

    def header(self, name: str) -> str | None:
        return self.environ.get("HTTP_" + name.upper().replace("-", "_"))

    @property
    def method(self) -> str:
        return self.environ["REQUEST_METHOD"]


@dataclass(frozen=True, slots=True)
class Route:
    """One operation of the API and the stages of the pipeline it goes through."""

    name: str  # unique, and the OpenAPI operationId
    method: str
    path: str  # a werkzeug rule: /v1/games/<gid:game_id>/actions
    handler: Callable[[Call], Answer]
    body: str = "none"  # "none", "optional" or "required": a JSON body
    query: type[Schema] | None = None  # its query parameters (none: any is a 400)
    read_query: bool = True  # False: no query is read (a request no route takes)
    auth: bool = False  # reads the credentials (a seat's token)
    app_key: bool = False  # reads an app's API key (X-Api-Key)
    limits: tuple[str, ...] = ("requests",)  # its rate buckets (service.limits.rates)
    # its handler's first change goes through a load or append of the game, which on a
    # single Redis charges its buckets in the same call (``limits.pending``)
    charged_in_store: bool = False
    gated: bool = False  # works on the game of its path: takes a place in its gate
    streams: Callable[[Call], bool] | None = None  # a call of it that is a stream: no gate
    hot: bool = False  # matched in front of Flask's dispatch
    doc: dict | None = None  # its OpenAPI operation (None: not in the document)

    @property
    def template(self) -> str:
        """Its path as the OpenAPI document writes it (``/v1/games/{game_id}/actions``):
        the ``route`` of its metrics, access log lines and spans."""
        return openapi_path(self.path)


_RULE_PARAM = re.compile(r"(?<=/)<(?:(\w+):)?(\w+)>")  # a segment of a path


def openapi_path(rule: str) -> str:
    """A werkzeug rule's path in OpenAPI's syntax.

    >>> openapi_path("/v1/games/<gid:game_id>/states/<int:version>")
    '/v1/games/{game_id}/states/{version}'
    >>> openapi_path("<unmatched>")  # no route's: left as it is
    '<unmatched>'
    """
    return _RULE_PARAM.sub(r"{\2}", rule)


_access = logging.getLogger("spitlog.access")


def log_access(call: Call, route: Route, status: int, took_s: float) -> None:
    """One line per request (``SPITLOG_ACCESS_LOG``): what was asked and how it went;
    never a body."""
    _access.info("request", extra={
        "request_id": call.request_id, "method": call.environ.get("REQUEST_METHOD"),
        "route": route.template, "status": status, "duration_ms": round(took_s * 1000, 2),
        "game": call.args.get("game_id"), "seat": call.seat,
    })  # fmt: skip


def _replayed(answer: Answer) -> bool:
    return ("Idempotent-Replayed", "true") in answer.headers


def request_id(given: str | None) -> str:
    """The request's id: the client's ``X-Request-Id`` if it is 1-128 of
    ``[A-Za-z0-9._:-]`` (a UUID, a ULID, a trace id), else a new one.

    >>> request_id("8b1a9953-c461-4d2b-8bd1-6a6b5b0e2f7e")
    '8b1a9953-c461-4d2b-8bd1-6a6b5b0e2f7e'
    >>> request_id("two words").startswith("req_")
    True
    """
    if given and REQUEST_ID.fullmatch(given):
        return given
    return "req_" + secrets.token_hex(12)


class Pipeline:
    """The stages above, over the app's services (``app.Services``)."""

    def __init__(self, services):
        self.services = services
        s = services.settings
        self.limit = s.max_content_length
        self.body_timeout = s.body_timeout_s
        self.limits = services.limits if services.limits and services.limits.rate_limited else None
        # a request's buckets and its game in one script: one Redis, not a Cluster's slots
        store = services.store
        self.in_store = (
            self.limits is not None and not store.cluster and self.limits.r is store.r
        )  # fmt: skip
        self.gate = services.gate
        self.metrics = services.metrics
        self.cors = services.cors
        self.access = log_access if s.access_log else None

    def run(self, route: Route, environ: dict, args: dict) -> Answer:
        """The answer to one request of ``route`` (its path's ``args``); within its log
        context and, when tracing is on, its span."""
        call = Call(environ, args, self.services)
        bound = logs.bind(route=route.name, game=args.get("game_id"), request_id=call.request_id)
        try:
            if not telemetry.enabled():
                return self._run(route, call)
            parent = environ.get("HTTP_TRACEPARENT")
            attrs = {"http.route": route.template, "spitlog.game": args.get("game_id")}
            with telemetry.span(f"{environ.get('REQUEST_METHOD')} {route.template}",
                                {"traceparent": parent} if parent else None, **attrs):  # fmt: skip
                return self._run(route, call)
        finally:
            logs.reset(bound)

    def _run(self, route: Route, call: Call) -> Answer:
        t0 = time.perf_counter()
        environ, args = call.environ, call.args
        try:
            preflight = self.cors.preflight(environ)
            if preflight is not None:  # a browser asks before a cross-origin call
                answer = Answer(204, preflight, b"")
                return self._done(route, answer, call, t0, cors=False)
            method = environ["REQUEST_METHOD"]
            data, left = b"", None  # (left: the bill the game's first script charges)
            if method in _WITH_BODY:
                data = read_body(environ, self.limit, self.body_timeout)
                call.read_whole = True
                call.started = time.time()  # a window of refusal opens once it is read
            if route.auth:
                call.token = bearer(environ.get("HTTP_AUTHORIZATION"))
            key = api_key(environ.get("HTTP_X_API_KEY")) if route.app_key else None
            if self.limits is not None and route.limits:
                call.address = self.limits.address(environ)
                game_id = args.get("game_id") if call.token is not None else None
                call.bill = self.limits.bill(
                    route.limits, call.address, call.token, app_key=key is not None,
                    game_meta=None if game_id is None else self.services.store.meta_key(game_id),
                )  # fmt: skip
                # left to the handler's first game script, unless a key is to be looked up
                if (
                    call.bill is not None
                    and route.charged_in_store
                    and self.in_store
                    and (key is None)
                ):
                    left = call.bill
                elif call.bill is not None:
                    self.limits.settle(call.bill)  # 429 when refused
            if key is not None:
                call.app = self.services.apps.authenticate(key)
            if data or (method in _WITH_BODY and route.body == "required"):
                call.body = parse_json(data, media_ok=is_json(environ))
            if route.read_query and (route.query is not None or environ.get("QUERY_STRING")):
                call.query = _query(route, environ.get("QUERY_STRING", ""))
            if route.gated and not (route.streams is not None and route.streams(call)):
                game_id = args["game_id"]
                # a bill left to the game's script is settled by a call of its own
                # before the request would queue: the gate holds no request over its limits
                if self.gate.acquire(game_id, call.charge if call.bill is not None else None):
                    call.gate = (self.gate, game_id)
            with left_to_store(left):
                answer = route.handler(call)
            if call.bill is not None and call.bill.charged is None and _replayed(answer):
                # the first answer of a keyed action, given again: its charge is taken, but
                # it is answered whatever that comes to, never replaced by a 429 (the append
                # it answers may be the request's own, run by a script sent again after
                # its answer was lost, and already charged there)
                with contextlib.suppress(RateLimited):
                    call.charge()
            else:
                self._charge_left(call)
        except Exception as exc:  # noqa: BLE001 - every error gets its problem
            answer = self.refusal(self._failed(call, self._charge_left(call, exc)), call)
        finally:
            call.leave_gate()
        if call.bill is not None and call.bill.charged is not None and answer.status != 429:
            answer.headers.extend(call.bill.charged.headers())  # (a 429 has them already)
        return self._done(route, answer, call, t0)

    def _charge_left(self, call: Call, exc: BaseException | None = None):
        """Charge the call's bill if its handler ran no game script that did (it changed
        nothing, then): raises the 429 when refused (with ``exc``, the handler's error,
        answers the error to answer: the 429 instead, if refused)."""
        if exc is None:
            call.charge()
            return None
        try:
            call.charge()
        except Exception as refused:  # noqa: BLE001 - a 429, or the store failing
            return refused
        return exc

    def _failed(self, call: Call, exc: BaseException) -> BaseException:
        """The error to answer for ``exc``: a failed authentication (``failed_auth``: a
        credential refused) is charged to the client address's bucket of them, and to its
        request bucket if the request was charged to none (refused before its limits);
        when that refuses, the 429 is the answer instead (or the store's error if it
        failed)."""
        if self.limits is None or not getattr(exc, "failed_auth", False):
            return exc
        if call.address is None:
            call.address = self.limits.address(call.environ)
        uncharged = call.bill is None or call.bill.charged is None
        try:
            self.limits.failed(call.address, requests=uncharged)
        except Exception as refused:  # noqa: BLE001 - a 429, or the store failing
            return refused
        return exc

    def _done(self, route: Route, answer: Answer, call: Call, t0: float, cors=True) -> Answer:
        """The fields every answer carries; the answer counted and timed."""
        answer.headers.append(NOSNIFF)
        answer.headers.append(("X-Request-Id", call.request_id))
        if not call.read_whole and _has_body(call.environ):
            answer.headers.append(CLOSE)
        if cors:
            extra = self.cors.headers(call.environ)
            if extra:
                answer.headers = _merge_vary([*answer.headers, *extra])
        method = call.environ["REQUEST_METHOD"]
        took = time.perf_counter() - t0
        self.metrics.answered(method if method in _METHODS else "OTHER", route.template,
                              answer.status, took)  # fmt: skip
        if self.access is not None:
            self.access(call, route, answer.status, took)
        return answer

    def refusal(self, exc: BaseException, call: Call) -> Answer:
        """The problem+json answer of an error. A refusal of a seat's request on a game for
        no excess of its own (a 503; a 429 of its address's limits only: ``excused``; and
        the seat within its share of its address: ``over_share``) is remembered
        (``Deadlines.refused``): T-4 does not count against a seat the time the service
        kept it from acting (RULES T-4)."""
        status, body, headers = problem(exc)
        body["request_id"] = call.request_id
        if (call.token is not None and "game_id" in call.args and excused(exc, status)
                and not over_share(call)):  # fmt: skip
            retry = int(headers.get("Retry-After", "1"))
            with contextlib.suppress(Exception):  # the store may be what failed: answer anyway
                self.services.deadlines.refused(call.args["game_id"], call.token,
                                                call.started, time.time() + retry)  # fmt: skip
        return json_answer(body, status, headers.items(), PROBLEM_JSON)

    # ---------------------------------------------------------------- the two ways in

    def wsgi(self, route: Route, environ: dict, start_response, args: dict):
        """Serve ``route`` as a WSGI application (``app.Front``). A ``101`` (a WebSocket:
        ``channel``) runs its session (``Answer.body``) on the connection the server
        handed over, then tells the server the connection is done with (``taken``)."""
        answer = self.run(route, environ, args)
        if answer.status == 101:
            answer.body()
            raise taken(environ)
        if isinstance(answer.body, bytes):
            if answer.status not in (204, 304):  # none: a 304's would be its 200's (RFC 9110)
                answer.headers.append(("Content-Length", str(len(answer.body))))
            start_response(STATUS[answer.status], answer.headers)
            return [answer.body]
        start_response(STATUS[answer.status], answer.headers)
        if answer.on_close is not None:
            return ClosingIterator(answer.body, answer.on_close)
        return answer.body

    def view(self, route: Route):
        """The Flask view of ``route``."""
        from flask import Response, request

        def view(**args):
            answer = self.run(route, request.environ, args)
            resp = Response(answer.body, status=answer.status, headers=answer.headers)
            if answer.on_close is not None:
                resp.call_on_close(answer.on_close)
            return resp

        view.__name__ = route.name
        return view


def taken(environ: dict) -> BaseException:
    """What the server is told once a connection it handed over is done with: gunicorn
    closes it and writes nothing on ``StopIteration``; werkzeug's server takes a
    ``ConnectionError`` for a client gone."""
    if "gunicorn.socket" in environ:
        return StopIteration()
    return ConnectionAbortedError("the WebSocket is closed")


def excused(exc: BaseException, status: int) -> bool:
    """Whether an answer ``status`` to ``exc`` refused a seat for no excess of its own: a
    503 (the service busy), or a 429 whose refusing limits (``RateLimited.limits``) are all
    ones it shares with others (``SHARED_LIMITS``: its address's). A 429 that does not say
    which limit refused is the seat's."""
    if status == 503:
        return True
    if status != 429:
        return False
    refused = tuple(getattr(exc, "limits", None) or ())
    return bool(refused) and all(b in SHARED_LIMITS for b in refused)


def over_share(call: Call) -> bool:
    """Whether the call's seat sent more than its address may, by itself (its ``share``
    bucket, charged with the request, said so: ``limits.rates``): then a refusal of its
    address's limits is its own doing, and so is a 503 of its game's gate it helped to
    fill. Unknown (the request not charged: its store failed) is not over."""
    charged = call.bill.charged if call.bill is not None else None
    return charged is not None and "share" in charged.over


def _has_body(environ: dict) -> bool:
    """Whether the request declares a body (a length other than 0, or chunks)."""
    length = environ.get("CONTENT_LENGTH") or "0"
    return length != "0" or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


def _merge_vary(headers: list) -> list:
    """``headers`` with their ``Vary`` fields made one."""
    vary = [v for k, v in headers if k == "Vary"]
    if len(vary) < 2:
        return headers
    names = list(dict.fromkeys(n.strip() for v in vary for n in v.split(",")))
    return [(k, v) for k, v in headers if k != "Vary"] + [("Vary", ", ".join(names))]


MAX_PARAMETERS = 16  # more in one query string is a 400 (ours take at most three)


def _query(route: Route, qs: str) -> dict:
    """The query parameters of ``qs`` as ``route.query`` reads them; 400 for a parameter it
    does not take or one given twice."""
    try:
        pairs = parse_qsl(qs, keep_blank_values=True, max_num_fields=MAX_PARAMETERS)
    except ValueError:
        raise BadRequest({"_query": [f"at most {MAX_PARAMETERS} parameters"]}) from None
    raw = dict(pairs)
    if len(raw) < len(pairs):
        twice = sorted(k for k, n in Counter(k for k, _v in pairs).items() if n > 1)
        raise BadRequest({k: ["given more than once"] for k in twice})
    if route.query is None:
        raise BadRequest({k: ["unknown query parameter"] for k in raw})
    try:
        return schemas.reader(route.query).load(raw)
    except ValidationError as e:
        errors = {k: (["unknown query parameter"] if v == ["Unknown field."] else list(v))
                  for k, v in e.messages.items()}  # fmt: skip
        raise BadRequest(errors) from None
