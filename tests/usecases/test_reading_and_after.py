"""Reading a game, its lobby and its deadlines, and what comes after its end (the rematch,
the rating, the archive, the webhooks), on the fakes."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import domain
from service.errors import (
    GameRunning,
    NoSuchGame,
    NoSuchVersion,
    RatedPairCapped,
    Unconfirmed,
)
from service.players import Who
from service.webhooks import verify
from tests.usecases.conftest import T0, make_world
from tests.usecases.test_games import seated
from tests.usecases.test_ratings import establish

ALICE = Who("human", "Alice", "a_0123456789ab:alice")
BOB = Who("human", "Bob", "a_0123456789ab:bob")


def finished(world, game="speed", second: Who | None = None, **create):
    """A game of two seats in which each made a move (``State.moved``), ended by seat 0's
    resignation: (id, tokens)."""
    made = world.cases.seating.create(game, {}, "human", "", **create).body
    joined = world.cases.joining.join(made["id"], "", who=second or Who()).body
    gid, tokens = made["id"], (made["token"], joined["token"])
    rng = random.Random(3)
    for _step in range(500):
        state = world.cases.reading.load(gid).state
        if all(state.moved):
            break
        for seat in (0, 1):
            moves = [a for a in domain.legal_actions(state, seat) if type(a) is not domain.Resign]
            if moves:
                world.acting.act(gid, tokens[seat], domain.action_to_dict(rng.choice(moves)))
                state = world.cases.reading.load(gid).state
    world.acting.act(gid, tokens[0], {"type": "resign"})
    return gid, tokens


def test_H5_a_seats_view_and_the_log_of_a_running_game_are_redacted(world):
    """RULES H-5: while the game runs, each seat sees its own view (the use case answers
    ``domain.view`` for the seat asked), and the log it reads is redacted, not the
    stored one."""
    gid, _t0, _t1 = seated(world)
    reading = world.cases.reading
    game = reading.load(gid)
    for seat in (0, 1, None):
        view, bare = reading.view(game, seat), domain.view(game.state, seat)
        assert view["you"] == seat
        assert {k: view[k] for k in bare if k != "players"} == {
            k: v for k, v in bare.items() if k != "players"}  # fmt: skip
        for shown, own in zip(view["players"], bare["players"], strict=True):
            assert {k: shown[k] for k in own} == own  # (and the seat's player beside)
    stored = [{"version": v, **d} for v, d in reading.entries(game)]
    assert reading.redacted(reading.entries(game), None, False) != stored
    assert reading.redacted(reading.entries(game), None, True) == stored  # over: in full


def test_past_states_and_the_export_open_as_the_game_goes(world):
    gid, _tokens = finished(world)
    reading = world.cases.reading
    game = reading.load(gid)
    assert reading.state_at(game, None, 1)["status"] == "waiting"
    with pytest.raises(NoSuchVersion):
        reading.state_at(game, None, game.version + 1)
    export = reading.export(game)
    header = json.loads(export.splitlines()[0])
    assert header["server_seed"] == world.store.game_record(gid).seed.hex()
    running, _t0, _t1 = seated(world)
    with pytest.raises(GameRunning):
        reading.export(reading.load(running))
    with pytest.raises(NoSuchGame):
        reading.load("g_00000000000000ff")


def test_a_game_out_of_redis_is_read_from_the_archive_as_it_was(world):
    gid, _tokens = finished(world)
    before = world.cases.reading.export(world.cases.reading.load(gid))
    archiver = world.archiver(rematch_s=0)
    assert [archiver.step(gid)[0] for _ in range(2)] == ["archived", "deleted"]
    assert world.store.game_record(gid) is None
    fresh = world.another_process().cases.reading
    game = fresh.load(gid)
    assert game.log is not None and fresh.export(game) == before


def test_the_lobby_lists_newest_first_and_filters(world):
    ids = []
    for _ in range(3):
        world.clock.shift(1)
        ids.append(world.cases.seating.create("spit", {}, "human", "").body["id"])
    bot = world.cases.seating.create("speed", {}, "bot:easy", "").body["id"]
    lobby = world.cases.lobby
    page, nxt = lobby.page("open", None, 2)
    assert [g["id"] for g in page] == ids[:0:-1] and nxt is not None
    rest, nxt = lobby.page("open", nxt, 2)
    assert [g["id"] for g in rest] == ids[:1] and nxt is None
    assert [g["id"] for g in lobby.page("running", None, 5, kind="bot:easy")[0]] == [bot]
    assert lobby.page("running", None, 5, game="spit")[0] == []


def test_T4_the_time_the_service_refused_a_seat_pushes_its_deadline_back(world):
    """RULES T-4: a seat refused by the service (a 503) since its last action is not
    forfeited for that time: its deadline falls due that much later; a window of the
    other seat's changes nothing for it. RULES T-6: refused for ``idle_forfeit_s`` or
    more, its deadline is a T-6 due at once (the game is aborted, not forfeited)."""
    gid, t0, t1 = seated(world, game="speed", idle_forfeit_s=40)
    for token in (t0, t1):
        world.acting.act(gid, token, {"type": "ready"})
    game = world.cases.reading.load(gid)
    deadlines = world.cases.deadlines
    now = T0 + 100  # long due
    due, at = deadlines.due(game, now)
    assert due.rule == "T-4" and at == due.at == T0 + 40
    tokens = (t0, t1)
    deadlines.refused(gid, tokens[1 - due.seat], T0, T0 + 50)  # the other seat's
    assert deadlines.due(game, now) == (due, at)
    deadlines.refused(gid, tokens[due.seat], T0 + 5, T0 + 35)
    assert deadlines.excused(game, due.seat, now) == 30.0
    assert deadlines.due(game, now) == (due, at + 30)
    assert deadlines.due(game, T0 + 39) == (due, at)  # not due yet: nothing pushed back
    deadlines.refused(gid, tokens[due.seat], T0 + 35, T0 + 50)  # 45 s in all: over 40
    assert deadlines.due(game, now) == (domain.Deadline("T-6", due.at, due.seat), due.at)


def test_both_seats_asking_make_one_rematch_seats_swapped(world):
    gid, (t0, t1) = finished(world)
    rematches = world.rematches()
    assert rematches.ask(gid, t0)[0] == 202
    code, made = rematches.ask(gid, t1)
    assert code == 201 and made["seat"] == 0  # seat 1 of the old game: seat 0 now
    mine = rematches.read(gid, t0)
    assert mine["game"] == made["game"] and mine["seat"] == 1
    new = world.store.game_record(made["game"])
    assert new.rematch_of == gid and world.store.game_record(gid).rematch.game == made["game"]


def test_a_rematch_made_but_unconfirmed_is_answered_only_once_confirmed(world):
    """Strict durability: the ask that makes the rematch is a 503 while the replicas do not
    confirm it; its retry finds the game made, and is a 503 too until they do."""
    gid, (t0, t1) = finished(world)
    rematches = world.rematches()
    assert rematches.ask(gid, t0)[0] == 202
    world.store.confirming = False
    with pytest.raises(Unconfirmed):
        rematches.ask(gid, t1)
    new_id = world.store.game_record(gid).rematch.game
    assert world.store.game_record(new_id) is not None  # made, in the primary's log
    with pytest.raises(Unconfirmed):
        rematches.ask(gid, t1)  # the retry
    with pytest.raises(Unconfirmed):
        world.another_process().rematches().read(gid, t0)
    world.store.confirming = True
    code, made = rematches.ask(gid, t1)
    assert code == 201 and made["game"] == new_id


def test_a_rated_game_is_rated_once_and_capped_per_pair(world):
    capped = make_world(rated_pair_cap=1)
    for who in (ALICE, BOB):  # established: each is rated against the other
        establish(capped, who, "speed", 1600.0)
    gid, _tokens = finished(capped, who=ALICE, rated=True, second=BOB)
    game = capped.cases.reading.load(gid)
    assert game.state.status == "finished" and game.rated and all(game.state.moved)
    assert capped.rater().step(gid) == "rated" and capped.rater().step(gid) == "done"
    ratings = capped.players.ratings([ALICE.pkey, BOB.pkey], "speed")
    assert ratings[0]["losses"] == 16 and ratings[1]["wins"] == 16  # alice resigned
    assert capped.store.game_record(gid).rating["seats"][1]["who"] == BOB.pkey
    made = capped.cases.seating.create("speed", {}, "human", "", who=ALICE, rated=True).body
    with pytest.raises(RatedPairCapped):  # the pair's one rated game of the day is taken
        capped.cases.joining.join(made["id"], "", who=BOB)


def test_webhook_notifications_are_delivered_signed_through_the_outbound_port(world):
    hook = {"url": "https://hooks.example.com/h", "events": "all"}
    made = world.cases.seating.create("spit", {}, "bot:easy", "", webhook=hook).body
    assert world.deliverer().step(made["id"]) == ("done", None)
    sent = world.outbound.sent
    assert sent and all(url == hook["url"] for url, _b, _h in sent)
    secret = made["webhook"]["secret"]
    for _url, body, headers in sent:
        assert verify(secret, headers["Spitlog-Signature"], body, T0)
    kinds = [json.loads(b)["type"] for _u, b, _h in sent]
    assert "seat.joined" in kinds and "game.started" in kinds
    log = world.store.deliveries(made["id"], 100)
    assert len(log) == len(sent) and all(d["status"] == 200 for d in log)


def test_a_failing_webhook_target_is_tried_again_after_its_backoff(world):
    world.outbound.statuses = [500]
    made = world.cases.seating.create(
        "spit", {}, "bot:easy", "", webhook={"url": "https://hooks.example.com/h"}
    ).body
    outcome, again = world.deliverer().step(made["id"])
    assert outcome == "retry" and again > T0
    assert world.deliverer().step(made["id"])[0] == "retry"  # not before its time: nothing
    world.clock.shift(again - T0)
    assert world.deliverer().step(made["id"]) == ("done", None)


def test_two_compatible_seeks_pair_into_one_game(world):
    seeks = world.seeks()
    first = seeks.post("spit", {})
    assert first["status"] == "open"
    second = seeks.post("spit", {})
    assert second["status"] == "paired" and second["seat"] == 1
    mine = seeks.read(first["id"], first["token"])
    assert mine["status"] == "paired" and mine["game_id"] == second["game_id"]
    game = world.cases.reading.load(second["game_id"])
    assert world.cases.tokens.seat(game, first["token"]) == 0
    assert world.cases.tokens.seat(game, second["token"]) == 1


def test_apps_keys_authenticate_until_revoked(world):
    apps = world.apps()
    app, key = apps.create("acme")
    assert apps.authenticate(key).id == app.id
    apps.revoke(app.id)
    with pytest.raises(Exception) as e:
        apps.authenticate(key)
    assert "revoked" in str(e.value)


def test_the_entries_of_a_game_loaded_earlier_go_on_to_the_log_or_end_at_upto(world):
    """A game loaded at version v reads the entries appended since (a stream holds the game
    it began with and reads on), unless ``upto`` ends them (a channel's resume sends them
    up to its hello's version, and its pusher the rest)."""
    gid, t0, _t1 = seated(world)
    reading = world.cases.reading
    game = reading.load(gid)
    world.acting.act(gid, t0, {"type": "ready"})
    now = reading.load(gid).version
    assert now > game.version
    assert [v for v, _d in reading.entries(game)] == list(range(1, now + 1))
    assert [v for v, _d in reading.entries(game, 1, upto=game.version)] == list(
        range(2, game.version + 1)
    )


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(sorted(domain.registry.games())), seed=st.integers(0, 2**16),
       step=st.integers(1, 4))  # fmt: skip
