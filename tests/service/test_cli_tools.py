"""The operator's tools on a running service, `spitlog admin` (and `admin keys`) and `spitlog
health`: a Redis that is not there is one line on stderr and exit 2 (health: exit 1, a
container's "unhealthy"), never a traceback; with ``SPITLOG_REDIS_URL`` unset they use the
Redis (and archive) of a running `spitlog dev` (``service.cli.devfile``), and say so;
`spitlog admin init-archive` makes a directory archive ready, or says in one line why not.
tests/e2e/test_readme.py runs them against a real `spitlog dev`; tests/service/
test_cli_archive.py's S3 tests make a bucket."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis
from fakeredis import TcpFakeServer

from service.cli import devfile, main
from tests.support.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
ADMIN_COMMANDS = (
    ["keys", "create", "Acme Games"], ["keys", "list"], ["keys", "revoke", "a_1f2e3d4c5b6a"],
    ["list"], ["inspect", "g_x"], ["abort", "g_x", "--reason", "a test", "--yes"],
    ["archive", "g_x"], ["delete", "g_x"], ["failed"],
)  # fmt: skip


@pytest.fixture
def nowhere(monkeypatch, tmp_path) -> str:
    """SPITLOG_REDIS_URL naming a loopback port nothing listens on; no `spitlog dev`."""
    url = f"redis://127.0.0.1:{free_port()}/0"
    monkeypatch.setenv("SPITLOG_REDIS_URL", url)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("SPITLOG_ARCHIVE_URL", str(tmp_path / "archive"))
    return url


@pytest.fixture
def dev_redis(monkeypatch, tmp_path):
    """An in-memory Redis on a loopback port, as `spitlog dev` embeds it, and the file a
    running `spitlog dev` writes naming it (this process standing for it); no
    SPITLOG_REDIS_URL. (its URL, the file)"""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))
    for name in ("SPITLOG_REDIS_URL", "SPITLOG_QUEUE_URL", "SPITLOG_ARCHIVE_URL"):
        monkeypatch.delenv(name, raising=False)
    port = free_port()
    server = TcpFakeServer(("127.0.0.1", port), server_type="redis")
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"redis://127.0.0.1:{port}/0"
    found = devfile.write({"api": "http://127.0.0.1:1", "bind": "127.0.0.1:1", "redis_url": url,
                           "queue_url": url, "archive_url": str(tmp_path / "dev-archive"),
                           "s3_endpoint_url": None})  # fmt: skip
    assert found == tmp_path / "runtime" / "spitlog" / "dev.json"
    try:
        yield url, found
    finally:
        devfile.remove()
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("args", ADMIN_COMMANDS, ids=" ".join)
def test_admin_against_a_redis_that_is_not_there_is_one_line_and_exit_2(nowhere, capsys, args):
    code = main(["admin", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("spitlog: the game store does not answer ("), err
    assert f"{nowhere}, from SPITLOG_REDIS_URL" in err and "Connection refused" in err, err


def test_admin_keys_create_against_no_redis_as_typed_has_no_traceback(nowhere):
    r = subprocess.run([sys.executable, "-m", "service.cli", "admin", "keys", "create", "Acme"],
                       capture_output=True, text=True, timeout=60, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert (r.returncode, r.stdout) == (2, ""), (r.returncode, r.stdout, r.stderr)
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert nowhere in r.stderr


@pytest.mark.parametrize("what", ["worker", "scheduler", "api"])
def test_health_of_what_is_not_there_is_one_line_and_exit_1(nowhere, capsys, monkeypatch, what):
    """Exit 1: a container's health check says "unhealthy" with it (Docker reserves 2)."""
    monkeypatch.setenv("SPITLOG_BIND", f"127.0.0.1:{free_port()}")
    code = main(["health", what])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1, (code, out, err)
    assert err.startswith("unhealthy: ")
    assert (nowhere if what != "api" else os.environ["SPITLOG_BIND"]) in err, err


def test_admin_uses_a_running_spitlog_devs_redis_and_says_so(dev_redis, capsys):
    url, _found = dev_redis
    assert main(["admin", "keys", "create", "My test app"]) == 0
    out, err = capsys.readouterr()
    app_id = out.split()[1]
    assert out.startswith(f"app {app_id} (My test app)")
    said = f"using the Redis of the running `spitlog dev` (pid {os.getpid()}), {url}"
    assert said in err, err
    assert redis.Redis.from_url(url).keys("*"), "nothing written in dev's Redis"
    assert main(["admin", "keys", "list"]) == 0
    assert app_id in capsys.readouterr().out
    # and its archive: a directory made where dev has it, whatever the working directory
    assert main(["admin", "init-archive", "--wait", "0"]) == 0
    out, err = capsys.readouterr()
    archive = Path(devfile.read()["archive_url"])
    assert archive.is_dir() and out == f"the archive {archive} is ready (its directory made)\n"


def test_health_uses_a_running_spitlog_devs_queue_and_api(dev_redis, capsys):
    url, _found = dev_redis
    assert main(["health", "scheduler"]) == 1  # nothing ticks on this Redis
    out, err = capsys.readouterr()
    assert f"(pid {os.getpid()}), {url}" in err and "last ticked never" in err, err
    assert main(["health", "api"]) == 1  # dev's API address, where nothing listens here
    assert "http://127.0.0.1:1/healthz" in capsys.readouterr().err


def test_spitlog_redis_url_wins_over_a_running_spitlog_dev(dev_redis, nowhere, capsys):
    assert main(["admin", "list"]) == 2
    err = capsys.readouterr().err
    assert "spitlog dev" not in err and f"{nowhere}, from SPITLOG_REDIS_URL" in err, err


def test_the_file_of_a_spitlog_dev_that_ended_is_ignored(dev_redis, monkeypatch, capsys):
    _url, found = dev_redis
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    found.write_text(found.read_text().replace(f'"pid": {os.getpid()}', f'"pid": {ended.stdout}'))
    assert devfile.read() is None
    monkeypatch.setenv("SPITLOG_REDIS_URL", "")  # set and empty: unset
    monkeypatch.setenv("SPITLOG_BIND", f"127.0.0.1:{free_port()}")
    assert main(["health", "api"]) == 1
    err = capsys.readouterr().err
    assert "spitlog dev" not in err and os.environ["SPITLOG_BIND"] in err, err


def test_a_spitlog_dev_leaves_no_file_behind_and_another_ones_is_kept(dev_redis):
    _url, found = dev_redis
    assert found.exists()
    devfile.remove()
    assert not found.exists()
    found.write_text('{"pid": 1, "redis_url": "redis://elsewhere:6379/0"}')  # another's
    devfile.remove()
    assert found.exists()  # not this process's: kept


def test_init_archive_of_a_directory_that_cannot_be_made_is_one_line_and_exit_2(
    nowhere, monkeypatch, tmp_path, capsys
):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SPITLOG_ARCHIVE_URL", str(blocker / "archive"))
    assert main(["admin", "init-archive", "--wait", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith(f"spitlog: the archive is not ready: cannot write in {blocker}/archive")
    monkeypatch.setenv("SPITLOG_ARCHIVE_URL", str(tmp_path / "made"))
    assert main(["admin", "init-archive", "--wait", "0"]) == 0
    assert main(["admin", "init-archive", "--wait", "0"]) == 0  # ready: nothing made
    out, _err = capsys.readouterr()
    assert out.splitlines() == [f"the archive {tmp_path / 'made'} is ready (its directory made)",
                                f"the archive {tmp_path / 'made'} is ready"]  # fmt: skip
