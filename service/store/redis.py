"""The event store: each game an append-only Redis Stream. The only module that knows
Redis key names.

Per game, every key carries the hash tag ``{g:<id>}`` so that each script touches one
Redis Cluster slot:

- ``spit:{g:<id>}:log``  the Stream of events; entry ID ``0-<version>``, one field ``e``
  holding the event's JSON. Never trimmed: the log is the truth.
- ``spit:{g:<id>}:live`` not a key: the shard channel (``SPUBLISH``, the game's slot) on
  which each append publishes what it appended: its first version, then each event's
  JSON, a line each (``live_entries``), for the processes that watch the game
  (``store.live.Hub``).
- ``spit:{g:<id>}:meta`` a hash: the game's record (``service.records.GameRecord``:
  its seats and their tokens' hashes, players, rating, rematch, webhook, ...), field by
  field as ``store.records`` maps it, and ``sv`` (the version of the latest snapshot).
- ``spit:{g:<id>}:idem:<0-7>`` hashes, the records of the keys' first answers
  (``service.idempotency``), in small encodings (listpacks) however long the game: a
  record's bucket is the key's (its SHA-256's last byte mod 8), its field is the seat
  and 96 bits of the key's SHA-256 in base64 (17 characters: a key of any length), and
  an appended action's record is ``<fingerprint, 64 bits in base64>:<first>[:<last>]``,
  the versions it appended (the answer is rebuilt from the log).
- ``spit:{g:<id>}:idem:r`` a hash: the same fields -> any other record (a refusal: its
  rule and text), as JSON.
- ``spit:{g:<id>}:idem`` a hash of older code: ``<seat>:<Idempotency-Key>`` -> a record
  as JSON; read, never written, until it expires.

  Each of these hashes expires ``idempotency_ttl_s`` after its latest record.
- ``spit:{g:<id>}:refused`` a sorted set: ``<token hash, 16 hex>:<from ms>:<to ms>`` ->
  to ms, each a window in which the service refused a request of that token for no excess
  of the seat's own (a 503, a 429 of its address's limits): RULES T-4 does not count it
  against the seat. The latest 256, for a day.
- ``spit:{g:<id>}:snap`` a hash: ``<version>`` -> the state at that version (JSON of
  ``domain.state_to_dict``, compressed: ``service.store.snapshots``), a cache that
  ``replay`` of the log can always rebuild: a snapshot that cannot be read is replaced
  by the whole log.

- ``spit:{g:<id>}:ticket:<SHA-256 of a ticket>`` a string: a seat channel's ticket (the
  seat's token sealed under the ticket), for 30 s, taken once (``take_ticket``).
- ``spit:{g:<id>}:hooks`` a hash: webhook target (``g``: the game's, ``d``: the
  deployment's) -> its delivery cursor ``<v>:<n>:<tries>:<first failed>:<next try>``
  (``service.webhooks``);
- ``spit:{g:<id>}:deliveries`` a Stream: the latest webhook deliveries tried, as JSON.

Once a finished game's archived copy is checked, its record is marked ``archived`` and
its token index entries get a TTL; after the retention
(``service.archiving``) ``delete_game`` removes every key of it: its index entries,
then its own keys (one script).

Outside the games' slots, written by separate commands after an append (a script may
only touch one slot on a Cluster, and both are indexes that can be repaired):

- ``spit:lobby:<open|running|finished>`` sorted sets (all scores 0, members
  ``<created ms, 13 digits>:<id>``, ``store.records.member``, so that lexicographic order
  is creation order);
- ``spit:token:<sha256>`` -> ``<id>:<seat>``, to tell a token of another game (403)
  from an unknown one (401);
- ``spit:confirms`` a counter, the write strict durability's ``RedisStore.confirm`` waits
  for (its value means nothing);
- ``spit:new:<128 bits of the SHA-256 of a create's Idempotency-Key, its caller's>``
  (``idempotency.scoped``) -> ``<id>:<fingerprint of the body>:<ms>``, the game a create
  with that key made (or is making), for
  ``idempotency_ttl_s``; the game's record names it (``create_key``) so that its
  retention deletes it too.
"""

import base64
import hashlib
import json
import logging
import re
import secrets
import threading

import orjson
import redis
import redis.cluster

from ..limits.pending import pending, withdraw
from ..limits.rates import GCRA_LUA
from ..ports import LOBBY_STATUSES, Appended, Clash, Listed, Loaded, Replayed, lobby_status
from ..records import ArchivedMark, GameRecord, HookCursor, IdemKey, KeptAnswer
from . import records, snapshots

log = logging.getLogger(__name__)


# The idempotency records' lookup, shared by the scripts: the record of a field in the
# key's bucket, else in ``idem:r``, else (by its raw field) in the hash of older code.
_FIND = """
local function find(kb, kr, kold, field, raw)
  return redis.call('HGET', kb, field) or redis.call('HGET', kr, field)
         or redis.call('HGET', kold, raw)
end
"""

