"""The benchmark suite: one command, one table.

    PYTHONPATH=. python bench/run_all.py            # ~6 min
    PYTHONPATH=. python bench/run_all.py --quick    # ~3 min

Every figure comes from the suite's own modules, imported, in one run on one machine
(so the ratios side by side compare like with like): ``bench_service`` (throughput
against the floor, a bare Flask endpoint doing one EVALSHA; cost by game length; SSE
delivery with 1,000 streams), ``bench_domain`` (replay and simulation speed),
``bench_workers`` (bot due-time precision, when that module is there), ``idle`` (the CPU
of an idle serve + worker + scheduler against an idle redis-server), ``flood`` (a flood
of one game against the others' latency), ``fault_durability`` (kill -9 of Redis while
clients play; a primary killed and its replica promoted by Sentinel), ``memory`` (Redis
bytes per event of a game, the keys a finished game leaves after its retention) and
``capacity`` (how many games at human pace the box holds, humans only and half against a
hosted bot). Everything runs on loopback with its own redis-server; every loop is
bounded in time or count. Absolute figures are this machine's; the ratios and the
targets are what carries over.
"""

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench_domain  # noqa: E402
import bench_service as bs  # noqa: E402
import bench_ws  # noqa: E402
import capacity as cap  # noqa: E402
import fault_durability  # noqa: E402
import flood  # noqa: E402
import idle  # noqa: E402
import memory  # noqa: E402

from domain import event_from_dict, event_to_dict, replay  # noqa: E402

ROWS: list[tuple[str, str, str, str, str]] = []  # measure, this machine, against, ratio, target
FLOOR: dict = {}  # the floor's server CPU per request in this run (``throughput``)


def row(measure: str, here: str, against: str = "", ratio: str = "", target: str = "") -> None:
    ROWS.append((measure, here, against, ratio, target))
    print(f"  .. {measure}: {here}  {against}  {ratio}", flush=True)


def q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


# ---------------------------------------------------------------- service


def throughput(redis_port: int, redis_pid: int, seconds: float) -> None:
    t = bs.throughput(redis_port, redis_pid, seconds)
    f, a = t["floor"], t["api"]
    FLOOR["cpu_ms"] = f["cpu_ms"]
    row("action throughput, 2 gevent workers, 16 clients", f"{a['rate']:,.0f} actions/s",
        f"floor {f['rate']:,.0f} req/s", f"{t['ratio']:.2f}", ">= 0.70")  # fmt: skip
    row("server CPU per action (reads aside) vs floor", f"{t['action_cpu_ms']:.2f} ms",
        f"floor {f['cpu_ms']:.2f} ms", f"{t['cpu_ratio']:.2f}", ">= 0.80")  # fmt: skip
    fo = t["floor_ours"]
    row("the same vs the floor on the API's Redis connections",
        f"{t['action_cpu_ms']:.2f} ms", f"floor {fo['cpu_ms']:.2f} ms",
        f"{t['cpu_ratio_ours']:.2f}", "")  # fmt: skip
    # the same load with every limit on (rates too high to be hit: their cost alone)
    high = {"SPITLOG_RATE_ACTIONS": 1e6, "SPITLOG_RATE_ACTIONS_BURST": 10**6,
            "SPITLOG_RATE_REQUESTS": 1e6, "SPITLOG_RATE_REQUESTS_BURST": 10**6,
            "SPITLOG_RATE_GAMES": 1e6, "SPITLOG_RATE_GAMES_BURST": 10**6,
            "SPITLOG_RATE_SEAT": 1e6, "SPITLOG_RATE_SEAT_BURST": 10**6,
            "SPITLOG_RATE_AUTH_FAILURES": 1e6, "SPITLOG_RATE_AUTH_FAILURES_BURST": 10**6,
            "SPITLOG_STREAMS_PER_CLIENT": 1000, "SPITLOG_STREAMS_PER_ADDRESS": 2000}  # fmt: skip
    api, port = bs.serve_api(redis_port, workers=2, **high)
    try:
        bs.run_load("api", port, 2)
        rate, _c = bs.run_load("api", port, seconds)
    finally:
        bs.stop(api)
    row("action throughput, limits on (never hit)", f"{rate:,.0f} actions/s",
        f"limits off {a['rate']:,.0f}", f"{rate / a['rate']:.2f}", "~1")  # fmt: skip


