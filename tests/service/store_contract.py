"""The event store's contract, run twice: on fakeredis (tests/service/test_store_fake.py)
and on a real redis-server (tests/integration/test_store_real.py), because fakeredis
runs another Lua than Redis. Each test needs a ``redis_client`` fixture."""

import dataclasses
import json
import threading
import time

import pytest
from redis.crc import key_slot

from service.records import (
    ArchivedMark,
    GameRecord,
    HookCursor,
    IdemKey,
    KeptAnswer,
    Player,
    Rematch,
    Seat,
    Webhook,
)
from service.store.redis import Appended, Clash, RedisStore, Replayed


def kept(fp: str, first: int = 1, last: int | None = None) -> KeptAnswer:
    """An idempotency record of an action that appended ``first``..``last``."""
    return KeptAnswer(fp, appended=(first, first if last is None else last))


def refused(fp: str, rule: str | None = None, version: int = 1) -> KeptAnswer:
    """An idempotency record of a refusal: the rules' (``rule``), or a game over."""
    if rule is None:
        return KeptAnswer(fp, refusal="over", version=version, detail="the game is over")
    return KeptAnswer(fp, refusal="illegal", version=version, rule=rule, detail="no")


@pytest.fixture
def store(redis_client):
    return RedisStore(redis_client)


def ev(n: int, kind: str = "x") -> list[dict]:
    return [{"type": kind, "n": i} for i in range(n)]


def spit(**fields) -> GameRecord:
    """A game's record (a Spit game's, made at ms 1000, unless ``fields`` say otherwise)."""
    return GameRecord(**{"game": "spit", "created_ms": 1000, **fields})


FULL = GameRecord(
    game="speed", created_ms=1_767_225_600_123, status="finished",
    seats=(Seat("human", "ab" * 32, Player("a_1", "alice", "Alice", 1512, True)),
           Seat("bot", "cd" * 32, None, "Robo")),
    seed=bytes(range(32)), commitment="ef" * 32, rated=True,
    rating={"game": "speed", "seats": [{"who": "a_1:alice"}, {"who": "bot"}]},
    rematch=Rematch((1_767_225_700_000, None), "g_00000000000000aa", True),
    rematch_of="g_00000000000000bb", webhook=Webhook("https://example.com/h", "whsec_x", True),
    secret="12" * 16, create_key="34" * 16, created_version=2,
    archived=ArchivedMark(1_767_225_800_000, 90),
)  # fmt: skip


def test_append_numbers_events_from_one(store):
    assert store.append("g1", 0, ev(3), record=spit()) == Appended(3)
    assert [v for v, _d in store.read_after("g1", 1)] == [2, 3]
    assert store.read_after("g1", 0, limit=2) == [(1, {"type": "x", "n": 0}), (2, ev(2)[1])]
    assert store.read_after("g1", 0, upto=1) == [(1, ev(1)[0])]
    assert store.version("g1") == 3


def test_the_log_is_a_stream_whose_ids_are_the_versions(store, redis_client):
    store.append("g1", 0, ev(3), record=spit())
    ids = [i.decode() for i, _f in redis_client.xrange("spit:{g:g1}:log")]
    assert ids == ["0-1", "0-2", "0-3"]


def test_an_append_at_a_stale_version_changes_nothing(store):
    store.append("g1", 0, ev(3), record=spit())
    result = store.append(
        "g1", 1, ev(2, "late"), idem=(IdemKey(0, "k"), kept("a")), snapshot=(3, {"s": 1}),
        record=spit(status="finished"), before=spit(),
    )  # fmt: skip
    assert isinstance(result, Clash) and result.version == 3
    assert store.read_after("g1", 0) == [(n + 1, e) for n, e in enumerate(ev(3))]
    assert store.game_record("g1") == spit() and store.snapshot_at("g1", 3) is None
    assert store.find_record("g1", IdemKey(0, "k")) is None


def test_append_at_a_stale_version_writes_nothing_and_tells_what_was_missed(store, redis_client):
    store.append("g1", 0, ev(3), record=spit())
    before = {k: redis_client.dump(k) for k in redis_client.keys("*")}
    result = store.append(
        "g1", 1, ev(2, "late"), idem=(IdemKey(0, "k"), kept("a")), snapshot=(50, {"s": 1}),
        record=spit(status="finished"), before=spit(),
    )  # fmt: skip
    assert isinstance(result, Clash)
    assert result.version == 3
    assert result.record == spit()
    assert [v for v, _d in result.tail] == [2, 3]
    assert {k: redis_client.dump(k) for k in redis_client.keys("*")} == before


