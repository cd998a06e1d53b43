"""Every endpoint of a game x {no token, an unknown token, another game's token, the other
seat's token}: 401 / 403 / 404 where they apply, and nothing changes in the store."""

import pytest

from tests.support.api import bearer, new_game

ENDPOINTS = [
    ("GET", "/v1/games/{id}", None),
    ("POST", "/v1/games/{id}/seats", {}),
    ("POST", "/v1/games/{id}/actions", {"type": "ready"}),
    ("GET", "/v1/games/{id}/events", None),
    ("GET", "/v1/games/{id}/events?wait=0.1", None),
    ("SSE", "/v1/games/{id}/events", None),
    ("GET", "/v1/games/{id}/states/2", None),
    ("GET", "/v1/games/{id}/audit", None),
]


def call(client, method, path, body, headers):
    if method == "SSE":
        return client.get(path, headers={**headers, "Accept": "text/event-stream"})
    if method == "GET":
        return client.get(path, headers=headers)
    return client.post(path, json=body, headers=headers)


def snapshot(redis_client) -> dict:
    return {k: redis_client.dump(k) for k in sorted(redis_client.keys("spit:{g:*"))}


@pytest.fixture
def games(client):
    """Game A (running, seat 0 ready) and game B (another game): their ids and tokens."""
    a, a0, a1 = new_game(client)
    assert client.post(f"/v1/games/{a}/actions", json={"type": "ready"},
                       headers=bearer(a0)).status_code == 201  # fmt: skip
    b, b0, _b1 = new_game(client)
    return {"a": a, "a0": a0, "a1": a1, "b": b, "b0": b0}


CASES = {
    "an unknown token": (lambda g: bearer("x" * 43), 401),
    "another scheme": (lambda g: {"Authorization": "Basic dXNlcjpwdw=="}, 401),
    "another game's token": (lambda g: bearer(g["b0"]), 403),
}


@pytest.mark.parametrize("method, path, body", ENDPOINTS)
@pytest.mark.parametrize("case", list(CASES))
def test_a_token_that_holds_no_seat_of_the_game_is_refused(
    client, redis_client, games, method, path, body, case
):
    headers_of, status = CASES[case]
    before = snapshot(redis_client)
    r = call(client, method, path.format(id=games["a"]), body, headers_of(games))
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == "application/problem+json"
    if status == 401:
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert snapshot(redis_client) == before


@pytest.mark.parametrize("method, path, body", ENDPOINTS)
@pytest.mark.parametrize("who", ["nobody", "a seat", "an unknown token"])
def test_a_game_that_does_not_exist_is_404_whoever_asks(client, games, method, path, body, who):
    headers = {"nobody": {}, "a seat": bearer(games["a0"]), "an unknown token": bearer("y")}[who]
    r = call(client, method, path.format(id="g_00000000000000ff"), body, headers)
    assert r.status_code == 404 and r.mimetype == "application/problem+json"


def test_without_a_token_reads_are_the_spectators_and_writes_are_401(client, redis_client, games):
    a = games["a"]
    before = snapshot(redis_client)
    view = client.get(f"/v1/games/{a}").get_json()
    assert view["you"] is None and view["legal_actions"] == []
    assert client.get(f"/v1/games/{a}/states/3").get_json()["you"] is None
    assert client.get(f"/v1/games/{a}/events").status_code == 200
    r = client.post(f"/v1/games/{a}/actions", json={"type": "ready"})
    assert r.status_code == 401
    assert client.post(f"/v1/games/{a}/seats").status_code == 409  # full, token or not
    assert client.get(f"/v1/games/{a}/audit").status_code == 409  # running
    assert snapshot(redis_client) == before


def test_the_other_seats_token_gives_that_seats_view_and_acts_for_that_seat(client, games):
    """A token is a seat: seat 1's token never reads or acts as seat 0."""
    a, a1 = games["a"], games["a1"]
    view = client.get(f"/v1/games/{a}", headers=bearer(a1)).get_json()
    assert view["you"] == 1 and view["legal_actions"] == [{"type": "ready"}, {"type": "resign"}]
    assert client.get(f"/v1/games/{a}/states/3", headers=bearer(a1)).get_json()["you"] == 1
    r = client.post(f"/v1/games/{a}/actions", json={"type": "ready"}, headers=bearer(a1))
    assert r.status_code == 201
    assert r.get_json()["events"][0] == {**r.get_json()["events"][0], "type": "player_ready",
                                         "seat": 1}  # fmt: skip
    # seat 0 is ready already: the same body with seat 0's token is refused, for seat 0
    r = client.post(f"/v1/games/{a}/actions", json={"type": "ready"}, headers=bearer(games["a0"]))
    assert r.status_code == 422


def test_a_seat_cannot_take_the_other_seat_of_its_own_game(client, redis_client):
    gid, t0, _ = new_game(client, join=False)
    before = snapshot(redis_client)
    assert client.post(f"/v1/games/{gid}/seats", headers=bearer(t0)).status_code == 409
    assert snapshot(redis_client) == before


def test_tokens_of_a_finished_game_still_belong_to_it(client, games):
    a, a0, b = games["a"], games["a0"], games["b"]
    client.post(f"/v1/games/{a}/actions", json={"type": "resign"}, headers=bearer(a0))
    assert client.get(f"/v1/games/{b}", headers=bearer(a0)).status_code == 403
    assert client.get(f"/v1/games/{a}/audit", headers=bearer(a0)).status_code == 200
