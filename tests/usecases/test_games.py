"""A game's use cases on the fakes: seating, joining, acting with its Idempotency-Key and
If-Match, the races an append can lose, the system's actions."""

import dataclasses

import pytest

import domain
from service.errors import (
    BadRequest,
    Busy,
    IdempotencyKeyReused,
    KeyInUse,
    PreconditionFailed,
    SeatTaken,
    Unauthorized,
)
from service.players import Who
from tests.usecases.conftest import T0, make_world

KEY = "0123456789abcdef-key"


def seated(world, game="spit", **options):
    """A game of two humans, both seats taken: (id, seat 0's token, seat 1's)."""
    made = world.cases.seating.create(game, options, "human", "c0").body
    joined = world.cases.joining.join(made["id"], "c1").body
    return made["id"], made["token"], joined["token"]


def test_a_game_is_created_joined_and_played_through_the_use_cases(world):
    made = world.cases.seating.create("spit", {}, "human", "c0").body
    assert made["seat"] == 0 and made["state"]["status"] == "waiting"
    assert made["commitment"] == domain.commitment(world.store.game_record(made["id"]).seed)
    joined = world.cases.joining.join(made["id"], "c1").body
    assert joined["seat"] == 1 and joined["state"]["you"] == 1
    acted = world.acting.act(made["id"], made["token"], {"type": "ready"}).body
    assert acted["version"] == joined["state"]["version"] + 1
    assert [e["type"] for e in acted["events"]] == ["player_ready"]
    record = world.store.game_record(made["id"])
    assert record.status == "running" and all(s.token_hash for s in record.seats)
    assert world.store.token_owner(record.seats[1].token_hash) == (made["id"], 1)


def test_every_event_is_stamped_by_the_injected_clock(world):
    gid, t0, _t1 = seated(world)
    world.clock.shift(2.5)
    world.acting.act(gid, t0, {"type": "ready"})
    stamps = [e["at"] for _v, e in world.store.read_after(gid, 0)]
    assert stamps[0] == T0 and stamps[-1] == T0 + 2.5


def test_the_same_entropy_deals_the_same_game(world):
    first = make_world(seed=7)
    again = make_world(seed=7)
    a = first.cases.seating.create("speed", {}, "bot:easy", "").body
    b = again.cases.seating.create("speed", {}, "bot:easy", "").body
    assert a["id"] == b["id"] and a["token"] == b["token"] and a["state"] == b["state"]
    other = make_world(seed=8).cases.seating.create("speed", {}, "bot:easy", "").body
    assert other["commitment"] != a["commitment"]


def test_a_token_of_no_seat_is_refused_before_anything_is_decided(world):
    gid, _t0, _t1 = seated(world)
    with pytest.raises(Unauthorized):
        world.acting.act(gid, "not-a-token", {"type": "ready"})
    with pytest.raises(Unauthorized):
        world.acting.act(gid, None, {"type": "ready"})
    assert world.store.version(gid) == 3  # created, seat taken, dealt: nothing more


def test_an_action_retried_with_its_key_is_answered_again_and_appended_once(world):
    gid, t0, _t1 = seated(world)
    first = world.acting.act(gid, t0, {"type": "ready"}, idem_key="k1")
    again = world.another_process().acting.act(gid, t0, {"type": "ready"}, idem_key="k1")
    assert again.replayed and again.body == first.body and not first.replayed
    assert world.store.version(gid) == 4
    with pytest.raises(IdempotencyKeyReused):
        world.acting.act(gid, t0, {"type": "resign"}, idem_key="k1")


def test_Q2_a_refusal_is_the_first_answer_of_its_key_too(world):
    """RULES Q-2 (no play before both are ready): refused at its version, and its key
    answers the same refusal again, even once the action could be legal."""
    gid, t0, t1 = seated(world, game="speed")
    world.acting.act(gid, t0, {"type": "ready"})
    early = {"type": "play", "card": "AS", "to": 0}
    with pytest.raises(domain.IllegalAction) as refused:
        world.acting.act(gid, t0, early, idem_key="k2")
    assert refused.value.version == 4
    world.acting.act(gid, t1, {"type": "ready"})  # the round starts
    with pytest.raises(domain.IllegalAction) as again:
        world.acting.act(gid, t0, early, idem_key="k2")
    assert refused.value.rule == "Q-2"
    assert again.value.replayed and again.value.rule == refused.value.rule


def test_if_match_refuses_an_action_on_another_version(world):
    gid, t0, _t1 = seated(world)
    with pytest.raises(PreconditionFailed) as e:
        world.acting.act(gid, t0, {"type": "ready"}, if_match=frozenset({1}))
    assert e.value.version == 3 and world.store.version(gid) == 3
    world.acting.act(gid, t0, {"type": "ready"}, if_match=frozenset({3}))
    assert world.store.version(gid) == 4


def test_an_action_decided_on_a_stale_cache_is_decided_again_on_what_it_missed(world):
    """Another process moved the game on since this one cached it: the append's clash
    brings the events missed, and the action is decided again on them (one round trip
    more, no load)."""
    gid, t0, t1 = seated(world)
    world.acting.act(gid, t0, {"type": "ready"})  # this process caches version 4
    world.another_process().acting.act(gid, t1, {"type": "ready"})  # version 5 elsewhere
    loads = []
    real = world.store.load
    world.store.load = lambda *a, **k: loads.append(a) or real(*a, **k)
    acted = world.acting.act(gid, t0, {"type": "resign"}).body
    assert loads == [] and acted["version"] == world.store.version(gid)
    assert acted["events"][0]["type"] == "player_resigned"


