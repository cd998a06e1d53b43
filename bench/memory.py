"""Redis memory of a game: the bytes per event of a live game, and the keys a
finished game leaves behind after its retention.

    PYTHONPATH=. python bench/memory.py                 # a short and a long game
    PYTHONPATH=. python bench/memory.py --rounds 2,60 --seed 3 --games 4 --snapshot-every 50

A Spit game is played through the real API in-process (``create_app`` with a real
redis-server, Flask's test client), random legal actions of both seats, each POST with
its own ``Idempotency-Key`` (a UUID, as a client would make), until the game is over.
The scheduler hook is the real one (``workers.schedule.Scheduler``), its keys on the
same server (the queue Redis of a one-Redis deployment); no worker runs, so no deadline
fires. Every ``sample_every`` actions and at the end, each key of the game is measured
with ``MEMORY USAGE <key> SAMPLES 0``: the game's own keys (``spit:{g:<id>}:*``, found
by SCAN), its token index keys, and the shared keys that hold it (the lobby sorted set,
the schedule's set and hash, its high-water mark). Redis is flushed before each game,
so each shared key holds that game alone and is charged whole: an upper bound of the
game's share. Bytes per event = the sum over the keys / the game's events.

The retention part finishes a game, then runs what the archive job does
(``service.archiving.Archiver`` with ``retain_s=0`` and a ``DirectoryArchive``, the
schedule's ``arm_archive``/``forget`` as ``workers.jobs.archive_game`` calls them): one
step archives, the next deletes. Then every key of the server is scanned for the game's
id, in its name or in its content (sorted set members, hash fields and values, strings,
stream entries): 0 must be left.
"""

import argparse
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

import redis

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from service.archive.directory import DirectoryArchive  # noqa: E402
from service.archiving import Archiver  # noqa: E402
from service.http.app import create_app  # noqa: E402
from service.ports import SYSTEM_ENTROPY  # noqa: E402
from tests.support.api import app_settings, bearer, pick  # noqa: E402
from tests.support.fakes import SeededEntropy  # noqa: E402
from tests.support.redis_server import start_redis, stop_redis  # noqa: E402
from workers.schedule import PREFIX as SCHED  # noqa: E402
from workers.schedule import Schedule, Scheduler  # noqa: E402

PARTS = ("log", "meta", "idem", "snap", "refused", "tokens", "lobby", "sched")
TARGET = 160  # bytes per event at most


def usage(r: redis.Redis, key) -> int:
    """``MEMORY USAGE key SAMPLES 0`` (every element counted); 0 if there is no such key."""
    return int(r.execute_command("MEMORY", "USAGE", key, "SAMPLES", 0) or 0)


def footprint(r: redis.Redis, game_id: str) -> dict[str, int]:
    """Bytes of every key of the game, by part (``PARTS``)."""
    out = dict.fromkeys(PARTS, 0)
    for key in r.scan_iter(match=f"spit:{{g:{game_id}}}:*", count=1000):
        part = key.decode().split(":", 3)[3].split(":")[0]  # idem:<n> counts as idem
        out[part if part in out else "meta"] += usage(r, key)
    for field in (b"tok0", b"tok1"):
        h = r.hget(f"spit:{{g:{game_id}}}:meta", field)
        if h:
            out["tokens"] += usage(r, b"spit:token:" + h)
    for key in r.scan_iter(match="spit:lobby:*"):
        out["lobby"] += usage(r, key)
    for key in (f"{SCHED}:due", f"{SCHED}:plan", f"{SCHED}:v:{game_id}"):
        out["sched"] += usage(r, key)
    return out


def new_game(client, max_rounds: int | None) -> tuple[str, tuple[str, str]]:
    """A Spit game, both seats taken (its server seed from the app's entropy: ``make_app``'s
    ``rng``, so that a seed of the benchmark plays the same deal again)."""
    body = {"game": "spit"}
    if max_rounds is not None:
        body["options"] = {"max_rounds": max_rounds}
    g = client.post("/v1/games", json=body).get_json()
    t1 = client.post(f"/v1/games/{g['id']}/seats", json={}).get_json()["token"]
    return g["id"], (g["token"], t1)


