"""The seat channel: ``GET /v1/games/{id}/live`` over WebSocket, and its tickets.

A browser cannot set ``Authorization`` on a WebSocket, so a seat first asks for a ticket
with its token (``POST /v1/games/{id}/tickets``): single use, ~30 s, bound to the game and
the seat. Only its SHA-256 names it in the store, and what it keeps there is the seat's
token sealed under the ticket itself (a key stream drawn from the ticket), so that the
store alone holds no usable credential. The client offers the subprotocols
``spitlog.v1`` and ``spitlog.ticket.<ticket>``; the server selects ``spitlog.v1``. No
ticket: a spectator. The ticket is never in a URL, nor logged.

The handshake is a request like any other (the pipeline: its address's rate, a game that
exists, a query it reads: ``?after=<version>``); its answer is the ``101`` and the session
that follows, run by ``Pipeline.wsgi`` once the pipeline is done with the request
(``Session.run``):

- ``hello`` (the viewer's view now), then, resuming (``after``), the events since in one
  ``events``; then one ``events`` with the viewer's new view after each append (a pusher
  waiting on the live hub, as the SSE stream does);
- each ``act`` goes through the pipeline of ``POST /v1/games/{id}/actions`` itself (a
  request made of the message: the seat's token, ``If-Match``, ``Idempotency-Key``):
  its limits, the game's gate, the version check, idempotency, the same answers;
- ``ping`` -> ``pong``.

The channel holds one of its client's stream slots (per address, and per seat token) while
it is open. Close codes: ``CLOSE_CODES``.
"""

import dataclasses
import hashlib
import io
import logging
import secrets
import threading
import time
from datetime import UTC, datetime

import gevent
import orjson
from marshmallow import ValidationError

from ..errors import BadRequest, CannotUpgrade, RateLimited, Unauthorized, UpgradeRequired
from . import routes, schemas, websocket
from .pipeline import Answer, Call, Route, json_answer
from .problems import problem

log = logging.getLogger(__name__)

TICKET_PREFIX = "spitlog.ticket."
TICKET_TTL_S = 30
CLOSE_CODES = {
    1000: "the game is over: every event and the final view were sent",
    1008: "policy: a ticket unknown, used or expired; too many open streams for the address "
    "or the seat; frames or bytes over the connection's rate; a send queue full (the "
    "client reads too slowly)",
    1009: "a message over the size limit (`SPITLOG_MAX_CONTENT_LENGTH`)",
    1011: "the server failed: reconnect and resume with `?after=<version>`",
    1012: "the server restarts: reconnect and resume with `?after=<version>`",
    4000: "open for `SPITLOG_SSE_MAX_S`: reconnect and resume with `?after=<version>`",
}
BYTES_PER_S = 65_536  # what a client may send, sustained ...
BYTES_BURST = 1 << 20  # ... and at once
PATH = routes.GAME + "/live"


# ---------------------------------------------------------------- tickets


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


def _stream(ticket: str, n: int) -> bytes:
    return hashlib.shake_256(b"spitlog-ticket\0" + ticket.encode()).digest(n)


def seal(token: str, ticket: str) -> bytes:
    """``token`` sealed under ``ticket`` (a one-time key stream: each ticket is new)."""
    raw = token.encode()
    return bytes(a ^ b for a, b in zip(raw, _stream(ticket, len(raw)), strict=True))


def unseal(sealed: bytes, ticket: str) -> str:
    return bytes(a ^ b for a, b in zip(sealed, _stream(ticket, len(sealed)), strict=True)).decode()


def tickets(call: Call) -> Answer:
    """A ticket for the seat of the request's token (401 without one)."""
    svc = call.services
    game = svc.reading.load(call.args["game_id"])
    if call.token is None:
        raise Unauthorized("a ticket is a seat's: send its token as Authorization: Bearer")
    call.seat = svc.tokens.seat(game, call.token, required=True)
    ticket = secrets.token_urlsafe(32)
    svc.store.put_ticket(game.id, _digest(ticket), seal(call.token, ticket), TICKET_TTL_S * 1000)
    until = datetime.fromtimestamp(time.time() + TICKET_TTL_S, UTC)
    body = {
        "ticket": ticket,
        "expires_at": until.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "protocols": [websocket.SUBPROTOCOL, TICKET_PREFIX + ticket],
    }
    return json_answer(body, 201, routes.NO_STORE)


# ---------------------------------------------------------------- the handshake


