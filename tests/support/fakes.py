"""In-memory stand-ins for the use cases' ports (``service.ports``), for tests: each keeps
what its Redis adapter keeps, in dicts, and answers as it answers (the stores' contract
tests run on both: tests/service/test_store_memory.py), in microseconds and with no Redis.
And a clock a test moves, and entropy a test seeds.

Each store is one process's: a lock makes each call all or nothing, as a Redis script is.
"""

import bisect
import dataclasses
import hashlib
import ipaddress
import random
import threading
from collections.abc import Iterator

from service import ids
from service.archive.games import GameArchive
from service.ports import (
    LOBBY_STATUSES,
    Appended,
    Clash,
    Listed,
    Listing,
    Loaded,
    Replayed,
    SystemEntropy,
    lobby_status,
    ms_now,
)
from service.records import (
    AppRecord,
    ArchivedMark,
    GameRecord,
    HookCursor,
    IdemKey,
    KeptAnswer,
    Pairing,
    PlayerRecord,
    Seat,
    SeekRecord,
)

# ---------------------------------------------------------------- clock and entropy


class MovableClock:
    """A clock that runs with the real one (``ms_now``, as the service's) or stands at
    ``at``, shifted by ``offset`` seconds: a test moves it (``shift``) instead of waiting."""

    def __init__(self, at: float | None = None, offset: float = 0.0):
        self.at = at
        self.offset = offset

    def __call__(self) -> float:
        return (ms_now() if self.at is None else self.at) + self.offset

    def shift(self, seconds: float) -> None:
        self.offset += seconds


class SeededEntropy(SystemEntropy):
    """The system's entropy, but games' seeds (and, with ``everything``, tokens, secrets
    and ids too) drawn from ``rng``, or one fixed ``seed``: a test deals the same games
    every run."""

    def __init__(self, rng: random.Random | None = None, *, everything: bool = False,
                 seed: bytes | None = None):  # fmt: skip
        self.rng = rng or random.Random(0)
        self.everything = everything
        self.fixed = seed

    def seed(self) -> bytes:
        return self.fixed if self.fixed is not None else self.rng.randbytes(32)

    def token(self) -> str:
        return self.rng.randbytes(32).hex() if self.everything else super().token()

    def secret(self) -> str:
        return self.rng.randbytes(16).hex() if self.everything else super().secret()

    def ident(self, prefix: str, nbytes: int = 8) -> str:
        if self.everything:
            return prefix + self.rng.randbytes(nbytes).hex()
        return super().ident(prefix, nbytes)

    def jitter(self, high: float) -> float:
        return self.rng.uniform(0, high) if self.everything else super().jitter(high)


# ---------------------------------------------------------------- records, field by field


def merged(current, before, after):
    """``after`` written over ``current`` where it differs from ``before``, field by field
    (seats and the rematch's fields one by one), as the Redis adapter writes a record's
    changed fields: what another writer set meanwhile in another field stays."""
    if before is None or current is None:
        return after
    if dataclasses.is_dataclass(after) and type(after) is type(before) is type(current):
        changes = {}
        for f in dataclasses.fields(after):
            a, b, c = (getattr(x, f.name) for x in (after, before, current))
            if a != b:
                changes[f.name] = merged(c, b, a)
        return dataclasses.replace(current, **changes) if changes else current
    if isinstance(after, tuple) and len(after) == len(before) == len(current):
        return tuple(merged(c, b, a) if a != b else c
                     for c, b, a in zip(current, before, after, strict=True))  # fmt: skip
    return after


def _listed_only(r: GameRecord) -> GameRecord:
    """The fields a list shows of a game (no seed, token hashes, secret or webhook)."""
    seats = tuple(Seat(kind=s.kind, player=s.player, name=s.name) for s in r.seats)
    return GameRecord(r.game, r.created_ms, r.status, (seats[0], seats[1]), rated=r.rated,
                      rating=r.rating, won=r.won)  # fmt: skip


def _member(created_ms: int, game_id: str) -> str:
    return f"{created_ms:013d}:{game_id}"


