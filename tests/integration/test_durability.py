"""Durability: what Redis keeps of the actions the service acknowledged.

On one node: bench/fault_durability.py's scenario, 20 SIGKILLs of a real redis-server
with AOF (and more until the clients have had 500 actions acknowledged: a busy machine
plays less between two kills) while four clients play through the service's append
path; each restart recovers from the AOF. The figures print with ``-s``.

With a replica under Redis Sentinel (``tests.support.redis_server.Replicated``): the
primary is SIGKILLed and the Sentinels promote its replica. The replica is cut off first
(``Replicated.cut``), so that the primary holds writes the replica lacks whatever the
timing: in default mode an acknowledged action is lost in the failover; in strict mode
the action is never acknowledged (503), and nothing acknowledged is lost. The API (in
process) and the workers (subprocesses) follow the failover through the
``redis+sentinel://`` URL.
"""

import random
import shutil
import sys
import time
from pathlib import Path

import pytest
import redis

from service.http.app import create_app
from service.store.connect import client as connect
from tests.support.api import (
    act,
    app_settings,
    bearer,
    new_game,
    pick,
    problem_of,
    streaming,
    watched,
)
from tests.support.redis_server import Replicated
from tests.support.workers_procs import Procs, wait_for_workers
from workers.schedule import Schedule, Scheduler

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (apt-get install redis-server)"
)


@pytest.mark.timeout(900)  # the run's own deadline is 600 s
def test_strict_mode_loses_no_acknowledged_action_across_20_kills():
    from fault_durability import run

    r = run("strict", kills=20, clients=4, every=0.3, min_acked=500, deadline_s=600)
    print(r)
    assert r["kills"] >= 20
    assert r["acknowledged"] >= 500  # the clients really played through the kills
    assert r["lost"] == 0
    assert r["logs_with_gaps"] == 0


@pytest.mark.timeout(900)
def test_default_mode_survives_process_kills_too():
    """everysec write()s before replying, so a killed process loses nothing either; only a
    host crash can cost up to a second (README, Deploying)."""
    from fault_durability import run

    r = run("default", kills=5, clients=2, every=0.3, min_acked=100, deadline_s=600)
    print(r)
    assert r["kills"] >= 5 and r["acknowledged"] >= 100
    assert r["lost"] == 0
    assert r["logs_with_gaps"] == 0


# ---------------------------------------------------------------- a failover


@pytest.fixture
def replicated(tmp_path):
    """A primary with AOF (``appendfsync always``: strict's local half on Redis < 7.2),
    one replica, three Sentinels."""
    r = Replicated(str(tmp_path), "--appendonly", "yes", "--appendfsync", "always")
    try:
        yield r
    finally:
        r.stop()


def _playing(client):
    """A Spit game, both seats ready: (id, tokens, the versions acknowledged so far)."""
    gid, t0, t1 = new_game(client)
    for n, tok in enumerate((t0, t1)):
        r = act(client, gid, tok, {"type": "ready"}, **{"Idempotency-Key": f"ready-{n}-{gid}"})
        assert r.status_code == 201, r.get_json()
    return gid, (t0, t1), r.get_json()["version"]


def _a_move(client, gid, tokens) -> tuple[int, dict]:
    """A seat with a legal action, and the action."""
    for seat in (0, 1):
        view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
        action = pick(view, random.Random(seat))
        if action is not None:
            return seat, action
    raise AssertionError("no legal action for either seat")


def _fail_over(replicated) -> int:
    """SIGKILL the primary and wait for the Sentinels to promote its replica: the old
    primary's port."""
    old = replicated.primary()
    replicated.kill(old)
    replicated.wait_promoted(old)
    return old


def test_default_mode_loses_an_acknowledged_action_the_replica_lacked(replicated):
    """The price of not waiting: an action answered 201 by a primary whose replica had not
    received it is gone once the replica is promoted (Redis replicates asynchronously).
    The replica is cut off before the action, so the loss does not hang on timing."""
    app = create_app(app_settings(redis_url=replicated.url()))
    client = app.test_client()
    gid, tokens, version = _playing(client)
    replicated.cut()
    seat, action = _a_move(client, gid, tokens)
    r = act(client, gid, tokens[seat], action)
    assert r.status_code == 201, r.get_json()  # acknowledged, on the primary alone
    assert r.get_json()["version"] > version
    _fail_over(replicated)
    # the same API process, no restart: it asks the Sentinels for the new primary
    view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
    assert view["version"] == version  # the acknowledged action is lost