def live(call: Call) -> Answer:
    """The handshake: refused over HTTP when it is not one, or the game does not exist;
    else the ``101`` and the session (``Session.run``)."""
    environ = call.environ
    if not websocket.is_handshake(environ):
        raise UpgradeRequired("this path is a WebSocket (Upgrade: websocket; see asyncapi.yaml)")
    svc = call.services
    game = svc.reading.load(call.args["game_id"])  # 404
    protocol, response = websocket.check(environ, svc.settings.max_content_length)
    if response.status_code != 101:
        why = response.body.decode(errors="replace").strip() or response.reason_phrase
        raise BadRequest({"Sec-WebSocket-Key": [why]}, detail="not a valid WebSocket handshake")
    if websocket.server_socket(environ) is None:
        raise CannotUpgrade("this server cannot hand its connection over to a WebSocket")
    ticket = next((p[len(TICKET_PREFIX) :] for p in websocket.offered(environ)
                   if p.startswith(TICKET_PREFIX)), None)  # fmt: skip
    session = Session(call, game.id, protocol, response, ticket, call.query.get("after"))
    return Answer(101, [], session.run)


class _Bucket:
    """A token bucket of one connection (no store: the connection is this process's)."""

    __slots__ = ("rate", "burst", "level", "at")

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.level, self.at = rate, burst, burst, time.monotonic()

    def take(self, n: float = 1.0) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < n:
            return False
        self.level -= n
        return True


