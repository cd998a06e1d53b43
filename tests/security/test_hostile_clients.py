"""Hostile clients against the real thing: ``spitlog serve`` (gunicorn, gevent), a worker
and the scheduler on a real redis-server, over real sockets.

- A hundred clients trickling request bodies at one game (a byte every 0.5 s, some
  chunked, some with ``If-Match``) hold nothing of the game: while they go on, its two
  players and another game's play on, each seat acknowledged 50 actions, with no 503, no
  5xx and no forfeit. (The players' latencies under that attack are a figure of
  ``bench/flood.py``, not a bound here.)
- A closed stream (SSE or long-poll, of a game or a seek) frees its client's slot long
  before its time is up (the hub looks at the waiting clients every second).
- An answer to a body not read whole closes the connection: what follows is never served
  as a request; the server's own refusals (gunicorn's) are problem+json.
"""

import contextlib
import hashlib
import json
import socket
import threading
import time

import pytest
import redis
import requests

from tests.support.hostile import Players, SlowBodies
from tests.support.processes import free_port, start, stop, wait_ready

# short graces (the games move fast); T-4's idle time well above any stall a loaded machine
# makes, so that a forfeit means the attack froze the game
SHORT = {"idle_forfeit_s": 60.0, "spit_grace_s": 0.5, "ready_grace_s": 1.0, "slap_grace_s": 0.5,
         "max_rounds": 10_000}  # fmt: skip
ACKED = 50  # actions each seat has acknowledged while the attack goes on
KEEPALIVE_S = 120  # an SSE stream's keep-alive: it never finds out its client left by one here


@pytest.fixture(scope="module")
def stack(redis_url):
    """(port, redis client): the API, a worker and the scheduler, limits at their defaults
    but the request rate (every client here is 127.0.0.1)."""
    port = free_port()
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_WORKERS": "2", "SPITLOG_RATE_REQUESTS": "5000", "SPITLOG_RATE_GAMES": "0",
           "SPITLOG_SSE_KEEPALIVE_S": str(KEEPALIVE_S)}  # fmt: skip
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    procs = [start(["serve"], env), start(["worker"], env), start(["scheduler"], env)]
    try:
        wait_ready(f"http://127.0.0.1:{port}", procs[0])
    except RuntimeError:
        pytest.fail("\n".join(stop(p) for p in procs))
    yield port, r
    for p in procs:
        stop(p)


def _until(condition, timeout: float = 30) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_a_hundred_slow_bodies_freeze_nothing(stack):
    """T-4: nobody is forfeited while a hundred slow bodies aim at the game; the attack
    is on (all its connections open) before the players start, and lasts until each seat
    of both games has acknowledged ``ACKED`` actions."""
    port, _r = stack
    attacked = Players(port, SHORT, seed=1)
    bystanders = Players(port, SHORT, seed=2)
    target = attacked.game_id
    slow = SlowBodies(port, target, n=100, every_s=0.5).start()
    try:
        assert _until(lambda: slow.connections >= 100, 60), slow.connections
        attacked.start()
        bystanders.start()
        played = _until(lambda: min(attacked.acked + bystanders.acked) >= ACKED, 300)
        assert slow.connections >= 100
    finally:
        slow.stop()
        attacked.stop()
        bystanders.stop()
    assert played, (attacked.acked, bystanders.acked, attacked.statuses, bystanders.statuses)
    for players in (attacked, bystanders):
        assert not any(s >= 500 for s in players.statuses), (players.statuses, players.errors)
        assert [r for _g, r in players.results if r == "T-4"] == []  # nobody forfeited
    # the slow bodies got 408 once their time was up (or nothing yet), never a game's answer
    assert set(slow.answers) <= {408}, set(slow.answers)


def _slots(r, key: str) -> int:
    return r.zcard(key)


def _open(port: int, path: str, token: str, accept: str = "text/event-stream") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: {accept}\r\n"
              f"Authorization: Bearer {token}\r\n\r\n".encode())  # fmt: skip
    return s


def _freed_within(r, key: str, seconds: float) -> float | None:
    """How long the slots of ``key`` took to go (None if they did not in ``seconds``)."""
    t = time.monotonic()
    while time.monotonic() - t < seconds:
        if _slots(r, key) == 0:
            return time.monotonic() - t
        time.sleep(0.02)
    return None


