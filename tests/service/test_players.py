"""Players for integrators: apps' API keys (X-Api-Key), players named in create
and join, shown in views, events and the lobby, their pages, games and the leaderboard;
ratings applied once; client bots declared; the lobby's filters."""

import dataclasses
import json
from urllib.parse import quote

import pytest
from click.testing import CliRunner

import domain
from domain import spit
from domain.events import GameCreated
from domain.ratings import Rating, update
from domain.speed import PlayCard
from service import players
from service.archive.directory import DirectoryArchive
from service.archiving import Archiver
from service.http.app import create_app
from service.ports import Appended
from service.rating import Rater
from service.records import GameRecord
from service.store.redis import RedisStore
from tests.support.api import app_settings, bearer, move_each, new_game, problem_of
from tests.support.keys import keys_naming
from tests.unit.builders import SEED, T0, speed_game


@pytest.fixture
def r(redis_client):
    return redis_client


@pytest.fixture
def svc(app):
    return app.extensions["spitlog"]


@pytest.fixture
def key(svc):
    return {"X-Api-Key": svc.apps.create("acme")[1]}


def create(client, headers, **body):
    return client.post("/v1/games", json={"game": "spit", **body}, headers=headers)


def test_a_player_named_with_the_key_is_shown_in_views_events_and_the_lobby(client, key):
    g = create(client, key, player={"id": "alice", "name": "Alice"})
    assert g.status_code == 201, g.get_json()
    seat0 = g.get_json()["state"]["players"][0]
    assert seat0["name"] == "Alice" and seat0["player"]["id"] == "alice"
    assert seat0["player"]["rating"] == 1500  # a newcomer's, when it sat down
    gid = g.get_json()["id"]
    j = client.post(f"/v1/games/{gid}/seats", json={"kind": "bot", "name": "Robo 9000"})
    assert (
        j.get_json()["state"]["players"][1] | {"kind": "bot", "name": "Robo 9000"}
        == (j.get_json()["state"]["players"][1])
    )
    view = client.get(f"/v1/games/{gid}").get_json()  # a spectator sees who plays
    assert [p["name"] for p in view["players"]] == ["Alice", "Robo 9000"]
    assert [p["kind"] for p in view["players"]] == ["human", "bot"]
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    assert events[0]["player"]["id"] == "alice" and events[1]["name"] == "Robo 9000"
    row = client.get("/v1/games?status=running").get_json()["games"][0]
    assert [(p["kind"], p["name"]) for p in row["players"]] == [("human", "Alice"),
                                                                ("bot", "Robo 9000")]  # fmt: skip


def test_without_a_key_play_stays_anonymous_and_a_player_needs_one(client):
    g = create(client, {})
    assert g.get_json()["state"]["players"][0]["player"] is None
    assert g.get_json()["state"]["rated"] is False
    refused = create(client, {}, player={"id": "alice", "name": "Alice"})
    assert problem_of(refused, 401)["type"].endswith("app-key-required")
    assert problem_of(create(client, {}, rated=True), 400)["errors"].keys() == {"rated"}


def test_an_unknown_or_revoked_key_is_a_401_and_another_apps_player_a_403(client, svc, key):
    assert problem_of(create(client, {"X-Api-Key": "spk_" + "x" * 43}), 401)["type"].endswith(
        "invalid-app-key")  # fmt: skip
    assert problem_of(create(client, {"X-Api-Key": "not a key"}), 401)
    other, other_key = svc.apps.create("rival")
    g = create(client, {"X-Api-Key": other_key}, player={"id": "bob", "name": "Bob"})
    assert g.status_code == 201
    # another app's player, named qualified: in a create, a join, its page, the lobby
    theirs = f"{other.id}:bob"
    assert problem_of(create(client, key, player={"id": theirs, "name": "B"}), 403)
    join = client.post(f"/v1/games/{create(client, {}).get_json()['id']}/seats",
                       json={"player": {"id": theirs, "name": "B"}}, headers=key)  # fmt: skip
    assert problem_of(join, 403)
    assert problem_of(client.get(f"/v1/players/{theirs}", headers=key), 403)
    assert problem_of(client.get(f"/v1/games?player={theirs}", headers=key), 403)
    assert client.get(f"/v1/players/{theirs}", headers={"X-Api-Key": other_key}).status_code == 200
    assert client.get("/v1/players/bob", headers={"X-Api-Key": other_key}).status_code == 200
    assert problem_of(client.get("/v1/players/bob", headers=key), 404)  # not in acme's space
    svc.apps.revoke(other.id)
    assert problem_of(client.get("/v1/players/bob", headers={"X-Api-Key": other_key}), 401)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"player": {"id": "a b", "name": "A"}}, "player.id"),
        ({"player": {"id": "x" * 65, "name": "A"}}, "player.id"),
        ({"player": {"id": "al", "name": "\x07"}}, "player.name"),
        ({"player": {"id": "al", "name": ""}}, "player.name"),
        ({"player": {"id": "al", "name": "A"}, "name": "B"}, "name"),
        ({"name": "B"}, "name"),  # only a bot is named without a player
        ({"kind": "bot"}, "name"),  # ... and a bot has a name
        ({"kind": "bot:hard", "name": "B"}, "kind"),  # a hosted level is not a client's seat
        ({"opponent": "bot"}, "opponent"),
    ],
)
def test_bad_seats_are_400s_naming_the_field_and_change_nothing(client, key, r, body, field):
    before = sorted(r.keys("spit:lobby:*"))
    got = problem_of(create(client, key, **body), 400)
    assert field in got["errors"], got
    assert sorted(r.keys("spit:lobby:*")) == before