# KEYS: meta, log, idem bucket, snap, idem:r, idem (older code's)
# ARGV: expected version, n, event_1 .. event_n, idem field, its raw field, idem record,
#       its hash ('b': the bucket, 'r': idem:r), idem ttl (ms), snapshot version,
#       snapshot, then meta field/value pairs.
# A Redis script has no rollback; it writes only after every check has passed, and a
# script that has written once is never stopped by maxmemory, so it is all or nothing.
_APPEND = """
local n = tonumber(ARGV[2])
local i = n + 3
local ifield = ARGV[i]
if ifield ~= '' then
  local prior = find(KEYS[3], KEYS[5], KEYS[6], ifield, ARGV[i + 1])
  if prior then return {'replay', prior} end
end
local v = redis.call('XLEN', KEYS[2])
local expected = tonumber(ARGV[1])
if v ~= expected then
  if expected < v and v - expected <= 200 then  -- what the caller missed, to re-decide on
    return {'clash', v, redis.call('HGETALL', KEYS[1]),
            redis.call('XRANGE', KEYS[2], '0-' .. (expected + 1), '+')}
  end
  return {'clash', v}
end
if not charge_now() then return nil end  -- the request's buckets, if it carries them
for j = 1, n do
  redis.call('XADD', KEYS[2], '0-' .. (v + j), 'e', ARGV[2 + j])
end
if ifield ~= '' then
  local h = KEYS[3]
  if ARGV[i + 3] == 'r' then h = KEYS[5] end
  redis.call('HSET', h, ifield, ARGV[i + 2])
  redis.call('PEXPIRE', h, ARGV[i + 4])
end
if ARGV[i + 5] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[i + 5], ARGV[i + 6])
  redis.call('HSET', KEYS[1], 'sv', ARGV[i + 5])
end
if #ARGV >= i + 7 then
  redis.call('HSET', KEYS[1], unpack(ARGV, i + 7, #ARGV))
end
-- last, and by pcall (a server without SPUBLISH, < 7.0, still appends): on the live
-- channel (the meta key's name with ``live`` for ``meta``, so the game's slot), the
-- first version appended, then each event's JSON, a line each
redis.pcall('SPUBLISH', string.sub(KEYS[1], 1, -5) .. 'live',
            (v + 1) .. '\\n' .. table.concat(ARGV, '\\n', 3, n + 2))
return {'ok', v + n}
"""

# KEYS: meta, log, snap, idem bucket, idem:r, idem (older code's)
# ARGV: the version of the state the caller holds (-1: none), then for an Idempotency-Key
#       the fields of seats 0 and 1 and their raw fields ('' four times: none).
# One round trip: the meta, the version, the newest useful base (the caller's state or
# the latest snapshot), the events after it, and the idempotency records of both seats.
_LOAD = """
if not charge_now() then return nil end  -- the request's buckets, if it carries them
local m = redis.call('HGETALL', KEYS[1])
if #m == 0 then return false end
local v = redis.call('XLEN', KEYS[2])
local known = tonumber(ARGV[1])
local svraw = redis.call('HGET', KEYS[1], 'sv')
local sv = tonumber(svraw or '-1')
local base, snap = 0, ''
if known >= 0 and known <= v and known >= sv then
  base = known
elseif sv >= 0 and sv <= v then
  local s = redis.call('HGET', KEYS[3], svraw)
  if s then base = sv; snap = s end
end
local tail = {}
if base < v then tail = redis.call('XRANGE', KEYS[2], '0-' .. (base + 1), '+') end
local i0, i1 = '', ''
if ARGV[2] ~= '' then
  i0 = find(KEYS[4], KEYS[5], KEYS[6], ARGV[2], ARGV[4]) or ''
  i1 = find(KEYS[4], KEYS[5], KEYS[6], ARGV[3], ARGV[5]) or ''
end
return {m, v, base, snap, tail, i0, i1}
"""


def _plain(body: str) -> str:
    """A game script as it runs alone (``body`` reads ``KEYS`` and ``ARGV``; its
    ``charge_now()`` admits: no buckets to charge)."""
    admit = "local function charge_now() return true end\n"
    run = "end\nreturn body(KEYS, ARGV)\n"
    return _FIND + admit + "local function body(KEYS, ARGV)\n" + body + run


def _charging(body: str) -> str:
    """The same script charging a request's rate buckets (``limits.rates.Bill``; a
    single Redis only: the buckets are in other slots) where the body calls
    ``charge_now()`` (the load: first; the append: after its checks, before it writes). KEYS:
    the bill's m keys (its buckets, then the game's meta when it has a token: the
    game's own), then the script's own; ARGV: m, the ``gcra`` function's arguments (now,
    the number n of buckets, the token's hash, then each bucket's interval, burst and
    mode), then the script's own. Answers {the charge} when it refuses (and the script
    has written nothing), {the charge, the script's answer} when admitted, {false, the
    answer} when the body answered before its charge point (a replay, a clash: nothing
    written, nothing charged). So a script sent again after its answer was lost
    (redis-py's retry) finds its own append and answers it without charging twice."""
    return (
        GCRA_LUA + _FIND + """
local m = tonumber(ARGV[1])
local charge = nil
local function charge_now()
  charge = gcra(KEYS, 1, ARGV, 2)
  return charge[1] ~= 0
end
local function body(KEYS, ARGV)
""" + body + """end
local reply = body({unpack(KEYS, m + 1)}, {unpack(ARGV, 5 + 3 * tonumber(ARGV[3]))})
if charge == nil then return {false, reply} end
if charge[1] == 0 then return {charge} end
return {charge, reply}
"""
    )  # fmt: skip


# KEYS: idem bucket, idem:r, idem (older code's), the game's meta
# ARGV: field, its raw field, record, its hash ('b' or 'r'), ttl (ms).
# Stores the record unless the field has one, or the game is gone from Redis (deleted
# after its archiving meanwhile: no key of it comes back); answers the earlier one (or nil).
_RECORD = (
    _FIND
    + """
local prior = find(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2])
if prior then return prior end
if redis.call('EXISTS', KEYS[4]) == 0 then return false end
local h = KEYS[1]
if ARGV[4] == 'r' then h = KEYS[2] end
redis.call('HSET', h, ARGV[1], ARGV[3])
redis.call('PEXPIRE', h, ARGV[5])
return false
"""
)