class _Game:
    __slots__ = ("log", "record", "snaps", "idem", "refused", "hooks", "deliveries", "lock")

    def __init__(self):
        self.log: list[dict] = []
        self.record: GameRecord | None = None
        self.snaps: dict[int, dict] = {}
        self.idem: dict[IdemKey, KeptAnswer] = {}
        self.refused: list[tuple[str, float, float]] = []
        self.hooks: dict[str, HookCursor] = {}
        self.deliveries: list[dict] = []
        self.lock: str | None = None


# ---------------------------------------------------------------- the game store


class MemoryGameStore:
    """``GameStore``, ``RematchStore`` and ``WebhookStore`` in memory."""

    CLAIM_STALE_MS = 30_000

    def __init__(self):
        self.games: dict[str, _Game] = {}
        self.lobbies: dict[str, set[str]] = {s: set() for s in LOBBY_STATUSES}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.creates: dict[str, tuple[str, str, int]] = {}
        self.confirming = True  # False: strict durability's replicas do not confirm
        self._lock = threading.RLock()

    def _game(self, game_id: str) -> _Game | None:
        g = self.games.get(game_id)
        return g if g is not None and g.record is not None else None

    # ------------------------------------------------ the log

    def append(self, game_id, expected, events, *, idem=None, snapshot=None, record=None,
               before=None):  # fmt: skip
        with self._lock:
            g = self.games.setdefault(game_id, _Game())
            if idem and idem[0] in g.idem:
                return Replayed(g.idem[idem[0]])
            v = len(g.log)
            if v != expected:
                if expected < v and v - expected <= 200:
                    tail = [(n + 1, g.log[n]) for n in range(expected, v)]
                    return Clash(v, g.record, tail)
                return Clash(v)
            g.log.extend(dict(e) for e in events)
            if idem:
                g.idem[idem[0]] = idem[1]
            if snapshot is not None:
                g.snaps[snapshot[0]] = snapshot[1]
            if record is not None:
                g.record = record if before is None else merged(g.record, before, record)
            elif g.record is None:
                g.record = GameRecord("")
            return Appended(len(g.log), self.confirming)

    def load(self, game_id, known=-1, idem_key=None):
        with self._lock:
            g = self._game(game_id)
            if g is None:
                return None
            v = len(g.log)
            sv = max(g.snaps) if g.snaps else -1
            base, snap = 0, None
            if 0 <= known <= v and known >= sv:
                base = known
            elif 0 <= sv <= v:
                base, snap = sv, g.snaps[sv]
            tail = [(n + 1, g.log[n]) for n in range(base, v)]
            idems = (None, None)
            if idem_key:
                idems = (g.idem.get(IdemKey(0, idem_key)), g.idem.get(IdemKey(1, idem_key)))
            return Loaded(g.record, v, base, snap, tail, idems)

    def confirm(self) -> bool:
        return self.confirming

    def read_after(self, game_id, after, limit=None, upto=None):
        g = self.games.get(game_id)
        if g is None:
            return []
        end = len(g.log) if upto is None else min(upto, len(g.log))
        out = [(n + 1, g.log[n]) for n in range(max(0, after), end)]
        return out if limit is None else out[:limit]

    def snapshot_at(self, game_id, version):
        g = self.games.get(game_id)
        return g.snaps.get(version) if g is not None else None

    def version(self, game_id):
        g = self.games.get(game_id)
        return len(g.log) if g is not None else 0

    def versions(self, game_ids):
        return [self.version(g) for g in game_ids]

    def game_record(self, game_id):
        g = self._game(game_id)
        return g.record if g is not None else None

    # ------------------------------------------------ idempotency

    def record(self, game_id, key, record):
        with self._lock:
            g = self._game(game_id)
            if g is None:
                return None
            prior = g.idem.get(key)
            if prior is None:
                g.idem[key] = record
            return prior

    def find_record(self, game_id, key):
        g = self._game(game_id)
        return g.idem.get(key) if g is not None else None

    def claim_create(self, key_hash, game_id, fp, now_ms):
        with self._lock:
            held = self.creates.get(key_hash)
            if held is not None:
                gid, first_fp, at = held
                if at > now_ms - self.CLAIM_STALE_MS or self._game(gid) is not None:
                    return held
            self.creates[key_hash] = (game_id, fp, now_ms)
            return None

    def release_create(self, key_hash, game_id):
        with self._lock:
            held = self.creates.get(key_hash)
            if held is not None and held[0] == game_id:
                del self.creates[key_hash]

    # ------------------------------------------------ indexes

    def index(self, game_id, *, status, created_ms, tokens=None):
        with self._lock:
            member = _member(created_ms, game_id)
            for s, members in self.lobbies.items():
                (members.add if s == status else members.discard)(member)
            for seat, h in (tokens or {}).items():
                self.tokens[h] = (game_id, seat)

    def token_owner(self, token_hash):
        return self.tokens.get(token_hash)

    def lobby(self, status, cursor, limit):
        with self._lock:
            members = sorted((m for m in self.lobbies[status] if cursor is None or m < cursor),
                             reverse=True)  # fmt: skip
            page, more = members[:limit], len(members) > limit
            rows = []
            for m in page:
                gid = m.split(":", 1)[1]
                g = self._game(gid)
                if g is None:
                    self.lobbies[status].discard(m)
                    continue
                right = lobby_status(g.record.status)
                if right != status:
                    self.index(gid, status=right, created_ms=g.record.created_ms)
                    continue
                rows.append(Listed(gid, _listed_only(g.record), len(g.log), m))
            return rows, (page[-1] if more and page else None)

    # ------------------------------------------------ refused windows (T-4)

    def refused(self, game_id, token_hash, start, end):
        with self._lock:
            g = self.games.setdefault(game_id, _Game())
            g.refused.append((token_hash[:16], int(start * 1000), int(end * 1000)))
            g.refused = g.refused[-256:]

    def refused_windows(self, game_id, token_hash, since):
        g = self.games.get(game_id)
        if g is None:
            return []
        return [(max(a / 1000, since), b / 1000) for h, a, b in g.refused
                if h == token_hash[:16] and b >= int(since * 1000)]  # fmt: skip

    # ------------------------------------------------ the record's later fields

    def set_rating(self, game_id, outcome):
        with self._lock:
            g = self._game(game_id)
            if g is None:
                return False
            g.record = dataclasses.replace(g.record, rating=outcome)
            return True

    def rematch(self, game_id, seat, now_ms, until_ms, new_id, agrees):
        with self._lock:
            g = self._game(game_id)
            if g is not None and g.record.rematch.game is not None:
                return "made", g.record.rematch.game
            if g is None:
                return "gone", None
            rematch = g.record.rematch
            if rematch.closed:
                return "closed", None
            if now_ms > until_ms:
                return "expired", None
            asked = list(rematch.asked_ms)
            if asked[seat] is None:
                asked[seat] = now_ms
            rematch = dataclasses.replace(rematch, asked_ms=(asked[0], asked[1]))
            done = all(agrees[s] or asked[s] is not None for s in (0, 1))
            if done:
                rematch = dataclasses.replace(rematch, game=new_id)
            g.record = dataclasses.replace(g.record, rematch=rematch)
            return ("made", new_id) if done else ("waiting", None)

    def close_rematch(self, game_id):
        with self._lock:
            g = self._game(game_id)
            if g is not None:
                closed = dataclasses.replace(g.record.rematch, closed=True)
                g.record = dataclasses.replace(g.record, rematch=closed)

    def mark_archived(self, game_id, version, at_ms, retain_s):
        with self._lock:
            g = self._game(game_id)
            if g is not None:
                g.record = dataclasses.replace(g.record, archived=ArchivedMark(at_ms, version))

    def delete_game(self, game_id, version):
        with self._lock:
            g = self._game(game_id)
            if g is None:
                return True
            mark = g.record.archived
            if mark is None or mark.version != version or len(g.log) != version:
                return False
            member = _member(g.record.created_ms, game_id)
            for members in self.lobbies.values():
                members.discard(member)
            for h in g.record.token_hashes:
                if h is not None and self.tokens.get(h, ("",))[0] == game_id:
                    del self.tokens[h]
            if g.record.create_key is not None:
                self.creates.pop(g.record.create_key, None)
            del self.games[game_id]
            return True

    # ------------------------------------------------ webhooks

    def lock(self, game_id, what, ttl_ms):
        with self._lock:
            g = self.games.setdefault(game_id, _Game())
            if g.lock is not None:
                return None
            g.lock = f"{what}:{random.getrandbits(64):016x}"
            return g.lock

    def unlock(self, game_id, what, token):
        with self._lock:
            g = self.games.get(game_id)
            if g is not None and g.lock == token:
                g.lock = None

    def hooks(self, game_id, target):
        g = self.games.get(game_id)
        found = g.hooks.get(target) if g is not None else None
        return found or HookCursor()

    def set_hooks(self, game_id, target, cursor):
        with self._lock:
            self.games.setdefault(game_id, _Game()).hooks[target] = cursor

    def log_delivery(self, game_id, target, entry, keep):
        with self._lock:
            g = self.games.setdefault(game_id, _Game())
            g.deliveries = [*g.deliveries, {"target": target, **entry}][-keep:]

    def deliveries(self, game_id, count):
        g = self.games.get(game_id)
        return list(g.deliveries[-count:]) if g is not None else []