def test_a_clash_far_behind_comes_without_the_tail(store):
    store.append("g1", 0, ev(250))
    assert store.append("g1", 1, ev(1)) == Clash(250)


def test_an_idempotency_key_answers_again_and_appends_nothing(store):
    rec = kept("abc", 1, 2)
    assert store.append("g1", 0, ev(2), idem=(IdemKey(0, "k"), rec)) == Appended(2)
    assert store.append("g1", 2, ev(1), idem=(IdemKey(0, "k"), kept("zzz"))) == Replayed(rec)
    # checked before the version: a retry from a stale version is still the first answer
    assert store.append("g1", 0, ev(1), idem=(IdemKey(0, "k"), kept("zzz"))) == Replayed(rec)
    assert store.version("g1") == 2


def test_idempotency_records_are_per_field(store):
    store.append("g1", 0, ev(1), idem=(IdemKey(0, "k"), kept("a")))
    assert store.append("g1", 1, ev(1), idem=(IdemKey(1, "k"), kept("b"))) == Appended(2)


def test_record_keeps_the_first_answer(store):
    store.append("g1", 0, ev(1), record=spit())
    first = refused("a", "S-1")
    assert store.record("g1", IdemKey(0, "k"), first) is None
    assert store.record("g1", IdemKey(0, "k"), refused("b")) == first
    assert store.find_record("g1", IdemKey(0, "k")) == first


def test_a_game_gone_from_redis_gets_no_record(store):
    # (deleted after its archiving while a refusal was decided on it: no key comes back)
    assert store.record("g2", IdemKey(0, "k"), refused("a")) is None
    assert store.record("g2", IdemKey(0, "k"), refused("b")) is None
    assert store.find_record("g2", IdemKey(0, "k")) is None


def test_snapshot_and_record_are_written_with_the_append(store):
    store.append("g1", 0, ev(50), snapshot=(50, {"state": 1}), record=spit(rated=True))
    assert store.snapshot_at("g1", 50) == {"state": 1}
    assert store.load("g1").record == spit(rated=True) == store.game_record("g1")


def test_a_record_is_read_back_as_it_was_written(store):
    store.append("g1", 0, ev(1), record=FULL)
    assert store.game_record("g1") == FULL and store.load("g1").record == FULL
    assert store.game_record("nope") is None


def test_an_append_writes_what_changed_of_the_record(store):
    first = spit(status="waiting")
    store.append("g1", 0, ev(1), record=first)
    joined = first.with_seat(1, Seat("human", "ab" * 32))
    store.append("g1", 1, ev(1), record=dataclasses.replace(joined, status="running"),
                 before=first)  # fmt: skip
    assert store.game_record("g1") == dataclasses.replace(joined, status="running")
    store.append("g1", 2, ev(1), record=store.game_record("g1"), before=store.game_record("g1"))
    assert store.load("g1").record.seats[1].token_hash == "ab" * 32


def test_a_rating_is_recorded_on_a_game_that_exists_only(store):
    store.append("g1", 0, ev(1), record=spit(rated=True))
    assert store.set_rating("g1", {"game": "spit", "seats": []})
    assert store.game_record("g1").rating == {"game": "spit", "seats": []}
    assert not store.set_rating("nope", {"game": "spit"}) and store.game_record("nope") is None


def test_load_starts_from_the_newest_base(store):
    store.append("g1", 0, ev(50), snapshot=(50, {"at": 50}), record=spit())
    store.append("g1", 50, ev(10, "y"))
    cold = store.load("g1")
    assert (cold.version, cold.base, cold.snapshot) == (60, 50, {"at": 50})
    assert [v for v, _d in cold.tail] == list(range(51, 61))
    warm = store.load("g1", known=55)
    assert (warm.base, warm.snapshot, [v for v, _ in warm.tail]) == (55, None, [56, 57, 58, 59, 60])
    older = store.load("g1", known=40)  # the snapshot is newer than the caller's state
    assert (older.base, older.snapshot) == (50, {"at": 50})
    assert store.load("g1", known=60).tail == []
    ahead = store.load("g1", known=99)  # a cache ahead of the store is ignored
    assert (ahead.base, len(ahead.tail)) == (50, 10)


