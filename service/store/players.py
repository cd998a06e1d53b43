"""Apps, players and their ratings in Redis: the only module that knows these keys.

Apps (an integrator's API key; outside any game's slot, one key a command):

- ``spit:app:<sha256 of the key>`` a hash: ``id``, ``name``, ``created`` (ms), ``revoked``
  (ms, or absent). The key itself is never stored.
- ``spit:apps`` a hash: app id -> the SHA-256 of its key (to list and revoke by id).

Players, ratings and the leaderboards share one hash tag, ``{rt}``, so that a rating's
update (both players, the leaderboard, the game's marker) is one script on one Cluster
slot. A player's key (``pkey``) is ``<app id>:<player id>``: the app's namespace.

- ``spit:{rt}:p:<pkey>`` a hash: ``name``, ``created`` (ms), ``v`` (how many rated
  games were applied to it: the compare-and-set guard of ``apply``), and per game kind
  ``<kind>`` -> JSON ``{rating, rd, vol, games, wins, losses, draws}`` and
  ``lb:<kind>`` -> its member in that kind's leaderboard.
- ``spit:{rt}:lb:<kind>`` a sorted set, all scores 0, members
  ``<10000 - rating, in hundredths, 7 digits>:<pkey>``: lexicographic order is the
  leaderboard's, highest first, so that a cursor is a member (as the lobby's). Only
  players whose rating is established are on it: a provisional one (``apply_rating``'s
  caller says which) is taken off, or never put on.
- ``spit:{rt}:pair:<seat>|<seat>`` a sorted set: the rated games one pair of seats
  (players' pkeys, or a pkey and a hosted level ``bot:<level>``, in sorted order)
  started, the first 16 hex of the SHA-256 of the game's id -> when (ms): a digest, so
  that the count outlives a game that leaves Redis (its retention deletes whatever names
  it) without naming it. Entries older than the window are dropped as it is read, and
  the key expires a window after its last entry (``take_pair``).
- ``spit:{rt}:pg:<pkey>`` a sorted set, all scores 0, members ``<created ms, 13
  digits>:<game id>``: the player's games still in Redis (newest last). The archive keeps
  the rest (``service.archiving``); a game's entries go with the game at its retention.
- ``spit:{rt}:done:<game id>`` the rating outcome of a game (JSON), written by the same
  script that applied it: a rating is applied once (``service.rating`` says why that is
  exactly once); deleted with the game at its retention (a week's TTL, should that
  step never come).
"""

import hashlib
import json

import redis

from .. import ids
from ..ports import Listing
from ..records import AppRecord, PlayerRecord
from .records import member, member_created, member_game

RT = "spit:{rt}"
DONE_TTL_S = 7 * 86_400

# KEYS: the game's marker, then the players' hashes. Answers the marker (or false), then
# per player its guard ``v`` and its rating of ARGV[1] (the game kind), both read at once.
_READ = """
local out = {redis.call('GET', KEYS[1]) or false}
for i = 2, #KEYS do
  out[#out + 1] = redis.call('HGET', KEYS[i], 'v') or '0'
  out[#out + 1] = redis.call('HGET', KEYS[i], ARGV[1]) or false
end
return out
"""

# KEYS: the game's marker, the kind's leaderboard, then the players' hashes.
# ARGV: the marker's value (the outcome), its ttl (ms), the kind, then per player: the
# guard it must still hold, its new rating (JSON), its new leaderboard member ('': none,
# the rating is provisional).
# Applies every player's new rating only if the game has no marker and every guard holds.
_APPLY = """
local done = redis.call('GET', KEYS[1])
if done then return {'done', done} end
for i = 3, #KEYS do
  local j = 4 + (i - 3) * 3
  if (redis.call('HGET', KEYS[i], 'v') or '0') ~= ARGV[j] then return {'moved'} end
end
local lbf = 'lb:' .. ARGV[3]
for i = 3, #KEYS do
  local j = 4 + (i - 3) * 3
  local old = redis.call('HGET', KEYS[i], lbf)
  if old then redis.call('ZREM', KEYS[2], old) end
  redis.call('HSET', KEYS[i], ARGV[3], ARGV[j + 1])
  if ARGV[j + 2] == '' then
    redis.call('HDEL', KEYS[i], lbf)
  else
    redis.call('ZADD', KEYS[2], 0, ARGV[j + 2])
    redis.call('HSET', KEYS[i], lbf, ARGV[j + 2])
  end
  redis.call('HINCRBY', KEYS[i], 'v', 1)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {'ok'}
"""


