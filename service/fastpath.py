"""``POST /v1/games/{id}/actions``, the route every move of every game takes, served in
front of Flask's dispatch when the request is an ordinary one.

Why: under gunicorn with gevent workers, Flask's machinery around an action (request
and app contexts, routing, the hooks, signals) cost about as much CPU as the action
itself: 0.50 ms of server CPU an action through Flask against 0.39 ms here
(``bench/bench_service.py --part throughput``, the same machine, one after the other).

An ordinary request is a POST to exactly the route with a ``Content-Length`` body
within ``MAX_CONTENT_LENGTH``, ``Content-Type: application/json``, a bearer token, no
``If-Match``, an ``Idempotency-Key`` of 1..255 characters if any, and a body the rules
of a game read (an object of plain values). Everything else (every other route, and
any request that is not ordinary: chunked, not JSON, malformed, ``If-Match``...) goes to
Flask unchanged, with its body, and gets Flask's answer.

An ordinary request gets the answer Flask's view would give, made by the same calls:
the game's gate (``limits.GameGate``), the rate limits (called with the request and no
Flask context), ``Games.act``, ``api.answer_response`` for the answer and
``errors.problem`` (through ``app._handle``) for every error, then the metrics. One
difference of order: the body is read and parsed before the gate (Flask's path takes
the gate first), so a flood's refusals cost that parse outside the gate; bench/flood.py
measures the other games' p99 at 11-14 ms all the same. The app's request hooks and
error handlers are checked when the app is made to be the ones mirrored here.
tests/service/test_fastpath.py sends the same requests both ways and compares the
answers.
"""

import io
import re
import time

import orjson
from flask import Flask
from werkzeug.http import parse_options_header
from werkzeug.routing import Rule

from .api import _read_action, answer_response, bearer
from .app import _handle, rate_limit
from .limits import FLAT

_ROUTE = re.compile(r"/v1/games/(g_[0-9a-f]{16})/actions")


class FastActions:
    """WSGI middleware: ordinary actions here, the rest to ``wsgi_app`` (Flask's)."""

    def __init__(self, app: Flask, wsgi_app, *, gate, limiter, metrics):
        hooks = [app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs]
        hooks += [app.url_value_preprocessors, app.url_default_functions]
        handlers = [f for spec in app.error_handler_spec.values() for by_code in spec.values()
                    for f in by_code.values()]  # fmt: skip
        if (
            [len(h.get(None, ())) for h in hooks] != [1, 1, 1, 0, 0]
            or any(k is not None for h in hooks for k in h)
            or app.teardown_appcontext_funcs
            or any(f is not _handle for f in handlers)
        ):
            raise RuntimeError("the app's request hooks changed: mirror them in FastActions")
        self.flask = wsgi_app
        self.config = app.config
        self.games = app.extensions["spitlog"]["games"]
        self.gate, self.limiter, self.metrics = gate, limiter, metrics
        self.request_class = app.request_class
        self.rule: Rule = next(r for r in app.url_map.iter_rules() if r.endpoint == "games.Actions")

    def __call__(self, environ, start_response):
        m = _ROUTE.fullmatch(environ.get("PATH_INFO", ""))
        if m is None or environ.get("REQUEST_METHOD") != "POST":
            return self.flask(environ, start_response)
        t0 = time.perf_counter()  # as Flask's g.t0: the body's reading counts
        ordinary = self._ordinary(environ)
        if ordinary is None:
            return self.flask(environ, start_response)
        return self._act(environ, start_response, t0, m.group(1), *ordinary)

    def _ordinary(self, environ) -> tuple | None:
        """(token, Idempotency-Key, body, read) of an ordinary request, else None (with
        the body put back for Flask to read)."""
        if "HTTP_IF_MATCH" in environ or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        ctype = parse_options_header(environ.get("CONTENT_TYPE", ""))[0]  # as werkzeug reads it
        if ctype.lower() != "application/json":
            return None
        token = bearer(environ.get("HTTP_AUTHORIZATION"))
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        length = environ.get("CONTENT_LENGTH", "")
        if token is None or (key is not None and not 1 <= len(key) <= 255):
            return None
        if not (length.isascii() and length.isdigit()):
            return None
        n = int(length)
        limit = self.config.get("MAX_CONTENT_LENGTH")
        if limit is not None and n > limit:
            return None
        try:
            data = environ["wsgi.input"].read(n)
        except Exception:  # noqa: BLE001 - a client gone mid-body: Flask says what it says
            data = b""
        environ["wsgi.input"] = io.BytesIO(data)  # for Flask, if it is not ordinary after all
        if len(data) != n:
            return None
        try:
            body = orjson.loads(data)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(body, dict) or not all(type(v) in FLAT for v in body.values()):
            return None
        errors, read = _read_action(body)
        return None if errors else (token, key, body, read)

    def _act(self, environ, start_response, t0, game_id, token, key, body, read):
        held = False
        try:
            held = self.gate.acquire(game_id)
            if self.limiter is not None:
                req = self.request_class(environ)
                req.url_rule = self.rule
                rate_limit(self.limiter, req)
            answer = self.games.act(game_id, token, body, idem_key=key, read=read)
            response = answer_response(answer)
        except Exception as exc:  # noqa: BLE001 - every error gets its problem, as in Flask
            response = _handle(exc)
        finally:
            if held:
                self.gate.release(game_id)
        seconds = time.perf_counter() - t0
        self.metrics.answered("POST", self.rule.rule, response.status_code, seconds)
        return response(environ, start_response)
