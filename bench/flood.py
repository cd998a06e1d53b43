"""Flood isolation: does a flood of one game slow the other games down?

    python bench/flood.py            # about a minute
    python bench/flood.py --quick    # about 30 s, rougher

The API runs under gunicorn (2 gevent workers, ``spitlog serve``) on a redis-server of
its own on loopback. **Victims**: ``victims`` games, each played by one client at a
bot's pace (``victim_rate`` requests a second, both seats, an action or a read each
time, every client from an address of its own). **The flood**: ``flood_conns``
connections, each from an address of its own, hammering *one* game (a Speed match
that does not end) as fast as they can with both of its seat tokens: read a seat's
view, send one of its legal actions, again.

The victims play ``seconds`` alone, then ``seconds`` under the flood; the figure is the
latency of the victims' actions (POST .../actions) under the flood against without
it, p50 and p99. Twice: with the limits at their defaults (the service as deployed;
``SPITLOG_TRUSTED_PROXIES=1`` so that ``X-Forwarded-For`` gives each client its
address) and with every limit off. Loops are bounded in time. The load generators
share the machine's cores with the server: under a flood they slow down too, and that
is counted in the victims' figures (an upper bound on the server's own slowdown).
"""

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_service import Conn, Player, serve_api, start_redis, stop  # noqa: E402

from service.config import Settings, env_name  # noqa: E402

LIMITS_ON = {env_name(k): Settings.model_fields[k].default for k in (
    "rate_actions", "rate_actions_burst", "rate_requests", "rate_requests_burst",
    "rate_games", "rate_games_burst", "rate_seat", "rate_seat_burst", "rate_seat_reserve",
    "rate_auth_failures", "rate_auth_failures_burst", "streams_per_client",
    "streams_per_address",
)} | {"SPITLOG_TRUSTED_PROXIES": 1}  # fmt: skip
ALL_OFF = {"SPITLOG_GAME_CONCURRENCY": 0}  # bench_service.serve_api turns the rates off
LONG_MATCH = {"target_score": 10_000, "max_rounds": 10_000}


class AddrConn(Conn):
    """A connection whose requests come from ``addr`` (X-Forwarded-For, one trusted
    proxy), counting the statuses it gets."""

    def __init__(self, port: int, addr: str):
        super().__init__(port)
        self.addr = addr
        self.statuses: Counter = Counter()

    def request(self, method, path, body=None, headers=None):
        status, out = super().request(
            method, path, body, {**(headers or {}), "X-Forwarded-For": self.addr}
        )
        self.statuses[status] += 1
        return status, out


# ---------------------------------------------------------------- the victims


def _victim(port, k, rate, start_at, end_at, out):
    rng = random.Random(1000 + k)
    conn = AddrConn(port, f"10.1.{k // 250}.{k % 250 + 1}")
    player = Player(conn, rng)
    samples = []  # (when, seconds) of each action
    period = 1.0 / rate
    nxt = max(time.time(), start_at) + rng.random() * period  # spread the clients
    while True:
        now = time.time()
        if now >= end_at:
            break
        if nxt > now:
            time.sleep(nxt - now)
        nxt += period
        when = time.time()
        what, took, _v = player.step()
        if what != "read":
            samples.append((when, took))
    out.put((samples, dict(conn.statuses)))


def _victims_process(port, n, rate, start_at, end_at, out):
    ts = [threading.Thread(target=_victim, args=(port, k, rate, start_at, end_at, out))
          for k in range(n)]  # fmt: skip
    for t in ts:
        t.start()
    for t in ts:
        t.join()


# ---------------------------------------------------------------- the flood


def _flooder(port, k, gid, tokens, start_at, end_at, out):
    rng = random.Random(5000 + k)
    addr = f"10.66.{k // 250}.{k % 250 + 1}"
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    time.sleep(max(0.0, start_at - time.time()))  # then connect (idle ones get closed)
    conn = AddrConn(port, addr)
    statuses: Counter = Counter()
    while time.time() < end_at:
        seat = rng.randrange(2)
        try:
            status, view = conn.request("GET", f"/v1/games/{gid}", headers=auth[seat])
            if status != 200:
                continue
            acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
            if acts:
                conn.request("POST", f"/v1/games/{gid}/actions", rng.choice(acts),
                             headers=auth[seat])  # fmt: skip
        except (ConnectionError, OSError):  # the server closed it: count, open another
            statuses["closed"] += 1
            statuses.update(conn.statuses)
            conn = AddrConn(port, addr)
    statuses.update(conn.statuses)
    out.put(dict(statuses))


def _flood_process(port, conns, gid, tokens, start_at, end_at, out):
    ts = [threading.Thread(target=_flooder, args=(port, k, gid, tokens, start_at, end_at, out))
          for k in range(conns)]  # fmt: skip
    for t in ts:
        t.start()
    for t in ts:
        t.join()


