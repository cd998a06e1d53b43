"""Every command README.md shows runs here, the way a user types it: in a shell, with the
`spitlog` the package installs, against `spitlog dev` (its embedded Redis, its worker and
scheduler, its default archive `./spitlog-archive`) or the session's redis-server.

Only the URL's host and the game id of the examples are replaced (by the running
server's and a finished game's). A README command with no test here fails
``test_every_command_of_the_readme_runs_here``."""

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.support.processes import free_port, wait_ready
from tests.support.workers_procs import wait_for_workers

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # where pip put `spitlog`
EXAMPLE_BASE, EXAMPLE_ID = "http://127.0.0.1:8000", "g_x"


def readme_commands(section: str | None = None) -> list[str]:
    """The commands of README.md's ``sh`` blocks (of one ``## section``), comments off."""
    text = (ROOT / "README.md").read_text()
    if section is not None:
        text = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
            if command:
                out.append(command)
    return out


def readme_blocks(section: str, language: str) -> list[str]:
    """The code blocks of ``language`` in README.md's ``## section``."""
    text = (ROOT / "README.md").read_text().split(f"\n## {section}\n", 1)[1]
    return re.findall(rf"```{language}\n(.*?)```", text.split("\n## ", 1)[0], re.S)


def shell(command: str, cwd: Path, env: dict | None = None, stdin: str = "", timeout=120):
    """Run ``command`` with bash as a user would (the venv's bin first on PATH)."""
    full = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    full.pop("PYTHONPATH", None)  # the installed package, not the checkout's path hack
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=full, input=stdin, text=True,
                          capture_output=True, timeout=timeout)  # fmt: skip


KEYS_AND_BOTS = "test_keys_then_two_bots"
S3_AUDIT = (  # (the archive on a real S3 server: its test runs the audit of the bucket)
    "tests/integration/test_archive_real.py::"
    "test_finished_games_go_to_s3_and_leave_redis_after_the_retention"
)
# Where each README command runs (a test of this module), or why CI runs it already.
RUNS = {
    "pip install -e '.[dev]' && spitlog dev": "test_spitlog_dev_then_replay_audit_and_archive",
    "pip install -e '.[test]' && python -m pytest -q -n 2": "CI: .ci/run runs exactly this",
    "spitlog simulate --game spit --games 200": "test_simulate",
    "spitlog asyncapi -o asyncapi.yaml": "test_asyncapi",
    "spitlog worker": "test_worker_and_scheduler",
    "spitlog scheduler": "test_worker_and_scheduler",
    **dict.fromkeys(readme_commands("Clients"), "test_the_example_bots_play_speed_to_the_end"),
    **dict.fromkeys(
        [c for c in readme_commands("Auditing the archive") if "s3://" not in c],
        "tests/service/test_cli_archive.py::test_the_readmes_archive_commands_run_as_shown",
    ),
    "spitlog audit s3://bucket/prefix --month 2026-11": S3_AUDIT,
    "spitlog health worker": "test_worker_and_scheduler",
    "spitlog health scheduler": "test_worker_and_scheduler",
    "spitlog admin list --status running --older-than 1h": "test_admin",
    "spitlog admin inspect g_x": "test_admin",
    'spitlog admin abort g_x --reason "reported abuse" --yes': "test_admin",
    "spitlog admin archive g_x": "test_admin",
    "spitlog admin delete g_x": "test_admin",
    "spitlog admin failed": "test_admin",
    'spitlog admin keys create "Acme Games"': KEYS_AND_BOTS,
    "spitlog admin keys list": KEYS_AND_BOTS,
    "spitlog admin keys revoke a_1f2e3d4c5b6a": KEYS_AND_BOTS,
    "spitlog bot http://127.0.0.1:8000 --create spit --level hard --name Hal": KEYS_AND_BOTS,
    "spitlog bot http://127.0.0.1:8000/v1/games/g_x --level medium --name Marvin": KEYS_AND_BOTS,
    **dict.fromkeys(
        [
            'spitlog admin keys create "My test app"',
            "spitlog admin list --status all",
            "spitlog health api",
        ],
        "test_admin_and_health_find_a_running_spitlog_dev",
    ),  # fmt: skip
}
EXAMPLE_APP = "a_1f2e3d4c5b6a"
REPLAY_AND_AUDIT = "test_spitlog_dev_then_replay_audit_and_archive"


