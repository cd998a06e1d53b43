"""Limits on what one client may consume (OWASP API4), shared by every API process.

Two rate limits, each a GCRA bucket (the token bucket's arithmetic, one number per
bucket: its *theoretical arrival time*) in one small Lua script on Redis, so that they
hold across API processes and hosts:

- **requests per address**: every request but the probes (``/healthz``, ``/readyz``,
  ``/metrics``) counts against its client address (an IPv6 address by its /64);
- **actions per token**: each ``POST /v1/games/{id}/actions`` also counts against the
  seat's token;
- **games per address**: each ``POST /v1/games`` also counts against its address (a
  game is stored for good: its log is the product), far below the request rate.

Over a limit the request is refused before it does anything: ``429`` problem+json with
``Retry-After`` (whole seconds until the bucket admits one more). A refused request
does not use up the bucket, so a client that waits ``Retry-After`` gets in.

And a cap on the **open streams** (SSE and long-polls) of one client: its token, or
its address without one. Each open stream is a member of a sorted set scored by the
time it ends at the latest; closing the stream removes it, and a process that dies
with streams open leaks each slot only until that time.

Every script touches one key, so it runs unchanged on a Redis Cluster. The keys are
this module's alone (``store.py`` owns the games' keys):

- ``spit:rl:a:<address>``  an address's request bucket (a number; expires once full)
- ``spit:rl:t:<sha256 of the token>``  a token's action bucket
- ``spit:rl:g:<address>``  an address's game-creation bucket
- ``spit:rl:s:<a|t>:<address or token hash>``  a sorted set: open stream -> its end (ms)

Time is the Redis server's (``TIME``), the one clock every process shares; tests may
give a ``clock`` instead. Rates of 0 turn a limit off; ``config.py`` has the defaults,
README.md (*Deploying*) the variables.
"""

import contextlib
import hashlib
import ipaddress
import secrets
import threading
import time
from collections.abc import Callable

import redis
import redis.cluster
from flask import Request, current_app, g, request
from prometheus_client import Counter

from .errors import BadRequest, Busy, RateLimited

# GCRA over one or more buckets, all or nothing. KEYS: the buckets. ARGV[1]: now (ms; ''
# for the server's clock), then for each bucket its emission interval (ms per request)
# and its burst (requests admitted at once). Returns an empty list when the request is
# admitted (every bucket charged), else for each bucket the ms until it would admit it
# (0 for those that would now); then nothing is charged.
_GCRA = """
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local tats, waits, refused = {}, {}, false
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i])
  local burst = tonumber(ARGV[2 * i + 1])
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  tats[i] = tat + interval
  local wait = tats[i] - interval * burst - now
  if wait > 0 then
    waits[i] = math.ceil(wait)
    refused = true
  else
    waits[i] = 0
  end
end
if refused then return waits end
for i, key in ipairs(KEYS) do
  local ttl = math.max(1, math.ceil(tats[i] - now))
  redis.call('SET', key, string.format('%.3f', tats[i]), 'PX', ttl)
end
return {}
"""

# A stream slot. KEYS[1]: the client's sorted set. ARGV: cap, member, how long the stream
# may stay open (ms), now (ms; '' for the server's clock). Returns 1 when the slot is
# taken, 0 when the client already holds ``cap`` open streams.
_STREAM = """
local now = tonumber(ARGV[4])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local ends = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], ends, ARGV[2])
if redis.call('PTTL', KEYS[1]) < ends - now then
  redis.call('PEXPIRE', KEYS[1], math.ceil(ends - now))
end
return 1
"""

