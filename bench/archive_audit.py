"""The bulk audit (``spitlog audit ARCHIVE``, ``service.bulk.check_all``) on an archive of
10,000 games, against the floor measured in the same run; prints a table.

    python bench/archive_audit.py                    # 10,000 games, about 2 minutes
    python bench/archive_audit.py --games 2000       # rougher, under a minute

1. Writes ``--games`` real games into a directory archive in a temporary directory:
   ``--distinct`` of them (1,000) simulated to their end (``domain.simulate``, random vs
   random, Spit and Speed in turn, ending twelve hours apart from January 2026 on, so
   over many months) and packed as the archive job packs them
   (``service.archive.games.pack``: the export, the record with its audit, the pointer); the
   others are copies of these under other ids (the id rewritten in the export, the
   record and the keys; the shuffle does not read it, so each copy verifies), which
   keeps the run short: simulating and packing a Spit game costs about twice its audit.
   Objects go where ``DirectoryArchive`` puts them, without its fsyncs;
2. audits them all as ``spitlog audit DIR --jobs N`` does (``check_all`` in N processes,
   default one per core; the clock runs from the listing to the last verdict, the
   processes' start included); every game must check out;
   then times ``--sample`` of them again in this one process, in CPU time;
3. measures the floor (``bench_service.floor``: gunicorn + Flask, one EVALSHA on its own
   redis-server, 16 keep-alive clients) and prints games verified per second over the
   floor's requests per second, on the wall clock and per CPU second (the floor's server
   CPU per request over the CPU of one game's check).
"""

import argparse
import dataclasses
import hashlib
import json
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_service  # noqa: E402

from domain.bots import POLICIES  # noqa: E402
from domain.codec import event_to_dict  # noqa: E402
from domain.simulate import play_game  # noqa: E402
from service.archive import open_archive  # noqa: E402
from service.archive.games import (  # noqa: E402
    Packed,
    compress,
    export_key,
    pack,
    pointer_key,
    record_key,
)
from service.bulk import check, check_all, record_keys  # noqa: E402
from service.records import GameRecord, Seat  # noqa: E402
from tests.support.redis_server import start_redis, stop_redis  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
GAMES = ("spit", "speed")