def test_the_lobby_filters_by_game_status_kind_and_player(client, key):
    a = create(client, key, player={"id": "alice", "name": "Alice"}).get_json()["id"]
    b = client.post("/v1/games", json={"game": "speed", "kind": "bot", "name": "R"}).get_json()
    c = create(client, {}, opponent="bot:easy").get_json()["id"]

    def ids(q, headers=None):
        return [g["id"] for g in client.get(f"/v1/games?{q}", headers=headers).get_json()["games"]]

    assert ids("status=open&game=speed") == [b["id"]]
    assert ids("status=open&kind=bot") == [b["id"]]
    assert ids("status=running&kind=bot:easy") == [c]
    assert ids("status=open&player=alice", key) == [a]
    assert ids("status=open&game=spit") == [a]
    assert problem_of(client.get("/v1/games?player=alice"), 401)  # a player is an app's
    assert problem_of(client.get("/v1/games?kind=robot"), 400)["errors"].keys() == {"kind"}


def test_filtered_lobby_pages_follow_next_to_every_match(client):
    made = [create(client, {}, opponent="bot:easy" if n % 3 else "human").get_json()["id"]
            for n in range(9)]  # fmt: skip
    humans, cursor, pages = [], None, 0
    while True:
        q = "status=open&kind=human&limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"/v1/games?{q}").get_json()
        humans += [g["id"] for g in page["games"]]
        pages += 1
        cursor = page["next"]
        if cursor is None:
            break
    assert humans == [made[n] for n in (6, 3, 0)] and pages == 2


def rated_game(client, key, opponent=None, winner_resigns=1, svc=None, move=True):
    """A rated game of alice (seat 0) against bob or a hosted level; once both seats have
    made a move (``move``; a hosted level's by the workers' path), the loser resigns."""
    body = {"player": {"id": "alice", "name": "Alice"}, "rated": True}
    if opponent:
        body["opponent"] = opponent
    g = create(client, key, **body).get_json()
    tokens = [g["token"], None]
    if not opponent:
        j = client.post(f"/v1/games/{g['id']}/seats",
                        json={"player": {"id": "bob", "name": "Bob"}}, headers=key)  # fmt: skip
        tokens[1] = j.get_json()["token"]
    uses = svc or client.application.extensions["spitlog"]
    if move:
        assert not move_each(client, uses, g["id"], tokens).over
    if tokens[winner_resigns] is None:  # a level's seat, by the workers' path
        assert uses.acting.submit(g["id"], winner_resigns, domain.Resign()).over
    else:
        resigned = client.post(f"/v1/games/{g['id']}/actions", json={"type": "resign"},
                               headers=bearer(tokens[winner_resigns]))  # fmt: skip
        assert resigned.status_code == 201, resigned.get_json()
    return g["id"], tokens


def establish(svc, key, *pids, rating=1500.0, rd=60.0):
    """Give each player an established rating in Spit (as 30 games before would)."""
    store = svc.profiles.players
    app = svc.apps.authenticate(key["X-Api-Key"])
    for pid in pids:
        pkey = players.resolve(app, pid)
        store.touch_player(pkey, pid.title(), 0)
        [(guard, _r)] = store.read_for_rating("g_none", "spit", [pkey])[1]
        new = {"rating": rating, "rd": rd, "vol": 0.06, "games": 30, "wins": 15,
               "losses": 15, "draws": 0}  # fmt: skip
        assert store.apply_rating(f"g_seed_{pid}", "spit", "{}", [(pkey, guard, new, True)])[
            0] == "ok"  # fmt: skip