def limits_cost(redis_port: int, redis_pid: int, seconds: float) -> None:
    """Requests per second (actions and reads alike) with the limits on against the floor."""
    t = bs.limits_cost(redis_port, redis_pid, seconds)
    f = t["floor"]
    for what in ("players", "reads"):
        on, off = t[f"{what}_on"], t[f"{what}_off"]
        label = "actions and reads" if what == "players" else "reads alone"
        row(f"requests/s, {label}, 16 clients, limits on (never hit)", f"{on['rate']:,.0f} req/s",
            f"floor {f['rate']:,.0f}; limits off {off['rate']:,.0f} "
            f"({off['rate'] / f['rate']:.2f})", f"{on['rate'] / f['rate']:.2f}",
            ">= 0.70")  # fmt: skip


def latency(redis_port: int, n: int) -> None:
    """One client, one request at a time: an action's latency against the floor's."""
    port = bs.free_port()
    args = [bs.__file__, "--serve-bare", str(redis_port), str(port), "default"]
    bare = bs.start_server(args, {}, port)
    try:
        conn, floor = bs.Conn(port), []
        for i in range(n):
            t = time.perf_counter()
            conn.request("POST", f"/bare/lat{i % 8}", {"type": "play", "from": 1, "to": 0})
            floor.append(1000 * (time.perf_counter() - t))
    finally:
        bs.stop(bare)
    api, port = bs.serve_api(redis_port, workers=2)
    try:
        player, acts = bs.Player(bs.Conn(port), random.Random(11)), []
        while len(acts) < n:
            what, took, _v = player.step()
            if what != "read":
                acts.append(1000 * took)
    finally:
        bs.stop(api)
    row("action latency, one client, p50 / p99",
        f"{q(acts, .5):.2f} / {q(acts, .99):.2f} ms",
        f"floor {q(floor, .5):.2f} / {q(floor, .99):.2f} ms",
        f"x{q(acts, .5) / q(floor, .5):.1f} (p50)")  # fmt: skip


def cost(redis_port: int, samples: int) -> None:
    c = bs.cost_by_length(redis_port, samples=samples, cache=2048)
    a10, a1k = c[10]["action_ms"], c[1000]["action_ms"]
    row("action at a game's 1,000th event vs its 10th", f"{a1k:.2f} ms",
        f"{a10:.2f} ms at the 10th", f"{100 * (a1k / a10 - 1):+.0f}%", "<= +15%")  # fmt: skip
    s10, s1k = c[10]["state_at_ms"], c[1000]["state_at_ms"]
    row("GET states/1000 vs states/10", f"{s1k:.2f} ms", f"{s10:.2f} ms",
        f"{100 * (s1k / s10 - 1):+.0f}%", "")  # fmt: skip


DELIVERY_LABELS = {"sse": "SSE delivery, {n} streams", "ndjson":
                   "NDJSON delivery, views in the stream, {n} streams",
                   "channel": "seat channel delivery, {n} channels"}  # fmt: skip


def sse(redis_port: int, seconds: float) -> None:
    """1,000 viewers on one process (both seats and two spectators of 250 games) as each
    kind of stream, one after the other: how late the events reach them."""
    for kind in bs.DELIVERIES:
        s = bs.sse_latency(redis_port, streams=1000, seconds=seconds, rate=25, kind=kind)
        row(DELIVERY_LABELS[kind].format(n=s["streams"]) + ", 1 process, p50 / p99",
            f"{s['p50_ms']:.1f} / {s['p99_ms']:.1f} ms", f"{s['deliveries']:,} deliveries",
            f"max {s['max_ms']:.0f} ms", "p99 <= 25 ms")  # fmt: skip


