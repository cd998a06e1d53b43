"""WebSocket server libraries under gunicorn + gevent, side by side in one run, against
the bare-HTTP floor; prints its figures (docs/decisions/0032-websocket-library.md).

    python bench/bench_ws.py              # ~10 minutes: 2 rounds of every server
    python bench/bench_ws.py --quick      # ~6 minutes, rougher
    python bench/bench_ws.py --checks     # the correctness probes alone (~1 minute)
    python bench/bench_ws.py --clients    # the client libraries alone (~1 minute)
    python bench/bench_ws.py --service    # the service's seat channel against POST /actions

``--service`` runs ``spitlog serve`` (one gevent worker) on a redis-server of its own, and
8 pairs of seats playing Spit flat out (random legal actions, each new game after the
last), first over ``POST /actions`` (a seat decides on the state its last answer carried;
a refusal makes it read the game), then on their seat channels (each decides on the view
it is pushed), alternating (``--rounds``): the server's CPU per action, the medians.

Each server is ``gunicorn -k gevent`` with 1 worker and a minimal WSGI app per library that,
for each JSON text frame it gets (~150 bytes, an ``act``), parses it with orjson and sends
back a ~1.5 kB JSON text frame (a view); in the broadcast case one frame in sends the view
to the three connections of its game. The servers:

- ``http``: the floor, a bare WSGI app answering a POST of the same body with the same bytes
  (keep-alive, gunicorn's own gevent worker);
- ``flask-sock``: Flask + flask-sock (simple-websocket on wsproto, a reader thread, here a
  greenlet, per connection);
- ``gevent-websocket``: its own gunicorn worker (gevent's pywsgi in place of gunicorn's
  parser);
- ``wsproto``: wsproto (sans-I/O) driven by a loop of ours on ``environ["gunicorn.socket"]``;
- ``websockets``: websockets' sans-I/O ``ServerProtocol`` driven the same way;
- ``poc``: the same with bench/ws_poc.py's ``Channel`` (sends that never block: a bounded
  queue and a writer greenlet).

The clients run in another process (gevent, raw sockets, frames built once): N connections
(200 or 1,000), 50 of them active, each sending 20 frames a second (1,000 a second in
all) and timing the answer (in the broadcast case, the last of its game's three). Per
server: its CPU per inbound message (``/proc/<pid>/stat`` of gunicorn and its worker over
the measured window), the round trip's p50 / p99, the worker's RSS per idle connection.
The servers alternate (A B C A B C, ``--rounds``); each figure is the median of its rounds,
the ratio against the floor of the same scenario.
"""

import argparse
import base64
import collections
import contextlib
import json
import multiprocessing as mp
import os
import select
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_service import cpu_seconds, free_port, stop, wait_port  # noqa: E402

SUBPROTOCOL = "spitlog.v1"
TICKET = "spitlog.ticket.Zm9vYmFyYmF6cXV4"
MAX_SIZE = 64 * 1024  # bytes of a client's message, where the library can say it
KINDS = (
    "http",
    "flask-sock",
    "flask-sock+deflate",
    "gevent-websocket",
    "wsproto",
    "websockets",
    "poc",
)
WS_KINDS = ("flask-sock", "gevent-websocket", "wsproto", "websockets", "poc")
# what a browser offers: a server that takes it compresses every frame it sends
DEFLATE = "permessage-deflate; client_max_window_bits"
ACTIVE = 50  # active connections (games in the broadcast case)
PACE_HZ = 20  # frames a second of each active connection


def _act() -> bytes:
    return json.dumps({"op": "act", "id": "m000017",
                       "action": {"type": "play", "card": "7H", "to": 0},
                       "expected_version": 1234,
                       "idempotency_key": "5f0c9a7e-3b1d-4c2e-9f8a-6d7e1c2b3a4f",
                       }, separators=(",", ":")).encode()  # fmt: skip


def _view() -> bytes:
    """~1.5 kB of JSON shaped like a ``result`` carrying a seat's view."""
    ranks, suits = "A23456789TJQK", "CDHS"
    cards = [r + s for s in suits for r in ranks]
    state = {"game": "spit", "status": "running", "version": 1235, "seat": 0,
             "piles": [cards[i:i + 4] for i in range(0, 20, 4)],
             "opponent_piles": [[cards[i]] for i in range(20, 25)],
             "centre": ["7H", "8C"], "stock": 17, "opponent_stock": 16,
             "clock": {"started_at": "2026-12-02T09:41:07.123Z", "deadline_ms": 30000},
             "legal_actions": [{"type": "play", "card": c, "to": t}
                               for c in cards[:15] for t in (0, 1)][:30]}  # fmt: skip
    body = {"op": "result", "id": "m000017", "status": 201,
            "body": {"version": 1235, "state": state}}  # fmt: skip
    return json.dumps(body, separators=(",", ":")).encode()


ACT = _act()
VIEW = _view()
VIEW_STR = VIEW.decode()  # for the libraries that take text as str (a cache could keep it)


# ---------------------------------------------------------------- the servers


def _rooms():
    return collections.defaultdict(list)


class Peer:
    """A connection as the app sees it: how to send it a view."""

    __slots__ = ("send",)

    def __init__(self, send):
        self.send = send