def test_a_rated_game_is_rated_once_however_often_the_job_runs(client, svc, key):
    establish(svc, key, "alice", "bob")
    gid, _tokens = rated_game(client, key)  # bob resigns: alice wins
    rater = Rater(svc.reading, svc.store, svc.profiles.players)
    assert [rater.step(gid) for _ in range(3)] == ["rated", "done", "done"]
    alice = client.get("/v1/players/alice", headers=key).get_json()["ratings"]["spit"]
    bob = client.get("/v1/players/bob", headers=key).get_json()["ratings"]["spit"]
    even = Rating(1500.0, 60.0, 0.06)
    won, lost = update(even, [(even, 1.0)]), update(even, [(even, 0.0)])
    assert (alice["rating"], bob["rating"]) == (round(won.rating), round(lost.rating))
    assert (alice["games"], alice["wins"], bob["losses"]) == (31, 16, 16)
    assert (alice["rd"], bob["rd"]) == (round(won.rd, 1), round(lost.rd, 1))
    view = client.get(f"/v1/games/{gid}").get_json()
    diff = round(won.rating) - 1500
    assert [p["rating_diff"] for p in view["players"]] == [diff, -diff] and diff > 0
    board = client.get("/v1/leaderboard?game=spit").get_json()
    assert [p["id"] for p in board["players"]] == ["alice", "bob"]
    assert client.get("/v1/leaderboard?game=speed").get_json()["players"] == []


def test_a_marker_without_the_outcome_is_copied_not_applied_again(client, svc, key):
    """A run that applied and died before it wrote the outcome to the game's record: the
    next run finds the marker and only copies it."""
    establish(svc, key, "alice", "bob")
    gid, _t = rated_game(client, key)
    store = svc.store
    real = store.set_rating
    store.set_rating = lambda *a, **k: (_ for _ in ()).throw(ConnectionError("killed"))
    with pytest.raises(ConnectionError):
        Rater(svc.reading, svc.store, svc.profiles.players).step(gid)
    store.set_rating = real
    assert Rater(svc.reading, svc.store, svc.profiles.players).step(gid) == "done"
    assert client.get("/v1/players/alice", headers=key).get_json()["ratings"]["spit"]["games"] == 31


def test_a_guard_that_moved_is_rated_again_on_the_new_rating(client, svc, key):
    establish(svc, key, "alice", "bob")
    g1, _ = rated_game(client, key)
    g2, _ = rated_game(client, key)
    players = svc.profiles.players
    read = players.read_for_rating
    calls = []

    def interleaved(game_id, kind, pkeys):  # g2 is rated while g1's run computes
        out = read(game_id, kind, pkeys)
        if game_id == g1 and not calls:
            calls.append(Rater(svc.reading, svc.store, players).step(g2))
        return out

    players.read_for_rating = interleaved
    assert Rater(svc.reading, svc.store, players).step(g1) == "rated" and calls == ["rated"]
    alice = client.get("/v1/players/alice", headers=key).get_json()["ratings"]["spit"]
    assert alice["games"] == 32 and alice["wins"] == 17


def test_against_a_hosted_level_only_the_player_moves(client, svc, key):
    gid, _ = rated_game(client, key, opponent="bot:hard", winner_resigns=0)  # alice resigns
    assert Rater(svc.reading, svc.store, svc.profiles.players).step(gid) == "rated"
    outcome = svc.store.game_record(gid).rating
    hard = {"rating": spit.BOT_RATINGS["hard"], "rd": 50.0, "vol": 0.06}
    assert outcome["seats"][1] == {"who": "bot:hard", "before": hard}
    alice = client.get("/v1/players/alice", headers=key).get_json()["ratings"]["spit"]
    assert 1400 < alice["rating"] < 1500  # lost to a far stronger level: a small loss


def test_rated_games_take_players_only(client, key):
    g = create(client, key, player={"id": "alice", "name": "Alice"}, rated=True).get_json()
    anonymous = client.post(f"/v1/games/{g['id']}/seats", json={})
    assert problem_of(anonymous, 403)
    herself = client.post(f"/v1/games/{g['id']}/seats",
                          json={"player": {"id": "alice", "name": "A"}}, headers=key)  # fmt: skip
    assert problem_of(herself, 409)
    watch = create(client, key, seat0="bot:easy", opponent="bot:hard", rated=True)
    assert problem_of(watch, 400)["errors"].keys() == {"rated"}


