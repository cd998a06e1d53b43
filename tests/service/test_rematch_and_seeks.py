"""Rematches and seeks on the API, on fakeredis; the concurrent
and crash tests run on a real redis-server (tests/integration/test_pairing_real.py)."""

import threading
import time

import pytest

from service.http.app import create_app
from service.records import GameRecord, Rematch
from tests.support.api import app_settings, bearer, move_each, new_game, problem_of


class Clock:
    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(redis_client, clock):
    return create_app(app_settings(rematch_s=60), redis_client=redis_client,
                      clock=clock).test_client()  # fmt: skip


def resign(client, gid, token):
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "resign"}, headers=bearer(token))
    assert r.status_code == 201


def test_both_seats_ask_and_get_one_new_game_with_seats_swapped(client):
    gid, t0, t1 = new_game(client, options={"stockpiles": 4})
    resign(client, gid, t1)
    first = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0))
    assert first.status_code == 202 and first.get_json()["status"] == "offered"
    assert first.get_json()["asked"] == [True, False]
    assert client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)).status_code == 202
    second = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t1))
    assert second.status_code == 201, second.get_json()
    made = second.get_json()
    assert made["seat"] == 0 and made["state"]["you"] == 0  # seat 1 moves to seat 0
    new = made["game"]
    assert second.headers["Location"] == f"/v1/games/{new}"
    # the first asker reads its new seat and token with its old token
    mine = client.get(f"/v1/games/{gid}/rematch", headers=bearer(t0)).get_json()
    assert (mine["status"], mine["game"], mine["seat"]) == ("made", new, 1)
    for token, seat in ((made["token"], 0), (mine["token"], 1)):
        assert client.get(f"/v1/games/{new}", headers=bearer(token)).get_json()["you"] == seat
    view = client.get(f"/v1/games/{new}").get_json()
    assert view["rematch_of"] == gid and view["options"]["stockpiles"] == 4
    assert view["status"] == "running"
    assert client.get(f"/v1/games/{gid}").get_json()["rematch"]["game"] == new
    again = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0))  # idempotent
    assert again.status_code == 201 and again.get_json()["token"] == mine["token"]
    spectator = client.get(f"/v1/games/{gid}/rematch").get_json()
    assert spectator["status"] == "made" and "token" not in spectator


def test_an_offer_expires_then_a_409(client, clock):
    gid, t0, t1 = new_game(client)
    resign(client, gid, t0)
    client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0))
    clock.t += 61
    late = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t1))
    assert problem_of(late, 409)["type"].endswith("rematch-expired")
    assert client.get(f"/v1/games/{gid}/rematch", headers=bearer(t0)).get_json()["status"] == (
        "expired"
    )


def test_no_rematch_before_the_end_nor_of_an_aborted_game_nor_without_a_seat(client):
    gid, t0, t1 = new_game(client)
    assert problem_of(client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)), 409)
    lone, l0, _ = new_game(client, join=False)
    resign(client, lone, l0)  # aborted (E-5 before the second seat)
    assert problem_of(client.post(f"/v1/games/{lone}/rematch", headers=bearer(l0)), 409)
    resign(client, gid, t0)
    assert problem_of(client.post(f"/v1/games/{gid}/rematch"), 401)
    assert problem_of(client.post(f"/v1/games/{gid}/rematch", headers=bearer(l0)), 403)


def test_a_hosted_bot_always_agrees(client):
    g = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy"}).get_json()
    resign(client, g["id"], g["token"])
    made = client.post(f"/v1/games/{g['id']}/rematch", headers=bearer(g["token"]))
    assert made.status_code == 201
    view = made.get_json()["state"]
    assert made.get_json()["seat"] == 1 and [p["kind"] for p in view["players"]] == [
        "bot:easy", "human"]  # fmt: skip


def test_a_seek_pairs_with_a_compatible_one_and_its_token_is_the_seat(client):
    a = client.post("/v1/seeks", json={"game": "speed", "rating_range": [1400, 1600]})
    assert a.status_code == 201 and a.get_json()["status"] == "open"
    other_game = client.post("/v1/seeks", json={"game": "spit"}).get_json()
    narrow = client.post("/v1/seeks", json={"game": "speed", "rating_range": [0, 1000]})
    assert narrow.get_json()["status"] == "open"  # 1500 is not in its range
    b = client.post("/v1/seeks", json={"game": "speed"}).get_json()
    assert b["status"] == "paired" and b["seat"] == 1 and b["opponent"] == "seek"
    seen = client.get(f"/v1/seeks/{a.get_json()['id']}", headers=bearer(a.get_json()["token"]))
    got = seen.get_json()
    assert (got["status"], got["game_id"], got["seat"]) == ("paired", b["game_id"], 0)
    view = client.get(f"/v1/games/{b['game_id']}", headers=bearer(a.get_json()["token"]))
    assert view.get_json()["you"] == 0 and view.get_json()["status"] == "running"
    left = client.get(f"/v1/seeks/{other_game['id']}", headers=bearer(other_game["token"]))
    assert left.get_json()["status"] == "open"


