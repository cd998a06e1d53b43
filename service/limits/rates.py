"""Rate limits and stream caps, shared by every API process (OWASP API4).

Three rate limits, each a GCRA bucket (the token bucket's arithmetic, one number per
bucket: its *theoretical arrival time*) in one small Lua script on Redis, so that they
hold across API processes and hosts:

- **requests per address**: every request but the probes (``/healthz``, ``/readyz``,
  ``/metrics``) counts against its client address (an IPv6 address by its /64);
- **actions per token**: each ``POST /v1/games/{id}/actions`` also counts against the
  seat's token;
- **games per address**: each ``POST /v1/games`` also counts against its address (a
  game is stored for good: its log is the product), far below the request rate.

Over a limit the request is refused before it does anything: ``429`` problem+json with
``Retry-After`` (whole seconds until the bucket admits one more). Every answer a rate
applies to says where its client stands (``Charged.headers``: ``RateLimit-Policy`` and
``RateLimit``, the IETF httpapi draft's fields). A refused request
does not use up the bucket, so a client that waits ``Retry-After`` gets in.

And caps on the **open streams** (SSE and long-polls): per seat token, and per client
address whatever the tokens. Each open stream is a member of a sorted set scored by the
time it ends at the latest; closing the stream removes it, and a process that dies with
streams open leaks each slot only until that time.

**One round trip.** A request's buckets are charged in one call, all or nothing
(``Bill``). On a single Redis the routes of a game's play (an action, a read of the
game, of its log, of a state) are charged inside the first script of the game the
request runs (``store.redis``'s append and load): the buckets first, and when they
refuse, that script does nothing else; so an action on a current cache costs one round
trip, its append. A request that runs no such script before it would change anything
(refused by the rules on a cached state, a malformed action) is charged by a call of
its own after its handler, and when that call refuses, the 429 replaces the handler's
answer (which changed nothing). On a Redis Cluster the buckets and a game live in
different slots and a script may only touch one: there every request is charged before
its handler, one call per bucket (so a request refused by its second bucket has used
up its first).

The keys are this module's alone (``store.redis`` owns the games' keys):

- ``spit:rl:a:<address>``  an address's request bucket (a number; expires once full)
- ``spit:rl:t:<sha256 of the token>``  a token's action bucket
- ``spit:rl:g:<address>``  an address's game-creation bucket
- ``spit:rl:s:<a|t>:<address or token hash>``  a sorted set: open stream -> its end (ms)

Time is the Redis server's (``TIME``), the one clock every process shares; tests may
give a ``clock`` instead. Rates of 0 turn a limit off (``service.config``).
"""

import contextlib
import functools
import ipaddress
import math
import secrets
from collections.abc import Callable, Iterable

import redis
import redis.cluster
from prometheus_client import Counter

from ..errors import RateLimited
from ..games import token_hash

# GCRA over one or more buckets, all or nothing, as a Lua function: ``gcra(K, k, n, A,
# a)`` charges the buckets K[k .. k+n-1]; A[a]: now (ms; '' for the server's clock), then
# for each bucket its emission interval (ms per request) and its burst (requests admitted
# at once). Returns {admitted (1 or 0), now (ms), then for each bucket: the ms until it
# would admit the request (0: now), its theoretical arrival time (ms) after this request
# (when admitted: every bucket charged) or as it stands (when refused: nothing charged)}.
# The limits' own script (``_GCRA``) and, on a single Redis, the game scripts that charge
# a request's buckets in the same call (``Bill``, ``store.redis``) run it.
GCRA_LUA = """
local function gcra(K, k, n, A, a)
  local now = tonumber(A[a])
  if now == nil then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  local tats, bases, waits, refused = {}, {}, {}, false
  for i = 1, n do
    local key = K[k + i - 1]
    local interval = tonumber(A[a + 2 * i - 1])
    local burst = tonumber(A[a + 2 * i])
    local tat = tonumber(redis.call('GET', key) or '0')
    if tat < now then tat = now end
    bases[i] = tat
    tats[i] = tat + interval
    local wait = tats[i] - interval * burst - now
    if wait > 0 then
      waits[i] = math.ceil(wait)
      refused = true
    else
      waits[i] = 0
    end
  end
  if refused then tats = bases end
  local out = {refused and 0 or 1, string.format('%.3f', now)}
  for i = 1, n do
    if not refused then
      local ttl = math.max(1, math.ceil(tats[i] - now))
      redis.call('SET', K[k + i - 1], string.format('%.3f', tats[i]), 'PX', ttl)
    end
    out[#out + 1] = waits[i]
    out[#out + 1] = string.format('%.3f', tats[i])
  end
  return out
end
"""

# KEYS: the buckets. ARGV: now, then each bucket's interval and burst (``gcra``).
_GCRA = GCRA_LUA + "return gcra(KEYS, 1, #KEYS, ARGV, 1)\n"

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

