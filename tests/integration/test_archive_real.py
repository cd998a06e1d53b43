"""The archive for real: real RQ workers and the scheduler as subprocesses on
the session's redis-server, archiving to a real S3 server (SeaweedFS); the API in
process. Finished games go to S3 and, after a short retention, leave Redis entirely;
an unreachable archive keeps them in Redis and is retried; workers SIGKILLed again and
again while games finish lose nothing and write no object twice with other bytes."""

import itertools
import random
import threading
import time
from collections import defaultdict

import pytest
import redis

from domain.audit import verify
from domain.export import from_ndjson
from service.archive import games as games_archive
from service.archive.s3 import S3Archive
from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game, play_to_the_end
from tests.support.keys import keys_naming
from tests.support.workers_procs import Procs, killed_at, wait_for_workers
from workers.schedule import PLAN, Schedule, Scheduler, archive_slot

pytestmark = pytest.mark.redis

PACE = 0.05
ENV = {
    "SPITLOG_BOT_PACE": str(PACE),
    "SPITLOG_TRACE": "1",
    "SPITLOG_STALL_S": "1.0",
    "SPITLOG_SWEEP_S": "0.2",
    "SPITLOG_REMATCH_S": "0.5",  # a finished game is archived once its rematch asks end
    "SPITLOG_WORKER_LOG_LEVEL": "WARNING",
}
OVER = ("finished", "aborted")
_runs = itertools.count()


def wait_until(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"{what}: not in {timeout} s")
        time.sleep(0.05)


@pytest.fixture
def run(redis_url, s3_server, tmp_path):
    """A fresh Redis, a bucket prefix of its own, and a way to start the processes."""
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    prefix = f"run{next(_runs)}-{time.monotonic_ns()}"
    url = s3_server.bucket("spitlog") + "/" + prefix
    procs: list[Procs] = []

    def start(workers=("w0",), slow=False, **env) -> Procs:
        p = Procs({**ENV, **s3_server.env, "SPITLOG_REDIS_URL": redis_url,
                   "SPITLOG_ARCHIVE_URL": url, "TEST_PUT_LOG": str(tmp_path / "puts.log"),
                   **env}, tmp_path / f"procs{len(procs)}")  # fmt: skip
        procs.append(p)
        for name in workers:
            p.start(name, "slow-worker" if slow else "worker")
        p.start("scheduler", "scheduler")
        wait_for_workers(redis_url, len(workers))
        return p

    archive = S3Archive("spitlog", prefix, client=s3_server.client())
    schedule = Schedule(r)
    app = create_app(app_settings(redis_url=redis_url), archive=archive,
                     scheduler=Scheduler(schedule, pace=PACE))  # fmt: skip
    ns = type("Run", (), {})()
    ns.r, ns.archive, ns.app, ns.start, ns.tmp = r, archive, app, start, tmp_path
    ns.redis_url = redis_url
    ns.url, ns.s3 = url, s3_server
    ns.client = app.test_client()
    try:
        yield ns
    finally:
        for p in procs:
            p.stop()