# ---------------------------------------------------------------- players and apps


def lb_member(rating: float, pkey: str) -> str:
    return f"{round((10_000 - max(0.0, min(rating, 9_999.99))) * 100):07d}:{pkey}"


class _Player:
    __slots__ = ("name", "created_ms", "guard", "ratings", "listed", "games")

    def __init__(self, created_ms: int):
        self.name: str | None = None
        self.created_ms = created_ms
        self.guard = 0
        self.ratings: dict[str, dict] = {}
        self.listed: dict[str, str] = {}  # kind -> its leaderboard member
        self.games: set[str] = set()


class MemoryPlayerStore:
    """``PlayerStore`` and ``AppStore`` in memory."""

    def __init__(self):
        self._players: dict[str, _Player] = {}
        self.boards: dict[str, list[str]] = {}
        self.pairs: dict[str, dict[str, int]] = {}
        self.done: dict[str, str] = {}
        self._apps: dict[str, AppRecord] = {}  # by key hash
        self._lock = threading.RLock()

    # ------------------------------------------------ apps

    def add_app(self, app_id, key_hash, name, created_ms):
        self._apps[key_hash] = AppRecord(app_id, name, created_ms)

    def app_by_hash(self, key_hash):
        return self._apps.get(key_hash)

    def apps(self):
        return sorted(self._apps.values(), key=lambda a: (a.created_ms, a.id))

    def revoke_app(self, app_id, at_ms):
        with self._lock:
            for h, a in self._apps.items():
                if a.id == app_id:
                    if a.revoked_ms is None:
                        self._apps[h] = dataclasses.replace(a, revoked_ms=at_ms)
                    return self._apps[h]
            return None

    # ------------------------------------------------ players

    def touch_player(self, pkey, name, now_ms):
        if not ids.is_pkey(pkey):
            raise ValueError(f"not a player's key: {pkey!r}")
        with self._lock:
            self._players.setdefault(pkey, _Player(now_ms)).name = name

    def player(self, pkey):
        p = self._players.get(pkey)
        if p is None:
            return None
        return PlayerRecord(p.name, p.created_ms, {k: dict(v) for k, v in p.ratings.items()})

    def players(self, pkeys):
        return [self.player(p) for p in pkeys]

    def ratings(self, pkeys, kind):
        return [dict(p.ratings[kind]) if p is not None and kind in p.ratings else None
                for p in map(self._players.get, pkeys)]  # fmt: skip

    def index_game(self, pkeys, game_id, created_ms):
        with self._lock:
            for p in pkeys:
                self._players.setdefault(p, _Player(created_ms)).games.add(
                    _member(created_ms, game_id)
                )

    def player_games(self, pkey, before, limit):
        p = self._players.get(pkey)
        members = sorted((m for m in (p.games if p else ()) if before is None or m < before),
                         reverse=True)[:limit]  # fmt: skip
        return [Listing(m, m.split(":", 1)[1], int(m.split(":", 1)[0])) for m in members]

    def forget_game(self, game_id, pkeys, created_ms):
        with self._lock:
            for pkey in pkeys:
                p = self._players.get(pkey)
                if p is not None:
                    p.games.discard(_member(created_ms, game_id))
            self.done.pop(game_id, None)

    # ------------------------------------------------ ratings

    def read_for_rating(self, game_id, kind, pkeys):
        with self._lock:
            out = []
            for pkey in pkeys:
                p = self._players.get(pkey)
                if p is None:
                    out.append(("0", None))
                else:
                    rating = p.ratings.get(kind)
                    out.append((str(p.guard), dict(rating) if rating else None))
            return self.done.get(game_id), out

    def apply_rating(self, game_id, kind, outcome, updates):
        with self._lock:
            if game_id in self.done:
                return "done", self.done[game_id]
            for pkey, guard, _rating, _listed in updates:
                p = self._players.get(pkey)
                if str(p.guard if p is not None else 0) != guard:
                    return "moved", None
            board = self.boards.setdefault(kind, [])
            for pkey, _guard, rating, listed in updates:
                p = self._players.setdefault(pkey, _Player(0))
                old = p.listed.pop(kind, None)
                if old is not None and old in board:
                    board.remove(old)
                p.ratings[kind] = dict(rating)
                if listed:
                    member = lb_member(rating["rating"], pkey)
                    bisect.insort(board, member)
                    p.listed[kind] = member
                p.guard += 1
            self.done[game_id] = outcome
            return "ok", None

    def leaderboard(self, kind, cursor, limit):
        board = self.boards.get(kind, [])
        start = bisect.bisect_right(board, cursor) if cursor else 0
        members = board[start : start + limit + 1]
        return [(m, m.split(":", 1)[1]) for m in members[:limit]], len(members) > limit

    def rank(self, kind, member):
        return bisect.bisect_left(self.boards.get(kind, []), member)

    def unlist(self, kind, member):
        with self._lock:
            board = self.boards.get(kind, [])
            if member in board:
                board.remove(member)
            p = self._players.get(member.split(":", 1)[1])
            if p is not None and p.listed.get(kind) == member:
                del p.listed[kind]

    # ------------------------------------------------ pairs

    @staticmethod
    def _digest(game_id: str) -> str:
        return hashlib.sha256(game_id.encode()).hexdigest()[:16]

    def take_pair(self, a, b, game_id, now_ms, window_ms, cap, take=True):
        with self._lock:
            games = self.pairs.setdefault("|".join(sorted((a, b))), {})
            for d, at in list(games.items()):
                if at < now_ms - window_ms:
                    del games[d]
            n = len(games)
            digest = self._digest(game_id)
            if digest in games:
                return "had", n
            if n >= cap:
                return "full", max(1, min(games.values()) + window_ms - now_ms)
            if not take:
                return "open", n
            games[digest] = now_ms
            return "taken", n

    def release_pair(self, a, b, game_id):
        with self._lock:
            self.pairs.get("|".join(sorted((a, b))), {}).pop(self._digest(game_id), None)