# KEYS[1]: a pair's sorted set. ARGV: now (ms), the window (ms), the cap, the game's id,
# ``take`` (record the game) or ``look``, and ``(<now - window>``. Drops the entries
# older than the window; answers {'had', n} when the game is recorded already, {'taken',
# n} (``take``) or {'open', n} (``look``) when the pair is under the cap (n: games in the
# window before), else {'full', ms until the oldest entry leaves the window}.
_PAIR = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[6])
local n = redis.call('ZCARD', KEYS[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return {'had', n} end
if n >= tonumber(ARGV[3]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {'full', math.max(1, tonumber(first[2]) + window - now)}
end
if ARGV[5] ~= 'take' then return {'open', n} end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {'taken', n}
"""

# KEYS[1]: a kind's leaderboard, KEYS[2]: a player's hash. ARGV: the kind, the player's
# member. Takes the member off the leaderboard (and the player's note of it) if it is
# still the player's.
_UNLIST = """
local lbf = 'lb:' .. ARGV[1]
if redis.call('HGET', KEYS[2], lbf) == ARGV[2] then redis.call('HDEL', KEYS[2], lbf) end
return redis.call('ZREM', KEYS[1], ARGV[2])
"""


def _s(b) -> str:
    return b.decode() if isinstance(b, bytes) else str(b)


def _app(raw) -> AppRecord | None:
    """An app's hash as its record (None: no such app)."""
    if not raw:
        return None
    h = {_s(k): _s(v) for k, v in raw.items()}
    revoked = h.get("revoked")
    return AppRecord(h["id"], h["name"], int(h["created"]), int(revoked) if revoked else None)


def _player(raw) -> PlayerRecord | None:
    """A player's hash as its record (None: no such player): its name, when it was made,
    and its ratings (the fields named by a game kind: JSON)."""
    if not raw:
        return None
    h = {_s(k): _s(v) for k, v in raw.items()}
    ratings = {k: json.loads(v) for k, v in h.items()
               if k not in ("name", "created", "v") and not k.startswith("lb:")}  # fmt: skip
    return PlayerRecord(h.get("name"), int(h.get("created") or 0), ratings)


def player_key(pkey: str) -> str:
    return f"{RT}:p:{pkey}"


def _lb(kind: str) -> str:
    return f"{RT}:lb:{kind}"


def _games(pkey: str) -> str:
    return f"{RT}:pg:{pkey}"


def _done(game_id: str) -> str:
    return f"{RT}:done:{game_id}"


def _digest(game_id: str) -> str:
    return hashlib.sha256(game_id.encode()).hexdigest()[:16]


def _pair(a: str, b: str) -> str:
    low, high = sorted((a, b))
    return f"{RT}:pair:{low}|{high}"


def lb_member(rating: float, pkey: str) -> str:
    """A player's member in a leaderboard: highest rating first in lexicographic order.

    >>> lb_member(1500.0, "a_1:x") < lb_member(1499.99, "a_0:y")
    True
    """
    return f"{round((10_000 - max(0.0, min(rating, 9_999.99))) * 100):07d}:{pkey}"


class PlayerStore:
    """Apps, players, ratings and leaderboards in Redis (the module's doc lists the keys)."""

    def __init__(self, client: redis.Redis):
        self.r = client
        self._read = client.register_script(_READ)
        self._apply = client.register_script(_APPLY)
        self._pair = client.register_script(_PAIR)
        self._unlist = client.register_script(_UNLIST)

    # ---------------------------------------------------------------- apps

    def add_app(self, app_id: str, key_hash: str, name: str, created_ms: int) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(f"spit:app:{key_hash}", mapping={"id": app_id, "name": name,
                                                   "created": created_ms})  # fmt: skip
        pipe.hset("spit:apps", app_id, key_hash)
        pipe.execute()

    def app_by_hash(self, key_hash: str) -> AppRecord | None:
        return _app(self.r.hgetall(f"spit:app:{key_hash}"))

    def apps(self) -> list[AppRecord]:
        hashes = [_s(h) for h in self.r.hvals("spit:apps")]
        pipe = self.r.pipeline(transaction=False)
        for h in hashes:
            pipe.hgetall(f"spit:app:{h}")
        found = [_app(raw) for raw in pipe.execute() if raw]
        return sorted(found, key=lambda a: (a.created_ms, a.id))

    def revoke_app(self, app_id: str, at_ms: int) -> AppRecord | None:
        """Mark the app's key revoked (at once, for every process); None: no such app."""
        h = self.r.hget("spit:apps", app_id)
        if h is None:
            return None
        key = f"spit:app:{_s(h)}"
        self.r.hsetnx(key, "revoked", at_ms)
        return self.app_by_hash(_s(h))

    # ---------------------------------------------------------------- players

    def touch_player(self, pkey: str, name: str, now_ms: int) -> None:
        """Create the player (or give it its latest name); ValueError for a pkey not of
        the grammar (``service.ids``): no player is made that a request cannot name."""
        if not ids.is_pkey(pkey):
            raise ValueError(f"not a player's key: {pkey!r}")
        pipe = self.r.pipeline(transaction=False)
        pipe.hsetnx(player_key(pkey), "created", now_ms)
        pipe.hset(player_key(pkey), "name", name)
        pipe.execute()

    def player(self, pkey: str) -> PlayerRecord | None:
        return _player(self.r.hgetall(player_key(pkey)))

    def players(self, pkeys: list[str]) -> list[PlayerRecord | None]:
        pipe = self.r.pipeline(transaction=False)
        for p in pkeys:
            pipe.hgetall(player_key(p))
        return [_player(raw) for raw in pipe.execute()]

    def ratings(self, pkeys: list[str], kind: str) -> list[dict | None]:
        """Each player's rating in ``kind`` (None: never rated in it)."""
        pipe = self.r.pipeline(transaction=False)
        for p in pkeys:
            pipe.hget(player_key(p), kind)
        return [json.loads(v) if v else None for v in pipe.execute()]

    def index_game(self, pkeys: list[str], game_id: str, created_ms: int) -> None:
        """List the game among its named players' games."""
        pipe = self.r.pipeline(transaction=False)
        for p in pkeys:
            pipe.zadd(_games(p), {member(created_ms, game_id): 0})
        pipe.execute()

    def player_games(self, pkey: str, before: str | None, limit: int) -> list[Listing]:
        """The player's games in Redis, newest first, older than the cursor ``before``, at
        most ``limit``."""
        top = f"({before}" if before else "+"
        raw = self.r.zrevrangebylex(_games(pkey), top, "-", start=0, num=limit)
        return [Listing(m, member_game(m), member_created(m)) for m in map(_s, raw)]

    def forget_game(self, game_id: str, pkeys: list[str], created_ms: int) -> None:
        """A game leaves Redis (its retention): its entries in its players' lists and its
        rating marker go (``service.archiving``: before the game's own keys)."""
        pipe = self.r.pipeline(transaction=False)
        for p in pkeys:
            pipe.zrem(_games(p), member(created_ms, game_id))
        pipe.delete(_done(game_id))
        pipe.execute()

    # ---------------------------------------------------------------- ratings

    def read_for_rating(self, game_id: str, kind: str, pkeys: list[str]):
        """(the game's rating marker or None, [(guard, rating dict or None) per player]),
        read at one instant."""
        keys = [_done(game_id), *(player_key(p) for p in pkeys)]
        raw = self._read(keys=keys, args=[kind])
        marker = _s(raw[0]) if raw[0] else None
        rest = raw[1:]
        players = [
            (_s(rest[2 * i]), json.loads(rest[2 * i + 1]) if rest[2 * i + 1] else None)
            for i in range(len(pkeys))
        ]
        return marker, players

    def apply_rating(
        self, game_id: str, kind: str, outcome: str, updates: list[tuple[str, str, dict, bool]]
    ) -> tuple[str, str | None]:
        """Apply ``updates`` (pkey, the guard it was read at, its new rating, whether that
        rating is on the leaderboard) and mark the game rated with ``outcome``, all at
        once, unless the game is marked already (``("done", its outcome)``) or a guard
        moved (``("moved", None)``): ``("ok", None)``."""
        keys = [_done(game_id), _lb(kind), *(player_key(u[0]) for u in updates)]
        args: list = [outcome, DONE_TTL_S * 1000, kind]
        for pkey, guard, rating, listed in updates:
            member = lb_member(rating["rating"], pkey) if listed else ""
            args += [guard, json.dumps(rating, sort_keys=True), member]
        reply = self._apply(keys=keys, args=args)
        kind_ = _s(reply[0])
        return kind_, (_s(reply[1]) if len(reply) > 1 else None)

    def leaderboard(
        self, kind: str, cursor: str | None, limit: int
    ) -> tuple[list[tuple[str, str]], bool]:
        """The kind's leaderboard after ``cursor``, at most ``limit``: (its member, which
        is the cursor after it, and the player's pkey) each; and whether there are more."""
        low = f"({cursor}" if cursor else "-"
        raw = self.r.zrangebylex(_lb(kind), low, "+", start=0, num=limit + 1)
        members = [_s(m) for m in raw]
        return [(m, m.split(":", 1)[1]) for m in members[:limit]], len(members) > limit

    def rank(self, kind: str, member: str) -> int:
        """How many players come before ``member`` in the kind's leaderboard."""
        return int(self.r.zlexcount(_lb(kind), "-", f"({member}"))

    def unlist(self, kind: str, member: str) -> None:
        """Take ``member`` off the kind's leaderboard, and the player's note of it if it is
        still the player's (``Profiles.unlist_provisional``)."""
        pkey = member.split(":", 1)[1]
        self._unlist(keys=[_lb(kind), player_key(pkey)], args=[kind, member])

    # ---------------------------------------------------------------- pairs

    def take_pair(
        self, a: str, b: str, game_id: str, now_ms: int, window_ms: int, cap: int,
        take: bool = True,
    ) -> tuple[str, int]:  # fmt: skip
        """Record that the pair of seats ``a`` and ``b`` (pkeys or hosted levels) started
        the rated game ``game_id`` if they started fewer than ``cap`` in the ``window_ms``
        up to ``now_ms``: ``("taken", games in the window before it)``; ``("had", n)``
        if it is recorded already; over the cap ``("full", ms until one leaves the
        window)``. ``take=False`` only looks: ``("open", n)`` under the cap."""
        mode = "take" if take else "look"
        args = [now_ms, window_ms, cap, _digest(game_id), mode, f"({now_ms - window_ms}"]
        got, n = self._pair(keys=[_pair(a, b)], args=args)
        return _s(got), int(n)

    def release_pair(self, a: str, b: str, game_id: str) -> None:
        """Forget ``take_pair`` of a game that did not start after all (its seat went to
        another)."""
        self.r.zrem(_pair(a, b), _digest(game_id))
