"""Live answers: the SSE stream of a game's log and the long-polls (of a game's log, of a
seek), all waiting on the live hub (``store.live.Hub``: one subscription per watched game
or seek per process).

Each holds one of its client's stream slots (``limits.rates``) while it is open, and
frees it within a second of the client going away: the hub looks at every waiting
client's connection once a second and wakes the stream whose client closed it, instead
of its finding out at its next keep-alive write. Likewise each ends at once when the
process drains (``Services.drain``: SIGTERM, which wakes every wait): a long-poll answers
what it has, a stream sends a ``retry:`` hint and ends.
"""

import random
import socket
import time

import orjson

from ..reading import Reading
from ..store.connect import readable_now
from .pipeline import Answer, Call

_END_EVENTS = ("game_ended", "game_aborted")
PAGE = 500  # events a stream reads from the store at once
DRAIN_RETRY_MS = (250, 2500)  # a stream ended by a stopping process: reconnect within this
PRIVATE = [("Cache-Control", "private, no-cache"), ("Vary", "Authorization")]
NDJSON = "application/x-ndjson"


def client_socket(environ: dict):
    """The client's connection, if the server says (gunicorn, werkzeug), else None."""
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


def client_gone(environ: dict) -> bool:
    """Whether the client closed its connection (it would read as the end of the stream)."""
    sock = client_socket(environ)
    if sock is None:
        return False
    try:
        return readable_now(sock) and sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def _slot(call: Call, longest_s: float):
    """One of the client's stream slots (429 when it holds them all); the release."""
    limits = call.services.limits
    if limits is None:
        return _nothing
    call.charge()  # the request's rate buckets before its slot (if its load did not)
    address = call.address or limits.address(call.environ)
    return limits.open_stream(address, call.token, longest_s)


def _nothing() -> None:
    return None


def long_poll(call: Call, game_id: str, after: int, wait_s: float) -> None:
    """Wait up to ``wait_s`` for the log to grow past ``after`` (or the client to leave)."""
    hub = call.services.hub
    release = _slot(call, wait_s)
    try:
        end, sock = time.monotonic() + wait_s, client_socket(call.environ)
        while (left := end - time.monotonic()) > 0:
            if hub.wait(game_id, after, left, sock) or client_gone(call.environ):
                return
            if call.services.draining:
                return
    finally:
        release()


class SeekWaiter:
    """The waits of a seek's long-poll (``seeks.Waiter``), on the live hub. Its first wait
    takes one of the client's stream slots (429 when it holds them all), which ``release``
    frees; a client gone or the process draining ends the wait, and every later one
    (``over``)."""

    def __init__(self, call: Call, wait_s: float):
        self.call, self.wait_s = call, wait_s
        self.sock = client_socket(call.environ)
        self.over = False
        self._release = None

    def wait(self, seek_id: str, after: int, timeout_s: float) -> bool:
        call = self.call
        if self._release is None:
            self._release = _slot(call, self.wait_s)
        hub = call.services.hub
        end = time.monotonic() + timeout_s
        while (left := end - time.monotonic()) > 0:
            if hub.wait_seek(seek_id, after, left, self.sock):
                return True
            if client_gone(call.environ) or call.services.draining:
                self.over = True
                return False
        return False

    def release(self) -> None:
        if self._release is not None:
            self._release()
            self._release = None


def seek_long_poll(call: Call, seek_id: str, wait_s: float) -> dict:
    """The seek once it is no longer open, or after ``wait_s`` (or its client left)."""
    waiter = SeekWaiter(call, wait_s)
    try:
        return call.services.seeks.read(seek_id, call.token, wait_s, waiter)
    finally:
        waiter.release()


class SseFormat:
    """A stream's messages as Server-Sent Events: an event's ``id:`` is its version; a view
    is ``event: view``, with ``id:`` once the stream has sent every event up to it."""

    ctype = "text/event-stream; charset=utf-8"
    start = b"retry: 2000\n\n"
    keep_alive = b": keep-alive\n\n"

    @staticmethod
    def event(e: dict) -> bytes:
        return b"id: %d\ndata: %s\n\n" % (e["version"], orjson.dumps(e))

    @staticmethod
    def view(version: int, body: bytes, caught_up: bool = True) -> bytes:
        head = b"event: view\nid: %d\n" % version if caught_up else b"event: view\n"
        return head + b'data: {"version":%d,"state":%s}\n\n' % (version, body)

    @staticmethod
    def drained() -> bytes:  # reconnect (elsewhere) soon, not all at once
        return f"retry: {random.randint(*DRAIN_RETRY_MS)}\n\n".encode()


