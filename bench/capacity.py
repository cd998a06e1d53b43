"""Capacity: how many games at human pace this box holds at once.

    PYTHONPATH=. python bench/capacity.py                        # both runs, ~12 min
    PYTHONPATH=. python bench/capacity.py --quick                # shorter steps, rougher
    PYTHONPATH=. python bench/capacity.py --mix humans --levels 200,400,800 --window 15
    PYTHONPATH=. python bench/capacity.py --mix humans --clients http,views,channel  # side by side

The service as deployed, on loopback: ``spitlog serve`` (2 gunicorn gevent workers,
the default limits on), ``spitlog worker`` (``--workers``) and ``spitlog scheduler`` on
a redis-server of its own (no persistence), with ``SPITLOG_TRUSTED_PROXIES=1`` and an
``X-Forwarded-For`` address of its own for each simulated client: the limits apply per
client as they would behind a proxy, instead of all clients sharing 127.0.0.1's buckets.
A finished game is archived 10 s after its end and deleted from Redis 10 s later
(``SPITLOG_REMATCH_S`` 5, ``SPITLOG_RETAIN_S`` 10, instead of a minute and an hour), so
that the jobs of every game's way out run within the windows of a short run, as they do
in a service that has run for an hour; Redis then holds fewer finished games than it
would (``redis_bytes`` counts live games and the last 20 s of finished ones).

**The players.** Each game is two simulated people (or, in the bot run, every other
game one person against a hosted ``bot:hard``). Each person has a keep-alive
connection for requests and an SSE stream of the game's events (``Accept:
text/event-stream``), and acts about once a second (a think time drawn uniformly
from 0.6-1.4 s): a legal move from its latest view, each with an ``Idempotency-Key``.
Its view comes from its own actions' answers and from a ``GET /v1/games/{id}`` (with
``If-None-Match``) every 2-4 s, and at once after a refusal. A game that ends is
replaced by a new one, so the number of games holds.

**The clients** (``--clients``, each a ramp of its own in one run, on one service build):
``http`` as above (today's REST clients: a stream of events, and reads); ``views``: the
stream carries the person's views (``?views=true``) and it never reads; ``channel``: one
WebSocket per person (``GET /v1/games/{id}/live`` with a ticket, ``spitlog.v1``): its
actions go over it and its views come on it, no request after the seat is taken.

**The ramp.** For each level (``--levels``): bring the games up to that number, let it
settle (``--warmup``), then measure a window (``--window``): the latency of every
action (all of ``POST .../actions``, a 422 included) and every read, the SSE delivery
delay (arrival - the event's ``at``, of the events appended while the stream was
open: a stream opened late replays the older ones first), the statuses, the bots' due-time precision
(``SPITLOG_TRACE=1``: |job start - due| of every bot turn, as bench_workers.py reads
it), and the CPU of each process group from ``/proc`` (the API's gunicorn processes,
redis-server, the worker(s) and the scheduler, the load generator; ``others``: the
rest of the machine, other people's jobs). A level is **held** when the actions' p99 is
<= 50 ms, no answer is a 5xx or a 429 (every client stays far below its limits, so a
429 is unexpected), every game of the level is running, and in the bot run the bots'
due-time p99 is <= 30 ms. The ramp stops at the first level not held; ``--bisect``
tries levels between the last held and it.

**The load generator** is ``--procs`` processes of asyncio with a small HTTP/1.1
client of its own (no parsing beyond the status, the length and the views' JSON), so
that it is not the bottleneck; its CPU is reported with the rest, and its event loop's
lag (how late a 100 ms timer fires) says whether it kept up.
"""

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import os
import random
import re
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import orjson
import redis
from websockets.asyncio.client import connect as ws_connect

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from bench_service import free_port, start_redis, start_server, stop  # noqa: E402
from idle import tree_cpu, used  # noqa: E402

from tests.support.workers_procs import Procs, wait_for_workers  # noqa: E402

THINK_S = (0.6, 1.4)  # a person's think time between two moves
READ_EVERY_S = (2.0, 4.0)  # ... and between two reads of the state
GAMES = ("spit", "speed")
CREATE_AT_ONCE = 16  # games a generator process creates at once (a ramp's pace)
P99_MS = 50.0
DUE_P99_MS = 30.0
LEVELS = (100, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 2000)
QUICK_LEVELS = (100, 200, 400, 700, 1000)


