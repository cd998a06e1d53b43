"""Seeks in Redis: the only module that knows their keys. Every key shares the hash tag
``{sk}``, so that each script below runs on one Cluster slot (its scripts read the seeks'
hashes they find in a pool: keys of the same slot).

- ``spit:{sk}:s:<seek id>`` a hash: ``game``, ``options`` (JSON), ``rated`` (1/0),
  ``lo``/``hi`` (the ratings it accepts), ``rating`` (its own), ``pk`` (its player's
  pkey, or empty), ``kind``, ``name``, ``tok`` (SHA-256 of its token), ``created``,
  ``expires``, ``fallback`` (ms, or empty), ``status`` (``open``, ``making``, ``paired``,
  ``expired``, ``cancelled``), ``v`` (its version: how many times its status changed;
  absent: none) and, once paired, ``gid``, ``seat`` and ``opp`` (the other seek's id or a
  hosted level). It expires an hour after its own expiry.
- ``spit:{sk}:pool:<pool>`` a sorted set: the open seeks of one game, options and
  ``rated`` (``pool``: 16 hex of their SHA-256), scored by creation (oldest first).
- ``spit:{sk}:due`` a sorted set: each open seek scored by its next due time (its bot
  fallback, else its expiry): what the scheduler's seek slots and the sweeper look at.
- ``spit:{sk}:making`` a sorted set: ``<game id>|<seek>|<seek or level>``, scored by the
  time the pairing was made; a member stays until the game is made and both seeks say so
  (``finish``): a pairing whose process died in between is finished by the next reader.
- ``spit:{sk}:s:<seek id>:live`` not a key: the shard channel (``SPUBLISH``, the ``{sk}``
  slot) on which each change of the seek's status is published, as a game's appends are
  (``RedisStore.live_channel``): the seek's new version (its hash's ``v``, which each
  change counts up) and ``{"status": ...}``, a line each; the long-polls of the seek wait
  for it on the live hub (``store.live.Hub``).
"""

import json
import re

import redis
import redis.cluster

from ..records import Pairing, SeekRecord

SK = "spit:{sk}"
SEEK_TTL_MS = 3_600_000  # a seek's hash outlives its expiry this long (a late reader)

# Each script that changes a seek's status counts its version up and publishes the change
# on the seek's live channel (by pcall, last: a server without SPUBLISH, < 7.0, still
# changes it, and its long-polls read the version instead)
_CHANGED = """
local function changed(key, status)
  local v = redis.call('HINCRBY', key, 'v', 1)
  redis.pcall('SPUBLISH', key .. ':live', v .. '\\n{"status":"' .. status .. '"}')
end
"""

# KEYS: the new seek, its pool, due, making. ARGV: its id, now (ms), how many to scan,
# the game id if it pairs, the prefix of seek keys. Pairs the new seek with the oldest
# open seek of its pool that each one's rating range accepts (not of the same player):
# both leave the pool and the due set, both turn 'making' with the game's id and their
# seats (the older seek seat 0), the pairing goes to 'making'. Else the new seek joins
# the pool. Expired seeks met on the way leave the pool.
_PAIR = (
    _CHANGED
    + """
local me = KEYS[1]
if redis.call('HGET', me, 'status') ~= 'open' then return {'not-open'} end
local f = redis.call('HMGET', me, 'rating', 'lo', 'hi', 'pk', 'created', 'expires')
local r, lo, hi, pk = tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), f[4]
local now = tonumber(ARGV[2])
if tonumber(f[6]) <= now then return {'not-open'} end
local found = nil
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[3]) - 1)) do
  if m ~= ARGV[1] then
    local k = ARGV[5] .. m
    local g = redis.call('HMGET', k, 'status', 'rating', 'lo', 'hi', 'pk', 'expires')
    if g[1] ~= 'open' or tonumber(g[6]) <= now then
      redis.call('ZREM', KEYS[2], m)
    else
      local r2, lo2, hi2 = tonumber(g[2]), tonumber(g[3]), tonumber(g[4])
      if r2 >= lo and r2 <= hi and r >= lo2 and r <= hi2 and (pk == '' or pk ~= g[5]) then
        found = m
        break
      end
    end
  end
end
if not found then
  redis.call('ZADD', KEYS[2], tonumber(f[5]), ARGV[1])
  return {'queued'}
end
local k = ARGV[5] .. found
redis.call('ZREM', KEYS[2], found, ARGV[1])
redis.call('ZREM', KEYS[3], found, ARGV[1])
redis.call('HSET', k, 'status', 'making', 'gid', ARGV[4], 'seat', 0, 'opp', ARGV[1])
redis.call('HSET', me, 'status', 'making', 'gid', ARGV[4], 'seat', 1, 'opp', found)
redis.call('ZADD', KEYS[4], now, ARGV[4] .. '|' .. found .. '|' .. ARGV[1])
changed(k, 'making')
changed(me, 'making')
return {'paired', found}
"""
)

