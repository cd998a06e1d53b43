"""Finished games in the archive (docs/archive.md): what is written there, how it is read
back and checked, and the job that moves a finished game out of Redis (``Archiver``).

Per game, three objects, written in this order (a reader starts from the last):

- ``games/YYYY/MM/<id>.ndjson.zst``: the export (``spitlog-log/1``, ``domain.export``),
  zstd-compressed with a frame checksum; YYYY/MM is the month the game ended in (UTC);
- ``games/YYYY/MM/<id>.json``: the record (``spitlog-archive/1``): the export's key,
  length and SHA-256, the seats (kind, SHA-256 of the token, so that a token of an
  archived game still reads its views; the player or a bot's name, ``service.players``),
  whether it was rated and the rating's outcome, the game it is a rematch of, its own
  rematch (the asks and the new game), and the audit's verdict;
- ``players/<app>/<player>/<9999999999999 - created ms>-<id>.json``: per app's player
  seated, the game as the player's list of games shows it (``players.summary``), so that
  the list goes on once the game has left Redis (newest first in key order); a seat whose
  player's id is not of the grammar (``service.ids``: a game of older code seated ``..``)
  has none: no request can name that player, and its key would name another path;
- ``ids/<id>``: the pointer, the record's key (a game is found by its id alone).

Every object is a function of the log and the game's record: no wall time, no host. So a
game archived twice (a job run again after a crash) writes the same bytes; an object
already there is never overwritten (``_put_once``). Every key is made of ids of the
grammar only (``service.ids``): none names another path.

A failure is one a retry may get past (``ArchiveUnavailable``: the archive does not
answer) or one it cannot (``permanent``: an object there that is not this game's, a log
or record that cannot be packed, a key refused): the job records the latter once and stops
(``workers.jobs.archive_game``).
"""

import hashlib
import json
import logging
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import zstandard

import domain
from domain import export as export_formats
from domain.audit import verify

from . import ids
from .cache import Game
from .players import summary
from .ports import Archive, GameStore
from .records import GameRecord, Player, Rematch, Seat

log = logging.getLogger(__name__)

FORMAT = "spitlog-archive/1"
LEVEL = 10  # zstd level: ~8x on a log, a few ms a game
OVER = ("finished", "aborted")  # the statuses of a game that is over (``State.over``)


def _seat(seat: Seat) -> dict:
    """A seat as the archive's record keeps it: its kind, its token's SHA-256, and its
    player (as JSON text) or a client bot's name."""
    out = {"kind": seat.kind, "token_sha256": seat.token_hash}
    if seat.player is not None:
        out["player"] = json.dumps(seat.player.as_dict(), sort_keys=True)
    if seat.name is not None:
        out["name"] = seat.name
    return out


def _extra(record: GameRecord) -> dict:
    """The game's fields of the archive's record beside its log: whether it is rated and
    the rating's outcome (JSON text), the game it is the rematch of, and its rematch if
    one was asked for (each seat's ask, ms or None, and the new game, None: not made)."""
    out = {}
    if record.rated:
        out["rated"] = "1"
    if record.rating is not None:
        out["rating"] = json.dumps(record.rating, sort_keys=True)
    if record.rematch_of is not None:
        out["rematch_of"] = record.rematch_of
    if record.rematch.any:
        out["rematch"] = {"asked_ms": list(record.rematch.asked_ms), "game": record.rematch.game}
    return out


class ArchiveCorrupt(Exception):
    """An archived object that is not what its record (or its format) says: ``key`` names
    it, the message says how."""

    def __init__(self, key: str, why: str):
        super().__init__(f"{key}: {why}")
        self.key = key
        self.why = why


class NotArchived(Exception):
    """A game asked to leave Redis that was never archived: it stays."""


class ArchiveConflict(Exception):
    """An object already in the archive differs from what this game would write there: it
    is left as it is (never overwritten) and the game stays in Redis."""


def month(ended_s: float) -> str:
    """``YYYY/MM`` of a time (UTC)."""
    return datetime.fromtimestamp(ended_s, UTC).strftime("%Y/%m")