def test_bot_fallback_gives_the_level_nearest_the_rating(client, clock):
    s = client.post("/v1/seeks", json={"game": "spit", "bot_fallback_s": 5}).get_json()
    h = bearer(s["token"])
    assert client.get(f"/v1/seeks/{s['id']}?wait=0.1", headers=h).get_json()["status"] == "open"
    clock.t += 5
    got = client.get(f"/v1/seeks/{s['id']}", headers=h).get_json()
    assert got["status"] == "paired" and got["opponent"] == "bot:medium"  # 1638, nearest 1500
    players = client.get(f"/v1/games/{got['game_id']}", headers=h).get_json()["players"]
    assert [p["kind"] for p in players] == ["human", "bot:medium"]


def test_a_seek_expires_and_cancel_is_a_delete(client, clock):
    s = client.post("/v1/seeks", json={"game": "spit", "expires_s": 10}).get_json()
    h = bearer(s["token"])
    clock.t += 10
    assert client.get(f"/v1/seeks/{s['id']}", headers=h).get_json()["status"] == "expired"
    c = client.post("/v1/seeks", json={"game": "spit"}).get_json()
    assert client.delete(f"/v1/seeks/{c['id']}", headers=bearer(c["token"])).status_code == 204
    assert client.get(f"/v1/seeks/{c['id']}",
                      headers=bearer(c["token"])).get_json()["status"] == "cancelled"  # fmt: skip
    d = client.post("/v1/seeks", json={"game": "spit"}).get_json()
    assert d["status"] == "open"  # the cancelled seek does not pair
    e = client.post("/v1/seeks", json={"game": "spit"}).get_json()
    assert problem_of(client.delete(f"/v1/seeks/{e['id']}", headers=bearer(e["token"])), 409)
    assert problem_of(client.get(f"/v1/seeks/{e['id']}"), 401)
    assert problem_of(client.get(f"/v1/seeks/{e['id']}", headers=bearer(d["token"])), 403)
    assert problem_of(client.get("/v1/seeks/s_0000000000000000", headers=h), 404)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"game": "spit", "options": {"stockpiles": 3}}, "options.stockpiles"),
        ({"game": "speed", "options": {"stockpiles": 4}}, "options.stockpiles"),
        ({"game": "spit", "rating_range": [1600, 1400]}, "rating_range"),
        ({"game": "spit", "rating_range": [-5, 1400]}, "rating_range"),
        ({"game": "spit", "rating_range": [1400]}, "rating_range"),
        ({"game": "spit", "expires_s": 10, "bot_fallback_s": 10}, "bot_fallback_s"),
        ({"game": "spit", "expires_s": 100000}, "expires_s"),
        ({"game": "spit", "rated": True}, "rated"),
        ({"game": "chess"}, "game"),
    ],
)
def test_impossible_seeks_are_400s_naming_the_field(client, redis_client, body, field):
    got = problem_of(client.post("/v1/seeks", json=body), 400)
    assert field in got["errors"], got
    assert not list(redis_client.scan_iter("spit:{sk}:s:*"))


def test_a_read_after_an_ask_shows_it_though_the_version_is_the_same(client):
    """An ask changes the game's meta, not its log: a read of the same version shows it
    (the view last served is kept per state and meta, ``routes.Views``)."""
    gid, t0, t1 = new_game(client)
    resign(client, gid, t1)
    before = client.get(f"/v1/games/{gid}", headers=bearer(t1))
    assert before.get_json()["rematch"]["asked"] == [False, False]
    assert client.get(f"/v1/games/{gid}", headers=bearer(t1)).data == before.data
    client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0))
    after = client.get(f"/v1/games/{gid}", headers=bearer(t1))
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.get_json()["rematch"]["asked"] == [True, False]