def serve(kind: str, port: int) -> None:
    from gunicorn.app.base import BaseApplication

    worker = "gevent"
    if kind == "gevent-websocket":
        worker = "geventwebsocket.gunicorn.workers.GeventWebSocketWorker"

    class App(BaseApplication):
        def load_config(self):
            settings = {"bind": f"127.0.0.1:{port}", "workers": 1, "worker_class": worker,
                        "worker_connections": 5000, "keepalive": 5, "timeout": 60,
                        "control_socket_disable": True, "loglevel": "warning",
                        "backlog": 2048}  # fmt: skip
            for k, v in settings.items():
                if k in self.cfg.settings:
                    self.cfg.set(k, v)

        def load(self):
            return APPS[kind]()

    App().run()


def _path(environ) -> tuple[str, str]:
    """("ws", game) | ("check", "") | ("close", code) from the request's path."""
    parts = environ.get("PATH_INFO", "/").strip("/").split("/")
    return parts[0], (parts[1] if len(parts) > 1 else "")


def _offered(environ) -> list[str]:
    raw = environ.get("HTTP_SEC_WEBSOCKET_PROTOCOL", "")
    return [p.strip() for p in raw.split(",") if p.strip()]


def app_http():
    import orjson

    head = [("Content-Type", "application/json"), ("Content-Length", str(len(VIEW)))]

    def app(environ, start_response):
        n = int(environ.get("CONTENT_LENGTH") or 0)
        orjson.loads(environ["wsgi.input"].read(n))
        start_response("200 OK", head)
        return [VIEW]

    return app


def app_flask_sock():
    import orjson
    from flask import Flask, request
    from flask_sock import Sock

    app = Flask("ws")
    app.config["SOCK_SERVER_OPTIONS"] = {"subprotocols": [SUBPROTOCOL],
                                         "max_message_size": MAX_SIZE}  # fmt: skip
    sock = Sock(app)
    rooms, counts = _rooms(), {"open": 0}

    @sock.route("/ws/<game>")
    def play(ws, game):
        room = rooms[game]
        room.append(ws)
        counts["open"] += 1
        try:
            while True:
                orjson.loads(ws.receive())
                for peer in room if game[0] == "b" else (ws,):
                    peer.send(VIEW_STR)
        finally:
            room.remove(ws)
            counts["open"] -= 1

    @sock.route("/check")
    def check(ws):
        counts["open"] += 1
        try:
            offered = _offered(request.environ)
            ws.send(json.dumps({"offered": offered, "open": counts["open"]}))
            while True:
                orjson.loads(ws.receive())
                ws.send(VIEW_STR)
        finally:
            counts["open"] -= 1

    @sock.route("/close/<int:code>")
    def close(ws, code):
        ws.close(code, "bench")

    return app


def app_gevent_websocket():
    import orjson

    rooms, counts = _rooms(), {"open": 0}

    def app(environ, start_response):
        ws = environ.get("wsgi.websocket")
        if ws is None:
            start_response("400 Bad Request", [("Content-Length", "0")])
            return [b""]
        what, arg = _path(environ)
        if what == "close":
            ws.close(int(arg), b"bench")
            return []
        room = rooms[arg] if what == "ws" else []
        room.append(ws)
        counts["open"] += 1
        try:
            if what == "check":
                ws.send(json.dumps({"offered": _offered(environ), "open": counts["open"]}))
            while True:
                data = ws.receive()
                if data is None:
                    break
                orjson.loads(data)
                for peer in room if arg[:1] == "b" else (ws,):
                    peer.send(VIEW_STR)
        finally:
            room.remove(ws)
            counts["open"] -= 1
        return []

    app.app_protocol = lambda _path: SUBPROTOCOL  # what its handler selects
    return app


def app_wsproto():
    import orjson
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import (
        AcceptConnection,
        BytesMessage,
        CloseConnection,
        Ping,
        Request,
        TextMessage,
    )

    rooms, counts = _rooms(), {"open": 0}

    def app(environ, start_response):
        sock = environ["gunicorn.socket"]
        conn = WSConnection(ConnectionType.SERVER)
        headers = [(k[5:].replace("_", "-").lower().encode(), v.encode("latin-1"))
                   for k, v in environ.items() if k.startswith("HTTP_")]  # fmt: skip
        conn.initiate_upgrade_connection(headers, environ["PATH_INFO"])
        offered = [e.subprotocols for e in conn.events() if isinstance(e, Request)][0]
        chosen = SUBPROTOCOL if SUBPROTOCOL in offered else None
        sock.sendall(conn.send(AcceptConnection(subprotocol=chosen)))
        what, arg = _path(environ)
        if what == "close":
            sock.sendall(conn.send(CloseConnection(code=int(arg), reason="bench")))
            return _linger(sock)
        me = Peer(lambda text: sock.sendall(conn.send(TextMessage(data=text))))
        room = rooms[arg] if what == "ws" else []
        room.append(me)
        counts["open"] += 1
        parts, size = [], 0
        try:
            if what == "check":
                me.send(json.dumps({"offered": _offered(environ), "open": counts["open"]}))
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                conn.receive_data(data)
                for ev in conn.events():
                    if isinstance(ev, TextMessage | BytesMessage):
                        size += len(ev.data)
                        if size > MAX_SIZE:
                            sock.sendall(conn.send(CloseConnection(code=1009, reason="too big")))
                            return _linger(sock)
                        parts.append(ev.data)
                        if ev.message_finished:
                            orjson.loads(parts[0] if len(parts) == 1 else "".join(parts))
                            parts, size = [], 0
                            for peer in room if arg[:1] == "b" else (me,):
                                peer.send(VIEW_STR)
                    elif isinstance(ev, Ping):
                        sock.sendall(conn.send(ev.response()))
                    elif isinstance(ev, CloseConnection):
                        sock.sendall(conn.send(ev.response()))
                        return _linger(sock)
        except OSError:
            pass
        finally:
            room.remove(me)
            counts["open"] -= 1

    def wsgi(environ, start_response):
        app(environ, start_response)
        raise StopIteration  # gunicorn closes the connection, writes nothing

    return wsgi