# ---------------------------------------------------------------- a small HTTP client


class Http(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection, one request at a time; answers with a length
    (the API's JSON answers) or none (304, 204)."""

    def __init__(self):
        self.transport = None
        self.buf = bytearray()
        self.waiter: asyncio.Future | None = None
        self.closed = False

    def connection_made(self, transport):
        self.transport = transport
        transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data):
        self.buf += data
        if self.waiter is None or self.waiter.done():
            return
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self.buf[:end]).lower()
        length, i = 0, head.find(b"\r\ncontent-length:")
        if i >= 0:
            j = head.find(b"\r\n", i + 2)
            length = int(head[i + 17 : j if j >= 0 else len(head)])
        total = end + 4 + length
        if len(self.buf) < total:
            return
        body = bytes(self.buf[end + 4 : total])
        del self.buf[:total]
        if b"\r\nconnection: close" in head:
            self.closed = True
        self.waiter.set_result((int(head[9:12]), body))

    def connection_lost(self, exc):
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("closed"))

    async def request(self, data: bytes):
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(data)
        return await self.waiter


def request_bytes(method: str, path: str, headers: str, body: bytes = b"") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\n{headers}Content-Length: {len(body)}\r\n"
    if body:
        head += "Content-Type: application/json\r\n"
    return head.encode() + b"\r\n" + body


_AT = re.compile(rb'"at":([0-9.]+)')
_VERSION = re.compile(rb'"version":(\d+)')


class Sse(asyncio.Protocol):
    """A game's event stream for one person: each event's delay (now - its ``at``) for
    the events appended once the stream was open (a stream opened late first replays
    what it missed: that is no delivery delay), the latest version seen, the end of the
    game."""

    def __init__(self, person):
        self.person = person
        self.buf = b""
        self.started = False
        self.transport = None
        self.opened = time.time()  # events from before: a catch-up, not a delivery
        self.view_next = False  # the next data line is a view (``event: view``)

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        now = time.time()
        buf = self.buf + data
        if not self.started:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf = buf
                return
            status = int(buf[9:12])
            self.person.stats.status["sse", status] += 1
            if status != 200:
                self.person.game.over = status == 204 or self.person.game.over
                self.transport.close()
                return
            self.started = True
            buf = buf[end + 4 :]
        *lines, self.buf = buf.split(b"\n")
        stats = self.person.stats
        for line in lines:
            if line.startswith(b"event: view"):
                self.view_next = True
            elif line.startswith(b"data: ") and self.view_next:
                self.view_next = False
                self.person.on_view(orjson.loads(line[6:])["state"])
            elif line.startswith(b"data: "):
                at, v = _AT.search(line), _VERSION.search(line)
                if at and float(at[1]) >= self.opened:
                    stats.sse_ms.append(1000 * (now - float(at[1])))
                if v:
                    self.person.seen = max(self.person.seen, int(v[1]))
                if b'"type":"game_ended"' in line or b'"type":"game_aborted"' in line:
                    self.person.game.over = True

    def connection_lost(self, exc):
        self.person.sse_closed()


# ---------------------------------------------------------------- the people


class Stats:
    """One window's figures of a generator process."""

    def __init__(self):
        self.act_ms: list[float] = []
        self.read_ms: list[float] = []
        self.sse_ms: list[float] = []
        self.lag_ms: list[float] = []
        self.status: Counter = Counter()
        self.created = self.ended = self.reconnects = 0
        self.t0 = time.monotonic()

    def dump(self) -> dict:
        return {"act_ms": self.act_ms, "read_ms": self.read_ms, "sse_ms": self.sse_ms,
                "lag_ms": self.lag_ms, "status": dict(self.status), "created": self.created,
                "ended": self.ended, "reconnects": self.reconnects,
                "seconds": time.monotonic() - self.t0}  # fmt: skip


