"""The bot API's reference client for real (issue 16, item 5): two `spitlog bot` processes
play a game to its end against `spitlog serve` (gunicorn, gevent) on the real
redis-server. The server ends every SSE stream after a second, so each bot follows the
game across many streams, reconnecting with Last-Event-ID; neither misses a move."""

import os
import re
import subprocess
import sys

import pytest
import requests

from tests.support.processes import ROOT, free_port, start, stop, wait_ready


@pytest.fixture
def server(redis_url):
    port = free_port()
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_WORKERS": "1", "SPITLOG_SSE_MAX_S": "1", "SPITLOG_RATE_REQUESTS": "0",
           "SPITLOG_RATE_ACTIONS": "0", "SPITLOG_RATE_GAMES": "0"}  # fmt: skip
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
    second = bot(url, "--level", "medium", "--name", "Marvin", "--seed", "2", "--pace", "0.2",
                 "-v")  # fmt: skip
    try:
        out = [p.communicate(timeout=240) for p in (first, second)]
    finally:
        for p in (first, second):
            if p.poll() is None:
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
    for line in lines:  # every bot acted, and followed the game across several streams
        stats = dict(reversed(s.split(" ", 1)) for s in line.split("; ")[1].split(", "))
        assert int(stats["actions"]) > 0 and int(stats["reconnects"]) >= 1, line
    lobby = requests.get(f"{server}/v1/games?status=finished&kind=bot&game={game}", timeout=10)
    assert gid in [g["id"] for g in lobby.json()["games"]]
