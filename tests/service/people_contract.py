"""The player store's and the seek store's contract, run on fakeredis
(tests/service/test_store_fake.py), on a real redis-server
(tests/integration/test_store_real.py) and on the in-memory fakes the use cases' tests run
on (tests/service/test_store_memory.py). Each test needs a ``players`` or ``seeks``
fixture."""

import pytest

from service.records import AppRecord, Pairing, SeekRecord
from service.store.players import PlayerStore
from service.store.seeks import SeekStore

APP = "a_0123456789ab"
ALICE, BOB, CAROL = f"{APP}:alice", f"{APP}:bob", f"{APP}:carol"


@pytest.fixture
def players(redis_client):
    return PlayerStore(redis_client)


@pytest.fixture
def seeks(redis_client):
    return SeekStore(redis_client)


def rating(r: float, games: int = 1) -> dict:
    return {"rating": r, "rd": 60.0, "vol": 0.06, "games": games, "wins": games, "losses": 0,
            "draws": 0}  # fmt: skip


def test_a_player_is_made_once_and_keeps_its_latest_name(players):
    players.touch_player(ALICE, "Alice", 1000)
    players.touch_player(ALICE, "Alicia", 2000)
    got = players.player(ALICE)
    assert (got.name, got.created_ms, got.ratings) == ("Alicia", 1000, {})
    assert players.player(BOB) is None and players.players([ALICE, BOB])[1] is None
    with pytest.raises(ValueError):
        players.touch_player(f"{APP}:..", "dots", 1000)  # not of the grammar: no such player


def test_a_rating_applies_once_and_only_on_the_guards_read(players):
    for p in (ALICE, BOB):
        players.touch_player(p, p, 1000)
    marker, guards = players.read_for_rating("g1", "spit", [ALICE, BOB])
    assert marker is None and [r for _g, r in guards] == [None, None]
    updates = [(ALICE, guards[0][0], rating(1600.0), True),
               (BOB, guards[1][0], rating(1400.0), False)]  # fmt: skip
    assert players.apply_rating("g1", "spit", '{"o":1}', updates) == ("ok", None)
    assert players.apply_rating("g1", "spit", '{"o":2}', updates) == ("done", '{"o":1}')
    assert players.apply_rating("g2", "spit", '{"o":3}', updates) == ("moved", None)
    assert players.ratings([ALICE, BOB, CAROL], "spit") == [rating(1600.0), rating(1400.0), None]
    assert players.player(ALICE).ratings == {"spit": rating(1600.0)}
    marker, guards = players.read_for_rating("g1", "spit", [ALICE])
    assert marker == '{"o":1}' and guards[0][1] == rating(1600.0)


def test_the_leaderboard_lists_established_ratings_highest_first_a_page_at_a_time(players):
    for n, (p, r) in enumerate(((ALICE, 1500.0), (BOB, 1700.0), (CAROL, 1600.0))):
        players.touch_player(p, p, 1000)
        (_m, guards) = players.read_for_rating(f"g{n}", "speed", [p])
        players.apply_rating(f"g{n}", "speed", "{}", [(p, guards[0][0], rating(r), True)])
    page, more = players.leaderboard("speed", None, 2)
    assert [p for _m, p in page] == [BOB, CAROL] and more
    assert players.rank("speed", page[1][0]) == 1
    rest, more = players.leaderboard("speed", page[-1][0], 2)
    assert [p for _m, p in rest] == [ALICE] and not more
    players.unlist("speed", page[0][0])
    assert [p for _m, p in players.leaderboard("speed", None, 5)[0]] == [CAROL, ALICE]


def test_a_players_games_are_listed_newest_first_until_forgotten(players):
    players.touch_player(ALICE, "Alice", 1000)
    for n in range(3):
        players.index_game([ALICE], f"g_{n}", 1000 + n)
    listed = players.player_games(ALICE, None, 2)
    assert [(x.game_id, x.created_ms) for x in listed] == [("g_2", 1002), ("g_1", 1001)]
    older = players.player_games(ALICE, listed[-1].cursor, 5)
    assert [x.game_id for x in older] == ["g_0"]
    players.forget_game("g_1", [ALICE], 1001)
    assert [x.game_id for x in players.player_games(ALICE, None, 5)] == ["g_2", "g_0"]


def test_a_pair_of_seats_starts_at_most_its_cap_of_rated_games_in_the_window(players):
    day = 86_400_000
    assert players.take_pair(ALICE, "bot:hard", "g1", 1000, day, 2) == ("taken", 0)
    assert players.take_pair("bot:hard", ALICE, "g1", 1001, day, 2) == ("had", 1)
    assert players.take_pair(ALICE, "bot:hard", "g2", 2000, day, 2, take=False) == ("open", 1)
    assert players.take_pair(ALICE, "bot:hard", "g2", 2000, day, 2) == ("taken", 1)
    assert players.take_pair(ALICE, "bot:hard", "g3", 3000, day, 2) == ("full", day - 2000)
    players.release_pair(ALICE, "bot:hard", "g2")
    assert players.take_pair(ALICE, "bot:hard", "g3", 3000, day, 2) == ("taken", 1)
    assert players.take_pair(ALICE, "bot:hard", "g4", 1000 + day + 1, day, 2)[0] == "taken"