EXEMPT = frozenset({"ops.Health", "ops.Ready", "ops.MetricsView"})  # probes never count
ACTIONS = "games.Actions"
CREATE = "games.GamesCollection"
STREAM_RETRY_S = 5  # Retry-After of a refused stream: a slot frees when a stream closes
STREAM_SLACK_S = 30.0  # a stream's slot outlives its longest life by this much


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _bearer(req: Request) -> str | None:
    scheme, _, token = (req.headers.get("Authorization") or "").strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Limits:
    """The limits of one app (one per process), over the game store's Redis client."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        actions_per_s: float = 0,
        actions_burst: int = 1,
        requests_per_s: float = 0,
        requests_burst: int = 1,
        games_per_s: float = 0,
        games_burst: int = 1,
        streams_per_client: int = 0,
        trusted_proxies: int = 0,
        registry=None,
        clock: Callable[[], float] | None = None,
    ):
        self.r = client
        self.cluster = isinstance(client, redis.cluster.RedisCluster)
        self.actions = _bucket(actions_per_s, actions_burst)
        self.requests = _bucket(requests_per_s, requests_burst)
        self.games = _bucket(games_per_s, games_burst)
        self.streams = int(streams_per_client)
        self.proxies = int(trusted_proxies)
        self.clock = clock  # None: the Redis server's clock
        self._gcra = client.register_script(_GCRA)
        self._stream = client.register_script(_STREAM)
        self.refused = Counter(
            "spitlog_limited", "Requests refused by a limit (429)", ["limit"], registry=registry
        )

    @classmethod
    def from_config(cls, client: redis.Redis, cfg: dict, registry=None) -> "Limits":
        return cls(
            client,
            actions_per_s=float(cfg.get("RATE_ACTIONS", 0)),
            actions_burst=int(cfg.get("RATE_ACTIONS_BURST", 1)),
            requests_per_s=float(cfg.get("RATE_REQUESTS", 0)),
            requests_burst=int(cfg.get("RATE_REQUESTS_BURST", 1)),
            games_per_s=float(cfg.get("RATE_GAMES", 0)),
            games_burst=int(cfg.get("RATE_GAMES_BURST", 1)),
            streams_per_client=int(cfg.get("STREAMS_PER_CLIENT", 0)),
            trusted_proxies=int(cfg.get("TRUSTED_PROXIES", 0)),
            registry=registry,
        )

    @property
    def rate_limited(self) -> bool:
        return any(b is not None for b in (self.actions, self.requests, self.games))

    def _now(self) -> str:
        return "" if self.clock is None else repr(round(self.clock() * 1000, 3))

    # ---------------------------------------------------------------- who is asking

    def address(self, req: Request) -> str:
        """The client's address: the peer's, or with ``trusted_proxies`` = n the one the
        n-th proxy from us saw (X-Forwarded-For, as werkzeug's ProxyFix reads it). An
        IPv6 address stands for its /64, which one client easily has whole."""
        addr = req.remote_addr or "-"
        if self.proxies > 0:
            hops = [h.strip() for h in ",".join(req.headers.getlist("X-Forwarded-For")).split(",")]
            hops = [h for h in hops if h]
            if len(hops) >= self.proxies:
                addr = hops[-self.proxies]
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return addr[:64]
        if ip.version == 4:
            return str(ip)
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address) + "/64"

    # ---------------------------------------------------------------- rates

    def check(self, req: Request) -> float | None:
        """The app's ``RATE_LIMITER`` hook: None to go on, else the seconds to wait."""
        buckets = []
        if self.requests is not None and req.endpoint not in EXEMPT:
            buckets.append(("requests", f"spit:rl:a:{self.address(req)}", self.requests))
        if self.actions is not None and req.endpoint == ACTIONS and req.method == "POST":
            token = _bearer(req)
            if token is not None:
                buckets.append(("actions", f"spit:rl:t:{_hash(token)}", self.actions))
        if self.games is not None and req.endpoint == CREATE and req.method == "POST":
            buckets.append(("games", f"spit:rl:g:{self.address(req)}", self.games))
        if not buckets:
            return None
        now = self._now()
        if len(buckets) == 1 or not self.cluster:  # one round trip, all or nothing
            args = [now, *(x for _n, _k, b in buckets for x in b)]
            waits = self._gcra(keys=[k for _n, k, _b in buckets], args=args) or []
        else:  # a Cluster: the buckets live in different slots, one call each
            waits = [(self._gcra(keys=[k], args=[now, *b]) or [0])[0] for _n, k, b in buckets]
        worst = 0
        for (name, _key, _b), wait in zip(buckets, waits):  # noqa: B905 - [] when admitted
            if int(wait) > 0:
                self.refused.labels(name).inc()
                worst = max(worst, int(wait))
        return worst / 1000 if worst else None

    # ---------------------------------------------------------------- streams

    def open_stream(self, req: Request, longest_s: float) -> Callable[[], None]:
        """Take one of the client's stream slots for a stream that lasts at most
        ``longest_s``; 429 if it holds them all. Returns the release (idempotent)."""
        if self.streams <= 0:
            return _nothing
        token = _bearer(req)
        key = f"spit:rl:s:t:{_hash(token)}" if token else f"spit:rl:s:a:{self.address(req)}"
        member = secrets.token_hex(8)
        hold_ms = int((longest_s + STREAM_SLACK_S) * 1000)
        if not int(self._stream(keys=[key], args=[self.streams, member, hold_ms, self._now()])):
            self.refused.labels("streams").inc()
            raise RateLimited(
                f"too many open streams: at most {self.streams} per client; close one",
                headers={"Retry-After": str(STREAM_RETRY_S)},
            )
        released = []

        def release() -> None:
            if not released:
                released.append(True)
                with contextlib.suppress(redis.RedisError):  # else it ends at its time
                    self.r.zrem(key, member)

        return release


class GameGate:
    """A bulkhead per game, per process: at most ``per_game`` requests of one game in
    progress at once; more wait their turn (up to ``wait_s``, then 503 with
    ``Retry-After``). A flood of one game then queues on its own gate, idle, instead of
    crowding every game's requests out of the process's event loop. Streams (SSE,
    long-polls) pass: they wait on the live hub, not on the game's work.

    A count per game under one lock: a request that finds room (nearly all of them)
    costs a dict update; a condition to wait on is made only for a game that has
    requests waiting, and dropped with its last one."""

    def __init__(self, per_game: int, wait_s: float = 2.0):
        self.per_game = int(per_game)
        self.wait_s = wait_s
        self._lock = threading.Lock()
        self._busy: dict[str, int] = {}  # game -> requests in progress
        self._waiting: dict[str, list] = {}  # game -> [condition, requests waiting]

    def enter(self, req: Request | None = None) -> None:
        """``before_request``, the first: take a place in the request's game's gate, if it
        has one (``req``: the request, else Flask's current one)."""
        g.setdefault("t0", time.perf_counter())  # the request's clock starts before a wait
        if req is None:
            req = request._get_current_object()
        game_id = req.view_args.get("game_id") if req.view_args else None
        if game_id is None or self.per_game <= 0 or _is_stream(req):
            return
        if self.acquire(game_id):
            g.spitlog_gate = game_id

    def acquire(self, game_id: str) -> bool:
        """Take a place in ``game_id``'s gate, waiting for one if need be (503 after
        ``wait_s``); False when gates are off. Give it back with ``release``."""
        if self.per_game <= 0:
            return False
        with self._lock:
            n = self._busy.get(game_id, 0)
            if n < self.per_game and game_id not in self._waiting:
                self._busy[game_id] = n + 1
                return True
        self._wait(game_id)
        return True

    def _wait(self, game_id: str) -> None:
        end = time.monotonic() + self.wait_s
        with self._lock:
            w = self._waiting.get(game_id)
            if w is None:
                w = self._waiting[game_id] = [threading.Condition(self._lock), 0]
            w[1] += 1
            try:
                while self._busy.get(game_id, 0) >= self.per_game:
                    left = end - time.monotonic()
                    if left <= 0:
                        raise Busy("this game has too many requests in progress: retry",
                                   headers={"Retry-After": "1"})  # fmt: skip
                    w[0].wait(left)
                self._busy[game_id] = self._busy.get(game_id, 0) + 1
            finally:
                w[1] -= 1
                if w[1] == 0:
                    del self._waiting[game_id]

    def leave(self, _exc=None) -> None:
        """``teardown_request``: give the place back (and wake one waiting, if any)."""
        game_id = g.pop("spitlog_gate", None)
        if game_id is not None:
            self.release(game_id)

    def release(self, game_id: str) -> None:
        with self._lock:
            n = self._busy[game_id] - 1
            if n:
                self._busy[game_id] = n
            else:
                del self._busy[game_id]
            w = self._waiting.get(game_id)
            if w is not None:
                w[0].notify()


def _is_stream(req: Request) -> bool:
    if req.endpoint != "games.Events":
        return False
    if req.args.get("wait") not in (None, "", "0"):
        return True
    best = req.accept_mimetypes.best_match(["application/json", "text/event-stream"])
    return best == "text/event-stream"


def _bucket(per_s: float, burst: int) -> tuple[float, int] | None:
    """(ms between two requests, burst) for a rate, None when off (0)."""
    if per_s <= 0:
        return None
    return (1000.0 / per_s, max(1, int(burst)))


def _nothing() -> None:
    return None


MAX_DEPTH = 32  # arrays and objects in a body nest at most this deep (ours: 2)


def check_body(req: Request | None = None) -> None:
    """A ``before_request`` hook, the limits of a request body (``req``: the request,
    else Flask's current one):

    - 413 for a body past ``MAX_CONTENT_LENGTH`` sent without ``Content-Length``
      (chunked): werkzeug stops reading it at the limit but hands over what it read, cut
      short (which would be a 400); so it is read (at most the limit, kept for the view)
      and one byte more is asked for, which werkzeug refuses with 413;
    - 400 for a JSON body that is not strict JSON (RFC 8259, as orjson reads it): no
      ``NaN`` or ``Infinity``, no lone surrogate (``"\\ud800"``, which no answer could
      carry back), and no deeper than ``MAX_DEPTH`` (the standard parser and the schemas
      recurse: a body of 16 KB of ``[`` would exhaust the stack: a 500).
    """
    if req is None:
        req = request._get_current_object()
    if req.method not in _WITH_BODY:
        return
    if req.environ.get("wsgi.input_terminated") and req.content_length is None:
        limit = req.max_content_length
        if limit is not None and len(req.get_data(cache=True)) >= limit:
            req.stream.read(1)  # raises RequestEntityTooLarge
    if not req.is_json:
        return
    data = req.get_data(cache=True)
    if not data or data.isspace():
        return  # no body: the view says whether it needs one
    value = req.get_json()  # orjson, strict (app.JSONProvider); cached for the view
    if isinstance(value, dict) and all(type(v) in FLAT for v in value.values()):
        return  # an object of scalars (every action): one level deep
    if _deeper_than(value, MAX_DEPTH):
        raise BadRequest({"_body": [f"Invalid JSON body: nested deeper than {MAX_DEPTH}."]})


_WITH_BODY = frozenset(("POST", "PUT", "PATCH"))
FLAT = frozenset((str, int, float, bool, type(None)))  # the types of a one-level object


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


def stream_slot(longest_s: float) -> Callable[[], None]:
    """For a view about to hold a stream (SSE or long-poll) open: take a slot of the
    requesting client (429 when it has none left); returns the release."""
    limits: Limits | None = current_app.extensions["spitlog"].get("limits")
    if limits is None:
        return _nothing
    return limits.open_stream(request, longest_s)
