"""A WebSocket connection on the request's own socket, through websockets' sans-I/O protocol
(``websockets.server.ServerProtocol``; docs/decisions/0032-websocket-library.md).

The server that parsed the handshake hands its socket over: gunicorn's gevent worker
(``environ["gunicorn.socket"]``, ``spitlog serve``) or werkzeug's threaded server
(``environ["werkzeug.socket"]``, ``spitlog dev``). ``Socket.accept`` answers the handshake
(``101``, selecting ``spitlog.v1``), then:

- ``messages()`` runs in the request's greenlet (thread) and yields each text message
  whole, at most ``max_size`` bytes (a larger one closes with 1009 on its header, before
  its payload is read); pings are answered and a close echoed by the protocol; every
  chunk read is first passed to ``on_bytes`` (which may close the connection: a flood);
  a client that vanishes, even mid-frame, ends it.
- ``send_text(data)`` never blocks its caller: what the kernel takes at once is sent from
  the caller, the rest waits in a queue of at most ``queue_bytes`` that a writer drains;
  past that budget the frames not yet started are dropped, the one under way finished,
  and the connection closes (1008); a queue that does not move for ``send_timeout``
  seconds drops the connection.

Every use of the protocol and the socket's sending side is under one lock: the reader,
the channel's pusher and the writer each send (results, views, the writer's drain).
"""

import collections
import contextlib
import errno
import logging
import select
import socket
import threading

from gevent import monkey
from websockets.datastructures import Headers
from websockets.frames import Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

SUBPROTOCOL = "spitlog.v1"
SEND_TIMEOUT_S = 10.0  # a send queue that does not move for this long drops the connection
CLOSE_TIMEOUT_S = 5.0  # after our close frame, the client has this long to close its end
_AGAIN = (errno.EAGAIN, errno.EWOULDBLOCK)
# the protocol's own log: its debug lines would show the handshake (a ticket among the
# subprotocols) and its info lines say each connection opened and closed; warnings only
PROTOCOL_LOG = logging.getLogger(__name__ + ".protocol")
PROTOCOL_LOG.setLevel(logging.WARNING)


def green() -> bool:
    """Whether this process runs on gevent (gunicorn's gevent worker patches it)."""
    return monkey.is_module_patched("socket")


def offered(environ: dict) -> list[str]:
    """The subprotocols the client offered, in its order."""
    raw = environ.get("HTTP_SEC_WEBSOCKET_PROTOCOL", "")
    return [p.strip() for p in raw.split(",") if p.strip()]


def is_handshake(environ: dict) -> bool:
    """Whether the request asks for a WebSocket (``Upgrade: websocket``)."""
    return "websocket" in environ.get("HTTP_UPGRADE", "").lower()


def server_socket(environ: dict):
    """The connection the server hands over, or None (a server that cannot: a test's)."""
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


def _select(_protocol, subprotocols):
    return SUBPROTOCOL if SUBPROTOCOL in subprotocols else None


def _request(environ: dict) -> Request:
    headers = Headers()
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers[key[5:].replace("_", "-")] = value
    path = environ.get("PATH_INFO", "/")
    if environ.get("QUERY_STRING"):
        path += "?" + environ["QUERY_STRING"]
    return Request(path, headers)


def check(environ: dict, max_size: int) -> tuple[ServerProtocol, Response]:
    """The protocol and its answer to the handshake gunicorn (werkzeug) parsed: a ``101``
    to send, or a refusal (400, 426) to answer over HTTP instead."""
    protocol = ServerProtocol(select_subprotocol=_select, max_size=max_size, logger=PROTOCOL_LOG)
    protocol.receive_data(_request(environ).serialize())
    (request,) = protocol.events_received()
    return protocol, protocol.accept(request)


def _send_now(sock, data: bytes) -> int:
    """What the kernel takes of ``data`` at once (0 if nothing), never waiting."""
    try:
        if green():
            return sock.send(data, 0, 0.0)
        return sock.send(data, socket.MSG_DONTWAIT)
    except OSError as e:
        if e.errno in _AGAIN:
            return 0
        raise


def _writable(sock, timeout_s: float) -> bool:
    _r, w, _x = select.select([], [sock], [], timeout_s)
    return bool(w)


