"""A WebSocket connection taken over from gunicorn's gevent worker and driven on websockets'
sans-I/O protocol (``websockets.server.ServerProtocol``): the shape that
docs/decisions/0032-websocket-library.md chose, as bench/bench_ws.py measures it (its
``poc`` server). Not used by the service.

- ``Channel.accept(environ)`` answers the opening handshake on the request's own socket
  (``environ["gunicorn.socket"]``), selecting ``spitlog.v1`` from the offered
  subprotocols; ``offered(environ)`` gives every offered value (the ticket among them).
- ``Channel.messages()`` runs in the request's greenlet and yields each text message
  (bytes, whole, at most ``max_size`` bytes: a larger one closes with 1009 before its
  payload is read); pings are answered, a close is echoed, a client that vanishes ends it.
- ``Channel.send_text(data)`` never blocks its caller (the greenlet of another connection
  broadcasting a view): what the kernel takes at once is sent from the caller, the rest
  waits in a queue of at most ``queue_bytes`` that a writer greenlet drains; past that
  budget, the frames not yet started are dropped and the connection closes (1008, after
  the frame under way); after ``send_timeout`` seconds without progress, it is dropped.
"""

import collections
import contextlib
import errno
import socket

import gevent
from websockets.datastructures import Headers
from websockets.frames import Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

SUBPROTOCOL = "spitlog.v1"
MAX_SIZE = 64 * 1024  # bytes of a message from the client
QUEUE_BYTES = 256 * 1024  # bytes waiting for a client beyond what the kernel holds
SNDBUF = 128 * 1024  # the kernel's send buffer of the connection (fixed: no autotuning)
SEND_TIMEOUT_S = 10.0  # a queue that does not move for this long closes the connection
CLOSE_TIMEOUT_S = 5.0  # after a close frame, the client has this long to close its end
_AGAIN = (errno.EAGAIN, errno.EWOULDBLOCK)


def offered(environ: dict) -> list[str]:
    """The subprotocols the client offered, in its order."""
    raw = environ.get("HTTP_SEC_WEBSOCKET_PROTOCOL", "")
    return [p.strip() for p in raw.split(",") if p.strip()]


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


def handshake(protocol: ServerProtocol, environ: dict) -> Request:
    """The opening handshake gunicorn parsed, given to ``protocol`` as its bytes (its parser
    then reads frames), and as it parsed it."""
    protocol.receive_data(_request(environ).serialize())
    (request,) = protocol.events_received()
    return request


class Channel:
    """One accepted WebSocket connection (the module's doc)."""

    def __init__(self, sock, protocol: ServerProtocol, queue_bytes: int, send_timeout: float):
        self.sock, self.protocol = sock, protocol
        self.queue_bytes, self.timeout = queue_bytes, send_timeout
        self.queue: collections.deque = collections.deque()  # bytes; b"" ends the sending side
        self.queued = 0  # bytes in the queue
        self.head_started = False  # part of the queue's first frame is sent
        self.writer = None  # the greenlet draining the queue, while it has something
        self.gone = False
        self.dropped = None  # why the connection was dropped, if it was

    @classmethod
    def accept(
        cls,
        environ: dict,
        *,
        max_size: int = MAX_SIZE,
        queue_bytes: int = QUEUE_BYTES,
        sndbuf: int = SNDBUF,
        send_timeout: float = SEND_TIMEOUT_S,
    ):
        """(the channel, None) once the 101 is sent, or (None, the refusal: a websockets
        ``Response`` for the app to answer over WSGI) when the handshake is not valid."""
        protocol = ServerProtocol(select_subprotocol=_select, max_size=max_size)
        response: Response = protocol.accept(handshake(protocol, environ))
        if response.status_code != 101:
            return None, response
        protocol.send_response(response)
        sock = environ["gunicorn.socket"]
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        channel = cls(sock, protocol, queue_bytes, send_timeout)
        channel._flush()
        return channel, None

    # ---------------------------------------------------------------- receiving

    def messages(self):
        """Each text (or binary) message the client sends, whole, until the connection
        ends; then the socket is closed."""
        parts: list[bytes] = []
        try:
            while not self.gone:
                try:
                    if self.protocol.close_expected():
                        data = None
                        with gevent.Timeout(CLOSE_TIMEOUT_S, False):
                            data = self.sock.recv(65536)
                        if data is None:  # no close from the client in time
                            break
                    else:
                        data = self.sock.recv(65536)
                except OSError:
                    data = b""
                if data:
                    self.protocol.receive_data(data)
                else:
                    self.protocol.receive_eof()
                for frame in self.protocol.events_received():
                    if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                        if frame.fin and not parts:
                            yield frame.data
                        elif frame.fin:
                            parts.append(frame.data)
                            yield b"".join(parts)
                            parts.clear()
                        else:
                            parts.append(frame.data)
                self._flush()  # pongs, the close's echo, a 1009
                if not data or self.protocol.state is State.CLOSED:
                    break
        finally:
            self._drop()

    # ---------------------------------------------------------------- sending

    def send_text(self, data: bytes) -> bool:
        """Sends ``data`` (UTF-8) as a text message without blocking; False if the
        connection is closing or gone, or if this send put it over its budget (it then
        closes: ``_overflow``)."""
        if self.gone or self.protocol.state is not State.OPEN:
            return False
        self.protocol.send_text(data)
        return self._flush()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Starts the closing handshake (the client's close ends ``messages``)."""
        if not self.gone and self.protocol.state is State.OPEN:
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
                sent = self.sock.send(data, 0, 0.0)  # what the kernel takes now
            except OSError as e:
                if e.errno not in _AGAIN:
                    self._drop()
                    return False
                sent = 0
            if sent == len(data):
                return True
            data = data[sent:]
            self.head_started = sent > 0
        self.queue.append(data)
        self.queued += len(data)
        if self.writer is None:
            self.writer = gevent.spawn(self._drain)
        if self.queued > self.queue_bytes and self.dropped is None:
            self._overflow()
            return False
        return True

    def _overflow(self) -> None:
        """The client reads too slowly: the frames not yet started are dropped, the one
        under way is finished, then a close (1008) and the end of the connection, all
        within ``CLOSE_TIMEOUT_S``; the reader ends with it."""
        self.dropped = "send queue full"
        keep = [self.queue[0]] if self.head_started else []
        self.protocol.fail(1008, self.dropped)
        self.queue = collections.deque(keep + self.protocol.data_to_send())
        self.queued = sum(len(d) for d in self.queue)
        self.timeout = CLOSE_TIMEOUT_S

    def _drain(self) -> None:
        try:
            while self.queue and not self.gone:
                data = self.queue[0]
                if data == b"":
                    self.queue.popleft()
                    self._shutdown(socket.SHUT_WR)
                    continue
                sent = self.sock.send(data, 0, self.timeout)
                self.queued -= sent
                if sent == len(data):
                    self.queue.popleft()
                    self.head_started = False
                else:
                    self.queue[0] = data[sent:]
                    self.head_started = True
        except OSError as e:  # the client gone, or not reading for the timeout
            if isinstance(e, TimeoutError) and self.dropped is None:
                self.dropped = "send timeout"
            self._drop()
        finally:
            self.writer = None
        if self.dropped is not None:
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
        self._shutdown(socket.SHUT_RDWR)
        if self.writer is not None and self.writer is not gevent.getcurrent():
            self.writer.kill(block=False)