STREAM_RETRY_S = 5  # Retry-After of a refused stream: a slot frees when a stream closes
STREAM_SLACK_S = 30.0  # a stream's slot outlives its longest life by this much


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
        streams_per_address: int = 0,
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
        self.streams_address = int(streams_per_address)
        self.proxies = int(trusted_proxies)
        self.clock = clock  # None: the Redis server's clock
        self._gcra = client.register_script(_GCRA)
        self._stream = client.register_script(_STREAM)
        self.refused = Counter(
            "spitlog_limited", "Requests refused by a limit (429)", ["limit"], registry=registry
        )

    @classmethod
    def from_settings(cls, client: redis.Redis, s, registry=None) -> "Limits":
        """The limits of ``s`` (``service.config.Settings``)."""
        return cls(
            client,
            actions_per_s=s.rate_actions,
            actions_burst=s.rate_actions_burst,
            requests_per_s=s.rate_requests,
            requests_burst=s.rate_requests_burst,
            games_per_s=s.rate_games,
            games_burst=s.rate_games_burst,
            streams_per_client=s.streams_per_client,
            streams_per_address=s.streams_per_address,
            trusted_proxies=s.trusted_proxies,
            registry=registry,
        )

    @property
    def rate_limited(self) -> bool:
        return any(b is not None for b in (self.actions, self.requests, self.games))

    def _now(self) -> str:
        return "" if self.clock is None else repr(round(self.clock() * 1000, 3))

    # ---------------------------------------------------------------- who is asking

    def address(self, environ: dict) -> str:
        """The client's address: the peer's, or with ``trusted_proxies`` = n the one the
        n-th proxy from us saw (X-Forwarded-For, as werkzeug's ProxyFix reads it). An
        IPv6 address stands for its /64, which one client easily has whole."""
        addr = environ.get("REMOTE_ADDR") or "-"
        if self.proxies > 0:
            hops = [h.strip() for h in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")]
            hops = [h for h in hops if h]
            if len(hops) >= self.proxies:
                addr = hops[-self.proxies]
        return _normal(addr)

    # ---------------------------------------------------------------- rates

    def bill(self, names: Iterable[str], address: str, token: str | None) -> "Bill | None":
        """The buckets ``names`` ("requests", "actions", "games") of this client, to be
        charged all or nothing (``settle``, or a game's script: ``Bill``); None when no
        limit applies. "actions" counts only with a token (without one the request is
        refused for that)."""
        buckets = []
        for name in names:
            bucket = getattr(self, name)
            if bucket is None:
                continue
            if name == "requests":
                buckets.append((name, f"spit:rl:a:{address}", bucket))
            elif name == "actions":
                if token is not None:
                    buckets.append((name, f"spit:rl:t:{token_hash(token)}", bucket))
            else:
                buckets.append((name, f"spit:rl:g:{address}", bucket))
        return Bill(self, tuple(buckets), self._now()) if buckets else None

    def settle(self, bill: "Bill") -> "Charged":
        """Charge ``bill`` by a call of its own (one round trip, all or nothing; on a
        Cluster, where the buckets live in different slots, one call each): what came of
        it; ``RateLimited`` (429) when refused, and then nothing was charged."""
        if len(bill.buckets) == 1 or not self.cluster:
            reply = self._run(bill.keys, bill.args)
            return bill.settled(reply)
        states = []
        for _n, k, b in bill.buckets:
            reply = self._run([k], [bill.now, *b])
            states.append((int(reply[2]), float(reply[3]), float(reply[1])))
        return bill.settled_states(states)

    def _run(self, keys: list, args: list):
        """The GCRA script by its SHA (as ``store.redis`` runs its scripts)."""
        try:
            return self.r.execute_command("EVALSHA", self._gcra.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            return self._gcra(keys=keys, args=args)

    def _charged(self, buckets: tuple, states: list) -> "Charged":
        """What charging ``buckets`` came to, from each one's (wait ms, TAT ms, now ms)."""
        worst = 0
        seen = []
        for (name, _key, (interval, burst)), (wait, tat, at) in zip(buckets, states, strict=True):
            if wait > 0:
                self.refused.labels(name).inc()
                worst = max(worst, wait)
            left = max(0, int((at + interval * burst - tat) // interval))
            seen.append((name, interval, burst, left, max(0.0, tat - at) / 1000))
        return Charged(worst / 1000 if worst else None, tuple(seen))

    # ---------------------------------------------------------------- streams

    def open_stream(self, address: str, token: str | None, longest_s: float) -> Callable[[], None]:
        """Take a stream slot of the client's token (if any) and one of its address, for a
        stream that lasts at most ``longest_s``; 429 if either has none left. Returns the
        release (idempotent)."""
        taken: list[tuple[str, str]] = []
        hold_ms = int((longest_s + STREAM_SLACK_S) * 1000)
        caps = []
        if token is not None and self.streams > 0:
            caps.append((f"spit:rl:s:t:{token_hash(token)}", self.streams, "token"))
        if self.streams_address > 0:
            caps.append((f"spit:rl:s:a:{address}", self.streams_address, "address"))
        bucket = {"token": "token streams", "address": "streams"}

        def release() -> None:
            while taken:
                key, member = taken.pop()
                with contextlib.suppress(redis.RedisError):  # else it ends at its time
                    self.r.zrem(key, member)

        for key, cap, per in caps:
            member = secrets.token_hex(8)
            if not int(self._stream(keys=[key], args=[cap, member, hold_ms, self._now()])):
                release()
                self.refused.labels("streams").inc()
                raise RateLimited(
                    f"too many open streams: at most {cap} per {per}; close one",
                    headers={"Retry-After": str(STREAM_RETRY_S)}, bucket=bucket[per],
                )  # fmt: skip
            taken.append((key, member))
        return release


class Bill:
    """A request's buckets, charged all or nothing exactly once: by ``Limits.settle`` (a
    call of its own), or on a single Redis inside the first script of the request's game
    that carries it (``store.redis``: the buckets' ``gcra`` runs first in that script,
    and when it refuses, the script does nothing else). ``charged`` is what came of it
    (None until then)."""

    __slots__ = ("limits", "buckets", "now", "charged")

    def __init__(self, limits: Limits, buckets: tuple, now: str):
        self.limits = limits
        self.buckets = buckets  # (name, key, (interval ms, burst)), ...
        self.now = now  # '' for the Redis server's clock
        self.charged: Charged | None = None

    @property
    def keys(self) -> list[str]:
        return [k for _n, k, _b in self.buckets]

    @property
    def args(self) -> list:
        """The ``gcra`` function's arguments: now, then each bucket's interval and burst."""
        return [self.now, *(x for _n, _k, b in self.buckets for x in b)]

    def settled(self, reply) -> "Charged":
        """Take the ``gcra`` function's ``reply``: what came of it (``charged``);
        ``RateLimited`` (429, with ``Retry-After`` and the rate fields) when refused."""
        at = float(reply[1])
        n = len(self.buckets)
        return self.settled_states(
            [(int(reply[2 + 2 * i]), float(reply[3 + 2 * i]), at) for i in range(n)]
        )

    def settled_states(self, states: list) -> "Charged":
        self.charged = charged = self.limits._charged(self.buckets, states)
        if charged.wait:
            rated = charged.headers()
            # which refused, the longest wait first (``RateLimited.bucket``)
            waits = [(state[0], b[0]) for b, state in zip(self.buckets, states, strict=True)]
            refused = [name for wait, name in sorted(waits, reverse=True) if wait > 0]
            raise RateLimited(
                "over the rate limit",
                headers={"Retry-After": str(int(charged.wait + 0.999)), **dict(rated)},
                bucket=refused[0], buckets=refused,
            )  # fmt: skip
        return charged


class Charged:
    """What charging a request's buckets came to: ``wait`` (None: admitted; else the
    seconds until it would be) and, per bucket, (name, ms between two requests, burst,
    requests left now, seconds until the bucket is full again). ``headers`` says it as
    the IETF httpapi draft's ``RateLimit-Policy`` and ``RateLimit`` fields
    (draft-ietf-httpapi-ratelimit-headers-10): a policy's quota ``q`` is the bucket's
    burst and its window ``w`` the seconds the bucket takes to fill from empty; ``r``
    the requests left, ``t`` the seconds until it is full again.

    >>> Charged(None, (("requests", 10.0, 200, 57, 1.43),)).headers()
    [('RateLimit-Policy', '"requests";q=200;w=2'), ('RateLimit', '"requests";r=57;t=2')]
    """

    __slots__ = ("wait", "buckets")

    def __init__(self, wait: float | None, buckets: tuple):
        self.wait = wait
        self.buckets = buckets

    def headers(self) -> list[tuple[str, str]]:
        if not self.buckets:
            return []
        policy = ", ".join(f'"{n}";q={b};w={math.ceil(i * b / 1000)}'
                           for n, i, b, _l, _t in self.buckets)  # fmt: skip
        now = ", ".join(f'"{n}";r={left};t={math.ceil(t)}' for n, _i, _b, left, t in self.buckets)
        return [("RateLimit-Policy", policy), ("RateLimit", now)]


@functools.lru_cache(maxsize=8192)  # every request names its client's address
def _normal(addr: str) -> str:
    """An address as its buckets are named: IPv4 as is, IPv6 by its /64."""
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr[:64]
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address) + "/64"


def _bucket(per_s: float, burst: int) -> tuple[float, int] | None:
    """(ms between two requests, burst) for a rate, None when off (0)."""
    if per_s <= 0:
        return None
    return (1000.0 / per_s, max(1, int(burst)))


def _nothing() -> None:
    return None