def live_loop(redis_port: int, seconds: float) -> None:
    r = bs.live_loop(redis_port, games=60, seconds=seconds)
    old, new = r["poll"], r["views"]
    for name, m, o in (("event, then GET", old, None), ("views in the stream", new, old)):
        row(f"live loop, 60 games of two people, {name}: API CPU per game-second",
            f"{m['cpu_ms_per_game_s']:.2f} ms",
            f"{m['reads_per_game_s']:.2f} reads, {m['actions_per_game_s']:.2f} actions per "
            f"game-second; {m['cpu_ms_per_action']:.2f} ms per action",
            "" if o is None else f"x{m['cpu_ms_per_game_s'] / o['cpu_ms_per_game_s']:.2f} "
            f"(x{m['cpu_ms_per_action'] / o['cpu_ms_per_action']:.2f} per action)", "")  # fmt: skip
    if "cpu_ms" in FLOOR:
        floor = FLOOR["cpu_ms"]
        row("live loop, views in the stream: API CPU per game-second vs floor per request",
            f"{new['cpu_ms_per_game_s']:.2f} ms", f"floor {floor:.2f} ms per request",
            f"x{new['cpu_ms_per_game_s'] / floor:.1f}", "<= x2.5")  # fmt: skip


def channel_cost(seconds: float) -> None:
    """bench_ws.py --service: the server's CPU per action on the seat channel against
    ``POST /actions``, the two taking turns (8 pairs of seats, 2 rounds)."""
    with contextlib.redirect_stdout(io.StringIO()):
        m = bench_ws.service(8, seconds, 2)
    row("server CPU per action: seat channel vs POST /actions (one worker)",
        f"{m['channel']['per_act']:.2f} ms", f"POST {m['http']['per_act']:.2f} ms",
        f"{m['ratio']:.2f}", "")  # fmt: skip


# ---------------------------------------------------------------- domain


def domain_speed(games: int) -> None:
    for n in (1_000, 10_000):
        _game, log = bench_domain.long_log(n)
        stored = [json.dumps(event_to_dict(e)) for e in log]
        took = bench_domain.best_of(
            lambda s=stored: replay([event_from_dict(json.loads(x)) for x in s]), 3
        )
        objects = bench_domain.best_of(lambda log=log: replay(log), 3)
        row(f"replay of {n:,} events from their JSON", f"{n / took:,.0f} events/s",
            f"from objects {n / objects:,.0f} events/s", "", ">= 100,000")  # fmt: skip
    p = bench_domain.POLICIES["random"]
    for game, target in (("spit", ">= 50"), ("speed", "")):
        rng = random.Random(1)
        t = time.perf_counter()
        events = sum(bench_domain.play_game(game, (p, p), rng).events for _ in range(games))
        dt = time.perf_counter() - t
        row(f"simulation, {game}, random vs random", f"{games / dt:,.1f} games/s",
            f"{events / games:,.0f} events/game", "", target)  # fmt: skip


# ---------------------------------------------------------------- workers


def bot_precision(quick: bool) -> None:
    """bench/bench_workers.py's precision part, its printed figures read back."""
    label = "bot due-time precision, start - due, p50 / p99"
    try:
        import bench_workers
    except ImportError as e:
        row(label, "n/a", f"bench/bench_workers.py absent ({e.name})")
        return
    args = types.SimpleNamespace(games=60 if quick else 200, workers=3,
                                 seconds=8 if quick else 15, warmup=3, dump=None)  # fmt: skip
    out = io.StringIO()
    try:
        with tempfile.TemporaryDirectory() as workdir:
            server, url = bench_workers.start_redis(workdir)
            try:
                procs = bench_workers.Procs({"SPITLOG_REDIS_URL": url, "SPITLOG_TRACE": "1"},
                                            workdir)  # fmt: skip
                with contextlib.redirect_stdout(out):
                    bench_workers.precision(url, args, procs)
            finally:
                server.terminate()
                server.wait(10)
    except Exception as e:  # the module is another engineer's, still moving
        row(label, "n/a", f"bench_workers.precision failed: {type(e).__name__}: {e}"[:90])
        return
    text = out.getvalue()
    found = {k: re.search(rf"{k}:\s+(\d+) jobs .*?p50\s+([\d.]+)\s+p99\s+([\d.]+)", text)
             for k in ("bot turns", "deadlines")}  # fmt: skip
    for kind, m in found.items():
        if m is None:
            why = "none fell due" if f"{kind}: none" in text else "no figure in its output"
            row(f"{label} ({kind})", "n/a", why)
            continue
        row(f"{label} ({kind})", f"{float(m[2]):.1f} / {float(m[3]):.1f} ms",
            f"{int(m[1]):,} jobs, {args.games} bot games", "", "")  # fmt: skip