# ---------------------------------------------------------------- seeks


class MemorySeekStore:
    """``SeekStore`` in memory (``scan``: the open seeks of a pool a new seek looks at)."""

    def __init__(self, scan: int = 1000):
        self.seeks: dict[str, SeekRecord] = {}
        self.pools: dict[str, list[tuple[int, str]]] = {}
        self.due_at: dict[str, int] = {}
        self.pairings: dict[Pairing, int] = {}
        self.scan = scan
        self._lock = threading.RLock()

    def _set(self, seek_id: str, **changes) -> None:
        seek = self.seeks[seek_id]
        if "status" in changes:
            changes["version"] = seek.version + 1
        self.seeks[seek_id] = dataclasses.replace(seek, **changes)

    def _leave(self, seek_id: str) -> None:
        pool = self.pools.get(self.seeks[seek_id].pool, [])
        pool[:] = [x for x in pool if x[1] != seek_id]
        self.due_at.pop(seek_id, None)

    def add(self, seek_id, seek, due_ms):
        with self._lock:
            self.seeks[seek_id] = dataclasses.replace(seek, status="open")
            self.due_at[seek_id] = due_ms

    def get(self, seek_id):
        return self.seeks.get(seek_id)

    def pair(self, seek_id, pool, now_ms, game_id):
        with self._lock:
            me = self.seeks[seek_id]
            if me.status != "open" or me.expires_ms <= now_ms:
                return "not-open", None
            found = None
            for _created, other_id in list(self.pools.get(pool, []))[: self.scan]:
                other = self.seeks.get(other_id)
                if other is None or other.status != "open" or other.expires_ms <= now_ms:
                    self.pools[pool].remove((_created, other_id))
                    continue
                if (me.low <= other.rating <= me.high and other.low <= me.rating <= other.high
                        and (me.pkey is None or me.pkey != other.pkey)):  # fmt: skip
                    found = other_id
                    break
            if found is None:
                bisect.insort(self.pools.setdefault(pool, []), (me.created_ms, seek_id))
                return "queued", None
            self._leave(found)
            self._leave(seek_id)
            self._set(found, status="making", game_id=game_id, seat=0, opponent=seek_id)
            self._set(seek_id, status="making", game_id=game_id, seat=1, opponent=found)
            self.pairings[Pairing(game_id, found, seek_id)] = now_ms
            return "paired", found

    def due(self, seek_id, pool, now_ms, game_id, level):
        with self._lock:
            s = self.seeks[seek_id]
            if s.status != "open":
                return "not-open", None
            if s.fallback_ms is not None and s.fallback_ms <= now_ms < s.expires_ms:
                self._leave(seek_id)
                self._set(seek_id, status="making", game_id=game_id, seat=0, opponent=level)
                self.pairings[Pairing(game_id, seek_id, level)] = now_ms
                return "fallback", None
            if s.expires_ms <= now_ms:
                self._leave(seek_id)
                self._set(seek_id, status="expired")
                return "expired", None
            nxt = s.expires_ms
            if s.fallback_ms is not None and s.fallback_ms < nxt:
                nxt = s.fallback_ms
            return "later", nxt

    def finish(self, pairing):
        with self._lock:
            for sid in (pairing.first, pairing.second):
                s = self.seeks.get(sid)
                if s is not None and s.status == "making" and s.game_id == pairing.game_id:
                    self._set(sid, status="paired")
            self.pairings.pop(pairing, None)

    def cancel(self, seek_id, pool):
        with self._lock:
            s = self.seeks.get(seek_id)
            if s is None:
                return None
            if s.status != "open":
                return s.status
            self._leave(seek_id)
            self._set(seek_id, status="cancelled")
            return "cancelled"

    def making(self, older_than_ms):
        return [p for p, at in self.pairings.items() if at <= older_than_ms]

    def overdue(self, now_ms, limit=500):
        due = sorted((at, sid) for sid, at in self.due_at.items() if at <= now_ms)
        return [sid for _at, sid in due[:limit]]

    def versions(self, seek_ids):
        return [self.seeks[s].version if s in self.seeks else 0 for s in seek_ids]

    def pool_size(self, pool):
        return len(self.pools.get(pool, []))