class Person:
    """One seat played by a simulated person from an address of their own."""

    def __init__(self, gen: "Gen", addr: str):
        self.gen, self.addr = gen, addr
        self.game: Game | None = None
        self.view: dict = {}
        self.auth = f"X-Forwarded-For: {addr}\r\n"  # until it holds a seat
        self.conn: Http | None = None
        self.sse: Sse | None = None
        self.seen = 0
        self.stale = False
        self.tasks: list[asyncio.Task] = []
        self.ws = None  # the channel, when open (``--clients channel``)
        self.waiting: dict[str, asyncio.Future] = {}  # the channel's actions, by id
        self.sent = 0

    def sit(self, game: "Game", answer: dict) -> None:
        """Hold the seat of a create's or a join's answer."""
        self.game, self.view = game, answer["state"]
        self.seen = self.view["version"]
        self.auth = f"Authorization: Bearer {answer['token']}\r\nX-Forwarded-For: {self.addr}\r\n"
        game.people.append(self)

    @property
    def stats(self) -> Stats:
        return self.gen.stats

    async def connect(self) -> None:
        _t, self.conn = await self.gen.loop.create_connection(Http, "127.0.0.1", self.gen.port)

    async def send(self, data: bytes):
        """The answer to ``data``; once more on a new connection if the server closed it
        (a GET, or an action with its Idempotency-Key: both safe to send again)."""
        for attempt in (0, 1):
            if self.conn is None or self.conn.closed:
                if self.conn is not None:
                    self.stats.reconnects += 1
                await self.connect()
            try:
                return await self.conn.request(data)
            except ConnectionError:
                self.conn.closed = True
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def on_view(self, view: dict) -> None:
        """A view pushed by the stream or the channel: kept if newer than the one held."""
        if view["version"] >= self.view.get("version", 0):
            self.view = view
            self.seen = max(self.seen, view["version"])
            if view["status"] not in ("running", "waiting"):
                self.game.over = True

    def open_stream(self) -> None:
        if self.gen.clients == "channel":
            self.tasks.append(self.gen.loop.create_task(self.channel()))
            return

        async def go():
            path = f"/v1/games/{self.game.id}/events"
            if self.gen.clients == "views":
                path += "?views=true"
            head = f"Accept: text/event-stream\r\nLast-Event-ID: {self.seen}\r\n{self.auth}"
            _t, self.sse = await self.gen.loop.create_connection(
                lambda: Sse(self), "127.0.0.1", self.gen.port
            )
            self.sse.transport.write(request_bytes("GET", path, head))

        self.tasks.append(self.gen.loop.create_task(go()))

    async def channel(self) -> None:
        """The seat's WebSocket: a ticket (``POST .../tickets``), then the channel from
        the version it has; views and events as they come; reopened (and resumed) if the
        server closes it before the game's end."""
        while not (self.game.over or self.game.stopped):
            try:
                status, raw = await self.send(request_bytes(
                    "POST", f"/v1/games/{self.game.id}/tickets", self.auth))  # fmt: skip
                self.stats.status["ticket", status] += 1
                if status != 201:
                    raise ConnectionError(f"ticket {status}")
                ticket = orjson.loads(raw)["ticket"]
                uri = (
                    f"ws://127.0.0.1:{self.gen.port}/v1/games/{self.game.id}/live?after={self.seen}"
                )
                async with ws_connect(uri, subprotocols=["spitlog.v1", f"spitlog.ticket.{ticket}"],
                                      additional_headers={"X-Forwarded-For": self.addr},
                                      compression=None, open_timeout=30) as ws:  # fmt: skip
                    self.ws = ws
                    opened = time.time()
                    async for data in ws:
                        now = time.time()
                        msg = orjson.loads(data)
                        op = msg["op"]
                        if op in ("hello", "events"):
                            for e in msg.get("events", ()):
                                if e["at"] >= opened:
                                    self.stats.sse_ms.append(1000 * (now - e["at"]))
                            self.on_view(msg["state"])
                        elif op in ("result", "problem"):
                            waiter = self.waiting.pop(msg["id"], None)
                            if waiter is not None and not waiter.done():
                                waiter.set_result(msg)
                    self.ws = None
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - counted; then again, resumed
                self.stats.status["channel", type(e).__name__] += 1
            self.ws = None
            for waiter in self.waiting.values():
                if not waiter.done():
                    waiter.set_exception(ConnectionError("channel closed"))
            self.waiting.clear()
            if not (self.game.over or self.game.stopped):
                self.stats.reconnects += 1
                await asyncio.sleep(1.0)

    async def act_on_channel(self, action: dict, key: str) -> tuple[int, dict | None]:
        """An action over the channel: its answer's status and (201) body."""
        while self.ws is None:
            if self.game.over or self.game.stopped:
                raise ConnectionError("no channel")
            await asyncio.sleep(0.05)
        self.sent += 1
        mid = str(self.sent)
        waiter = self.waiting[mid] = self.gen.loop.create_future()
        await self.ws.send(orjson.dumps({"op": "act", "id": mid, "action": action,
                                         "idempotency_key": key}).decode())  # fmt: skip
        msg = await waiter
        return msg["status"], msg.get("body")

    def sse_closed(self) -> None:
        if not self.game.over and not self.game.stopped:  # SPITLOG_SSE_MAX_S: again, resumed
            self.stats.reconnects += 1
            self.gen.loop.call_later(1.0, self.open_stream)

    async def play(self) -> None:
        try:
            await self._play()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - counted (a bug here, or a dropped connection)
            self.stats.status["play", type(e).__name__] += 1
            self.game.over = True

    async def _play(self) -> None:
        rng = self.gen.rng
        read_at = time.monotonic() + rng.uniform(*READ_EVERY_S)
        game = self.game
        while not (game.over or game.stopped):
            await asyncio.sleep(rng.uniform(*THINK_S))
            if game.over or game.stopped:
                break
            now = time.monotonic()
            if self.gen.clients != "http":
                pass  # the views come to it: it never reads
            elif self.stale or now >= read_at:
                read_at = now + rng.uniform(*READ_EVERY_S)
                head = f'If-None-Match: "{self.view["version"]}"\r\n{self.auth}'
                t = time.perf_counter()
                status, body = await self.send(request_bytes("GET", f"/v1/games/{game.id}", head))
                self.stats.read_ms.append(1000 * (time.perf_counter() - t))
                self.stats.status["read", status] += 1
                self.stale = False
                if status == 200:
                    self.view = orjson.loads(body)
                if self.view["status"] not in ("running", "waiting"):
                    game.over = True
                    break
            acts = [a for a in self.view["legal_actions"] if a["type"] != "resign"]
            if not acts:
                self.stale = self.seen > self.view["version"]  # something moved: look again
                continue
            if self.gen.clients == "channel":
                t = time.perf_counter()
                status, body = await self.act_on_channel(
                    rng.choice(acts), f"{rng.getrandbits(64):016x}"
                )
                self.stats.act_ms.append(1000 * (time.perf_counter() - t))
                self.stats.status["act", status] += 1
                if status == 201:
                    self.on_view(body["state"])
                continue
            key = f"Idempotency-Key: {rng.getrandbits(64):016x}\r\n"
            data = request_bytes("POST", f"/v1/games/{game.id}/actions", key + self.auth,
                                 orjson.dumps(rng.choice(acts)))  # fmt: skip
            t = time.perf_counter()
            status, body = await self.send(data)
            self.stats.act_ms.append(1000 * (time.perf_counter() - t))
            self.stats.status["act", status] += 1
            if status == 201 and self.gen.clients == "views":
                self.on_view(orjson.loads(body)["state"])
            elif status == 201:
                self.view = orjson.loads(body)["state"]
                self.stale = self.view["status"] != "running"
            else:  # refused (422: the view was behind; 409: over): look again first
                self.stale = True

    def close(self) -> None:
        for t in self.tasks:
            t.cancel()
        for c in (self.conn, self.sse):
            if c is not None and c.transport is not None:
                c.transport.close()


