"""What an idle service costs: `spitlog serve` + one `spitlog worker` + `spitlog scheduler`
on a real redis-server, no games, their CPU summed from /proc over a while.

    PYTHONPATH=. python bench/idle.py                 # 60 s
    PYTHONPATH=. python bench/idle.py --seconds 15

Each process is counted with its descendants (gunicorn's workers, the scheduler's
sweeper): utime + stime from ``/proc/<pid>/stat`` at the start and the end of the window,
after a warm-up. Printed as a fraction of one core, beside a reference measured in the
same run: a second redis-server that nobody talks to (a daemon that sleeps well; its
CPU is its own timers, ``hz 10``). The ratio is what carries over between machines; the
goal is the service's sum <= 1% of one core. The redis-server the service talks to is
shown apart (what the service's idle connections cost it).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.redis_server import free_port, start_redis, stop_redis  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
COMMANDS = ("serve", "worker", "scheduler")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds used) of a process; None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds of ``root`` and each of its descendants, by pid."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (s := _stat(int(entry))) is not None:
            stats[int(entry)] = s
    out, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            out[pid] = stats[pid][1]
            todo += [p for p, (ppid, _cpu) in stats.items() if ppid == pid]
    return out


def used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds a tree used between two readings (a process born meanwhile: all of it)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def start(command: str, env: dict, logdir: Path) -> subprocess.Popen:
    log = open(logdir / f"{command}.log", "wb")  # noqa: SIM115 - the child holds it
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", command], cwd=ROOT, env=env, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    log.close()
    return proc


def wait_up(base: str, url: str, procs: dict, timeout: float = 60) -> None:
    """Until the API answers /readyz and the worker has registered in RQ."""
    from rq import Worker

    r = redis.Redis.from_url(url)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        dead = [c for c, p in procs.items() if p.poll() is not None]
        if dead:
            raise RuntimeError(f"{dead} exited")
        try:
            ready = requests.get(f"{base}/readyz", timeout=1).status_code == 200
        except (requests.ConnectionError, requests.Timeout):  # not up yet, or slow to start
            ready = False
        if ready and Worker.all(connection=r):
            return
        time.sleep(0.2)
    raise RuntimeError("the service did not come up")


def run(seconds: float = 60, warmup: float = 5, env: dict | None = None) -> dict:
    """Measure; answers {command: fraction of one core, ..., "sum", "reference",
    "redis", "ratio"}."""
    with tempfile.TemporaryDirectory() as workdir:
        server, port = start_redis(workdir)
        ref_dir = Path(workdir) / "ref"
        ref_dir.mkdir()
        reference, _ref_port = start_redis(str(ref_dir))
        url = f"redis://127.0.0.1:{port}/0"
        http = free_port()
        full = {**os.environ, "PYTHONPATH": str(ROOT), "SPITLOG_REDIS_URL": url,
                "SPITLOG_BIND": f"127.0.0.1:{http}",
                "SPITLOG_ARCHIVE_URL": str(Path(workdir) / "archive"), **(env or {})}  # fmt: skip
        procs: dict[str, subprocess.Popen] = {}
        try:
            for command in COMMANDS:
                procs[command] = start(command, full, Path(workdir))
            wait_up(f"http://127.0.0.1:{http}", url, procs)
            time.sleep(warmup)
            roots = {**{c: p.pid for c, p in procs.items()}, "redis": server.pid,
                     "reference": reference.pid}  # fmt: skip
            before = {name: tree_cpu(pid) for name, pid in roots.items()}
            t0 = time.monotonic()
            time.sleep(seconds)
            after = {name: tree_cpu(pid) for name, pid in roots.items()}
            span = time.monotonic() - t0
        finally:
            for p in procs.values():
                p.terminate()
            for p in procs.values():
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
            stop_redis(reference)
            stop_redis(server)
    out = {name: used(before[name], after[name]) / span for name in roots}
    out["sum"] = sum(out[c] for c in COMMANDS)
    out["ratio"] = out["sum"] / out["reference"] if out["reference"] > 0 else float("inf")
    out["seconds"] = span
    out["processes"] = {name: len(after[name]) for name in roots}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60, help="the window measured (60)")
    ap.add_argument("--warmup", type=float, default=5, help="idle time before it (5)")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    r = run(args.seconds, args.warmup)
    print(f"\n== idle for {r['seconds']:.0f} s after {args.warmup:.0f} s of warm-up, no games:"
          f" CPU as a fraction of one core (processes counted with their children)")  # fmt: skip
    for name in (*COMMANDS, "redis", "reference"):
        label = {"serve": "spitlog serve", "worker": "spitlog worker",
                 "scheduler": "spitlog scheduler", "redis": "its redis-server",
                 "reference": "reference: an idle redis-server"}[name]  # fmt: skip
        print(f"{label:>34}: {100 * r[name]:6.2f} %  ({r['processes'][name]} processes)")
    print(f"{'serve + worker + scheduler':>34}: {100 * r['sum']:6.2f} %  "
          f"(x{r['ratio']:.1f} the reference; goal <= 1 %)")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