# ---------------------------------------------------------------- one run


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def measure(redis_port: int, seconds: float, limits: bool, victims: int = 24,
            victim_rate: float = 5.0, flood_conns: int = 32) -> dict:  # fmt: skip
    """Victims alone for ``seconds``, then under the flood for ``seconds`` (see the
    module's doc); latencies in ms."""
    env = dict(LIMITS_ON) if limits else {"SPITLOG_TRUSTED_PROXIES": 1, **ALL_OFF}
    api, port = serve_api(redis_port, workers=2, **env)
    try:
        setup = Player(AddrConn(port, "10.200.0.1"), random.Random(9), "speed", LONG_MATCH)
        warm = 1.0
        t0 = time.time() + 2.0  # the victims create their games meanwhile
        flood_at, end_at = t0 + warm + seconds, t0 + warm + 2 * seconds
        out, fout = mp.Queue(), mp.Queue()
        vp = mp.Process(target=_victims_process,
                        args=(port, victims, victim_rate, t0, end_at, out))  # fmt: skip
        fp = mp.Process(
            target=_flood_process,
            args=(port, flood_conns, setup.id, setup.tokens, flood_at, end_at, fout),
        )
        vp.start()
        fp.start()
        base, flood, vstatus = [], [], Counter()
        for _ in range(victims):
            samples, statuses = out.get(timeout=2 * seconds + 120)
            vstatus.update(statuses)
            for when, took in samples:
                if t0 + warm <= when < flood_at - 0.05:
                    base.append(1000 * took)
                elif flood_at + 0.25 <= when:  # the flood's connections are open by then
                    flood.append(1000 * took)
        fstatus = Counter()
        for _ in range(flood_conns):
            fstatus.update(fout.get(timeout=60))
        vp.join(30)
        fp.join(30)
    finally:
        stop(api)
    flood_total = sum(v for s, v in fstatus.items() if s != "closed")
    return {
        "limits": limits,
        "victims": victims, "victim_rate": victim_rate, "flood_conns": flood_conns,
        "base_n": len(base), "flood_n": len(flood),
        "base_p50": _q(base, 0.5), "base_p99": _q(base, 0.99),
        "flood_p50": _q(flood, 0.5), "flood_p99": _q(flood, 0.99),
        "base_mean": statistics.mean(base), "flood_mean": statistics.mean(flood),
        "p99_ratio": _q(flood, 0.99) / _q(base, 0.99),
        "p50_ratio": _q(flood, 0.5) / _q(base, 0.5),
        "flood_rps": flood_total / seconds,
        "flood_429": fstatus.get(429, 0) / max(1, flood_total),
        "victim_429": vstatus.get(429, 0),
        "victim_5xx": sum(v for s, v in vstatus.items() if s >= 500),
    }  # fmt: skip


def slow_bodies(redis_port: int, seconds: float, clients: int = 100) -> dict:
    """A game's two players alone for ``seconds``, then with ``clients`` connections
    trickling request bodies at that game (a byte every 0.5 s: tests/support/hostile.py)
    for ``seconds``: the players' latencies (ms) and 503s, before and during."""
    from tests.support.hostile import Players, SlowBodies, pct

    env = {**LIMITS_ON, "SPITLOG_RATE_REQUESTS": 5000, "SPITLOG_TRUSTED_PROXIES": 0}
    api, port = serve_api(redis_port, workers=2, **env)
    try:
        players = Players(port, {"max_rounds": 10_000}).start()
        threading.Event().wait(seconds)
        before = list(players.latencies)
        slow = SlowBodies(port, players.game_id, n=clients).start()
        threading.Event().wait(seconds)
        during = players.latencies[len(before) :]
        slow.stop()
        players.stop()
    finally:
        stop(api)
    return {
        "clients": clients, "connections": slow.connections,
        "base_p50": 1000 * pct(before, 50), "base_p99": 1000 * pct(before, 99),
        "slow_p50": 1000 * pct(during, 50), "slow_p99": 1000 * pct(during, 99),
        "n": (len(before), len(during)), "players_503": players.statuses.get(503, 0),
        "slow_408": sum(1 for a in slow.answers if a == 408),
    }  # fmt: skip


def run(seconds: float = 10, redis_port: int | None = None) -> list[dict]:
    """Both configurations, limits on then off, on a redis-server of its own unless
    ``redis_port`` is given."""
    if redis_port is not None:
        return [measure(redis_port, seconds, limits) for limits in (True, False)]
    with tempfile.TemporaryDirectory() as workdir:
        proc, port = start_redis(workdir)
        try:
            return [measure(port, seconds, limits) for limits in (True, False)]
        finally:
            stop(proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seconds", type=float)
    args = ap.parse_args()
    seconds = args.seconds or (5 if args.quick else 12)
    with tempfile.TemporaryDirectory() as workdir:
        proc, port = start_redis(workdir)
        try:
            r = slow_bodies(port, seconds)
        finally:
            stop(proc)
    print(f"slow clients ({r['clients']}, {r['connections']} connections, a byte every 0.5 s, "
          f"{r['slow_408']} x 408): the game's players p50 {r['base_p50']:.1f} -> "
          f"{r['slow_p50']:.1f} ms, p99 {r['base_p99']:.1f} -> {r['slow_p99']:.1f} ms "
          f"(n={r['n'][0]}/{r['n'][1]}); {r['players_503']} x 503 to them "
          f"(target: p99 <= 100 ms, no 503)")  # fmt: skip
    for r in run(seconds):
        print(f"limits {'on ' if r['limits'] else 'off'}: victims' actions p50 "
              f"{r['base_p50']:.1f} -> {r['flood_p50']:.1f} ms, p99 {r['base_p99']:.1f} -> "
              f"{r['flood_p99']:.1f} ms (x{r['p99_ratio']:.2f}; n={r['base_n']}/{r['flood_n']});"
              f" flood {r['flood_rps']:.0f} req/s, {100 * r['flood_429']:.0f}% refused 429; "
              f"victims got {r['victim_429']} x 429, {r['victim_5xx']} x 5xx")  # fmt: skip


if __name__ == "__main__":
    main()