# KEYS: the seek, its pool, due, making. ARGV: now (ms), the game id if it falls back,
# the hosted level, its id. Its bot fallback (if open and due) or its expiry (if open and
# past it): {'fallback'}, {'expired'}, or {'later', the next due ms} / {'not-open'}.
_DUE = (
    _CHANGED
    + """
local f = redis.call('HMGET', KEYS[1], 'status', 'fallback', 'expires')
if f[1] ~= 'open' then return {'not-open'} end
local now = tonumber(ARGV[1])
if f[2] and f[2] ~= '' and tonumber(f[2]) <= now and tonumber(f[3]) > now then
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[4])
  redis.call('HSET', KEYS[1], 'status', 'making', 'gid', ARGV[2], 'seat', 0, 'opp', ARGV[3])
  redis.call('ZADD', KEYS[4], now, ARGV[2] .. '|' .. ARGV[4] .. '|' .. ARGV[3])
  changed(KEYS[1], 'making')
  return {'fallback'}
end
if tonumber(f[3]) <= now then
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[4])
  redis.call('HSET', KEYS[1], 'status', 'expired')
  changed(KEYS[1], 'expired')
  return {'expired'}
end
local nxt = tonumber(f[3])
if f[2] and f[2] ~= '' and tonumber(f[2]) < nxt then nxt = tonumber(f[2]) end
return {'later', tostring(nxt)}
"""
)

# KEYS: making, then the pairing's seeks (one or two). ARGV: the making member, the game
# id. The game is made: each seek still 'making' for it turns 'paired'; the member goes.
_FINISH = (
    _CHANGED
    + """
for i = 2, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') == 'making'
     and redis.call('HGET', KEYS[i], 'gid') == ARGV[2] then
    redis.call('HSET', KEYS[i], 'status', 'paired')
    changed(KEYS[i], 'paired')
  end
end
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
"""
)

# KEYS: the seek, its pool, due. ARGV: its id. Cancels an open seek: its status after.
_CANCEL = (
    _CHANGED
    + """
local st = redis.call('HGET', KEYS[1], 'status')
if st ~= 'open' then return st end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[1], 'status', 'cancelled')
changed(KEYS[1], 'cancelled')
return 'cancelled'
"""
)


def _s(b) -> str:
    return b.decode() if isinstance(b, bytes) else str(b)


def _to_hash(s: SeekRecord) -> dict:
    """A new seek's fields (its hash, status ``open``)."""
    return {
        "game": s.game, "options": json.dumps(s.options, sort_keys=True, separators=(",", ":")),
        "rated": int(s.rated), "lo": s.low, "hi": s.high, "rating": s.rating,
        "pk": s.pkey or "", "kind": s.kind, "name": s.name or "", "tok": s.token_hash,
        "created": s.created_ms, "expires": s.expires_ms,
        "fallback": "" if s.fallback_ms is None else s.fallback_ms, "pool": s.pool,
        "status": "open",
    }  # fmt: skip


def _from_hash(h: dict[str, str]) -> SeekRecord:
    paired = h.get("gid")
    return SeekRecord(
        game=h["game"], options=json.loads(h["options"]), rated=h["rated"] == "1",
        low=int(h["lo"]), high=int(h["hi"]), rating=int(h["rating"]), kind=h["kind"],
        name=h["name"] or None, pkey=h["pk"] or None, token_hash=h["tok"],
        created_ms=int(h["created"]), expires_ms=int(h["expires"]),
        fallback_ms=int(h["fallback"]) if h["fallback"] else None, pool=h["pool"],
        status=h["status"], version=int(h.get("v") or 0), game_id=paired or None,
        seat=int(h["seat"]) if h.get("seat") else None, opponent=h.get("opp") or None,
    )  # fmt: skip


def _seek(seek_id: str) -> str:
    return f"{SK}:s:{seek_id}"


def _pool(pool: str) -> str:
    return f"{SK}:pool:{pool}"


DUE = f"{SK}:due"
MAKING = f"{SK}:making"
_LIVE = re.compile(r"spit:\{sk\}:s:([^:]+):live")


