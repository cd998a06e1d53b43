"""Integration tests: the real redis-server of the session (``tests/conftest.py``),
flushed before each test."""

import pytest
import redis


@pytest.fixture
def redis_client(redis_url):
    client = redis.Redis.from_url(url=redis_url)
    client.flushall()
    yield client
    client.close()