class NdjsonFormat:
    """A stream's messages as NDJSON: a JSON object a line, ``{"type": "event", "version",
    "event"}`` or ``{"type": "view", "version", "state"}``; an empty line keeps it alive."""

    ctype = NDJSON
    start = b""
    keep_alive = b"\n"

    @staticmethod
    def event(e: dict) -> bytes:
        return b'{"type":"event","version":%d,"event":%s}\n' % (e["version"], orjson.dumps(e))

    @staticmethod
    def view(version: int, body: bytes, caught_up: bool = True) -> bytes:
        return b'{"type":"view","version":%d,"state":%s}\n' % (version, body)

    @staticmethod
    def drained() -> bytes:
        return b""


def stream(
    call: Call, game, seat: int | None, after: int | None, *, views: bool = False,
    ndjson: bool = False,
) -> Answer:  # fmt: skip
    """The live stream: what is there after ``after``, then each append as it lands; 204
    once the game is over and the client has every event (EventSource stops there).

    With ``views``, the viewer's view of the game comes with it: first the view of the
    current version, then after each batch of events the view they lead to (one per
    version, from the process's ``ViewCache``). ``after`` None (no ``after`` and no
    ``Last-Event-ID``) starts a stream with views at the current version (a finished
    game's: its final view, then the stream ends). As SSE, or
    NDJSON with ``ndjson``."""
    svc = call.services
    hub, metrics = svc.hub, svc.metrics
    max_s, keep_s = svc.settings.sse_max_s, svc.settings.sse_keepalive_s
    public = game.state.over
    fresh = after is None  # with views: a stream of a finished game still sends its view
    if after is None:
        after = game.version if views else 0
    if public and after >= game.version and not (views and fresh):
        return Answer(204, list(PRIVATE), b"")
    fmt = NdjsonFormat if ndjson else SseFormat
    release = _slot(call, max_s)
    environ = call.environ
    sock = client_socket(environ)
    cache = svc.views

    known, pending = game, []  # the game as the stream knows it; the entries sent since

    def current(last: int, ended: bool):
        """(version, the view's JSON) of the game now, or None if it is behind ``last``:
        the game the stream knows moved on by the entries it sent (``Reading.moved_on``),
        else read anew (always at the end: the view shows the game's meta as it is then)."""
        nonlocal known
        sent = pending[:]
        pending.clear()
        if not (public or ended):
            moved = svc.reading.moved_on(known, sent)
            if moved is not None and moved.version == last:
                known = moved
                return last, cache.json(svc.reading, moved, seat)
        now = known = svc.reading.load(game.id)
        if now.version < last:
            return None
        return now.version, cache.json(svc.reading, now, seat)

    def stream():
        nonlocal known
        metrics.sse_open.inc()
        try:
            last = viewed = after
            head = fmt.start
            if views:
                viewed = game.version
                head += fmt.view(viewed, cache.json(svc.reading, game, seat), after >= viewed)
            if head:
                yield head
            now = time.monotonic()
            end, ping = now + max_s, now + keep_s
            # whether the log moved past ``last``: None (unknown: read the store), True
            # (the hub woke us: its message brought the entries, most often), False (no)
            moved = None
            while True:
                entries = hub.since(game.id, last) if moved else None
                more = False  # a full page from the store: there may be more
                if entries is None and moved is not False:
                    entries = svc.reading.entries(game, last, PAGE)
                    more = len(entries) >= PAGE
                if entries:  # the events, and the view they lead to, in one write
                    if any(d["type"] == "seat_taken" for _v, d in entries):
                        known = svc.reading.load(game.id)  # its record names the player now
                    out = [
                        fmt.event(e) for e in Reading.redacted(entries, seat, public, known.record)
                    ]
                    last = entries[-1][0]
                    if views:
                        pending.extend(e for e in entries if e[0] > known.version)
                    ended = any(d["type"] in _END_EVENTS for _v, d in entries)
                    more = more and not ended  # the end's page is the last
                    if views and not more and last > viewed:
                        try:
                            seen = current(last, ended)
                        except Exception:  # the store failing: the events go out first
                            yield b"".join(out)
                            raise
                        if seen is not None and seen[0] == last:
                            viewed = last
                            out.append(fmt.view(last, seen[1]))
                        elif seen is not None and seen[0] > last:
                            more = True  # events it shows are not sent yet: read them
                    yield b"".join(out)
                    if ended:
                        return
                    moved = None if more else False  # the next wait says if more came
                    continue
                now = time.monotonic()
                if svc.draining:
                    if drained := fmt.drained():
                        yield drained
                    return
                if public or now >= end or client_gone(environ):
                    return
                if now >= ping:
                    yield fmt.keep_alive
                    ping = now + keep_s
                moved = hub.wait(game.id, last, min(end - now, max(ping - now, 0.001)), sock)
        finally:
            metrics.sse_open.dec()

    headers = [("Content-Type", fmt.ctype), *PRIVATE, ("X-Accel-Buffering", "no")]
    return Answer(200, headers, stream(), on_close=release)