def test_an_apps_key_is_found_by_its_hash_until_revoked(players):
    players.add_app("a_1", "h1" * 32, "acme", 1000)
    players.add_app("a_2", "h2" * 32, "rival", 2000)
    assert players.app_by_hash("h1" * 32) == AppRecord("a_1", "acme", 1000)
    assert [a.id for a in players.apps()] == ["a_1", "a_2"]
    assert players.revoke_app("a_2", 3000) == AppRecord("a_2", "rival", 2000, 3000)
    assert players.revoke_app("a_2", 4000).revoked_ms == 3000  # revoked once
    assert players.revoke_app("a_9", 3000) is None and players.app_by_hash("x") is None


T = 4_000_000_000_000  # ms: the seeks' times (far ahead: their keys expire after them)


def seek(pool="p", rating=1500, low=0, high=4000, pkey=None, created=1000, expires=60_000,
         fallback=None, token="t") -> SeekRecord:  # fmt: skip
    """A seek; its times (ms) are after ``T``."""
    return SeekRecord(game="spit", options={"max_rounds": 3}, rated=False, low=low, high=high,
                      rating=rating, kind="human", name=None, pkey=pkey, token_hash=token,
                      created_ms=T + created, expires_ms=T + expires,
                      fallback_ms=None if fallback is None else T + fallback,
                      pool=pool)  # fmt: skip


def test_a_seek_pairs_with_the_oldest_one_each_range_accepts(seeks):
    seeks.add("s_1", seek(rating=1500, low=1400, high=1600, created=1), T + 60_000)
    assert seeks.pair("s_1", "p", T + 10, "g_1") == ("queued", None)
    seeks.add("s_2", seek(rating=2000, created=2), T + 60_000)  # s_1's range refuses 2000
    assert seeks.pair("s_2", "p", T + 20, "g_2") == ("queued", None)
    seeks.add("s_3", seek(rating=1550, created=3), T + 60_000)
    assert seeks.pair("s_3", "p", T + 30, "g_3") == ("paired", "s_1")
    a, b = seeks.get("s_1"), seeks.get("s_3")
    assert (a.status, a.game_id, a.seat, a.opponent) == ("making", "g_3", 0, "s_3")
    assert (b.status, b.seat, b.opponent) == ("making", 1, "s_1") and b.version == 1
    assert a.options == {"max_rounds": 3} and a.token_hash == "t"
    (pairing,) = seeks.making(T + 30)
    assert pairing == Pairing("g_3", "s_1", "s_3")
    seeks.finish(pairing)
    assert seeks.get("s_1").status == seeks.get("s_3").status == "paired"
    assert seeks.making(T + 10**9) == [] and seeks.get("s_2").status == "open"


def test_a_players_seeks_never_pair_together(seeks):
    seeks.add("s_1", seek(pkey=ALICE, created=1), T + 60_000)
    seeks.pair("s_1", "p", T + 10, "g_1")
    seeks.add("s_2", seek(pkey=ALICE, created=2), T + 60_000)
    assert seeks.pair("s_2", "p", T + 20, "g_2") == ("queued", None)


def test_a_seek_falls_back_to_a_hosted_bot_or_expires_when_due(seeks):
    seeks.add("s_1", seek(fallback=5000, expires=9000), T + 5000)
    seeks.pair("s_1", "p", T + 10, "g_1")
    assert seeks.overdue(T + 4999) == [] and seeks.overdue(T + 5000) == ["s_1"]
    assert seeks.due("s_1", "p", T + 4000, "g_9", "bot:easy") == ("later", T + 5000)
    assert seeks.due("s_1", "p", T + 5000, "g_9", "bot:easy") == ("fallback", None)
    got = seeks.get("s_1")
    assert (got.status, got.game_id, got.seat, got.opponent) == ("making", "g_9", 0, "bot:easy")
    assert seeks.making(T + 5000) == [Pairing("g_9", "s_1", "bot:easy")]
    seeks.add("s_2", seek(expires=9000, created=2), T + 9000)
    seeks.pair("s_2", "p", T + 10, "g_2")
    assert seeks.due("s_2", "p", T + 9000, "g_8", "bot:easy") == ("expired", None)
    assert seeks.get("s_2").status == "expired" and seeks.due("s_2", "p", T + 9001, "g", "x") == (
        "not-open", None)  # fmt: skip
    seeks.add("s_3", seek(created=3), T + 60_000)
    assert seeks.pair("s_3", "p", T + 20, "g_3") == ("queued", None)  # no expired one taken


def test_an_open_seek_is_cancelled_a_paired_one_is_not(seeks):
    seeks.add("s_1", seek(created=1), T + 60_000)
    seeks.pair("s_1", "p", T + 10, "g_1")
    assert seeks.cancel("s_1", "p") == "cancelled" and seeks.get("s_1").status == "cancelled"
    seeks.add("s_2", seek(created=2), T + 60_000)
    assert seeks.pair("s_2", "p", T + 20, "g_2") == ("queued", None)  # the cancelled one left
    seeks.add("s_3", seek(created=3), T + 60_000)
    seeks.pair("s_3", "p", T + 30, "g_3")
    assert seeks.cancel("s_3", "p") == "making"
