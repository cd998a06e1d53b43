"""Service benchmarks, side by side in one run; prints its figures.

    python bench/bench_service.py            # about two minutes
    python bench/bench_service.py --quick    # shorter runs, rougher figures

Everything runs on loopback: a redis-server of its own (no persistence), the API under
gunicorn with gevent workers (``spitlog serve``), and load generators in other
processes. Loops are bounded in count and time. Measures:

1. action throughput under gunicorn against the floor, a bare Flask endpoint doing one
   EVALSHA on the same Redis under the same gunicorn settings (target: ratio >= 0.7);
2. the cost of an action (and of a read) at a game's 10th event and at its 1,000th
   (target: no more than 15% slower), with each process's state cache on and off;
3. the time from an append to its arrival on SSE streams, with 1,000 streams open on
   one gevent API process (target: p99 <= 25 ms);
4. the live loop of games of two people at human pace, side by side: each person reading
   the game after each batch of events (the old loop) against the views the stream of
   views brings (``?views=true``): the API's CPU and reads per game-second.
"""

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support, service


# ---------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def start_redis(workdir: str, *flags: str) -> tuple[subprocess.Popen, int]:
    """The tests' redis-server (tests/support/redis_server.py), the same way."""
    from tests.support.redis_server import start_redis as start

    try:
        return start(workdir, *flags)
    except RuntimeError as e:
        sys.exit(str(e))


