"""The event store's contract on fakeredis (the same tests run on a real redis-server in
tests/integration/test_store_real.py)."""

from tests.service.people_contract import *  # noqa: F403
from tests.service.store_contract import *  # noqa: F403