def _gid(game_id: str) -> str:
    """``game_id``, if it is a game's id (``service.ids``); ValueError if not."""
    if not ids.is_game_id(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return game_id


def export_key(game_id: str, ym: str) -> str:
    return f"games/{ym}/{_gid(game_id)}.ndjson.zst"


def record_key(game_id: str, ym: str) -> str:
    return f"games/{ym}/{_gid(game_id)}.json"


def pointer_key(game_id: str) -> str:
    return f"ids/{_gid(game_id)}"


def permanent(e: BaseException) -> bool:
    """Whether an archive job that raised ``e`` would raise it again however often it
    ran, nothing else changing: an object of the archive that is not this game's
    (ArchiveConflict, ArchiveCorrupt: never overwritten), a log or record that cannot be
    packed, a key of no grammar (ValueError, KeyError, TypeError). The archive not
    answering (``ArchiveUnavailable``), or Redis not, is not."""
    return isinstance(e, ArchiveConflict | ArchiveCorrupt | ValueError | KeyError | TypeError)


def compress(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=LEVEL, write_checksum=True).compress(data)


def decompress(key: str, data: bytes, limit: int = 1 << 30) -> bytes:
    """The content of a compressed object; ArchiveCorrupt if it is not a whole zstd frame
    (a truncated object, a flipped bit: the frame checksum)."""
    try:
        return zstandard.ZstdDecompressor().decompress(data, max_output_size=limit)
    except zstandard.ZstdError as e:
        raise ArchiveCorrupt(key, f"not a whole zstd frame ({e})") from None


def _json(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


@dataclass(frozen=True, slots=True)
class Packed:
    """What archiving a game writes: ``objects`` key -> bytes, in the order to write them."""

    record: dict
    objects: dict[str, bytes]
    ndjson: bytes


def pack(game_id: str, game: GameRecord, entries: list[tuple[int, dict]]) -> Packed:
    """The objects of a finished game, from its record and its whole log."""
    events = [domain.event_from_dict(d) for _v, d in entries]
    state = domain.replay(events)
    if not state.over:
        raise ValueError(f"game {game_id} is not over")
    seed = game.seed
    text = export_formats.to_ndjson(events, seed).encode()
    verdict = verify(events, seed)
    ym = month(events[-1].at)
    ekey = export_key(game_id, ym)
    record = {
        "format": FORMAT,
        "id": game_id,
        "game": game.game,
        "status": state.status,
        "created": game.created_ms,
        "ended": int(round(events[-1].at * 1000)),
        "version": state.version,
        "export": {"key": ekey, "bytes": len(text), "sha256": hashlib.sha256(text).hexdigest()},
        "seats": [_seat(s) for s in game.seats],
        **_extra(game),
        "audit": {
            "ok": verdict.ok and domain.commitment(seed) == state.commitment,
            "checked": verdict.checked,
            "deals": sum(1 for d in verdict.deals if d["ok"]),
        },
    }
    rkey = record_key(game_id, ym)
    objects = {ekey: compress(text), rkey: _json(record)}
    row = _json(summary(game_id, replace(game, status=state.status), state.version))
    for pkey in filter(None, game.pkeys):
        if ids.is_pkey(pkey):  # (an id of older code, out of the grammar: no list has it)
            objects[player_game_key(pkey, game.created_ms, game_id)] = row
    objects[pointer_key(game_id)] = rkey.encode()
    return Packed(record, objects, text)


def player_games_prefix(pkey: str) -> str:
    """The folder of a player's games; ValueError for a pkey not of the grammar."""
    split = ids.split_pkey(pkey)
    if split is None:
        raise ValueError(f"not a player's key: {pkey!r}")
    return f"players/{split[0]}/{split[1]}/"


def player_game_key(pkey: str, created_ms: int, game_id: str) -> str:
    return f"{player_games_prefix(pkey)}{9_999_999_999_999 - created_ms:013d}-{game_id}.json"


@dataclass(frozen=True, slots=True)
class Archived:
    """A game read back from the archive: its record, its export and its log."""

    record: dict
    ndjson: bytes
    header: dict
    entries: tuple[tuple[int, dict], ...]

    def game(self) -> Game:
        """The game as the use cases know it (``Game``), its log attached."""
        events = [domain.event_from_dict(d) for _v, d in self.entries]
        state = domain.replay(events)
        r = self.record
        seats = tuple(
            Seat(kind=s.get("kind") or None, token_hash=s.get("token_sha256") or None,
                 player=Player.from_dict(json.loads(s["player"])) if s.get("player") else None,
                 name=s.get("name"))
            for s in r["seats"]
        )  # fmt: skip
        rematch = r.get("rematch") or {}
        asked = tuple(rematch.get("asked_ms") or (None, None))
        record = GameRecord(
            game=r["game"], created_ms=int(r["created"]), status=state.status,
            seats=(seats[0], seats[1]), seed=bytes.fromhex(self.header["server_seed"]),
            commitment=self.header["commitment"], rated=r.get("rated") == "1",
            rating=json.loads(r["rating"]) if r.get("rating") else None,
            rematch=Rematch((asked[0], asked[1]), rematch.get("game") or None),
            rematch_of=r.get("rematch_of"),
        )  # fmt: skip
        return Game(r["id"], state, record, self.entries)


def _a_rematch(rematch) -> bool:
    """Whether a record's ``rematch`` has the shape ``_rematch`` writes."""
    if not isinstance(rematch, dict) or not isinstance(rematch.get("game"), str | None):
        return False
    asked = rematch.get("asked_ms")
    return (isinstance(asked, list) and len(asked) == 2
            and all(a is None or type(a) is int for a in asked))  # fmt: skip


def parse_record(key: str, raw: bytes) -> dict:
    try:
        record = json.loads(raw)
        if record.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        for field in ("id", "game", "created", "version", "export", "seats", "audit"):
            if field not in record:
                raise ValueError(f"no {field!r}")
        if len(record["seats"]) != 2 or not record["export"].get("key"):
            raise ValueError("seats or export malformed")
        if "rematch" in record and not _a_rematch(record["rematch"]):
            raise ValueError("rematch malformed")
    except (ValueError, TypeError, AttributeError) as e:
        raise ArchiveCorrupt(key, f"not a record ({e})") from None
    return record


def unpack(record: dict, export_raw: bytes) -> Archived:
    """The archived game, every byte checked against its record; ArchiveCorrupt if not."""
    ekey = record["export"]["key"]
    text = decompress(ekey, export_raw, limit=record["export"]["bytes"] + 1)
    if len(text) != record["export"]["bytes"]:
        raise ArchiveCorrupt(
            ekey, f"{len(text)} bytes, the record says {record['export']['bytes']}"
        )
    if hashlib.sha256(text).hexdigest() != record["export"]["sha256"]:
        raise ArchiveCorrupt(ekey, "its SHA-256 is not the record's")
    try:
        lines = text.decode().splitlines()
        header = json.loads(lines[0])
        if header.get("format") != export_formats.NDJSON_FORMAT:
            raise ValueError("not a spitlog-log/1 export")
        entries = []
        for n, line in enumerate(lines[1:], 1):
            d = json.loads(line)
            if d.pop("version") != n:
                raise ValueError(f"line {n + 1} out of order")
            entries.append((n, d))
    except (ValueError, KeyError, IndexError, UnicodeDecodeError) as e:
        raise ArchiveCorrupt(ekey, f"not an export ({e})") from None
    if header.get("game_id") != record["id"] or len(entries) != record["version"]:
        raise ArchiveCorrupt(ekey, "another game's export, or not all of it")
    return Archived(record, text, header, tuple(entries))


def read(archive: Archive, game_id: str) -> Archived | None:
    """The archived game ``game_id`` (None: not in the archive); ArchiveCorrupt if any of
    its objects is not what it should be, ArchiveUnavailable if the archive does not answer.
    An id not of the grammar names no archived game."""
    if not ids.is_game_id(game_id):
        return None
    pointer = archive.get(pointer_key(game_id))
    if pointer is None:
        return None
    return read_record(archive, pointer.decode(errors="replace"), game_id, "the pointer names it")


def read_record(archive: Archive, rkey: str, game_id: str, named_by: str) -> Archived:
    """The archived game whose record is at ``rkey`` (``named_by``: what led there), read
    back and checked against its record: ArchiveCorrupt if any object is missing or not
    what it should be, the record one of another game than ``game_id``."""
    raw = archive.get(rkey)
    if raw is None:
        raise ArchiveCorrupt(rkey, f"missing ({named_by})")
    record = parse_record(rkey, raw)
    if record["id"] != game_id:
        raise ArchiveCorrupt(rkey, f"the record of {record['id']}, not of {game_id}")
    export_raw = archive.get(record["export"]["key"])
    if export_raw is None:
        raise ArchiveCorrupt(record["export"]["key"], "missing (the record names it)")
    return unpack(record, export_raw)


def _put_once(archive: Archive, key: str, data: bytes, same) -> None:
    """Write ``data`` at ``key`` unless the object is there already; an object there that
    is not the same (``same(old)`` false) is left alone: ArchiveConflict."""
    old = archive.get(key)
    if old is None:
        archive.put(key, data)
    elif old != data and not same(old):
        raise ArchiveConflict(f"{key} is already in the archive with other content")


class Archiver:
    """The archive job's use case: write a finished game to the archive, read it back and
    check it, and after ``retain_s`` delete it from Redis (RULES: nothing is deleted
    before it is safely stored elsewhere). A rated game is rated first (``rater``,
    ``service.rating``): its record holds the outcome, and it never leaves Redis unrated.
    A finished game is archived once its rematch asks are over (``rematch_s`` after its
    end, ``service.rematch``), and closed to any late one first: its record holds its
    rematch as it stays."""

    HOLD_S = 30.0  # a game held by undelivered notifications is looked at again this often
    CLOSE_GRACE_S = 5.0  # rematch asks are closed this long after their time is over

    def __init__(self, store: GameStore, archive: Archive, retain_s: float, clock=time.time,
                 hold=None, hold_max_s: float = 2 * 86_400, *, rater=None,
                 players=None, rematch_s: float = 0.0, settle=None):  # fmt: skip
        self.store = store
        self.archive = archive
        self.retain_s = retain_s
        self.clock = clock
        self.hold = hold  # (game id, record, version) -> whether something keeps it in Redis
        self.hold_max_s = hold_max_s  # ... for this long past the retention at most
        self.rater = rater  # service.rating.Rater (None: a rated game waits, unarchived)
        self.players = players  # service.store.players.PlayerStore: the players' lists
        self.rematch_s = rematch_s  # how long after its end a game's rematch may be asked
        self.settle = settle  # game id -> None: make its rematch if named, not made

    def step(self, game_id: str) -> tuple[str, float | None]:
        """Do the next step for ``game_id``: (outcome, when to run again or None).

        - ``waiting``: a finished game whose rematch may still be asked for; again when
          it may not (then closed to late asks, and archived);
        - ``archived``: written, read back, checked; again when retention ends;
        - ``retained``: archived, retention not over yet; again when it is;
        - ``held``: retention over, but ``hold`` keeps it (webhook notifications left to
          deliver, for their retry window at most); again a little later;
        - ``deleted``: the archived copy checked once more against Redis, then every
          Redis key of the game deleted; done;
        - ``gone``: not in Redis (deleted already); ``running``: not over (nothing to do);
        - ``unrated``: a rated game whose rating is not applied, with no rater here.
        Raises ArchiveUnavailable, ArchiveConflict or ArchiveCorrupt: the game stays in
        Redis and the caller tries again later.
        """
        found = self._finished(game_id)
        if isinstance(found, str):
            return found, (self.clock() + 1.0 if found == "unrated" else None)
        record, version = found
        now = self.clock()
        archived = record.archived
        if archived is None:
            asks_until = self._asks_until(game_id, record, version)
            if now < asks_until:
                return "waiting", asks_until
            record = self._closed(game_id, record)
            self._write(game_id, self._pack(game_id, record, version))
            self.store.mark_archived(game_id, version, int(now * 1000), self.retain_s)
            return "archived", now + self.retain_s
        at = archived.at_ms / 1000
        if now < at + self.retain_s:
            return "retained", at + self.retain_s
        held_until = at + self.retain_s + self.hold_max_s
        if self.hold is not None and now < held_until and self.hold(game_id, record, version):
            return "held", now + self.HOLD_S  # webhooks to deliver (from Redis's log)
        self._delete(game_id, version, self._pack(game_id, record, version), record)
        return "deleted", None

    def archive_now(self, game_id: str) -> str:
        """Archive a finished game now, whatever the schedule (``spitlog admin archive``):
        ``archived`` (written, read back, checked), or ``verified`` (it was archived
        already: checked again); ``gone`` or ``running`` as ``step``. The retention still
        runs from the first archiving: nothing is deleted here."""
        found = self._finished(game_id)
        if isinstance(found, str):
            return found
        record, version = found
        if record.archived is None:
            record = self._closed(game_id, record)  # its rematch offer ends here
        packed = self._pack(game_id, record, version)
        if record.archived is not None:
            self._check(game_id, packed)
            return "verified"
        self._write(game_id, packed)
        self.store.mark_archived(game_id, version, int(self.clock() * 1000), self.retain_s)
        return "archived"

    def delete_now(self, game_id: str) -> str:
        """Delete an archived game from Redis now, its retention over or not (``spitlog
        admin delete``), once its archived copy is checked once more against Redis:
        ``deleted``; ``gone`` or ``running`` as ``step``. A game never archived is left
        whole: NotArchived."""
        found = self._finished(game_id)
        if isinstance(found, str):
            return found
        record, version = found
        if record.archived is None:
            raise NotArchived(f"game {game_id} is not archived yet: it stays in Redis")
        self._delete(game_id, version, self._pack(game_id, record, version), record)
        return "deleted"

    def _finished(self, game_id: str) -> tuple[GameRecord, int] | str:
        """(record, version) of a finished game in Redis, rated first if it is a rated game
        (exactly once: ``service.rating``): its record keeps the outcome. Else ``gone``
        (not in Redis), ``running`` (not over) or ``unrated`` (a rated game, and no rater
        here). Its log is read only by a step that needs it (``_pack``)."""
        record = self.store.game_record(game_id)
        if record is None:
            return "gone"
        if record.status not in OVER:
            return "running"
        version = self.store.version(game_id)
        if record.rated and record.status == "finished" and record.rating is None:
            if self.rater is None:
                return "unrated"
            self.rater.step(game_id)  # exactly once, however often it runs
            record = self.store.game_record(game_id) or record
            if record.rating is None:
                raise ValueError(f"game {game_id}: rated, and still no outcome")
        return record, version

    def _asks_until(self, game_id: str, record: GameRecord, version: int) -> float:
        """When to close the game to rematch asks: ``CLOSE_GRACE_S`` after they end (its
        last event's time plus ``rematch_s``, by the API's clock, which the rematch script
        holds them to: the grace covers a clock here a little ahead); 0 for a game that
        cannot have one (aborted)."""
        if record.status != "finished" or self.rematch_s <= 0:
            return 0.0
        last = self.store.read_after(game_id, version - 1)
        return last[-1][1]["at"] + self.rematch_s + self.CLOSE_GRACE_S if last else 0.0

    def _closed(self, game_id: str, record: GameRecord) -> GameRecord:
        """Close the finished game to rematch asks (``close_rematch``), then its record
        as it stays: the rematch in it is the one archived."""
        if record.status != "finished":
            return record
        self.store.close_rematch(game_id)
        now = self.store.game_record(game_id)
        if self.settle is not None and now is not None and now.rematch.game is not None:
            self.settle(game_id)
        return self.store.game_record(game_id) or record

    def _pack(self, game_id: str, record: GameRecord, version: int) -> Packed:
        """The archive objects of the finished game's whole log (``pack``)."""
        entries = self.store.read_after(game_id, 0)
        if len(entries) != version or not entries:
            raise ValueError(f"game {game_id}: the log is not whole")
        return pack(game_id, record, entries)

    def _delete(self, game_id: str, version: int, packed: Packed, record: GameRecord) -> None:
        self._check(game_id, packed)  # once more, right before the delete
        named = [p for p in record.pkeys if p is not None]
        if self.players is not None and (named or record.rated):
            # its index entries before its keys, as delete_game does (the archive lists it)
            self.players.forget_game(game_id, named, record.created_ms)
        if not self.store.delete_game(game_id, version):
            raise ValueError(f"game {game_id} changed since it was archived: not deleted")

    def _write(self, game_id: str, packed: Packed) -> None:
        for key, data in packed.objects.items():
            if key.endswith(".zst"):
                same = lambda old, k=key: decompress(k, old) == packed.ndjson  # noqa: E731
            else:
                same = lambda old: False  # noqa: E731
            _put_once(self.archive, key, data, same)
        self._check(game_id, packed)

    def _check(self, game_id: str, packed: Packed) -> None:
        """Read the game back from the archive: its export must be the one Redis makes."""
        got = read(self.archive, game_id)
        if got is None:
            raise ArchiveCorrupt(pointer_key(game_id), "missing after it was written")
        if got.ndjson != packed.ndjson:
            raise ArchiveCorrupt(got.record["export"]["key"], "not the export Redis makes")
