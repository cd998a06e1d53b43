"""RULES T-6 through the service: a game aborted by the operator, or by the service for a
hosted bot whose decisions it could not run, ends with no winner, is never rated, and its
views and log say who aborted it and why."""

import pytest

import domain
from service.http.app import create_app
from service.rating import Rater
from tests.support.api import app_settings, bearer
from tests.support.fakes import MovableClock


def _rated_against(client, key, level: str = "bot:hard") -> tuple[str, str]:
    """A rated Spit game of the app's player alice (seat 0) against a hosted level."""
    r = client.post("/v1/games", json={"game": "spit", "opponent": level, "rated": True,
                                       "player": {"id": "alice", "name": "Alice"}},
                    headers=key)  # fmt: skip
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["token"]


@pytest.fixture
def clock():
    return MovableClock()


@pytest.fixture
def app(redis_client, clock):
    """The API on a clock the tests move ahead (what the deadline job sees then)."""
    return create_app(app_settings(), redis_client=redis_client, clock=clock)


def test_T6_a_rated_game_whose_hosted_bot_was_not_run_is_aborted_never_rated(app, client,
                                                                             clock):  # fmt: skip
    """T-4, T-6: the hosted bot's seat had its ready to play for ``idle_forfeit_s`` (the
    service never ran its decision): it is not forfeited (which would have given alice a
    rated win over the level for nothing); the game is aborted under T-6, and not rated."""
    svc = app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    gid, token = _rated_against(client, key)
    assert client.post(f"/v1/games/{gid}/actions", json={"type": "ready"},
                       headers=bearer(token)).status_code == 201  # fmt: skip
    clock.shift(121)
    assert svc.acting.submit(gid, None, domain.Timeout("T-4", 1)) is None  # no such clock
    assert svc.acting.submit(gid, None, domain.Timeout("T-6", 1)) is not None
    view = client.get(f"/v1/games/{gid}", headers=bearer(token)).get_json()
    assert (view["status"], view["result"], view["winner"]) == ("aborted", "T-6", None)
    why = "the service could not run seat 1's decisions for 120 s"
    assert view["aborted"] == {"by": "service", "why": why} and view["rated"] is True
    assert Rater(svc.reading, svc.store, svc.profiles.players).step(gid) == "unrated"
    alice = client.get("/v1/players/alice", headers=key).get_json()
    assert alice["ratings"].get("spit", {}).get("games", 0) == 0


def test_T6_the_operators_abort_shows_who_and_why_to_every_viewer(app, client, clock):
    """T-6 by the operator (``Abort``): every viewer's view and the log say so; a rated
    game so aborted is not rated either."""
    svc = app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    gid, token = _rated_against(client, key, "bot:easy")
    assert svc.acting.submit(gid, None, domain.Abort(why="reported: a stuck table")) is not None
    for headers in (bearer(token), {}):
        view = client.get(f"/v1/games/{gid}", headers=headers).get_json()
        assert (view["status"], view["result"], view["winner"]) == ("aborted", "T-6", None)
        assert view["aborted"] == {"by": "operator", "why": "reported: a stuck table"}
        last = client.get(f"/v1/games/{gid}/events", headers=headers).get_json()["events"][-1]
        assert {k: last[k] for k in ("type", "reason", "by", "why")} == {
            "type": "game_aborted", "reason": "T-6", "by": "operator",
            "why": "reported: a stuck table",
        }  # fmt: skip
    assert client.get(f"/v1/games/{gid}/audit").get_json()["verified"] is True
    assert Rater(svc.reading, svc.store, svc.profiles.players).step(gid) == "unrated"
    # an abort of another kind has no one named: T-5's
    waiting = client.post("/v1/games", json={"game": "speed"}).get_json()["id"]
    clock.shift(601)
    assert svc.acting.submit(waiting, None, domain.Timeout("T-5")) is not None
    view = client.get(f"/v1/games/{waiting}").get_json()
    assert (view["result"], view["aborted"]) == ("T-5", None)
    last = client.get(f"/v1/games/{waiting}/events").get_json()["events"][-1]
    assert last["type"] == "game_aborted" and "by" not in last and "why" not in last


def test_T6_a_rated_games_view_says_it_was_not_rated_and_why(app, client):
    """``rated`` says the table is rated (its game rated if it ends with a result);
    ``unrated`` says why a rated table's game was not: ``T-6`` for an abort under T-6,
    ``unplayed`` for one resigned before both seats moved (docs/decisions/0027); null
    while it runs, and for an unrated table."""
    svc = app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    gid, token = _rated_against(client, key, "bot:easy")
    view = client.get(f"/v1/games/{gid}", headers=bearer(token)).get_json()
    assert (view["rated"], view["unrated"]) == (True, None)  # running: to be rated
    assert svc.acting.submit(gid, None, domain.Abort(why="a stuck table")) is not None
    for headers in (bearer(token), {}):
        view = client.get(f"/v1/games/{gid}", headers=headers).get_json()
        assert (view["status"], view["rated"], view["unrated"]) == ("aborted", True, "T-6")
    gid, token = _rated_against(client, key, "bot:easy")
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "resign"}, headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    view = client.get(f"/v1/games/{gid}").get_json()
    assert (view["result"], view["rated"], view["unrated"]) == ("unplayed", True, "unplayed")
    state = client.get(f"/v1/games/{gid}/states/{view['version']}").get_json()
    assert state["unrated"] == "unplayed"
    plain = client.post("/v1/games", json={"game": "spit", "opponent": "bot:easy"}).get_json()
    assert svc.acting.submit(plain["id"], None, domain.Abort(why="a stuck table")) is not None
    view = client.get(f"/v1/games/{plain['id']}").get_json()
    assert (view["status"], view["rated"], view["unrated"]) == ("aborted", False, None)


def test_T6_a_rated_table_has_an_idle_clock_of_30_s_at_least(app, client):
    """T-4, T-6 (docs/decisions/0029): a rated table's ``idle_forfeit_s`` is at least
    30 s, so that no one wins or aborts a rated game by a clock shorter than a hosted
    level's reaction and the service's usual delays: a shorter one is a 400 naming
    ``options.idle_forfeit_s``, for a game as for a seek, and nothing is made; an
    unrated table keeps any clock from 0.05 s."""
    svc = app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    player = {"id": "alice", "name": "Alice"}
    body = {"game": "spit", "opponent": "bot:easy", "rated": True, "player": player,
            "options": {"idle_forfeit_s": 29.9}}  # fmt: skip
    lobby = client.get("/v1/games?status=running")
    assert lobby.status_code == 200, lobby.get_json()
    r = client.post("/v1/games", json=body, headers=key)
    assert r.status_code == 400 and r.content_type == "application/problem+json"
    assert r.get_json()["errors"].keys() == {"options.idle_forfeit_s"}
    assert client.get("/v1/games?status=running").get_json() == lobby.get_json()  # none made
    seek = {"game": "spit", "rated": True, "player": player, "options": {"idle_forfeit_s": 5}}
    r = client.post("/v1/seeks", json=seek, headers=key)
    assert r.status_code == 400 and r.get_json()["errors"].keys() == {"options.idle_forfeit_s"}
    r = client.post("/v1/games", json={**body, "options": {"idle_forfeit_s": 30}}, headers=key)
    assert r.status_code == 201, r.get_json()
    unrated = {"game": "spit", "opponent": "bot:easy", "options": {"idle_forfeit_s": 0.05}}
    assert client.post("/v1/games", json=unrated).status_code == 201