def test_a_finished_games_view_is_never_answered_304_once_a_rematch_changed_it(client):
    """A rematch's ask changes a finished game's view (``rematch.asked``) but not its
    version (its ETag): a client revalidating its copy of the ended game gets the new
    view, never a 304 that would keep it on the old one."""
    gid, t0, t1 = new_game(client)
    resign(client, gid, t1)
    ended = client.get(f"/v1/games/{gid}", headers=bearer(t0))
    tag = ended.headers["ETag"]
    assert ended.get_json()["rematch"]["asked"] == [False, False]
    same = client.get(f"/v1/games/{gid}", headers={**bearer(t0), "If-None-Match": tag})
    assert same.status_code == 304  # nothing changed yet
    client.post(f"/v1/games/{gid}/rematch", headers=bearer(t1))
    for headers in (bearer(t0), {}):
        again = client.get(f"/v1/games/{gid}", headers={**headers, "If-None-Match": tag})
        assert again.status_code == 200 and again.headers["ETag"] == tag
        assert again.get_json()["rematch"]["asked"] == [False, True]
    v = int(tag.strip('"'))
    past = client.get(f"/v1/games/{gid}/states/{v}", headers={"If-None-Match": tag})
    assert past.status_code == 200 and past.get_json()["rematch"]["asked"] == [False, True]


@pytest.mark.parametrize("fields, log, changed", [
    ({}, None, False),
    ({"rematch": Rematch((1, None))}, None, True),  # a rematch asked for
    ({"rematch": Rematch((None, 1))}, None, True),
    ({"rematch": Rematch(game="g_0123456789abcdef")}, None, True),  # a rematch made
    ({"rating": {}}, None, True),  # its rating applied
    ({}, (), True),  # read from the archive, whose copy holds no rematch
])  # fmt: skip
def test_what_changes_a_finished_games_view_without_a_new_version(fields, log, changed):
    from domain import State
    from service.cache import Game
    from service.reading import Reading

    game = Game("g_1", State(), GameRecord("spit", **fields), log)
    assert Reading.changed_after_end(game) is changed


def test_a_rematch_ask_counts_against_the_game_creation_bucket(redis_client):
    """A rematch makes a game as a create does: each ask draws on the address's
    game-creation bucket, so rematches against a hosted bot (whose first ask makes the
    game) stop where creates stop, with the same 429."""
    app = create_app(app_settings(rate_games=0.5, rate_games_burst=3), redis_client=redis_client)
    limits_clock = Clock(1_000_000.0)
    app.extensions["spitlog"].limits.clock = limits_clock
    client = app.test_client()
    g = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy"}).get_json()
    resign(client, g["id"], g["token"])
    made = client.post(f"/v1/games/{g['id']}/rematch", headers=bearer(g["token"]))
    assert made.status_code == 201  # the bucket's second game
    new = made.get_json()
    resign(client, new["game"], new["token"])
    third = client.post(f"/v1/games/{new['game']}/rematch", headers=bearer(new["token"]))
    assert third.status_code == 201
    last = third.get_json()
    resign(client, last["game"], last["token"])
    refused = client.post(f"/v1/games/{last['game']}/rematch", headers=bearer(last["token"]))
    assert problem_of(refused, 429)["type"].endswith("#problem-rate-limited")
    assert refused.headers["Retry-After"] == "2"
    assert client.get(f"/v1/games/{last['game']}").get_json()["rematch"]["game"] is None
    assert problem_of(client.post("/v1/games", json={"game": "spit"}), 429)  # one bucket
    limits_clock.t += 2
    again = client.post(f"/v1/games/{last['game']}/rematch", headers=bearer(last["token"]))
    assert again.status_code == 201


def test_a_rematch_ask_with_no_game_creation_limit_makes_its_game(redis_client):
    """With the game-creation limit off (``SPITLOG_RATE_GAMES=0``, as ``spitlog dev`` and
    the browser tests run) and the other limits on, an ask is charged to nothing and
    makes its game."""
    app = create_app(app_settings(rate_games=0, rate_requests=1000.0), redis_client=redis_client)
    client = app.test_client()
    g = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy"}).get_json()
    resign(client, g["id"], g["token"])
    made = client.post(f"/v1/games/{g['id']}/rematch", json={}, headers=bearer(g["token"]))
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["state"]["rematch_of"] == g["id"]