class SeekStore:
    """Seeks and their pairing in Redis (the module's doc lists the keys)."""

    def __init__(self, client: redis.Redis, scan: int = 1000):
        self.r = client
        self.cluster = isinstance(client, redis.cluster.RedisCluster)
        self.scan = scan  # the open seeks of a pool a new seek looks at, oldest first
        self._pair = client.register_script(_PAIR)
        self._due = client.register_script(_DUE)
        self._finish = client.register_script(_FINISH)
        self._cancel = client.register_script(_CANCEL)

    def add(self, seek_id: str, seek: SeekRecord, due_ms: int) -> None:
        """Store a new open seek (not yet in its pool: ``pair`` puts it there)."""
        key = _seek(seek_id)
        pipe = self.r.pipeline(transaction=True)
        pipe.hset(key, mapping=_to_hash(seek))
        pipe.pexpireat(key, seek.expires_ms + SEEK_TTL_MS)
        pipe.zadd(DUE, {seek_id: due_ms})
        pipe.execute()

    def get(self, seek_id: str) -> SeekRecord | None:
        raw = self.r.hgetall(_seek(seek_id))
        return _from_hash({_s(k): _s(v) for k, v in raw.items()}) if raw else None

    def pair(self, seek_id: str, pool: str, now_ms: int, game_id: str) -> tuple[str, str | None]:
        """(``paired``, the other seek), (``queued``, None) or (``not-open``, None)."""
        keys = [_seek(seek_id), _pool(pool), DUE, MAKING]
        reply = self._pair(keys=keys, args=[seek_id, now_ms, self.scan, game_id, f"{SK}:s:"])
        return _s(reply[0]), (_s(reply[1]) if len(reply) > 1 else None)

    def due(
        self, seek_id: str, pool: str, now_ms: int, game_id: str, level: str
    ) -> tuple[str, int | None]:
        keys = [_seek(seek_id), _pool(pool), DUE, MAKING]
        reply = self._due(keys=keys, args=[now_ms, game_id, level, seek_id])
        return _s(reply[0]), (int(_s(reply[1])) if len(reply) > 1 else None)

    def finish(self, pairing: Pairing) -> None:
        """The pairing's game is made: its seeks turn ``paired``, and it leaves ``making``."""
        member = f"{pairing.game_id}|{pairing.first}|{pairing.second}"
        keys = [MAKING, _seek(pairing.first)]
        if not pairing.second.startswith("bot:"):
            keys.append(_seek(pairing.second))
        self._finish(keys=keys, args=[member, pairing.game_id])

    def cancel(self, seek_id: str, pool: str) -> str | None:
        out = self._cancel(keys=[_seek(seek_id), _pool(pool), DUE], args=[seek_id])
        return _s(out) if out else None

    def making(self, older_than_ms: int) -> list[Pairing]:
        """The pairings made before ``older_than_ms`` whose game is not recorded yet."""
        raw = self.r.zrangebyscore(MAKING, "-inf", older_than_ms)
        return [Pairing(*_s(m).split("|")) for m in raw]

    def overdue(self, now_ms: int, limit: int = 500) -> list[str]:
        """Open seeks whose fallback or expiry is due by ``now_ms``."""
        return [_s(m) for m in self.r.zrangebyscore(DUE, "-inf", now_ms, start=0, num=limit)]

    def versions(self, seek_ids: list[str]) -> list[int]:
        """The versions of several seeks (0: none changed yet, or no such seek), in one
        round trip."""
        pipe = self.r.pipeline(transaction=False)
        for s in seek_ids:
            pipe.hget(_seek(s), "v")
        return [int(v or 0) for v in pipe.execute()]

    # ---------------------------------------------------------------- live

    def live_node(self, seek_id: str) -> str | None:
        """Where the seek's live channel is served: None on a single Redis, the name of the
        node that serves the ``{sk}`` slot on a Cluster."""
        if not self.cluster:
            return None
        return self.r.get_node_from_key(self.live_channel(seek_id)).name

    @staticmethod
    def live_channel(seek_id: str) -> str:
        """The shard channel a change of the seek's status is published on."""
        return _seek(seek_id) + ":live"

    @staticmethod
    def live_seek(channel) -> str | None:
        """The seek of a live channel's name (bytes or str), or None if it is none."""
        m = _LIVE.fullmatch(_s(channel))
        return m.group(1) if m else None

    def pool_size(self, pool: str) -> int:
        return int(self.r.zcard(_pool(pool)))
