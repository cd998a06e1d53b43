"""The server as an operator installs it: its sdist and wheel built (``python -m build``,
the wheel from the sdist, so the sdist is whole), the runtime pinned by requirements.lock
installed with its hashes into a clean virtualenv, then the wheel alone (no extra). From
a directory outside the checkout, that install's ``spitlog serve`` answers on a real
redis-server, and its ``spitlog dev``, without the ``[dev]`` extra, says in one line what
to install."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
import requests

from tests.support.processes import free_port, stop, wait_ready
from tests.support.redis_server import start_redis, stop_redis

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "domain", "service", "workers")
# what only an extra brings: none of it is in the server's install
EXTRAS_ONLY = {"fakeredis", "lupa", "httpx", "httpx-sse", "boto3", "botocore",
               "opentelemetry-api", "opentelemetry-sdk"}  # fmt: skip


def run(args: list, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """``args`` in ``cwd``, outside the checkout's paths, with no setting of the suite's."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SPITLOG_REDIS_URL")}
    r = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=timeout)  # fmt: skip
    return r


def checked(r: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert r.returncode == 0, (r.args, r.stdout[-3000:], r.stderr[-3000:])
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The bin directory of a clean virtualenv holding the lock's runtime and the wheel."""
    tmp = tmp_path_factory.mktemp("server-package")
    source = tmp / "src"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
        else:
            shutil.copy(ROOT / name, source / name)
    dist = tmp / "dist"
    checked(run([sys.executable, "-m", "build", "--outdir", dist, source], tmp))
    (wheel,) = dist.glob("spitlog-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "service/http/static/index.html" in names and "service/cli/botplay.py" in names
    assert not any(n.startswith("tests/") for n in names)

    venv = tmp / "venv"
    checked(run([sys.executable, "-m", "venv", venv], tmp))
    pip = [venv / "bin" / "python", "-m", "pip", "--disable-pip-version-check"]
    checked(run([*pip, "install", "--quiet", "--require-hashes", "-r", ROOT / "requirements.lock"],
                tmp))  # fmt: skip
    checked(run([*pip, "install", "--quiet", "--no-deps", wheel], tmp))
    checked(run([*pip, "check"], tmp))  # the lock holds everything the wheel asks for
    listed = json.loads(checked(run([*pip, "list", "--format", "json"], tmp)).stdout)
    have = {p["name"].lower().replace("_", "-") for p in listed}
    assert "spitlog" in have and not have & EXTRAS_ONLY, have & EXTRAS_ONLY
    return venv / "bin"


@pytest.fixture
def elsewhere():
    """A working directory outside the checkout."""
    with tempfile.TemporaryDirectory(prefix="spitlog-operator-") as d:
        yield Path(d)


@pytest.mark.timeout(900)
def test_the_wheel_on_the_locked_runtime_serves(installed, elsewhere):
    """``spitlog serve`` of the clean install, on a real redis-server: /healthz is 200, a
    game is created, read back and joined, by the installed package, not the checkout."""
    where = checked(run([installed / "python", "-c", "import service; print(service.__file__)"],
                        elsewhere))  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(installed.parent), where.stdout
    redis_dir = elsewhere / "redis"
    redis_dir.mkdir()
    redis_proc, redis_port = start_redis(str(redis_dir))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(SPITLOG_REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
               SPITLOG_BIND=f"127.0.0.1:{port}", SPITLOG_WORKERS="1")  # fmt: skip
    env.pop("SPITLOG_ARCHIVE_URL", None)  # the default: ./spitlog-archive, here
    serve = subprocess.Popen([installed / "spitlog", "serve"], cwd=elsewhere, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)  # fmt: skip
    try:
        try:
            wait_ready(base, serve, timeout=120)
        except RuntimeError as e:
            pytest.fail(f"{e}: {stop(serve)}")
        assert requests.get(f"{base}/healthz", timeout=10).status_code == 200
        r = requests.post(f"{base}/v1/games", json={"game": "spit"}, timeout=10)
        assert r.status_code == 201, r.text
        game = r.json()
        view = requests.get(
            f"{base}/v1/games/{game['id']}",
            headers={"Authorization": f"Bearer {game['token']}"},
            timeout=10,
        )
        assert view.status_code == 200 and view.json()["status"] == "waiting", view.text
        joined = requests.post(f"{base}/v1/games/{game['id']}/seats", json={}, timeout=10)
        assert joined.status_code == 201 and joined.json()["seat"] == 1, joined.text
    finally:
        out = stop(serve)
        stop_redis(redis_proc)
    assert "Traceback" not in out, out


def test_spitlog_dev_without_the_dev_extra_says_what_to_install(installed, elsewhere):
    r = run([installed / "spitlog", "dev"], elsewhere, timeout=120)
    assert (r.returncode, r.stdout) == (2, ""), (r.returncode, r.stdout, r.stderr)
    assert r.stderr == (
        "spitlog dev needs the embedded Redis (or SPITLOG_REDIS_URL): pip install 'spitlog[dev]'\n"
    )