def test_a_game_that_keeps_moving_is_busy_after_the_retries(world):
    gid, t0, _t1 = seated(world)
    cases = world.cases
    real = world.store.append

    def always_behind(game_id, expected, *a, **k):  # someone always got there first
        return real(game_id, expected + 1000, *a, **k)

    world.store.append = always_behind
    with pytest.raises(Busy):
        cases.acting.act(gid, t0, {"type": "ready"})
    world.store.append = real
    assert world.store.version(gid) == 3


def test_a_keyed_create_answers_its_first_answer_to_its_caller_only(world):
    body = {"game": "spit"}
    seating = world.cases.seating
    first = seating.create("spit", {}, "human", "", idem_key=KEY, body=body, caller="app:a")
    again = seating.create("spit", {}, "human", "", idem_key=KEY, body=body, caller="app:a")
    assert again.replayed and again.body == first.body
    other = seating.create("spit", {}, "human", "", idem_key=KEY, body=body, caller="app:b")
    assert other.body["id"] != first.body["id"]
    with pytest.raises(IdempotencyKeyReused):
        seating.create("speed", {}, "human", "", idem_key=KEY, body={"game": "speed"},
                       caller="app:a")  # fmt: skip


def test_a_keyed_create_in_flight_is_a_409_to_its_retry(world):
    seating = world.cases.seating
    from service.idempotency import fingerprint, scoped
    from service.tokens import token_hash

    key_hash = token_hash(scoped("app:a", KEY))[:32]  # a create that has not made its game yet
    world.store.claim_create(key_hash, "g_00000000000000aa", fingerprint({}), int(T0 * 1000))
    with pytest.raises(KeyInUse):
        seating.create("spit", {}, "human", "", idem_key=KEY, body={}, caller="app:a")


def test_a_webhook_is_checked_through_the_outbound_port(world):
    seating = world.cases.seating
    made = seating.create("spit", {}, "human", "", webhook={"url": "https://hooks.example.com/h"})
    assert made.body["webhook"]["secret"].startswith("whsec_")
    world.outbound.hosts["inside.example.com"] = ["10.0.0.7"]
    with pytest.raises(BadRequest) as e:
        seating.create("spit", {}, "human", "", webhook={"url": "https://inside.example.com/h"})
    assert "private or reserved" in e.value.errors["webhook.url"][0]


def test_the_free_seat_is_taken_once(world):
    gid, _t0, _t1 = seated(world)
    with pytest.raises(SeatTaken):
        world.cases.joining.join(gid, "late")


def test_a_rated_game_seats_its_players_with_their_ratings(world):
    alice, bob = (
        Who("human", "Alice", "a_0123456789ab:alice"),
        Who("human", "Bob", "a_0123456789ab:bob"),
    )
    made = world.cases.seating.create("spit", {}, "human", "", who=alice, rated=True).body
    world.cases.joining.join(made["id"], "", who=bob)
    record = world.store.game_record(made["id"])
    assert record.rated and record.pkeys == (alice.pkey, bob.pkey)
    assert record.seats[0].player.rating == 1500 and record.seats[0].player.provisional
    assert [g.game_id for g in world.players.player_games(alice.pkey, None, 5)] == [made["id"]]


def test_the_workers_submit_on_the_version_they_planned(world):
    gid, _t0, _t1 = seated(world)
    state = world.cases.reading.load(gid).state
    assert world.acting.submit(gid, 0, domain.Ready(), state.version - 1) is None  # moved on
    after = world.acting.submit(gid, 0, domain.Ready(), state.version)
    assert after.version == state.version + 1
    assert world.acting.submit(gid, 0, domain.Ready(), after.version) is None  # not legal now


def test_T5_fires_by_the_injected_clock(world):
    """RULES T-5: a game whose empty seat stays empty past ``join_timeout_s`` is aborted
    when the system submits its timeout then, not before."""
    made = world.cases.seating.create("spit", {"join_timeout_s": 30}, "human", "").body
    timeout = domain.Timeout("T-5")
    assert world.acting.submit(made["id"], None, timeout) is None  # not due yet
    world.clock.shift(31)
    assert world.acting.submit(made["id"], None, timeout).status == "aborted"
    record = world.store.game_record(made["id"])
    assert record.status == "aborted" and dataclasses.replace(record, status="x") != record


def test_a_rated_create_that_fails_before_its_game_is_made_gives_its_pair_count_back():
    """The cap of rated games of a pair (here 1): a create that counted its game and then
    failed before making it (the player store down as the seat is made) leaves the count
    as it was, so the next create of the pair is not refused."""
    world = make_world(rated_pair_cap=1)
    alice = Who("human", "Alice", "a_0123456789ab:alice")
    real = world.players.touch_player

    def down(*_a):
        raise ConnectionError("the player store is down")

    world.players.touch_player = down
    with pytest.raises(ConnectionError):
        world.cases.seating.create("spit", {}, "bot:hard", "", who=alice, rated=True)
    world.players.touch_player = real
    made = world.cases.seating.create("spit", {}, "bot:hard", "", who=alice, rated=True).body
    assert world.store.game_record(made["id"]).rated