class Session:
    """One open channel (the module's doc)."""

    def __init__(self, call: Call, game_id: str, protocol, response, ticket, after):
        self.svc = call.services
        self.environ = call.environ
        self.address = call.address
        self.game_id, self.protocol, self.response = game_id, protocol, response
        self.ticket, self.after = ticket, after
        self.seat: int | None = None
        self.token: str | None = None
        self.ws: websocket.Socket | None = None
        self.last = 0  # the version the client has every event up to
        self.known = None  # the game as the pusher knows it (``Reading.moved_on``)
        s = self.svc.settings
        self.frames = _Bucket(s.live_frames_per_s, max(2 * s.live_frames_per_s, 10))
        self.bytes = _Bucket(BYTES_PER_S, BYTES_BURST)
        self.excess = 0  # frames over the rate
        self.excess_max = max(int(2 * s.live_frames_per_s), 10)

    # ---------------------------------------------------------------- the session

    def run(self) -> None:
        """The session, in the request's greenlet (thread), until the connection ends."""
        svc = self.svc
        ws = self.ws = websocket.Socket.accept(
            self.environ, self.protocol, self.response, svc.settings.live_queue_bytes
        )
        ws.on_frame, ws.on_bytes = self._frame, self._bytes
        release, pusher = None, None
        svc.metrics.live_open.inc()
        try:
            if not self._redeem():
                return self._finish()
            release = self._slot()
            if release is None:
                return self._finish()
            game = svc.reading.load(self.game_id)
            self._hello(game)
            if game.state.over:
                ws.close(1000, "game over")
            else:
                pusher = _spawn(self._push)
            for data, within in ws.messages():
                self._message(data, within)
        except Exception:  # noqa: BLE001 - the store failing, a bug: the client resumes
            log.exception("the seat channel of %s failed", self.game_id)
            ws.close(1011, "server error: reconnect and resume")
        finally:
            if pusher is not None:
                _stop(pusher)
            if release is not None:
                release()
            self._finish()
            svc.metrics.live_open.dec()
            svc.metrics.live_closed.labels(str(ws.close_code or "none")).inc()

    def _finish(self) -> None:
        """Wait for the close to be answered (or time out), then let the connection go."""
        for _message in self.ws.messages():
            pass

    def _redeem(self) -> bool:
        """The ticket's seat and token (none offered: a spectator); False (the channel
        closed, 1008) if it is unknown, used or expired, or its seat is no longer its."""
        if self.ticket is None:
            return True
        svc = self.svc
        sealed = None
        if 0 < len(self.ticket) <= 128:
            sealed = svc.store.take_ticket(self.game_id, _digest(self.ticket))
        try:
            if sealed is None:
                raise Unauthorized("ticket unknown, used or expired")
            token = unseal(sealed, self.ticket)
            self.seat = svc.tokens.seat(svc.reading.load(self.game_id), token, required=True)
        except (Unauthorized, UnicodeDecodeError) as e:
            self.ws.close(1008, f"ticket refused: {getattr(e, 'detail', 'unreadable')}")
            return False
        self.token = token
        return True

    def _slot(self):
        """One of the client's stream slots (address, seat), or None: the channel closed
        (1008) because it has none left."""
        limits = self.svc.limits
        if limits is None:
            return _nothing
        address = self.address or limits.address(self.environ)
        try:
            return limits.open_stream(address, self.token, self.svc.settings.sse_max_s)
        except RateLimited as e:
            self.ws.close(1008, e.detail[:120])
            return None

    def _hello(self, game) -> None:
        svc, seat = self.svc, self.seat
        state = svc.views.json(svc.reading, game, seat)
        self.ws.send_text(b'{"op":"hello","version":%d,"seat":%s,"state":%s}'
                          % (game.version, orjson.dumps(seat), state))  # fmt: skip
        self.last, self.known = game.version, game
        if self.after is not None and self.after < game.version:
            # up to the hello's version: what came after is the pusher's to send
            entries = svc.reading.entries(game, self.after, upto=game.version)
            self._events(game, entries, state)

    def _events(self, game, entries, state: bytes) -> None:
        events = self.svc.reading.redacted(entries, self.seat, game.state.over, game.record)
        self.ws.send_text(b'{"op":"events","version":%d,"events":%s,"state":%s}'
                          % (game.version, orjson.dumps(events), state))  # fmt: skip

    def _push(self) -> None:
        """The pusher: after each append, the events since the last sent and the new view;
        a ping each keep-alive period; 1012 when the process drains, 4000 at the end of
        its time, 1000 once the game is over."""
        svc, ws, hub = self.svc, self.ws, self.svc.hub
        s = svc.settings
        end = time.monotonic() + s.sse_max_s
        step = s.sse_keepalive_s if websocket.green() else min(1.0, s.sse_keepalive_s)
        ping = time.monotonic() + s.sse_keepalive_s
        try:
            while ws.open:
                if svc.draining:
                    ws.close(1012, "service restart: reconnect and resume with ?after")
                    return
                now = time.monotonic()
                if now >= end:
                    ws.close(4000, "time up: reconnect and resume with ?after")
                    return
                if now >= ping:
                    ws.ping()
                    ping = now + s.sse_keepalive_s
                if not hub.wait(self.game_id, self.last, min(step, end - now, ping - now)):
                    continue
                entries = hub.since(self.game_id, self.last)
                game = svc.reading.moved_on(self.known, entries) if entries else None
                if game is None:  # not told by the hub, or the game's record changed
                    game = svc.reading.load(self.game_id)
                    if not entries or entries[-1][0] < game.version:
                        entries = svc.reading.entries(game, self.last)
                    entries = [e for e in entries if e[0] <= game.version]
                self.known = game
                if game.version <= self.last or not ws.open:
                    continue
                self._events(game, entries, svc.views.json(svc.reading, game, self.seat))
                self.last = game.version
                if game.state.over:
                    ws.close(1000, "game over")
                    return
        except gevent.GreenletExit:
            raise
        except Exception:  # noqa: BLE001 - the store failing: the client resumes
            log.exception("the seat channel of %s could not push", self.game_id)
            ws.close(1011, "server error: reconnect and resume with ?after")

    # ---------------------------------------------------------------- the client's messages

    def _frame(self) -> bool:
        if self.frames.take():
            return True
        self.excess += 1
        self.svc.metrics.live_frames_refused.inc()
        if self.excess > self.excess_max:
            self.ws.close(1008, "too many frames")
        return False

    def _bytes(self, n: int) -> None:
        if not self.bytes.take(n):
            self.ws.close(1008, "too many bytes")

    def _message(self, data: bytes, within: bool) -> None:
        if not self.ws.open:
            return
        mid = None
        try:
            msg = orjson.loads(data)
            mid = msg.get("id") if isinstance(msg, dict) else None
            mid = mid if isinstance(mid, str) and 0 < len(mid) <= 128 else None
            if not within:
                raise RateLimited("too many frames on this channel: slow down", wait_s=1.0,
                                  limits=("frames",))  # fmt: skip
            op = msg.get("op") if isinstance(msg, dict) else None
            if op == "act":
                return self._act(mid, schemas.reader(schemas.ActMessage).load(msg))
            if op == "ping":
                schemas.reader(schemas.PingMessage).load(msg)
                return self.ws.send_text(b'{"op":"pong","id":%s}' % orjson.dumps(mid))
            raise BadRequest({"op": ['one of "act", "ping"']})
        except orjson.JSONDecodeError:
            exc = BadRequest({"_body": ["not JSON"]})
        except ValidationError as e:
            exc = BadRequest(schemas._flatten(e.messages))
        except Exception as e:  # noqa: BLE001 - every refusal is a problem message
            exc = e
        status, body, headers = problem(exc)
        self._problem(mid, status, orjson.dumps(body), headers.get("Retry-After"))

    def _problem(self, mid, status: int, body: bytes, retry_after) -> None:
        extra = b',"retry_after":%d' % int(retry_after) if retry_after else b""
        self.ws.send_text(b'{"op":"problem","id":%s,"status":%d,"problem":%s%s}'
                          % (orjson.dumps(mid), status, body, extra))  # fmt: skip

    def _act(self, mid: str, msg: dict) -> None:
        """The action through ``POST /v1/games/{id}/actions``' own pipeline (``ACT``)."""
        body = orjson.dumps(msg["action"])
        env = {
            "REQUEST_METHOD": "POST", "PATH_INFO": f"/v1/games/{self.game_id}/actions",
            "QUERY_STRING": "", "SERVER_PROTOCOL": "HTTP/1.1",
            "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body), "REMOTE_ADDR": self.environ.get("REMOTE_ADDR", "-"),
        }  # fmt: skip
        forwarded = self.environ.get("HTTP_X_FORWARDED_FOR")
        if forwarded is not None:
            env["HTTP_X_FORWARDED_FOR"] = forwarded
        if self.token is not None:
            env["HTTP_AUTHORIZATION"] = "Bearer " + self.token
        if "expected_version" in msg:
            env["HTTP_IF_MATCH"] = f'"{msg["expected_version"]}"'
        if "idempotency_key" in msg:
            env["HTTP_IDEMPOTENCY_KEY"] = msg["idempotency_key"]
        answer = self.svc.pipeline.run(ACT, env, {"game_id": self.game_id})
        if answer.status < 300:
            again = ("Idempotent-Replayed", "true") in answer.headers
            self.ws.send_text(b'{"op":"result","id":%s,"status":%d,"body":%s%s}' % (
                orjson.dumps(mid), answer.status, answer.body,
                b',"replayed":true' if again else b""))  # fmt: skip
            return
        retry = next((v for k, v in answer.headers if k == "Retry-After"), None)
        self._problem(mid, answer.status, answer.body, retry)