def idle_cpu(quick: bool) -> None:
    """bench/idle.py: serve + a worker + the scheduler with no games, their CPU from /proc."""
    r = idle.run(seconds=15 if quick else 60, warmup=3 if quick else 5)
    row(f"idle CPU, serve + worker + scheduler, no games ({r['seconds']:.0f} s)",
        f"{100 * r['sum']:.2f}% of a core", f"an idle redis-server {100 * r['reference']:.2f}%",
        f"x{r['ratio']:.1f}", "<= 1% of a core")  # fmt: skip


# ---------------------------------------------------------------- flood, faults


def flood_isolation(redis_port: int, seconds: float) -> None:
    for r in flood.run(seconds, redis_port):
        on = "defaults" if r["limits"] else "all off"
        row(f"flood of one game ({r['flood_rps']:,.0f} req/s, limits {on}): other games' "
            f"actions p50 / p99", f"{r['flood_p50']:.1f} / {r['flood_p99']:.1f} ms",
            f"no flood {r['base_p50']:.1f} / {r['base_p99']:.1f} ms",
            f"x{r['p50_ratio']:.1f} / x{r['p99_ratio']:.1f}",
            "p99 <= 100 ms; no 429/5xx" if r["limits"] else "")  # fmt: skip
        if r["victim_429"] or r["victim_5xx"]:
            row("  ... the other games got refusals", f"{r['victim_429']} x 429, "
                f"{r['victim_5xx']} x 5xx", "", "", "0")  # fmt: skip


def durability(kills: int) -> None:
    for mode in ("strict", "default"):
        r = fault_durability.run(mode, kills)
        row(f"kill -9 of Redis x{r['kills']}, {mode} mode: acknowledged actions lost",
            f"{r['lost']} of {r['acknowledged']:,}",
            f"{r['games']} games, {r['logs_with_gaps']} logs with gaps", "",
            "0" if mode == "strict" else "")  # fmt: skip


def failover(failovers: int, cuts: tuple[float, ...]) -> None:
    """bench/fault_durability.py's failover rows: a primary with a replica under Sentinel,
    SIGKILLed ``failovers`` times while clients play, default and strict side by side;
    then (``cuts``) again with the replica cut off that long before each kill."""
    for cut in cuts:
        for mode in ("default", "strict"):
            r = fault_durability.run_failover(mode, failovers, cut_s=cut)
            how = f", replica cut off {cut} s before" if cut else ""
            row(f"failover x{r['failovers']} (Sentinel{how}), {mode} mode: acknowledged lost",
                f"{r['lost']} of {r['acknowledged']:,}",
                f"{r['games']} games ({r['games_lost']} lost), {r['unconfirmed']} x 503 "
                f"unconfirmed, promoted in {r['promoted_s']} s", "",
                "0" if mode == "strict" else "")  # fmt: skip


# ---------------------------------------------------------------- capacity


CAPACITY_RUNS = (  # (mix, the people's clients, target)
    ("humans", "http", ">= 1,000"),
    ("humans", "views", ">= 1,000"),
    ("humans", "channel", ">= 1,000"),
    ("bots", "views", ">= 600; bot due p99 <= 30 ms"),
)


def capacity(quick: bool) -> None:
    """bench/capacity.py: games at human pace held at once, humans only (each kind of
    client, one ramp after another) and half against a hosted bot; the CPU split at the
    largest number held (fractions of one core)."""
    for mix, clients, target in CAPACITY_RUNS:
        # bots: three worker processes, so that decisions due at once do not wait for one
        # another (with two, the bots' due p99 passes 30 ms at 300 games, the box at 64%)
        r = cap.run(mix, cap.QUICK_LEVELS if quick else cap.LEVELS,
                    warmup=4 if quick else 8, window=8 if quick else 20, procs=2,
                    workers=3 if mix == "bots" else 1, bisect=1 if quick else 2,
                    verbose=False, clients=clients)  # fmt: skip
        at = r["at"]
        label = (f"capacity, games of two people at human pace ({clients})" if mix == "humans"
                 else f"capacity, half of them one person against bot:hard ({clients}), "
                 "3 workers")  # fmt: skip
        if at is None:
            row(label, "0 games", f"first level not held: {r['failed']['why']}"[:90], "", target)
            continue
        c = at["cpu"]
        bot = f", bot due p99 {at['bot_p99']:.0f} ms" if mix == "bots" else ""
        row(label, f"{r['held']:,} games",
            f"act p99 {at['act_p99']:.0f} ms{bot}; CPU api {c['api']:.2f} redis "
            f"{c['redis']:.2f} workers {c['workers'] + c['scheduler']:.2f} gen "
            f"{c['generator']:.2f} others {c['others']:.2f}", "", target)  # fmt: skip
        if r["failed"] is not None:
            row("  ... first level not held", f"{r['failed']['games']:,} games",
                r["failed"]["why"][:90])  # fmt: skip