# KEYS: a game's meta. ARGV: the archived mark. Sets it if the game is there.
_MARK = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'archived', ARGV[1])
return 1
"""

# KEYS: a key. ARGV: the value it must hold, the value to set ('' deletes), ttl (ms).
# Compare and set.
_SWAP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
"""

# KEYS: meta. ARGV: field/value pairs. Sets them if the game exists (answers 1), else
# nothing (0): a game deleted meanwhile is not brought back as a stray meta.
_ANNOTATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""

# KEYS: meta. ARGV: the asking seat, now (ms), the last ms an ask counts, the new game's
# id if this ask makes it, then per seat whether it always agrees ('1': a hosted bot).
# A finished game's rematch (``service.rematch``): answers {'made', id} once a new game
# was named (by this ask or an earlier one), {'expired'} past the time, {'closed'} once
# the asks were closed (``rmx``: the game is being archived, ``close_rematch``), else
# records the
# ask and answers {'made', id} when both have asked (this ask names ARGV[4]) or
# {'waiting'}. One script: of two asks at the same instant exactly one names the game.
_REMATCH = """
local made = redis.call('HGET', KEYS[1], 'rmg')
if made then return {'made', made} end
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
if redis.call('HEXISTS', KEYS[1], 'rmx') == 1 then return {'closed'} end
if tonumber(ARGV[2]) > tonumber(ARGV[3]) then return {'expired'} end
redis.call('HSETNX', KEYS[1], 'rm' .. ARGV[1], ARGV[2])
for s = 0, 1 do
  if ARGV[5 + s] ~= '1' and not redis.call('HGET', KEYS[1], 'rm' .. s) then
    return {'waiting'}
  end
end
redis.call('HSET', KEYS[1], 'rmg', ARGV[4])
return {'made', ARGV[4]}
"""

# KEYS: meta, log, then every other key of the game (``_PARTS``). ARGV: the version
# archived. Deletes the game's keys if it was archived at that version (and has not
# moved since).
_DELETE = """
local archived = redis.call('HGET', KEYS[1], 'archived')
if not archived then return 0 end
local v = tonumber(string.match(archived, ':(%d+)$'))
if v ~= tonumber(ARGV[1]) or redis.call('XLEN', KEYS[2]) ~= v then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
"""

IDEM_BUCKETS = 8  # a game's hashes of appended actions' records

# every key of a game (``idem``: older code's records, read until they expire)
_PARTS = (
    "meta",
    "log",
    "snap",
    "refused",
    "idem",
    "idem:r",
    "hooks",
    "deliveries",
    "lock:hooks",
) + tuple(f"idem:{n}" for n in range(IDEM_BUCKETS))

__all__ = ["Appended", "Clash", "Loaded", "RedisStore", "Replayed", "StoreError"]


class StoreError(Exception):
    """The store could not do what was asked (Redis answered something unexpected)."""


def _key(game_id: str, part: str) -> str:
    return f"spit:{{g:{game_id}}}:{part}"


_LIVE = re.compile(r"spit:\{g:([^}]+)\}:live")


def _s(b) -> str:
    return b.decode() if isinstance(b, bytes) else str(b)


def _entries(raw) -> list[tuple[int, dict]]:
    """Stream entries (ID ``0-<version>``, field ``e``) as (version, event dict)."""
    out = []
    for entry_id, fields in raw:
        if isinstance(fields, dict):
            data = fields.get(b"e", fields.get("e"))
        else:  # a script's reply: a flat [field, value, ...] list
            data = dict(zip(fields[::2], fields[1::2], strict=True)).get(b"e")
        out.append((int(_s(entry_id).split("-", 1)[1]), orjson.loads(data)))
    return out


def _flat(pairs) -> dict[str, str]:
    """A script's HGETALL reply as a dict."""
    return {_s(k): _s(v) for k, v in zip(pairs[::2], pairs[1::2], strict=True)}


def _dumps(obj) -> bytes:
    return orjson.dumps(obj)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _idem_field(key: IdemKey) -> str:
    """The raw field of an idempotency key: ``<seat>:<Idempotency-Key>``, or a join's
    ``j:<its caller's key>`` (as older code kept it in ``idem``)."""
    return f"{'j' if key.seat is None else key.seat}:{key.key}"


def _idem_place(field: str) -> tuple[str, str]:
    """Where the record of a raw ``field`` (``_idem_field``) is kept: the part name of the
    key's bucket and the field there, the seat and 96 bits of the key's SHA-256."""
    seat, _sep, key = field.partition(":")
    digest = hashlib.sha256(key.encode()).digest()
    return f"idem:{digest[-1] % IDEM_BUCKETS}", seat + _b64(digest[:12])


_HEX64 = re.compile(r"[0-9a-f]{16}")


def _record_dumps(answer: KeptAnswer) -> tuple[bytes, str]:
    """An idempotency record as stored, and its hash: an appended action's (a 64-bit
    fingerprint) as ``<fp, base64>:<first>[:<last>]`` in the key's bucket ('b'), any
    other (a refusal) as JSON (``records.answer_dict``) in ``idem:r`` ('r')."""
    v = answer.appended
    if (
        v is not None
        and answer.whole is None
        and _HEX64.fullmatch(answer.fp)
        and all(type(x) is int and x >= 0 for x in v)
    ):
        first, last = v
        tail = f":{first}" if first == last else f":{first}:{last}"
        return (_b64(bytes.fromhex(answer.fp)) + tail).encode(), "b"
    return _dumps(records.answer_dict(answer)), "r"