def write(root: str, objects: dict[str, bytes]) -> int:
    for key, data in objects.items():
        path = Path(root, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return sum(map(len, objects.values()))


def renamed(packed: Packed, game_id: str) -> dict[str, bytes]:
    """The objects of the game of ``packed`` under another id: the id in the export (its
    header and its game_created event), the record's id, the export's length and SHA-256,
    and every key. A whole game that verifies (no shuffle reads the id)."""
    old = f'"game_id":"{packed.record["id"]}"'.encode()
    text = packed.ndjson.replace(old, f'"game_id":"{game_id}"'.encode())
    assert text.count(game_id.encode()) == 2
    ym = packed.record["export"]["key"].split("/", 1)[1].rsplit("/", 1)[0]
    ekey, rkey = export_key(game_id, ym), record_key(game_id, ym)
    record = {**packed.record, "id": game_id,
              "export": {"key": ekey, "bytes": len(text),
                         "sha256": hashlib.sha256(text).hexdigest()}}  # fmt: skip
    record = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    return {ekey: compress(text), rkey: record, pointer_key(game_id): rkey.encode()}


def archive_distinct(root: str, games: int, distinct: int, t: int) -> tuple[str, int, int, int]:
    """Distinct game ``t`` simulated, packed and written under ``root`` as game ``t``, then
    as games ``t + distinct``, ``t + 2 * distinct``, ... below ``games``: (its game, its
    events, how many times it was written, the bytes written)."""
    game = GAMES[t % len(GAMES)]
    p = POLICIES["random"]
    start = START + 12 * 3600 * t
    r = play_game(game, (p, p), random.Random(t), keep_log=True, start=start)
    again = random.Random(t)
    seed = bytes(again.getrandbits(8) for _ in range(32))  # play_game's first draws
    log = r.log
    log[0] = dataclasses.replace(log[0], game_id=f"g_{t:016x}")  # (service.ids: a game id)
    record = GameRecord(game, created_ms=int(start * 1000), seed=seed,
                        seats=(Seat("bot:random"), Seat("bot:random")))  # fmt: skip
    packed = pack(log[0].game_id, record, [(v, event_to_dict(e)) for v, e in enumerate(log, 1)])
    written = write(root, packed.objects)
    copies = range(t + distinct, games, distinct)
    for j in copies:
        written += write(root, renamed(packed, f"g_{j:016x}"))
    return game, len(log), 1 + len(copies), written


def generate(root: str, games: int, distinct: int, jobs: int) -> dict:
    t0 = time.perf_counter()
    counts = {g: 0 for g in GAMES}
    events = written = 0
    work = partial(archive_distinct, root, games, distinct)
    with mp.get_context("fork").Pool(jobs) as pool:
        for game, n, times, b in pool.imap_unordered(work, range(min(distinct, games)), 8):
            counts[game] += times
            events += n * times
            written += b
    return {"games": games, "counts": counts, "events": events, "bytes": written,
            "seconds": time.perf_counter() - t0}  # fmt: skip


def audit(root: str, jobs: int, sample: int) -> dict:
    t0 = time.perf_counter()
    opener = partial(open_archive, root)
    keys = record_keys(opener())
    games = events = failed = 0
    for c in check_all(opener, keys, jobs):
        games += 1
        events += c.events
        failed += not c.ok
    dt = time.perf_counter() - t0
    # the CPU of one game's check in this process, over a sample: a figure that other
    # work on the machine moves less than the wall clock's
    archive, picked = opener(), random.Random(0).sample(keys, min(sample, len(keys)))
    c0 = time.process_time()
    sampled = sum(check(archive, key).events for key in picked)
    cpu_s = time.process_time() - c0
    return {"games": games, "events": events, "failed": failed, "seconds": dt,
            "games_s": games / dt, "events_s": events / dt,
            "cpu_ms": 1000 * cpu_s / len(picked), "sample": len(picked),
            "sample_events_s": sampled / cpu_s}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the archive")
    parser.add_argument("--distinct", type=int, default=1_000, help="games simulated")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="audit processes")
    parser.add_argument("--sample", type=int, default=1_000, help="games timed in one process")
    parser.add_argument("--floor-seconds", type=float, default=10, help="the floor's run")
    args = parser.parse_args()
    cores = os.cpu_count()
    print(f"spitlog bulk audit benchmark ({cores} cores; {args.games:,} games; own redis-server; "
          f"load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="spitlog-bench-archive-") as root:
        g = generate(root, args.games, args.distinct, cores or 1)
        print(f"  .. {g['games']:,} games archived in {g['seconds']:.1f} s", flush=True)
        a = audit(root, args.jobs, args.sample)
        print(f"  .. audited in {a['seconds']:.1f} s, {a['failed']} failed", flush=True)
        if a["failed"] or a["games"] != args.games:
            sys.exit(f"the audit did not check out: {a}")
    with tempfile.TemporaryDirectory() as workdir:
        redis_proc, redis_port = start_redis(workdir)
        try:
            f = bench_service.floor(redis_port, redis_proc.pid, args.floor_seconds)
        finally:
            stop_redis(redis_proc)
    c = g["counts"]
    rows = [
        (f"archive written ({args.distinct:,} simulated and packed, renamed copies)",
         f"{g['games']:,} games ({c['spit']:,} Spit, {c['speed']:,} Speed), "
         f"{g['events']:,} events, {g['bytes'] / 1e6:.1f} MB, in {g['seconds']:.1f} s"),
        (f"bulk audit, {args.jobs} processes (wall {a['seconds']:.1f} s)",
         f"{a['games_s']:,.0f} games/s, {a['events_s']:,.0f} events/s"),
        (f"the same, CPU of one process over {a['sample']:,} of them",
         f"{a['cpu_ms']:.2f} ms/game, {1000 / a['cpu_ms']:,.0f} games/s per core, "
         f"{a['sample_events_s']:,.0f} events/s"),
        ("floor: gunicorn + Flask + one EVALSHA, 16 clients",
         f"{f['rate']:,.0f} requests/s, server CPU {f['cpu_ms']:.3f} ms/request"),
        ("games verified / floor requests, per second (wall)",
         f"{a['games_s'] / f['rate']:.3f}"),
        ("games verified / floor requests, per CPU second",
         f"{f['cpu_ms'] / a['cpu_ms']:.3f}"),
        ("events re-judged / floor requests, per second (wall)",
         f"{a['events_s'] / f['rate']:.1f}"),
    ]  # fmt: skip
    print(f"  .. load average {os.getloadavg()[0]:.1f} at the end")
    width = max(len(m) for m, _ in rows)
    print(f"\n| {'measure':<{width}} | this machine |\n|{'-' * (width + 2)}|---|")
    for m, v in rows:
        print(f"| {m:<{width}} | {v} |")


if __name__ == "__main__":
    main()
