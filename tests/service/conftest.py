"""Service tests: the Flask test client on fakeredis (a fresh server per test)."""

import fakeredis
import pytest
from api_helpers import app_settings

from service.http.app import create_app


@pytest.fixture
def redis_client():
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


@pytest.fixture
def app(redis_client):
    return create_app(app_settings(), redis_client=redis_client)


@pytest.fixture
def client(app):
    return app.test_client()
