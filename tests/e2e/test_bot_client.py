"""The bot API's reference client for real: two `spitlog bot` processes play a game to its
end against `spitlog serve` (gunicorn, gevent) on the real redis-server. The server ends
every SSE stream after a second, so a bot that waits follows the game across streams,
reconnecting with Last-Event-ID; neither misses a move, and each decides on the views its
stream of views brings, never reading the game. The first bot waits alone at the
table until the server has ended one of its streams (it says so, ``-v``), so that one
reconnect at least is made whatever the game's length."""

import os
import re
import subprocess
import sys
import threading

import pytest
import requests

from tests.support.processes import ROOT, free_port, start, stop, wait_ready


@pytest.fixture
def server(redis_url, tmp_path, request):
    """`spitlog serve` with a worker and the scheduler, as deployed: the timers (a
    stalemate's call, RULES T-1) fire as in production."""
    from tests.support.workers_procs import Procs, wait_for_workers

    procs = Procs({"SPITLOG_REDIS_URL": redis_url}, tmp_path)
    request.addfinalizer(procs.stop)  # whatever fails below
    procs.start("w0")
    procs.start("scheduler", "scheduler")
    wait_for_workers(redis_url, 1)
    port = free_port()
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_WORKERS": "1", "SPITLOG_SSE_MAX_S": "1", "SPITLOG_RATE_REQUESTS": "0",
           "SPITLOG_RATE_ACTIONS": "0", "SPITLOG_RATE_GAMES": "0",
           "SPITLOG_RATE_SEAT": "0"}  # fmt: skip
    proc = start(["serve"], env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
    except RuntimeError:
        pytest.fail(stop(proc))
    yield base
    stop(proc)


def bot(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "service.cli", "bot", *args], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game, options", [("spit", ["max_rounds=3"]), ("speed", [])])
def test_two_bot_processes_play_a_game_to_its_end(server, game, options):
    # at a fifth of their levels' pace, a game lasts several streams of a second
    first = bot(server, "--create", game, "--level", "hard", "--name", "Hal", "--seed", "1",
                "--pace", "0.2", "-v", *(x for o in options for x in ("--option", o)))  # fmt: skip
    url = first.stdout.readline().strip()
    assert re.fullmatch(rf"{re.escape(server)}/v1/games/g_[0-9a-f]{{16}}", url), (
        url, first.stderr.read() if first.poll() is not None else "")  # fmt: skip
    said, reconnected = [], threading.Event()

    def read_stderr():  # the first bot's log, line by line
        for line in first.stderr:
            said.append(line)
            if line.startswith("bot: stream ended: reconnecting"):
                reconnected.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    second = None
    try:
        # alone at the table it has nothing to do: it waits on its stream, which the
        # server ends after a second
        assert reconnected.wait(120), ("no reconnect", first.poll(), said)
        second = bot(url, "--level", "medium", "--name", "Marvin", "--seed", "2",
                     "--pace", "0.2", "-v")  # fmt: skip
        first.wait(240)
        reader.join(60)
        out = [(first.stdout.read(), "".join(said)), second.communicate(timeout=240)]
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                p.kill()
    assert [p.returncode for p in (first, second)] == [0, 0], out
    gid = url.rsplit("/", 1)[1]
    view = requests.get(url, timeout=10).json()
    assert view["status"] == "finished", view["status"]
    assert [(p["kind"], p["name"]) for p in view["players"]] == [("bot", "Hal"), ("bot", "Marvin")]
    lines = [o[0].strip().splitlines()[-1] for o in out]
    assert all(line.startswith(f"{gid}: seat ") for line in lines), lines
    won = ["won" in line for line in lines]
    assert won.count(True) == (view["winner"] is not None)
    stats = [dict(reversed(s.split(" ", 1)) for s in line.split("; ")[1].split(", "))
             for line in lines]  # fmt: skip
    assert all(int(s["actions"]) > 0 for s in stats), lines  # every bot acted
    # on the views its stream brought: neither read the game
    assert [int(s["reads"]) for s in stats] == [0, 0], lines
    # each reconnect is one the bot said it made (``-v``), and the first bot made one
    # at the least before the second joined (and saw the join on a later stream)
    for (_stdout, stderr), s in zip(out, stats, strict=True):
        assert stderr.count("bot: stream ended: reconnecting") == int(s["reconnects"]), stderr
    assert int(stats[0]["reconnects"]) >= 1, lines
    lobby = requests.get(f"{server}/v1/games?status=finished&kind=bot&game={game}", timeout=10)
    assert gid in [g["id"] for g in lobby.json()["games"]]