def test_the_player_and_its_rating_survive_the_archive(r, key, tmp_path):
    archive = DirectoryArchive(tmp_path)
    app = create_app(app_settings(), redis_client=r, archive=archive)
    client, svc = app.test_client(), app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    establish(svc, key, "alice", "bob")
    gid, _ = rated_game(client, key)
    rater = Rater(svc.reading, svc.store, svc.profiles.players)
    archiver = Archiver(RedisStore(r), archive, 0, rater=rater, players=svc.profiles.players)
    assert archiver.step(gid)[0] == "archived"  # rated first: never archived unrated
    before = client.get(f"/v1/games/{gid}").get_json()
    assert archiver.step(gid)[0] == "deleted"
    assert keys_naming(r, gid) == []  # its players' lists and its rating marker too
    fresh = create_app(app_settings(), redis_client=r, archive=archive).test_client()
    after = fresh.get(f"/v1/games/{gid}").get_json()
    assert after["players"] == before["players"] and after["rated"]
    diffs = [p["rating_diff"] for p in after["players"]]
    assert diffs == [p["rating_diff"] for p in before["players"]] and diffs[0] > 0
    listed = fresh.get("/v1/players/alice/games", headers=key).get_json()
    assert [g["id"] for g in listed["games"]] == [gid] and listed["games"][0]["status"] == (
        "finished"
    )


def test_a_players_games_are_newest_first_in_pages_live_and_archived(r, tmp_path):
    archive = DirectoryArchive(tmp_path)
    app = create_app(app_settings(), redis_client=r, archive=archive)
    client, svc = app.test_client(), app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    made = []
    for n in range(5):
        g = create(client, key, player={"id": "alice", "name": "Alice"},
                   opponent="bot:easy", options={"max_rounds": 1}).get_json()  # fmt: skip
        made.append(g["id"])
        if n % 2 == 0:  # finished and gone to the archive
            client.post(f"/v1/games/{g['id']}/actions", json={"type": "resign"},
                        headers=bearer(g["token"]))  # fmt: skip
            archiver = Archiver(RedisStore(r), archive, 0, players=svc.profiles.players)
            assert [archiver.step(g["id"])[0] for _ in range(2)] == ["archived", "deleted"]
    seen, cursor = [], None
    while True:
        q = "limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"/v1/players/alice/games?{q}", headers=key).get_json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == made[::-1]


def test_keys_on_the_command_line(monkeypatch, redis_url):
    """``spitlog admin keys create|list|revoke`` on a real Redis (the one the API reads)."""
    from service.cli.main import cli

    monkeypatch.setenv("SPITLOG_REDIS_URL", redis_url)
    run = CliRunner().invoke
    made = run(cli, ["admin", "keys", "create", "Acme Games"])
    assert made.exit_code == 0, made.output
    app_id = made.stdout.split()[1]
    key = made.stdout.splitlines()[1].split()[1]
    assert key.startswith("spk_") and app_id.startswith("a_")
    listed = run(cli, ["admin", "keys", "list"]).stdout
    assert app_id in listed and "Acme Games" in listed and key not in listed
    import redis

    client = create_app(app_settings(redis_url=redis_url),
                        redis_client=redis.Redis.from_url(redis_url)).test_client()  # fmt: skip
    assert client.get("/v1/players/nobody", headers={"X-Api-Key": key}).status_code == 404
    assert run(cli, ["admin", "keys", "revoke", app_id]).exit_code == 0
    assert client.get("/v1/players/nobody", headers={"X-Api-Key": key}).status_code == 401
    assert "revoked 20" in run(cli, ["admin", "keys", "list"]).stdout
    assert run(cli, ["admin", "keys", "revoke", "a_000000000000"]).exit_code == 1


def test_the_end_of_a_rated_game_tells_the_scheduler_it_is_rated(redis_client):
    """The append that ends a rated game says so to the scheduler hook, which arms its
    archive job (the one that rates it) at once, not after the rematch asks."""
    heard = []

    class Recorder:
        def on_appended(self, game_id, state, before=None, *, rated=False):
            heard.append((state.over, rated))

        def arm_webhooks(self, game_id):
            return None

        def arm_seek(self, seek_id, due_ms):
            return None

    app = create_app(app_settings(), redis_client=redis_client, scheduler=Recorder())
    client = app.test_client()
    key = {"X-Api-Key": app.extensions["spitlog"].apps.create("acme")[1]}
    rated_game(client, key)
    assert heard[-1] == (True, True) and not any(r for over, r in heard[:-1])
    heard.clear()
    g = create(client, key).get_json()  # unrated: its end says nothing of a rating
    client.post(f"/v1/games/{g['id']}/actions", json={"type": "resign"}, headers=bearer(g["token"]))
    assert heard[-1] == (True, False)


# ---------------------------------------------------------------- ratings people can trust


