"""The archive of finished games (docs/archive.md) on an object store: what is written
there, where, and how it is read back and checked. ``GameArchive`` is the use cases'
``ports.Archive``; ``directory.DirectoryArchive`` and ``s3.S3Archive`` give it the object
store (``put``, ``get``, ``keys``).

Per game, three objects (their keys made by ``service.store.keys``), written in this
order (a reader starts from the last):

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
already there is never overwritten (``GameArchive.write``). Every key is made of ids of
the grammar only (``service.ids``): none names another path.
"""

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace

import zstandard

import domain
from domain import export as export_formats
from domain.audit import verify

from .. import ids
from ..appending import won
from ..cache import Game
from ..errors import ArchiveConflict, ArchiveCorrupt
from ..players import summary
from ..ports import Listing
from ..records import GameRecord, Player, Rematch, Seat
from ..store.keys import (
    export_key,
    is_record_key,
    month,
    month_prefix,
    parse_player_game_key,
    player_game_key,
    player_games_prefix,
    pointer_key,
    record_game_id,
    record_key,
)
from ..store.records import member

FORMAT = "spitlog-archive/1"
LEVEL = 10  # zstd level: ~8x on a log, a few ms a game


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

    @property
    def pointer(self) -> str:
        """The key of the game's pointer, written last."""
        return pointer_key(self.record["id"])


def pack(game_id: str, game: GameRecord, entries: list[tuple[int, dict]]) -> Packed:
    """The objects of a finished game, from its record and its whole log."""
    events = [domain.event_from_dict(d) for _v, d in entries]
    state = domain.replay(events)
    if not state.over:
        raise ValueError(f"game {game_id} is not over")
    seed = game.seed
    if not seed:  # a record that lost its seed: no export can be made (and no retry helps)
        raise KeyError("seed")
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
    # (the winner as the record kept it: none for a game that ended before records did, as
    # the row an earlier archiver wrote of it; an archive's objects are written once)
    row = _json(summary(game_id, replace(game, status=state.status), state.version))
    for pkey in filter(None, game.pkeys):
        if ids.is_pkey(pkey):  # (an id of older code, out of the grammar: no list has it)
            objects[player_game_key(pkey, game.created_ms, game_id)] = row
    objects[pointer_key(game_id)] = rkey.encode()
    return Packed(record, objects, text)


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
            rematch_of=r.get("rematch_of"), won=won(state) if state.over else None,
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


class GameArchive:
    """The archive of finished games (``ports.Archive``) on an object store, which the
    subclass gives: ``put(key, data)`` (whole or not at all), ``get(key)`` (None: no
    object there) and ``keys(prefix)`` (sorted), each raising ``ArchiveUnavailable`` when
    the store does not answer."""

    url: str

    def put(self, key: str, data: bytes) -> None:
        raise NotImplementedError

    def get(self, key: str) -> bytes | None:
        raise NotImplementedError

    def keys(self, prefix: str = "") -> Iterator[str]:
        raise NotImplementedError

    @staticmethod
    def pack(game_id: str, game: GameRecord, entries: list[tuple[int, dict]]) -> Packed:
        return pack(game_id, game, entries)

    def write(self, packed: Packed) -> None:
        """Write a packed game's objects, in order, each unless it is there already; an
        object there that is not the same (an export compressed otherwise is the same if
        its content is) is left alone: ArchiveConflict."""
        for key, data in packed.objects.items():
            old = self.get(key)
            if old is None:
                self.put(key, data)
            elif old != data and not (
                key.endswith(".zst") and decompress(key, old) == packed.ndjson
            ):
                raise ArchiveConflict(f"{key} is already in the archive with other content")

    def read(self, game_id: str) -> Archived | None:
        """The archived game ``game_id`` (None: not in the archive); ArchiveCorrupt if any
        of its objects is not what it should be, ArchiveUnavailable if the archive does not
        answer. An id not of the grammar names no archived game."""
        if not ids.is_game_id(game_id):
            return None
        pointer = self.get(pointer_key(game_id))
        if pointer is None:
            return None
        return self._read(pointer.decode(errors="replace"), game_id, "the pointer names it")

    def record_keys(self, month: str | None = None) -> list[str]:
        """The keys of the records (``games/YYYY/MM/<id>.json``) of every archived game, or
        of those of ``month`` (``YYYY-MM``), in key order; ValueError for a month of
        another form."""
        return [k for k in self.keys(month_prefix(month)) if is_record_key(k)]

    def read_listed(self, key: str) -> Archived:
        """The archived game whose record is at ``key`` (one of ``record_keys``), read
        back and checked as ``read`` does."""
        return self._read(key, record_game_id(key), "it was listed")

    def player_games(self, pkey: str, before: str | None, limit: int) -> list[Listing]:
        """The player's archived games, newest first, older than the cursor ``before``,
        at most ``limit`` (their cursors sort as the player store's)."""
        out = []
        for key in self.keys(player_games_prefix(pkey)):
            created_ms, game_id = parse_player_game_key(key)
            cursor = member(created_ms, game_id)
            if before is None or cursor < before:
                out.append(Listing(cursor, game_id, created_ms))
                if len(out) >= limit:
                    break
        return out

    def player_game(self, pkey: str, listed: Listing) -> dict | None:
        """The player's archived game ``listed`` as its list shows it (None: not there)."""
        raw = self.get(player_game_key(pkey, listed.created_ms, listed.game_id))
        return json.loads(raw) if raw is not None else None

    def _read(self, rkey: str, game_id: str, named_by: str) -> Archived:
        """The archived game whose record is at ``rkey`` (``named_by``: what led there),
        read back and checked against its record: ArchiveCorrupt if any object is missing
        or not what it should be, the record one of another game than ``game_id``."""
        raw = self.get(rkey)
        if raw is None:
            raise ArchiveCorrupt(rkey, f"missing ({named_by})")
        record = parse_record(rkey, raw)
        if record["id"] != game_id:
            raise ArchiveCorrupt(rkey, f"the record of {record['id']}, not of {game_id}")
        export_raw = self.get(record["export"]["key"])
        if export_raw is None:
            raise ArchiveCorrupt(record["export"]["key"], "missing (the record names it)")
        return unpack(record, export_raw)