class Game:
    def __init__(self, gid: str):
        self.id = gid
        self.people: list[Person] = []
        self.over = False
        self.stopped = False


class Gen:
    """One load-generating process: keeps ``target`` games running, on orders from the
    parent (``commands``: a Pipe)."""

    def __init__(self, index: int, port: int, commands, bots: float, seed: int, clients: str):
        self.index, self.port, self.commands, self.bots = index, port, commands, bots
        self.clients = clients  # "http", "views" or "channel"
        self.rng = random.Random(seed)
        self.games: dict[str, Game] = {}
        self.creating = 0
        self.target = 0
        self.stats = Stats()
        self.addresses = 0
        self.done: asyncio.Future | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def address(self) -> str:
        self.addresses += 1
        n = self.addresses
        return f"10.{self.index + 1}.{n >> 8 & 255}.{n & 255}" if n < 65536 else f"11.{n}"

    async def main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.done = self.loop.create_future()
        self.loop.add_reader(self.commands.fileno(), self.on_command)
        tasks = [self.loop.create_task(self.keep_games()), self.loop.create_task(self.lag())]
        await self.done
        for t in tasks:
            t.cancel()
        for g in list(self.games.values()):
            self.stop_game(g)

    def on_command(self) -> None:
        what, arg = self.commands.recv()
        if what == "target":
            self.target = arg
        elif what == "status":
            running = sum(not g.over for g in self.games.values())
            # live: an ended game counts until keep_games (every 50 ms) has its replacement
            # on its way, so that a game caught in between is not taken for a lost one
            self.commands.send({"games": running, "live": len(self.games) + self.creating})
        elif what == "mark":
            self.stats = Stats()
        elif what == "report":
            self.commands.send(self.stats.dump())
            self.stats = Stats()
        elif what == "stop":
            self.done.set_result(None)

    async def lag(self) -> None:
        while True:
            t = time.monotonic()
            await asyncio.sleep(0.1)
            self.stats.lag_ms.append(1000 * (time.monotonic() - t - 0.1))

    async def keep_games(self) -> None:
        while True:
            for g in [g for g in self.games.values() if g.over]:
                self.stop_game(g)
                self.stats.ended += 1
            extra = len(self.games) + self.creating - self.target
            for g in list(self.games.values())[: max(0, extra)]:
                self.stop_game(g)
            while len(self.games) + self.creating < self.target and self.creating < CREATE_AT_ONCE:
                self.creating += 1
                self.loop.create_task(self.new_game())
            await asyncio.sleep(0.05)

    def stop_game(self, g: Game) -> None:
        g.stopped = True
        for p in g.people:
            p.close()
        self.games.pop(g.id, None)

    async def new_game(self) -> None:
        try:
            await self._new_game()
        except Exception as e:  # noqa: BLE001 - counted; the next try makes another
            self.stats.status["create", type(e).__name__] += 1
            await asyncio.sleep(0.5)
        finally:
            self.creating -= 1

    async def _new_game(self) -> None:
        rng = self.rng
        bot = rng.random() < self.bots
        body = {"game": rng.choice(GAMES), **({"opponent": "bot:hard"} if bot else {})}
        first = Person(self, self.address())
        try:
            status, raw = await first.send(
                request_bytes("POST", "/v1/games", first.auth, orjson.dumps(body))
            )
            self.stats.status["create", status] += 1
            if status != 201:
                first.close()
                return
            made = orjson.loads(raw)
            game = Game(made["id"])
            first.sit(game, made)
            if not bot:
                second = Person(self, self.address())
                path = f"/v1/games/{game.id}/seats"
                status, raw = await second.send(request_bytes("POST", path, second.auth, b"{}"))
                self.stats.status["join", status] += 1
                if status != 201:
                    second.close()
                    first.close()
                    return
                second.sit(game, orjson.loads(raw))
                first.stale = True  # its view is from before the join
        except BaseException:
            first.close()
            raise
        self.games[game.id] = game
        self.stats.created += 1
        for p in game.people:
            p.open_stream()
            p.tasks.append(self.loop.create_task(p.play()))