def test_a_snapshot_is_stored_compressed_and_a_plain_one_of_older_code_still_loads(
    store, redis_client
):
    state = {"format": 2, "state": {"cards": ["AS", "2H"] * 40}}
    store.append("g1", 0, ev(50), snapshot=(50, state), record=spit())
    raw = redis_client.hget("spit:{g:g1}:snap", "50")
    assert raw[:5] == b"\x02\x28\xb5\x2f\xfd" and len(raw) < len(json.dumps(state)) / 4
    assert store.snapshot_at("g1", 50) == state and store.load("g1").snapshot == state
    redis_client.hset("spit:{g:g1}:snap", "50", json.dumps(state))  # as older code stored it
    assert store.snapshot_at("g1", 50) == state
    assert (store.load("g1").base, store.load("g1").snapshot) == (50, state)


def test_an_unreadable_snapshot_loads_the_whole_log_instead(store, redis_client):
    store.append("g1", 0, ev(50), snapshot=(50, {"at": 50}), record=spit())
    store.append("g1", 50, ev(2, "y"))
    for junk in (b"\x01\x28\xb5\x2f\xfd" + b"cut", b"\x02\x28\xb5\x2f\xfd" + b"cut",
                 b"{not json", b"\x28\xb5\x2f\xfd"):  # fmt: skip
        redis_client.hset("spit:{g:g1}:snap", "50", junk)
        loaded = store.load("g1")
        assert (loaded.base, loaded.snapshot, len(loaded.tail)) == (0, None, 52)
        assert store.snapshot_at("g1", 50) is None


def test_load_without_a_snapshot_replays_from_the_start(store):
    store.append("g1", 0, ev(3), record=spit())
    loaded = store.load("g1")
    assert (loaded.base, loaded.snapshot, len(loaded.tail)) == (0, None, 3)


def test_load_of_no_game_is_none(store):
    assert store.load("nope") is None


def test_load_probes_an_idempotency_key_for_both_seats(store):
    store.append("g1", 0, ev(1), idem=(IdemKey(1, "k"), kept("a")), record=spit())
    assert store.load("g1", idem_key="k").idem == (None, kept("a"))
    assert store.load("g1", idem_key="other").idem == (None, None)


def test_an_appended_actions_record_is_small_and_found_where_it_was_put(store, redis_client):
    rec = kept("0123456789abcdef", 7, 9)
    store.append("g1", 0, ev(1), record=spit())
    assert store.append("g1", 1, ev(3), idem=(IdemKey(1, "key-a"), rec)) == Appended(4)
    stored = {f: v for k in redis_client.keys("spit:{g:g1}:idem:*")
              for f, v in redis_client.hgetall(k).items()}  # fmt: skip
    assert list(stored.values()) == [b"ASNFZ4mrze8:7:9"]  # 64 bits in base64, the versions
    assert len(next(iter(stored))) == 17  # the seat and 96 bits of the key's SHA-256
    assert store.load("g1", idem_key="key-a").idem == (None, rec)
    assert store.append("g1", 4, ev(1), idem=(IdemKey(1, "key-a"), kept("x"))) == Replayed(rec)
    assert store.record("g1", IdemKey(1, "key-a"), refused("y", "S-1")) == rec
    one = kept("0123456789abcdef", 12)
    store.append("g1", 4, ev(1), idem=(IdemKey(0, "key-b"), one))
    assert store.load("g1", idem_key="key-b").idem == (one, None)


