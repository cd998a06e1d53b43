"""Rate limits and stream caps, shared by every API process (OWASP API4).

The rate limits are GCRA buckets (the token bucket's arithmetic, one number per bucket:
its *theoretical arrival time*) in one small Lua script on Redis, so that they hold
across API processes and hosts:

- **requests per address** (``requests``): every request but the probes (``/healthz``,
  ``/readyz``, ``/metrics``) counts against its client address (an IPv6 address by its
  /64);
- **requests per seat** (``seat``): a request that carries the token of a seat of the
  game it names counts against that token instead, and against its address only with
  a priority: it may take the address's bucket ``seat_reserve`` requests beyond its
  burst, where every other request of the address is refused. So a flood without a
  seat's token (a spectator, anyone behind the same NAT) leaves the seats their pace,
  while the address's total stays bounded (tokens, which games give, buy no escape from
  it);
- **a seat's share of its address** (``share``, never enforced): each request of a seat
  also counts, admitted or refused, against a bucket of the seat's token at the
  address's rate with the seats' reserve for its burst, which never refuses: it tells
  whether the seat *by itself* took more of its address than it may. Others without a
  seat fill the address's bucket only up to its burst; what a seat takes past it drains
  at the address's rate; so a seat within its share that is refused by the address was
  refused for what other seats of the address took: no fault of its own, and RULES T-4
  excuses that time (``http.pipeline``). A seat over its share used the reserve up
  itself (polling its own game hard, alone or beside a spectator of the same address)
  and buys no excused time with it;
- **actions per seat** (``actions``): each ``POST /v1/games/{id}/actions`` of a seat
  also counts against the seat's token;
- **games per address** (``games``): each ``POST /v1/games`` (and seek) also counts
  against its address (a game is stored for good: its log is the product), far below
  the request rate;
- **failed authentications per address** (``auth``): a credential refused (an unknown
  or revoked app key, a token that holds no seat of its game or is no seek's, a
  malformed one: ``ServiceError.failed_auth``) is charged to its address's bucket
  (``failed``), far stricter than the request rate, as a login form limits failed
  logins. While it is empty, a request of that address that presents a credential the
  service would have to look up (an app key, a token that is no seat of the game it
  names) is refused before the lookup; a seat's own token needs none and goes on.

Which of its buckets a request with a token is charged to depends on whether the token
holds a seat of the game, which only the game's meta tells: the bill carries both sets
(``Bill``, each bucket's ``mode``) and the script that charges it reads the seats' token
hashes there first (``store.records.TOKEN_FIELDS``) and charges one set. A token that
holds no seat is charged as if it had none, and as a failed authentication once its
request is refused for it: a random token buys no bucket of its own.

Over a limit the request is refused before it does anything: ``429`` problem+json with
``Retry-After`` (whole seconds until the bucket admits one more); ``RateLimited.limits``
names the buckets that refused. Every answer a rate applies to says where its client
stands (``Charged.headers``: ``RateLimit-Policy`` and ``RateLimit``, the IETF httpapi
draft's fields). A refused request does not use up the bucket, so a client that waits
``Retry-After`` gets in.

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
up its first), after a read of the game's seats when it carries a token.

The buckets' keys are named by ``service.store.keys`` (``rl_*``); ``store.redis`` owns the
games' keys.

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
from ..store import keys as store_keys
from ..store.records import TOKEN_FIELDS
from ..tokens import token_hash

# GCRA over a request's buckets, all or nothing, as a Lua function: ``gcra(K, k, A, a)``.
# A[a]: now (ms; '' for the server's clock), A[a+1]: n, the number of buckets, A[a+2]: the
# SHA-256 of the request's token ('' without one), then for each bucket its emission
# interval (ms per request), its burst (requests admitted at once) and its mode: 'c'
# (charge), 'p' (peek: refuse when it would, charge nothing) or 'o' (observe: charged
# whatever comes of the request, never refusing; its theoretical arrival time kept within
# two bursts of now, so that a client that stops is within it again after one), then 'a'
# (always), 's' (when the token holds a seat of the game) or 'n' (when it does not).
# K[k .. k+n-1] are the buckets, K[k+n] the game's meta when there is a token (its seats'
# token hashes, ``TOKEN_FIELDS``, say whose seats they are). Returns {admitted (1 or 0),
# now (ms), 1 if the token holds a seat, then for each bucket: the ms until it would
# admit the request (0: now; -1: the bucket is not this request's), its theoretical
# arrival time (ms) after this request (when admitted: every bucket charged, an observed
# one whatever comes of it) or as it stands (when refused, or peeked: nothing charged)}.
# The limits' own script (``_GCRA``) and, on a single Redis, the game scripts that charge
# a request's buckets in the same call (``Bill``, ``store.redis``) run it.
GCRA_LUA = (
    """