def _record_loads(raw) -> KeptAnswer:
    """A stored idempotency record (``_record_dumps``; JSON, as older code stored them all)."""
    text = _s(raw)
    if text.startswith("{"):
        return records.answer_of(json.loads(text))
    fp, first, *last = text.split(":")
    first = int(first)
    last = int(last[0]) if last else first
    return KeptAnswer(base64.urlsafe_b64decode(fp + "=").hex(), appended=(first, last))


class RedisStore:
    """Games as Redis Streams. Thread- and greenlet-safe (redis-py pools connections)."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        live: redis.Redis | None = None,
        durability: str = "default",
        idempotency_ttl_s: float = 86_400,
        replicas: int = 0,
        wait_s: float = 1.0,
    ):
        self.r = client
        self.idem_ttl_ms = max(1, int(idempotency_ttl_s * 1000))
        self.live = live or client  # for blocking reads (wait_after)
        self.cluster = isinstance(client, redis.cluster.RedisCluster)
        self.durability = durability
        if self.cluster and durability == "strict" and replicas:
            raise ValueError("strict durability waits for replicas on a single primary (with "
                             "Sentinel); a Cluster's nodes are not waited for")  # fmt: skip
        self.replicas, self.wait_ms = replicas, max(1, int(wait_s * 1000))
        self._append = client.register_script(_plain(_APPEND))
        self._load = client.register_script(_plain(_LOAD))
        # the same charging a request's rate buckets first (a single Redis)
        self._append_charging = client.register_script(_charging(_APPEND))
        self._load_charging = client.register_script(_charging(_LOAD))
        self._delete = client.register_script(_DELETE)
        self._record = client.register_script(_RECORD)
        self._swap = client.register_script(_SWAP)
        self._mark = client.register_script(_MARK)
        self._annotate = client.register_script(_ANNOTATE)
        self._rematch = client.register_script(_REMATCH)
        # strict: the command that waits after a write (``_wait_command``), found out by
        # the first strict append: () when there is none to send
        self._wait: tuple | None = None
        self._probing = threading.Lock()

    def _script(self, script, keys: list, args: list):
        """Run a registered script by its SHA, straight through ``execute_command`` (not
        redis-py's ``Script`` wrapper, which costs more a call); after a NoScriptError (a
        restarted, flushed or failed-over server) ``Script`` loads it and runs it."""
        try:
            return self.r.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            return script(keys=keys, args=args)

    def meta_key(self, game_id: str) -> str:
        """The key of a game's meta (the rate limits read its seats' token hashes there)."""
        return _key(game_id, "meta")

    def _waited(self, script, keys: list, args: list) -> tuple:
        """(reply, confirmed): run a registered script as ``_script`` does and, in the
        same round trip on the same connection, strict durability's wait (``WAIT`` and
        ``WAITAOF`` wait for what their own connection wrote), then whether it confirmed
        the script's writes."""
        wait = self._wait_command()
        if not wait:
            return self._script(script, keys, args), True
        for _attempt in range(2):
            pipe = self.r.pipeline(transaction=False)
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
            pipe.execute_command(*wait, self.wait_ms)
            reply, waited = pipe.execute(raise_on_error=False)
            if isinstance(reply, redis.exceptions.NoScriptError):  # a new or flushed primary
                self.r.script_load(script.script)
                continue
            if isinstance(reply, Exception):
                raise reply
            return reply, self._confirmed(wait, waited)
        raise StoreError("the store lost its scripts twice in a row")

    def _wait_command(self) -> tuple:
        """Strict durability's wait after a write, less its timeout: ``WAITAOF 1 <n>`` (the
        local AOF fsynced and ``n`` replicas' too: Redis >= 7.2, AOF on), else ``WAIT <n>``
        (``n`` replicas hold it; the local AOF is then ``appendfsync always``'s to keep),
        else none (() : no replicas to wait for, no WAITAOF). Found out once, by asking
        ``WAITAOF`` (for a millisecond at most)."""
        if self.durability != "strict" or self.cluster:
            return ()
        if self._wait is not None:
            return self._wait
        with self._probing:  # one look, however many requests ask at once
            if self._wait is None:
                self._wait = self._probe()
            return self._wait

    def _probe(self) -> tuple:
        """Which wait ``_wait_command`` sends, asked of the primary."""
        try:
            self.r.execute_command("WAITAOF", 1, 0, 1)
            found = ("WAITAOF", 1, self.replicas)
        except redis.ResponseError as e:
            text = str(e).lower()
            if "unknown command" not in text and "appendonly" not in text:
                raise
            found = ("WAIT", self.replicas) if self.replicas else ()
            why = "has no WAITAOF" if "unknown" in text else "runs with AOF off"
            waits = f"waits for {self.replicas} replicas (WAIT) and " if self.replicas else ""
            log.warning("Redis %s: strict durability %srelies on appendfsync always for the "
                        "local AOF", why, waits)  # fmt: skip
        return found

    def _confirmed(self, wait: tuple, waited) -> bool:
        """Whether the reply of ``wait`` confirms the write before it. An error (the wait
        refused by a new primary that runs otherwise) confirms nothing, and the wait is
        found out again."""
        if isinstance(waited, Exception):
            log.warning("strict durability's %s was refused: %s", wait[0], waited)
            self._wait = None
            return False
        if wait[0] == "WAIT":
            return int(waited) >= self.replicas
        local, replicas = waited
        return int(local) >= 1 and int(replicas) >= self.replicas

    def confirm(self) -> bool:
        """Strict durability: whether the replicas (and AOF) hold every write the primary
        had taken when this is called, as ``_wait_command`` asks of an append; so also an
        idempotency record just read, about to be answered again. ``WAIT`` waits for its
        own connection's writes, so a small write goes first (the counter
        ``spit:confirms``), in the same round trip: it comes after every write read so
        far, and replicas take writes in order. True when there is nothing to wait for."""
        wait = self._wait_command()
        if not wait:
            return True
        pipe = self.r.pipeline(transaction=False)
        pipe.incr("spit:confirms")
        pipe.execute_command(*wait, self.wait_ms)
        counted, waited = pipe.execute(raise_on_error=False)
        if isinstance(counted, Exception):
            raise counted
        return self._confirmed(wait, waited)

    def _game_script(self, plain, charging, keys: list, args: list, wait: bool = False):
        """Run a game's script: (its reply, confirmed: with ``wait``, ``_waited``'s).
        When the request left its rate buckets to its first game script
        (``limits.pending``: a bill not charged yet) on a single Redis, its charging
        form, which charges the buckets first and, when they refuse, does nothing else
        (``bill.settled`` raises the 429). On a Cluster the bill is left to its own call
        (the pipeline's)."""
        run = self._waited if wait else lambda *a: (self._script(*a), True)
        bill = pending()
        if bill is None or self.cluster:
            return run(plain, keys, args)
        bill_keys = bill.keys
        reply, confirmed = run(charging, [*bill_keys, *keys], [len(bill_keys), *bill.args, *args])
        if reply[0] is None:  # answered before its charge point: the bill is still open
            return reply[1], confirmed
        bill.settled(reply[0])  # raises when refused
        return reply[1], confirmed

    # ---------------------------------------------------------------- the log

    def append(
        self,
        game_id: str,
        expected: int,
        events: list[dict],
        *,
        idem: tuple[IdemKey, KeptAnswer] | None = None,
        snapshot: tuple[int, dict] | None = None,
        record: GameRecord | None = None,
        before: GameRecord | None = None,
    ) -> Appended | Clash | Replayed:
        """Append ``events`` if the log holds exactly ``expected`` events; all or nothing.

        ``idem`` = (key, record): if the key already has a record, nothing is appended
        and that record comes back (``Replayed``); else the record is stored with the
        events. ``snapshot`` = (version, state dict) is stored beside the log. ``record``:
        the game's record with this append, written where it differs from ``before`` (the
        record the caller decided on; None: a new game's, written whole). Expected 0
        creates a game. The request's rate buckets, if it left them to its first game
        script, are charged first in the same call (``_game_script``). Strict durability
        waits in the same round trip (``_waited``): an append it did not confirm is
        ``Appended`` with ``confirmed`` False.
        """
        args: list = [expected, len(events), *(_dumps(e) for e in events)]
        tag = _key(game_id, "")
        bucket = "idem:0"
        if idem:
            raw = _idem_field(idem[0])
            bucket, field = _idem_place(raw)
            value, where = _record_dumps(idem[1])
            args += [field, raw, value, where, self.idem_ttl_ms]
        else:
            args += ["", "", "", "", 0]
        args += [snapshot[0], snapshots.dumps(snapshot[1])] if snapshot else ["", ""]
        if record is not None:
            for k, v in records.changes(before, record).items():
                args += [k, v]
        keys = [tag + "meta", tag + "log", tag + bucket, tag + "snap", tag + "idem:r", tag + "idem"]
        reply, confirmed = self._game_script(
            self._append, self._append_charging, keys, args, wait=True
        )
        kind, value = _s(reply[0]), reply[1]
        if kind == "ok":
            return Appended(int(value), confirmed)
        if kind == "clash":
            if len(reply) == 4:
                return Clash(int(value), records.from_hash(_flat(reply[2])), _entries(reply[3]))
            return Clash(int(value))
        if kind == "replay":
            withdraw()  # the first answer, given again: its charge is the pipeline's
            return Replayed(_record_loads(value))
        raise StoreError(f"unexpected append reply {kind!r}")

    def load(self, game_id: str, known: int = -1, idem_key: str | None = None) -> Loaded | None:
        """The game's record and events after the best base (see ``Loaded``); None if no game.
        The request's rate buckets, if it left them to its first game script, are charged
        first in the same call (``_game_script``)."""
        bucket, args = "idem:0", [known, "", "", "", ""]
        if idem_key:
            raws = [_idem_field(IdemKey(seat, idem_key)) for seat in (0, 1)]
            places = [_idem_place(f) for f in raws]
            bucket = places[0][0]  # the key's, whatever the seat
            args = [known, places[0][1], places[1][1], *raws]
        keys = [_key(game_id, p) for p in ("meta", "log", "snap", bucket, "idem:r", "idem")]
        raw, _confirmed = self._game_script(self._load, self._load_charging, keys, args)
        if raw is None:
            return None
        m, v, base, snap, tail, i0, i1 = raw
        snapshot = snapshots.loads(snap) if snap else None
        if snap and snapshot is None:  # unreadable: the whole log instead (one more read)
            base, tail = 0, self.r.xrange(keys[1], "-", f"0-{int(v)}")
        return Loaded(
            record=records.from_hash(_flat(m)),
            version=int(v),
            base=int(base),
            snapshot=snapshot,
            tail=_entries(tail),
            idem=tuple(_record_loads(x) if x else None for x in (i0, i1)),
        )

    def version(self, game_id: str) -> int:
        return int(self.r.xlen(_key(game_id, "log")))

    def read_after(
        self, game_id: str, after: int, limit: int | None = None, upto: int | None = None
    ) -> list[tuple[int, dict]]:
        """Events with versions ``after+1 .. upto`` (at most ``limit`` of them)."""
        end = f"0-{upto}" if upto is not None else "+"
        raw = self.r.xrange(_key(game_id, "log"), f"0-{after + 1}", end, count=limit)
        return _entries(raw)

    def versions(self, game_ids: list[str]) -> list[int]:
        """The versions of several games (0: no such game), in one round trip on a single
        Redis."""
        pipe = self.r.pipeline(transaction=False)
        for g in game_ids:
            pipe.xlen(_key(g, "log"))
        return [int(v) for v in pipe.execute()]

    # ---------------------------------------------------------------- live

    def live_node(self, game_id: str) -> str | None:
        """Where the game's live channel is served: None on a single Redis, the name of
        the node that serves its slot on a Cluster (``live_connect``)."""
        if not self.cluster:
            return None
        return self.r.get_node_from_key(self.live_channel(game_id)).name

    def live_connect(
        self, node: str | None = None, timeout_s: float | None = None
    ) -> redis.connection.AbstractConnection:
        """A new connection for live channels (``SSUBSCRIBE``), connected: to the Redis,
        or to ``node`` of a Cluster; RESP2 (a message is a reply to read, not a push to a
        handler), no health check (its reader reads every reply), reads and writes
        that fail after ``timeout_s`` (``store.live.Hub`` pings it more often than that)."""
        if node is None:
            pool = self.live.connection_pool
        else:
            found = self.r.get_node(node_name=node)
            if found is None:
                raise redis.ConnectionError(f"{node} is not a node of the Cluster")
            pool = found.redis_connection.connection_pool
        kwargs = {**pool.connection_kwargs, "protocol": 2, "health_check_interval": 0,
                  "socket_timeout": timeout_s, "socket_keepalive": True}  # fmt: skip
        conn = pool.connection_class(**kwargs)
        conn.connect()
        return conn

    def live_refresh(self) -> None:
        """On a Cluster, read its nodes and slots again (a node failed, a slot moved)."""
        if self.cluster:
            self.r.nodes_manager.initialize()

    def live_node_gone(self, node: str | None) -> bool:
        """Whether ``node`` is no longer a node of the Cluster (never, for a Redis)."""
        return node is not None and self.r.get_node(node_name=node) is None

    @staticmethod
    def live_channel(game_id: str) -> str:
        """The shard channel an append to ``game_id`` publishes on (``SSUBSCRIBE`` it)."""
        return _key(game_id, "live")

    @staticmethod
    def live_game(channel) -> str | None:
        """The game of a live channel's name (bytes or str), or None if it is none."""
        m = _LIVE.fullmatch(_s(channel))
        return m.group(1) if m else None

    @staticmethod
    def live_entries(data: bytes) -> list[tuple[int, dict]]:
        """The entries an append published (``live_channel``): (version, event dict)."""
        first, *events = data.split(b"\n")
        v = int(first)
        return [(v + i, orjson.loads(e)) for i, e in enumerate(events)]

    def wait_after(self, game_id: str, after: int, timeout_s: float) -> list[tuple[int, dict]]:
        """Block until the log holds events after ``after`` (or ``timeout_s`` passes)."""
        key = _key(game_id, "log")
        block = max(1, int(timeout_s * 1000))
        reply = self.live.xread({key: f"0-{after}"}, count=1000, block=block)
        return _entries(reply[0][1]) if reply else []

    def snapshot_at(self, game_id: str, version: int) -> dict | None:
        raw = self.r.hget(_key(game_id, "snap"), str(version))
        return snapshots.loads(raw) if raw else None

    def record(self, game_id: str, key: IdemKey, record: KeptAnswer) -> KeptAnswer | None:
        """Store an idempotency record unless the key has one; return the earlier one."""
        field = _idem_field(key)
        bucket, stored = _idem_place(field)
        value, where = _record_dumps(record)
        keys = [_key(game_id, p) for p in (bucket, "idem:r", "idem", "meta")]
        prior = self._script(self._record, keys, [stored, field, value, where, self.idem_ttl_ms])
        return _record_loads(prior) if prior else None

    def find_record(self, game_id: str, key: IdemKey) -> KeptAnswer | None:
        """The idempotency record of ``key``, if any."""
        field = _idem_field(key)
        bucket, stored = _idem_place(field)
        pipe = self.r.pipeline(transaction=False)
        pipe.hget(_key(game_id, bucket), stored)
        pipe.hget(_key(game_id, "idem:r"), stored)
        pipe.hget(_key(game_id, "idem"), field)
        found = next((x for x in pipe.execute() if x), None)
        return _record_loads(found) if found else None

    # ---------------------------------------------------------------- webhooks

    def lock(self, game_id: str, what: str, ttl_ms: int) -> str | None:
        """Take the game's ``what`` lock for ``ttl_ms`` at most: its holder's token, or
        None when another holds it."""
        token = secrets.token_hex(8)
        ok = self.r.set(_key(game_id, f"lock:{what}"), token, nx=True, px=ttl_ms)
        return token if ok else None

    def unlock(self, game_id: str, what: str, token: str) -> None:
        self._script(self._swap, [_key(game_id, f"lock:{what}")], [token, "", 1])

    def hooks(self, game_id: str, target: str) -> HookCursor:
        """The delivery cursor of a webhook target (``service.deliveries.Deliverer``), kept
        as ``<version>:<sent>:<tries>:<failing since>:<next at>``."""
        raw = self.r.hget(_key(game_id, "hooks"), target)
        if not raw:
            return HookCursor()
        v, n, a, f, nxt = _s(raw).split(":")
        return HookCursor(int(v), int(n), int(a), float(f), float(nxt))

    def set_hooks(self, game_id: str, target: str, cursor: HookCursor) -> None:
        c = cursor
        value = f"{c.version}:{c.sent}:{c.tries}:{c.failing_since:.3f}:{c.next_at:.3f}"
        self.r.hset(_key(game_id, "hooks"), target, value)

    def log_delivery(self, game_id: str, target: str, entry: dict, keep: int) -> None:
        self.r.xadd(_key(game_id, "deliveries"), {"d": _dumps({"target": target, **entry})},
                    maxlen=keep, approximate=False)  # fmt: skip

    def deliveries(self, game_id: str, count: int) -> list[dict]:
        """The latest ``count`` deliveries tried, oldest first."""
        raw = self.r.xrevrange(_key(game_id, "deliveries"), count=count)
        return [json.loads(fields[b"d"]) for _id, fields in reversed(raw)]

    # ---------------------------------------------------------------- keyed creates

    CLAIM_STALE_MS = 30_000  # a claim whose game did not come in this long is taken over

    def claim_create(
        self, key_hash: str, game_id: str, fp: str, now_ms: int
    ) -> tuple[str, str, int] | None:
        """Bind a create's Idempotency-Key (``key_hash``) to the game ``game_id`` about to
        be made: None once it is bound, else the (game, fingerprint, ms) it was bound to
        first (a game that exists, or a claim younger than ``CLAIM_STALE_MS``: one whose
        game never came, its process gone, is taken over). One key a command: it runs
        unchanged on a Cluster."""
        key = f"spit:new:{key_hash}"
        value = f"{game_id}:{fp}:{now_ms}"
        for _try in range(3):
            if self.r.set(key, value, nx=True, px=self.idem_ttl_ms):
                return None
            raw = self.r.get(key)
            if raw is None:
                continue  # expired meanwhile
            gid, first_fp, at = _s(raw).split(":")
            if int(at) > now_ms - self.CLAIM_STALE_MS or self.r.exists(_key(gid, "meta")):
                return gid, first_fp, int(at)
            if int(self._script(self._swap, [key], [raw, value, self.idem_ttl_ms])):
                return None
        raise StoreError(f"could not bind the Idempotency-Key {key_hash}")

    def release_create(self, key_hash: str, game_id: str) -> None:
        """Unbind a create's key from ``game_id``, which was not made after all."""
        key = f"spit:new:{key_hash}"
        held = self.r.get(key)
        if held and _s(held).startswith(game_id + ":"):
            self.r.delete(key)

    # ---------------------------------------------------------------- archived games

    def _meta(self, game_id: str) -> dict[str, str] | None:
        m = self.r.hgetall(_key(game_id, "meta"))
        return {_s(k): _s(v) for k, v in m.items()} if m else None

    def game_record(self, game_id: str) -> GameRecord | None:
        """The game's record (None: no such game in Redis)."""
        m = self._meta(game_id)
        return records.from_hash(m) if m is not None else None

    def set_rating(self, game_id: str, outcome: dict) -> bool:
        """Record the rating's outcome of a game that exists (False, and nothing set, if
        not)."""
        value = records.to_hash(GameRecord("", rating=outcome))[records.RATING_FIELD]
        args = [records.RATING_FIELD, value]
        return bool(int(self._script(self._annotate, [_key(game_id, "meta")], args)))

    def rematch(
        self, game_id: str, seat: int, now_ms: int, until_ms: int, new_id: str,
        agrees: tuple[bool, bool],
    ) -> tuple[str, str | None]:  # fmt: skip
        """Record ``seat``'s ask for a rematch of the finished game (``_REMATCH``):
        (``made``, the new game's id), (``waiting``, None), (``expired``, None),
        (``closed``, None) or (``gone``, None)."""
        args = [seat, now_ms, until_ms, new_id, *("1" if a else "0" for a in agrees)]
        reply = self._script(self._rematch, [_key(game_id, "meta")], args)
        return _s(reply[0]), (_s(reply[1]) if len(reply) > 1 else None)

    def close_rematch(self, game_id: str) -> None:
        """Refuse any further rematch ask of the finished game (``rmx``, which
        ``_REMATCH`` reads): from here its rematch fields never change, so the archive's
        record of them is final. Nothing if the game is not in Redis."""
        self._script(self._annotate, [_key(game_id, "meta")], [records.REMATCH_CLOSED, "1"])

    def mark_archived(self, game_id: str, version: int, at_ms: int, retain_s: float) -> None:
        """Record that the game's archived copy (at ``version``) was checked at ``at_ms``
        (only if the game is still there: a late job must not bring back a meta); its
        token index entries expire a day after the retention, should ``delete_game``
        never get to them."""
        record = self.game_record(game_id)
        mark = records.to_hash(GameRecord("", archived=ArchivedMark(at_ms, version)))
        if not int(self._script(self._mark, [_key(game_id, "meta")],
                                [mark[records.ARCHIVED_FIELD]])):  # fmt: skip
            return
        ttl = int(retain_s) + 86_400
        pipe = self.r.pipeline(transaction=False)
        for h in record.token_hashes if record is not None else ():
            if h is not None:
                pipe.expire(f"spit:token:{h}", ttl)
        pipe.execute()

    def delete_game(self, game_id: str, version: int) -> bool:
        """Delete every key of an archived game (False, and nothing deleted, unless it was
        archived at ``version`` and has not moved since; True if it is gone already): its
        lobby and token index entries first, then its own keys in one script. (In this
        order a crash in between leaves the game whole, to be deleted again; the
        other way round it would leave index entries that name no game.)"""
        record = self.game_record(game_id)
        if record is None:
            return True
        archived = record.archived
        if archived is None or archived.version != version or self.version(game_id) != version:
            return False
        member = records.member(record.created_ms, game_id)
        tokens = [f"spit:token:{h}" for h in record.token_hashes if h is not None]
        owners = self.r.mget(tokens) if tokens else []
        pipe = self.r.pipeline(transaction=False)
        for status in LOBBY_STATUSES:
            pipe.zrem(f"spit:lobby:{status}", member)
        for key, owner in zip(tokens, owners, strict=True):
            if owner and _s(owner).startswith(game_id + ":"):
                pipe.delete(key)
        if record.create_key is not None:
            pipe.delete(f"spit:new:{record.create_key}")
        pipe.execute()
        keys = [_key(game_id, p) for p in _PARTS]
        return bool(int(self._script(self._delete, keys, [version])))

    def game_keys(self, game_id: str) -> list[str]:
        """The names of the game's own keys (for the benchmarks' and the tests' counts)."""
        return [_key(game_id, p) for p in _PARTS]

    # ---------------------------------------------------------------- refused windows (T-4)

    def refused(self, game_id: str, token_hash: str, start: float, end: float) -> None:
        """Remember that the service refused a request of the token ``token_hash`` of this
        game from ``start`` to ``end`` (seconds since the epoch)."""
        key = _key(game_id, "refused")
        member = f"{token_hash[:16]}:{int(start * 1000)}:{int(end * 1000)}"
        pipe = self.r.pipeline(transaction=True)
        pipe.zadd(key, {member: int(end * 1000)})
        pipe.zremrangebyrank(key, 0, -257)
        pipe.expire(key, 86_400)
        pipe.execute()

    def refused_windows(
        self, game_id: str, token_hash: str, since: float
    ) -> list[tuple[float, float]]:
        """The windows in which requests of ``token_hash`` were refused, after ``since``."""
        raw = self.r.zrangebyscore(_key(game_id, "refused"), int(since * 1000), "+inf")
        out = []
        prefix = token_hash[:16] + ":"
        for m in map(_s, raw):
            if m.startswith(prefix):
                _t, a, b = m.split(":")
                out.append((max(int(a) / 1000, since), int(b) / 1000))
        return out

    # ---------------------------------------------------------------- indexes

    def index(
        self, game_id: str, *, status: str, created_ms: int, tokens: dict[int, str] | None = None
    ) -> None:
        """Put a game in the lobby list of ``status`` (and in no other); index new token
        hashes. Separate from the append (other slots); ``lobby`` repairs what a crash
        between the two left behind."""
        member = records.member(created_ms, game_id)
        # One transaction on a single server; on a Cluster these keys span slots, so the
        # commands go one by one (``lobby`` repairs a list a crash left half-moved).
        pipe = self.r.pipeline(transaction=not self.cluster)
        for s in LOBBY_STATUSES:
            if s != status:
                pipe.zrem(f"spit:lobby:{s}", member)
        pipe.zadd(f"spit:lobby:{status}", {member: 0})
        for seat, h in (tokens or {}).items():
            pipe.set(f"spit:token:{h}", f"{game_id}:{seat}")
        pipe.execute()

    def put_ticket(self, game_id: str, digest: str, sealed: bytes, ttl_ms: int) -> None:
        """Keep a seat channel's ticket (``service.http.channel``): its SHA-256 ``digest``
        names it, ``sealed`` is what it opens (only the ticket itself unseals it); gone
        after ``ttl_ms``."""
        self.r.set(_key(game_id, "ticket:" + digest), sealed, px=ttl_ms)

    def take_ticket(self, game_id: str, digest: str) -> bytes | None:
        """A ticket's sealed value, taken once (``GETDEL``): None if it is unknown, used or
        expired."""
        raw = self.r.getdel(_key(game_id, "ticket:" + digest))
        return None if raw is None else bytes(raw)

    def token_owner(self, token_hash: str) -> tuple[str, int] | None:
        raw = self.r.get(f"spit:token:{token_hash}")
        if not raw:
            return None
        game_id, seat = _s(raw).rsplit(":", 1)
        return game_id, int(seat)

    def lobby(self, status: str, cursor: str | None, limit: int) -> tuple[list[Listed], str | None]:
        """A page of the lobby, newest first: its rows (each record with the lobby's fields
        only: ``records.LOBBY_FIELDS``) and the next cursor."""
        key = f"spit:lobby:{status}"
        top = f"({cursor}" if cursor else "+"
        members = [_s(m) for m in self.r.zrevrangebylex(key, top, "-", start=0, num=limit + 1)]
        more = len(members) > limit
        members = members[:limit]
        pipe = self.r.pipeline(transaction=False)
        for m in members:
            pipe.hmget(_key(records.member_game(m), "meta"), *records.LOBBY_FIELDS)
            pipe.xlen(_key(records.member_game(m), "log"))
        replies = pipe.execute()
        rows = []
        for n, m in enumerate(members):
            gid = records.member_game(m)
            fields, version = replies[2 * n], replies[2 * n + 1]
            if fields[0] is None:  # no such game any more
                self.r.zrem(key, m)
                continue
            meta = {k: _s(v) for k, v in zip(records.LOBBY_FIELDS, fields, strict=True)
                    if v is not None}  # fmt: skip
            record = records.from_hash(meta)
            if lobby_status(record.status) != status:  # an index left stale by a crash
                self.index(gid, status=lobby_status(record.status), created_ms=record.created_ms)
                continue
            rows.append(Listed(gid, record, int(version), m))
        return rows, (members[-1] if more and members else None)

    def ping(self) -> bool:
        return bool(self.r.ping())
