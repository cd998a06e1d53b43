"""Two abuses of the rate limits, against ``spitlog serve`` (2 gevent workers) with a
worker and the scheduler on a redis-server of its own, the limits at their defaults:

    python bench/limits_abuse.py            # about 30 s

**Bad credentials**: 600 random ``X-Api-Key`` values from one address, paced at 570 a
second (as fast as the machine allows below that): how many were answered 401 and 429,
and how many key lookups (``HGETALL`` of an app's key, from Redis's command counts) and
``EVALSHA`` calls they cost.

**A flood from the seats' own address**: a Speed match (T-4 at 5 s), both seats reading
and acting four times a second each for 15 s, while 8 connections from the same address
(loopback: a shared NAT) read the game as fast as they can: the seats' statuses, the
flood's, and how the game stands at the end (a 429 to a seat keeps it from acting, and
T-4 ends the game once a seat could not act for 5 s).
"""

import random
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import redis  # noqa: E402
from bench_service import Conn, serve_api, start_redis, stop  # noqa: E402

from service.config import Settings, env_name  # noqa: E402
from tests.support.workers_procs import Procs, wait_for_workers  # noqa: E402

DEFAULTS = {env_name(k): Settings.model_fields[k].default
            for k in Settings.model_fields if k.startswith(("rate_", "streams_"))}  # fmt: skip


def bad_keys(port: int, r: redis.Redis, n: int = 600, rate: float = 570.0, conns: int = 6):
    """``n`` random app keys from one address at ``rate`` a second: statuses, seconds
    taken, and the Redis commands they cost."""
    before = r.info("commandstats")
    statuses: Counter = Counter()
    lock = threading.Lock()
    t0 = time.perf_counter()

    def send(first: int) -> None:
        c = Conn(port)
        for i in range(first, n, conns):
            wait = t0 + i / rate - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            key = {"X-Api-Key": "spk_" + secrets.token_urlsafe(32)}
            status, _ = c.request("GET", "/v1/games", headers=key)
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=send, args=(k,)) for k in range(conns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.perf_counter() - t0
    after = r.info("commandstats")

    def calls(cmd: str) -> int:
        return after.get(cmd, {}).get("calls", 0) - before.get(cmd, {}).get("calls", 0)

    return statuses, took, calls("cmdstat_hgetall"), calls("cmdstat_evalsha")


def flood_from_the_seats_address(port: int, seconds: float = 15.0, flooders: int = 8):
    """The seats' and the flood's statuses, the flood's rate, and the game at the end."""
    c = Conn(port)
    options = {"idle_forfeit_s": 5, "target_score": 10_000, "max_rounds": 10_000}
    _s, g = c.request("POST", "/v1/games", {"game": "speed", "options": options})
    gid = g["id"]
    _s, j = c.request("POST", f"/v1/games/{gid}/seats", {})
    tokens = (g["token"], j["token"])
    done = threading.Event()
    flood: Counter = Counter()
    seats: Counter = Counter()
    lock = threading.Lock()

    def flooder() -> None:
        fc = Conn(port)
        while not done.is_set():
            status, _ = fc.request("GET", f"/v1/games/{gid}")
            with lock:
                flood[status] += 1

    def seat(token: str, seed: int) -> None:
        sc, rng = Conn(port), random.Random(seed)
        auth = {"Authorization": f"Bearer {token}"}
        due = time.perf_counter()
        while not done.is_set():
            due += 0.25
            status, view = sc.request("GET", f"/v1/games/{gid}", headers=auth)
            with lock:
                seats[status] += 1
            if status == 200 and view["status"] != "running":
                done.set()
                break
            acts = [a for a in view["legal_actions"] if a["type"] != "resign"] if (
                status == 200) else []  # fmt: skip
            if acts:
                status, _ = sc.request("POST", f"/v1/games/{gid}/actions", rng.choice(acts),
                                       headers=auth)  # fmt: skip
                with lock:
                    seats[status] += 1
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)

    threads = [threading.Thread(target=flooder) for _ in range(flooders)]
    threads += [threading.Thread(target=seat, args=(t, k)) for k, t in enumerate(tokens)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    done.wait(seconds)
    done.set()
    for t in threads:
        t.join()
    took = time.perf_counter() - t0
    _s, view = Conn(port).request("GET", f"/v1/games/{gid}")
    return seats, flood, sum(flood.values()) / took, view["status"], view.get("result")


def main() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        rproc, rport = start_redis(workdir)
        url = f"redis://127.0.0.1:{rport}/0"
        procs = Procs({"SPITLOG_REDIS_URL": url, "SPITLOG_ARCHIVE_URL": f"file://{workdir}/a"})
        api = None
        try:
            api, port = serve_api(rport, workers=2, SPITLOG_ARCHIVE_URL=f"file://{workdir}/a",
                                  **DEFAULTS)  # fmt: skip
            r = redis.Redis.from_url(url)
            statuses, took, lookups, evals = bad_keys(port, r)  # no workers yet: their commands
            print(f"600 random X-Api-Key values from one address in {took:.2f} s "
                  f"({600 / took:.0f}/s): {dict(sorted(statuses.items()))}; {lookups} key "
                  f"lookups (HGETALL), {evals} EVALSHA")  # fmt: skip
            procs.start("worker")
            procs.start("scheduler", "scheduler")
            wait_for_workers(url, 1)
            seats, flood, rate, status, result = flood_from_the_seats_address(port)
            print(f"a flood from the seats' address ({rate:.0f} req/s): the seats "
                  f"{dict(sorted(seats.items()))}, the flood {dict(sorted(flood.items()))}; "
                  f"the game {status}{f' ({result})' if result else ''}")  # fmt: skip
        finally:
            if api is not None:
                stop(api)
            procs.stop()
            stop(rproc)


if __name__ == "__main__":
    main()