class Socket:
    """One accepted WebSocket connection (the module's doc)."""

    def __init__(self, sock, protocol: ServerProtocol, queue_bytes: int):
        self.sock, self.protocol = sock, protocol
        self.queue_bytes, self.timeout = queue_bytes, SEND_TIMEOUT_S
        self.lock = threading.RLock()
        self.queue: collections.deque = collections.deque()  # bytes; b"" ends the sending side
        self.queued = 0  # bytes in the queue
        self.head_started = False  # part of the queue's first frame is sent
        self.writer: threading.Thread | None = None  # draining the queue, while it has some
        self.gone = False
        self.dropped: str | None = None  # why the connection was dropped, if it was
        self.close_code: int | None = None  # the code of the close we sent, if we did
        self.on_bytes = None  # called with the size of each chunk read
        self.on_frame = None  # called for each frame received: False if over its rate

    @classmethod
    def accept(cls, environ: dict, protocol: ServerProtocol, response: Response,
               queue_bytes: int) -> "Socket":  # fmt: skip
        """Sends the ``101`` (``response``) on the request's socket."""
        sock = server_socket(environ)
        protocol.send_response(response)
        with contextlib.suppress(OSError):  # a fixed send buffer: the queue is the budget
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, max(queue_bytes, 4096))
        channel = cls(sock, protocol, queue_bytes)
        with channel.lock:
            channel._flush()
        return channel

    @property
    def open(self) -> bool:
        return not self.gone and self.protocol.state is State.OPEN

    # ---------------------------------------------------------------- receiving

    def messages(self):
        """(message, within its rate) for each text (or binary) message the client sends,
        whole, until the connection ends; then the connection is let go. Every frame, a
        control frame too, is passed to ``on_frame``: a message is within its rate if its
        last frame was."""
        parts: list[bytes] = []
        try:
            while not self.gone:
                data = self._recv()
                if data and self.on_bytes is not None:
                    self.on_bytes(len(data))  # (it may close the connection)
                with self.lock:
                    if data:
                        self.protocol.receive_data(data)
                    else:
                        self.protocol.receive_eof()
                    frames = self.protocol.events_received()
                    self._flush()  # pongs, the close's echo, a 1009
                    closed = self.protocol.state is State.CLOSED
                for frame in frames:
                    within = self.on_frame() if self.on_frame is not None else True
                    if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                        parts.append(frame.data)
                        if frame.fin:
                            yield (parts[0] if len(parts) == 1 else b"".join(parts)), within
                            parts.clear()
                if not data or closed:
                    break
        finally:
            self._drop()

    def _recv(self) -> bytes:
        """The next bytes from the client; b"" once it is gone (or, after our close, once
        it has not closed in ``CLOSE_TIMEOUT_S``)."""
        try:
            if self.protocol.close_expected() or self.dropped is not None:
                r, _w, _x = select.select([self.sock], [], [], CLOSE_TIMEOUT_S)
                if not r:
                    return b""
            return self.sock.recv(65536)
        except OSError:
            return b""

    # ---------------------------------------------------------------- sending

    def send_text(self, data: bytes) -> bool:
        """Sends ``data`` (UTF-8 JSON) as a text message without blocking; False if the
        connection is closing or gone, or if this send put it over its budget (it then
        closes: ``_overflow``)."""
        with self.lock:
            if not self.open:
                return False
            self.protocol.send_text(data)
            return self._flush()

    def ping(self) -> None:
        """A ping (its pong keeps proxies and the client's end from closing it idle)."""
        with self.lock:
            if self.open:
                self.protocol.send_ping(b"")
                self._flush()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Starts the closing handshake (the client's close ends ``messages``)."""
        with self.lock:
            if self.open:
                self.close_code = code
                self.protocol.send_close(code, reason)
                self._flush()

    def _flush(self) -> bool:
        return all(self._write(data) for data in self.protocol.data_to_send())

    def _write(self, data: bytes) -> bool:
        if self.gone:
            return False
        if not self.queue and self.writer is None:
            if data == b"":
                self._shutdown(socket.SHUT_WR)
                return True
            try:
                sent = _send_now(self.sock, data)
            except OSError:
                self._drop()
                return False
            if sent == len(data):
                return True
            data = data[sent:]
            self.head_started = sent > 0
        self.queue.append(data)
        self.queued += len(data)
        if self.writer is None:
            self.writer = threading.Thread(target=self._drain, name="ws-writer", daemon=True)
            self.writer.start()
        if self.queued > self.queue_bytes and self.dropped is None:
            self._overflow()
            return False
        return True

    def _overflow(self) -> None:
        """The client reads too slowly: the frames not yet started are dropped, the one
        under way is finished, then a close (1008) and the end of the connection, within
        ``CLOSE_TIMEOUT_S``; the reader ends with it."""
        self.dropped = "send queue full"
        self.close_code = 1008
        keep = [self.queue[0]] if self.head_started else []
        self.protocol.fail(1008, "send queue full: read faster")
        self.queue = collections.deque(keep + self.protocol.data_to_send())
        self.queued = sum(len(d) for d in self.queue)
        self.timeout = CLOSE_TIMEOUT_S

    def _drain(self) -> None:
        """The writer: sends the queue as the client takes it."""
        try:
            while True:
                with self.lock:
                    if not self.queue or self.gone:
                        return
                    data = self.queue[0]
                    if data == b"":
                        self.queue.popleft()
                        self._shutdown(socket.SHUT_WR)
                        continue
                    sent = _send_now(self.sock, data)
                    self.queued -= sent
                    if sent == len(data):
                        self.queue.popleft()
                        self.head_started = False
                        continue
                    if sent:
                        self.queue[0] = data[sent:]
                        self.head_started = True
                        continue
                    timeout = self.timeout
                if not _writable(self.sock, timeout):  # (the lock is not held while waiting)
                    if self.dropped is None:
                        self.dropped = "send timeout"
                    self._drop()
                    return
        except OSError:  # the client gone
            self._drop()
        finally:
            with self.lock:
                self.writer = None
                if self.dropped is not None and not self.queue:
                    self._drop()  # the close sent: the reader waits for nothing more

    def _shutdown(self, how: int) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(how)

    def _drop(self) -> None:
        """Ends the connection now: its reader sees the end, its writer stops."""
        if self.gone:
            return
        self.gone = True
        self.queue.clear()
        self.queued = 0
        self._shutdown(socket.SHUT_RDWR)