def _linger(sock) -> None:
    """After our close frame: wait (a little) for the client to close its end."""
    import gevent

    with gevent.Timeout(2, False):
        while sock.recv(65536):
            pass


def app_websockets():
    import orjson
    from websockets.frames import Opcode
    from websockets.protocol import State
    from websockets.server import ServerProtocol
    from ws_poc import _select, handshake

    rooms, counts = _rooms(), {"open": 0}

    def app(environ, start_response):
        sock = environ["gunicorn.socket"]
        proto = ServerProtocol(select_subprotocol=_select, max_size=MAX_SIZE)
        response = proto.accept(handshake(proto, environ))
        proto.send_response(response)

        def flush():
            for data in proto.data_to_send():
                if data:
                    sock.sendall(data)
                else:
                    sock.shutdown(socket.SHUT_WR)

        flush()
        if response.status_code != 101:
            raise StopIteration
        what, arg = _path(environ)
        if what == "close":
            proto.send_close(int(arg), "bench")
            flush()
            _linger(sock)
            raise StopIteration

        def send(data):
            proto.send_text(data)
            flush()

        me = Peer(send)
        room = rooms[arg] if what == "ws" else []
        room.append(me)
        counts["open"] += 1
        parts = []
        try:
            if what == "check":
                send(json.dumps({"offered": _offered(environ), "open": counts["open"]}).encode())
            while True:
                data = sock.recv(65536)
                if data:
                    proto.receive_data(data)
                else:
                    proto.receive_eof()
                for frame in proto.events_received():
                    if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                        parts.append(frame.data)
                        if frame.fin:
                            orjson.loads(parts[0] if len(parts) == 1 else b"".join(parts))
                            parts = []
                            for peer in room if arg[:1] == "b" else (me,):
                                peer.send(VIEW)
                flush()
                if not data or proto.state is State.CLOSED:
                    break
                if proto.close_expected():
                    _linger(sock)
                    break
        except OSError:
            pass
        finally:
            room.remove(me)
            counts["open"] -= 1
        raise StopIteration

    return app


def app_poc():
    import orjson
    from ws_poc import Channel

    rooms, counts = _rooms(), {"open": 0}

    def app(environ, start_response):
        channel, refusal = Channel.accept(environ)
        if channel is None:
            start_response(f"{refusal.status_code} {refusal.reason_phrase}",
                           list(refusal.headers.raw_items()))  # fmt: skip
            return [refusal.body]
        what, arg = _path(environ)
        if what == "close":
            channel.close(int(arg), "bench")
            for _ in channel.messages():
                pass
            raise StopIteration
        me = Peer(channel.send_text)
        room = rooms[arg] if what == "ws" else []
        room.append(me)
        counts["open"] += 1
        try:
            if what == "check":
                me.send(json.dumps({"offered": _offered(environ), "open": counts["open"]}).encode())
            for message in channel.messages():
                orjson.loads(message)
                for peer in room if arg[:1] == "b" else (me,):
                    peer.send(VIEW)
        finally:
            room.remove(me)
            counts["open"] -= 1
        raise StopIteration

    return app


APPS = {"http": app_http, "flask-sock": app_flask_sock,
        "gevent-websocket": app_gevent_websocket, "wsproto": app_wsproto,
        "websockets": app_websockets, "poc": app_poc}  # fmt: skip


# ---------------------------------------------------------------- a WebSocket client of our own

MASK = b"\x37\xfa\x21\x3d"