def test_finished_games_go_to_s3_and_leave_redis_after_the_retention(run):
    run.start(SPITLOG_RETAIN_S="1.5")
    client = run.client
    played = []
    for seed in range(3):
        gid, t0, t1 = new_game(client, options={"max_rounds": 1}, client_seed=f"c{seed}")
        play_to_the_end(client, gid, t0, t1, rng_seed=seed)
        export = client.get(f"/v1/games/{gid}/export").data  # from Redis: it is still there
        played.append((gid, t0, export))
    running, r0, _r1 = new_game(client)
    for gid, _t0, _export in played:
        wait_until(lambda g=gid: not keys_naming(run.r, g), 30, f"{gid} out of Redis")
    fresh = create_app(app_settings(redis_url=run.redis_url), archive=run.archive).test_client()
    for gid, t0, export in played:
        got = run.archive.read(gid)
        assert got is not None and got.record["audit"]["ok"]
        assert got.record["export"]["key"].startswith("games/20")
        assert fresh.get(f"/v1/games/{gid}/export").data == export
        assert fresh.get(f"/v1/games/{gid}", headers=bearer(t0)).status_code == 200
    keys = sorted(run.archive.keys(""))
    assert len(keys) == 3 * len(played)  # export, record, pointer: each once
    # the game that runs on is untouched
    assert client.get(f"/v1/games/{running}", headers=bearer(r0)).status_code == 200
    assert run.archive.read(running) is None
    # the bulk audit and the monthly dump read the bucket as a user types them
    import os
    import re
    import subprocess
    import sys

    env = {**os.environ, **run.s3.env}
    audit = subprocess.run([sys.executable, "-m", "service.cli", "audit", run.url],
                           capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert audit.returncode == 0, audit.stderr
    assert re.search(rf": {len(played)} games, \d+ events, 0 failed; ", audit.stdout)
    month = keys[0].split("/")[1] + "-" + keys[0].split("/")[2]
    out = run.tmp / "month.ndjson.zst"
    dump = subprocess.run([sys.executable, "-m", "service.cli", "dump", "--month", month,
                           str(out), "--archive", run.url], capture_output=True, text=True,
                          env=env, timeout=120)  # fmt: skip
    assert dump.returncode == 0, dump.stderr
    assert out.exists() and (run.tmp / "month.ndjson.zst.sha256").exists()


def test_an_unreachable_archive_keeps_the_game_and_is_retried_with_backoff(run, s3_server):
    from tests.support.processes import free_port

    down = run.start(
        SPITLOG_RETAIN_S="0", SPITLOG_S3_ENDPOINT_URL=f"http://127.0.0.1:{free_port()}"
    )
    client = run.client
    gid, t0, t1 = new_game(client, options={"max_rounds": 1})
    play_to_the_end(client, gid, t0, t1)
    before = {k for k in keys_naming(run.r, gid) if k.startswith("spit:")}
    schedule = Schedule(run.r)

    def failed_runs():  # (after the first: ``waiting`` out the rematch asks)
        return [t for t in schedule.read_trace() if t["kind"] == "arc" and t["game"] == gid
                and t["outcome"] != "waiting"]  # fmt: skip

    def retried():
        return any(int(t["attempt"]) >= 1 for t in failed_runs())

    wait_until(retried, 30, "a failed archive job tried again")
    first = [t for t in schedule.read_trace() if t["kind"] == "arc" and t["game"] == gid][0]
    assert first["outcome"] == "waiting"  # the rematch asks first
    runs = failed_runs()
    assert len(runs) >= 2 and all(t["outcome"] == "failed" for t in runs)
    attempts = [int(t["attempt"]) for t in runs]
    assert attempts == sorted(attempts)  # (a job the sweeper saw running long may run twice)
    again = next(t for t in runs if int(t["attempt"]) == 1)
    before_it = max(float(t["end"]) for t in runs if int(t["attempt"]) == 0)
    assert float(again["start"]) - before_it >= 900  # backed off a second (then 2, 4, ...)
    assert {k for k in keys_naming(run.r, gid) if k.startswith("spit:")} == before  # all there
    assert run.app.extensions["spitlog"].store.game_record(gid).archived is None
    down.stop()
    run.start(workers=("w1",), SPITLOG_RETAIN_S="0")  # the archive is back
    wait_until(lambda: not keys_naming(run.r, gid), 30, "archived and deleted once it is back")
    assert run.archive.read(gid).record["audit"]["ok"]


def test_a_game_no_retry_can_archive_fails_once_and_waits_for_its_operator(run):
    """Real workers, scheduler and sweeper, S3: a game whose pointer key already holds
    another game's in the archive (an object that is never overwritten) cannot be
    archived however often its job runs. Its job records it as failed for good with the
    reason, logs one error and stops: while another finished game, whose archive slot
    only the sweeper arms, goes all the way out of Redis, the failed one is not run
    again. ``spitlog admin failed`` names it; once the object is moved aside, ``spitlog
    admin archive`` archives it, and the workers take it out of Redis."""
    import os
    import subprocess
    import sys

    procs = run.start(SPITLOG_RETAIN_S="0")
    gid, t0, t1 = new_game(run.client, options={"max_rounds": 1})
    other_record = b"games/2000/01/g_0000000000000000.json"
    run.archive.put(games_archive.pointer_key(gid), other_record)  # not this game's
    play_to_the_end(run.client, gid, t0, t1)
    schedule = Schedule(run.r)
    wait_until(lambda: schedule.archive_failure(gid) is not None, 60, "the failure recorded")
    assert "ArchiveConflict" in schedule.archive_failure(gid)["why"]
    # a finished game whose archive slot nothing armed (no scheduler in this API): only a
    # sweep of the archives sends it out of Redis, and that sweep sees the failed one too
    quiet = create_app(app_settings(redis_url=run.redis_url), archive=run.archive).test_client()
    other, o0, o1 = new_game(quiet, options={"max_rounds": 1})
    play_to_the_end(quiet, other, o0, o1)
    wait_until(lambda: not keys_naming(run.r, other), 60, f"{other} out of Redis")

    runs = [t for t in schedule.read_trace() if t["kind"] == "arc" and t["game"] == gid
            and t["outcome"] != "waiting"]  # fmt: skip
    # one run (two if the sweeper took the job, claimed long before, for lost just as it
    # failed: the failure is recorded once all the same)
    assert 1 <= len(runs) <= 2 and {t["outcome"] for t in runs} == {"unarchivable"}
    assert schedule.status([archive_slot(gid)]) == [(None, None)]  # nothing runs it again
    assert keys_naming(run.r, gid)  # in Redis, whole
    logged = (procs.logdir / "w0.log").read_text()
    assert logged.count(f"archiving {gid} failed for good") == 1

    env = {**os.environ, **run.s3.env, "SPITLOG_REDIS_URL": run.redis_url,
           "SPITLOG_ARCHIVE_URL": run.url, "SPITLOG_REMATCH_S": "0.5"}  # fmt: skip

    def admin(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "service.cli", "admin", *args],
                              capture_output=True, text=True, env=env, timeout=120)  # fmt: skip

    listed = admin("failed")
    assert listed.returncode == 0 and listed.stdout.startswith(f"{gid}  "), listed
    assert "ArchiveConflict" in listed.stdout and "1 games" in listed.stderr
    assert admin("archive", gid).returncode == 1  # not fixed yet: refused, still failed
    run.s3.client().delete_object(Bucket="spitlog", Key=run.archive.prefix + f"ids/{gid}")
    done = admin("archive", gid)
    assert done.returncode == 0 and f"{gid}: archived" in done.stdout, done
    wait_until(lambda: not keys_naming(run.r, gid), 60, "out of Redis once archived")
    assert run.archive.read(gid).record["audit"]["ok"]
    assert admin("failed").stderr.startswith("0 games")