local function gcra(K, k, A, a)
  local now = tonumber(A[a])
  if now == nil then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  local n = tonumber(A[a + 1])
  local seat = false
  if A[a + 2] ~= '' then
    local tok = redis.call('HMGET', K[k + n], """
    + ", ".join(f"'{f}'" for f in TOKEN_FIELDS)
    + """)
    seat = tok[1] == A[a + 2] or tok[2] == A[a + 2]
  end
  local tats, bases, waits, seen, refused = {}, {}, {}, {}, false
  for i = 1, n do
    local j = a + 3 * i
    local mode = A[j + 2]
    local how = string.sub(mode, 1, 1)
    local when = string.sub(mode, 2, 2)
    if when == 'a' or (when == 's') == seat then
      local interval = tonumber(A[j])
      local burst = tonumber(A[j + 1])
      local tat = tonumber(redis.call('GET', K[k + i - 1]) or '0')
      if tat < now then tat = now end
      bases[i] = tat
      tats[i] = tat + interval
      local wait = tats[i] - interval * burst - now
      if wait > 0 then
        waits[i] = math.ceil(wait)
        if how ~= 'o' then refused = true end
      else
        waits[i] = 0
      end
      if how == 'p' then tats[i] = tat end
      if how == 'o' then
        seen[i] = true
        local top = now + 2 * interval * burst
        if tats[i] > top then tats[i] = top end
      end
    else
      waits[i] = -1
    end
  end
  local out = {refused and 0 or 1, string.format('%.3f', now), seat and 1 or 0}
  for i = 1, n do
    if waits[i] < 0 then
      out[#out + 1] = -1
      out[#out + 1] = '0'
    else
      local tat = tats[i]
      if refused and not seen[i] then
        tat = bases[i]
      elseif tat > bases[i] then
        local ttl = math.max(1, math.ceil(tat - now))
        redis.call('SET', K[k + i - 1], string.format('%.3f', tat), 'PX', ttl)
      end
      out[#out + 1] = waits[i]
      out[#out + 1] = string.format('%.3f', tat)
    end
  end
  return out
end
"""
)

# KEYS: the buckets, then the game's meta if there is a token. ARGV: ``gcra``'s.
_GCRA = GCRA_LUA + "return gcra(KEYS, 1, ARGV, 1)\n"

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

# each bucket as a refusal names it (``RateLimited.detail``)
DESCRIBED = {
    "requests": "requests from this address",
    "seat": "requests of this seat",
    "actions": "actions of this seat",
    "games": "games created from this address",
    "auth": "failed authentications from this address",
    "streams": "open streams of this address",
    "token streams": "open streams of this token",
}


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
        seat_per_s: float = 0,
        seat_burst: int = 1,
        seat_reserve: int = 0,
        auth_failures_per_s: float = 0,
        auth_failures_burst: int = 1,
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
        self.seat = _bucket(seat_per_s, seat_burst)
        self.seat_reserve = max(0, int(seat_reserve))
        self.auth = _bucket(auth_failures_per_s, auth_failures_burst)
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
            seat_per_s=s.rate_seat,
            seat_burst=s.rate_seat_burst,
            seat_reserve=s.rate_seat_reserve,
            auth_failures_per_s=s.rate_auth_failures,
            auth_failures_burst=s.rate_auth_failures_burst,
            streams_per_client=s.streams_per_client,
            streams_per_address=s.streams_per_address,
            trusted_proxies=s.trusted_proxies,
            registry=registry,
        )

    @property
    def rate_limited(self) -> bool:
        buckets = (self.actions, self.requests, self.games, self.seat, self.auth)
        return any(b is not None for b in buckets)

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

    def bill(
        self,
        names: Iterable[str],
        address: str,
        token: str | None,
        *,
        game_meta: str | None = None,
        app_key: bool = False,
    ) -> "Bill | None":
        """The buckets ``names`` ("requests", "actions", "games") of this client, to be
        charged all or nothing (``settle``, or a game's script: ``Bill``); None when no
        limit applies. ``game_meta``: the meta key of the game the request names, whose
        seats a token may hold: a seat's requests are charged to its ``seat`` bucket and
        with the seat's reserve to its address's, any other to its address's alone;
        "actions" counts a seat's only (a request without a token is refused for that,
        one with another token for its failed authentication). A request that presents
        a credential the service would look up (``app_key``, or a token that holds no
        seat of the game) is refused while its address's ``auth`` bucket is empty."""
        seated = token is not None and game_meta is not None  # the token may hold a seat
        th = token_hash(token) if token is not None else ""
        buckets = []
        if "requests" in names:
            if seated and self.seat is not None:
                buckets.append(("seat", store_keys.rl_seat(th), self.seat, "cs"))
            if self.requests is not None:
                key = store_keys.rl_requests(address)
                if seated:
                    interval, burst = self.requests
                    reserved = (interval, burst + self.seat_reserve)
                    buckets.append(("requests", key, reserved, "cs"))
                    buckets.append(("requests", key, self.requests, "cn"))
                    share = (interval, max(1, self.seat_reserve))
                    buckets.append(("share", store_keys.rl_share(th), share, "os"))
                else:
                    buckets.append(("requests", key, self.requests, "ca"))
        if "actions" in names and token is not None and self.actions is not None:
            mode = "cs" if seated else "ca"
            buckets.append(("actions", store_keys.rl_actions(th), self.actions, mode))
        if "games" in names and self.games is not None:
            buckets.append(("games", store_keys.rl_games(address), self.games, "ca"))
        if self.auth is not None and (app_key or token is not None):
            peek = "pa" if app_key or not seated else "pn"
            buckets.append(("auth", store_keys.rl_auth(address), self.auth, peek))
        if not buckets:
            return None
        either = seated and any(mode[1] != "a" for *_b, mode in buckets)
        return Bill(self, tuple(buckets), self._now(), (game_meta, th) if either else None)

    def failed(self, address: str, *, requests: bool) -> "Charged | None":
        """Charge a failed authentication to ``address``: its ``auth`` bucket, and its
        ``requests`` bucket too when the request was charged to none (its credential was
        refused before its limits: a malformed one). ``RateLimited`` (429) when refused:
        the failure's answer is the 429 then."""
        buckets = []
        if self.auth is not None:
            buckets.append(("auth", store_keys.rl_auth(address), self.auth, "ca"))
        if requests and self.requests is not None:
            buckets.append(("requests", store_keys.rl_requests(address), self.requests, "ca"))
        if not buckets:
            return None
        return self.settle(Bill(self, tuple(buckets), self._now(), None))

    def settle(self, bill: "Bill") -> "Charged":
        """Charge ``bill`` by a call of its own (one round trip, all or nothing; on a
        Cluster, where the buckets and the game live in different slots, a read of the
        game's seats if the bill asks, then one call per bucket, peeks first, until one
        refuses): what came of it; ``RateLimited`` (429) when refused, and then nothing
        was charged (on a Cluster: by the bucket that refused and those after it)."""
        if not self.cluster or (len(bill.buckets) == 1 and bill.seat_of is None):
            return bill.settled(self._run(bill.keys, bill.args))
        seat = False
        if bill.seat_of is not None:
            meta, th = bill.seat_of
            seat = th.encode() in self.r.hmget(meta, *TOKEN_FIELDS)
        states: list = [None] * len(bill.buckets)
        mine = [i for i, b in enumerate(bill.buckets) if _applies(b[3], seat)]
        # the peeks and the observed first (the observed are charged whatever comes of it)
        for i in sorted(mine, key=lambda i: bill.buckets[i][3][0] not in "po"):
            _name, key, (interval, burst), mode = bill.buckets[i]
            reply = self._run([key], [bill.now, 1, "", interval, burst, mode[0] + "a"])
            states[i] = (int(reply[3]), float(reply[4]), float(reply[1]))
            if states[i][0] > 0 and mode[0] != "o":
                break
        return bill.settled_states(states, seat)

    def _run(self, keys: list, args: list):
        """The GCRA script by its SHA (as ``store.redis`` runs its scripts)."""
        try:
            return self.r.execute_command("EVALSHA", self._gcra.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            return self._gcra(keys=keys, args=args)

    def _charged(self, buckets: tuple, states: list, seat: bool) -> "Charged":
        """What charging ``buckets`` came to, from each one's (wait ms, TAT ms, now ms), or
        None for a bucket that was not the request's. A peek that admitted is no charge
        and is not told; one that refused is. An observed bucket is never told (it
        refuses nothing): ``over`` names those the request took past their limit."""
        worst = 0
        seen, refused, over = [], [], []
        for (name, _key, (interval, burst), mode), state in zip(buckets, states, strict=True):
            if state is None:
                continue
            wait, tat, at = state
            if mode[0] == "o":
                if wait > 0:
                    over.append(name)
                continue
            if wait > 0:
                self.refused.labels(name).inc()
                worst = max(worst, wait)
                refused.append(name)
            elif mode[0] == "p":
                continue
            left = max(0, int((at + interval * burst - tat) // interval))
            seen.append((name, interval, burst, left, max(0.0, tat - at) / 1000))
        return Charged(
            worst / 1000 if worst else None, tuple(seen), tuple(refused), seat, tuple(over)
        )

    # ---------------------------------------------------------------- streams

    def open_stream(self, address: str, token: str | None, longest_s: float) -> Callable[[], None]:
        """Take a stream slot of the client's token (if any) and one of its address, for a
        stream that lasts at most ``longest_s``; 429 if either has none left. Returns the
        release (idempotent)."""
        taken: list[tuple[str, str]] = []
        hold_ms = int((longest_s + STREAM_SLACK_S) * 1000)
        caps = []
        if token is not None and self.streams > 0:
            caps.append((store_keys.rl_streams_of_token(token_hash(token)), self.streams, "token"))
        if self.streams_address > 0:
            key = store_keys.rl_streams_of_address(address)
            caps.append((key, self.streams_address, "address"))

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
                    wait_s=STREAM_RETRY_S,
                    limits=("streams" if per == "address" else "token streams",),
                )
            taken.append((key, member))
        return release


class Bill:
    """A request's buckets, charged all or nothing exactly once: by ``Limits.settle`` (a
    call of its own), or on a single Redis inside the first script of the request's game
    that carries it (``store.redis``: the buckets' ``gcra`` runs first in that script,
    and when it refuses, the script does nothing else). Each bucket is (name, key,
    (interval ms, burst), mode: ``gcra``'s); ``seat_of`` is (the game's meta key, the
    token's hash) when which buckets are charged depends on whether the token holds a
    seat of that game (the script reads the meta). ``charged`` is what came of it (None
    until then)."""

    __slots__ = ("limits", "buckets", "now", "seat_of", "charged")

    def __init__(self, limits: Limits, buckets: tuple, now: str, seat_of=None):
        self.limits = limits
        self.buckets = buckets
        self.now = now  # '' for the Redis server's clock
        self.seat_of: tuple[str, str] | None = seat_of
        self.charged: Charged | None = None

    @property
    def keys(self) -> list[str]:
        keys = [k for _n, k, _b, _m in self.buckets]
        return keys if self.seat_of is None else [*keys, self.seat_of[0]]

    @property
    def args(self) -> list:
        """The ``gcra`` function's arguments: now, the number of buckets, the token's
        hash, then each bucket's interval, burst and mode."""
        th = "" if self.seat_of is None else self.seat_of[1]
        each = (x for _n, _k, (interval, burst), mode in self.buckets
                for x in (interval, burst, mode))  # fmt: skip
        return [self.now, len(self.buckets), th, *each]

    def settled(self, reply) -> "Charged":
        """Take the ``gcra`` function's ``reply``: what came of it (``charged``);
        ``RateLimited`` (429, with ``Retry-After`` and the rate fields) when refused."""
        at = float(reply[1])
        states = []
        for i in range(len(self.buckets)):
            wait = int(reply[3 + 2 * i])
            states.append(None if wait < 0 else (wait, float(reply[4 + 2 * i]), at))
        return self.settled_states(states, int(reply[2]) == 1)

    def settled_states(self, states: list, seat: bool = False) -> "Charged":
        self.charged = charged = self.limits._charged(self.buckets, states, seat)
        if charged.wait:
            over = ", ".join(DESCRIBED.get(n, n) for n in charged.refused)
            raise RateLimited(
                f"over the rate limit of {over}", wait_s=charged.wait, limits=charged.refused,
                charged=charged,
            )  # fmt: skip
        return charged


class Charged:
    """What charging a request's buckets came to: ``wait`` (None: admitted; else the
    seconds until it would be), per bucket charged (or refusing) (name, ms between two
    requests, burst, requests left now, seconds until the bucket is full again),
    ``refused``: the names of the buckets that refused ("requests" and "auth" are the
    address's, "seat" and "actions" the seat's own, "games" the address's creations),
    ``seat``: whether the request's token held a seat of its game, and ``over``: the
    observed buckets it took past their limit (``share``: the seat sent more than its
    address may, by itself). ``headers`` says it as
    the IETF httpapi draft's ``RateLimit-Policy`` and ``RateLimit`` fields
    (draft-ietf-httpapi-ratelimit-headers-10): a policy's quota ``q`` is the bucket's
    burst and its window ``w`` the seconds the bucket takes to fill from empty; ``r``
    the requests left, ``t`` the seconds until it is full again.

    >>> Charged(None, (("requests", 10.0, 200, 57, 1.43),)).headers()
    [('RateLimit-Policy', '"requests";q=200;w=2'), ('RateLimit', '"requests";r=57;t=2')]
    """

    __slots__ = ("wait", "buckets", "refused", "seat", "over")

    def __init__(self, wait: float | None, buckets: tuple, refused: tuple = (), seat=False,
                 over: tuple = ()):  # fmt: skip
        self.wait = wait
        self.buckets = buckets
        self.refused: tuple[str, ...] = refused
        self.seat = seat
        self.over: tuple[str, ...] = over

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


def _applies(mode: str, seat: bool) -> bool:
    """Whether a bucket of ``mode`` (``gcra``'s) is charged, when the token holds a seat
    (``seat``) or not."""
    return mode[1] == "a" or (mode[1] == "s") == seat


def _nothing() -> None:
    return None