def test_asking_again_or_reading_a_rematch_never_draws_on_the_game_creation_bucket(
    redis_client,
):
    """Only a seat's first ask may make a game: asking again (an ask is idempotent) and
    reading are reads, and leave the game-creation bucket alone, so the other seat's ask
    from the same address still makes the game."""
    app = create_app(app_settings(rate_games=0.001, rate_games_burst=3), redis_client=redis_client)
    app.extensions["spitlog"].limits.clock = Clock(1_000_000.0)
    client = app.test_client()
    g = client.post("/v1/games", json={"game": "speed"}).get_json()  # the bucket's first
    t1 = client.post(f"/v1/games/{g['id']}/seats", json={}).get_json()["token"]
    resign(client, g["id"], g["token"])
    path = f"/v1/games/{g['id']}/rematch"
    assert client.post(path, headers=bearer(g["token"])).status_code == 202  # its second
    for _ in range(3):
        assert client.post(path, headers=bearer(g["token"])).status_code == 202
        assert client.get(path, headers=bearer(g["token"])).status_code == 200
    made = client.post(path, headers=bearer(t1))  # a new ask: the bucket's third
    assert made.status_code == 201
    assert problem_of(client.post("/v1/games", json={"game": "spit"}), 429)  # it is empty


def players_app(redis_client, clock, **settings):
    app = create_app(app_settings(rematch_s=60, **settings), redis_client=redis_client,
                     clock=clock)  # fmt: skip
    svc = app.extensions["spitlog"]
    return app.test_client(), svc, {"X-Api-Key": svc.apps.create("acme")[1]}


def test_the_rematch_of_a_rated_game_is_refused_over_the_pair_cap(redis_client, clock):
    """The rematch of a rated game is rated: once its pair of seats started
    ``SPITLOG_RATED_PAIR_CAP`` rated games in 24 hours, an ask is a 429 and no game is made;
    under the cap, the rematch is made, rated, and counts."""
    client, svc, key = players_app(redis_client, clock, rated_pair_cap=2)

    def played():
        g = client.post(
            "/v1/games",
            headers=key,
            json={"game": "spit", "rated": True, "player": {"id": "alice", "name": "A"}},
        ).get_json()
        j = client.post(f"/v1/games/{g['id']}/seats", headers=key,
                        json={"player": {"id": "bob", "name": "B"}}).get_json()  # fmt: skip
        move_each(client, svc, g["id"], (g["token"], j["token"]))
        resign(client, g["id"], j["token"])
        return g["id"], g["token"], j["token"]

    gid, t0, t1 = played()
    assert client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)).status_code == 202
    made = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t1))
    assert made.status_code == 201 and made.get_json()["state"]["rated"]  # the pair's 2nd
    mine = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0))
    assert mine.status_code == 201  # asked before, at the cap: its game, not a 429
    g = client.post(
        "/v1/games",
        headers=key,
        json={"game": "spit", "rated": True, "player": {"id": "alice", "name": "A"}},
    ).get_json()
    assert problem_of(client.post(f"/v1/games/{g['id']}/seats", headers=key,
                                  json={"player": {"id": "bob", "name": "B"}}), 429)  # fmt: skip
    new = made.get_json()
    move_each(client, svc, new["game"], (new["token"], mine.get_json()["token"]))
    resign(client, new["game"], new["token"])
    over = client.post(f"/v1/games/{new['game']}/rematch", headers=bearer(new["token"]))
    body = problem_of(over, 429)
    assert body["type"].endswith("#problem-rated-pair-cap") and int(over.headers["Retry-After"])
    view = client.get(f"/v1/games/{new['game']}").get_json()
    assert view["rematch"]["asked"] == [False, False] and view["rematch"]["game"] is None


def test_a_pairing_over_the_pair_cap_is_made_unrated(redis_client, clock):
    """Two rated seeks pair in one script, and no request is left to refuse: a pairing of
    a pair over its cap is made unrated (its game says so); another pair's stays rated."""
    client, svc, key = players_app(redis_client, clock, rated_pair_cap=1)
    g = client.post(
        "/v1/games",
        headers=key,
        json={"game": "speed", "rated": True, "player": {"id": "alice", "name": "A"}},
    ).get_json()
    assert client.post(f"/v1/games/{g['id']}/seats", headers=key,
                       json={"player": {"id": "bob", "name": "B"}}).status_code == 201  # fmt: skip

    def seek(pid):
        body = {"game": "speed", "rated": True, "player": {"id": pid, "name": pid}}
        return client.post("/v1/seeks", headers=key, json=body).get_json()

    seek("alice")
    paired = seek("bob")
    assert paired["status"] == "paired"
    assert client.get(f"/v1/games/{paired['game_id']}").get_json()["rated"] is False
    seek("carol")
    fresh = seek("dan")
    assert client.get(f"/v1/games/{fresh['game_id']}").get_json()["rated"] is True


