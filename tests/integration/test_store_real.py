"""The event store's contract again, on a real redis-server: fakeredis runs another Lua
than Redis and could hide an atomicity bug."""

from service.records import IdemKey, KeptAnswer
from tests.service.people_contract import *  # noqa: F403
from tests.service.store_contract import *  # noqa: F403


def test_the_records_of_a_long_game_stay_in_small_encodings(store, redis_client):  # noqa: F405
    """1,500 keyed actions (a long game has ~700): each bucket stays a listpack, 4 to 5 times
    smaller than a hash table (docs/decisions/0010-small-game-keys.md)."""
    store.append("g1", 0, [{"type": "x"}])
    for i in range(1500):
        rec = KeptAnswer(f"{i:016x}", appended=(10_000 + i, 10_001 + i))
        store.append(
            "g1", 1 + i, [{"type": "x"}], idem=(IdemKey(i % 2, f"{i:08d}-uuid-like-key"), rec)
        )
    keys = redis_client.keys("spit:{g:g1}:idem:*")
    assert len(keys) == 8
    assert {redis_client.object("encoding", k) for k in keys} == {b"listpack"}
    assert sum(redis_client.memory_usage(k, samples=0) for k in keys) < 1500 * 50
