"""End to end: the real process tree (gunicorn + gevent workers on a real redis-server,
or `spitlog dev` on its embedded Redis), driven over HTTP with requests."""

import shutil
import subprocess
import tempfile

import pytest
from processes import free_port, start, stop, wait_ready


@pytest.fixture(scope="session")
def redis_url():
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", workdir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait(10)


@pytest.fixture(scope="session")
def served(redis_url):
    """`spitlog serve`: gunicorn, two gevent workers, on the real Redis."""
    port = free_port()
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_WORKERS": "2", "SPITLOG_SSE_MAX_S": "30",
           "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0",
           "SPITLOG_RATE_GAMES": "0"}  # fmt: skip
    proc = start(["serve"], env)  # the test plays flat out from one address: no rate limits
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
    except RuntimeError:
        pytest.fail(stop(proc))
    yield base
    stop(proc)