class Clock:
    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def clocked(redis_client, **settings):
    """An app on a clock the test moves, its client, its services and an app key."""
    clock = Clock()
    app = create_app(app_settings(**settings), redis_client=redis_client, clock=clock)
    svc = app.extensions["spitlog"]
    return app.test_client(), svc, {"X-Api-Key": svc.apps.create("acme")[1]}, clock


def seat(client, key, gid, pid):
    return client.post(f"/v1/games/{gid}/seats", json={"player": {"id": pid, "name": pid}},
                       headers=key)  # fmt: skip


def test_E5_a_rated_game_resigned_before_both_seats_moved_is_aborted_and_not_rated(
    client, svc, key
):
    """docs/decisions/0027: as on Lichess, a rated game resigned before each seat made a
    move (a ready is none) has no result: aborted, reason ``unplayed``, no winner, not
    rated. An unrated game resigned at once still ends by E-5."""
    gid, tokens = rated_game(client, key, move=False)  # bob resigns at once
    view = client.get(f"/v1/games/{gid}").get_json()
    assert (view["status"], view["result"], view["winner"]) == ("aborted", "unplayed", None)
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    assert [(e["type"], e.get("reason")) for e in events[-2:]] == [
        ("player_resigned", None), ("game_aborted", "unplayed")]  # fmt: skip
    assert events[0]["rated"] is True  # the log says the game was rated
    assert Rater(svc.reading, svc.store, svc.profiles.players).step(gid) == "unrated"
    alice = client.get("/v1/players/alice", headers=key).get_json()["ratings"]["spit"]
    assert (alice["games"], alice["rating"]) == (0, 1500)
    # one seat's move is not enough: one plays, the other only says it is ready
    g = create(client, key, player={"id": "alice", "name": "Alice"}, rated=True).get_json()
    tokens = (g["token"], seat(client, key, g["id"], "bob").get_json()["token"])
    for token in tokens:
        assert client.post(f"/v1/games/{g['id']}/actions", json={"type": "ready"},
                           headers=bearer(token)).status_code == 201  # fmt: skip
    state = svc.reading.load(g["id"]).state
    mover, move = next((s, a) for s in (0, 1) for a in domain.legal_actions(state, s)
                       if type(a) is not domain.Resign)  # fmt: skip
    assert client.post(f"/v1/games/{g['id']}/actions", json=domain.action_to_dict(move),
                       headers=bearer(tokens[mover])).status_code == 201  # fmt: skip
    assert svc.reading.load(g["id"]).state.moved == (mover == 0, mover == 1)
    client.post(f"/v1/games/{g['id']}/actions", json={"type": "resign"},
                headers=bearer(tokens[mover]))  # fmt: skip
    assert client.get(f"/v1/games/{g['id']}").get_json()["result"] == "unplayed"
    unrated = create(client, key, player={"id": "alice", "name": "Alice"}).get_json()
    seat(client, key, unrated["id"], "bob")
    client.post(f"/v1/games/{unrated['id']}/actions", json={"type": "resign"},
                headers=bearer(unrated["token"]))  # fmt: skip
    view = client.get(f"/v1/games/{unrated['id']}").get_json()
    assert (view["status"], view["result"], view["winner"]) == ("finished", "E-5", 1)


def test_a_rated_game_won_by_play_against_a_seat_that_never_moved_is_not_rated(client, svc, key):
    """A game is rated only if both seats made a move. A Speed game in which both said
    they were ready and only alice played (her last card: Q-7) is over with a winner, and
    its rating applies nothing and says why. (Its log is built from a chosen deal, since a
    random one rarely lets a game end while a seat never moves.)"""
    alice, bob = (players.resolve(svc.apps.authenticate(key["X-Api-Key"]), p) for p in
                  ("alice", "bob"))  # fmt: skip
    given = [dataclasses.replace(e, rated=True, game_id="g_00000000000000aa")
             if isinstance(e, GameCreated) else e
             for e in speed_game("8H", "2C 2D 2H 2S 3C")]  # fmt: skip
    state = domain.replay(given)
    events, state = domain.run(state, PlayCard(domain.Card.parse("8H"), 0),
                               domain.Ctx(0, T0 + 1, SEED))  # fmt: skip
    assert (state.status, state.winner, state.result, state.moved) == (
        "finished", 0, "Q-7", (True, False))  # fmt: skip
    gid = given[0].game_id
    record = GameRecord(
        game="speed", seed=SEED, commitment=given[0].commitment, created_ms=int(T0 * 1000),
        rated=True, status="finished",
        seats=(players.seated(players.Who(name="A", pkey=alice), None),
               players.seated(players.Who(name="B", pkey=bob), None)),
    )  # fmt: skip
    wire = [domain.event_to_dict(e) for e in given + events]
    assert isinstance(svc.store.append(gid, 0, wire, record=record), Appended)
    assert svc.reading.load(gid).state == state
    assert Rater(svc.reading, svc.store, svc.profiles.players).step(gid) == "unplayed"
    outcome = svc.store.game_record(gid).rating
    assert outcome["unrated"] == "unplayed" and [s.get("moved") for s in outcome["seats"]] == [
        True, False]  # fmt: skip
    assert svc.profiles.players.ratings([alice, bob], "speed") == [None, None]  # not rated
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["rated"] and not any("rating_diff" in p for p in view["players"])