def test_records_of_older_code_are_still_found(store, redis_client):
    old = {"fp": "0123456789abcdef0123456789abcdef", "s": 201, "v": [1, 1]}
    store.append("g1", 0, ev(1), record=spit())
    redis_client.hset("spit:{g:g1}:idem", "0:old-key", json.dumps(old))  # one hash, raw fields
    was = kept(old["fp"], 1)
    assert store.load("g1", idem_key="old-key").idem == (was, None)
    assert store.append("g1", 1, ev(1), idem=(IdemKey(0, "old-key"), kept("z"))) == Replayed(was)
    assert store.record("g1", IdemKey(0, "old-key"), refused("z", "S-1")) == was
    # older code's records of whole answers: an action's, and a refusal's
    whole = {"fp": "ab" * 16, "status": 201, "body": {"version": 1, "events": []}}
    no = {"fp": "cd" * 16, "status": 422, "body": {"version": 1, "rule": "S-1", "detail": "no"}}
    redis_client.hset("spit:{g:g1}:idem", mapping={"1:old-key": json.dumps(whole),
                                                   "0:old-no": json.dumps(no)})  # fmt: skip
    assert store.load("g1", idem_key="old-key").idem[1] == KeptAnswer(
        "ab" * 16, whole={"version": 1, "events": []})  # fmt: skip
    assert store.find_record("g1", IdemKey(0, "old-no")) == KeptAnswer(
        "cd" * 16, refusal="illegal", version=1, rule="S-1", detail="no")  # fmt: skip
    assert store.version("g1") == 1


def test_an_archived_game_is_deleted_whole_and_only_then(store):
    store.append("g1", 0, ev(2), record=spit(created_ms=5, create_key="k" * 32,
                                             seats=(Seat("human", "ab" * 32), Seat())))  # fmt: skip
    store.index("g1", status="finished", created_ms=5, tokens={0: "ab" * 32})
    store.record("g1", IdemKey(0, "refused"), refused("0123456789abcdef", "S-1"))
    assert store.claim_create("k" * 32, "g1", "f" * 16, 10) is None
    assert not store.delete_game("g1", 2)  # not archived
    store.mark_archived("g1", 1, 1000, 0)
    assert not store.delete_game("g1", 2)  # archived at another version
    store.mark_archived("g1", 2, 1000, 0)
    assert store.game_record("g1").archived == ArchivedMark(1000, 2)
    assert store.delete_game("g1", 2) and store.delete_game("g1", 2)  # (gone already: done)
    assert store.game_record("g1") is None and store.load("g1") is None
    assert store.token_owner("ab" * 32) is None and store.lobby("finished", None, 10)[0] == []
    assert store.find_record("g1", IdemKey(0, "refused")) is None
    assert store.claim_create("k" * 32, "g2", "f" * 16, 10) is None  # the create key is free


def test_delete_game_removes_every_key_of_the_game(store, redis_client):
    rec = kept("0123456789abcdef", 2)
    store.append("g1", 0, ev(50), snapshot=(50, {"at": 50}),
                 record=spit(created_ms=5, seats=(Seat("human", "ab" * 32), Seat())))  # fmt: skip
    store.index("g1", status="finished", created_ms=5, tokens={0: "ab" * 32})
    for i in range(40):
        store.append("g1", 50 + i, ev(1), idem=(IdemKey(i % 2, f"k{i}"), rec))
    store.record("g1", IdemKey(0, "refused"), refused("0123456789abcdef", "S-1", 3))
    store.refused("g1", "cd" * 32, 1.0, 2.0)
    redis_client.hset("spit:{g:g1}:idem", "0:old", "{}")
    assert len(redis_client.keys("spit:{g:g1}:idem:*")) == 9  # the 8 buckets and idem:r
    assert not store.delete_game("g1", 90)  # not archived
    store.mark_archived("g1", 90, 1000, 0)
    assert store.game_record("g1").archived == ArchivedMark(1000, 90)
    assert store.delete_game("g1", 90)
    assert redis_client.keys("spit:{g:g1}*") == [] and redis_client.keys("spit:token:*") == []
    assert redis_client.zcard("spit:lobby:finished") == 0


def test_wait_after_wakes_on_an_append(store, redis_client):
    store.append("g1", 0, ev(1))
    timer = threading.Timer(0.2, lambda: store.append("g1", 1, ev(2)))
    timer.start()
    t0 = time.monotonic()
    got = store.wait_after("g1", 1, 5.0)
    assert 0.1 < time.monotonic() - t0 < 3
    timer.join()
    assert [v for v, _d in got] in ([2], [2, 3])


def test_wait_after_times_out_empty(store, redis_client):
    store.append("g1", 0, ev(1))
    t0 = time.monotonic()
    assert store.wait_after("g1", 1, 0.2) == []
    assert time.monotonic() - t0 >= 0.15


