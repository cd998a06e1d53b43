"""Integration tests: a real redis-server, started once for the session on a free
loopback port (no persistence), flushed before each test."""

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "service"))  # api_helpers


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url():
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = _free_port()
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", workdir, "--maxmemory-policy", "noeviction"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"redis://127.0.0.1:{port}/0"
        client = redis.Redis.from_url(url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            proc.kill()
            pytest.fail("redis-server did not start")
        try:
            yield url
        finally:
            proc.terminate()
            proc.wait(10)


@pytest.fixture
def redis_client(redis_url):
    client = redis.Redis.from_url(url=redis_url)
    client.flushall()
    yield client
    client.close()
