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
  leaderboard's, highest first, so that a cursor is a member (as the lobby's).
- ``spit:{rt}:pg:<pkey>`` a sorted set, all scores 0, members ``<created ms, 13
  digits>:<game id>``: the player's games still in Redis (newest last). The archive keeps
  the rest (``service.archiving``); a game's entries go with the game at its retention.
- ``spit:{rt}:done:<game id>`` the rating outcome of a game (JSON), written by the same
  script that applied it: a rating is applied once (``service.rating`` says why that is
  exactly once); deleted with the game at its retention (a week's TTL, should that
  step never come).
"""

import json

import redis

from .. import ids

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
# guard it must still hold, its new rating (JSON), its new leaderboard member.
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
  redis.call('ZADD', KEYS[2], 0, ARGV[j + 2])
  redis.call('HSET', KEYS[i], ARGV[3], ARGV[j + 1], lbf, ARGV[j + 2])
  redis.call('HINCRBY', KEYS[i], 'v', 1)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {'ok'}
"""


def _s(b) -> str:
    return b.decode() if isinstance(b, bytes) else str(b)


def player_key(pkey: str) -> str:
    return f"{RT}:p:{pkey}"


def _lb(kind: str) -> str:
    return f"{RT}:lb:{kind}"


def _games(pkey: str) -> str:
    return f"{RT}:pg:{pkey}"


def _done(game_id: str) -> str:
    return f"{RT}:done:{game_id}"


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

    # ---------------------------------------------------------------- apps

    def add_app(self, app_id: str, key_hash: str, name: str, created_ms: int) -> None:
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(f"spit:app:{key_hash}", mapping={"id": app_id, "name": name,
                                                   "created": created_ms})  # fmt: skip
        pipe.hset("spit:apps", app_id, key_hash)
        pipe.execute()

    def app_by_hash(self, key_hash: str) -> dict[str, str] | None:
        raw = self.r.hgetall(f"spit:app:{key_hash}")
        return {_s(k): _s(v) for k, v in raw.items()} if raw else None

    def apps(self) -> list[dict[str, str]]:
        hashes = [_s(h) for h in self.r.hvals("spit:apps")]
        pipe = self.r.pipeline(transaction=False)
        for h in hashes:
            pipe.hgetall(f"spit:app:{h}")
        found = [{_s(k): _s(v) for k, v in raw.items()} for raw in pipe.execute() if raw]
        return sorted(found, key=lambda a: (int(a["created"]), a["id"]))

    def revoke_app(self, app_id: str, at_ms: int) -> dict[str, str] | None:
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

    def player(self, pkey: str) -> dict[str, str] | None:
        raw = self.r.hgetall(player_key(pkey))
        return {_s(k): _s(v) for k, v in raw.items()} if raw else None

    def players(self, pkeys: list[str]) -> list[dict[str, str] | None]:
        pipe = self.r.pipeline(transaction=False)
        for p in pkeys:
            pipe.hgetall(player_key(p))
        return [{_s(k): _s(v) for k, v in raw.items()} if raw else None for raw in pipe.execute()]

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
            pipe.zadd(_games(p), {f"{created_ms:013d}:{game_id}": 0})
        pipe.execute()

    def player_games(self, pkey: str, before: str | None, limit: int) -> list[str]:
        """Members ``<created ms>:<game id>`` of the player's games in Redis, newest first,
        older than ``before`` (a member), at most ``limit``."""
        top = f"({before}" if before else "+"
        raw = self.r.zrevrangebylex(_games(pkey), top, "-", start=0, num=limit)
        return [_s(m) for m in raw]

    def forget_game(self, game_id: str, pkeys: list[str], created_ms: int) -> None:
        """A game leaves Redis (its retention): its entries in its players' lists and its
        rating marker go (``service.archiving``: before the game's own keys)."""
        pipe = self.r.pipeline(transaction=False)
        for p in pkeys:
            pipe.zrem(_games(p), f"{created_ms:013d}:{game_id}")
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
        self, game_id: str, kind: str, outcome: str, updates: list[tuple[str, str, dict]]
    ) -> tuple[str, str | None]:
        """Apply ``updates`` (pkey, the guard it was read at, its new rating) and mark the
        game rated with ``outcome``, all at once, unless the game is marked already
        (``("done", its outcome)``) or a guard moved (``("moved", None)``): ``("ok", None)``."""
        keys = [_done(game_id), _lb(kind), *(player_key(p) for p, _g, _r in updates)]
        args: list = [outcome, DONE_TTL_S * 1000, kind]
        for pkey, guard, rating in updates:
            args += [guard, json.dumps(rating, sort_keys=True), lb_member(rating["rating"], pkey)]
        reply = self._apply(keys=keys, args=args)
        kind_ = _s(reply[0])
        return kind_, (_s(reply[1]) if len(reply) > 1 else None)

    def leaderboard(self, kind: str, cursor: str | None, limit: int) -> tuple[list[str], bool]:
        """Members of the kind's leaderboard after ``cursor``, at most ``limit``; and
        whether there are more."""
        low = f"({cursor}" if cursor else "-"
        raw = self.r.zrangebylex(_lb(kind), low, "+", start=0, num=limit + 1)
        members = [_s(m) for m in raw]
        return members[:limit], len(members) > limit

    def rank(self, kind: str, member: str) -> int:
        """How many players come before ``member`` in the kind's leaderboard."""
        return int(self.r.zlexcount(_lb(kind), "-", f"({member}"))
