"""`spitlog admin` and `spitlog health` on the session's real redis-server: the commands act
through the service's own code (use cases, store, archive, schedule), refuse what would
lose data, and answer an unknown game with exit 1 and a message, never a traceback."""

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from service.assembly import GameCases
from service.cli import main
from service.config import load
from tests.support.workers_procs import Procs, wait_for_workers
from workers.runtime import Runtime
from workers.schedule import archive_slot, bot_slot

ROOT = Path(__file__).resolve().parents[2]
UNKNOWN = "g_00000000deadbeef"


@pytest.fixture
def rt(redis_url, tmp_path, monkeypatch):
    redis.Redis.from_url(redis_url).flushall()
    monkeypatch.setenv("SPITLOG_REDIS_URL", redis_url)
    monkeypatch.setenv("SPITLOG_ARCHIVE_URL", str(tmp_path / "archive"))
    return Runtime(load(warn=None))


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["admin", *args])
    out, err = capsys.readouterr()
    return code, out, err


def typed(command: str, env: dict) -> subprocess.CompletedProcess:
    """``spitlog <command>`` in a shell, as an operator types it (this checkout's code)."""
    bin_dir = Path(sys.executable).parent
    full = {**os.environ, **env, "PYTHONPATH": str(ROOT),
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    line = command.replace("spitlog ", f"{sys.executable} -m service.cli ", 1)
    return subprocess.run(["bash", "-c", line], env=full, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)  # fmt: skip


def test_list_filters_by_status_age_and_player(rt, capsys):
    waiting = rt.seating.create("spit", None, "human", "").body
    playing = rt.seating.create("speed", None, "bot:hard", "").body
    earlier = GameCases.build(rt.store, clock=lambda: time.time() - 7200)
    old = earlier.seating.create("spit", None, "bot:easy", "").body
    code, out, err = run(capsys, "list")
    assert code == 0 and err == "3 games\n"
    assert [line.split()[0] for line in out.splitlines()] == [playing["id"], waiting["id"],
                                                               old["id"]]  # fmt: skip
    _c, out, _e = run(capsys, "list", "--status", "open")
    assert [line.split()[0] for line in out.splitlines()] == [waiting["id"]]
    _c, out, _e = run(capsys, "list", "--older-than", "1h")
    assert [line.split()[0] for line in out.splitlines()] == [old["id"]]
    _c, out, _e = run(capsys, "list", "--player", "bot:hard")
    assert [line.split()[0] for line in out.splitlines()] == [playing["id"]]
    token_hash = rt.store.game_record(waiting["id"]).seats[0].token_hash
    _c, out, _e = run(capsys, "list", "--player", token_hash[:12])
    assert [line.split()[0] for line in out.splitlines()] == [waiting["id"]]
    assert main(["admin", "list", "--older-than", "soon"]) == 2  # a bad age: a usage error


def test_inspect_shows_the_version_the_deadlines_and_the_slots(rt, capsys):
    g = rt.seating.create("spit", {"ready_grace_s": 30}, "bot:hard", "").body
    gid = g["id"]
    code, out, _e = run(capsys, "inspect", gid)
    assert code == 0, out
    version = rt.reading.load(gid).version
    assert f"game {gid}: spit, running, version {version}" in out
    assert "seat 0: human, token sha256 " in out and "seat 1: bot:hard" in out
    assert "deadline T-2: " in out and "deadline T-4 seat 0: " in out
    assert "deadline T-6 seat 1: " in out  # the hosted bot's seat (RULES T-6)
    assert f"slot {bot_slot(gid, 1)}: waiting, due " in out
    assert f"planned at version {version}, attempt 0" in out
    assert rt.store.game_record(gid).seed.hex() not in out  # secret while the game runs (RULES H-6)


def test_T6_abort_then_archive_then_delete_a_running_game(rt, capsys, monkeypatch):
    """RULES T-6: the operator's abort says why (``--reason``), and the log keeps who and
    why; a reason that is no line of words is a usage error that changes nothing."""
    g = rt.seating.create("speed", None, "bot:medium", "").body
    gid = g["id"]
    version = rt.reading.load(gid).version
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert run(capsys, "abort", gid, "--reason", "stuck")[0] == 1  # it asks first; "n": not
    assert run(capsys, "abort", gid, "--yes")[0] == 2  # no reason: a usage error
    for bad in ("", "x" * 201, "one\ttwo"):
        code, _o, err = run(capsys, "abort", gid, "--reason", bad, "--yes")
        assert code == 2 and "--reason" in err, err
    game = rt.reading.load(gid)
    assert not game.state.over and game.version == version
    code, out, _e = run(capsys, "abort", gid, "--reason", "a reported abuse", "--yes")
    assert code == 0 and out == f"aborted {gid} at version {version + 1} (T-6: a reported abuse)\n"
    game = rt.reading.load(gid)
    assert (game.state.status, game.state.result, game.state.winner) == ("aborted", "T-6", None)
    last = rt.store.read_after(gid, game.version - 1)
    assert last == [(game.version, {**last[0][1], "type": "game_aborted", "reason": "T-6",
                                    "by": "operator", "why": "a reported abuse"})]  # fmt: skip
    _c, out, _e = run(capsys, "inspect", gid)
    assert "aborted under T-6 by the operator: a reported abuse" in out
    assert rt.schedule.status([archive_slot(gid)])[0][0] is not None  # on its way out
    assert run(capsys, "abort", gid, "--reason", "again", "--yes")[:2] == (1, "")  # over already

    code, out, _e = run(capsys, "archive", gid)
    assert (code, out) == (0, f"{gid}: archived\n")
    record = rt.archive.read(gid).record
    assert record["status"] == "aborted" and record["audit"]["ok"]
    assert run(capsys, "archive", gid)[1] == f"{gid}: verified\n"  # again: checked again
    _c, out, _e = run(capsys, "inspect", gid)
    assert "archived at version" in out and "in Redis" in out

    code, out, _e = run(capsys, "delete", gid)
    assert code == 0 and "deleted from Redis" in out
    assert rt.store.game_record(gid) is None and rt.schedule.status([archive_slot(gid)]) == [
        (None, None)
    ]
    rt.reading.cache.clear()
    assert rt.reading.load(gid).state.status == "aborted"  # read from the archive now
    assert run(capsys, "delete", gid)[:2] == (
        0,
        f"{gid} is out of Redis already (in the archive)\n",
    )


def test_delete_never_removes_a_game_that_is_not_archived(rt, capsys):
    running = rt.seating.create("spit", None, "bot:easy", "").body["id"]
    ended = rt.seating.create("spit", None, "bot:easy", "").body["id"]
    assert run(capsys, "abort", ended, "--reason", "a test", "--yes")[0] == 0
    for gid, why in ((running, "is not over"), (ended, "is not archived yet")):
        before = rt.store.read_after(gid, 0)
        code, out, err = run(capsys, "delete", gid)
        assert code == 1 and out == "" and why in err, err
        assert rt.store.read_after(gid, 0) == before and rt.store.game_record(gid) is not None
    code, _o, err = run(capsys, "archive", running)
    assert code == 1 and "is not over" in err


def test_an_unknown_game_is_exit_1_with_a_message_as_typed(rt, redis_url):
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_ARCHIVE_URL": os.environ["SPITLOG_ARCHIVE_URL"]}
    for command in ("inspect", "abort --reason test --yes", "archive", "delete"):
        r = typed(f"spitlog admin {command} {UNKNOWN}", env)
        assert r.returncode == 1, (command, r.stdout, r.stderr)
        assert f"no game {UNKNOWN}" in r.stderr and "Traceback" not in r.stderr, r.stderr
    g = rt.seating.create("spit", None, "human", "").body
    r = typed("spitlog admin list --status open", env)
    assert r.returncode == 0 and r.stdout.split()[0] == g["id"], r.stderr
    r = typed(
        f"spitlog admin inspect {g['id']}", {**env, "SPITLOG_REDIS_URL": "redis://127.0.0.1:1/0"}
    )  # a Redis that is not there: exit 2, one line (tests/service/test_cli_tools.py)
    assert r.returncode == 2 and "does not answer" in r.stderr and "Traceback" not in r.stderr


def test_health_says_whether_this_hosts_worker_and_scheduler_are_alive(rt, redis_url, tmp_path):
    env = {"SPITLOG_REDIS_URL": redis_url}
    assert typed("spitlog health worker", env).returncode == 1  # none runs yet
    assert typed("spitlog health scheduler", env).returncode == 1
    procs = Procs(env, tmp_path)
    procs.start("w0")
    procs.start("scheduler", "scheduler")
    try:
        wait_for_workers(redis_url, 1)
        end = time.monotonic() + 20
        while typed("spitlog health scheduler", env).returncode and time.monotonic() < end:
            time.sleep(0.2)
        r = typed("spitlog health scheduler", env)
        assert r.returncode == 0 and r.stdout.startswith("ok: the scheduler on "), r.stderr
        r = typed("spitlog health worker", env)
        assert r.returncode == 0 and procs.rq_names["w0"] in r.stdout, r.stderr
        procs.kill("scheduler")  # SIGKILL: its last heartbeat stays until it is too old
        time.sleep(1.5)
        r = typed("spitlog health scheduler --max-age 1", env)
        assert r.returncode == 1 and "last ticked" in r.stderr
        procs.kill("w0")  # RQ keeps its registration for minutes: its process is gone
        r = typed("spitlog health worker", env)
        assert r.returncode == 1 and "no worker" in r.stderr, r.stdout
    finally:
        procs.stop()
    assert procs.alive() == {"w0": False, "scheduler": False}