@pytest.mark.parametrize("how", ["sse", "long-poll"])
def test_a_closed_stream_frees_its_slot_long_before_its_time(stack, how):
    """A stream closed by its client frees its token's and its address's slots long before
    it would have ended by itself (a long-poll's 60 s, an SSE stream's 300 s, each slot's
    hold 30 s more) or written its next keep-alive (``KEEPALIVE_S``): the hub looks at the
    waiting clients' connections every second."""
    port, r = stack
    players = Players(port, {"max_rounds": 10_000})
    gid, token = players.game_id, players.tokens[0]
    key = "spit:rl:s:t:" + hashlib.sha256(token.encode()).hexdigest()
    address = "spit:rl:s:a:127.0.0.1"
    if how == "sse":
        s = _open(port, f"/v1/games/{gid}/events?after=1000000", token)
    else:
        s = _open(port, f"/v1/games/{gid}/events?after=1000000&wait=60", token, "*/*")
    # the token's slot is taken first, then the address's: wait for both
    assert _until(lambda: _slots(r, key) == 1 and _slots(r, address) >= 1), (
        _slots(r, key), _slots(r, address))  # fmt: skip
    s.close()
    took = _freed_within(r, key, 30)  # well before any of the times above
    assert took is not None, "the slot was not freed"
    assert _until(lambda: _slots(r, address) == 0), _slots(r, address)


def test_a_seek_long_poll_holds_a_slot_and_its_client_leaving_ends_its_wait(stack):
    """A long-poll of an open seek takes one of its token's stream slots while it waits;
    its client closing the connection ends the wait (the hub looks at the waiting
    clients' connections every second) and frees the slot, long before the 60 s it
    asked to wait."""
    port, r = stack
    seek = requests.post(f"http://127.0.0.1:{port}/v1/seeks",
                         json={"game": "spit", "rating_range": [0, 1000]}).json()  # fmt: skip
    key = "spit:rl:s:t:" + hashlib.sha256(seek["token"].encode()).hexdigest()
    s = _open(port, f"/v1/seeks/{seek['id']}?wait=60", seek["token"], "*/*")
    assert _until(lambda: _slots(r, key) == 1), "the long-poll holds no slot"
    s.close()
    assert _until(lambda: _slots(r, key) == 0), "the long-poll went on waiting"