def test_concurrent_appends_at_one_version_let_exactly_one_through(store):
    store.append("g1", 0, ev(1))
    results = []
    barrier = threading.Barrier(8)

    def go(i):
        barrier.wait()
        results.append(store.append("g1", 1, [{"type": "t", "by": i}, {"type": "u", "by": i}]))

    threads = [threading.Thread(target=go, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(r, Appended) for r in results) == 1
    assert sum(isinstance(r, Clash) for r in results) == 7
    log = store.read_after("g1", 0)
    assert len(log) == 3 and log[1][1]["by"] == log[2][1]["by"]  # both events of one writer


def test_every_key_of_a_game_is_in_one_cluster_slot(store, redis_client):
    store.append(
        "g1", 0, ev(50), idem=(IdemKey(0, "k"), kept("a")), snapshot=(50, {}), record=spit()
    )
    keys = [k.decode() for k in redis_client.keys("spit:{g:g1}*")]
    assert len(keys) == 4
    assert len({key_slot(k.encode()) for k in keys}) == 1


def test_lobby_pages_newest_first_and_moves_games_between_lists(store):
    for i in range(5):
        gid = f"g{i}"
        store.append(gid, 0, ev(1), record=spit(status="waiting", created_ms=1000 + i,
                                               seed=b"s", secret="ab"))  # fmt: skip
        store.index(gid, status="open", created_ms=1000 + i)
    page, cursor = store.lobby("open", None, 2)
    assert [r.id for r in page] == ["g4", "g3"] and cursor == page[-1].cursor
    assert page[0].record == spit(status="waiting", created_ms=1004)  # no secrets in a list
    assert page[0].version == 1
    page, cursor = store.lobby("open", cursor, 2)
    assert [r.id for r in page] == ["g2", "g1"]
    page, cursor = store.lobby("open", cursor, 2)
    assert [r.id for r in page] == ["g0"] and cursor is None
    before = store.game_record("g2")
    store.append("g2", 1, ev(1), record=dataclasses.replace(before, status="running"),
                 before=before)  # fmt: skip
    store.index("g2", status="running", created_ms=1002)
    assert [r.id for r in store.lobby("running", None, 10)[0]] == ["g2"]
    assert "g2" not in [r.id for r in store.lobby("open", None, 10)[0]]


def test_lobby_repairs_an_index_a_crash_left_stale(store):
    store.append("g1", 0, ev(1), record=spit(status="running", created_ms=5))
    store.index("g1", status="open", created_ms=5)  # as if the process died before moving it
    assert store.lobby("open", None, 10)[0] == []
    assert [r.id for r in store.lobby("running", None, 10)[0]] == ["g1"]


def test_token_index_names_the_game_and_seat(store):
    store.append("g1", 0, ev(1), record=spit(created_ms=1))
    store.index("g1", status="open", created_ms=1, tokens={0: "ab" * 32})
    assert store.token_owner("ab" * 32) == ("g1", 0)
    assert store.token_owner("cd" * 32) is None


def test_the_scripts_load_again_after_the_server_forgot_them(store, redis_client):
    """A restarted or failed-over Redis has no scripts: the first call after loads them."""
    assert store.append("g1", 0, ev(2), record=spit()) == Appended(2)
    redis_client.script_flush()
    assert store.append("g1", 2, ev(1)) == Appended(3)
    redis_client.script_flush()
    assert store.load("g1").version == 3


def test_an_append_writes_only_its_changes_over_what_others_wrote_meanwhile(store):
    """A record's fields written by others since the caller read it (a rematch's ask, the
    rating's outcome) stay: an append writes only what it changed."""
    store.append("g1", 0, ev(1), record=spit(status="running"))
    read = store.game_record("g1")
    store.rematch("g1", 0, 5, 10, "g2", (False, False))
    store.set_rating("g1", {"game": "spit"})
    store.append("g1", 1, ev(1), record=dataclasses.replace(read, status="finished"), before=read)
    now = store.game_record("g1")
    assert (now.status, now.rematch.asked_ms, now.rating) == ("finished", (5, None),
                                                              {"game": "spit"})  # fmt: skip


def test_a_rematch_is_named_once_both_seats_asked(store):
    store.append("g1", 0, ev(1), record=spit(status="finished"))
    assert store.rematch("g1", 1, 100, 1000, "g_a", (False, False)) == ("waiting", None)
    assert store.rematch("g1", 1, 200, 1000, "g_b", (False, False)) == ("waiting", None)
    assert store.game_record("g1").rematch.asked_ms == (None, 100)  # the first ask's time
    assert store.rematch("g1", 0, 300, 1000, "g_c", (False, False)) == ("made", "g_c")
    assert store.rematch("g1", 1, 2000, 1000, "g_d", (False, False)) == ("made", "g_c")
    assert store.game_record("g1").rematch.game == "g_c"
    assert store.rematch("nope", 0, 1, 1000, "g_e", (False, False)) == ("gone", None)


def test_a_rematch_is_refused_late_or_once_closed_and_a_hosted_bot_agrees(store):
    store.append("g1", 0, ev(1), record=spit(status="finished"))
    assert store.rematch("g1", 0, 2000, 1000, "g_a", (False, False)) == ("expired", None)
    store.append("g2", 0, ev(1), record=spit(status="finished"))
    assert store.rematch("g2", 0, 100, 1000, "g_b", (False, True)) == ("made", "g_b")
    store.append("g3", 0, ev(1), record=spit(status="finished"))
    store.close_rematch("g3")
    assert store.rematch("g3", 0, 100, 1000, "g_c", (False, False)) == ("closed", None)
    assert store.game_record("g3").rematch.closed


def test_refused_windows_are_kept_per_token_after_a_time(store):
    store.append("g1", 0, ev(1), record=spit())
    store.refused("g1", "ab" * 32, 10.0, 12.5)
    store.refused("g1", "ab" * 32, 20.0, 21.0)
    store.refused("g1", "cd" * 32, 10.0, 30.0)
    assert sorted(store.refused_windows("g1", "ab" * 32, 0.0)) == [(10.0, 12.5), (20.0, 21.0)]
    assert store.refused_windows("g1", "ab" * 32, 11.0) == [(11.0, 12.5), (20.0, 21.0)]
    assert store.refused_windows("g1", "ab" * 32, 15.0) == [(20.0, 21.0)]


def test_a_create_key_binds_one_game_until_released_or_stale(store):
    assert store.claim_create("a" * 32, "g1", "fp1", 1000) is None
    assert store.claim_create("a" * 32, "g2", "fp2", 2000) == ("g1", "fp1", 1000)
    store.release_create("a" * 32, "g2")  # not its game: nothing
    assert store.claim_create("a" * 32, "g2", "fp2", 2000) == ("g1", "fp1", 1000)
    store.release_create("a" * 32, "g1")
    assert store.claim_create("a" * 32, "g2", "fp2", 3000) is None
    late = 3000 + 31_000  # its game never came (its process died): taken over
    assert store.claim_create("a" * 32, "g3", "fp3", late) is None
    store.append("g3", 0, ev(1), record=spit())
    assert store.claim_create("a" * 32, "g4", "fp4", late + 60_000) == ("g3", "fp3", late)


def test_a_games_webhook_cursor_deliveries_and_lock(store):
    store.append("g1", 0, ev(1), record=spit())
    assert store.hooks("g1", "g") == HookCursor(1, 0, 0, 0.0, 0.0)
    cursor = HookCursor(version=3, sent=1, tries=2, failing_since=12.5, next_at=14.25)
    store.set_hooks("g1", "g", cursor)
    assert store.hooks("g1", "g") == cursor and store.hooks("g1", "d").version == 1
    for n in range(5):
        store.log_delivery("g1", "g", {"id": f"evt_{n}"}, 3)
    assert [d["id"] for d in store.deliveries("g1", 10)] == ["evt_2", "evt_3", "evt_4"]
    assert store.deliveries("g1", 10)[0]["target"] == "g"
    held = store.lock("g1", "hooks", 60_000)
    assert held is not None and store.lock("g1", "hooks", 60_000) is None
    store.unlock("g1", "hooks", "not-the-holder")
    assert store.lock("g1", "hooks", 60_000) is None
    store.unlock("g1", "hooks", held)
    assert store.lock("g1", "hooks", 60_000) is not None