def test_provisional_players_are_not_on_the_leaderboard(client, svc, key):
    """A rating with RD of 110 or more is provisional (Lichess's threshold): shown so on the
    player's page and with its seat, and kept off the leaderboard until it is
    established."""
    rater = Rater(svc.reading, svc.store, svc.profiles.players)
    levels = ("bot:medium", "bot:easy")
    for n in range(20):  # alice against two calibrated levels (RD 50), loses and wins
        gid, _ = rated_game(client, key, opponent=levels[n % 2], winner_resigns=n % 2)
        assert rater.step(gid) == "rated"
        alice = client.get("/v1/players/alice", headers=key).get_json()["ratings"]["spit"]
        board = client.get("/v1/leaderboard?game=spit").get_json()["players"]
        assert [p["id"] for p in board] == ([] if alice["provisional"] else ["alice"])
        if not alice["provisional"]:
            break
    assert not alice["provisional"] and alice["rd"] < 110 <= 290.3
    played = n + 1
    g = create(client, key, player={"id": "bob", "name": "Bob"}, rated=True).get_json()
    j = seat(client, key, g["id"], "alice").get_json()
    assert [p["player"]["provisional"] for p in j["state"]["players"]] == [True, False]
    move_each(client, svc, g["id"], (g["token"], j["token"]))
    assert client.post(f"/v1/games/{g['id']}/actions", json={"type": "resign"},
                       headers=bearer(g["token"])).status_code == 201  # fmt: skip
    assert rater.step(g["id"]) == "rated"
    bob = client.get("/v1/players/bob", headers=key).get_json()["ratings"]["spit"]
    assert bob["provisional"] and bob["games"] == 1
    board = client.get("/v1/leaderboard?game=spit").get_json()["players"]
    # against bob, provisional, alice's rating stays (docs/decisions/0036)
    assert [(p["rank"], p["id"], p["provisional"], p["games"]) for p in board] == [
        (1, "alice", False, played)]  # fmt: skip


def test_a_provisional_rating_found_on_the_leaderboard_is_skipped_and_unlisted_once(
    client, svc, key
):
    """Provisional ratings found listed (by data written before they were kept off) are
    skipped when the board is read, which writes nothing; ``unlist_provisional`` (``spitlog
    admin unlist-provisional``) takes them off, once."""
    store = svc.profiles.players
    app = svc.apps.authenticate(key["X-Api-Key"])
    for pid in ("alice", "bob"):  # each listed with a provisional rating
        pkey = players.resolve(app, pid)
        store.touch_player(pkey, pid.title(), 0)
        [(guard, _r)] = store.read_for_rating("g_none", "spit", [pkey])[1]
        stored = {"rating": 1662.0, "rd": 290.3, "vol": 0.06, "games": 1, "wins": 1,
                  "losses": 0, "draws": 0}  # fmt: skip
        assert store.apply_rating(f"g_{pid}", "spit", "{}", [(pkey, guard, stored, True)])[0] == (
            "ok")  # fmt: skip
    assert len(store.leaderboard("spit", None, 10)[0]) == 2  # listed, as older code did
    establish(svc, key, "carol", rating=1400.0)  # established, listed below both
    board = client.get("/v1/leaderboard?game=spit").get_json()["players"]
    assert [(p["id"], p["rank"]) for p in board] == [("carol", 1)]
    assert len(store.leaderboard("spit", None, 10)[0]) == 3  # the read wrote nothing
    assert svc.profiles.unlist_provisional() == 2
    assert [pkey for _m, pkey in store.leaderboard("spit", None, 10)[0]] == [
        players.resolve(app, "carol")]  # fmt: skip
    board = client.get("/v1/leaderboard?game=spit").get_json()["players"]
    assert [(p["id"], p["rank"]) for p in board] == [("carol", 1)]
    assert svc.profiles.unlist_provisional() == 0