def _raw(port: int, data: bytes, wait: float = 30) -> bytes:
    """Send ``data`` and close the sending side (the body ends there); the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        s.settimeout(wait)
        out = b""
        try:
            while b"\r\n\r\n" not in out or not out.rstrip().endswith(b"}"):
                got = s.recv(4096)
                if not got:
                    break
                out += got
        except TimeoutError:
            pass
        return out


@pytest.mark.parametrize("chunks", [b"zz\r\n{}\r\n0\r\n\r\n", b"5\r\n{}"])
def test_a_malformed_chunked_body_is_a_400(stack, chunks):
    port, _r = stack
    head = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")  # fmt: skip
    out = _raw(port, head + chunks)
    status = out.split(b" ", 2)[1] if out else b""
    assert status in (b"400",), out[:300]  # the server's own 400, or ours: never a 500


def test_the_dev_servers_threads_cut_a_trickled_chunked_body_at_its_deadline():
    """Under ``spitlog dev`` (werkzeug, a thread per connection) a chunked body that
    trickles is cut off at ``SPITLOG_BODY_TIMEOUT_S`` (1 s), not when it stops trickling:
    its bytes (154, one each 0.3 s at the least) would take 46 s and more, and the 408
    comes before half of that."""
    import fakeredis
    from werkzeug.serving import make_server

    from service.http.app import create_app
    from tests.support.api import app_settings

    app = create_app(app_settings(body_timeout_s=1.0), redis_client=fakeredis.FakeRedis())
    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")  # fmt: skip
        t = time.monotonic()
        s.settimeout(0.3)
        got = b""
        trickle = b'{"game": "spit", "client_seed": "' + b"x" * 120
        for byte in trickle:
            with contextlib.suppress(OSError):  # (closed after its answer: read that)
                s.sendall(b"1\r\n" + bytes([byte]) + b"\r\n")
            try:
                got = s.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if got:
                break
        took = time.monotonic() - t
        assert got.startswith(b"HTTP/1.1 408"), got[:200]
        assert took < len(trickle) * 0.3 / 2, took  # (a byte each 0.3 s at the least)
        s.close()
    finally:
        server.shutdown()


def _read_to_end(s: socket.socket, timeout: float = 20) -> tuple[bytes, bool]:
    """What the server sends on ``s`` until it closes the connection: (the bytes, whether it
    closed within ``timeout``)."""
    out, end = b"", time.monotonic() + timeout
    try:
        while (left := end - time.monotonic()) > 0:
            s.settimeout(left)
            got = s.recv(65536)
            if not got:
                return out, True
            out += got
    except TimeoutError:
        return out, False
    except ConnectionResetError:
        return out, True
    return out, False


SECOND = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"  # the bytes a proxy would send next
HEAD = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


@pytest.mark.parametrize("case", ["declared 413", "chunked 413", "408"])
def test_an_answer_to_a_body_not_read_whole_closes_the_connection(stack, case):
    """A body refused before it was read whole (larger than the limit, by its length or
    its chunks; late) is answered, problem+json with ``Connection: close``, and the server
    closes the connection: the bytes after it (another request's, behind a proxy that
    reuses connections) are never answered."""
    port, _r = stack
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        if case == "declared 413":
            s.sendall(HEAD + b"Content-Length: 20000\r\n\r\n" + b"x" * 20_000 + SECOND)
        elif case == "chunked 413":
            s.sendall(HEAD + b"Transfer-Encoding: chunked\r\n\r\n"
                      + b"5000\r\n" + b"x" * 0x5000 + b"\r\n0\r\n\r\n" + SECOND)  # fmt: skip
        else:  # 10 of its 100 bytes, then the rest and another request once it is refused
            s.sendall(HEAD + b"Content-Length: 100\r\n\r\n" + b"x" * 10)
            s.settimeout(20)
            first = s.recv(65536)
            assert first.startswith(b"HTTP/1.1 408"), first[:200]
            with contextlib.suppress(OSError):  # (the server may have closed already)
                s.sendall(b"x" * 90 + SECOND)
        out, closed = _read_to_end(s)
        if case == "408":
            out = first + out
    head, _, body = out.partition(b"\r\n\r\n")
    status = 408 if case == "408" else 413
    assert head.startswith(b"HTTP/1.1 %d" % status), out[:300]
    assert b"\r\nConnection: close\r\n" in head + b"\r\n", head
    assert b"\r\nContent-Type: application/problem+json\r\n" in head + b"\r\n", head
    assert json.loads(body)["status"] == status
    assert out.count(b"HTTP/1.1 ") == 1, out  # the request after it was never answered
    assert closed, "the connection stayed open"


@pytest.mark.parametrize("raw, status", [
    (b"GARBAGE\r\n\r\n", 400),  # no request line
    (b"G@T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),  # a method that is no token
    (b"GET / HTTP/3.0\r\nHost: x\r\n\r\n", 400),  # a version it does not speak
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),  # a request line > 4,094
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(101))
     + b"\r\n", 431),  # more than 100 fields
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"y" * 9000 + b"\r\n\r\n", 431),  # one > 8,190
    (b"GET / HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n", 417),  # not 100-continue
    (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n", 501),
])  # fmt: skip
def test_the_servers_own_refusals_are_problem_json(stack, raw, status):
    """What gunicorn refuses before the API sees it is answered like every error of the
    API: problem+json naming the problem type, then the connection closes."""
    port, _r = stack
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(raw)
        out, closed = _read_to_end(s)
    head, _, body = out.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), out[:300]
    assert b"\r\nContent-Type: application/problem+json\r\n" in head + b"\r\n", head
    assert b"\r\nConnection: close\r\n" in head + b"\r\n", head
    problem = json.loads(body)
    assert problem["status"] == status and problem["type"].startswith("/docs#problem-")
    assert problem["title"] and problem["detail"] and problem["request_id"].startswith("req_")
    assert closed
