"""The stores' contracts on the in-memory fakes the use cases' tests run on
(tests/support/fakes.py), so that the fakes cannot drift from the Redis adapters: every
test of the contracts that does not look into Redis itself (those take ``redis_client``)."""

import pytest

from tests.service.people_contract import *  # noqa: F403
from tests.service.store_contract import *  # noqa: F403
from tests.support.fakes import MemoryGameStore, MemoryPlayerStore, MemorySeekStore


@pytest.fixture
def redis_client():
    pytest.skip("looks into Redis itself: the Redis adapter's own")


@pytest.fixture
def store():
    return MemoryGameStore()


@pytest.fixture
def players():
    return MemoryPlayerStore()


@pytest.fixture
def seeks():
    return MemorySeekStore()
