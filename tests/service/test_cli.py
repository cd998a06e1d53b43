"""The command line as a user types it (``spitlog ...``): help for every command, the
tools on exported files, and the settings it reads (a bad one exits 2 naming it)."""

import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from domain.bots import POLICIES
from domain.export import to_ndjson, to_notation
from domain.simulate import play_game
from service import config
from service.cli import main
from service.cli.main import cli

COMMANDS = ("dev", "serve", "openapi", "worker", "scheduler", "export", "audit", "replay",
            "simulate", "dump")  # fmt: skip


def spitlog(*args: str, env=None, input=None) -> subprocess.CompletedProcess:
    """``spitlog ARGS`` as a user runs it, in its own process."""
    return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True,
                          text=True, env=env, input=input, timeout=60)  # fmt: skip


@pytest.mark.slow
def test_spitlog_help_reads_as_help():
    r = spitlog("--help")
    assert r.returncode == 0 and r.stdout.startswith("Usage: spitlog [OPTIONS] COMMAND")
    for command in COMMANDS:
        assert f"\n  {command} " in r.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    r = CliRunner().invoke(cli, [command, "--help"])
    assert r.exit_code == 0 and r.output.startswith(f"Usage: cli {command} ")
    assert len(r.output.splitlines()) > 3


def a_finished_game(tmp_path):
    from domain.audit import verify

    p = POLICIES["random"]
    r = play_game("spit", (p, p), random.Random(7), keep_log=True)
    again = random.Random(7)  # the simulator's seed is the first 32 bytes it drew
    seed = bytes(again.getrandbits(8) for _ in range(32))
    assert verify(r.log, seed).ok
    nd, txt = tmp_path / "g.ndjson", tmp_path / "g.txt"
    nd.write_text(to_ndjson(r.log, seed))
    txt.write_text(to_notation(r.log, seed))
    return r.log, nd, txt


@pytest.mark.slow
def test_the_cli_audit_export_and_replay_read_both_formats(tmp_path):
    log, nd, txt = a_finished_game(tmp_path)
    for f in (nd, txt):
        r = spitlog("audit", str(f))
        assert r.returncode == 0 and r.stdout.startswith("OK: "), r.stderr
    bad = nd.read_text().replace('"card":"', '"card":"X', 1)
    (tmp_path / "bad.ndjson").write_text(bad)
    r = spitlog("audit", str(tmp_path / "bad.ndjson"))
    assert r.returncode == 2 and "line" in r.stderr  # not even readable: named line
    r = spitlog("export", str(txt), "-o", str(tmp_path / "again.ndjson"))
    assert r.returncode == 0 and (tmp_path / "again.ndjson").read_text() == nd.read_text()
    r = spitlog("replay", str(txt), input="g 20\nn\np\ne\nq\n")
    assert r.returncode == 0
    assert f"version 20/{len(log)}" in r.stdout and f"version 21/{len(log)}" in r.stdout
    assert f"version {len(log)}/{len(log)}" in r.stdout and "result: winner" in r.stdout


def test_the_cli_simulates_games_between_bot_levels():
    r = CliRunner().invoke(cli, ["simulate", "--game", "both", "--games", "6", "--p0", "hard",
                                 "--p1", "random", "--option", "alternate_colors=true",
                                 "--no-progress"])  # fmt: skip
    assert r.exit_code == 0, r.output
    for game in ("spit", "speed"):
        assert f"{game}: hard (p0) vs random (p1), 6 games, seats alternating" in r.output
    wins = [int(line.split()[2]) + int(line.split()[4]) + int(line.split()[6])
            for line in r.output.splitlines() if line.strip().startswith("wins p0")]  # fmt: skip
    assert wins == [6, 6]  # every game ended one way or another


def test_simulate_shows_no_progress_bar_when_stderr_is_not_a_terminal():
    """A pipe or a file (here, the runner's) gets the results only, no progress bar."""
    r = CliRunner().invoke(cli, ["simulate", "--game", "spit", "--games", "3"])
    assert r.exit_code == 0, r.output
    assert "spit: random (p0) vs random (p1), 3 games" in r.output
    assert "%|" not in r.output and "game/s" not in r.output, r.output


# ---------------------------------------------------------------- settings


def test_settings_come_from_spitlog_variables(monkeypatch):
    for name, value in (("SPITLOG_REDIS_URL", "redis://h:1/2"), ("SPITLOG_SNAPSHOT_EVERY", "10"),
                        ("SPITLOG_DURABILITY", "strict"), ("SPITLOG_LONGPOLL_MAX_S", "2.5"),
                        ("SPITLOG_ACCESS_LOG", "1"), ("SPITLOG_RATE_ACTIONS", "")):  # fmt: skip
        monkeypatch.setenv(name, value)
    s = config.load(warn=None)
    assert (s.redis_url, s.snapshot_every, s.durability) == ("redis://h:1/2", 10, "strict")
    assert (s.longpoll_max_s, s.access_log, s.rate_actions) == (2.5, True, 20.0)  # "": default
    assert s.queue == "redis://h:1/2"  # the queue defaults to the game store


@pytest.mark.slow
@pytest.mark.parametrize("name, value", [("SPITLOG_RATE_ACTIONS", "abc"),
                                         ("SPITLOG_DURABILITY", "sometimes"),
                                         ("SPITLOG_WORKERS", "0")])  # fmt: skip
def test_a_bad_setting_exits_2_naming_the_variable(name, value):
    env = {"PATH": "/usr/bin:/bin", name: value}
    for command in ("serve", "worker", "scheduler", "dev"):
        r = spitlog(command, env=env)
        assert r.returncode == 2, (command, r.stderr)
        assert r.stderr.startswith(f"spitlog: {name}=") and "Traceback" not in r.stderr


def test_an_unknown_spitlog_variable_is_warned_about(monkeypatch, capsys):
    monkeypatch.setenv("SPITLOG_RATE_ACTION", "5")  # a typo
    import io

    out = io.StringIO()
    config.load(warn=out)
    assert "SPITLOG_RATE_ACTION is not a setting of spitlog" in out.getvalue()
    monkeypatch.delenv("SPITLOG_RATE_ACTION")
    out = io.StringIO()
    config.load(warn=out)
    assert out.getvalue() == ""


def test_main_returns_the_exit_status():
    assert main(["--help"]) == 0
    assert main(["no-such-command"]) == 2


@pytest.mark.slow  # a worker process, which waits for its Sentinels' timeouts: about 5 s
def test_a_worker_whose_sentinels_name_no_master_says_so_in_one_line_and_exits_2():
    """``spitlog worker`` with a ``redis+sentinel://`` URL whose Sentinel port nobody
    listens on: one line naming SPITLOG_REDIS_URL and the master, no traceback, no
    password, exit 2."""
    import os
    import socket

    with socket.socket() as sock:  # a port nobody listens on once it is closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPITLOG_")}
    env["SPITLOG_REDIS_URL"] = f"redis+sentinel://:hush-secret@127.0.0.1:{port}/mymaster"
    done = spitlog("worker", "--burst", env=env)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "SPITLOG_REDIS_URL" in lines[0] and "'mymaster'" in lines[0]
    assert "hush-secret" not in done.stderr + done.stdout
