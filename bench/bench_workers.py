"""Benchmark the workers: due-time precision with many bot games running, and the bot
actions one worker process sustains. Prints its figures.

    PYTHONPATH=. python bench/bench_workers.py                 # both parts
    PYTHONPATH=. python bench/bench_workers.py --games 200 --workers 3 --seconds 30
    PYTHONPATH=. python bench/bench_workers.py --part throughput --seconds 20

It starts its own redis-server (a free port, no persistence), ``spitlog worker``
processes and one ``spitlog scheduler``, with ``SPITLOG_TRACE=1``: every job records
its due time and its start in a Redis stream, read back at the end.

1. **precision**: ``--games`` bot games (both games, levels mixed, real pace; one in
   ten a silent human against a bot on short graces, so that deadlines fall due), kept
   at that number as games end. After ``--warmup`` s, for ``--seconds`` s:
   |job start - due| of every bot turn and deadline (p50/p99/max), jobs/s, actions/s.
2. **throughput**: one worker process, bots at pace 0 (every decision is due at once,
   so the worker never waits): the bot actions it appends per second, sustained.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "integration"))
sys.path.insert(0, str(ROOT / "bench"))

import bench_service  # noqa: E402

from service.config import load  # noqa: E402
from tests.support.workers_procs import Procs, wait_for_workers  # noqa: E402
from workers.runtime import Runtime  # noqa: E402

LEVELS = ("easy", "medium", "hard")


def start_redis(workdir: str) -> tuple[subprocess.Popen, str]:
    """bench_service's redis-server (a free port, no persistence), by its URL."""
    proc, port = bench_service.start_redis(workdir)
    return proc, f"redis://127.0.0.1:{port}/0"


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def runtime(url: str, pace: float) -> Runtime:
    return Runtime(load(warn=None, redis_url=url, bot_pace=pace))


# One game in ten seats a silent human against a bot, on short graces: T-2 makes the
# human ready, T-1 calls its stalemates, T-4 ends the game: deadlines fall due all along.
SILENT = {"ready_grace_s": 0.5, "spit_grace_s": 0.5, "idle_forfeit_s": 3.0}


def new_game(rt: Runtime, rng: random.Random) -> str:
    game = rng.choice(("spit", "speed"))
    a, b = rng.choice(LEVELS), rng.choice(LEVELS)
    if rng.random() < 0.1:
        return rt.seating.create(game, SILENT, f"bot:{b}", "", seat0="human").body["id"]
    return rt.seating.create(game, None, f"bot:{b}", "", seat0=f"bot:{a}").body["id"]


def keep_running(rt: Runtime, n: int, stop: threading.Event, rng: random.Random) -> list[int]:
    """Keep ``n`` bot games running; answers a list that counts the games created."""
    created = [0]

    def loop():
        while not stop.is_set():
            running = count_running(rt)
            for _ in range(max(0, n - running)):
                new_game(rt, rng)
                created[0] += 1
            stop.wait(float(os.environ.get("BENCH_REFILL_S", "2")))

    threading.Thread(target=loop, daemon=True).start()
    return created


def count_running(rt: Runtime) -> int:
    n, cursor = 0, None
    while True:
        rows, cursor = rt.store.lobby("running", cursor, 500)
        n += len(rows)
        if cursor is None:
            return n


def trace_window(rt: Runtime, t0: float, t1: float) -> list[dict]:
    return [t for t in rt.schedule.read_trace() if t0 * 1000 <= float(t["start"]) < t1 * 1000]


