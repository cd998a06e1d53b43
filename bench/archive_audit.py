"""The bulk audit (``spitlog audit ARCHIVE``, ``service.bulk.check_all``) on an archive of
10,000 games, against the floor measured in the same run; prints a table.

    python bench/archive_audit.py                    # 10,000 games, about 2.5 minutes
    python bench/archive_audit.py --games 2000       # rougher, about 40 s

1. Writes ``--games`` real games into a directory archive in a temporary directory: each
   simulated to its end (``domain.simulate``, random vs random, Spit and Speed in turn,
   ending an hour apart from January 2026 on, so over many months), packed as the
   archive job packs it (``service.archiving.pack``: the export, the record with its
   audit, the pointer) and its objects written where ``DirectoryArchive`` puts them
   (without its fsyncs: the layout is the same, the writes quicker);
2. audits them all as ``spitlog audit DIR --jobs N`` does (``check_all`` in N processes,
   default one per core; the clock runs from the listing to the last verdict, the
   processes' start included); every game must check out;
3. measures the floor (``bench_service.floor``: gunicorn + Flask, one EVALSHA on its own
   redis-server, 16 keep-alive clients) and prints games verified per second over the
   floor's requests per second.
"""

import argparse
import dataclasses
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
from domain.events import event_to_dict  # noqa: E402
from domain.simulate import play_game  # noqa: E402
from service.archive import open_archive  # noqa: E402
from service.archiving import pack  # noqa: E402
from service.bulk import check_all, record_keys  # noqa: E402
from tests.support.redis_server import start_redis, stop_redis  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
GAMES = ("spit", "speed")


def archive_one(root: str, i: int) -> tuple[str, int, int]:
    """Game ``i`` simulated, packed and written under ``root``: (its game, its events,
    the bytes written)."""
    game = GAMES[i % len(GAMES)]
    p = POLICIES["random"]
    rng = random.Random(i)
    start = START + 3600 * i
    r = play_game(game, (p, p), rng, keep_log=True, start=start)
    again = random.Random(i)
    seed = bytes(again.getrandbits(8) for _ in range(32))  # play_game's first draws
    log = r.log
    log[0] = dataclasses.replace(log[0], game_id=f"b{i:06d}")  # unique (no shuffle uses it)
    meta = {"game": game, "seed": seed.hex(), "created": str(int(start * 1000)),
            "kind0": "bot:random", "kind1": "bot:random"}  # fmt: skip
    packed = pack(log[0].game_id, meta, [(v, event_to_dict(e)) for v, e in enumerate(log, 1)])
    written = 0
    for key, data in packed.objects.items():
        path = Path(root, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written += len(data)
    return game, len(log), written


def generate(root: str, games: int, jobs: int) -> dict:
    t0 = time.perf_counter()
    counts = {g: 0 for g in GAMES}
    events = written = 0
    with mp.get_context("fork").Pool(jobs) as pool:
        for game, n, b in pool.imap_unordered(partial(archive_one, root), range(games), 32):
            counts[game] += 1
            events += n
            written += b
    return {"games": games, "counts": counts, "events": events, "bytes": written,
            "seconds": time.perf_counter() - t0}  # fmt: skip


def audit(root: str, jobs: int) -> dict:
    t0 = time.perf_counter()
    opener = partial(open_archive, root)
    keys = record_keys(opener())
    games = events = failed = 0
    for c in check_all(opener, keys, jobs):
        games += 1
        events += c.events
        failed += not c.ok
    dt = time.perf_counter() - t0
    return {"games": games, "events": events, "failed": failed, "seconds": dt,
            "games_s": games / dt, "events_s": events / dt}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the archive")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="audit processes")
    parser.add_argument("--floor-seconds", type=float, default=10, help="the floor's run")
    args = parser.parse_args()
    cores = os.cpu_count()
    print(f"spitlog bulk audit benchmark ({cores} cores; {args.games:,} games; own redis-server; "
          f"load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="spitlog-bench-archive-") as root:
        g = generate(root, args.games, cores or 1)
        print(f"  .. {g['games']:,} games archived in {g['seconds']:.1f} s", flush=True)
        a = audit(root, args.jobs)
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
        ("archive written (simulate, pack, write)",
         f"{g['games']:,} games ({c['spit']:,} Spit, {c['speed']:,} Speed), "
         f"{g['events']:,} events, {g['bytes'] / 1e6:.1f} MB, in {g['seconds']:.1f} s"),
        (f"bulk audit, {args.jobs} processes (wall {a['seconds']:.1f} s)",
         f"{a['games_s']:,.0f} games/s, {a['events_s']:,.0f} events/s"),
        ("floor: gunicorn + Flask + one EVALSHA, 16 clients",
         f"{f['rate']:,.0f} requests/s"),
        ("games verified per second / floor requests per second",
         f"{a['games_s'] / f['rate']:.3f}"),
        ("events re-judged per second / floor requests per second",
         f"{a['events_s'] / f['rate']:.1f}"),
    ]  # fmt: skip
    print(f"  .. load average {os.getloadavg()[0]:.1f} at the end")
    width = max(len(m) for m, _ in rows)
    print(f"\n| {'measure':<{width}} | this machine |\n|{'-' * (width + 2)}|---|")
    for m, v in rows:
        print(f"| {m:<{width}} | {v} |")


if __name__ == "__main__":
    main()