def test_seek_long_polls_count_against_the_address_cap_of_open_streams(redis_client):
    """100 long-polls of seeks (each with its own token) from one address: the first 64
    (``SPITLOG_STREAMS_PER_ADDRESS``) wait, each holding a stream slot; the 36 over the cap
    are refused at once, 429 problem+json with Retry-After. The waiting ones end when their
    seeks are cancelled (their long-polls wake on the change) and free every slot."""
    s = app_settings(streams_per_address=64, streams_per_client=32, longpoll_max_s=60)
    app = create_app(s, redis_client=redis_client)
    client = app.test_client()
    # [0, 1000] leaves out every other seek's 1500: none of them pairs
    seeks = [client.post("/v1/seeks", json={"game": "spit", "rating_range": [0, 1000]})
             .get_json() for _ in range(100)]  # fmt: skip
    answers: dict[str, object] = {}

    def poll(seek):
        r = app.test_client().get(f"/v1/seeks/{seek['id']}?wait=60", headers=bearer(seek["token"]))
        answers[seek["id"]] = r

    threads = [threading.Thread(target=poll, args=(seek,), daemon=True) for seek in seeks]
    for t in threads:
        t.start()
    end = time.monotonic() + 60
    while len(answers) < 36 or redis_client.zcard("spit:rl:s:a:127.0.0.1") < 64:
        assert time.monotonic() < end, f"{len(answers)} answered, none refused?"
        time.sleep(0.01)
    refused = list(answers.values())
    assert len(refused) == 36 and redis_client.zcard("spit:rl:s:a:127.0.0.1") == 64
    for r in refused:
        body = problem_of(r, 429)
        assert "at most 64 per address" in body["detail"] and r.headers["Retry-After"]
    for seek in seeks:
        if seek["id"] not in answers:
            client.delete(f"/v1/seeks/{seek['id']}", headers=bearer(seek["token"]))
    for t in threads:
        t.join(30)
    waited = [r for r in answers.values() if r.status_code == 200]
    assert len(waited) == 64 and {r.get_json()["status"] for r in waited} == {"cancelled"}
    assert redis_client.zcard("spit:rl:s:a:127.0.0.1") == 0


class _Armed:
    """A scheduler that arms seeks' jobs and never runs them (a late job)."""

    def arm_seek(self, seek_id, due_ms):
        pass


class _Waiter:
    """A long-poll's waits, none of which sees the seek move: each is recorded and moves
    the clock on by its timeout instead of sleeping."""

    def __init__(self, clock):
        self.clock, self.timeouts, self.over = clock, [], False

    def wait(self, seek_id, after, timeout_s):
        self.timeouts.append(round(timeout_s, 3))
        self.clock.t += timeout_s
        return False


def _seeks(redis_client, clock, scheduler=None):
    from service.assembly import GameCases
    from service.seeks import Seeks
    from service.store.players import PlayerStore
    from service.store.redis import RedisStore
    from service.store.seeks import SeekStore

    players = PlayerStore(redis_client)
    cases = GameCases.build(RedisStore(redis_client), players=players, clock=clock)
    return Seeks(cases.seating, SeekStore(redis_client), players, scheduler, max_s=300,
                 clock=clock)  # fmt: skip


def test_a_waiting_read_does_a_late_jobs_fallback_a_grace_after_its_due_time(redis_client, clock):
    """A seek whose scheduler's job does not come: the long-poll sleeps until the due time
    and a grace (the job's change would wake it first), then falls back itself."""
    from service.seeks import JOB_GRACE_S

    seeks = _seeks(redis_client, clock, scheduler=_Armed())
    s = seeks.post("spit", {}, bot_fallback_s=5)
    waiter = _Waiter(clock)
    got = seeks.read(s["id"], s["token"], 30, waiter)
    assert waiter.timeouts == [5 + JOB_GRACE_S]
    assert got["status"] == "paired" and got["opponent"].startswith("bot:")


def test_a_waiting_read_finishes_a_pairing_its_maker_left_making(redis_client, clock):
    """A pairing whose process died before its game was made: a long-poll gives the maker
    ``MAKING_GRACE_S`` to finish it (its change would wake the read), then makes it."""
    from service.seeks import MAKING_GRACE_S

    seeks = _seeks(redis_client, clock)
    a = seeks.post("spit", {})
    real, seeks._settle = seeks._settle, lambda sid: (_ for _ in ()).throw(OSError("killed"))
    with pytest.raises(OSError):
        seeks.post("spit", {})  # paired, its game not made: the process dies
    seeks._settle = real
    assert seeks.store.get(a["id"]).status == "making"
    waiter = _Waiter(clock)
    got = seeks.read(a["id"], a["token"], 30, waiter)
    assert waiter.timeouts == [MAKING_GRACE_S]
    assert got["status"] == "paired" and got["seat"] == 0