# ---------------------------------------------------------------- memory


def memory_figures() -> None:
    """bench/memory.py: one short and one long game, one retention (the same in quick and
    full runs: about 2 s)."""
    m = memory.run()
    for name, target in (("short", ""), ("long", "<= 160")):
        g = m[name]
        p, n = g["parts"], g["events"]
        row(f"Redis bytes/event of a live Spit game, every action keyed ({name}, {n} events)",
            f"{g['per_event']:.0f} bytes/event",
            f"log {p['log'] / n:.0f}, idem {p['idem'] / n:.0f}, snap {p['snap'] / n:.0f}",
            f"max {g['max_per_event']:.0f} live", target)  # fmt: skip
    r = m["retention"]
    row("keys that mention a finished game after its retention",
        f"{len(r['after'])} keys", f"before: {len(r['before'])} keys, "
        f"{r['before_bytes']:,} bytes", "", "0")  # fmt: skip


# ---------------------------------------------------------------- main


def machine() -> str:
    exe = shutil.which("redis-server")
    ver = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout if exe else ""
    m = re.search(r"v=(\S+)", ver)
    return (f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, "
            f"redis {m[1] if m else '?'}")  # fmt: skip


def table() -> str:
    head = ("measure", "this machine", "against (same run)", "ratio", "target")
    widths = [max(len(r[i]) for r in [head, *ROWS]) for i in range(5)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]  # fmt: skip
    for r in ROWS:
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="shorter runs, rougher figures")
    ap.add_argument("--skip", default="", help="comma-separated parts to leave out: throughput,"
                    "limits,latency,cost,sse,live,channel,domain,workers,idle,flood,durability,failover,"
                    "memory,capacity")  # fmt: skip
    args = ap.parse_args()
    quick, skip = args.quick, set(filter(None, args.skip.split(",")))
    started, load0 = time.time(), os.getloadavg()[0]
    print(
        f"spitlog benchmarks{' (--quick)' if quick else ''}: {machine()}; "
        f"load average {load0:.2f} at start",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as workdir:
        redis_proc, redis_port = bs.start_redis(workdir)
        try:
            if "throughput" not in skip:
                throughput(redis_port, redis_proc.pid, seconds=5 if quick else 12)
            if "limits" not in skip:
                limits_cost(redis_port, redis_proc.pid, seconds=5 if quick else 10)
            if "latency" not in skip:
                latency(redis_port, n=200 if quick else 600)
            if "cost" not in skip:
                cost(redis_port, samples=100 if quick else 300)
            if "sse" not in skip:
                sse(redis_port, seconds=8 if quick else 15)
            if "live" not in skip:
                live_loop(redis_port, seconds=15 if quick else 30)
            if "channel" not in skip:
                channel_cost(seconds=5 if quick else 15)
            if "flood" not in skip:
                flood_isolation(redis_port, seconds=5 if quick else 12)
        finally:
            bs.stop(redis_proc)
    if "domain" not in skip:
        domain_speed(games=50 if quick else 200)
    if "workers" not in skip:
        bot_precision(quick)
    if "idle" not in skip:
        idle_cpu(quick)
    if "durability" not in skip:
        durability(kills=3 if quick else 6)
    if "failover" not in skip:
        failover(failovers=3 if quick else 5, cuts=(0.0,) if quick else (0.0, 0.5))
    if "memory" not in skip:
        memory_figures()
    if "capacity" not in skip:
        capacity(quick)
    print(f"\nspitlog benchmarks, {time.strftime('%Y-%m-%d')}: {machine()}; absolute figures "
          f"are this machine's; load average {load0:.2f} at start, "
          f"{os.getloadavg()[0]:.2f} at the end; {time.time() - started:.0f} s\n")  # fmt: skip
    print(table())


if __name__ == "__main__":
    main()