def test_rated_games_between_one_pair_are_capped_per_day(redis_client):
    """``SPITLOG_RATED_PAIR_CAP`` rated games a pair of seats may start in any 24 hours:
    beyond, the join (or the create against a level) that would start one more is a 429
    problem naming the cap, with ``Retry-After``, and changes nothing; another pair, an
    unrated game, and the same pair a day later go on."""
    client, svc, key, clock = clocked(redis_client, rated_pair_cap=2)
    alice = {"player": {"id": "alice", "name": "Alice"}}

    def rated(**body):
        return create(client, key, rated=True, **alice, **body)

    for _ in range(2):
        assert seat(client, key, rated().get_json()["id"], "bob").status_code == 201
    g = rated().get_json()
    clock.t += 3600
    refused = seat(client, key, g["id"], "bob")
    body = problem_of(refused, 429)
    assert body["type"].endswith("#problem-rated-pair-cap") and "alice and bob" in body["detail"]
    assert refused.headers["Retry-After"] == str(86_400 - 3600)  # when the first leaves
    view = client.get(f"/v1/games/{g['id']}").get_json()
    assert (view["status"], view["version"]) == ("waiting", 1)  # the seat is still free
    assert seat(client, key, g["id"], "carol").status_code == 201  # another pair
    unrated = create(client, key, **alice).get_json()
    assert seat(client, key, unrated["id"], "bob").status_code == 201
    for _ in range(2):  # against a level: the pair is the player and the level
        assert rated(opponent="bot:easy").status_code == 201
    lobby = len(client.get("/v1/games?status=running&limit=100").get_json()["games"])
    over = rated(opponent="bot:easy")
    assert problem_of(over, 429)["type"].endswith("#problem-rated-pair-cap")
    assert len(client.get("/v1/games?status=running&limit=100").get_json()["games"]) == lobby
    assert rated(opponent="bot:medium").status_code == 201  # another level
    clock.t += 86_400 - 3600 + 1  # a day and a second after the first two
    assert seat(client, key, rated().get_json()["id"], "bob").status_code == 201
    assert problem_of(rated(opponent="bot:easy"), 429)  # those began an hour later
    clock.t += 3600
    assert rated(opponent="bot:easy").status_code == 201


def test_a_join_that_lost_the_seat_gives_its_count_back(redis_client):
    """A rated game counts for a pair once its second seat is theirs: a join that counted
    it and then found the seat taken by another does not use up the pair's day."""
    client, svc, key, clock = clocked(redis_client, rated_pair_cap=1)
    g = create(client, key, rated=True, player={"id": "alice", "name": "Alice"}).get_json()
    pairs = svc.joining.pairs
    real = pairs.take

    def carol_meanwhile(ids, *a, **k):  # carol takes the seat once bob's join counted
        got = real(ids, *a, **k)
        if ids[1].endswith(":bob"):
            assert seat(client, key, g["id"], "carol").status_code == 201
        return got

    pairs.take = carol_meanwhile
    assert problem_of(seat(client, key, g["id"], "bob"), 409)  # the seat went to carol
    pairs.take = real
    again = create(client, key, rated=True, player={"id": "alice", "name": "Alice"}).get_json()
    assert seat(client, key, again["id"], "bob").status_code == 201  # bob's count came back
    third = create(client, key, rated=True, player={"id": "alice", "name": "Alice"}).get_json()
    assert problem_of(seat(client, key, third["id"], "bob"), 429)  # and counts now


# ---------------------------------------------------------------- ids: one grammar


@pytest.mark.parametrize("pid", ["..", ".", ".hidden", "a\\b", "a b", "x\n", "\x00x", "é"])
def test_a_player_id_that_could_name_a_path_is_a_400_naming_the_field(client, key, r, pid):
    """Ids are one grammar (``service.ids``), checked at the edge: a create's or a join's
    ``player.id``, the lobby's ``player`` and a path's ``player_id``; ``.`` and ``..``
    among them (once a 500, and ``.`` listed every player's games of the app)."""
    alice = create(client, key, player={"id": "alice", "name": "Alice"}).get_json()["id"]
    before = sorted(r.keys("*"))
    got = problem_of(create(client, key, player={"id": pid, "name": "X"}), 400)
    assert got["errors"].keys() == {"player.id"}
    join = client.post(f"/v1/games/{alice}/seats", json={"player": {"id": pid, "name": "X"}},
                       headers=key)  # fmt: skip
    assert problem_of(join, 400)["errors"].keys() == {"player.id"}
    assert sorted(r.keys("*")) == before  # nothing made
    lobby = client.get("/v1/games", query_string={"player": pid}, headers=key)
    assert problem_of(lobby, 400)["errors"].keys() == {"player"}
    for path in (f"/v1/players/{quote(pid)}", f"/v1/players/{quote(pid)}/games"):  # as sent
        got = client.get(path, headers=key)
        assert problem_of(got, 400)["errors"].keys() == {"player_id"}, path