def test_every_command_of_the_readme_runs_here():
    commands = readme_commands()
    replay = set(readme_commands("Replay and audit"))
    missing = [c for c in commands if c not in RUNS and c not in replay]
    assert missing == [], f"README commands no test runs: {missing}"
    for how in RUNS.values():
        if "::" in how:  # a test elsewhere: it must exist
            path, name = how.split("::")
            assert f"def {name}(" in (ROOT / path).read_text(), how
        else:
            assert how.startswith("CI: ") or callable(globals().get(how)), how
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == "python -m pytest -q -n 2"
    assert any(line.startswith("pip install --quiet -e '.[test]'") for line in ci)
    assert len(replay) >= 6 and REPLAY_AND_AUDIT in globals()


def test_simulate(tmp_path):
    (command,) = [c for c in RUNS if c.startswith("spitlog simulate")]
    r = shell(command, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "200 games" in r.stdout and "games/s" in r.stdout


def test_asyncapi(tmp_path):
    """README *Live*: the command writes the document the repository holds."""
    (command,) = [c for c in RUNS if c.startswith("spitlog asyncapi")]
    r = shell(command, tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "asyncapi.yaml").read_text() == (ROOT / "asyncapi.yaml").read_text()


def test_worker_and_scheduler(tmp_path, redis_url):
    import redis

    redis.Redis.from_url(redis_url).flushall()
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "SPITLOG_REDIS_URL": redis_url}  # fmt: skip
    procs = [subprocess.Popen(["bash", "-c", f"exec {c}"], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for c in ("spitlog worker", "spitlog scheduler")]  # fmt: skip
    try:
        wait_for_workers(redis_url, 1)
        for command in ("spitlog health worker", "spitlog health scheduler"):
            end = time.monotonic() + 60  # until the scheduler has ticked once
            while (r := shell(command, tmp_path, {"SPITLOG_REDIS_URL": redis_url})).returncode:
                assert [p.poll() for p in procs] == [None, None]  # both still running
                assert time.monotonic() < end, (command, r.stdout, r.stderr)
                time.sleep(0.2)
            assert r.stdout.startswith("ok: "), (command, r.stderr)
        assert [p.poll() for p in procs] == [None, None]
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        codes = [p.wait(20) for p in procs]
    assert codes == [0, 0], [p.stdout.read() for p in procs]


@contextlib.contextmanager
def spitlog_dev(cwd: Path, banner: list | None = None, **env):
    """`spitlog dev` as the README's first line starts it, on a free port, from ``cwd``
    (a fresh directory: its archive goes to ./spitlog-archive): its base URL. ``banner``:
    a list to fill with the lines it prints first (up to its `try:` line)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"SPITLOG_BIND": f"127.0.0.1:{port}", **env}
    full = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **env}
    for name in ("SPITLOG_REDIS_URL", "SPITLOG_ARCHIVE_URL", "PYTHONPATH"):
        full.pop(name, None)  # the defaults, as on a fresh machine
    (command,) = [c for c in readme_commands() if c.endswith("spitlog dev")]
    dev = subprocess.Popen(["bash", "-c", command.replace("pip install -e '.[dev]' && ", "exec ")],
                           cwd=cwd, env=full, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, start_new_session=True)  # fmt: skip
    try:
        if banner is not None:
            while not banner or not banner[-1].lstrip().startswith("try:"):
                line = dev.stdout.readline()
                assert line, f"spitlog dev ended: {banner}"
                banner.append(line.rstrip("\n"))
        wait_ready(base, dev, timeout=60)
        yield base
    finally:
        dev.send_signal(signal.SIGINT)
        try:
            dev.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(dev.pid, signal.SIGKILL)


@pytest.mark.timeout(600)  # two installs and two whole games, each shell given 240 s
def test_the_example_bots_play_speed_to_the_end(tmp_path):
    """Each client's example bot, installed and run as *Clients* says (from the
    repository's root), plays a game of Speed against bot:easy (its hosted bot played by
    the worker `spitlog dev` runs, sped up) to the end, over the API; then so does the
    bot *Clients* shows in Python."""
    commands = readme_commands("Clients")
    assert len(commands) == 2
    with spitlog_dev(tmp_path, SPITLOG_BOT_PACE="0.2", SPITLOG_RATE_ACTIONS="0",
                     SPITLOG_RATE_REQUESTS="0", SPITLOG_RATE_SEAT="0") as base:  # fmt: skip
        for command in commands:
            r = shell(command.replace(EXAMPLE_BASE, base), ROOT, timeout=240)
            assert r.returncode == 0, (command, r.stdout[-2000:], r.stderr[-2000:])
            last = r.stdout.strip().splitlines()[-1]
            assert re.fullmatch(r"game g_[0-9a-f]{16}: finished after \d+ views; winner seat "
                                r"[01], result Q-[79] \(you are seat 0\)", last), last  # fmt: skip
            gid = last.split()[1].rstrip(":")
            view = requests.get(f"{base}/v1/games/{gid}", timeout=10).json()
            assert view["status"] == "finished" and view["players"][1]["kind"] == "bot:easy"
        # the bot README shows, on the client the first command installed
        (bot,) = readme_blocks("Clients", "python")
        (tmp_path / "readme_bot.py").write_text(bot)
        r = shell(f"python {tmp_path / 'readme_bot.py'} {base}", ROOT, timeout=240)
        assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
        last = r.stdout.strip().splitlines()[-1]
        assert re.fullmatch(r"game g_[0-9a-f]{16}: finished, winner seat [01]", last), last


def test_admin(tmp_path, redis_url):
    """The admin commands in the README's order on a running game: listed (it is two hours
    old), inspected, aborted, archived, deleted from Redis; then no game failed."""
    import redis

    from service.assembly import GameCases
    from service.config import load
    from workers.runtime import Runtime

    redis.Redis.from_url(redis_url).flushall()
    archive = str(tmp_path / "archive")
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_ARCHIVE_URL": archive}
    rt = Runtime(load(warn=None, redis_url=redis_url, archive_url=archive))
    old = GameCases.build(rt.store, clock=lambda: time.time() - 7200)
    gid = old.seating.create("spit", None, "bot:hard", "").body["id"]
    expect = {"list": gid, "inspect": f"game {gid}: spit, running",
              "abort": f"aborted {gid} at version 4 (T-6: reported abuse)",
              "archive": f"{gid}: archived", "delete": "deleted from Redis",
              "failed": "0 games failed to archive for good"}  # fmt: skip
    commands = [c for c in readme_commands("Deploying") if c.startswith("spitlog admin")]
    assert [c.split()[2] for c in commands] == list(expect)
    for command in commands:
        r = shell(command.replace(EXAMPLE_ID, gid), tmp_path, env)
        assert r.returncode == 0, (command, r.stdout, r.stderr)
        assert expect[command.split()[2]] in r.stdout + r.stderr, (command, r.stdout)
    assert rt.store.game_record(gid) is None and (tmp_path / "archive" / "ids" / gid).exists()


def _finish(base: str) -> str:
    """A Spit game of two humans over HTTP, random legal moves to its end: its id."""
    g = requests.post(f"{base}/v1/games", json={"game": "spit", "options": {"max_rounds": 1}},
                      timeout=10).json()  # fmt: skip
    gid = g["id"]
    t1 = requests.post(f"{base}/v1/games/{gid}/seats", json={}, timeout=10).json()["token"]
    tokens, rng = (g["token"], t1), random.Random(3)
    for step in range(5000):
        h = {"Authorization": f"Bearer {tokens[step % 2]}"}
        view = requests.get(f"{base}/v1/games/{gid}", headers=h, timeout=10).json()
        if view["status"] in ("finished", "aborted"):
            return gid
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
        if acts:
            requests.post(f"{base}/v1/games/{gid}/actions", json=rng.choice(acts), headers=h,
                          timeout=10)  # fmt: skip
    raise AssertionError("the game did not end")


@pytest.mark.timeout(240)
def test_spitlog_dev_then_replay_audit_and_archive(tmp_path):
    """`spitlog dev` as the README's first line runs it (from a fresh directory: its
    archive goes to ./spitlog-archive), a game played to its end over HTTP, then every
    command of *Replay and audit* on it."""
    with spitlog_dev(tmp_path, SPITLOG_RETAIN_S="1", SPITLOG_REMATCH_S="1",
                     SPITLOG_RATE_REQUESTS="0", SPITLOG_RATE_ACTIONS="0",
                     SPITLOG_RATE_SEAT="0") as base:  # fmt: skip
        gid = _finish(base)
        for command in readme_commands("Replay and audit"):
            line = command.replace(EXAMPLE_BASE, base).replace(EXAMPLE_ID, gid)
            r = shell(line, tmp_path, stdin="e\nq\n")
            assert r.returncode == 0, (line, r.stdout, r.stderr)
            if line.startswith("spitlog audit"):
                assert r.stdout.startswith("OK: "), (line, r.stdout)
            if line.startswith("spitlog replay"):
                assert "result: winner" in r.stdout and "version 1/" in r.stdout, line
        assert (tmp_path / "g.ndjson").read_text().startswith('{"format":"spitlog-log/1"')
        assert (tmp_path / "g.txt").read_text().startswith('[Format "spitlog-notation/1"]')

        # the finished game goes to ./spitlog-archive once its rematch asks end (a second)
        # and leaves Redis a second later (its lobby entry goes with it); then it is read
        # from the archive, the same bytes
        def finished():
            page = requests.get(f"{base}/v1/games?status=finished", timeout=10).json()
            return [g["id"] for g in page["games"]]

        end = time.monotonic() + 30
        while gid in finished() and time.monotonic() < end:
            time.sleep(0.2)
        assert gid not in finished(), "still in Redis"
        assert (tmp_path / "spitlog-archive" / "ids" / gid).exists()
        export = requests.get(f"{base}/v1/games/{gid}/export", timeout=10)
        assert export.status_code == 200 and export.text == (tmp_path / "g.ndjson").read_text()


@pytest.mark.timeout(600)  # the server's start, the keys, then a game of 200 s at most
def test_keys_then_two_bots(tmp_path, redis_url):
    """*Players, ratings, seeks and rematches* and *Bots*: an app's key made, listed,
    working, revoked; then the two `spitlog bot` commands play one game to its end
    against `spitlog serve` on the session's redis-server (the first prints its URL)."""
    from tests.support.processes import start, stop

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_WORKERS": "1", "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0",
           "SPITLOG_RATE_GAMES": "0", "SPITLOG_RATE_SEAT": "0"}  # fmt: skip
    from tests.support.workers_procs import Procs, wait_for_workers

    procs = Procs({"SPITLOG_REDIS_URL": redis_url}, tmp_path / "procs")  # the timers fire
    server = first = None
    try:
        procs.start("w0")
        procs.start("scheduler", "scheduler")
        wait_for_workers(redis_url, 1)
        server = start(["serve"], env)
        wait_ready(base, server)
        keys = [c for c in readme_commands("Players, ratings, seeks and rematches")
                if c.startswith("spitlog admin keys")]  # fmt: skip
        made = shell(keys[0], tmp_path, env)
        assert made.returncode == 0, made.stderr
        app_id, key = (line.split()[1] for line in made.stdout.splitlines()[:2])
        assert app_id in shell(keys[1], tmp_path, env).stdout
        h = {"X-Api-Key": key}
        assert requests.get(f"{base}/v1/players/nobody", headers=h, timeout=10).status_code == 404
        revoked = shell(keys[2].replace(EXAMPLE_APP, app_id), tmp_path, env)
        assert revoked.returncode == 0, revoked.stderr
        assert requests.get(f"{base}/v1/players/nobody", headers=h, timeout=10).status_code == 401

        create, join = (c.replace(EXAMPLE_BASE, base) for c in RUNS if c.startswith("spitlog bot"))
        full = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
        full.pop("PYTHONPATH", None)
        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
        first = subprocess.Popen(["bash", "-c", f"exec {create}"], cwd=tmp_path, env=full, **pipes)
        url = first.stdout.readline().strip()
        gid = url.rsplit("/", 1)[-1]
        assert url == f"{base}/v1/games/{gid}", (url, first.stderr.read())
        second = shell(join.replace(EXAMPLE_ID, gid), tmp_path, timeout=200)
        assert second.returncode == 0, second.stderr
        assert first.wait(60) == 0, first.stderr.read()
        view = requests.get(url, timeout=10).json()
        assert view["status"] == "finished"
        assert [p["name"] for p in view["players"]] == ["Hal", "Marvin"]
    finally:
        if first is not None and first.poll() is None:  # an assertion failed before its end
            first.kill()
            first.wait(10)
        if server is not None:
            stop(server)
        procs.stop()