def precision(url: str, args, procs: Procs) -> None:
    rt = runtime(url, 1.0)
    rng = random.Random(1)
    for i in range(args.workers):
        procs.start(f"w{i}")
    procs.start("scheduler", "scheduler")
    wait_for_workers(url, args.workers)
    stop = threading.Event()
    created = keep_running(rt, args.games, stop, rng)
    time.sleep(args.warmup)
    rt.schedule.clear_trace()
    t0 = time.time()
    running = []
    while time.time() - t0 < args.seconds:
        time.sleep(1)
        running.append(count_running(rt))
    t1 = time.time()
    stop.set()
    trace = trace_window(rt, t0, t1)
    procs.stop()
    if args.dump:
        Path(args.dump).write_text("\n".join(json.dumps(t) for t in trace))
    span = t1 - t0
    print(f"\n== precision: {args.games} bot games kept running, {args.workers} worker processes,"
          f" 1 scheduler, {span:.0f} s measured after {args.warmup:.0f} s of warm-up")  # fmt: skip
    print(f"games running: min {min(running)} max {max(running)};"
          f" games created in all: {created[0]}")  # fmt: skip
    for kind, label in (("bot", "bot turns"), ("dl", "deadlines")):
        lags = [abs(float(t["start"]) - float(t["due"])) for t in trace if t["kind"] == kind]
        if not lags:
            print(f"{label:>10}: none")
            continue
        print(f"{label:>10}: {len(lags):6d} jobs  |fired - due| ms: p50 {pct(lags, 50):6.1f}"
              f"  p99 {pct(lags, 99):6.1f}  max {max(lags):7.1f}")  # fmt: skip
    # the scheduler alone: from the due time to the job on the queue (RQ's enqueued_at,
    # whole milliseconds; claimed SPITLOG_LEAD_MS early, so mostly before the due time)
    enq = [float(t["enq"]) - float(t["due"]) for t in trace if t["due"] != "-" and t["enq"] != "0"]
    if enq:
        print(f"{'enqueued':>10}: {len(enq):6d} jobs   enqueued - due ms: p50 {pct(enq, 50):6.1f}"
              f"  p99 {pct(enq, 99):6.1f}  max {max(enq):7.1f}")  # fmt: skip
    acted = sum(t["outcome"] in ("acted", "fired") for t in trace)
    busy = sum(float(t["end"]) - float(t["start"]) for t in trace) / 1000
    print(f"jobs {len(trace) / span:.0f}/s, appended actions {acted / span:.0f}/s,"
          f" job time {busy / span:.2f} worker-s/s (median job"
          f" {pct([float(t['end']) - float(t['start']) for t in trace], 50):.2f} ms)")  # fmt: skip


def throughput(url: str, args, procs: Procs) -> None:
    """One worker at full tilt: pace 0, so every bot decision is due as soon as armed."""
    rt = runtime(url, 0.0)
    procs.env["SPITLOG_BOT_PACE"] = "0"
    rng = random.Random(2)
    for _ in range(args.games):
        new_game(rt, rng)  # armed at once; nothing runs them yet
    procs.start("scheduler", "scheduler")
    procs.start("solo")
    stop = threading.Event()
    keep_running(rt, args.games, stop, rng)
    time.sleep(args.warmup)
    t0 = time.time()
    time.sleep(args.seconds)
    t1 = time.time()
    stop.set()
    trace = [t for t in trace_window(rt, t0, t1) if t["kind"] == "bot"]
    procs.stop()
    span = t1 - t0
    acted = sum(t["outcome"] == "acted" for t in trace)
    per_s = [0] * int(span)
    for t in trace:
        if t["outcome"] == "acted":
            i = int(float(t["start"]) / 1000 - t0)
            if 0 <= i < len(per_s):
                per_s[i] += 1
    print(f"\n== throughput: 1 worker process, {args.games} bot games at pace 0, "
          f"{span:.0f} s after {args.warmup:.0f} s of warm-up")  # fmt: skip
    print(f"bot jobs {len(trace) / span:.0f}/s; bot actions appended {acted / span:.0f}/s"
          f" (slowest second {min(per_s)}, fastest {max(per_s)}); the rest found the game"
          f" moved on (the other bot acted first)")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("both", "precision", "throughput"), default="both")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--workers", type=int, default=3, help="worker processes (precision)")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--dump", help="write the precision part's trace here (JSON lines)")
    ap.add_argument("--logs", help="keep the processes' logs in this directory")
    ap.add_argument("--redis-url", help="use this Redis (flushed!) instead of starting one")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as workdir:
        if args.redis_url:  # a server of your own (it is flushed)
            server, url = None, args.redis_url
            redis.Redis.from_url(url).flushall()
        else:
            server, url = start_redis(workdir)
        env = {"SPITLOG_REDIS_URL": url, "SPITLOG_TRACE": "1"}
        try:
            if args.part in ("both", "precision"):
                precision(url, args, Procs(env, args.logs or workdir))
                redis.Redis.from_url(url).flushall()
            if args.part in ("both", "throughput"):
                throughput(url, args, Procs(env, args.logs or workdir))
        finally:
            if server is not None:
                server.terminate()
                server.wait(10)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
