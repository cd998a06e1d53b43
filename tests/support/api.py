"""Helpers for the tests that talk to the API: the tests' settings, a game, a pick."""

import random

from service import config

TEST_SETTINGS = {
    "sse_max_s": 0.3,  # streams end soon, so that a test reads them whole
    "sse_keepalive_s": 0.1,
    "longpoll_max_s": 1.0,
    # limits off (tests act far faster than any client, from one address); test_limits.py
    # turns them on
    "rate_actions": 0,
    "rate_requests": 0,
    "rate_games": 0,
    "streams_per_client": 0,
    "streams_per_address": 0,
}


def app_settings(**overrides) -> config.Settings:
    """The tests' settings (``TEST_SETTINGS``) with ``overrides`` (field names)."""
    return config.load(warn=None, **{**TEST_SETTINGS, **overrides})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, game: str = "spit", join: bool = True, **body) -> tuple[str, str, str | None]:
    """Create a game (and take seat 1): (id, seat 0's token, seat 1's token)."""
    r = client.post("/v1/games", json={"game": game, **body})
    assert r.status_code == 201, r.get_json()
    g = r.get_json()
    tok1 = None
    if join:
        r = client.post(f"/v1/games/{g['id']}/seats", json={})
        assert r.status_code == 201, r.get_json()
        tok1 = r.get_json()["token"]
    return g["id"], g["token"], tok1


def pick(view: dict, rng: random.Random) -> dict | None:
    """A random legal action of the view's seat, resign aside."""
    acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
    return rng.choice(acts) if acts else None
