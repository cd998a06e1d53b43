"""Service tests: the Flask test client on fakeredis (a fresh server per test)."""

import fakeredis
import pytest
from api_helpers import TEST_CONFIG

from service.app import create_app


@pytest.fixture
def redis_client():
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


@pytest.fixture
def app(redis_client):
    return create_app(TEST_CONFIG, redis_client=redis_client)


@pytest.fixture
def client(app):
    return app.test_client()
