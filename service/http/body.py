"""Request bodies: read whole before the request takes anything of its game, and read as
strict JSON.

``read_body`` takes the body off the connection within a deadline (``408`` past it:
a client that trickles its body one byte at a time holds nothing but its own
connection) and within ``max_content_length`` (``413``, chunked bodies too); the body is
then kept in memory for whoever reads it next. ``parse_json`` reads it as RFC 8259 JSON
(orjson: no ``NaN``, no lone surrogate) and refuses what a parser would silently
accept: an object with the same key twice (which value would count?), and nesting
deeper than ``MAX_DEPTH`` (a body of 16 KB of ``[`` would exhaust a recursive reader).
"""

import contextlib
import io
import re
import socket
import threading
import time

import orjson

from ..errors import BadRequest, RequestTimeout, TooLarge, UnsupportedMediaType

MAX_DEPTH = 32  # arrays and objects in a body nest at most this deep (ours: 2)
_CHUNK = 65_536

try:  # under gunicorn's gevent workers the deadline is a gevent timer
    import gevent
    from gevent import monkey
except ImportError:  # pragma: no cover - gevent is a dependency
    gevent = monkey = None


def _patched() -> bool:
    return monkey is not None and monkey.is_module_patched("socket")


def read_body(environ: dict, limit: int, timeout_s: float) -> bytes:
    """The request's whole body (b"" without one), read within ``timeout_s`` (408) and
    ``limit`` bytes (413); the environ is left with the body in memory."""
    length = environ.get("CONTENT_LENGTH") or ""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    if length and not chunked:
        if not (len(length) <= 16 and length.isascii() and length.isdigit()):
            raise BadRequest({"Content-Length": ["must be a number of bytes"]})
        n = int(length)
        if n > limit:
            raise TooLarge(f"the body may hold at most {limit} bytes")
        if n == 0:
            return b""
    elif chunked:
        n = None
    else:
        return b""
    data = _read(environ, n, limit, timeout_s)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    return data


def _read(environ: dict, n: int | None, limit: int, timeout_s: float) -> bytes:
    try:
        return _read_within(environ, n, limit, timeout_s)
    except (RequestTimeout, TooLarge, BadRequest):
        raise
    except Exception as e:  # noqa: BLE001 - a chunk header that is none, a client gone
        raise BadRequest({"_body": [f"the body could not be read ({type(e).__name__})"]}) from None


def _read_within(environ: dict, n: int | None, limit: int, timeout_s: float) -> bytes:
    stream = environ["wsgi.input"]
    if _patched():
        try:
            with gevent.Timeout(timeout_s):
                if n is not None:  # gunicorn's reader returns n bytes, or fewer at the end
                    data = stream.read(n)
                    if len(data) < n:
                        raise BadRequest({"_body": [f"the body ended after {len(data)} of "
                                                    f"its {n} bytes"]})  # fmt: skip
                    return data
                return _drain(stream, n, limit, None, 0.0)
        except gevent.Timeout:
            raise RequestTimeout(f"the body did not arrive within {timeout_s:g} s") from None
    # a thread per connection (``spitlog dev``): each read waits at most what is left, and a
    # chunked body (whose reader reads on across chunks) is cut off at the deadline
    sock = environ.get("werkzeug.socket") or environ.get("gunicorn.socket")
    deadline = time.monotonic() + timeout_s
    late = threading.Event()
    watchdog = None
    if n is None and sock is not None:
        watchdog = threading.Timer(timeout_s, _cut, (sock, late))
        watchdog.daemon = True
        watchdog.start()
    try:
        data = _drain(stream, n, limit, sock, deadline)
    except TimeoutError:
        raise RequestTimeout(f"the body did not arrive within {timeout_s:g} s") from None
    except Exception:
        if late.is_set():
            raise RequestTimeout(f"the body did not arrive within {timeout_s:g} s") from None
        raise
    finally:
        if watchdog is not None:
            watchdog.cancel()
        if sock is not None and not late.is_set():
            sock.settimeout(None)
    if late.is_set():
        raise RequestTimeout(f"the body did not arrive within {timeout_s:g} s")
    return data


def _cut(sock, late: threading.Event) -> None:
    """The deadline of a chunked body read by a thread: no more of it is read."""
    late.set()
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RD)


def _drain(stream, n: int | None, limit: int, sock, deadline: float) -> bytes:
    """Read ``n`` bytes (None: to the end, at most ``limit``); with ``sock``, by pieces that
    each wait at most until ``deadline``."""
    parts, got = [], 0
    read = getattr(stream, "read1", None) if sock is not None else None
    while n is None or got < n:
        want = _CHUNK if n is None else min(n - got, _CHUNK)
        if sock is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
        part = read(want) if read is not None else stream.read(want)
        if not part:
            break
        parts.append(part)
        got += len(part)
        if got > limit:
            raise TooLarge(f"the body may hold at most {limit} bytes")
    if n is not None and got < n:
        raise BadRequest({"_body": [f"the body ended after {got} of its {n} bytes"]})
    return b"".join(parts)


def is_json(environ: dict) -> bool:
    """Whether the body is declared ``application/json`` (or a ``+json`` type)."""
    ctype = environ.get("CONTENT_TYPE", "").split(";", 1)[0].strip(" \t").lower()
    return ctype == "application/json" or (ctype.startswith("application/") and
                                           ctype.endswith("+json"))  # fmt: skip


# A JSON text as strings (each whole, escapes and all) and runs of anything else: the keys
# of its objects are the strings followed by a colon.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"[ \t\r\n]*(:?)|[^"]+', re.DOTALL)
FLAT = frozenset((str, int, float, bool, type(None)))  # the types of a one-level object


def parse_json(data: bytes, *, media_ok: bool = True):
    """The JSON value of a body; 415 when it is not declared JSON (``media_ok``), 400 when
    it is not strict JSON, repeats a key in an object, or nests deeper than MAX_DEPTH."""
    if not media_ok:
        raise UnsupportedMediaType("send the body as application/json")
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        reason = str(e).split(":", 1)[0]
        raise BadRequest({"_body": [f"Invalid JSON body: {reason}."]}) from None
    if isinstance(value, dict) and all(type(v) in FLAT for v in value.values()):
        keys = len(value)  # one level (every action): the common case
    else:
        if _deeper_than(value, MAX_DEPTH):
            raise BadRequest({"_body": [f"Invalid JSON body: nested deeper than {MAX_DEPTH}."]})
        keys = _count_keys(value)
    # every pair of the text has its colon, so as many colons in all as keys parsed means
    # as many pairs as keys: none repeated (the common case, counted without a scan)
    if keys and data.count(b":") != keys and _TOKENS.findall(data).count(b":") != keys:
        raise BadRequest({"_body": ["Invalid JSON body: an object repeats a key."]})
    return value


def _count_keys(value) -> int:
    n, stack = 0, [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            n += len(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return n


def _deeper_than(value, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False