def test_a_game_moved_on_by_its_entries_is_the_game_read_anew(game, seed, step):
    """A stream's copy of a game moved on by the entries it sent (``Reading.moved_on``,
    the reducer, no read) is the game another process reads anew at that version: its
    state, its record, and its views for both seats and a spectator (RULES H-1, H-2: what
    each may see). Entries it holds already are passed over; a process whose cache holds
    the game answers its cached game only at the version the entries lead to. Entries
    that do not follow on, or that change the game's record (a seat taken, the end), are
    left to a load."""
    world = make_world(seed)
    made = world.cases.seating.create(game, {}, "human", "c0").body
    gid = made["id"]
    watcher = world.another_process().cases.reading  # the stream's process, its own cache
    known = watcher.load(gid)
    joined = world.cases.joining.join(gid, "c1").body
    seat_taken = world.cases.reading.entries(world.cases.reading.load(gid), known.version)
    assert seat_taken[0][1]["type"] == "seat_taken"
    assert watcher.moved_on(known, seat_taken) is None  # the record names the player now
    known = watcher.load(gid)
    tokens, rng, moved_on = (made["token"], joined["token"]), random.Random(seed), 0
    for _step in range(200):
        state = world.cases.reading.load(gid).state
        if state.over:
            break
        for seat in (0, 1):
            moves = [a for a in domain.legal_actions(state, seat) if type(a) is not domain.Resign]
            if moves:
                world.acting.act(gid, tokens[seat], domain.action_to_dict(rng.choice(moves)))
                state = world.cases.reading.load(gid).state
        now = world.cases.reading.load(gid)
        if now.version - known.version < step and not now.state.over:
            continue
        entries = world.cases.reading.entries(now, known.version - 1)  # one it holds
        if len(entries) > 2:
            assert watcher.moved_on(known, entries[2:]) is None  # a gap: not what follows
        if len(entries) > 2 and not now.state.over:
            # the acting process's cache holds the game at ``now``: not what these lead to
            short = world.cases.reading.moved_on(known, entries[:-1])
            assert short.version == entries[-2][0]
        moved = watcher.moved_on(known, entries)
        if now.state.over:
            assert moved is None  # the end changes the record: read anew
            break
        cached = world.cases.reading.cache.get(gid)  # the acting process's, at ``now``
        assert world.cases.reading.moved_on(known, entries) is cached
        fresh = world.another_process().cases.reading.load(gid)
        assert moved.version == fresh.version and moved.record == fresh.record
        assert domain.state_to_dict(moved.state) == domain.state_to_dict(fresh.state)
        for seat in (0, 1, None):
            assert watcher.view(moved, seat) == watcher.view(fresh, seat)
        known, moved_on = moved, moved_on + 1
    assert moved_on >= 3


def test_E5_the_lobby_gives_a_finished_games_winner_and_none_while_it_runs(world):
    """RULES E-5: a resignation ends the game, the other seat the winner; the lobby's row
    of the finished game names that seat (its record kept it at the end), and a running
    game's row has no ``winner``."""
    running, _t0, _t1 = seated(world)
    gid, _tokens = finished(world)
    rows = {r["id"]: r for r in world.cases.lobby.page("finished", None, 20)[0]}
    assert rows[gid]["winner"] == 1 and world.store.game_record(gid).won == "1"
    live = {r["id"]: r for r in world.cases.lobby.page("running", None, 20)[0]}
    assert "winner" not in live[running]
