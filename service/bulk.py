"""Every game of an archive at once (docs/archive.md says what a game is there): the
bulk audit, which reads each archived game back, checks it against its record and
re-judges it (``check``, ``check_all``), and the monthly dump, one zstd-compressed NDJSON
stream of a month's exports (``dump``; ``split_dump`` reads it back).

The archive comes in (a ``ports.Archive``, or for the processes of ``check_all`` a
function that opens one in each): this module names no adapter, and no key of it.
"""

import hashlib
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from typing import BinaryIO

import zstandard

import domain
from domain.audit import verify
from domain.export import NDJSON_FORMAT

from .errors import ArchiveCorrupt, ArchiveUnavailable
from .ports import Archive

LEVEL = 10  # the dump's zstd level (the archive's own)
_HEADER = '{"format":"' + NDJSON_FORMAT + '"'  # how ``to_ndjson`` starts an export


def record_keys(archive: Archive, month: str | None = None) -> list[str]:
    """The keys of the records of every archived game, or of those of ``month``
    (``YYYY-MM``), in key order (``Archive.record_keys``). ArchiveUnavailable if the
    archive cannot be listed, ValueError for a month of another form."""
    return archive.record_keys(month)


@dataclass(frozen=True, slots=True)
class Checked:
    """The verdict on one archived game. ``key``: the object at fault if not ``ok`` (the
    record, or the export it names), else the record; ``why``: what is wrong with it;
    ``events``: how many events were re-judged."""

    key: str
    ok: bool
    events: int = 0
    why: str | None = None


def _export_of(archive: Archive, key: str):
    """The archived game whose record is at ``key`` (``Archive.read_listed``)."""
    return archive.read_listed(key)


def _judge(archive: Archive, key: str) -> Checked:
    got = _export_of(archive, key)
    ekey = got.record["export"]["key"]
    try:
        events = [domain.event_from_dict(d) for _v, d in got.entries]
        seed = bytes.fromhex(got.header["server_seed"] or "")
    except (ValueError, KeyError, TypeError) as e:
        raise ArchiveCorrupt(ekey, f"not an export ({type(e).__name__}: {e})") from None
    if not seed:
        return Checked(ekey, False, 0, "the server seed is not revealed")
    v = verify(events, seed)
    if domain.commitment(seed) != got.header.get("commitment"):
        return Checked(ekey, False, v.checked, "sha256(server_seed) is not the header's commitment")
    if not v.ok:
        return Checked(ekey, False, v.checked, f"does not verify: {v.reason}")
    if got.record["audit"].get("ok") is not True:
        return Checked(key, False, v.checked, "the game verifies, the record says it did not")
    return Checked(key, True, v.checked)


def check(archive: Archive, key: str) -> Checked:
    """Read the game whose record is at ``key``, check its export against the record, and
    re-judge it with its revealed seed (``domain.audit.verify``): its verdict must be the
    record's. Never raises for what is in the archive: a missing, truncated or altered
    object, or one that does not parse, is a verdict naming it."""
    try:
        return _judge(archive, key)
    except Exception as e:  # noqa: BLE001 - what is in the archive is a verdict, never a crash
        return _failed(key, e)


def _failed(key: str, e: Exception) -> Checked:
    """The verdict on the game at ``key`` that could not be read: the object at fault."""
    if isinstance(e, ArchiveCorrupt):
        return Checked(e.key, False, 0, e.why)
    if isinstance(e, ArchiveUnavailable):
        return Checked(key, False, 0, f"cannot be read ({e})")
    return Checked(key, False, 0, f"{type(e).__name__}: {e}")  # a shape nobody foresaw


# ---------------------------------------------------------------- in parallel processes

_archive: Archive | None = None  # a process of ``check_all``: its own archive


def _open(opener: Callable[[], Archive]) -> None:
    global _archive
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _archive = opener()


def _check_here(key: str) -> Checked:
    return check(_archive, key)


def check_all(
    opener: Callable[[], Archive], keys: Iterable[str], jobs: int = 1
) -> Iterator[Checked]:
    """``check`` every record of ``keys``, in their order, in ``jobs`` processes (1: in
    this one). Each process opens its own archive with ``opener`` (picklable: e.g. a
    ``functools.partial`` of ``service.archive.open_archive``), so no client is shared
    across a fork; the processes are started by forkserver (spawn where there is none)."""
    keys = list(keys)
    if jobs <= 1 or len(keys) <= 1:
        archive = opener()
        for key in keys:
            yield check(archive, key)
        return
    method = "forkserver" if "forkserver" in get_all_start_methods() else "spawn"
    chunk = max(1, min(32, len(keys) // (jobs * 8)))
    with ProcessPoolExecutor(
        jobs, mp_context=get_context(method), initializer=_open, initargs=(opener,)
    ) as pool:
        try:
            yield from pool.map(_check_here, keys, chunksize=chunk)
        finally:  # the caller stopped early (Ctrl-C): the rest is not run
            pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------- the monthly dump


class _Hashing:
    """A binary file that passes writes on and keeps their SHA-256 and length."""

    def __init__(self, out: BinaryIO):
        self.out = out
        self.sha256 = hashlib.sha256()
        self.bytes = 0

    def write(self, data) -> int:
        self.sha256.update(data)
        self.bytes += len(data)
        return self.out.write(data)

    def flush(self) -> None:
        self.out.flush()


@dataclass
class Dumped:
    """What ``dump`` wrote: ``games`` exports, ``bytes`` compressed bytes with their
    ``sha256``; ``bad``: the games left out, each with what is wrong."""

    games: int = 0
    events: int = 0
    bytes: int = 0
    sha256: str = ""
    bad: list[Checked] = field(default_factory=list)


def dump(archive: Archive, keys: Iterable[str], out: BinaryIO, on_bad=None) -> Dumped:
    """Write the exports of the games whose records are at ``keys`` to ``out``, in that
    order, as one zstd stream (frame checksum on): each export as archived, its header
    line first. Each is checked against its record first (``Archive.read_listed``); one that
    is not what its record says is left out, and ``on_bad(checked)`` is called. One
    export at a time is held in memory."""
    result = Dumped()
    sink = _Hashing(out)
    writer = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True).stream_writer(
        sink, closefd=False
    )
    with writer:
        for key in keys:
            try:
                got = _export_of(archive, key)
            except Exception as e:  # noqa: BLE001 - as in ``check``: the dump goes on without it
                bad = _failed(key, e)
            else:
                writer.write(got.ndjson)
                result.games += 1
                result.events += len(got.entries)
                continue
            result.bad.append(bad)
            if on_bad is not None:
                on_bad(bad)
    result.bytes = sink.bytes
    result.sha256 = sink.sha256.hexdigest()
    return result


def split_dump(text: str) -> list[str]:
    """The exports of a dump's (decompressed) text, each whole: a new one starts at each
    header line.

    >>> a = '{"format":"spitlog-log/1","game_id":"a"}\\n{"version":1}\\n'
    >>> split_dump(a + a.replace('"a"', '"b"')) == [a, a.replace('"a"', '"b"')]
    True
    """
    exports: list[list[str]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith(_HEADER) or not exports:
            exports.append([])
        exports[-1].append(line)
    return ["".join(lines) for lines in exports]