def _gen_process(index: int, port: int, commands, bots: float, seed: int, clients: str) -> None:
    asyncio.run(Gen(index, port, commands, bots, seed, clients).main())


# ---------------------------------------------------------------- the service


class Service:
    """redis-server, ``spitlog serve``, worker(s) and the scheduler, started once per run."""

    def __init__(self, workdir: str, workers: int, env: dict | None = None):
        self.redis, self.redis_port = start_redis(workdir)
        self.url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.env = {
            "SPITLOG_REDIS_URL": self.url,
            "SPITLOG_TRUSTED_PROXIES": "1",
            # 4 connections a human game (a request connection and a stream per seat)
            "SPITLOG_WORKER_CONNECTIONS": "10000",
            "SPITLOG_ARCHIVE_URL": str(Path(workdir) / "archive"),
            # a finished game goes to the archive 10 s after its end (5 s of rematch asks,
            # the archiver's 5 s of grace) and leaves Redis 10 s later, instead of after a
            # minute and an hour: the workers' jobs of a game's way out (archive, delete)
            # then fall inside every window, as they do once a service has run for an hour
            "SPITLOG_REMATCH_S": "5",
            "SPITLOG_RETAIN_S": "10",
            "SPITLOG_TRACE": "1",
            **(env or {}),
        }
        self.port = free_port()
        self.api = start_server(
            ["-m", "service.cli", "serve"],
            {**self.env, "SPITLOG_BIND": f"127.0.0.1:{self.port}", "SPITLOG_WORKERS": "2"},
            self.port,
        )
        self.procs = Procs(self.env, workdir)
        for i in range(workers):
            self.procs.start(f"w{i}")
        self.procs.start("scheduler", "scheduler")
        wait_for_workers(self.url, workers)
        self.r = redis.Redis.from_url(self.url)
        self.memory0 = self.r.info("memory")["used_memory"]  # before any game

    def roots(self) -> dict[str, list[int]]:
        procs = self.procs.procs
        return {
            "api": [self.api.pid],
            "redis": [self.redis.pid],
            "workers": [p.pid for name, p in procs.items() if name != "scheduler"],
            "scheduler": [procs["scheduler"].pid],
        }

    def close(self) -> None:
        self.procs.stop()
        stop(self.api)
        stop(self.redis)