def idem_key(rng: random.Random) -> str:
    """A version 4 UUID, from ``rng`` (36 characters, as a client would make one)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def make_app(port: int, rng: random.Random | None = None, **settings):
    r = redis.Redis(port=port)
    scheduler = Scheduler(Schedule(r))
    entropy = SeededEntropy(rng) if rng is not None else SYSTEM_ENTROPY
    app = create_app(app_settings(**settings), redis_client=r, scheduler=scheduler,
                     entropy=entropy)  # fmt: skip
    return app, r, scheduler


def play(
    port: int,
    *,
    max_rounds: int | None = None,
    seed: int = 1,
    stale: float = 0.0,
    sample_every: int = 20,
    max_steps: int = 50_000,
    **settings,
) -> dict:
    """One Spit game played to its end, every action keyed (``stale``: the share of
    actions picked from the seat's view before, which the rules may refuse): its
    footprint at the end (``parts``, ``bytes``, ``events``, ``per_event``), the largest
    bytes per event from its 100th event on (``max_per_event``), the footprint every
    ``sample_every`` actions (``curve``: (events, bytes)), the idempotency hashes'
    encodings at the end."""
    rng = random.Random(seed)
    app, r, _s = make_app(port, rng, **settings)
    r.flushall()
    client = app.test_client()
    gid, tokens = new_game(client, max_rounds)
    actions = refused = 0
    curve: list[tuple[int, int]] = []
    before: list[dict | None] = [None, None]  # each seat's view before
    t0 = time.perf_counter()
    for _step in range(max_steps):
        seat = rng.randrange(2)
        view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
        if view["status"] in ("finished", "aborted"):
            break
        old, before[seat] = before[seat], view
        a = pick(old if stale and old is not None and rng.random() < stale else view, rng)
        if a is None:
            continue
        resp = client.post(
            f"/v1/games/{gid}/actions", json=a,
            headers={**bearer(tokens[seat]), "Idempotency-Key": idem_key(rng)},
        )  # fmt: skip
        actions += 1
        refused += resp.status_code != 201
        if actions % sample_every == 0:
            curve.append((r.xlen(f"spit:{{g:{gid}}}:log"), sum(footprint(r, gid).values())))
    else:
        raise RuntimeError(f"the game did not end in {max_steps} steps")
    took = time.perf_counter() - t0
    events = view["version"]
    parts = footprint(r, gid)
    total = sum(parts.values())
    curve.append((events, total))
    idem_keys = list(r.scan_iter(match=f"spit:{{g:{gid}}}:idem*"))
    encodings = sorted({r.object("encoding", k).decode() for k in idem_keys})
    return {
        "game": gid, "status": view["status"], "events": events, "actions": actions,
        "refused": refused, "parts": parts, "bytes": total, "per_event": total / events,
        "max_per_event": max(b / v for v, b in curve if v >= min(100, events)),
        "max_bytes": max(b for _v, b in curve), "curve": curve,
        "idem_encoding": encodings, "idem_keys": len(idem_keys), "seconds": took,
    }  # fmt: skip


def mentions(r: redis.Redis, game_id: str) -> list[str]:
    """Every key of the server whose name or content mentions ``game_id``."""
    needle = game_id.encode()
    found = []
    for key in r.scan_iter(count=1000):
        if needle in key:
            found.append(key.decode())
            continue
        kind = r.type(key).decode()
        if kind == "string":
            content = [r.get(key) or b""]
        elif kind == "hash":
            content = [x for kv in r.hgetall(key).items() for x in kv]
        elif kind == "zset":
            content = r.zrange(key, 0, -1)
        elif kind == "set":
            content = list(r.smembers(key))
        elif kind == "list":
            content = r.lrange(key, 0, -1)
        elif kind == "stream":
            content = [x for _id, f in r.xrange(key) for kv in f.items() for x in kv]
        else:
            content = []
        if any(needle in c for c in content):
            found.append(key.decode())
    return found


def retention(port: int, *, max_rounds: int | None = 2, seed: int = 1, **settings) -> dict:
    """A finished game before and after its retention (``retain_s`` = 0): the keys that
    mention it and their bytes, and the outcomes of the archive steps."""
    game = play(port, max_rounds=max_rounds, seed=seed, **settings)
    gid = game["game"]
    r = redis.Redis(port=port)
    app, _r, scheduler = make_app(port, **settings)
    store = app.extensions["spitlog"].store
    schedule = scheduler.schedule
    before = mentions(r, gid)
    before_bytes = sum(usage(r, k) for k in before)
    steps = []
    with tempfile.TemporaryDirectory() as tmp:
        archiver = Archiver(store, DirectoryArchive(tmp), retain_s=0)
        for _ in range(2):  # as workers.jobs.archive_game: step, then arm again or forget
            outcome, again = archiver.step(gid)
            steps.append(outcome)
            if again is not None:
                schedule.arm_archive(gid, again * 1000)
            else:
                schedule.forget(gid)
        archived = sum(1 for _ in Path(tmp).rglob("*") if _.is_file())
    after = mentions(r, gid)
    return {
        "game": gid, "events": game["events"], "steps": steps, "archived_objects": archived,
        "before": before, "before_bytes": before_bytes,
        "after": after, "after_bytes": sum(usage(r, k) for k in after),
    }  # fmt: skip


def run(short_rounds: int = 1, long_rounds: int = 60, seed: int = 1) -> dict:
    """The figures of ``bench/run_all.py``, on a redis-server of their own: a short and a
    long game (``play``) and the retention of a finished one (``retention``)."""
    with tempfile.TemporaryDirectory() as workdir:
        proc, port = start_redis(workdir)
        try:
            return {
                "short": play(port, max_rounds=short_rounds, seed=seed),
                "long": play(port, max_rounds=long_rounds, seed=seed),
                "retention": retention(port, seed=seed),
            }
        finally:
            stop_redis(proc)


def report(g: dict, label: str) -> None:
    p, n = g["parts"], g["events"]
    print(
        f"{label}: {n} events ({g['actions']} keyed actions, {g['refused']} refused, "
        f"{g['status']}): {g['bytes']:,} bytes, {g['per_event']:.1f} bytes/event at the end, "
        f"max {g['max_per_event']:.1f} from the 100th event on; idem: {g['idem_keys']} "
        f"key(s), {'/'.join(g['idem_encoding'])}; played in {g['seconds']:.1f} s"
    )
    print("    by key: " + ", ".join(f"{k} {v:,} ({v / n:.1f})" for k, v in p.items()))
    marks, shown = [100, 200, 400, 800, 1600, 3200], []
    for v, b in g["curve"]:
        if marks and v >= marks[0]:
            shown.append(f"{v}: {b / v:.0f}")
            while marks and v >= marks[0]:
                marks.pop(0)
    if shown:
        print("    live, events: bytes/event: " + ", ".join(shown))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", default="1,60", help="max_rounds of the games, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=1, help="games of each length (seeds on)")
    ap.add_argument("--stale", type=float, default=0.0,
                    help="share of actions picked from the seat's view before")  # fmt: skip
    ap.add_argument("--snapshot-every", type=int, default=None)
    ap.add_argument("--no-retention", action="store_true")
    args = ap.parse_args()
    settings = {}
    if args.snapshot_every is not None:
        settings["snapshot_every"] = args.snapshot_every
    with tempfile.TemporaryDirectory() as workdir:
        proc, port = start_redis(workdir)
        try:
            for rounds in map(int, args.rounds.split(",")):
                for i in range(args.games):
                    g = play(port, max_rounds=rounds, seed=args.seed + i, stale=args.stale,
                             **settings)  # fmt: skip
                    report(g, f"max_rounds {rounds}, seed {args.seed + i}")
            if not args.no_retention:
                ret = retention(port, seed=args.seed, **settings)
                print(
                    f"retention (retain_s 0, {ret['events']} events; steps "
                    f"{' -> '.join(ret['steps'])}, {ret['archived_objects']} objects "
                    f"archived): before {len(ret['before'])} keys, {ret['before_bytes']:,} "
                    f"bytes; after {len(ret['after'])} keys, {ret['after_bytes']:,} bytes"
                )
                for k in ret["before"]:
                    print(f"    before: {k}")
                for k in ret["after"]:
                    print(f"    LEFT: {k}")
        finally:
            stop_redis(proc)


if __name__ == "__main__":
    main()