# ---------------------------------------------------------------- the archive, the outside


class MemoryArchive(GameArchive):
    """The archive's format (``GameArchive``) on a dict of objects."""

    def __init__(self):
        self.objects: dict[str, bytes] = {}
        self.url = "memory://archive"

    def put(self, key: str, data: bytes) -> None:
        self.objects[key] = bytes(data)

    def get(self, key: str) -> bytes | None:
        return self.objects.get(key)

    def keys(self, prefix: str = "") -> Iterator[str]:
        return iter(sorted(k for k in self.objects if k.startswith(prefix)))


class FakeOutbound:
    """``Outbound``: hosts resolve to ``hosts`` (an address resolves to itself, a name it
    does not know to nothing: OSError), and every POST is kept in ``sent`` and answered
    the next of ``statuses`` (an exception is raised), then 200."""

    def __init__(self, hosts: dict[str, list[str]] | None = None, *statuses):
        self.hosts = hosts or {}
        self.statuses = list(statuses)
        self.sent: list[tuple[str, bytes, dict]] = []

    def lookup(self, host: str, port: int) -> list[str]:
        if host in self.hosts:
            return list(self.hosts[host])
        if _is_address(host):
            return [host]
        raise OSError(f"{host}: no such host")

    def post(self, url, host, addresses, body, headers, timeout_s):
        self.sent.append((url, body, headers))
        if self.statuses:
            status = self.statuses.pop(0)
            if isinstance(status, BaseException):
                raise status
            return status
        return 200


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