def start_server(args: list[str], env: dict, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    wait_port(port)
    time.sleep(1.0)  # let every worker boot
    return proc


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def serve_api(redis_port: int, workers: int, **env) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = start_server(
        ["-m", "service.cli", "serve"],
        {"SPITLOG_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
         "SPITLOG_BIND": f"127.0.0.1:{port}", "SPITLOG_WORKERS": str(workers),
         "SPITLOG_WORKER_CONNECTIONS": "3000",
         # limits off: these clients act far faster than any client, all from loopback
         # (bench/flood.py measures with them on)
         "SPITLOG_RATE_ACTIONS": "0", "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_GAMES": "0",
         "SPITLOG_RATE_SEAT": "0", "SPITLOG_RATE_AUTH_FAILURES": "0",
         "SPITLOG_STREAMS_PER_CLIENT": "0", "SPITLOG_STREAMS_PER_ADDRESS": "0",
         **{k: str(v) for k, v in env.items()}},
        port,
    )  # fmt: skip
    return proc, port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (gunicorn's workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(c) for c in children.read_text().split()]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


# ---------------------------------------------------------------- the floor: one EVALSHA


def serve_bare(redis_port: int, port: int, workers: int, ours: bool = False) -> None:
    """The floor: gunicorn + gevent + Flask, one JSON body in, one EVALSHA, JSON out; on
    redis-py's default connections, or (``ours``) on the API's (service/store/connect.py)."""
    from gunicorn.app.base import BaseApplication

    class Bare(BaseApplication):
        def load_config(self):
            settings = {"bind": f"127.0.0.1:{port}", "workers": workers,
                        "worker_class": "gevent", "worker_connections": 3000,
                        "control_socket_disable": True, "loglevel": "warning"}  # fmt: skip
            for k, v in settings.items():
                if k in self.cfg.settings:
                    self.cfg.set(k, v)

        def load(self):
            import redis
            from flask import Flask, Response, request

            app = Flask("bare")
            if ours:
                from service.store.connect import clients

                r, _live = clients(f"redis://127.0.0.1:{redis_port}/0", 64)
            else:
                r = redis.Redis(port=redis_port)
            script = r.register_script("return redis.call('XADD', KEYS[1], '*', 'e', ARGV[1])")

            @app.post("/bare/<key>")
            def bare(key):
                entry = script(keys=[f"bare:{key}"], args=[json.dumps(request.get_json())])
                return Response(json.dumps({"id": entry.decode()}), mimetype="application/json")

            return app

    Bare().run()


# ---------------------------------------------------------------- a small HTTP client


class Conn:
    """HTTP/1.1 keep-alive over a raw socket: light enough not to be the bottleneck."""

    def __init__(self, port: int, addr: str | None = None):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        # the client's own address, as a trusted proxy would say it (X-Forwarded-For)
        self.xff = f"X-Forwarded-For: {addr}\r\n" if addr else ""

    def request(self, method: str, path: str, body=None, headers: dict | None = None):
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(data)}\r\n"
        head += self.xff
        if body is not None:
            head += "Content-Type: application/json\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        self.sock.sendall(head.encode() + b"\r\n" + data)
        while b"\r\n\r\n" not in self.buf:
            self._recv()
        raw, _, rest = self.buf.partition(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            k, _, v = line.partition(":")
            if k.lower() == "content-length":
                length = int(v)
        self.buf = rest
        while len(self.buf) < length:
            self._recv()
        out, self.buf = self.buf[:length], self.buf[length:]
        return status, (json.loads(out) if out else None)

    def _recv(self):
        chunk = self.sock.recv(262144)
        if not chunk:
            raise ConnectionError("closed")
        self.buf += chunk


class Player:
    """Drives one game for both seats from one connection, with each seat's legal
    actions from its own last answer (a read for the other seat when it is its turn)."""

    def __init__(self, conn: Conn, rng: random.Random, game="spit", options=None):
        self.c, self.rng, self.game, self.options = conn, rng, game, options or {}
        self.new_game()

    def new_game(self):
        _s, g = self.c.request("POST", "/v1/games", {"game": self.game, "options": self.options})
        self.id = g["id"]
        _s, j = self.c.request("POST", f"/v1/games/{self.id}/seats", {})
        self.tokens = (g["token"], j["token"])
        self.views = [g["state"], j["state"]]
        self.seat = 0
        self.version = j["state"]["version"]

    def step(self) -> tuple[str, float, int]:
        """One request: an action of the current seat from its last view (which may be
        behind: the service judges it on the log), or a read when the seat has nothing to
        do or was refused. Returns ("acted" | "refused" | "read", seconds, version before)."""
        view = self.views[self.seat]
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
        auth = {"Authorization": f"Bearer {self.tokens[self.seat]}"}
        t = time.perf_counter()
        if not acts or view["version"] < 0:
            _s, v = self.c.request("GET", f"/v1/games/{self.id}", headers=auth)
            self.views[self.seat] = v
            if v["status"] != "running":
                self.new_game()
            elif not [a for a in v["legal_actions"] if a["type"] != "resign"]:
                self.seat = 1 - self.seat
            return "read", time.perf_counter() - t, self.version
        before = self.version
        status, body = self.c.request("POST", f"/v1/games/{self.id}/actions",
                                      self.rng.choice(acts), headers=auth)  # fmt: skip
        took = time.perf_counter() - t
        if status == 201:
            self.views[self.seat] = body["state"]
            self.version = body["version"]
            if self.rng.random() < 0.3:
                self.seat = 1 - self.seat
            return "acted", took, before
        self.views[self.seat] = {**view, "version": -1}  # read before acting again
        return "refused", took, before


# ---------------------------------------------------------------- 1. throughput


def _load(kind: str, port: int, seconds: float, seed: int, out) -> None:
    """One load-generating thread: bare requests, reads of a view, or a game's actions."""
    rng = random.Random(seed)
    conn = Conn(port, f"10.9.{seed // 250 % 250}.{seed % 250 + 1}")  # one address a client
    counts = {"ops": 0, "acted": 0, "refused": 0, "read": 0}
    end = time.perf_counter() + seconds
    if kind == "bare":
        body = {"type": "play", "from": 1, "to": 0}
        while time.perf_counter() < end:
            status, _b = conn.request("POST", f"/bare/k{seed % 64}", body)
            counts["ops"] += status == 200
    elif kind == "read":
        player = Player(conn, rng)
        auth = {"Authorization": f"Bearer {player.tokens[0]}"}
        while time.perf_counter() < end:
            status, _b = conn.request("GET", f"/v1/games/{player.id}", headers=auth)
            counts["ops"] += status == 200
    else:
        player = Player(conn, rng)
        while time.perf_counter() < end:
            what, _t, _v = player.step()
            counts[what] += 1
        counts["ops"] = counts["acted"]
    counts["requests"] = counts["acted"] + counts["refused"] + counts["read"] or counts["ops"]
    out.put(counts)


def _load_process(kind, port, seconds, seed, threads, out):
    ts = [threading.Thread(target=_load, args=(kind, port, seconds, seed * 100 + i, out))
          for i in range(threads)]  # fmt: skip
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def run_load(kind: str, port: int, seconds: float, procs: int = 2, threads: int = 8):
    """(operations per second, summed counts) over ``seconds``, procs x threads clients."""
    out = mp.Queue()
    ps = [mp.Process(target=_load_process, args=(kind, port, seconds, i + 1, threads, out))
          for i in range(procs)]  # fmt: skip
    t = time.perf_counter()
    for p in ps:
        p.start()
    total: dict = {}
    for _ in range(procs * threads):
        for k, v in out.get(timeout=seconds + 60).items():
            total[k] = total.get(k, 0) + v
    for p in ps:
        p.join()
    return total["ops"] / (time.perf_counter() - t), total


def measure(proc, kind: str, port: int, redis_pid: int, seconds: float) -> dict:
    """Closed-loop rate of the server ``proc`` under ``kind`` load (``run_load``) after a
    2 s warm-up, and the CPU it (and Redis) spent per operation."""
    run_load(kind, port, 2)  # warm up
    cpu0, rcpu0 = cpu_seconds(proc.pid), cpu_seconds(redis_pid)
    rate, counts = run_load(kind, port, seconds)
    n = counts["ops"]
    return {"rate": rate, "counts": counts,
            "cpu_ms": 1000 * (cpu_seconds(proc.pid) - cpu0) / n,
            "redis_ms": 1000 * (cpu_seconds(redis_pid) - rcpu0) / n}  # fmt: skip


def floor(redis_port: int, redis_pid: int, seconds: float, kind: str = "default") -> dict:
    """The floor (``serve_bare``, 2 gevent workers, on redis-py's connections or, with
    ``kind="ours"``, the API's) under 16 keep-alive clients: ``measure``'s figures."""
    port = free_port()
    bare = start_server([__file__, "--serve-bare", str(redis_port), str(port), kind], {}, port)
    try:
        return measure(bare, "bare", port, redis_pid, seconds)
    finally:
        stop(bare)


def throughput(redis_port: int, redis_pid: int, seconds: float) -> dict:
    """Closed-loop throughput of each server, and the CPU it (and Redis) spent per
    operation. The load generators share the two cores with the servers, so the CPU
    figures say more: how many operations a core could serve."""
    floors = {kind: floor(redis_port, redis_pid, seconds, kind) for kind in ("default", "ours")}
    floor_ = floors["default"]
    api, port = serve_api(redis_port, workers=2)
    try:
        reads = measure(api, "read", port, redis_pid, seconds)
        acts = measure(api, "api", port, redis_pid, seconds)
    finally:
        stop(api)
    c = acts["counts"]
    # the CPU of the reads a player needed between its actions, taken out
    alone = acts["cpu_ms"] - c["read"] / c["acted"] * reads["cpu_ms"]
    return {
        "floor": floor_,
        "floor_ours": floors["ours"],
        "reads": reads,
        "api": acts,
        "action_cpu_ms": alone,
        "ratio": acts["rate"] / floor_["rate"],
        "cpu_ratio": floor_["cpu_ms"] / alone,
        "cpu_ratio_ours": floors["ours"]["cpu_ms"] / alone,
    }


# every limit on at rates no client here reaches: each request pays for its buckets (the
# code path of the defaults) and none is refused; one trusted proxy, so that each load
# generating client is charged at an address of its own (X-Forwarded-For, ``Conn``)
LIMITS_NEVER_HIT = {
    "SPITLOG_RATE_ACTIONS": 1e6, "SPITLOG_RATE_ACTIONS_BURST": 10**6,
    "SPITLOG_RATE_REQUESTS": 1e6, "SPITLOG_RATE_REQUESTS_BURST": 10**6,
    "SPITLOG_RATE_GAMES": 1e6, "SPITLOG_RATE_GAMES_BURST": 10**6,
    "SPITLOG_RATE_SEAT": 1e6, "SPITLOG_RATE_SEAT_BURST": 10**6,
    "SPITLOG_RATE_AUTH_FAILURES": 1e6, "SPITLOG_RATE_AUTH_FAILURES_BURST": 10**6,
    "SPITLOG_STREAMS_PER_CLIENT": 1000, "SPITLOG_STREAMS_PER_ADDRESS": 2000,
    "SPITLOG_TRUSTED_PROXIES": 1,
}  # fmt: skip


def per_request(m: dict) -> dict:
    """``measure``'s figures per request (actions, refusals and reads alike)."""
    c = m["counts"]
    k = c["requests"] / c["ops"]
    return {"rate": m["rate"] * k, "cpu_ms": m["cpu_ms"] / k, "redis_ms": m["redis_ms"] / k}


def limits_cost(redis_port: int, redis_pid: int, seconds: float, runs: int = 1) -> dict:
    """Closed-loop requests per second of the API with the limits off and on (never hit),
    players (actions and the reads they make between them) and reads alone, against the
    floor's; ``runs`` rounds of floor, off, on, side by side, each figure their median."""
    got: dict[str, list] = {}
    for _ in range(runs):
        got.setdefault("floor", []).append(floor(redis_port, redis_pid, seconds))
        for name, env in (("off", {}), ("on", LIMITS_NEVER_HIT)):
            api, port = serve_api(redis_port, workers=2, **env)
            try:
                got.setdefault(f"players_{name}", []).append(
                    per_request(measure(api, "api", port, redis_pid, seconds))
                )
                got.setdefault(f"reads_{name}", []).append(
                    measure(api, "read", port, redis_pid, seconds)
                )
            finally:
                stop(api)
    out = {k: {f: statistics.median(m[f] for m in ms) for f in ("rate", "cpu_ms", "redis_ms")}
           for k, ms in got.items()}  # fmt: skip
    out["runs"] = got
    return out


# ---------------------------------------------------------------- 2. cost by game length


def cost_by_length(redis_port: int, samples: int, cache: int) -> dict:
    """Mean time of an action and of a read around a game's 10th event and its 1,000th.
    Speed matches to a high target score run long; two gunicorn workers share the load,
    so half the requests meet a process whose cache is behind."""
    api, port = serve_api(redis_port, workers=2, SPITLOG_STATE_CACHE=cache)
    opts = {"target_score": 10_000, "max_rounds": 10_000}
    try:
        conn = Conn(port)
        rng = random.Random(3)
        windows = {10: [], 1000: []}
        players = [Player(conn, rng, "speed", opts) for _ in range(max(1, samples // 40))]
        for p in players:
            while p.version < 1060:
                what, took, before = p.step()
                for start, acts in windows.items():
                    if what == "acted" and start <= before < start + 50:
                        acts.append(took)
        out = {}
        for start, acts in windows.items():
            view_t = []
            p = players[0]
            for _ in range(samples):
                t = time.perf_counter()
                conn.request("GET", f"/v1/games/{p.id}/states/{start}")
                view_t.append(time.perf_counter() - t)
            out[start] = {
                "action_ms": 1000 * statistics.mean(acts),
                "n": len(acts),
                "state_at_ms": 1000 * statistics.median(view_t),
            }
        return out
    finally:
        stop(api)


# ---------------------------------------------------------------- 3. SSE latency


DELIVERIES = ("sse", "ndjson", "channel")  # how ``sse_latency``'s viewers listen


def _event_times(kind: str, line: bytes) -> list[float]:
    """The ``at`` of each event a line of ``kind`` carries (none for keep-alives, views,
    hellos and results)."""
    if kind == "sse":
        if not line.startswith(b"data: "):
            return []
        i = line.find(b'"at":')
        return [float(line[i + 5 :].split(b",", 1)[0])] if i >= 0 else []
    if kind == "ndjson":
        if not line.startswith(b'{"type":"event"'):
            return []
        return [json.loads(line)["event"]["at"]]
    msg = json.loads(line)  # the channel: a text message
    return [e["at"] for e in msg.get("events", ())] if msg.get("op") == "events" else []


async def _streams(port: int, targets: list[tuple[str, str | None, int]], ready, lat, stop_at,
                   kind: str = "sse"):  # fmt: skip
    """Hold one stream per target, of ``kind`` (``DELIVERIES``): an SSE stream of the
    events; an NDJSON stream with the viewer's views (``?views=true``); the seat channel
    (a seat's with a ticket, a spectator's without). Record now - event.at for each event
    received."""

    async def listen(receive):
        """Each message ``receive()`` brings until ``stop_at`` or the end (b""): the delay
        of every event in it."""
        while time.time() < stop_at:
            try:
                data = await asyncio.wait_for(receive(), stop_at - time.time())
            except TimeoutError:
                break
            if not data:
                break
            now = time.time()
            lat.extend(now - at for at in _event_times(kind, data.strip(b"\r\n")))

    async def http_stream(gid: str, token: str | None, after: int):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        query, accept = (f"after={after}", "text/event-stream") if kind == "sse" else \
            (f"after={after}&views=true", "application/x-ndjson")  # fmt: skip
        writer.write(f"GET /v1/games/{gid}/events?{query} HTTP/1.1\r\nHost: b\r\n"
                     f"Accept: {accept}\r\n{auth}\r\n".encode())  # fmt: skip
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        ready.append(1)
        # (chunked: the chunk-size lines carry no event)
        await listen(lambda: reader.readline())
        writer.close()

    async def channel(gid: str, token: str | None, after: int):
        from websockets.asyncio.client import connect

        protocols = ["spitlog.v1"]
        if token is not None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            status, body = await _http(reader, writer, "POST", f"/v1/games/{gid}/tickets",
                                       f"Authorization: Bearer {token}\r\n")  # fmt: skip
            writer.close()
            if status != 201:
                return
            protocols.append("spitlog.ticket." + json.loads(body)["ticket"])
        uri = f"ws://127.0.0.1:{port}/v1/games/{gid}/live?after={after}"
        async with connect(uri, subprotocols=protocols, compression=None,
                           open_timeout=60) as ws:  # fmt: skip
            await ws.recv()  # hello
            ready.append(1)
            await listen(lambda: ws.recv(decode=False))

    one = channel if kind == "channel" else http_stream
    await asyncio.gather(*(one(*target) for target in targets), return_exceptions=True)


def _stream_process(port, targets, seconds, out, kind="sse"):
    ready, lat = [], []
    stop_at = time.time() + seconds
    loop = asyncio.new_event_loop()
    task = loop.create_task(_streams(port, targets, ready, lat, stop_at, kind))

    async def report_ready():
        while len(ready) < len(targets) and time.time() < stop_at:
            await asyncio.sleep(0.05)
        out.put(("ready", len(ready)))

    loop.run_until_complete(asyncio.gather(task, report_ready()))
    out.put(("lat", lat))


def sse_latency(redis_port: int, streams: int, seconds: float, rate: float,
                kind: str = "sse") -> dict:  # fmt: skip
    """``streams`` viewers on one gevent process (4 per game: both seats and two
    spectators), each listening as ``kind`` says (``_streams``); another process acts on
    random games at ``rate`` actions per second."""
    api, port = serve_api(redis_port, workers=1, SPITLOG_SSE_MAX_S=seconds + 60)
    try:
        conn = Conn(port)
        rng = random.Random(5)
        players = [Player(conn, rng) for _ in range(streams // 4)]
        targets = []
        for p in players:
            targets += [(p.id, tok, p.version) for tok in (*p.tokens, None, None)]
        out = mp.Queue()
        listener = mp.Process(target=_stream_process,
                              args=(port, targets, seconds + 30, out, kind))  # fmt: skip
        listener.start()
        _ready, opened = out.get(timeout=60)
        time.sleep(1)
        sent = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t = time.perf_counter()
            what, _took, _v = rng.choice(players).step()
            sent += what == "acted"
            time.sleep(max(0.0, 1 / rate - (time.perf_counter() - t)))
        _lat, lat = out.get(timeout=seconds + 90)
        listener.join(10)
        lat_ms = sorted(1000 * x for x in lat)
        q = lambda p: lat_ms[min(len(lat_ms) - 1, int(p * len(lat_ms)))]  # noqa: E731
        return {"streams": opened, "actions": sent, "deliveries": len(lat_ms),
                "p50_ms": q(0.50), "p99_ms": q(0.99), "max_ms": lat_ms[-1]}  # fmt: skip
    finally:
        stop(api)


# ---------------------------------------------------------------- the live loop, old and new

THINK_S = (0.6, 1.4)  # a person's think time between two moves (capacity.py's)


async def _http(reader, writer, method: str, path: str, head: str, body: bytes = b""):
    """One request on a keep-alive connection: (status, body)."""
    data = (
        f"{method} {path} HTTP/1.1\r\nHost: bench\r\n{head}Content-Length: {len(body)}"
        "\r\n" + ("Content-Type: application/json\r\n" if body else "") + "\r\n"
    )
    writer.write(data.encode() + body)
    head_bytes = await reader.readuntil(b"\r\n\r\n")
    status = int(head_bytes[9:12])
    length = 0
    for line in head_bytes.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return status, (await reader.readexactly(length)) if length else b""


class _Person:
    """A seat played at human pace. Mode ``poll``: its stream carries the events only and
    each event batch makes it read the game (``GET``), as both example bots did; mode
    ``views``: its stream carries its views (``?views=true``) and it never reads."""

    def __init__(self, port: int, gid: str, token: str, view: dict, mode: str, counts: dict,
                 rng: random.Random):  # fmt: skip
        self.port, self.gid, self.mode, self.counts, self.rng = port, gid, mode, counts, rng
        self.auth = f"Authorization: Bearer {token}\r\n"
        self.view, self.over, self.dirty = view, False, asyncio.Event()

    def keep(self, view: dict) -> None:
        if view["version"] > self.view["version"]:
            self.view = view
        if view["status"] not in ("running", "waiting"):
            self.over = True

    async def stream(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        q = "?views=true" if self.mode == "views" else ""
        after = "" if self.mode == "views" else f"Last-Event-ID: {self.view['version']}\r\n"
        writer.write(
            f"GET /v1/games/{self.gid}/events{q} HTTP/1.1\r\nHost: bench\r\n"
            f"Accept: text/event-stream\r\n{after}{self.auth}\r\n".encode()
        )
        await reader.readuntil(b"\r\n\r\n")
        view_next = False
        try:
            while not self.over:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"event: view"):
                    view_next = True
                elif line.startswith(b"data: "):
                    if view_next:
                        self.keep(json.loads(line[6:])["state"])
                        view_next = False
                    else:
                        self.counts["events"] += 1
                        self.dirty.set()
        finally:
            writer.close()

    async def reads(self) -> None:
        """Mode ``poll``: a read of the game after each batch of events."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        while not self.over:
            await self.dirty.wait()
            self.dirty.clear()
            status, body = await _http(reader, writer, "GET", f"/v1/games/{self.gid}", self.auth)
            self.counts["reads"] += 1
            if status == 200:
                self.keep(json.loads(body))
        writer.close()

    async def play(self) -> None:
        """Act about once a second on the latest view; a game where neither seat can act for
        5 s (one waiting for a timer: no scheduler runs here) is resigned and replaced."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        stuck = time.monotonic() + 5
        while not self.over:
            await asyncio.sleep(self.rng.uniform(*THINK_S))
            acts = [a for a in self.view.get("legal_actions", []) if a["type"] != "resign"]
            if self.over:
                break
            if acts:
                stuck = time.monotonic() + 5
            elif time.monotonic() < stuck:
                continue
            action = self.rng.choice(acts) if acts else {"type": "resign"}
            key = f"Idempotency-Key: {self.rng.getrandbits(64):016x}\r\n"
            path = f"/v1/games/{self.gid}/actions"
            body = json.dumps(action).encode()
            status, body = await _http(reader, writer, "POST", path, key + self.auth, body)
            self.counts["actions"] += 1
            if status == 201:
                self.keep(json.loads(body)["state"])
        writer.close()


async def _live_games(port: int, games: int, mode: str, seconds: float, counts: dict, mark):
    """``games`` games of two people kept running (an ended one replaced) for ``seconds``
    after a warm-up; ``mark()`` is called when the measured window starts and ends."""
    rng = random.Random(7)
    running: list[asyncio.Task] = []

    async def one_game():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        game = rng.choice(["spit", "speed"])
        _s, body = await _http(reader, writer, "POST", "/v1/games", "",
                               json.dumps({"game": game}).encode())  # fmt: skip
        created = json.loads(body)
        _s, body = await _http(reader, writer, "POST", f"/v1/games/{created['id']}/seats", "",
                               b"{}")  # fmt: skip
        joined = json.loads(body)
        writer.close()
        people = [_Person(port, created["id"], created["token"], created["state"], mode, counts,
                          rng),
                  _Person(port, created["id"], joined["token"], joined["state"], mode, counts,
                          rng)]  # fmt: skip
        tasks = [p.stream() for p in people] + [p.play() for p in people]
        if mode == "poll":
            tasks += [p.reads() for p in people]
        await asyncio.gather(*tasks, return_exceptions=True)
        counts["ended"] += 1

    async def keep(n):
        while True:
            running[:] = [t for t in running if not t.done()]
            while len(running) < n:
                running.append(asyncio.create_task(one_game()))
                await asyncio.sleep(0.01)  # a ramp, not a burst
            await asyncio.sleep(0.2)

    keeper = asyncio.create_task(keep(games))
    await asyncio.sleep(10)  # warm-up: the server's workers up, every game created
    mark()
    await asyncio.sleep(seconds)
    mark()
    keeper.cancel()
    for t in running:
        t.cancel()
    await asyncio.gather(*running, return_exceptions=True)


def live_loop(redis_port: int, games: int, seconds: float) -> dict:
    """The API's CPU and reads per game-second of ``games`` games of two people at human
    pace, each person on the old loop (an event, then a read of the game) and on the
    stream of views, side by side (the same API process settings, one after the other)."""
    out = {}
    for mode in ("poll", "views"):
        proc, port = serve_api(redis_port, workers=2)
        try:
            counts = {"reads": 0, "actions": 0, "events": 0, "ended": 0}
            marks: list[tuple[float, float, dict]] = []

            def mark(proc=proc, counts=counts, marks=marks):
                marks.append((time.monotonic(), cpu_seconds(proc.pid), dict(counts)))

            asyncio.run(_live_games(port, games, mode, seconds, counts, mark))
            (t0, c0, n0), (t1, c1, n1) = marks
            game_s = games * (t1 - t0)
            out[mode] = {
                "cpu_ms_per_game_s": 1000 * (c1 - c0) / game_s,
                "reads_per_game_s": (n1["reads"] - n0["reads"]) / game_s,
                "actions_per_game_s": (n1["actions"] - n0["actions"]) / game_s,
                "cpu_ms_per_action": 1000 * (c1 - c0) / max(1, n1["actions"] - n0["actions"]),
            }
        finally:
            stop(proc)
    return out


# ---------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, rougher figures")
    parser.add_argument(
        "--part", choices=("all", "throughput", "limits", "length", "sse", "live"),
        default="all",
        help="run one part only",
    )  # fmt: skip
    parser.add_argument("--runs", type=int, default=1,
                        help="throughput, limits: rounds side by side (medians)")  # fmt: skip
    parser.add_argument("--serve-bare", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        redis_port, port, kind = args.serve_bare
        serve_bare(int(redis_port), int(port), workers=2, ours=kind == "ours")
        return
    quick = args.quick
    print(f"spitlog service benchmarks ({os.cpu_count()} cores; loopback; own redis-server)")
    with tempfile.TemporaryDirectory() as workdir:
        redis_proc, redis_port = start_redis(workdir)
        try:
            part = args.part
            if part in ("all", "throughput"):
                report_throughput(redis_port, redis_proc.pid, quick, args.runs)
            if part in ("all", "limits"):
                report_limits(redis_port, redis_proc.pid, quick, args.runs)
            if part in ("all", "length"):
                report_length(redis_port, quick)
            if part in ("all", "sse"):
                report_sse(redis_port, quick)
            if part in ("all", "live"):
                report_live(redis_port, quick)
        finally:
            stop(redis_proc)


def report_throughput(redis_port: int, redis_pid: int, quick: bool, runs: int = 1) -> None:
    """The figures of ``runs`` rounds (each the floors and the API side by side): the
    round whose CPU ratio is the median in full (of an even number, the upper of the two
    middle ones), and every round's ratios."""
    runs = max(1, runs)
    rounds = [throughput(redis_port, redis_pid, seconds=5 if quick else 15) for _ in range(runs)]
    rounds.sort(key=lambda t: t["cpu_ratio"])
    t = rounds[len(rounds) // 2]
    f, fo, r, a = t["floor"], t["floor_ours"], t["reads"], t["api"]
    c = a["counts"]
    print("\n1. throughput under gunicorn (2 gevent workers), 16 keep-alive clients")
    print(
        f"   floor: Flask + one EVALSHA   {f['rate']:6.0f} requests/s; server CPU "
        f"{f['cpu_ms']:.3f} ms/request (Redis {f['redis_ms']:.3f})"
    )
    print(
        f"   the same, API's connections  {fo['rate']:6.0f} requests/s; server CPU "
        f"{fo['cpu_ms']:.3f} ms/request (service/store/connect.py)"
    )
    print(
        f"   GET /v1/games/{{id}}          {r['rate']:6.0f} reads/s;    server CPU "
        f"{r['cpu_ms']:.3f} ms/read (Redis {r['redis_ms']:.3f})"
    )
    print(
        f"   POST .../actions (players)   {a['rate']:6.0f} actions/s;  server CPU "
        f"{a['cpu_ms']:.3f} ms/action with {c['read'] / c['acted']:.2f} reads and "
        f"{c['refused'] / c['acted']:.2f} refusals each; "
        f"{t['action_cpu_ms']:.3f} ms without the reads"
    )
    print(
        f"   ratio to the floor: closed loop {t['ratio']:.2f}; server CPU per action "
        f"{t['cpu_ratio']:.2f} ({t['cpu_ratio_ours']:.2f} to the floor on the API's "
        f"connections)   (targets: closed loop >= 0.70; CPU per action >= 0.80)"
    )
    if runs > 1:
        print(
            f"   {runs} rounds, CPU per action to the floor: "
            + ", ".join(f"{x['cpu_ratio']:.2f}" for x in rounds)
            + f" (median {t['cpu_ratio']:.2f}; the round above is the median's); closed loop: "
            + ", ".join(f"{x['ratio']:.2f}" for x in rounds)
        )


def report_limits(redis_port: int, redis_pid: int, quick: bool, runs: int) -> None:
    t = limits_cost(redis_port, redis_pid, seconds=5 if quick else 10, runs=runs)
    f = t["floor"]
    print(f"\n1b. the limits' cost: requests per second, closed loop, 16 clients (median of "
          f"{runs} run{'s' if runs > 1 else ''})")  # fmt: skip
    print(f"   floor                          {f['rate']:6.0f} req/s; server CPU "
          f"{f['cpu_ms']:.3f} ms/request")  # fmt: skip
    for what in ("players", "reads"):
        for on in ("off", "on"):
            m = t[f"{what}_{on}"]
            ratio = m["rate"] / f["rate"]
            print(f"   {what:7} limits {on:3}  {m['rate']:6.0f} req/s = {ratio:.2f} x "
                  f"the floor; server CPU {m['cpu_ms']:.3f} ms/request (floor / it: "
                  f"{f['cpu_ms'] / m['cpu_ms']:.2f}; Redis {m['redis_ms']:.3f})")  # fmt: skip
        on, off = t[f"{what}_on"], t[f"{what}_off"]
        print(
            f"   {what:7} on / off  {on['rate'] / off['rate']:.2f} (rate), "
            f"{off['cpu_ms'] / on['cpu_ms']:.2f} (CPU)   (target: on >= 0.70 x the floor)"
        )


def report_length(redis_port: int, quick: bool) -> None:
    print("\n2. cost at a game's 10th vs 1,000th event (Speed match; 2 workers)")
    for cache in (2048, 0):
        c = cost_by_length(redis_port, samples=100 if quick else 300, cache=cache)
        a10, a1k = c[10]["action_ms"], c[1000]["action_ms"]
        print(f"   state cache {cache:>4}: action {a10:.2f} ms at 10 (n={c[10]['n']}), "
              f"{a1k:.2f} ms at 1000 (n={c[1000]['n']}): {100 * (a1k / a10 - 1):+.0f}%;"
              f"  GET states/v {c[10]['state_at_ms']:.2f} vs "
              f"{c[1000]['state_at_ms']:.2f} ms   (target <= +15%)")  # fmt: skip


def report_sse(redis_port: int, quick: bool) -> None:
    print("\n3. Delivery to 1,000 viewers, one gevent API process (SSE events; NDJSON with "
          "views; the seat channel)")  # fmt: skip
    for kind in DELIVERIES:
        s = sse_latency(redis_port, streams=1000, seconds=10 if quick else 20, rate=25,
                        kind=kind)  # fmt: skip
        print(
            f"   {kind:>7}: {s['streams']} open, {s['actions']} actions, "
            f"{s['deliveries']} deliveries: p50 {s['p50_ms']:.1f} ms, "
            f"p99 {s['p99_ms']:.1f} ms, max {s['max_ms']:.1f} ms   (target p99 <= 25 ms)"
        )


def report_live(redis_port: int, quick: bool) -> None:
    games = 60  # well below what the box holds: the figures are the loop's, not a queue's
    r = live_loop(redis_port, games, seconds=15 if quick else 30)
    old, new = r["poll"], r["views"]
    print(
        f"\n4. The live loop, {games} games of two people at human pace (2 gevent workers; "
        f"load average {os.getloadavg()[0]:.1f})"
    )
    for name, m in (("event, then GET   ", old), ("views in the stream", new)):
        print(
            f"   {name}: API CPU {m['cpu_ms_per_game_s']:.2f} ms per game-second, "
            f"{m['reads_per_game_s']:.2f} reads per game-second, "
            f"{m['actions_per_game_s']:.2f} actions per game-second, "
            f"{m['cpu_ms_per_action']:.2f} ms per action"
        )
    ratio = new["cpu_ms_per_game_s"] / old["cpu_ms_per_game_s"]
    per_action = new["cpu_ms_per_action"] / old["cpu_ms_per_action"]
    print(
        f"   views / old: API CPU per game-second {ratio:.2f}, per action {per_action:.2f}; "
        f"reads per game-second {new['reads_per_game_s']:.2f} against "
        f"{old['reads_per_game_s']:.2f}"
    )


if __name__ == "__main__":
    main()