@pytest.mark.timeout(600)  # its own waits (150 s of chaos, then the sweeper's) name what failed
def test_workers_killed_while_games_finish_lose_nothing_and_rewrite_nothing(run, redis_url):
    """Chaos: slow workers (tests/support/slow_worker.py) are killed at named points of
    the archive job, each point twice, by the workers themselves (``TEST_KILL_AT``):
    before an object is written, with every object written and the game not yet marked
    archived, and right before an archived game is deleted from Redis; on top of these,
    24 SIGKILLs from outside every 0.2-0.6 s (every other one aimed at an archive job if
    one runs) and two of the scheduler, while bot games play and finish and are archived
    with a retention of 0.3 s. Meanwhile every game answers 200 at every look (in Redis
    or in the archive, readable either way). Once the kills stop, every game leaves
    Redis entirely; its archived export is the one the API gave when it first saw the
    game over, and verifies; no object key was ever written with two contents."""
    workers = ["c0", "c1", "c2"]
    kill_dir = run.tmp / "kills"
    kill_dir.mkdir()
    forced = {"arc.put": 2, "arc.mark": 2, "arc.delete": 2}
    procs = run.start(workers=workers, slow=True, SPITLOG_RETAIN_S="0.3",
                      TEST_KILL_AT=",".join(f"{p}={n}" for p, n in forced.items()),
                      TEST_KILL_DIR=str(kill_dir))  # fmt: skip
    client = run.client
    games = [client.post("/v1/games", json=body).get_json()["id"] for body in [
        *({"game": "speed", "seat0": "bot:hard", "opponent": f"bot:{lvl}"}
          for lvl in ("hard", "medium", "easy", "random")),
        *({"game": "spit", "seat0": "bot:hard", "opponent": "bot:hard",
           "options": {"stockpiles": 4, "max_rounds": 2}} for _ in range(2)),
    ]]  # fmt: skip
    rng = random.Random(5)
    stop = threading.Event()
    kills = [0]
    hits = defaultdict(int)  # kills that found their kind of job running

    def chaos():  # 24 kills, every other one aimed at an archive job if one runs
        while kills[0] < 24 and not (stop.is_set() and kills[0] >= 20):
            time.sleep(rng.uniform(0.2, 0.6))
            aim = "arc|" if kills[0] % 2 else ""
            hits[aim] += procs.kill_a_worker(redis_url, workers, 0.5, rng, aim)
            kills[0] += 1
            if kills[0] in (6, 14):
                procs.restart("scheduler", "scheduler")

    with procs.reviving(workers):  # those killed at a forced point start again
        killer = threading.Thread(target=chaos)
        killer.start()
        start = time.monotonic()
        first_export: dict[str, bytes] = {}
        statuses = defaultdict(set)
        try:
            end = time.monotonic() + 150
            while time.monotonic() < end:
                for gid in games:
                    resp = client.get(f"/v1/games/{gid}")
                    statuses[gid].add(resp.status_code)
                    if resp.status_code == 200 and resp.get_json()["status"] in OVER:
                        first_export.setdefault(gid, client.get(f"/v1/games/{gid}/export").data)
                over = len(first_export) == len(games)
                if over and all(not keys_naming(run.r, g) for g in games):
                    break
                time.sleep(0.1)
        finally:
            stop.set()
            killer.join(120)
        assert not killer.is_alive(), "the chaos did not stop"
        assert kills[0] >= 20
        assert {g: s for g, s in statuses.items() if s != {200}} == {}  # never lost, never a 5xx
        for gid in games:  # the sweeper brings back what the kills lost (120 s: a loaded CI
            # machine once took over 60; the keys left are named if it fails)
            try:
                wait_until(lambda g=gid: not keys_naming(run.r, g), 120, f"{gid} out of Redis")
            except pytest.fail.Exception:
                pytest.fail(f"{gid} still in Redis: {keys_naming(run.r, gid)}; "
                            f"the plans: {run.r.hgetall(PLAN)}")  # fmt: skip
    fresh = create_app(app_settings(redis_url=redis_url), archive=run.archive).test_client()
    for gid in games:
        export = fresh.get(f"/v1/games/{gid}/export").data
        assert export == first_export[gid]
        header, events = from_ndjson(export.decode())
        assert verify(events, bytes.fromhex(header["server_seed"])).ok
    written = defaultdict(set)
    for line in (run.tmp / "puts.log").read_text().splitlines():
        key, digest = line.split()
        written[key].add(digest)
    assert {k: d for k, d in written.items() if len(d) > 1} == {}
    assert sorted(run.archive.keys("")) == sorted(written)
    assert len(written) == 3 * len(games)
    # every forced kill happened: archive jobs died at each named point, and were re-run
    assert {p: killed_at(kill_dir, p) for p in forced} == forced
    took = time.monotonic() - start
    print(
        f"{kills[0]} kills ({dict(hits)} found a job), forced {forced}, "
        f"all out of Redis in {took:.1f} s"
    )


