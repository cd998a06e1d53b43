"""RULES T-4 and T-6 with real RQ workers and the scheduler (subprocesses) on a real
redis-server: a hosted bot whose decision the service fails to run is never forfeited.

A worker stops itself (SIGSTOP) in the bot's first decision (slow_worker.py's
``TEST_STOP_AT``), holding that job: the fault is forced, not hoped for. With the
sweeper's re-arm due later than the table's ``idle_forfeit_s``, nothing else plays the
bot's seat, and the other worker's deadline job aborts the game under T-6 (by the
service, saying why); with the sweeper's usual re-arm, the other worker plays the
decision and the game goes on.
"""

import os
import signal
import time
from pathlib import Path

import pytest
import redis

from service.http.app import create_app
from tests.support.api import app_settings
from tests.support.workers_procs import Procs, stopped_at, wait_for_workers
from workers.schedule import Schedule, Scheduler

pytestmark = pytest.mark.redis

PACE = 0.05


def _state(pid: int) -> str:
    """The process's state letter (``T``: stopped), or '' once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return ""


def wait_until(condition, timeout: float, what: str):
    """``condition()``'s first true answer, looked at every 50 ms; fails after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        got = condition()
        if got:
            return got
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(0.05)


@pytest.fixture
def stack(redis_url, tmp_path):
    """``start(stall_s)``: two slow workers (the first to reach a bot's decision stops
    there) and the scheduler with that stall, and an app whose appends arm them: (app,
    the schedule, the folder of the forced stops). Every process ends after the test, a
    stopped one continued first."""
    redis.Redis.from_url(redis_url).flushall()
    kill_dir = tmp_path / "kills"
    kill_dir.mkdir()
    started: list[Procs] = []

    def start(stall_s: float):
        procs = Procs({"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BOT_PACE": str(PACE),
                       "SPITLOG_TRACE": "1", "SPITLOG_SWEEP_S": "0.2",
                       "SPITLOG_STALL_S": str(stall_s), "SPITLOG_WORKER_LOG_LEVEL": "WARNING",
                       "TEST_STOP_AT": "bot.decide=1", "TEST_KILL_DIR": str(kill_dir)},
                      tmp_path / "logs")  # fmt: skip
        started.append(procs)
        for name in ("c0", "c1"):
            procs.start(name, "slow-worker")
        procs.start("scheduler", "scheduler")
        wait_for_workers(redis_url, 2)
        schedule = Schedule(redis.Redis.from_url(redis_url))
        app = create_app(app_settings(redis_url=redis_url),
                         scheduler=Scheduler(schedule, pace=PACE))  # fmt: skip
        return app, schedule, kill_dir

    try:
        yield start
    finally:
        for pid in stopped_at(kill_dir, "bot.decide"):
            if _state(pid):
                os.kill(pid, signal.SIGCONT)
        for procs in started:
            procs.stop()


def _game(client, idle_s: float) -> str:
    """A Speed game of a hosted bot (seat 0) and a person who joins seat 1 and then never
    acts: the deal arms the bot's first decision, its ready, and nothing arms another;
    both clocks run from the deal, the bot's sorting first (``idle_s``: the table's
    idle_forfeit_s)."""
    options = {"idle_forfeit_s": idle_s, "ready_grace_s": 600}
    r = client.post("/v1/games", json={"game": "speed", "seat0": "bot:easy",
                                       "opponent": "human", "options": options})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["id"]
    r = client.post(f"/v1/games/{gid}/seats", json={})
    assert r.status_code == 201, r.get_json()
    return gid


def _events(client, gid: str) -> list[dict]:
    return client.get(f"/v1/games/{gid}/events?limit=1000").get_json()["events"]


def _stopped(kill_dir) -> int:
    """The pid of the worker stopped in the bot's decision, once it is stopped."""
    pids = stopped_at(kill_dir, "bot.decide")
    return pids[0] if pids and _state(pids[0]) == "T" else 0


@pytest.mark.timeout(120)
def test_T6_a_bot_whose_worker_stopped_longer_than_idle_forfeit_s_is_not_forfeited(stack):
    """T-4, T-6: the bot's first decision is held by a stopped worker, and the sweeper's
    re-arm comes later than ``idle_forfeit_s`` (5 s): the service failed to run the bot's
    decisions for that long. The other worker's deadline job aborts the game under T-6
    (no winner, by the service, why in the log); the bot is not forfeited. Let go, the
    stopped job finds the game over and changes nothing."""
    app, schedule, kill_dir = stack(stall_s=600)
    client = app.test_client()
    gid = _game(client, idle_s=5)
    pid = wait_until(lambda: _stopped(kill_dir), 30, "a worker stopped in the bot's decision")
    view = wait_until(
        lambda: (v := client.get(f"/v1/games/{gid}").get_json())["status"] != "running" and v,
        30, "the game's end",
    )  # fmt: skip
    assert (view["status"], view["result"], view["winner"]) == ("aborted", "T-6", None), view
    why = "the service could not run seat 0's decisions for 5 s"
    assert view["aborted"] == {"by": "service", "why": why}
    log = _events(client, gid)
    assert [(e["type"], e.get("rule"), e.get("seat")) for e in log[-2:]] == [
        ("deadline_expired", "T-6", 0), ("game_aborted", None, None)]  # fmt: skip
    assert log[-1]["reason"] == "T-6" and (log[-1]["by"], log[-1]["why"]) == ("service", why)
    assert not any(e["type"] == "game_ended" for e in log)
    assert not any(e["type"] == "player_ready" for e in log)  # the bot never acted
    # no earlier than the bot's clock allowed: the deal, plus idle_forfeit_s
    dealt = next(e for e in log if e["type"] == "speed_dealt")
    assert log[-1]["at"] >= dealt["at"] + 5
    assert client.get(f"/v1/games/{gid}/audit").get_json()["verified"] is True
    version = view["version"]
    os.kill(pid, signal.SIGCONT)  # the held job goes on: the game is over, it does nothing
    trace = wait_until(
        lambda: [t for t in schedule.read_trace() if t["kind"] == "bot" and t["game"] == gid],
        20, "the held bot job's end",
    )  # fmt: skip
    assert [t["outcome"] for t in trace] == ["stale"]
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version


@pytest.mark.timeout(120)
def test_T4_a_bot_decision_lost_for_less_than_idle_forfeit_s_is_played_by_the_sweeper(stack):
    """T-4, T-6, the usual case: the bot's first decision is held by a stopped worker,
    and the sweeper re-arms it after its stall (0.5 s): the other worker plays it well
    within ``idle_forfeit_s``, and the game goes on, not aborted. The table's clock
    (3600 s, the person's T-4 as the bot's T-6) is far longer than the test waits for the
    bot (60 s at most), so that a slow machine cannot end the game by either clock
    first."""
    app, _schedule, kill_dir = stack(stall_s=0.5)
    client = app.test_client()
    gid = _game(client, idle_s=3600)
    pid = wait_until(lambda: _stopped(kill_dir), 30, "a worker stopped in the bot's decision")
    wait_until(
        lambda: any(e["type"] == "player_ready" and e["seat"] == 0 and e.get("by") is None
                    for e in _events(client, gid)),
        60, "the bot's ready",
    )  # fmt: skip
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["status"] == "running" and view["aborted"] is None, view
    os.kill(pid, signal.SIGCONT)
    wait_until(lambda: _state(pid) != "T", 10, "the stopped worker going on")