def _nothing() -> None:
    return None


def _spawn(fn):
    if websocket.green():
        return gevent.spawn(fn)
    thread = threading.Thread(target=fn, name="live-pusher", daemon=True)
    thread.start()
    return thread


def _stop(worker) -> None:
    """The pusher ends (a greenlet killed; a thread ends at its next look, within 1 s)."""
    if isinstance(worker, gevent.Greenlet):
        worker.kill(block=False)


def asyncapi_document(call: Call) -> Answer:
    return Answer(200, [("Content-Type", "application/yaml")], call.services.asyncapi_yaml())


# ``POST /v1/games/{id}/actions``' route, as the channel runs it: the same stages and
# handler; counted and logged under the channel's path
ACT = dataclasses.replace(next(r for r in routes.ROUTES if r.name == "act"), path=PATH)

ROUTES: tuple[Route, ...] = (
    Route(
        "asyncapi",
        "GET",
        "/asyncapi.yaml",
        asyncapi_document,
        doc=routes._op(
            "The AsyncAPI 3.0 document of the live path (the seat channel, the streams)",
            tag="ops",
            responses={
                "200": {
                    "description": "AsyncAPI 3.0",
                    "content": {"application/yaml": {"schema": {"type": "object"}}},
                }
            },
        ),
    ),
    Route(
        "ticket",
        "POST",
        routes.GAME + "/tickets",
        tickets,
        auth=True,
        gated=True,
        charged_in_store=True,
        doc=routes._op(
            "A ticket for your seat's WebSocket channel (`GET /v1/games/{id}/live`)",
            "Single use, for about 30 s, bound to this game and your seat. Offer "
            "`spitlog.v1` and `spitlog.ticket.<ticket>` as the WebSocket's subprotocols "
            "(a browser cannot send `Authorization` on a WebSocket; a ticket is never put in "
            "a URL). The channel's messages: asyncapi.yaml.",
            security=routes.SEAT_REQUIRED,
            responses={
                **routes._ok(201, schemas.TicketSchema),
                **routes._problems(401, 403, 404, 429),
            },  # fmt: skip
        ),
    ),
    Route(
        "live",
        "GET",
        PATH,
        live,
        query=schemas.LiveQuery,
        hot=True,
        doc=routes._op(
            "The seat channel: a WebSocket (asyncapi.yaml) of views and events in, actions out",
            "`Upgrade: websocket`, subprotocols `spitlog.v1` and, for a seat, "
            "`spitlog.ticket.<ticket>` (`POST /v1/games/{id}/tickets`); none: a spectator. "
            "`?after=<version>` resumes: the events since follow `hello`. Each `act` is "
            "`POST /v1/games/{id}/actions`, with the same limits, checks and answers. Close "
            "codes: "
            + "; ".join(f"`{c}` {w}" for c, w in CLOSE_CODES.items())
            + ". Refused over HTTP before the upgrade: 400 (a bad handshake or `after`), 404, "
            "426 (no `Upgrade`), 429 (the address's requests).",
            responses={
                "101": {"description": "Switching Protocols: the channel (asyncapi.yaml)"},
                **routes._problems(400, 404, 426, 429),
            },
        ),
    ),
)