def frame(payload: bytes, opcode: int = 1, fin: bool = True, mask: bool = True) -> bytes:
    """A client's frame (masked)."""
    b0 = (0x80 if fin else 0) | opcode
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head = bytes([b0, bit | n])
    elif n < 65536:
        head = bytes([b0, bit | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([b0, bit | 127]) + n.to_bytes(8, "big")
    if not mask:
        return head + payload
    key = (MASK * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
    return head + MASK + masked


def close_frame(code: int, reason: bytes = b"") -> bytes:
    return frame(code.to_bytes(2, "big") + reason, opcode=8)


def handshake(
    sock, path: str, protocols: str | None, extensions: str | None = None
) -> tuple[int, dict, bytes]:
    """Sends the opening handshake; (status, header fields lower-cased, bytes after)."""
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET {path} HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
    )
    if protocols is not None:
        head += f"Sec-WebSocket-Protocol: {protocols}\r\n"
    if extensions is not None:
        head += f"Sec-WebSocket-Extensions: {extensions}\r\n"
    sock.sendall((head + "\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        buf += chunk
    raw, _, rest = buf.partition(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    fields = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        fields[k.strip().lower()] = v.strip()
    return int(lines[0].split()[1]), fields, rest


class Reader:
    """Frames from a server (unmasked) off a socket."""

    def __init__(self, sock, buf: bytes = b""):
        self.sock, self.buf = sock, bytearray(buf)

    def _need(self, n: int) -> None:
        while len(self.buf) < n:
            chunk = self.sock.recv(262144)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk

    def frame(self) -> tuple[int, bytes]:
        self._need(2)
        opcode, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
        if self.buf[1] & 0x80:
            raise ValueError("a masked frame from the server")
        head = 2
        if n == 126:
            self._need(4)
            n, head = int.from_bytes(self.buf[2:4], "big"), 4
        elif n == 127:
            self._need(10)
            n, head = int.from_bytes(self.buf[2:10], "big"), 10
        self._need(head + n)
        payload = bytes(self.buf[head : head + n])
        del self.buf[: head + n]
        return opcode, payload


# ---------------------------------------------------------------- the load generator


def _clients(kind, port, n_conns, broadcast, seconds, ctl, out) -> None:
    """The client process: connect the active connections, warm up, report ``warm``;
    connect the idle ones, report ``ready``; on ``go`` run ``seconds``, report ``done``."""
    import gevent
    import gevent.socket as gsocket
    from gevent.pool import Pool

    act_frame = frame(ACT)
    http_head = (f"POST /act HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(ACT)}\r\n\r\n").encode() + ACT  # fmt: skip
    per_game = 3 if broadcast else 1

    def connect(i):
        sock = gsocket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if kind == "http":
            return sock, Reader(sock)
        path = f"/ws/b{i // 3}" if broadcast else f"/ws/e{i}"
        status, fields, rest = handshake(
            sock, path, f"{SUBPROTOCOL}, {TICKET}", DEFLATE if kind.endswith("+deflate") else None
        )
        if status != 101 or fields.get("sec-websocket-protocol") != SUBPROTOCOL:
            raise RuntimeError(f"{kind}: handshake {status} {fields}")
        return sock, Reader(sock, rest)

    def http_answer(reader):
        while b"\r\n\r\n" not in reader.buf:
            reader._need(len(reader.buf) + 1)
        head, _, _ = bytes(reader.buf).partition(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        reader._need(len(head) + 4 + length)
        del reader.buf[: len(head) + 4 + length]

    def player(g, conns, run_s, lats):
        socks = conns[g * per_game : (g + 1) * per_game]
        period = 1.0 / PACE_HZ
        start = time.perf_counter()
        due = start + (g % ACTIVE) * period / ACTIVE
        end = start + run_s
        while True:
            now = time.perf_counter()
            if due > now:
                gevent.sleep(due - now)
            if time.perf_counter() >= end:
                return
            t = time.perf_counter()
            if kind == "http":
                socks[0][0].sendall(http_head)
                http_answer(socks[0][1])
            else:
                socks[0][0].sendall(act_frame)
                for _sock, reader in socks:
                    reader.frame()
            lats.append(time.perf_counter() - t)
            due = max(due + period, time.perf_counter() - period)

    def run(conns, run_s):
        lats = []
        gevent.joinall([gevent.spawn(player, g, conns, run_s, lats) for g in range(ACTIVE)],
                       raise_error=True)  # fmt: skip
        return lats

    pool = Pool(100)
    n_active = ACTIVE * per_game
    conns = pool.map(connect, range(n_active))
    run(conns, 1.5)
    out.put(("warm",))
    ctl.get()
    conns += pool.map(connect, range(n_active, n_conns if kind != "http" else n_active))
    out.put(("ready", len(conns)))
    ctl.get()
    lats = run(conns, seconds)
    out.put(("done", lats))
    ctl.get()  # hold the connections until the server's figures are taken


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def start(kind: str) -> tuple[subprocess.Popen, int, int]:
    """The ``kind`` server; (its process, port, worker's pid)."""
    port = free_port()
    server = kind.split("+")[0]
    proc = subprocess.Popen([sys.executable, __file__, "--serve", server, str(port)],
                            cwd=HERE.parent, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    wait_port(port)
    end = time.monotonic() + 30
    while not _children(proc.pid) and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.5)
    return proc, port, _children(proc.pid)[0]


def run_one(kind: str, n_conns: int, broadcast: bool, seconds: float) -> dict:
    """One server under one scenario (the module's doc): its figures."""
    proc, port, worker = start(kind)
    ctx = mp.get_context("spawn")
    ctl, out = ctx.Queue(), ctx.Queue()
    client = ctx.Process(target=_clients,
                         args=(kind, port, n_conns, broadcast, seconds, ctl, out))  # fmt: skip
    client.start()
    try:
        assert out.get(timeout=120)[0] == "warm"
        rss0 = _rss(worker)
        ctl.put("connect")
        _, opened = out.get(timeout=300)
        time.sleep(1.0)
        rss1 = _rss(worker)
        cpu0 = cpu_seconds(proc.pid)
        ctl.put("go")
        _, lats = out.get(timeout=seconds + 120)
        cpu1 = cpu_seconds(proc.pid)
        ctl.put("end")
        client.join(30)
    finally:
        if client.is_alive():
            client.kill()
        stop(proc)
    lats.sort()
    idle = opened - ACTIVE * (3 if broadcast else 1)
    return {"cpu_ms": 1000 * (cpu1 - cpu0) / len(lats), "n": len(lats),
            "p50": 1000 * lats[len(lats) // 2], "p99": 1000 * lats[int(len(lats) * 0.99)],
            "mem_kb": (rss1 - rss0) / idle / 1024 if idle > 0 else None}  # fmt: skip


SCENARIOS = (("echo, 200 connections", 200, False), ("echo, 1,000 connections", 1000, False),
             ("broadcast x3, 1,000 connections", 1002, True))  # fmt: skip


def bench(rounds: int, seconds: float, kinds=KINDS) -> dict:
    """{scenario: {kind: [figures of each round]}}, the kinds alternating in each round."""
    got: dict = {}
    for name, n, broadcast in SCENARIOS:
        for r in range(rounds):
            for kind in kinds:
                fig = run_one(kind, n, broadcast, seconds)
                got.setdefault(name, {}).setdefault(kind, []).append(fig)
                print(
                    f"  [{name}] round {r + 1} {kind:17s} {fig['cpu_ms']:.3f} ms/msg "
                    f"p50 {fig['p50']:.2f} p99 {fig['p99']:.2f} ms "
                    f"mem {fig['mem_kb'] or 0:.1f} KiB/conn ({fig['n']} msgs)",
                    flush=True,
                )
    return got


def table(got: dict) -> str:
    out = []
    for name, by_kind in got.items():
        med = {k: {f: statistics.median(r[f] for r in runs if r[f] is not None)
                   if any(r[f] is not None for r in runs) else None
                   for f in ("cpu_ms", "p50", "p99", "mem_kb")}
               for k, runs in by_kind.items()}  # fmt: skip
        floor = med["http"]["cpu_ms"]
        out.append(
            f"\n{name} ({ACTIVE} active x {PACE_HZ}/s; median of {len(by_kind['http'])} rounds)"
        )
        out.append(
            f"  {'server':18s} {'CPU/msg':>9s} {'x floor':>8s} {'p50':>7s} {'p99':>7s} "
            f"{'RSS/idle conn':>13s}"
        )
        for kind, m in med.items():
            mem = f"{m['mem_kb']:.1f} KiB" if m["mem_kb"] is not None else "-"
            out.append(
                f"  {kind:18s} {m['cpu_ms']:7.3f}ms {m['cpu_ms'] / floor:8.2f} "
                f"{m['p50']:5.2f}ms {m['p99']:5.2f}ms {mem:>13s}"
            )
    return "\n".join(out)


# ---------------------------------------------------------------- correctness probes


def _connect(
    port: int,
    path: str,
    protocols: str | None = f"{TICKET}, {SUBPROTOCOL}",
    rcvbuf: int | None = None,
):
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    status, fields, rest = handshake(sock, path, protocols)
    return sock, status, fields, Reader(sock, rest)


def _close_code(reader: Reader) -> int | None:
    """The code of the next close frame (frames before it skipped); None: closed without."""
    try:
        while True:
            op, payload = reader.frame()
            if op == 8:
                return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
    except (ConnectionError, OSError):
        return None


def _open_count(port: int) -> int:
    sock, _s, _f, reader = _connect(port, "/check")
    hello = json.loads(reader.frame()[1])
    sock.close()
    return hello["open"]


def probes(kind: str) -> dict:
    """The correctness points of the decision, probed on a ``kind`` server."""
    proc, port, _worker = start(kind)
    res = {}
    try:
        # subprotocols: the ticket offered first; the app must still read it
        sock, status, fields, reader = _connect(port, "/check")
        hello = json.loads(reader.frame()[1])
        res["selects spitlog.v1 (offered second)"] = (
            status == 101 and fields.get("sec-websocket-protocol") == SUBPROTOCOL
        )
        res["app reads the ticket"] = TICKET in hello["offered"]
        sock.close()
        sock, status, fields, reader = _connect(port, "/check", "spitlog.v1x")
        res["selects nothing not offered"] = fields.get("sec-websocket-protocol") != SUBPROTOCOL
        sock.close()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        _s, fields, _r = handshake(sock, "/check", SUBPROTOCOL, DEFLATE)
        res["takes permessage-deflate"] = "sec-websocket-extensions" in fields
        sock.close()
        # ping -> pong with its payload
        sock, status, fields, reader = _connect(port, "/check")
        reader.frame()
        sock.sendall(frame(b"p1", opcode=9))
        op, payload = reader.frame()
        res["pong to a ping"] = op == 10 and payload == b"p1"
        # a client's close: echoed with its code
        sock.sendall(close_frame(1000))
        res["echoes a client's close"] = _close_code(reader) == 1000
        sock.close()
        # the app's close code
        sock, status, fields, reader = _connect(port, "/close/4001")
        res["app closes with 4001"] = _close_code(reader) == 4001
        sock.close()
        # an oversized frame: its header says 1 MiB; how much is read before the close?
        sock, status, fields, reader = _connect(port, "/check")
        reader.frame()
        big = frame(b"x" * (1 << 20))
        sent = 0
        try:  # a chunk at a time, until the server says something
            while sent < len(big) and not select.select([sock], [], [], 0.02)[0]:
                sent += sock.send(big[sent : sent + 16384])
        except OSError:
            pass
        code = _close_code(reader)
        res["1 MiB frame: close code"] = code
        res["1 MiB frame: bytes sent before it"] = sent
        sock.close()
        # a fragmented message of 20 x 8 KiB (160 KiB > 64 KiB)
        sock, status, fields, reader = _connect(port, "/check")
        reader.frame()
        try:
            for i in range(20):
                sock.sendall(frame(b"y" * 8192, opcode=1 if i == 0 else 0, fin=i == 19))
        except OSError:
            pass
        res["160 KiB in fragments: close code"] = _close_code(reader)
        sock.close()
        # a client that vanishes mid-frame (FIN, then RST): the server lets go of it
        base = _open_count(port)
        for linger in (False, True):
            sock, *_ = _connect(port, "/ws/evanish")
            sock.sendall(frame(ACT)[:40])
            if linger:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
            sock.close()
        end = time.monotonic() + 10
        while _open_count(port) > base and time.monotonic() < end:
            time.sleep(0.1)
        res["let go of 2 clients gone mid-frame"] = _open_count(port) <= base
        # a client that never reads, in a game whose other player acts
        res.update(_never_reads(port))
    finally:
        stop(proc)
    return res


def _never_reads(port: int) -> dict:
    """Player A acts (closed loop) in game b0 beside B, which never reads (a 4 KiB receive
    buffer): does A's round trip stall (the sending greenlet blocked on B), for how long;
    is B dropped; is what B got well framed."""
    a, *_r, ra = _connect(port, "/ws/bslow")
    b, *_r, rb = _connect(port, "/ws/bslow", rcvbuf=4096)
    a.settimeout(5)
    done, stalled, t0 = 0, False, time.monotonic()
    while done < 6000 and time.monotonic() - t0 < 20:
        try:
            a.sendall(frame(ACT))
            ra.frame()
            done += 1
        except TimeoutError:
            stalled = True
            break
    # what B was sent: read it all now, check the framing
    b.settimeout(2)
    frames, well_framed, code = 0, True, None
    try:
        while True:
            op, payload = rb.frame()
            if op == 8:
                code = int.from_bytes(payload[:2], "big")
                break
            if payload != VIEW:
                well_framed = False
                break
            frames += 1
    except (TimeoutError, ConnectionError, OSError):
        well_framed = well_framed and not rb.buf  # no part of a frame left over
    except ValueError:
        well_framed = False
    a.close()
    b.close()
    return {
        "never-reader: A's acts done": done,
        "never-reader: A blocked (5 s)": stalled,
        "never-reader: B's close code": code,
        "never-reader: frames B got, all whole": f"{frames}, {well_framed}",
    }


def checks(kinds=WS_KINDS) -> str:
    got = {kind: probes(kind) for kind in kinds}
    keys = list(next(iter(got.values())))
    width = max(len(k) for k in keys)
    lines = [f"{'':{width}s} " + " ".join(f"{k:>17s}" for k in kinds)]
    for key in keys:
        lines.append(f"{key:{width}s} " + " ".join(f"{str(got[k][key]):>17s}" for k in kinds))
    return "\n".join(lines)


# ---------------------------------------------------------------- client libraries


def client_lib(name: str, port: int, count: int) -> dict:
    """``count`` round trips (an act out, a view in) with a client library; its CPU per
    message (this process's), p50, what it saw of the handshake and of a close."""
    url = f"ws://127.0.0.1:{port}"
    protocols = [SUBPROTOCOL, TICKET]
    lats = []
    if name == "websockets":
        from websockets.sync.client import connect

        with connect(url + "/ws/e1", subprotocols=protocols, max_size=MAX_SIZE) as ws:
            selected = ws.subprotocol
            c0 = time.process_time()
            for _ in range(count):
                t = time.perf_counter()
                ws.send(ACT.decode())
                ws.recv()
                lats.append(time.perf_counter() - t)
            cpu = time.process_time() - c0
        with connect(url + "/close/4001", subprotocols=protocols) as ws:
            with contextlib.suppress(Exception):  # ConnectionClosed: its code is what we want
                ws.recv()
            code = ws.close_code
    elif name == "websocket-client":
        import websocket

        ws = websocket.create_connection(url + "/ws/e1", subprotocols=protocols)
        selected = ws.getsubprotocol()
        c0 = time.process_time()
        for _ in range(count):
            t = time.perf_counter()
            ws.send(ACT.decode())
            ws.recv()
            lats.append(time.perf_counter() - t)
        cpu = time.process_time() - c0
        ws.close()
        ws = websocket.create_connection(url + "/close/4001", subprotocols=protocols)
        op, data = ws.recv_data(control_frame=True)
        code = int.from_bytes(data[:2], "big") if op == 8 else None
        ws.close()
    else:  # httpx-ws
        import httpx
        from httpx_ws import WebSocketDisconnect, connect_ws

        with httpx.Client() as http:
            with connect_ws(url.replace("ws", "http", 1) + "/ws/e1", http,
                            subprotocols=protocols) as ws:  # fmt: skip
                selected = ws.subprotocol
                c0 = time.process_time()
                for _ in range(count):
                    t = time.perf_counter()
                    ws.send_text(ACT.decode())
                    ws.receive_text()
                    lats.append(time.perf_counter() - t)
                cpu = time.process_time() - c0
            with connect_ws(url.replace("ws", "http", 1) + "/close/4001", http,
                            subprotocols=protocols) as ws:  # fmt: skip
                try:
                    ws.receive_text()
                    code = None
                except WebSocketDisconnect as e:
                    code = e.code
    lats.sort()
    return {
        "cpu_ms": 1000 * cpu / count,
        "p50": 1000 * lats[count // 2],
        "p99": 1000 * lats[int(count * 0.99)],
        "selected": selected,
        "close": code,
    }


def clients(count: int, rounds: int = 2) -> str:
    proc, port, _w = start("poc")
    got: dict = {}
    try:
        for _ in range(rounds):
            for name in ("websockets", "websocket-client", "httpx-ws"):
                argv = [sys.executable, __file__, "--client-lib", name, str(port), str(count)]
                run = subprocess.run(argv, capture_output=True, text=True, timeout=300)
                if run.returncode:
                    got.setdefault(name, []).append({"error": run.stderr.strip()[-300:]})
                else:
                    got.setdefault(name, []).append(json.loads(run.stdout))
    finally:
        stop(proc)
    lines = [
        f"client libraries against the poc server, {count} sequential round trips, "
        f"median of {rounds} rounds",
        f"  {'client':17s} {'CPU/msg':>9s} {'p50':>8s} {'p99':>8s}  selected / close",
    ]
    for name, runs in got.items():
        ok = [r for r in runs if "error" not in r]
        if not ok:
            lines.append(f"  {name:17s} failed: {runs[0]['error']}")
            continue
        m = {f: statistics.median(r[f] for r in ok) for f in ("cpu_ms", "p50", "p99")}
        lines.append(
            f"  {name:17s} {m['cpu_ms']:7.3f}ms {m['p50']:6.3f}ms {m['p99']:6.3f}ms"
            f"  {ok[0]['selected']} / {ok[0]['close']}"
        )
    return "\n".join(lines)


# the module each server or client needs, and the distribution that brings it
NEEDS = {"flask-sock": ("flask_sock", "flask-sock"), "gevent-websocket":
         ("geventwebsocket", "gevent-websocket"), "wsproto": ("wsproto", "wsproto"),
         "websockets": ("websockets", "websockets"), "poc": ("websockets", "websockets"),
         "websocket-client": ("websocket", "websocket-client"),
         "httpx-ws": ("httpx_ws", "httpx-ws")}  # fmt: skip


def missing(names) -> list[str]:
    """The distributions to install for ``names`` (servers or clients)."""
    import importlib.util

    need = {NEEDS[n.split("+")[0]] for n in names if n.split("+")[0] in NEEDS}
    return sorted(dist for module, dist in need if importlib.util.find_spec(module) is None)


# ---------------------------------------------------------------- the service's channel


def _pair_http(base: str, seconds: float, seed: int, out: list) -> None:
    """Both seats of new games, each deciding on the state its last answer carried (a
    refusal, 412 or 422, makes it read the game), acting over ``POST /actions``."""
    import random

    import requests

    rng, http = random.Random(seed), requests.Session()
    acts = ok = reads = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        g = http.post(f"{base}/v1/games", json={"game": "spit"}).json()
        gid = g["id"]
        tokens = [g["token"], http.post(f"{base}/v1/games/{gid}/seats", json={}).json()["token"]]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        views = [http.get(f"{base}/v1/games/{gid}", headers=a).json() for a in auth]
        while time.monotonic() < end and views[0]["status"] == "running":
            seat = rng.randrange(2)
            choices = [a for a in views[seat]["legal_actions"] if a["type"] != "resign"]
            if not choices:
                views[seat] = http.get(f"{base}/v1/games/{gid}", headers=auth[seat]).json()
                reads += 1
                continue
            r = http.post(f"{base}/v1/games/{gid}/actions", json=rng.choice(choices),
                          headers=auth[seat])  # fmt: skip
            acts += 1
            if r.status_code == 201:
                ok += 1
                views[seat] = r.json()["state"]
            else:
                views[seat] = http.get(f"{base}/v1/games/{gid}", headers=auth[seat]).json()
                reads += 1
    out.append((acts, ok, reads))


def _read_channel(ws, seat: int, views: list, answers: dict, cond) -> None:
    """A seat's channel read: the views it is pushed, the answers it is given."""
    with contextlib.suppress(Exception):
        for text in ws:
            m = json.loads(text)
            with cond:
                if m["op"] in ("hello", "events"):
                    views[seat] = m["state"]
                else:
                    answers[m["id"]] = m
                cond.notify_all()
    with cond:
        views[seat] = {"status": "closed", "legal_actions": []}
        cond.notify_all()


def _pair_channel(base: str, seconds: float, seed: int, out: list) -> None:
    """The same play on the seats' channels: each decides on the view it was pushed."""
    import random
    import threading

    import requests
    from websockets.sync.client import connect

    rng, http = random.Random(seed), requests.Session()
    acts = ok = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        g = http.post(f"{base}/v1/games", json={"game": "spit"}).json()
        gid = g["id"]
        tokens = [g["token"], http.post(f"{base}/v1/games/{gid}/seats", json={}).json()["token"]]
        views, answers, cond, conns = [None, None], {}, threading.Condition(), []
        for seat, token in enumerate(tokens):
            t = http.post(f"{base}/v1/games/{gid}/tickets",
                          headers={"Authorization": f"Bearer {token}"}).json()  # fmt: skip
            ws = connect(base.replace("http", "ws") + f"/v1/games/{gid}/live",
                         subprotocols=t["protocols"])  # fmt: skip
            conns.append(ws)

            threading.Thread(target=_read_channel, args=(ws, seat, views, answers, cond),
                             daemon=True).start()  # fmt: skip
        with cond:
            cond.wait_for(lambda views=views: None not in views, 30)
        n = 0
        while time.monotonic() < end and views[0]["status"] == "running":
            seat = rng.randrange(2)
            choices = [a for a in views[seat]["legal_actions"] if a["type"] != "resign"]
            if not choices:
                with cond:
                    cond.wait(0.01)
                continue
            n += 1
            conns[seat].send(json.dumps({"op": "act", "id": str(n), "action": rng.choice(choices)}))
            acts += 1
            with cond:
                cond.wait_for(
                    lambda n=n, a=answers, v=views: str(n) in a or v[0]["status"] != "running", 30
                )
                answer = answers.pop(str(n), None)
                if answer is not None and answer["op"] == "result":
                    ok += 1
                    version = answer["body"]["version"]  # its events reach the seat's view
                    cond.wait_for(
                        lambda s=seat, v=views, at=version: v[s].get("version", 0) >= at, 30
                    )
        for ws in conns:
            ws.close()
    out.append((acts, ok, 0))


def service(pairs: int, seconds: float, rounds: int) -> dict:
    """Actions over the seat channel against ``POST /actions`` on ``spitlog serve`` (one
    gevent worker, its own redis-server): the server's CPU per action, side by side, the
    median of ``rounds``: {"http"|"channel": {"per_act", "per_ok"} in ms, "ratio"}."""
    import tempfile
    import threading

    from bench_service import start_redis, start_server

    got: dict = {"http": [], "channel": []}
    with tempfile.TemporaryDirectory() as workdir:
        redis_proc, redis_port = start_redis(workdir)
        port = free_port()
        env = {"SPITLOG_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
               "SPITLOG_BIND": f"127.0.0.1:{port}", "SPITLOG_WORKERS": "1",
               "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0",
               "SPITLOG_RATE_SEAT": "0", "SPITLOG_RATE_GAMES": "0",
               "SPITLOG_LIVE_FRAMES_PER_S": "100000"}  # fmt: skip
        proc = start_server(["-m", "service.cli", "serve"], env, port)
        base = f"http://127.0.0.1:{port}"
        try:
            for r in range(rounds):
                for kind, play in (("http", _pair_http), ("channel", _pair_channel)):
                    out: list = []
                    cpu0 = cpu_seconds(proc.pid)
                    threads = [threading.Thread(target=play, args=(base, seconds, i, out))
                               for i in range(pairs)]  # fmt: skip
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join(seconds + 120)
                    cpu = cpu_seconds(proc.pid) - cpu0
                    acts, ok, reads = (sum(x[i] for x in out) for i in range(3))
                    got[kind].append({"per_act": 1000 * cpu / acts, "per_ok": 1000 * cpu / ok,
                                      "acts": acts, "ok": ok, "reads": reads})  # fmt: skip
                    print(f"  round {r + 1} {kind:8s} {acts} acts ({ok} 201, {reads} reads): "
                          f"{1000 * cpu / acts:.3f} ms CPU per act", flush=True)  # fmt: skip
        finally:
            stop(proc)
            stop(redis_proc)
    med = {k: {f: statistics.median(x[f] for x in v) for f in ("per_act", "per_ok")}
           for k, v in got.items()}  # fmt: skip
    med["ratio"] = med["channel"]["per_act"] / med["http"]["per_act"]
    return med


def service_table(med: dict) -> str:
    """``service``'s figures as a Markdown table."""
    ratio = med["ratio"]
    rows = ["| transport | server CPU per act | per act answered 201 | channel / POST |",
            "|---|---|---|---|",
            f"| POST /actions (+ a read after each refusal) | {med['http']['per_act']:.3f} ms "
            f"| {med['http']['per_ok']:.3f} ms | 1.00 |",
            f"| seat channel (views pushed) | {med['channel']['per_act']:.3f} ms "
            f"| {med['channel']['per_ok']:.3f} ms | {ratio:.2f} |"]  # fmt: skip
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="3 s windows in place of 8 s")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(KINDS), help="the servers, comma-separated")
    ap.add_argument("--checks", action="store_true", help="the correctness probes alone")
    ap.add_argument("--clients", action="store_true", help="the client libraries alone")
    ap.add_argument("--service", action="store_true",
                    help="the seat channel against POST /actions")  # fmt: skip
    ap.add_argument("--serve", nargs=2, metavar=("KIND", "PORT"), help=argparse.SUPPRESS)
    ap.add_argument("--client-lib", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return
    if args.client_lib:
        name, port, count = args.client_lib
        print(json.dumps(client_lib(name, int(port), int(count))))
        return
    if args.service:
        t0, load = time.monotonic(), os.getloadavg()[0]
        table_ = service_table(service(8, 5.0 if args.quick else 15.0, args.rounds))
        print(f"\nspitlog serve (1 gevent worker), 8 games played flat out; "
              f"{time.monotonic() - t0:.0f} s, load average {load:.2f} at the start, "
              f"{os.getloadavg()[0]:.2f} at the end\n{table_}")  # fmt: skip
        return
    kinds = tuple(args.kinds.split(","))
    wanted = (WS_KINDS if args.checks else ("poc", "websocket-client", "httpx-ws")
              if args.clients else kinds)  # fmt: skip
    if absent := missing(wanted):
        sys.exit(
            f"bench_ws.py compares libraries the service does not install: "
            f"pip install {' '.join(absent)}"
        )
    if args.checks:
        print(checks())
        return
    if args.clients:
        print(clients(1000 if args.quick else 3000))
        return
    if "http" not in kinds:
        kinds = ("http", *kinds)
    t0 = time.monotonic()
    load = os.getloadavg()[0]
    got = bench(args.rounds, 3.0 if args.quick else 8.0, kinds)
    print(
        f"\nWebSocket servers under gunicorn -k gevent (1 worker) against the HTTP floor; "
        f"{time.monotonic() - t0:.0f} s, load average {load:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end"
    )
    print(f"act frame {len(ACT)} bytes in, view {len(VIEW)} bytes out")
    print(table(got))


if __name__ == "__main__":
    main()