def test_player_dot_dot_in_a_path_is_a_400_not_a_listing(client, key):
    """As a client sends them, unnormalised: ``/v1/players/../games`` and
    ``/v1/players/./games`` name no player."""
    create(client, key, player={"id": "alice", "name": "Alice"})
    for pid in ("..", "."):
        got = client.get(f"/v1/players/{pid}/games", headers=key)
        assert problem_of(got, 400)["errors"] == {"player_id": [
            "1-64 of A-Z a-z 0-9 _ . -, not starting with a dot; or <app id>:<that>"]}  # fmt: skip
    assert client.get("/v1/players/alice/games", headers=key).status_code == 200
    dotted = create(client, key, player={"id": "a.b-c_9", "name": "D"})  # dots inside: fine
    assert dotted.status_code == 201


def test_a_game_of_older_code_seating_a_player_out_of_the_grammar_is_archived(r, key, tmp_path):
    """A game stored before the grammar, whose player id is ``..``: archived and deleted
    like any other (its record names the player; no player's list gets it, as no request
    can name that player), never a job that fails every time."""
    archive = DirectoryArchive(tmp_path / "archive")
    app = create_app(app_settings(), redis_client=r, archive=archive)
    client, svc = app.test_client(), app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    g = create(client, key, player={"id": "alice", "name": "Alice"}, opponent="bot:easy",
               options={"max_rounds": 1}).get_json()  # fmt: skip
    gid = g["id"]
    entry = json.loads(r.hget(f"spit:{{g:{gid}}}:meta", "pl0"))  # as older code seated ".."
    r.hset(f"spit:{{g:{gid}}}:meta", "pl0", json.dumps({**entry, "id": ".."}, sort_keys=True))
    r.rename(f"spit:{{rt}}:pg:{entry['app']}:alice", f"spit:{{rt}}:pg:{entry['app']}:..")
    svc.reading.cache.clear()
    client.post(f"/v1/games/{gid}/actions", json={"type": "resign"}, headers=bearer(g["token"]))
    archiver = Archiver(RedisStore(r), archive, 0, players=svc.profiles.players)
    assert [archiver.step(gid)[0] for _ in range(2)] == ["archived", "deleted"]
    assert keys_naming(r, gid) == []
    keys = sorted(archive.keys(""))
    assert len(keys) == 3 and not any(k.startswith("players/") for k in keys)
    assert not (tmp_path / "players").exists()  # nothing written outside the archive
    after = create_app(app_settings(), redis_client=r, archive=archive).test_client()
    assert after.get(f"/v1/games/{gid}").get_json()["players"][0]["player"]["id"] == ".."


def test_each_refusal_titles_what_it_refused(client, svc, key):
    """403s and 404s say which: another app's player is not a token of another game."""
    _rival, rival_key = svc.apps.create("rival")
    create(client, {"X-Api-Key": rival_key}, player={"id": "bob", "name": "Bob"})
    rival = svc.apps.authenticate(rival_key).id
    gid, t0, t1 = new_game(client)
    other, o0, _ = new_game(client)
    rated = create(client, key, player={"id": "alice", "name": "A"}, rated=True).get_json()
    seek = client.post("/v1/seeks", json={"game": "spit"}).get_json()
    seek2 = client.post("/v1/seeks", json={"game": "speed"}).get_json()
    cases = {
        "Player of another app": client.get(f"/v1/players/{rival}:bob", headers=key),
        "Token of another game": client.get(f"/v1/games/{gid}", headers=bearer(o0)),
        "Not the creator's token": client.get(f"/v1/games/{gid}/webhooks", headers=bearer(t1)),
        "A rated game seats only an app's player": client.post(
            f"/v1/games/{rated['id']}/seats", json={}),
        "Token of another seek": client.get(f"/v1/seeks/{seek['id']}",
                                            headers=bearer(seek2["token"])),
    }  # fmt: skip
    for title, got in cases.items():
        assert problem_of(got, 403)["title"] == title
    assert problem_of(client.get("/v1/games", headers={"X-Api-Key": "spk_" + "x" * 43}),
                      401)["title"] == "Unknown or revoked API key"  # fmt: skip
    missing = {
        "No such game": client.get("/v1/games/g_0123456789abcdef"),
        "No such version": client.get(f"/v1/games/{gid}/states/999"),
        "No such player": client.get("/v1/players/nobody", headers=key),
        "No such seek": client.get("/v1/seeks/s_0123456789abcdef", headers=bearer(t0)),
    }
    for title, got in missing.items():
        assert problem_of(got, 404)["title"] == title