def test_init_archive_makes_the_bucket_once_and_says_why_it_cannot(s3_server, tmp_path):
    """`spitlog admin init-archive` (docker-compose.yml's archive-init) on a real S3: a new
    bucket is made, then found ready; keys the server does not know are one line, exit 2,
    once --wait is over."""
    import os
    import subprocess
    import sys

    bucket = f"init-{time.monotonic_ns()}"
    env = {**os.environ, **s3_server.env, "SPITLOG_ARCHIVE_URL": f"s3://{bucket}/archive"}

    def init(**more):
        return subprocess.run([sys.executable, "-m", "service.cli", "admin", "init-archive",
                               "--wait", "0"], capture_output=True, text=True, timeout=120,
                              env={**env, **more})  # fmt: skip

    first, again = init(), init()
    assert first.returncode == 0, first.stderr
    assert first.stdout == f"the archive s3://{bucket}/archive/ is ready (its bucket made)\n"
    assert (again.returncode, again.stdout) == (0, f"the archive s3://{bucket}/archive/ is ready\n")
    s3_server.client().head_bucket(Bucket=bucket)
    refused = init(AWS_SECRET_ACCESS_KEY="not-the-secret")
    assert (refused.returncode, refused.stdout) == (2, ""), refused
    assert len(refused.stderr.splitlines()) == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith(f"spitlog: the archive is not ready: cannot reach the bucket "
                                     f"of s3://{bucket}/archive/")  # fmt: skip