@pytest.mark.timeout(300)
def test_admin_and_health_find_a_running_spitlog_dev(tmp_path):
    """`spitlog dev`'s banner names its Redis; from another directory, with
    SPITLOG_REDIS_URL unset, the README's admin and health commands use that Redis (and
    dev's API) and say so. Once dev has stopped, `spitlog admin keys create` against a
    Redis that is not there is one line, exit 2."""
    banner: list[str] = []
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    unset = {"SPITLOG_REDIS_URL": "", "SPITLOG_ARCHIVE_URL": "", "SPITLOG_BIND": ""}
    with spitlog_dev(tmp_path, banner) as base:
        (line,) = [b for b in banner if "game store:" in b]
        m = re.search(r"game store: Redis at (redis://127\.0\.0\.1:\d+/0)  \(embedded", line)
        assert m, banner
        url = m[1]
        said = "spitlog: SPITLOG_REDIS_URL is unset: using the Redis of the running `spitlog dev`"
        create, games, health = (
            c for c in RUNS if RUNS[c] == "test_admin_and_health_find_a_running_spitlog_dev"
        )
        r = shell(create, elsewhere, unset)
        assert r.returncode == 0, (r.stdout, r.stderr)
        assert said in r.stderr and url in r.stderr, r.stderr
        app_id, key = (w.split()[1] for w in r.stdout.splitlines()[:2])
        assert requests.get(f"{base}/v1/players/nobody", headers={"X-Api-Key": key},
                            timeout=10).status_code == 404  # dev's API knows the key  # fmt: skip
        created = requests.post(f"{base}/v1/games", json={"game": "spit"}, timeout=10).json()
        r = shell(games, elsewhere, unset)
        assert r.returncode == 0 and said in r.stderr, (r.stdout, r.stderr)
        assert r.stdout.split()[0] == created["id"] and "1 games" in r.stderr, r.stdout
        r = shell(health, elsewhere, unset)
        assert r.returncode == 0 and r.stdout == f"ok: the API answers {base}/healthz\n", r
    assert not list((Path(os.environ["XDG_RUNTIME_DIR"]) / "spitlog").glob("dev.json"))
    gone = f"redis://127.0.0.1:{free_port()}/0"
    r = shell(create, elsewhere, {"SPITLOG_REDIS_URL": gone})
    assert (r.returncode, r.stdout) == (2, ""), (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith("spitlog: the game store does not answer (") and gone in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