def machine_busy() -> float:
    """CPU seconds every core spent busy since boot (/proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


class Ramp:
    """The generator processes and one level's measurement at a time."""

    def __init__(self, svc: Service, procs: int, bots: float, clients: str = "http"):
        self.svc = svc
        self.pipes, self.gens = [], []
        for i in range(procs):
            here, there = mp.Pipe()
            p = mp.Process(target=_gen_process,
                           args=(i, svc.port, there, bots, 1000 + i, clients))  # fmt: skip
            p.start()
            self.pipes.append(here)
            self.gens.append(p)

    def ask(self, what, arg=None) -> list:
        for c in self.pipes:
            c.send((what, arg))
        if what in ("status", "report"):
            return [c.recv() for c in self.pipes]
        return []

    def reach(self, games: int, timeout: float) -> int:
        """Bring the games up to ``games`` (split over the processes); the number running."""
        n = len(self.pipes)
        for i, c in enumerate(self.pipes):
            c.send(("target", games // n + (i < games % n)))
        end = time.monotonic() + timeout
        while True:
            st = self.ask("status")
            running = sum(s["games"] for s in st)
            if running >= games or time.monotonic() > end:
                return running
            time.sleep(0.25)

    def cpu(self) -> dict[str, dict[int, float]]:
        roots = self.svc.roots()
        out = {name: {} for name in roots}
        for name, pids in roots.items():
            for pid in pids:
                out[name].update(tree_cpu(pid))
        out["generator"] = {os.getpid(): tree_cpu(os.getpid()).get(os.getpid(), 0.0)}
        for p in self.gens:
            out["generator"].update(tree_cpu(p.pid))
        return out

    def measure(self, games: int, warmup: float, window: float, timeout: float) -> dict:
        running = self.reach(games, timeout)
        time.sleep(warmup)
        self.ask("mark")
        self.svc.r.delete("spitlog:sched:trace")
        info0 = self.svc.r.info("stats")
        cpu0, busy0, t0 = self.cpu(), machine_busy(), time.monotonic()
        time.sleep(window)
        cpu1, busy1, span = self.cpu(), machine_busy(), time.monotonic() - t0
        info1 = self.svc.r.info("stats")
        mem = self.svc.r.info("memory")["used_memory"] - self.svc.memory0
        reports = self.ask("report")
        low = sum(s["live"] for s in self.ask("status"))  # games ended are being replaced
        trace = [
            {k.decode(): v.decode() for k, v in f.items()}
            for _id, f in self.svc.r.xrange("spitlog:sched:trace")
        ]
        return summarize(games, running, low, reports, cpu0, cpu1, busy1 - busy0, span,
                         info1["total_commands_processed"] - info0["total_commands_processed"],
                         mem, trace)  # fmt: skip

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ask("stop")
        for p in self.gens:
            p.join(10)
            if p.is_alive():
                p.kill()


def summarize(games, running, low, reports, cpu0, cpu1, busy, span, commands, mem, trace) -> dict:
    merged: dict = {"act_ms": [], "read_ms": [], "sse_ms": [], "lag_ms": []}
    status: Counter = Counter()
    for r in reports:
        for k in merged:
            merged[k] += r[k]
        status.update(r["status"])
    cpu = {name: used(cpu0[name], cpu1[name]) / span for name in cpu1}
    ours = sum(cpu.values())
    cpu["others"] = max(0.0, busy / span - ours)
    acts = merged["act_ms"]
    bots = [abs(float(t["start"]) - float(t["due"])) for t in trace if t.get("kind") == "bot"]
    dls = [abs(float(t["start"]) - float(t["due"])) for t in trace if t.get("kind") == "dl"]
    fivexx = sum(n for (kind, s), n in status.items() if isinstance(s, int) and s >= 500)
    limited = sum(n for (kind, s), n in status.items() if s == 429)
    failed_creates = sum(n for (kind, s), n in status.items()
                         if kind in ("create", "join") and s != 201)  # fmt: skip
    out = {
        "games": games, "running": min(running, low), "seconds": span,
        "actions_per_s": len(acts) / span, "reads_per_s": len(merged["read_ms"]) / span,
        "events_per_s": len(merged["sse_ms"]) / span,
        "act_p50": pct(acts, 50), "act_p99": pct(acts, 99), "act_max": max(acts, default=0),
        "read_p99": pct(merged["read_ms"], 99), "sse_p50": pct(merged["sse_ms"], 50),
        "sse_p99": pct(merged["sse_ms"], 99), "lag_p99": pct(merged["lag_ms"], 99),
        "status": {f"{k}:{s}": n for (k, s), n in sorted(status.items(), key=str)},
        "5xx": fivexx, "429": limited, "failed_creates": failed_creates,
        "created": sum(r["created"] for r in reports), "ended": sum(r["ended"] for r in reports),
        "reconnects": sum(r["reconnects"] for r in reports),
        "bot_jobs": len(bots), "bot_p50": pct(bots, 50), "bot_p99": pct(bots, 99),
        "dl_jobs": len(dls), "dl_p99": pct(dls, 99),
        "cpu": cpu, "redis_commands_per_s": commands / span, "redis_memory": mem,
    }  # fmt: skip
    # unit costs: CPU ms per game per second (a game's share of a core), Redis's
    # commands per game per second and bytes per game
    n = max(1, out["running"])
    out["per_game"] = {**{k: 1000 * v / n for k, v in cpu.items() if k != "others"},
                       "redis_commands": out["redis_commands_per_s"] / n,
                       "redis_bytes": mem / n}  # fmt: skip
    return out


def held(m: dict, bots: bool) -> tuple[bool, str]:
    """Whether a level was held, and if not why."""
    why = []
    if not m["act_p99"] <= P99_MS:
        why.append(f"action p99 {m['act_p99']:.0f} ms > {P99_MS:.0f}")
    if m["5xx"]:
        why.append(f"{m['5xx']} x 5xx")
    if m["429"]:
        why.append(f"{m['429']} x 429")
    if m["running"] < m["games"]:
        why.append(f"only {m['running']} games running")
    if bots and not m["bot_p99"] <= DUE_P99_MS:
        why.append(f"bot due p99 {m['bot_p99']:.0f} ms > {DUE_P99_MS:.0f}")
    return not why, "; ".join(why)


def line(m: dict, bots: bool) -> str:
    c = m["cpu"]
    text = (f"{m['games']:5d} games: {m['actions_per_s']:5.0f} act/s {m['reads_per_s']:4.0f} "
            f"reads/s {m['events_per_s']:5.0f} events/s | act p50 {m['act_p50']:5.1f} p99 "
            f"{m['act_p99']:6.1f} ms, read p99 {m['read_p99']:5.1f}, SSE p99 "
            f"{m['sse_p99']:5.1f} | CPU api {c['api']:.2f} redis {c['redis']:.2f} workers "
            f"{c['workers']:.2f} sched {c['scheduler']:.2f} gen {c['generator']:.2f} others "
            f"{c['others']:.2f} | lag p99 {m['lag_p99']:.0f} ms")  # fmt: skip
    if bots:
        text += f" | bot due p50 {m['bot_p50']:.1f} p99 {m['bot_p99']:.1f} ms ({m['bot_jobs']})"
    g = m["per_game"]
    text += (f"\n        a game's share: CPU ms per second api {g['api']:.2f} redis "
             f"{g['redis']:.2f} workers {g['workers']:.2f} sched {g['scheduler']:.2f} gen "
             f"{g['generator']:.2f}; Redis {g['redis_commands']:.1f} commands/s, "
             f"{g['redis_bytes'] / 1024:.0f} KB")  # fmt: skip
    return text


def run(mix: str, levels, *, warmup: float, window: float, procs: int, workers: int,
        bisect: int = 0, verbose: bool = True, env: dict | None = None,
        clients: str = "http") -> dict:  # fmt: skip
    """One ramp: ``mix`` "humans" (every game two people) or "bots" (every other game one
    person against ``bot:hard``), its people ``clients`` ("http", "views", "channel").
    Answers {held: the largest level held, at: its figures, failed: the first level not
    held and why, levels: every level's figures}."""
    bots = mix == "bots"
    out: dict = {"mix": mix, "clients": clients, "held": 0, "at": None, "failed": None,
                 "levels": []}  # fmt: skip
    with tempfile.TemporaryDirectory() as workdir:
        svc = Service(workdir, workers, env)
        ramp = None
        try:
            ramp = Ramp(svc, procs, 0.5 if bots else 0.0, clients)
            todo = list(levels)
            good, bad = 0, None
            while todo:
                n = todo.pop(0)
                m = ramp.measure(n, warmup, window, timeout=30 + n / 20)
                ok, why = held(m, bots)
                m["held"], m["why"] = ok, why
                out["levels"].append(m)
                if verbose:
                    print(("  ok  " if ok else "  --  ") + line(m, bots) +
                          ("" if ok else f"\n        not held: {why}") +
                          f"\n        statuses {m['status']}", flush=True)  # fmt: skip
                if ok and n > good:
                    good, out["held"], out["at"] = n, n, m
                elif not ok:
                    bad = n if bad is None else min(bad, n)
                    out["failed"] = out["failed"] or m
                    todo = []
                if not todo and bad is not None and bisect > 0 and bad - good > 50:
                    bisect -= 1
                    todo = [(good + bad) // 2 // 10 * 10]
        finally:
            if ramp is not None:
                ramp.close()
            svc.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mix", choices=("humans", "bots", "both"), default="both")
    ap.add_argument("--levels", help="games at each step, comma-separated")
    ap.add_argument("--warmup", type=float, help="seconds at a level before its window")
    ap.add_argument("--window", type=float, help="seconds measured at each level")
    ap.add_argument("--procs", type=int, default=2, help="load-generating processes")
    ap.add_argument("--workers", type=int, default=1, help="spitlog worker processes")
    ap.add_argument("--bisect", type=int, help="levels tried between held and not")
    ap.add_argument("--quick", action="store_true", help="shorter steps, rougher figures")
    ap.add_argument(
        "--clients",
        default="http",
        help="the people's clients, comma-separated, a ramp each: http (requests "
        "and reads), views (the stream of views), channel (a WebSocket)",
    )
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")] if args.levels else \
        list(QUICK_LEVELS if args.quick else LEVELS)  # fmt: skip
    warmup = args.warmup or (4 if args.quick else 8)
    window = args.window or (8 if args.quick else 20)
    bisect = args.bisect if args.bisect is not None else (0 if args.quick else 2)
    print(f"capacity: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; "
          f"levels {levels}, {warmup:.0f} s + {window:.0f} s each; {args.procs} generator "
          f"processes, {args.workers} worker(s); CPU as fractions of one core")  # fmt: skip
    results = []
    for clients in args.clients.split(","):
        for mix in ("humans", "bots") if args.mix == "both" else (args.mix,):
            print(f"\n== {mix}, {clients} clients: " + ("every game two people" if mix ==
                  "humans" else "every other game one person against bot:hard"),
                  flush=True)  # fmt: skip
            r = run(mix, levels, warmup=warmup, window=window, procs=args.procs,
                    workers=args.workers, bisect=bisect, clients=clients)  # fmt: skip
            results.append(r)
    print()
    for r in results:
        at = r["at"]
        print(f"{r['mix']}, {r['clients']} clients: held {r['held']} games"
              + (f" (at it: {line(at, r['mix'] == 'bots')})" if at else ""))  # fmt: skip
        if r["failed"]:
            print(f"   first level not held: {r['failed']['games']} ({r['failed']['why']})")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