def test_strict_mode_never_acknowledges_what_the_replica_lacks_and_loses_nothing(replicated):
    """Strict durability waits for the replica (``WAIT 1``; ``WAITAOF 1 1`` on Redis 7.2+)
    before an answer: with the replica cut off the action is written on the primary but
    answered 503 with Retry-After, and so is its retry with the same Idempotency-Key
    (the record is there, the replica still lacks it). The primary dies, the replica is
    promoted: every acknowledged action is there. The new primary has no replica, so a
    retry is refused until one comes back; then it makes the action anew (201)."""
    # 2 s: plenty for a replica on loopback to take a write; short enough that the
    # replica, cut off for two such waits, is still one the Sentinels may promote
    app = create_app(
        app_settings(redis_url=replicated.url(), durability="strict", durability_wait_s=2)
    )
    assert app.extensions["spitlog"].store.replicas == 1  # a Sentinel URL: one, by default
    client = app.test_client()
    gid, tokens, version = _playing(client)
    replicated.cut()
    seat, action = _a_move(client, gid, tokens)
    key = {"Idempotency-Key": f"after-the-cut-{gid}"}
    for _try in range(2):  # the first answer, then the retry that finds its record
        r = act(client, gid, tokens[seat], action, **key)
        problem = problem_of(r, 503)
        assert r.headers["Retry-After"] == "1"
        assert "Idempotency-Key" in problem["detail"]
    store = app.extensions["spitlog"].store
    assert store.version(gid) > version  # written on the primary, never acknowledged

    old = _fail_over(replicated)
    view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
    assert view["version"] == version  # nothing acknowledged is missing
    r = act(client, gid, tokens[seat], action, **key)  # no replica yet: not confirmed
    problem_of(r, 503)
    replicated.restart_as_replica(old)  # synced: it holds the retry's write and record
    r = act(client, gid, tokens[seat], action, **key)
    assert r.status_code == 201, r.get_json()
    assert r.headers.get("Idempotent-Replayed") == "true"
    assert r.get_json()["version"] == store.version(gid) > version


def test_the_workers_follow_a_failover_that_lands_in_a_job(tmp_path):
    """`spitlog worker` and `spitlog scheduler` on the Sentinel URL: a game of two bots
    goes on to its end across a failover, with no process restarted. The primary is
    killed while the worker holds a job (a bot's move appended, its next turns not yet
    armed: ``slow_worker.py``'s hold at ``bot.hook``), and the Sentinels promote the
    replica only once the worker has found Redis gone in the middle of that job, which
    RQ's worker quits on."""
    hold = tmp_path / "hold"
    hold.mkdir()
    # the Sentinels would take a minute to see the primary down: the test fails it over
    replicated = Replicated(str(tmp_path / "redis"), down_after_ms=60_000)
    procs = Procs(
        {"SPITLOG_REDIS_URL": replicated.url(), "SPITLOG_BOT_PACE": "0.05",
         "SPITLOG_STALL_S": "1.0", "SPITLOG_SWEEP_S": "0.2",
         "SPITLOG_WORKER_LOG_LEVEL": "WARNING", "TEST_HOLD_AT": "bot.hook",
         "TEST_HOLD_DIR": str(hold)},
        tmp_path / "workers",
    )  # fmt: skip
    try:
        procs.start("w0", "slow-worker")
        procs.start("scheduler", "scheduler")
        wait_for_workers(f"redis://127.0.0.1:{replicated.primary()}/0", 1)
        url = replicated.url()
        app = create_app(
            app_settings(redis_url=url), scheduler=Scheduler(Schedule(connect(url)), pace=0.05)
        )
        client = app.test_client()
        r = client.post("/v1/games", json={"game": "speed", "seat0": "bot:easy",
                                           "opponent": "bot:random"})  # fmt: skip
        assert r.status_code == 201, r.get_json()
        gid = r.get_json()["id"]
        _wait(lambda: (hold / "bot.hook.held").exists(), 60)
        old = replicated.primary()
        replicated.kill(old)
        (hold / "bot.hook.go").touch()
        # the fault, forced: RQ's worker quits its loop on Redis gone in a job
        _wait(lambda: "found an unhandled exception, quitting" in procs.log("w0"), 60)
        replicated.failover()
        replicated.wait_promoted(old)
        replicated.restart_as_replica(old)
        view = _wait(lambda: _over(client, gid), 120)
        assert view["status"] == "finished", view["result"]
        assert view["result"] not in ("T-4", "T-5")  # the bots played it out
        assert all(procs.alive().values()), procs.alive()  # the same processes, followed
    finally:
        procs.stop()
        replicated.stop()


def _over(client, gid):
    v = client.get(f"/v1/games/{gid}").get_json()
    return v if v["status"] in ("finished", "aborted") else None


def _wait(condition, timeout: float):
    """``condition()``'s first true answer (asked every 0.1 s); fails after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        try:
            got = condition()
        except redis.RedisError:
            got = None
        if got:
            return got
        if time.monotonic() > end:
            pytest.fail("it did not happen in time")
        time.sleep(0.1)


def test_a_live_stream_goes_on_across_a_failover(replicated):
    """An SSE stream opened before the failover gets the action made after it, on the
    new primary: the live hub's Pub/Sub connection finds the primary the Sentinels name."""
    app = create_app(app_settings(redis_url=replicated.url(), sse_max_s=120))
    client = app.test_client()
    gid, tokens, version = _playing(client)
    _thread, got = streaming(app, gid, tokens[1], until=f"id: {version + 1}")
    watched(app.extensions["spitlog"].hub, gid, version)
    _fail_over(replicated)
    seat, action = _a_move(client, gid, tokens)
    r = act(client, gid, tokens[seat], action)
    assert r.status_code == 201, r.get_json()
    _wait(lambda: f"id: {version + 1}" in got, 60)
