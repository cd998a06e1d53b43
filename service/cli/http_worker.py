"""The gunicorn worker of ``spitlog serve``: gunicorn's gevent worker, and two things of its
own.

- An answer of the app that carries ``Connection: close`` ends its connection. gunicorn
  keeps an app's hop-by-hop fields out of the answer and would read the next request on
  the connection; the pipeline sends the field after a request whose body it did not
  read whole (a ``408``, a ``413``, a body that could not be read), where the next
  request would start is unknown, so that no byte of that body is ever served as a
  request of its own. The connection lingers before it closes (``linger``), so that the
  client gets the answer whole.
- The requests gunicorn refuses itself, before the app sees them, are answered in
  problem+json like every other error instead of gunicorn's HTML page: a request line,
  method, version or header it cannot parse (``400``), a request line over 4,094 bytes
  (``414``), header fields over their limits (``431``: more than 100, or one over
  8,190 bytes), an ``Expect`` it does not know (``417``), a transfer coding it does not
  implement (``501``). Each closes its connection (lingering), as gunicorn's own page did.
"""

import contextlib
import socket
import time

import orjson
from gunicorn import util
from gunicorn.http import errors
from gunicorn.workers.ggevent import GeventWorker

from ..http.pipeline import NOSNIFF, STATUS, request_id
from ..http.problems import PROBLEM_JSON, problem_type

# gunicorn's refusals: (its errors, status, problem type, title); any other error of its
# parser is a 400
_REFUSALS = (
    (errors.LimitRequestLine, 414, "uri-too-long", "URI too long"),
    (errors.LimitRequestHeaders, 431, "headers-too-large", "Request header fields too large"),
    (errors.UnsupportedTransferCoding, 501, "not-implemented", "Transfer coding not implemented"),
    (errors.ExpectationFailed, 417, "expectation-failed", "Expectation failed"),
)
DETAIL_MAX = 200  # characters of gunicorn's message a refusal's detail keeps
LINGER_S = 2.0  # a connection closed after an answer reads what still comes this long ...
LINGER_BYTES = 1 << 20  # ... and this much, at most


def refusal(exc: BaseException) -> tuple[int, bytes]:
    """The status and the whole HTTP answer (head and problem+json body) to a request
    gunicorn could not take: ``exc`` its error (anything but a parser's is a ``500``)."""
    found = [(s, slug, title) for kind, s, slug, title in _REFUSALS if isinstance(exc, kind)]
    if found:
        status, slug, title = found[0]
    elif isinstance(exc, errors.ParseException):
        status, slug, title = 400, "invalid-request", "Bad request"
    else:
        status, slug, title = 500, "internal", "Internal error"
    detail = str(exc)[:DETAIL_MAX] if status != 500 else "the server could not answer"
    rid = request_id(None)
    body = orjson.dumps({"type": problem_type(slug), "title": title, "status": status,
                         "detail": detail, "request_id": rid})  # fmt: skip
    head = (f"HTTP/1.1 {STATUS[status]}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
            f"{NOSNIFF[0]}: {NOSNIFF[1]}\r\nX-Request-Id: {rid}\r\n\r\n")  # fmt: skip
    return status, head.encode("latin-1") + body


def linger(sock) -> None:
    """End ``sock``'s sending side (the client reads the whole answer, then its end), then
    read and drop what the client still sends until it closes its side, for ``LINGER_S``
    and ``LINGER_BYTES`` at most: a socket closed with bytes unread resets its
    connection, and the client would lose the answer it had not read yet."""
    deadline, got = time.monotonic() + LINGER_S, 0
    with contextlib.suppress(OSError):  # the client gone, or its time up
        sock.shutdown(socket.SHUT_WR)
        while got < LINGER_BYTES and (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            data = sock.recv(16_384)
            if not data:
                break
            got += len(data)


class _Lingering:
    """An answer's body whose connection lingers (``linger``) once it is sent: gunicorn
    calls ``close`` after the last byte."""

    def __init__(self, body, sock):
        self.body, self.sock = body, sock

    def __iter__(self):
        return iter(self.body)

    def close(self) -> None:
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            if self.sock is not None:
                linger(self.sock)


def _closing(app):
    """``app`` (WSGI) under gunicorn: an answer with ``Connection: close`` has gunicorn
    close the connection after it (its ``Response.force_close``; gunicorn calls an app
    with the bound ``start_response`` of the request's response), which lingers first."""
    close = ("Connection", "close")

    def wsgi(environ, start_response):
        closing = False

        def start(status, headers, exc_info=None):
            nonlocal closing
            if close in headers:
                response = getattr(start_response, "__self__", None)
                if response is not None:
                    response.force_close()
                    closing = True
            return start_response(status, headers, exc_info)

        body = app(environ, start)
        return _Lingering(body, environ.get("gunicorn.socket")) if closing else body

    return wsgi


class Worker(GeventWorker):
    """gunicorn's gevent worker; its app's ``Connection: close`` closes, and its own
    refusals are problem+json (the module's doc)."""

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi.wsgi_app = _closing(self.wsgi.wsgi_app)  # Flask's: the app stays itself

    def handle_error(self, req, client, addr, exc) -> None:
        status, answer = refusal(exc)
        if status == 500:
            self.log.exception("Error handling request")
        else:
            ip = addr[0] if isinstance(addr, tuple) else addr
            self.log.warning("Invalid request from ip=%s: %s", ip, exc)
        try:
            util.write_nonblock(client, answer)
        except Exception:  # noqa: BLE001 - the client gone: nothing to tell it
            self.log.debug("Failed to send error message.")
            return
        linger(client)
